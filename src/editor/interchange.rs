//! Godot scenes in the session: opening (or dropping) a `.tscn` imports it as a new untitled
//! scene with its report in a window; File > Export > Godot scene writes the scene as a
//! `.tscn` and reports what had to change.

use super::command::{Effect, Window};
use super::session::{Editor, Outcome};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::model::godot::export::{ExportOptions, to_tscn};
use crate::model::godot::import::import_file;
use crate::model::godot::tree::find_project_root;
use std::path::{Path, PathBuf};

/// True for a Godot scene path (`.tscn`, or the binary `.scn` that is refused with advice).
pub fn is_godot_scene(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("tscn" | "scn")
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
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
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

impl Editor {
    /// Import an SVG drawing as a new, untitled scene (the current one stays if it fails).
    pub(super) fn import_svg(&mut self, path: PathBuf) -> Result<Outcome> {
        let imported = crate::model::svg::import::import_svg_file(&path)?;
        let nodes = imported.scene.len();
        let report = svg_report(&path, nodes, &imported.notes);
        let mut outcome = self.replace_document(Document::untitled(imported.scene));
        if !imported.notes.is_empty() {
            self.windows.insert(Window::ImportReport);
        }
        self.report = Some(report);
        self.info(format!(
            "Imported {}: {nodes} nodes, {} notes (Save writes it as a graft scene)",
            path.display(),
            imported.notes.len()
        ));
        outcome.effects.push(Effect::FrameAllNextFrame);
        Ok(outcome)
    }

    /// The last import or export report.
    pub fn interchange_report(&self) -> Option<&InterchangeReport> {
        self.report.as_ref()
    }

    /// Import a Godot scene as a new, untitled scene (the current one stays if it fails).
    pub(super) fn import_godot(&mut self, path: PathBuf) -> Result<Outcome> {
        if path.extension().and_then(|e| e.to_str()) == Some("scn") {
            return Err(Error::Refused(format!(
                "{} is a binary Godot scene: open it in Godot and save it as .tscn (text), then import that",
                path.display()
            )));
        }
        let imported = import_file(&path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let notes = imported.report.notes.len();
        let nodes = imported.scene.len();
        let report = report_of(&path, &imported.report);
        let mut outcome = self.replace_document(Document::untitled(imported.scene));
        self.report = Some(report);
        if notes > 0 {
            self.windows.insert(Window::ImportReport);
        }
        self.info(format!(
            "Imported {name}: {nodes} nodes, {notes} notes (Save writes it as a graft scene)"
        ));
        outcome.effects.push(Effect::FrameAllNextFrame);
        Ok(outcome)
    }

    /// Write the scene as a Godot 4 `.tscn` (images as `res://` paths under the project that
    /// holds the target).
    pub(super) fn export_godot(&mut self, target: PathBuf) -> Result<Outcome> {
        let absolute = std::path::absolute(&target).unwrap_or_else(|_| target.clone());
        let options = ExportOptions {
            project_root: find_project_root(&absolute),
            scene_dir: self
                .doc
                .path()
                .and_then(Path::parent)
                .map(Path::to_path_buf),
            root_name: self
                .doc
                .path()
                .and_then(Path::file_stem)
                .map_or("Root".into(), |s| s.to_string_lossy().into_owned()),
        };
        let (text, report) = to_tscn(self.doc.scene(), &options);
        crate::file::atomic_write_with(&target, |w| w.write_all(text.as_bytes()))
            .map_err(|e| Error::Refused(format!("Could not export: {e}")))?;
        let mut lines = vec![format!(
            "exported {} nodes under one root Node2D to {}",
            self.doc.scene().len(),
            target.display()
        )];
        if options.project_root.is_none() {
            lines.push("no project.godot above the target: images are not written".into());
        }
        lines.extend(
            report
                .renamed
                .iter()
                .map(|r| format!("renamed {r} (Godot needs unique, valid sibling names)")),
        );
        lines.extend(report.notes);
        let notes = lines.len() - 1;
        self.report = Some(InterchangeReport {
            title: format!("Exported {}", target.display()),
            lines,
        });
        if notes > 0 {
            self.windows.insert(Window::ImportReport);
        }
        self.info(format!("Exported {} ({notes} notes)", target.display()));
        Ok(Outcome::default())
    }
}
