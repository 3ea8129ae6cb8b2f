//! How values are spelled in an exported `.tscn`: numbers that read back to the same f32,
//! node names Godot accepts, quoted strings and `res://` paths. A leaf: it imports no other
//! part of the Godot export.

use std::path::Path;

/// A float as Godot reads it back to the same f32 (shortest round-trip form, `e` for the huge).
pub fn num(v: f32) -> String {
    format!("{v:?}")
}

/// A Godot node name: the characters Godot refuses (`. : @ / " %`) replaced, never empty.
pub fn valid_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if ".:@/\"%".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.is_empty() {
        "Node".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The image path as `res://…` under the project root, or None when it is outside.
pub fn res_path(file: &Path, root: &Path) -> Option<String> {
    // A file not on disk (yet) is placed by name: absolute, `..` folded.
    let real = |p: &Path| {
        p.canonicalize()
            .unwrap_or_else(|_| crate::model::scene::sprites::absolute_dir(p))
    };
    let (file, root) = (real(file), real(root));
    let rel = file.strip_prefix(&root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(format!("res://{}", parts.join("/")))
}

/// Escape a string for a `.tscn` (quotes and backslashes).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
