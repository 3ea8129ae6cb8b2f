//! Sprite images as egui textures, loaded once per image and kept until another scene opens.

use crate::model::document::Document;
use crate::model::read_limit;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The sprite textures loaded so far, by image (None: it could not be read).
#[derive(Default)]
pub(super) struct Textures {
    loaded: HashMap<String, Option<egui::TextureHandle>>,
}

impl Textures {
    /// Drop every texture (another scene was loaded).
    pub(super) fn clear(&mut self) {
        self.loaded.clear();
    }

    /// The texture of a sprite: the built-in scene's embedded image, or the file next to the
    /// scene; None (drawn as a red crossed box) when it cannot be read.
    pub(super) fn texture(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        path: &str,
    ) -> Option<egui::TextureId> {
        let key = match embedded_sprite(doc, path) {
            Some(_) => format!("embedded:{path}"),
            None => resolve_sprite(doc, path).display().to_string(),
        };
        let entry = self.loaded.entry(key.clone()).or_insert_with(|| {
            let image = match embedded_sprite(doc, path) {
                Some(bytes) => image::load_from_memory(bytes).ok()?,
                None => read_image(&resolve_sprite(doc, path))?,
            };
            let image = image.to_rgba8();
            let size = [image.width() as usize, image.height() as usize];
            let color = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
            Some(ctx.load_texture(key, color, egui::TextureOptions::LINEAR))
        });
        entry.as_ref().map(|t| t.id())
    }
}

/// A sprite's image file, decoded: only a regular file within [`read_limit::IMAGE`] is read
/// (a fifo or `/dev/zero` would hang the window); its type from its extension, else its bytes.
fn read_image(path: &Path) -> Option<image::DynamicImage> {
    let bytes = read_limit::read_bounded(path, read_limit::IMAGE).ok()?;
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes));
    if let Ok(format) = image::ImageFormat::from_path(path) {
        reader.set_format(format);
    }
    reader.with_guessed_format().ok()?.decode().ok()
}

/// Where a sprite's image is: relative to the scene file's folder (or the working folder for
/// an untitled scene).
fn resolve_sprite(doc: &Document, path: &str) -> PathBuf {
    doc.sprite_folder()
        .map_or_else(|| PathBuf::from(path), |dir| dir.join(path))
}

/// The sample scenes' sprites (the built-in sword, the tank's treads and the flip's fish a
/// lesson opens untitled), compiled into the binary so they show wherever it runs, by the path
/// the scenes name.
const EMBEDDED_SPRITES: [(&str, &[u8]); 3] = [
    (
        "../assets/sword.png",
        include_bytes!("../../../assets/sword.png"),
    ),
    (
        "../assets/tread.png",
        include_bytes!("../../../assets/tread.png"),
    ),
    (
        "../assets/fish.png",
        include_bytes!("../../../assets/fish.png"),
    ),
];

/// The bytes of a sprite embedded for the built-in scene: only while the document has no file
/// (a saved or opened scene reads images next to itself).
fn embedded_sprite(doc: &Document, path: &str) -> Option<&'static [u8]> {
    if doc.path().is_some() {
        return None;
    }
    EMBEDDED_SPRITES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| *bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::lesson::samples::{SAMPLE_NAMES, sample_scene};
    use crate::model::scene::Shape;

    #[test]
    fn every_sample_scenes_sprite_is_embedded_for_an_untitled_document() {
        let mut sprites = 0;
        for name in SAMPLE_NAMES {
            let text = sample_scene(name).expect("a sample");
            let scene = crate::model::file::parse(text, Path::new("scenes/x.ron")).expect(name);
            let doc = Document::untitled(scene);
            for i in 0..doc.scene().len() {
                if let Shape::Sprite(sprite) = &doc.scene().data_at(i).shape {
                    let path = sprite.path.as_str();
                    let bytes = embedded_sprite(&doc, path);
                    assert!(bytes.is_some(), "{name}: {path} is not embedded");
                    assert!(image::load_from_memory(bytes.unwrap_or_default()).is_ok());
                    sprites += 1;
                }
            }
        }
        assert!(sprites >= 3, "the samples have sprites: {sprites}");
    }
}
