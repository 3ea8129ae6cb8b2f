//! Files in the session: the unsaved-changes guard, the Open / Save As dialogs (asked of the
//! app as effects, answered with commands), opening, saving and the recent-files list.

use crate::editor::session::command::{Effect, GuardAnswer};
use crate::editor::session::dialogs::{DialogKind, DialogOutcome};
use crate::editor::session::{DialogPurpose, Editor, FileAction, MAX_RECENT, Outcome};
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
    fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }
}

impl Editor {
    /// Run a file action now, or first ask about unsaved changes.
    pub(super) fn request(&mut self, action: FileAction) -> Result<Outcome> {
        // A lesson's scratch scene is left for the next lesson without asking; anything else
        // done with it (New, Open, Quit) still asks.
        let moving_on = matches!(action, FileAction::OpenLesson(_)) && self.doc.is_scratch();
        if self.doc.is_modified() && !moving_on && !self.files.allow_close {
            self.files.pending_guard = Some(action);
            Ok(Outcome::default())
        } else {
            self.run_action(action)
        }
    }

    /// The window's close button: refused while the unsaved-changes prompt is needed.
    pub(super) fn close_requested(&mut self) -> Outcome {
        if self.files.allow_close || !self.doc.is_modified() {
            return Outcome::default();
        }
        self.files.pending_guard = Some(FileAction::Quit);
        Outcome {
            effects: vec![Effect::CancelClose],
        }
    }

    /// The prompt's answer: save first, discard, or cancel.
    pub(super) fn answer_guard(&mut self, answer: GuardAnswer) -> Result<Outcome> {
        let Some(action) = self.files.pending_guard.take() else {
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
            GuardAnswer::Save => {
                let (saved, mut outcome) = self.save(None)?;
                if saved {
                    outcome.effects.extend(self.run_action(action)?.effects);
                } else {
                    self.wait_for_save(action);
                }
                Ok(outcome)
            }
        }
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
            FileAction::SwapLoaded => Ok(self.take_loaded()),
            FileAction::Generate(request) => self.generate(request),
            FileAction::OpenLesson(lesson) => self.start_lesson(*lesson),
            FileAction::Recover => {
                self.answer_recovery_now(crate::editor::session::journal::RecoveryAnswer::Recover)
            }
            FileAction::Quit => {
                self.files.allow_close = true;
                self.files.quit_requested = true;
                Ok(Outcome {
                    effects: vec![Effect::CloseWindow],
                })
            }
        }
    }

    /// Open a file; a bad file is refused with its message and the current scene stays.
    fn open_path(&mut self, path: PathBuf) -> Result<Outcome> {
        if is_lesson_file(&path) {
            return self.lesson_command(crate::editor::session::lesson::LessonCommand::Open(
                crate::editor::session::lesson::LessonSource::File(path),
            ));
        }
        if self.opens_in_background(&path) && !FileKind::GodotBinary.is(&path) {
            return self.start_open_job(path);
        }
        if crate::editor::session::interchange::is_godot_scene(&path) {
            return self.import_godot(path);
        }
        if crate::editor::session::interchange::is_svg(&path) {
            return self.import_svg(path);
        }
        let doc = Document::open(&path)?;
        let mut outcome = self.replace_document(doc);
        self.remember(path.clone());
        self.info(format!("Opened {}", path.display()));
        let _ = self.warn_missing_images();
        self.warn_instance_problems();
        outcome.effects.push(Effect::FrameAllNextFrame);
        Ok(outcome)
    }

    pub(super) fn replace_document(&mut self, doc: Document) -> Outcome {
        let old_unsaved = self.doc.is_modified();
        let outcome = self.swap_document(doc);
        self.journal_replaced(old_unsaved);
        outcome
    }

    /// Put `doc` in place of the document (its journal is the caller's business).
    pub(super) fn swap_document(&mut self, doc: Document) -> Outcome {
        self.end_lesson();
        self.doc = doc;
        // A "changed on disk" question was about the document that goes: it goes with it.
        self.disk = Default::default();
        self.sources_question = None;
        self.selection.clear();
        self.files.allow_close = false;
        Outcome {
            effects: vec![Effect::SceneReplaced],
        }
    }

    pub(super) fn remember(&mut self, path: PathBuf) {
        self.files.remember(&path);
    }

    /// Save to `path` (or the document's own file; untitled asks where). True when saved now.
    pub(super) fn save(&mut self, path: Option<PathBuf>) -> Result<(bool, Outcome)> {
        let Some(target) = path.or_else(|| self.doc.path().map(PathBuf::from)) else {
            return Ok((
                false,
                self.start_dialog(DialogPurpose::SaveAs { then: None }),
            ));
        };
        if !self.may_overwrite(&target, None) {
            return Ok((false, Outcome::default()));
        }
        let folder_before = self.doc.sprite_folder();
        match self.doc.save_to(&target) {
            Ok(()) => {
                self.remember(target.clone());
                self.info(format!("Saved {}", target.display()));
                self.journal_saved();
                self.warn_images_after_move(folder_before, &target);
                Ok((true, Outcome::default()))
            }
            Err(e) => Err(Error::Refused(format!("Could not save: {e}"))),
        }
    }

    /// Save (Ctrl+S): a big scene with a file is saved on a worker; anything else at once.
    pub(super) fn save_command(&mut self) -> Result<Outcome> {
        match self.doc.path() {
            Some(path) if self.saves_in_background() => {
                let path = path.to_path_buf();
                if !self.may_overwrite(&path, None) {
                    return Ok(Outcome::default());
                }
                self.start_save_job(path)
            }
            _ => self.save(None).map(|(_, outcome)| outcome),
        }
    }

    /// True when Save and Save As run on a worker (a big scene and no job running).
    fn saves_in_background(&self) -> bool {
        self.doc.scene().len() >= self.jobs.save_nodes() && !self.jobs.running()
    }

    /// Where a recorded lesson is written: beside the scene, named after it.
    fn save_lesson_dialog(&self) -> DialogKind {
        let scene = self.doc.path().map(Path::to_path_buf);
        let stem = scene.as_deref().and_then(Path::file_stem);
        DialogKind::SaveLesson {
            suggested: stem.map_or("recorded".into(), |s| s.to_string_lossy().into_owned())
                + ".lesson",
            folder: scene
                .as_deref()
                .and_then(Path::parent)
                .map(Path::to_path_buf),
        }
    }

    pub(super) fn start_dialog(&mut self, purpose: DialogPurpose) -> Outcome {
        if self.files.dialog.is_some() || self.files.path_prompt.is_some() {
            self.info("A file dialog is already open");
            return Outcome::default();
        }
        let kind = self.dialog_kind(&purpose);
        self.files.dialog = Some(purpose);
        Outcome {
            effects: vec![Effect::ShowDialog(kind)],
        }
    }

    /// The dialog a purpose asks for (titled, filtered, a file name suggested).
    fn dialog_kind(&self, purpose: &DialogPurpose) -> DialogKind {
        match purpose {
            DialogPurpose::Open => DialogKind::Open,
            DialogPurpose::OpenLesson => DialogKind::OpenLesson,
            DialogPurpose::SaveLesson => self.save_lesson_dialog(),
            DialogPurpose::Import => DialogKind::Import,
            DialogPurpose::ExportProgress => DialogKind::ExportFile {
                suggested: "graft-progress.json".into(),
                kinds: purpose.kinds().to_vec(),
            },
            DialogPurpose::ExportSvg => DialogKind::ExportFile {
                suggested: format!("{}.svg", self.doc.display_name().trim_end_matches(".ron")),
                kinds: purpose.kinds().to_vec(),
            },
            DialogPurpose::ExportAnimation => DialogKind::ExportFile {
                suggested: format!(
                    "{}-animated.svg",
                    self.doc.display_name().trim_end_matches(".ron")
                ),
                kinds: purpose.kinds().to_vec(),
            },
            DialogPurpose::ExportFigure => DialogKind::ExportFile {
                suggested: format!(
                    "{}-figure.png",
                    self.doc.display_name().trim_end_matches(".ron")
                ),
                kinds: purpose.kinds().to_vec(),
            },
            DialogPurpose::ExportGodot | DialogPurpose::ExportGodot3 => DialogKind::Export {
                suggested: format!(
                    "{}.tscn",
                    self.doc
                        .path()
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
                suggested: self.branch_file_name(*node),
            },
            DialogPurpose::SaveAs { .. } => DialogKind::Save {
                suggested: self.doc.display_name().replace("untitled", "scene.ron"),
            },
        }
    }

    /// A dialog (native or the typed-path field) ended.
    pub(super) fn dialog_closed(&mut self, outcome: DialogOutcome) -> Result<Outcome> {
        let Some(purpose) = self
            .files
            .dialog
            .take()
            .or_else(|| self.files.path_prompt.take())
        else {
            return Ok(Outcome::default());
        };
        match outcome {
            DialogOutcome::Picked(path) => self.finish_dialog(purpose, path),
            DialogOutcome::Cancelled => {
                self.info("Cancelled");
                Ok(Outcome::default())
            }
            DialogOutcome::Unavailable => {
                self.info("No file dialog could be shown here: type a path instead");
                self.files.path_prompt = Some(purpose);
                Ok(Outcome::default())
            }
        }
    }

    /// The file name Save branch as scene… suggests: the branch root's name.
    fn branch_file_name(&self, node: crate::model::scene::NodeId) -> String {
        let name = self.doc.scene().node(node).map(|d| d.name.to_string());
        let name = name.ok().filter(|n| !n.is_empty());
        format!("{}.ron", name.unwrap_or_else(|| "branch".into()))
    }

    fn finish_dialog(&mut self, purpose: DialogPurpose, path: PathBuf) -> Result<Outcome> {
        match purpose {
            DialogPurpose::Open | DialogPurpose::Import => self.open_path(path),
            DialogPurpose::OpenLesson => {
                self.lesson_command(crate::editor::session::lesson::LessonCommand::Open(
                    crate::editor::session::lesson::LessonSource::File(path),
                ))
            }
            DialogPurpose::ExportGodot => self.export_godot(path, false),
            DialogPurpose::ExportGodot3 => self.export_godot(path, true),
            DialogPurpose::ExportSvg => self.export_svg(path),
            DialogPurpose::ExportAnimation => self.export_animation(path),
            DialogPurpose::ExportFigure => self.export_figure(path),
            DialogPurpose::SaveLesson => self.write_recorded_lesson(path),
            DialogPurpose::ExportProgress => self.export_progress(path),
            DialogPurpose::ChooseImage { node } => self.image_chosen(node, path),
            DialogPurpose::InstanceScene { under } => self.instance_scene(under, &path),
            DialogPurpose::ImportSources => self.answer_sources(
                crate::editor::session::interchange::SourcesAnswer::Write(Some(path)),
            ),
            DialogPurpose::SaveBranch { node } => {
                use crate::editor::session::command::InstanceCommand;
                self.selection.set(vec![node]);
                self.instance_command(InstanceCommand::SaveBranch(Some(path)))
            }
            DialogPurpose::SaveAs { then: None } if self.saves_in_background() => {
                self.start_save_job(path)
            }
            DialogPurpose::SaveAs { then } => {
                let (saved, mut outcome) = self.save(Some(path))?;
                match then {
                    Some(action) if saved => {
                        outcome.effects.extend(self.run_action(action)?.effects);
                    }
                    Some(action) => self.wait_for_save(action),
                    None => {}
                }
                Ok(outcome)
            }
        }
    }
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
