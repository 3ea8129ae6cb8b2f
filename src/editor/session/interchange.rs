//! Godot scenes in the session: opening (or dropping) a `.tscn` imports it as a new untitled
//! scene with its report in a window; File > Export > Godot scene writes the scene as a
//! `.tscn` and reports what had to change. The report and the question about an import's Godot
//! scenes are the [`Interchange`] part's; exports run as [`ExportParts`] methods.

use crate::editor::session::command::Window;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
pub use crate::editor::session::purpose::SourcesAnswer;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use crate::model::godot::import::import_file;
use rustc_hash::FxHashSet;
use std::path::{Path, PathBuf};

/// True for a Godot scene path (`.tscn`, or the binary `.scn` that is refused with advice).
pub fn is_godot_scene(path: &Path) -> bool {
    matches!(
        FileKind::of(path),
        Some(FileKind::GodotText | FileKind::GodotBinary)
    )
}

/// The last import's or export's report, for its window.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InterchangeReport {
    /// "Imported level.tscn" or "Exported sword.tscn".
    pub title: String,
    /// One line per note (the first is the summary).
    pub lines: Vec<String>,
}

/// The report window's contents for an import.
pub fn report_of(path: &Path, report: &crate::model::godot::ImportReport) -> InterchangeReport {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    InterchangeReport {
        title: format!("Imported {name}"),
        lines: report.lines(),
    }
}

/// True for an SVG drawing (imported as a scene of groups).
pub fn is_svg(path: &Path) -> bool {
    FileKind::Svg.is(path)
}

/// The report window's contents for an SVG import.
pub fn svg_report(path: &Path, nodes: usize, notes: &[String]) -> InterchangeReport {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut lines = vec![format!("imported {nodes} nodes (one per group and shape)")];
    lines.extend(notes.iter().cloned());
    InterchangeReport {
        title: format!("Imported {name}"),
        lines,
    }
}

/// After an import that keeps instanced Godot scenes: the question, while it waits for an
/// answer (`import_sources.rs` asks and answers it).
#[derive(Clone, Debug, PartialEq)]
pub struct SourcesQuestion {
    /// The imported file's name ("level.tscn").
    pub imported: String,
    /// The Godot scenes its instances read (nested ones included), in the order found.
    pub sources: Vec<PathBuf>,
}

/// The interchange part: the last import's or export's report (for its window) and, after an
/// import that keeps instanced Godot scenes, the question about them while it waits.
#[derive(Default)]
pub struct Interchange {
    report: Option<InterchangeReport>,
    /// Asked and answered in `import_sources.rs`.
    pub(super) question: Option<SourcesQuestion>,
}

impl Interchange {
    /// The last import or export report.
    pub fn report(&self) -> Option<&InterchangeReport> {
        self.report.as_ref()
    }

    /// The last report, to add to.
    pub(super) fn report_mut(&mut self) -> Option<&mut InterchangeReport> {
        self.report.as_mut()
    }

    /// Forget the question (the document it was about goes).
    pub(super) fn forget_question(&mut self) {
        self.question = None;
    }

    /// Keep `report` for its window, opened (in `windows`) when `open`.
    pub(super) fn show(
        &mut self,
        report: InterchangeReport,
        open: bool,
        windows: &mut FxHashSet<Window>,
    ) {
        self.report = Some(report);
        if open {
            windows.insert(Window::ImportReport);
        }
    }

    /// An export finished: its report (in a window when it has notes) and status line.
    pub(super) fn exported(
        &mut self,
        done: Exported,
        windows: &mut FxHashSet<Window>,
        log: &mut MessageLog,
    ) -> Outcome {
        if let Some(report) = done.report {
            let notes = report.lines.len().saturating_sub(1);
            self.show(report, notes > 0, windows);
        }
        log.info(done.said);
        Outcome::default()
    }
}

/// A file read as a new, untitled scene, for the router to swap in: its report, whether the
/// report's window opens, the status line, and (a Godot import) the imported file's name, to
/// ask about its instanced Godot scenes.
pub(super) struct Imported {
    pub(super) doc: Document,
    pub(super) report: InterchangeReport,
    pub(super) open_report: bool,
    pub(super) said: String,
    pub(super) sources_of: Option<String>,
}

/// Read an SVG drawing as a new, untitled scene.
pub(super) fn read_svg(path: &Path) -> Result<Imported> {
    let imported = crate::model::svg::import::import_svg_file(path)?;
    let nodes = imported.scene.len();
    Ok(Imported {
        report: svg_report(path, nodes, &imported.notes),
        open_report: !imported.notes.is_empty(),
        said: format!(
            "Imported {}: {nodes} nodes, {} notes (Save writes it as a graft scene)",
            path.display(),
            imported.notes.len()
        ),
        doc: Document::untitled(imported.scene),
        sources_of: None,
    })
}

/// Read a Godot scene as a new, untitled scene (a binary `.scn` is refused with advice).
pub(super) fn read_godot(path: &Path) -> Result<Imported> {
    if FileKind::GodotBinary.is(path) {
        return Err(Error::Refused(format!(
            "{} is a binary Godot scene: open it in Godot and save it as .tscn (text), then import that",
            path.display()
        )));
    }
    let imported = import_file(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let notes = imported.report.notes.len();
    let nodes = imported.scene.len();
    Ok(Imported {
        report: report_of(path, &imported.report),
        open_report: notes > 0,
        said: format!(
            "Imported {name}: {nodes} nodes, {notes} notes (Save writes it as a graft scene)"
        ),
        doc: Document::untitled(imported.scene),
        sources_of: Some(name),
    })
}

/// What a finished export says: its status line and, for a Godot export, its report.
pub struct Exported {
    /// "Exported level.tscn (2 notes)".
    pub said: String,
    /// The report window's contents.
    pub report: Option<InterchangeReport>,
}
