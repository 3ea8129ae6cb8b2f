//! Files in the session: the unsaved-changes guard, the Open / Save As dialogs (asked of the
//! app as effects, answered with commands), opening, saving and the recent-files list. The
//! [`FileFlow`] part decides (ask first, which dialog, what was picked); the flows that span
//! other parts (replacing the document, saving, a finished job) are `file_parts.rs`'s.

use crate::editor::session::command::Effect;
use crate::editor::session::dialogs::{DialogKind, DialogOutcome};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::{DialogPurpose, FileAction, Outcome};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use std::path::{Path, PathBuf};

/// How many recent files are remembered.
pub const MAX_RECENT: usize = 10;

/// The file flow's state: the recent files, the action waiting for the unsaved-changes
/// prompt, the open dialog or typed-path prompt, and whether the window may close.
#[derive(Default)]
pub struct FileFlow {
    recent: Vec<PathBuf>,
    pending_guard: Option<FileAction>,
    dialog: Option<DialogPurpose>,
    path_prompt: Option<DialogPurpose>,
    allow_close: bool,
    quit_requested: bool,
}

impl FileFlow {
    /// Recently opened files, newest first.
    pub fn recent(&self) -> &[PathBuf] {
        &self.recent
    }

    /// Replace the recent files (at most [`MAX_RECENT`] are kept).
    pub fn set_recent(&mut self, mut recent: Vec<PathBuf>) {
        recent.truncate(MAX_RECENT);
        self.recent = recent;
    }

    /// The action waiting for Save / Discard / Cancel.
    pub fn pending_guard(&self) -> Option<&FileAction> {
        self.pending_guard.as_ref()
    }

    /// Ask about unsaved changes before `action`.
    pub fn ask_before(&mut self, action: FileAction) {
        self.pending_guard = Some(action);
    }

    /// A typed path is wanted, because no native dialog could be shown.
    pub fn path_prompt(&self) -> Option<&DialogPurpose> {
        self.path_prompt.as_ref()
    }

    /// A file dialog (or the typed path that stands for it) is open.
    pub fn asking_for_a_path(&self) -> bool {
        self.dialog.is_some() || self.path_prompt.is_some()
    }

    /// True when the person said the window may close with unsaved changes.
    pub fn allow_close(&self) -> bool {
        self.allow_close
    }

    /// True when the window should close.
    pub fn quit_requested(&self) -> bool {
        self.quit_requested
    }

    /// Put `path` first in the recent files.
    pub(super) fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }
}

impl FileFlow {
    /// A file action: the action to run now, or None when the unsaved-changes prompt asks
    /// first (`doc` is the open document).
    pub(super) fn request(&mut self, doc: &Document, action: FileAction) -> Option<FileAction> {
        // A lesson's scratch scene is left for the next lesson without asking; anything else
        // done with it (New, Open, Quit) still asks.
        let moving_on = matches!(action, FileAction::OpenLesson(_)) && doc.is_scratch();
        if doc.is_modified() && !moving_on && !self.allow_close {
            self.pending_guard = Some(action);
            None
        } else {
            Some(action)
        }
    }

    /// The window's close button: refused while the unsaved-changes prompt is needed.
    pub(super) fn close_requested(&mut self, doc: &Document) -> Outcome {
        if self.allow_close || !doc.is_modified() {
            return Outcome::default();
        }
        self.pending_guard = Some(FileAction::Quit);
        Outcome {
            effects: vec![Effect::CancelClose],
        }
    }

    /// The action the prompt was about, taken for its answer.
    pub(super) fn take_guard(&mut self) -> Option<FileAction> {
        self.pending_guard.take()
    }

    /// Quit: the window may close now.
    pub(super) fn quit(&mut self) -> Outcome {
        self.allow_close = true;
        self.quit_requested = true;
        Outcome {
            effects: vec![Effect::CloseWindow],
        }
    }

    /// Another document is in: closing asks again about its unsaved changes.
    pub(super) fn swapped(&mut self) {
        self.allow_close = false;
    }

    /// Show the dialog `purpose` asks for (titled and named from `doc`), unless one is open
    /// (said in `log`).
    pub(super) fn start_dialog(
        &mut self,
        purpose: DialogPurpose,
        doc: &Document,
        log: &mut MessageLog,
    ) -> Outcome {
        if self.asking_for_a_path() {
            log.info("A file dialog is already open");
            return Outcome::default();
        }
        let kind = dialog_kind(&purpose, doc);
        self.dialog = Some(purpose);
        Outcome {
            effects: vec![Effect::ShowDialog(kind)],
        }
    }

    /// A dialog (native or the typed-path field) ended: the purpose and the picked path, for
    /// the router to finish; a cancel or a missing dialog is said in `log`.
    pub(super) fn dialog_closed(
        &mut self,
        outcome: DialogOutcome,
        log: &mut MessageLog,
    ) -> Option<(DialogPurpose, PathBuf)> {
        let purpose = self.dialog.take().or_else(|| self.path_prompt.take())?;
        match outcome {
            DialogOutcome::Picked(path) => return Some((purpose, path)),
            DialogOutcome::Cancelled => log.info("Cancelled"),
            DialogOutcome::Unavailable => {
                log.info("No file dialog could be shown here: type a path instead");
                self.path_prompt = Some(purpose);
            }
        }
        None
    }
}

/// Where a recorded lesson is written: beside the scene, named after it.
fn save_lesson_dialog(doc: &Document) -> DialogKind {
    let scene = doc.path().map(Path::to_path_buf);
    let stem = scene.as_deref().and_then(Path::file_stem);
    DialogKind::SaveLesson {
        suggested: stem.map_or("recorded".into(), |s| s.to_string_lossy().into_owned()) + ".lesson",
        folder: scene
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf),
    }
}

/// The dialog a purpose asks for (titled, filtered, a file name suggested from `doc`).
fn dialog_kind(purpose: &DialogPurpose, doc: &Document) -> DialogKind {
    let stem = || doc.display_name().trim_end_matches(".ron").to_string();
    let export = |suggested: String| DialogKind::ExportFile {
        suggested,
        kinds: purpose.kinds().to_vec(),
    };
    match purpose {
        DialogPurpose::Open => DialogKind::Open,
        DialogPurpose::OpenLesson => DialogKind::OpenLesson,
        DialogPurpose::SaveLesson => save_lesson_dialog(doc),
        DialogPurpose::Import => DialogKind::Import,
        DialogPurpose::ExportProgress => export("graft-progress.json".into()),
        DialogPurpose::ExportSvg => export(format!("{}.svg", stem())),
        DialogPurpose::ExportAnimation => export(format!("{}-animated.svg", stem())),
        DialogPurpose::ExportFigure => export(format!("{}-figure.png", stem())),
        DialogPurpose::ExportGodot | DialogPurpose::ExportGodot3 => DialogKind::Export {
            suggested: format!(
                "{}.tscn",
                doc.path()
                    .and_then(|p| p.file_stem())
                    .map_or("scene".into(), |s| s.to_string_lossy().into_owned())
            ),
        },
        DialogPurpose::ChooseImage { .. } => DialogKind::Image,
        DialogPurpose::InstanceScene { .. } => DialogKind::InstanceSource,
        DialogPurpose::ImportSources => DialogKind::Folder {
            title: "Folder for the instanced scenes (one .ron each)".into(),
        },
        DialogPurpose::SaveBranch { node } => DialogKind::Save {
            suggested: branch_file_name(doc, *node),
        },
        DialogPurpose::SaveAs { .. } => DialogKind::Save {
            suggested: doc.display_name().replace("untitled", "scene.ron"),
        },
    }
}

/// The file name Save branch as scene… suggests: the branch root's name.
fn branch_file_name(doc: &Document, node: crate::model::scene::NodeId) -> String {
    let name = doc.scene().node(node).map(|d| d.name.to_string());
    let name = name.ok().filter(|n| !n.is_empty());
    format!("{}.ron", name.unwrap_or_else(|| "branch".into()))
}

/// A lesson file: named `.lesson`, or starting with the lesson magic line.
pub fn is_lesson_file(path: &std::path::Path) -> bool {
    if FileKind::Lesson.is(path) {
        return true;
    }
    let mut head = [0u8; 64];
    // Only a regular file is opened (a fifo's open would block the window).
    let read = crate::model::read_limit::open_regular(path, crate::model::read_limit::SCENE)
        .ok()
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head).ok())
        .unwrap_or(0);
    crate::editor::lesson::parse::is_lesson(&String::from_utf8_lossy(&head[..read]))
}
