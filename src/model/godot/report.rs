//! What a Godot import has to say: its notes (each with its kind and place) and the report
//! of the nodes it imported and left out. A leaf every part of the import writes to.

use std::collections::BTreeMap;
use std::fmt;

/// What kind of thing an import note says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteKind {
    /// A node moved to the root (or under its CanvasLayer) to keep Godot's transforms.
    Rerooted,
    /// Something graft can only approximate (anchors, capsules, unknown classes).
    Approximated,
    /// Something not imported (a shape graft cannot draw, a stray section).
    Skipped,
    /// A file that could not be read (an instanced scene, a texture).
    Missing,
}

impl fmt::Display for NoteKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoteKind::Rerooted => "re-rooted",
            NoteKind::Approximated => "approximated",
            NoteKind::Skipped => "skipped",
            NoteKind::Missing => "missing",
        })
    }
}

/// One thing an import has to say, with the `.tscn` line it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// What kind.
    pub kind: NoteKind,
    /// `path:line` of the section or property.
    pub place: String,
    /// What happened.
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.place, self.kind, self.message)
    }
}

/// What an import did: nodes by Godot type, the ones left out, and every note.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportReport {
    /// Imported nodes by Godot class.
    pub imported: BTreeMap<String, usize>,
    /// Nodes not imported (no 2D transform and nothing 2D below them) by class.
    pub skipped: BTreeMap<String, usize>,
    /// Re-rootings, approximations, skipped parts and missing files, in file order.
    pub notes: Vec<Note>,
}

impl ImportReport {
    /// The report as lines of text: a summary, then every note.
    pub fn lines(&self) -> Vec<String> {
        let count: usize = self.imported.values().sum();
        let by_type: Vec<String> = self
            .imported
            .iter()
            .map(|(class, n)| format!("{n} {class}"))
            .collect();
        let mut out = vec![format!("imported {count} nodes: {}", by_type.join(", "))];
        if !self.skipped.is_empty() {
            let skipped: Vec<String> = self
                .skipped
                .iter()
                .map(|(class, n)| format!("{n} {class}"))
                .collect();
            out.push(format!(
                "left out (no 2D transform, nothing 2D below): {}",
                skipped.join(", ")
            ));
        }
        out.extend(self.notes.iter().map(Note::to_string));
        out
    }
}
