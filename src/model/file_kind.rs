//! Every kind of file graft reads or writes, in one table: its extensions, the name a file
//! dialog's filter gives it, and the choices each dialog and path prompt offers. The session
//! (which dialog, what a picked path means), the app (native dialog filters, typed-path
//! prompts) and the CLI (what an output's extension writes) all read it; adding a format is a
//! row here and the reader or writer it names.

use std::path::Path;

/// A kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A graft scene (`.ron`).
    Scene,
    /// A Godot text scene (`.tscn`): imported, exported, instanced.
    GodotText,
    /// A Godot binary scene (`.scn`): recognised only to be refused with advice.
    GodotBinary,
    /// An SVG drawing: imported as groups; exported as groups, an animation or a figure.
    Svg,
    /// An HTML page that plays the clip.
    Html,
    /// An animated GIF of the clip.
    Gif,
    /// A PNG: a figure, an animated PNG of the clip, or a sprite's image.
    Png,
    /// A JPEG sprite image.
    Jpeg,
    /// A WebP sprite image.
    Webp,
    /// A graft lesson (`.lesson`).
    Lesson,
    /// JSON: a learner's exported lesson progress.
    Json,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct KindRow {
    /// The kind.
    pub kind: FileKind,
    /// Its extensions, lower case, the usual one first.
    pub extensions: &'static [&'static str],
    /// What a file dialog's filter calls it.
    pub label: &'static str,
    /// Its media type, for an image embedded as a `data:` URI.
    pub mime: Option<&'static str>,
}

/// Every kind graft knows.
pub const KINDS: [KindRow; 11] = [
    row(FileKind::Scene, &["ron"], "graft scene", None),
    row(FileKind::GodotText, &["tscn"], "Godot text scene", None),
    row(FileKind::GodotBinary, &["scn"], "Godot binary scene", None),
    row(
        FileKind::Svg,
        &["svg"],
        "SVG drawing",
        Some("image/svg+xml"),
    ),
    row(FileKind::Html, &["html", "htm"], "HTML page", None),
    row(FileKind::Gif, &["gif"], "GIF animation", Some("image/gif")),
    row(
        FileKind::Png,
        &["png", "apng"],
        "PNG image",
        Some("image/png"),
    ),
    row(
        FileKind::Jpeg,
        &["jpg", "jpeg"],
        "JPEG image",
        Some("image/jpeg"),
    ),
    row(FileKind::Webp, &["webp"], "WebP image", Some("image/webp")),
    row(FileKind::Lesson, &["lesson"], "graft lesson", None),
    row(FileKind::Json, &["json"], "JSON file", None),
];

const fn row(
    kind: FileKind,
    extensions: &'static [&'static str],
    label: &'static str,
    mime: Option<&'static str>,
) -> KindRow {
    KindRow {
        kind,
        extensions,
        label,
        mime,
    }
}

/// What File ▸ Open takes.
pub const OPENABLE: &[FileKind] = &[
    FileKind::Scene,
    FileKind::Lesson,
    FileKind::GodotText,
    FileKind::Svg,
];
/// What File ▸ Import takes.
pub const IMPORTABLE: &[FileKind] = &[FileKind::GodotText, FileKind::Svg];
/// What a scene is saved as.
pub const SCENE: &[FileKind] = &[FileKind::Scene];
/// What an instance's source may be.
pub const INSTANCE_SOURCES: &[FileKind] = &[FileKind::Scene, FileKind::GodotText];
/// A lesson file.
pub const LESSON: &[FileKind] = &[FileKind::Lesson];
/// A Godot export.
pub const GODOT_EXPORT: &[FileKind] = &[FileKind::GodotText];
/// The scene's groups as SVG.
pub const SVG_EXPORT: &[FileKind] = &[FileKind::Svg];
/// The clip: animated SVG, the HTML player, or frames as GIF or animated PNG.
pub const ANIMATION_EXPORT: &[FileKind] =
    &[FileKind::Svg, FileKind::Html, FileKind::Gif, FileKind::Png];
/// A figure: PNG or SVG.
pub const FIGURE_EXPORT: &[FileKind] = &[FileKind::Png, FileKind::Svg];
/// A learner's exported progress.
pub const PROGRESS_EXPORT: &[FileKind] = &[FileKind::Json];
/// A sprite's image.
pub const SPRITE_IMAGES: &[FileKind] = &[FileKind::Png, FileKind::Jpeg, FileKind::Webp];

impl FileKind {
    /// The kind a path names by its extension (any case), if graft knows it.
    pub fn of(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        KINDS
            .iter()
            .find(|r| r.extensions.contains(&extension.as_str()))
            .map(|r| r.kind)
    }

    /// Its row of the table.
    pub fn row(self) -> &'static KindRow {
        // Every kind has a row (the table test checks it).
        KINDS.iter().find(|r| r.kind == self).unwrap_or(&KINDS[0])
    }

    /// Its extensions, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        self.row().extensions
    }

    /// What a file dialog's filter calls it.
    pub fn label(self) -> &'static str {
        self.row().label
    }

    /// True when `path` is of this kind.
    pub fn is(self, path: &Path) -> bool {
        Self::of(path) == Some(self)
    }
}

/// The extensions of a choice, as a typed-path prompt names them: "a .svg, .html, .gif or .png
/// path" (the usual extension of each).
pub fn prompt_words(kinds: &[FileKind]) -> String {
    let names: Vec<String> = kinds
        .iter()
        .map(|k| format!(".{}", k.extensions()[0]))
        .collect();
    match names.as_slice() {
        [] => "a path".into(),
        [one] => format!("a {one} path"),
        [rest @ .., last] => format!("a {} or {last} path", rest.join(", ")),
    }
}

/// True when `path`'s extension is one of the choice's.
pub fn accepts(kinds: &[FileKind], path: &Path) -> bool {
    FileKind::of(path).is_some_and(|k| kinds.contains(&k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_row_and_no_extension_is_claimed_twice() {
        let mut seen = std::collections::HashSet::new();
        for row in &KINDS {
            assert_eq!(row.kind.row().kind, row.kind);
            for e in row.extensions {
                assert!(seen.insert(*e), "{e} twice");
                assert_eq!(*e, e.to_ascii_lowercase());
            }
        }
    }

    #[test]
    fn kinds_by_extension_in_any_case_and_prompts_name_every_choice() {
        assert_eq!(
            FileKind::of(Path::new("a/b.TSCN")),
            Some(FileKind::GodotText)
        );
        assert_eq!(FileKind::of(Path::new("x.jpeg")), Some(FileKind::Jpeg));
        assert_eq!(FileKind::of(Path::new("noext")), None);
        assert_eq!(
            prompt_words(ANIMATION_EXPORT),
            "a .svg, .html, .gif or .png path"
        );
        assert_eq!(prompt_words(SPRITE_IMAGES), "a .png, .jpg or .webp path");
        assert_eq!(prompt_words(SCENE), "a .ron path");
        assert!(accepts(FIGURE_EXPORT, Path::new("f.PNG")));
        assert!(!accepts(FIGURE_EXPORT, Path::new("f.gif")));
    }
}
