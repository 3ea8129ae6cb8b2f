//! Files in the session: the unsaved-changes guard, the Open / Save As dialogs (asked of the
//! app as effects, answered with commands), opening, saving and the recent-files list. The
//! [`FileFlow`] part decides (ask first, which dialog, what was picked); the router (`routes.rs`)
//! carries out what spans other parts (replacing the document, saving, a lesson's file).

use crate::editor::session::command::{Effect, GuardAnswer, InstanceCommand};
use crate::editor::session::dialogs::{DialogKind, DialogOutcome};
use crate::editor::session::exports::ExportParts;
use crate::editor::session::exports::FigureSpec;
use crate::editor::session::import_sources::SourcesStep;
use crate::editor::session::jobs::{Finished, Loaded};
use crate::editor::session::journal::RecoveryAnswer;
use crate::editor::session::lesson::{LessonCommand, LessonSource};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::SourcesAnswer;
use crate::editor::session::settings::Settings;
use crate::editor::session::{DialogPurpose, Editor, FileAction, MAX_RECENT, Outcome};
use crate::editor::session::{instances, interchange, jobs, sprites};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use crate::model::scene::Scene;
use std::path::Path;
use std::path::PathBuf;

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

/// The file flow's routes: what a file action, a dialog's answer or a finished job does
/// across parts (the file flow, the jobs, the interchange, the document and its journal, the
/// selection, the lesson and the disk watch), each part handed only what it reads or changes.
/// They stay on `Editor` (routes.rs is full); the next step is a `FileParts` context of the
/// parts a file flow changes, with the lesson and recovery steps routed back.
impl Editor {
    /// Run a file action now, or first ask about unsaved changes.
    pub(super) fn request(&mut self, action: FileAction) -> Result<Outcome> {
        match self.files.request(&self.doc, action) {
            Some(action) => self.run_action(action),
            None => Ok(Outcome::default()),
        }
    }

    /// Show a file dialog, unless one is open ([`FileFlow::start_dialog`](files::FileFlow)).
    pub(super) fn start_dialog(&mut self, purpose: DialogPurpose) -> Outcome {
        self.files.start_dialog(purpose, &self.doc, &mut self.log)
    }

    /// Put `path` first in the recent files.
    pub(super) fn remember(&mut self, path: PathBuf) {
        self.files.remember(&path);
    }

    /// The prompt's answer: save first, discard, or cancel.
    pub(super) fn answer_guard(&mut self, answer: GuardAnswer) -> Result<Outcome> {
        let Some(action) = self.files.take_guard() else {
            return Ok(Outcome::default());
        };
        match answer {
            GuardAnswer::Cancel => {
                if action == FileAction::SwapLoaded {
                    self.jobs.drop_loaded();
                }
                self.info("Cancelled: nothing was changed");
                Ok(Outcome::default())
            }
            GuardAnswer::Discard => self.run_action(action),
            GuardAnswer::Save if self.doc.path().is_none() => {
                Ok(self.start_dialog(DialogPurpose::SaveAs { then: Some(action) }))
            }
            GuardAnswer::Save => self.save_then(None, action),
        }
    }

    /// Save (to `path`, or the document's own file), then run `action`: now if saved now,
    /// else when the save may go on (the disk watch holds it).
    fn save_then(&mut self, path: Option<PathBuf>, action: FileAction) -> Result<Outcome> {
        let (saved, mut outcome) = self.save(path)?;
        if saved {
            outcome.effects.extend(self.run_action(action)?.effects);
        } else {
            self.wait_for_save(action);
        }
        Ok(outcome)
    }

    /// Run a file action now (no unsaved-changes question).
    pub(super) fn run_action(&mut self, action: FileAction) -> Result<Outcome> {
        match action {
            FileAction::New => {
                let outcome = self.replace_document(Document::untitled(Scene::new()));
                self.info("New scene");
                Ok(outcome)
            }
            FileAction::Open => Ok(self.start_dialog(DialogPurpose::Open)),
            FileAction::Import => Ok(self.start_dialog(DialogPurpose::Import)),
            FileAction::OpenPath(path) => self.open_path(path),
            FileAction::Revert => match self.doc.path().map(PathBuf::from) {
                Some(path) => self.open_path(path),
                None => Err(Error::Refused(
                    "Nothing to revert to: this scene has never been saved".into(),
                )),
            },
            FileAction::SwapLoaded => Ok(match self.jobs.take_loaded() {
                Some(loaded) => self.swap_in(loaded),
                None => Outcome::default(),
            }),
            FileAction::Generate(request) => {
                match self.jobs.generate(&self.doc, &mut self.log, request)? {
                    Some(loaded) => Ok(self.swap_in(loaded)),
                    None => Ok(Outcome::default()),
                }
            }
            FileAction::OpenLesson(lesson) => self.start_lesson(*lesson),
            FileAction::Recover => self.answer_recovery_now(RecoveryAnswer::Recover),
            FileAction::Quit => Ok(self.files.quit()),
        }
    }

    /// Open a file; a bad file is refused with its message and the current scene stays.
    fn open_path(&mut self, path: PathBuf) -> Result<Outcome> {
        if is_lesson_file(&path) {
            return self.lesson_command(LessonCommand::Open(LessonSource::File(path)));
        }
        if self.jobs.opens_in_background(&path) && !FileKind::GodotBinary.is(&path) {
            return self.jobs.start_open_job(&self.doc, &mut self.log, path);
        }
        let imported = if interchange::is_godot_scene(&path) {
            interchange::read_godot(&path)?
        } else if interchange::is_svg(&path) {
            interchange::read_svg(&path)?
        } else {
            let doc = Document::open(&path)?;
            let said = format!("Opened {}", path.display());
            let (path, report) = (Some(path), None);
            return Ok(self.swap_in(Loaded {
                path,
                doc,
                report,
                said,
            }));
        };
        Ok(self.take_import(imported))
    }

    /// An imported file in place of the document, its report kept (in a window when it has
    /// notes) and, for a Godot scene, the question about its instanced scenes asked.
    fn take_import(&mut self, imported: interchange::Imported) -> Outcome {
        let mut outcome = self.replace_document(imported.doc);
        let open = imported.open_report;
        (self.interchange).show(imported.report, open, &mut self.windows);
        self.info(imported.said);
        outcome.effects.push(Effect::FrameAllNextFrame);
        if let Some(name) = imported.sources_of {
            (self.interchange).ask_about_sources(self.doc.scene(), name);
        }
        outcome
    }

    /// Put `doc` in place of the document and begin its journal.
    pub(super) fn replace_document(&mut self, doc: Document) -> Outcome {
        let old_unsaved = self.doc.is_modified();
        let outcome = self.swap_document(doc);
        self.journal_replaced(old_unsaved);
        outcome
    }

    /// Put `doc` in place of the document (its journal is the caller's business): the lesson,
    /// the disk watch's question, the import's question and the selection go with the old one.
    pub(super) fn swap_document(&mut self, doc: Document) -> Outcome {
        self.end_lesson();
        self.doc = doc;
        // A "changed on disk" question was about the document that goes: it goes with it.
        self.disk = Default::default();
        self.interchange.forget_question();
        self.selection.clear();
        self.files.swapped();
        Outcome::with(Effect::SceneReplaced)
    }

    /// Replace the document with a loaded one, in one step.
    pub(super) fn swap_in(&mut self, loaded: Loaded) -> Outcome {
        let Loaded {
            path,
            doc,
            report,
            said,
        } = loaded;
        let mut outcome = self.replace_document(doc);
        if let Some(report) = report {
            let notes = report.lines.len().saturating_sub(1);
            (self.interchange).show(report, notes > 0, &mut self.windows);
            // A big Godot scene imported on a worker asks about its instanced scenes too.
            if let Some(name) = path.as_deref().and_then(std::path::Path::file_name) {
                let name = name.to_string_lossy().into_owned();
                (self.interchange).ask_about_sources(self.doc.scene(), name);
            }
        } else if let Some(path) = path {
            self.files.remember(&path);
        }
        self.info(said);
        sprites::warn_missing_images(&self.doc, &mut self.log);
        instances::warn_instance_problems(&self.doc, &mut self.log);
        jobs::give_back_freed_memory();
        outcome.effects.push(Effect::FrameAllNextFrame);
        outcome
    }

    /// Save to `path` (or the document's own file; untitled asks where). True when saved now.
    pub(super) fn save(&mut self, path: Option<PathBuf>) -> Result<(bool, Outcome)> {
        let Some(target) = path.or_else(|| self.doc.path().map(PathBuf::from)) else {
            let asked = self.start_dialog(DialogPurpose::SaveAs { then: None });
            return Ok((false, asked));
        };
        if !self.may_overwrite(&target, None) {
            return Ok((false, Outcome::default()));
        }
        let folder_before = self.doc.sprite_folder();
        (self.doc.save_to(&target)).map_err(|e| Error::Refused(format!("Could not save: {e}")))?;
        self.files.remember(&target);
        self.info(format!("Saved {}", target.display()));
        self.journal_saved();
        sprites::warn_images_after_move(&self.doc, &mut self.log, folder_before, &target);
        Ok((true, Outcome::default()))
    }

    /// Save (Ctrl+S): a big scene with a file is saved on a worker; anything else at once.
    pub(super) fn save_command(&mut self) -> Result<Outcome> {
        match self.doc.path() {
            Some(path) if self.jobs.saves_in_background(&self.doc) => {
                let path = path.to_path_buf();
                if !self.may_overwrite(&path, None) {
                    return Ok(Outcome::default());
                }
                self.jobs.start_save_job(&self.doc, &mut self.log, path)
            }
            _ => self.save(None).map(|(_, outcome)| outcome),
        }
    }

    /// Called every frame: swap in a finished job's scene (or report its error).
    pub fn poll_job(&mut self) -> Result<Outcome> {
        let Some(done) = self.jobs.poll(&self.doc) else {
            return Ok(Outcome::default());
        };
        match done {
            Ok(Finished::Loaded(loaded)) => Ok(self.swap_in(*loaded)),
            Ok(Finished::Held) => {
                self.files.ask_before(FileAction::SwapLoaded);
                Ok(Outcome::default())
            }
            Ok(Finished::Saved {
                path,
                revision,
                stamp,
            }) => {
                let folder_before = self.doc.sprite_folder();
                let said = jobs::saved_line(&mut self.doc, &path, revision, stamp);
                self.journal_saved();
                self.files.remember(&path);
                self.info(said);
                sprites::warn_images_after_move(&self.doc, &mut self.log, folder_before, &path);
                jobs::give_back_freed_memory();
                Ok(Outcome::default())
            }
            Ok(Finished::Exported(done)) => {
                let (windows, log) = (&mut self.windows, &mut self.log);
                Ok(self.interchange.exported(*done, windows, log))
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Run an export, handed the document, the jobs, the log, the report and its windows, the
    /// settings (the Godot export's choices) and the figure as it is now.
    fn export(
        &mut self,
        run: impl FnOnce(&mut ExportParts<'_>, &Settings, FigureSpec) -> Result<Outcome>,
    ) -> Result<Outcome> {
        let spec = self.figure_spec();
        let mut parts = ExportParts {
            doc: &self.doc,
            jobs: &mut self.jobs,
            log: &mut self.log,
            interchange: &mut self.interchange,
            windows: &mut self.windows,
        };
        run(&mut parts, &self.settings, spec)
    }

    /// A file was picked for `purpose`: carry it out.
    pub(super) fn finish_dialog(
        &mut self,
        purpose: DialogPurpose,
        path: PathBuf,
    ) -> Result<Outcome> {
        match purpose {
            DialogPurpose::Open | DialogPurpose::Import => self.open_path(path),
            DialogPurpose::OpenLesson => {
                self.lesson_command(LessonCommand::Open(LessonSource::File(path)))
            }
            DialogPurpose::ExportGodot => self.export(|x, s, _| x.export_godot(path, false, s)),
            DialogPurpose::ExportGodot3 => self.export(|x, s, _| x.export_godot(path, true, s)),
            DialogPurpose::ExportSvg => self.export(|x, _, _| x.export_svg(path)),
            DialogPurpose::ExportAnimation => self.export(|x, _, f| x.export_animation(path, f)),
            DialogPurpose::ExportFigure => self.export(|x, _, f| x.export_figure(path, f)),
            DialogPurpose::SaveLesson => self.write_recorded_lesson(path),
            DialogPurpose::ExportProgress => self.export_progress(path),
            DialogPurpose::ChooseImage { node } => {
                sprites::image_chosen(&mut self.doc, &mut self.log, node, path)
            }
            DialogPurpose::InstanceScene { under } => {
                self.edit_parts().instance_scene(under, &path)
            }
            DialogPurpose::ImportSources => self.answer_sources(SourcesAnswer::Write(Some(path))),
            DialogPurpose::SaveBranch { node } => {
                self.selection.set(vec![node]);
                self.instance_command(InstanceCommand::SaveBranch(Some(path)))
            }
            DialogPurpose::SaveAs { then: None } if self.jobs.saves_in_background(&self.doc) => {
                self.jobs.start_save_job(&self.doc, &mut self.log, path)
            }
            DialogPurpose::SaveAs { then: Some(action) } => self.save_then(Some(path), action),
            DialogPurpose::SaveAs { then: None } => self.save(Some(path)).map(|(_, o)| o),
        }
    }

    /// The answer about an import's instanced Godot scenes.
    pub(super) fn answer_sources(&mut self, answer: SourcesAnswer) -> Result<Outcome> {
        match self.interchange.answer(answer, &self.doc, &mut self.log)? {
            SourcesStep::Done => Ok(Outcome::default()),
            SourcesStep::PickFolder => Ok(self.start_dialog(DialogPurpose::ImportSources)),
            SourcesStep::Replace { doc, written, dir } => {
                // As an import does: the journal starts again from this scene.
                let outcome = self.replace_document(*doc);
                (self.interchange).wrote_sources(&written, &dir, &mut self.log);
                Ok(outcome)
            }
        }
    }
}
