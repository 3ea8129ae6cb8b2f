//! Figures as PNG: the figure's SVG rendered with resvg (tiny-skia), with the fonts the app
//! already ships (egui's Ubuntu Light and Noto Emoji), so the PNG is the SVG, pixel for pixel,
//! and needs no window or system fonts.

use crate::error::{Error, Result};
use crate::model::read_limit;
use std::sync::{Arc, LazyLock};

/// The fonts figures use, loaded once.
static FONTS: LazyLock<Arc<resvg::usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    db.load_font_data(epaint_default_fonts::NOTO_EMOJI_REGULAR.to_vec());
    db.load_font_data(epaint_default_fonts::EMOJI_ICON.to_vec());
    db.set_sans_serif_family("Ubuntu");
    Arc::new(db)
});

/// The largest PNG side rendered, in device pixels.
pub const MAX_PNG_SIDE: u32 = 16_384;

/// Render an SVG document at `scale` device pixels per CSS pixel.
fn render(svg: &str, scale: f32) -> Result<resvg::tiny_skia::Pixmap> {
    let options = resvg::usvg::Options {
        fontdb: FONTS.clone(),
        image_href_resolver: resvg::usvg::ImageHrefResolver {
            resolve_data: resvg::usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|href, _| linked_image(std::path::Path::new(href))),
        },
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options)
        .map_err(|e| Error::Format(format!("cannot render the figure: {e}")))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    if w == 0 || h == 0 || w > MAX_PNG_SIDE || h > MAX_PNG_SIDE {
        return Err(Error::Refused(format!(
            "a {w}×{h} px image is outside 1…{MAX_PNG_SIDE} px per side: choose a smaller size or scale"
        )));
    }
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::Refused(format!("cannot allocate a {w}×{h} px image")))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// An image an SVG links by path (figures embed theirs; this is the fallback): read only
/// from a regular file within [`read_limit::IMAGE`], its type from its first bytes.
fn linked_image(path: &std::path::Path) -> Option<resvg::usvg::ImageKind> {
    use resvg::usvg::ImageKind;
    let bytes = read_limit::read_bounded(path, read_limit::IMAGE).ok()?;
    let data = Arc::new(bytes);
    match data.as_slice() {
        [0x89, b'P', b'N', b'G', ..] => Some(ImageKind::PNG(data)),
        [0xff, 0xd8, 0xff, ..] => Some(ImageKind::JPEG(data)),
        [b'G', b'I', b'F', b'8', ..] => Some(ImageKind::GIF(data)),
        [b'R', b'I', b'F', b'F', _, _, _, _, rest @ ..] if rest.starts_with(b"WEBP") => {
            Some(ImageKind::WEBP(data))
        }
        _ => None,
    }
}

/// Render an SVG document to straight-alpha RGBA pixels: (width, height, bytes).
pub fn render_rgba(svg: &str, scale: f32) -> Result<(u32, u32, Vec<u8>)> {
    let pixmap = render(svg, scale)?;
    let (w, h) = (pixmap.width(), pixmap.height());
    let mut rgba = pixmap.take();
    // tiny-skia stores premultiplied alpha; images want it straight.
    for px in rgba.chunks_exact_mut(4) {
        let a = px[3] as u32;
        if a != 0 && a != 255 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
    Ok((w, h, rgba))
}

/// Render an SVG document to PNG bytes.
pub fn render_png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    render(svg, scale)?
        .encode_png()
        .map_err(|e| Error::Format(format!("cannot encode the PNG: {e}")))
}
