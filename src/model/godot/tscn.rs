//! Godot's text scene / resource format (`.tscn`, `.tres`; Godot 3 `format=2` and Godot 4
//! `format=3` / `format=4`) as sections: a header `[kind attr=value ...]` on one line, then
//! `key = value` property lines up to the next header. Strict: anything else is a [`TscnError`]
//! with its 1-based line and column (in characters). Values follow [`super::variant`]. The
//! result borrows from the text: no copies of names, keys or strings without escapes (see
//! [`Value::into_owned`]). What the sections mean (nodes, resources, ...) is left to the caller;
//! beside the parser: a file's resource tables ([`SceneFile`]), reading a scene file's text
//! within limits, and finding the folder `res://` names.

use super::cursor::Cursor;
pub use super::cursor::TscnError;
pub use super::variant::{MAX_DEPTH, ResourceKind, Value};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// A parsed text scene or resource: its sections in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tscn<'a> {
    /// The sections; the first is usually `gd_scene` (or `gd_resource` in a `.tres`).
    pub sections: Vec<Section<'a>>,
}

/// One `[kind attr=value ...]` header and the property lines under it.
#[derive(Debug, Clone, PartialEq)]
pub struct Section<'a> {
    /// The word after `[`: `gd_scene`, `ext_resource`, `sub_resource`, `node`, `connection`, ...
    pub kind: &'a str,
    /// The header's attributes in order (`name`, `type`, `parent`, `id`, `unique_id`, ...).
    pub attrs: Vec<(&'a str, Value<'a>)>,
    /// The property lines in order.
    pub props: Vec<Property<'a>>,
    /// The 1-based line of the header.
    pub line: u32,
}

/// One `key = value` line (the value may span lines).
#[derive(Debug, Clone, PartialEq)]
pub struct Property<'a> {
    /// Everything before ` = `: `position`, `script/source`, `tracks/0/keys`, ...
    pub key: Cow<'a, str>,
    /// The value.
    pub value: Value<'a>,
    /// The 1-based line where the key starts.
    pub line: u32,
    /// The 1-based column (in characters) where the key starts.
    pub col: u32,
}

impl<'a> Tscn<'a> {
    /// The sections of one kind, in order.
    pub fn sections_of<'s>(&'s self, kind: &'s str) -> impl Iterator<Item = &'s Section<'a>> + 's {
        self.sections.iter().filter(move |s| s.kind == kind)
    }
}

impl<'a> Section<'a> {
    /// The header attribute `key`, if present.
    pub fn attr(&self, key: &str) -> Option<&Value<'a>> {
        self.attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The text of a string attribute (`name`, `type`, `parent`, ...).
    pub fn attr_str(&self, key: &str) -> Option<&str> {
        self.attr(key).and_then(Value::as_str)
    }

    /// The property `key`, if present (the last one if repeated).
    pub fn prop(&self, key: &str) -> Option<&Value<'a>> {
        self.props
            .iter()
            .rev()
            .find(|p| p.key == key)
            .map(|p| &p.value)
    }
}

/// Whether bytes are Godot's binary scene / resource format (`.scn`, `.res`): they start with
/// `RSRC`, or `RSCC` when compressed.
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(b"RSRC") || bytes.starts_with(b"RSCC")
}

/// Parses a whole text scene or resource. Blank lines and `;` comments are skipped; a UTF-8
/// byte-order mark is allowed. Never panics.
pub fn parse(text: &str) -> Result<Tscn<'_>, TscnError> {
    let mut c = Cursor::new(text);
    let mut sections: Vec<Section<'_>> = Vec::new();
    loop {
        c.skip_ws();
        let m = c.mark();
        match c.peek() {
            None => return Ok(Tscn { sections }),
            Some(b'[') => sections.push(header(&mut c)?),
            Some(_) => {
                let Some(section) = sections.last_mut() else {
                    return Err(c.error(m, "property before the first section header"));
                };
                let key = c.key()?;
                c.skip_inline_ws();
                if c.peek() != Some(b'=') {
                    return Err(c.expected(&format!("'=' after property key `{key}`")));
                }
                c.bump();
                let value = c.value_on_line()?;
                c.end_of_line()?;
                section.props.push(Property {
                    key,
                    value,
                    line: m.line,
                    col: c.col(m),
                });
            }
        }
    }
}

/// `[kind attr=value ...]`, closed on the line it opens (its values may span lines).
fn header<'a>(c: &mut Cursor<'a>) -> Result<Section<'a>, TscnError> {
    let m = c.mark();
    c.bump();
    c.skip_inline_ws();
    let Some(kind) = c.ident() else {
        return Err(c.expected("a section kind after '['"));
    };
    let mut section = Section {
        kind,
        attrs: Vec::new(),
        props: Vec::new(),
        line: m.line,
    };
    loop {
        c.skip_inline_ws();
        match c.peek() {
            Some(b']') => {
                c.bump();
                c.end_of_line()?;
                return Ok(section);
            }
            None | Some(b'\n') => {
                return Err(c.error(
                    m,
                    format!("section header `[{kind}` is never closed (no ']')"),
                ));
            }
            _ => {}
        }
        let Some(key) = c.ident() else {
            return Err(c.expected("an attribute name or ']'"));
        };
        c.skip_inline_ws();
        c.expect(b'=')?;
        let value = c.value_on_line()?;
        section.attrs.push((key, value));
    }
}

/// The folder holding `project.godot`, searched upward from a scene's folder.
pub fn find_project_root(scene: &Path) -> Option<PathBuf> {
    let mut dir = scene.parent()?;
    loop {
        if dir.join("project.godot").is_file() {
            return Some(dir.to_path_buf());
        }
        dir = dir.parent()?;
    }
}

/// A file's text, or why it cannot be read (missing, not a regular file, binary `.scn`, too
/// big, not UTF-8).
pub fn read_scene_text(path: &Path) -> std::result::Result<String, String> {
    let shown = path.display();
    let bytes = crate::model::read_limit::read_bounded(path, crate::model::read_limit::TSCN)
        .map_err(|e| match e {
            crate::Error::Io { source, .. } => format!("cannot read {shown}: {source}"),
            other => other.to_string(),
        })?;
    if looks_binary(&bytes) {
        return Err(format!(
            "{shown} is a binary Godot scene (.scn): open it in Godot and save it as .tscn (text)"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{shown} is not UTF-8 text (byte {}): not a text scene",
            e.utf8_error().valid_up_to()
        )
    })
}

/// An external resource of one file: its declared type and where it is.
#[derive(Debug)]
pub struct ExtResource {
    /// `Texture2D`, `PackedScene`, `Script`, …
    pub kind: String,
    /// The file on disk (`res://` resolved), or None when it cannot be located (uid only).
    pub path: Option<PathBuf>,
    /// The path as written.
    pub written: String,
}

/// One scene file's resource tables (nodes' properties refer into them).
#[derive(Debug)]
pub struct SceneFile {
    /// The file.
    pub path: PathBuf,
    /// The `format=` of its header: 2 for Godot 3, 3 or 4 for Godot 4.
    pub format: u32,
    /// `[ext_resource]` by id.
    pub ext: FxHashMap<String, ExtResource>,
    /// `[sub_resource]` by id: its type and properties.
    pub sub: FxHashMap<String, SubResource>,
}

/// A `[sub_resource]`: its type and properties, owned.
#[derive(Debug)]
pub struct SubResource {
    /// `RectangleShape2D`, `AtlasTexture`, …
    pub kind: String,
    /// Its properties in order.
    pub props: Vec<(String, Value<'static>)>,
}

impl SubResource {
    /// The property `key` (the last one written wins).
    pub fn prop(&self, key: &str) -> Option<&Value<'static>> {
        self.props
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}
