//! The file flows that span parts: a file action once the unsaved-changes question is answered,
//! opening and importing, replacing the document, saving, a finished job and a dialog's answer.
//! [`FileParts`] is handed exactly the parts they read or change, split-borrowed by the router
//! (`routes.rs`); a step another part carries out (a lesson, the journal's recovery, the
//! recording, an instance, an export) goes back to the router as a [`Back`].

use crate::editor::lesson::Lesson;
use crate::editor::session::command::{Effect, GuardAnswer, Window};
use crate::editor::session::disk_watch::DiskWatch;
use crate::editor::session::files::{FileFlow, is_lesson_file};
use crate::editor::session::import_sources::SourcesStep;
use crate::editor::session::interchange::{self, Interchange};
use crate::editor::session::jobs::{self, Finished, Jobs, Loaded};
use crate::editor::session::journal::Journaling;
use crate::editor::session::lesson::Lessons;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::{DialogPurpose, FileAction, Outcome, SourcesAnswer};
use crate::editor::session::selection::Selection;
use crate::editor::session::{instances, sprites};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashSet;
use std::path::PathBuf;

/// The parts a file flow reads or changes: the document and its journal, the file flow, the
/// jobs, the log, the import's report and question with their windows, the disk watch, and the
/// selection and the lesson (both go with a replaced document).
pub(super) struct FileParts<'a> {
    pub(super) doc: &'a mut Document,
    pub(super) files: &'a mut FileFlow,
    pub(super) jobs: &'a mut Jobs,
    pub(super) log: &'a mut MessageLog,
    pub(super) interchange: &'a mut Interchange,
    pub(super) windows: &'a mut FxHashSet<Window>,
    pub(super) disk: &'a mut DiskWatch,
    pub(super) journaling: &'a mut Journaling,
    pub(super) selection: &'a mut Selection,
    pub(super) lessons: &'a mut Lessons,
}

/// A step of a file flow that another part carries out: the router (`routes.rs`) takes it.
pub(super) enum Back {
    /// Read, check and open this lesson file.
    OpenLesson(PathBuf),
    /// Start this lesson (the unsaved-changes question is answered).
    StartLesson(Box<Lesson>),
    /// Recover the journal the recovery prompt offers.
    Recover,
    /// Export as a Godot scene (true: Godot 3) to this file.
    ExportGodot(PathBuf, bool),
    /// Export as SVG to this file.
    ExportSvg(PathBuf),
    /// Export the clip as animated SVG or HTML to this file.
    ExportAnimation(PathBuf),
    /// Write the figure to this file.
    ExportFigure(PathBuf),
    /// Write the stopped recording to this file as a lesson.
    WriteLesson(PathBuf),
    /// Write the learner's progress to this file.
    ExportProgress(PathBuf),
    /// Instance this scene file under `under` (None: a root).
    InstanceScene(Option<NodeId>, PathBuf),
    /// Save the branch at this node as this scene file.
    SaveBranch(NodeId, PathBuf),
}

/// What a file flow did, and the step it leaves to another part, if any (its effects come
/// after the flow's).
#[derive(Default)]
pub(super) struct Flow {
    /// What the flow asks of the app.
    pub(super) outcome: Outcome,
    /// What is left for the router.
    pub(super) back: Option<Back>,
}

impl From<Outcome> for Flow {
    fn from(outcome: Outcome) -> Self {
        Flow {
            outcome,
            back: None,
        }
    }
}

impl From<Back> for Flow {
    fn from(back: Back) -> Self {
        Flow {
            outcome: Outcome::default(),
            back: Some(back),
        }
    }
}

impl FileParts<'_> {
    /// Run a file action now, or first ask about unsaved changes.
    pub(super) fn request(&mut self, action: FileAction) -> Result<Flow> {
        match self.files.request(self.doc, action) {
            Some(action) => self.run_action(action),
            None => Ok(Flow::default()),
        }
    }

    /// Show a file dialog, unless one is open ([`FileFlow::start_dialog`]).
    pub(super) fn start_dialog(&mut self, purpose: DialogPurpose) -> Outcome {
        self.files.start_dialog(purpose, self.doc, self.log)
    }

    /// The prompt's answer: save first, discard, or cancel.
    pub(super) fn answer_guard(&mut self, answer: GuardAnswer) -> Result<Flow> {
        let Some(action) = self.files.take_guard() else {
            return Ok(Flow::default());
        };
        match answer {
            GuardAnswer::Cancel => {
                if action == FileAction::SwapLoaded {
                    self.jobs.drop_loaded();
                }
                self.log.info("Cancelled: nothing was changed");
                Ok(Flow::default())
            }
            GuardAnswer::Discard => self.run_action(action),
            GuardAnswer::Save if self.doc.path().is_none() => {
                let purpose = DialogPurpose::SaveAs { then: Some(action) };
                Ok(self.start_dialog(purpose).into())
            }
            GuardAnswer::Save => self.save_then(None, action),
        }
    }

    /// Save (to `path`, or the document's own file), then run `action`: now if saved now,
    /// else when the save may go on (the disk watch holds it).
    fn save_then(&mut self, path: Option<PathBuf>, action: FileAction) -> Result<Flow> {
        let (saved, outcome) = self.save(path)?;
        if !saved {
            self.disk.wait_for_save(action);
            return Ok(outcome.into());
        }
        self.then_run(outcome, Some(action))
    }

    /// After `outcome`, run `then` (if any): its effects after the outcome's.
    pub(super) fn then_run(&mut self, outcome: Outcome, then: Option<FileAction>) -> Result<Flow> {
        let Some(action) = then else {
            return Ok(outcome.into());
        };
        let mut flow = self.run_action(action)?;
        let mut effects = outcome.effects;
        effects.append(&mut flow.outcome.effects);
        flow.outcome.effects = effects;
        Ok(flow)
    }

    /// Run a file action now (no unsaved-changes question).
    pub(super) fn run_action(&mut self, action: FileAction) -> Result<Flow> {
        match action {
            FileAction::New => {
                let outcome = self.replace_document(Document::untitled(Scene::new()));
                self.log.info("New scene");
                Ok(outcome.into())
            }
            FileAction::Open => Ok(self.start_dialog(DialogPurpose::Open).into()),
            FileAction::Import => Ok(self.start_dialog(DialogPurpose::Import).into()),
            FileAction::OpenPath(path) => self.open_path(path),
            FileAction::Revert => match self.doc.path().map(PathBuf::from) {
                Some(path) => self.open_path(path),
                None => Err(Error::Refused(
                    "Nothing to revert to: this scene has never been saved".into(),
                )),
            },
            FileAction::SwapLoaded => Ok(match self.jobs.take_loaded() {
                Some(loaded) => self.swap_in(loaded).into(),
                None => Flow::default(),
            }),
            FileAction::Generate(request) => {
                match self.jobs.generate(self.doc, self.log, request)? {
                    Some(loaded) => Ok(self.swap_in(loaded).into()),
                    None => Ok(Flow::default()),
                }
            }
            FileAction::OpenLesson(lesson) => Ok(Back::StartLesson(lesson).into()),
            FileAction::Recover => Ok(Back::Recover.into()),
            FileAction::Quit => Ok(self.files.quit().into()),
        }
    }

    /// Open a file; a bad file is refused with its message and the current scene stays.
    fn open_path(&mut self, path: PathBuf) -> Result<Flow> {
        if is_lesson_file(&path) {
            return Ok(Back::OpenLesson(path).into());
        }
        if self.jobs.opens_in_background(&path) && !FileKind::GodotBinary.is(&path) {
            return Ok(self.jobs.start_open_job(self.doc, self.log, path)?.into());
        }
        let imported = if interchange::is_godot_scene(&path) {
            interchange::read_godot(&path)?
        } else if interchange::is_svg(&path) {
            interchange::read_svg(&path)?
        } else {
            let doc = Document::open(&path)?;
            let said = format!("Opened {}", path.display());
            let (path, report) = (Some(path), None);
            let loaded = Loaded {
                path,
                doc,
                report,
                said,
            };
            return Ok(self.swap_in(loaded).into());
        };
        Ok(self.take_import(imported).into())
    }

    /// An imported file in place of the document, its report kept (in a window when it has
    /// notes) and, for a Godot scene, the question about its instanced scenes asked.
    fn take_import(&mut self, imported: interchange::Imported) -> Outcome {
        let mut outcome = self.replace_document(imported.doc);
        let open = imported.open_report;
        (self.interchange).show(imported.report, open, self.windows);
        self.log.info(imported.said);
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
        // The document was replaced: end its journal and begin one for the new document.
        (self.journaling).replaced(self.doc, self.log, old_unsaved);
        outcome
    }

    /// Put `doc` in place of the document (its journal is the caller's business): the lesson,
    /// the disk watch's question, the import's question and the selection go with the old one.
    pub(super) fn swap_document(&mut self, doc: Document) -> Outcome {
        self.lessons.end();
        *self.doc = doc;
        // A "changed on disk" question was about the document that goes: it goes with it.
        *self.disk = Default::default();
        self.interchange.forget_question();
        self.selection.clear();
        self.files.swapped();
        Outcome::with(Effect::SceneReplaced)
    }

    /// Replace the document with a loaded one, in one step.
    fn swap_in(&mut self, loaded: Loaded) -> Outcome {
        let Loaded {
            path,
            doc,
            report,
            said,
        } = loaded;
        let mut outcome = self.replace_document(doc);
        if let Some(report) = report {
            let notes = report.lines.len().saturating_sub(1);
            (self.interchange).show(report, notes > 0, self.windows);
            // A big Godot scene imported on a worker asks about its instanced scenes too.
            if let Some(name) = path.as_deref().and_then(std::path::Path::file_name) {
                let name = name.to_string_lossy().into_owned();
                (self.interchange).ask_about_sources(self.doc.scene(), name);
            }
        } else if let Some(path) = path {
            self.files.remember(&path);
        }
        self.log.info(said);
        sprites::warn_missing_images(self.doc, self.log);
        instances::warn_instance_problems(self.doc, self.log);
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
        if !(self.disk).may_overwrite(self.doc, self.log, &target, None) {
            return Ok((false, Outcome::default()));
        }
        let folder_before = self.doc.sprite_folder();
        (self.doc.save_to(&target)).map_err(|e| Error::Refused(format!("Could not save: {e}")))?;
        self.files.remember(&target);
        self.log.info(format!("Saved {}", target.display()));
        self.journaling.saved(self.doc, self.log);
        sprites::warn_images_after_move(self.doc, self.log, folder_before, &target);
        Ok((true, Outcome::default()))
    }

    /// Save (Ctrl+S): a big scene with a file is saved on a worker; anything else at once.
    pub(super) fn save_command(&mut self) -> Result<Outcome> {
        match self.doc.path() {
            Some(path) if self.jobs.saves_in_background(self.doc) => {
                let path = path.to_path_buf();
                if !(self.disk).may_overwrite(self.doc, self.log, &path, None) {
                    return Ok(Outcome::default());
                }
                self.jobs.start_save_job(self.doc, self.log, path)
            }
            _ => self.save(None).map(|(_, outcome)| outcome),
        }
    }

    /// Called every frame: swap in a finished job's scene (or report its error).
    pub(super) fn poll_job(&mut self) -> Result<Outcome> {
        let Some(done) = self.jobs.poll(self.doc) else {
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
                let said = jobs::saved_line(self.doc, &path, revision, stamp);
                self.journaling.saved(self.doc, self.log);
                self.files.remember(&path);
                self.log.info(said);
                sprites::warn_images_after_move(self.doc, self.log, folder_before, &path);
                jobs::give_back_freed_memory();
                Ok(Outcome::default())
            }
            Ok(Finished::Exported(done)) => {
                Ok(self.interchange.exported(*done, self.windows, self.log))
            }
            Err(e) => {
                // The status bar and the error window show it.
                self.log.fail(e.to_string());
                Err(e)
            }
        }
    }

    /// A file was picked for `purpose`: carry it out, or hand it to the part that does.
    pub(super) fn finish_dialog(&mut self, purpose: DialogPurpose, path: PathBuf) -> Result<Flow> {
        let back = |back: Back| Ok(Flow::from(back));
        match purpose {
            DialogPurpose::Open | DialogPurpose::Import => self.open_path(path),
            DialogPurpose::OpenLesson => back(Back::OpenLesson(path)),
            DialogPurpose::ExportGodot => back(Back::ExportGodot(path, false)),
            DialogPurpose::ExportGodot3 => back(Back::ExportGodot(path, true)),
            DialogPurpose::ExportSvg => back(Back::ExportSvg(path)),
            DialogPurpose::ExportAnimation => back(Back::ExportAnimation(path)),
            DialogPurpose::ExportFigure => back(Back::ExportFigure(path)),
            DialogPurpose::SaveLesson => back(Back::WriteLesson(path)),
            DialogPurpose::ExportProgress => back(Back::ExportProgress(path)),
            DialogPurpose::ChooseImage { node } => {
                Ok(sprites::image_chosen(self.doc, self.log, node, path)?.into())
            }
            DialogPurpose::InstanceScene { under } => back(Back::InstanceScene(under, path)),
            DialogPurpose::ImportSources => Ok(self
                .answer_sources(SourcesAnswer::Write(Some(path)))?
                .into()),
            DialogPurpose::SaveBranch { node } => back(Back::SaveBranch(node, path)),
            DialogPurpose::SaveAs { then: None } if self.jobs.saves_in_background(self.doc) => {
                Ok(self.jobs.start_save_job(self.doc, self.log, path)?.into())
            }
            DialogPurpose::SaveAs { then: Some(action) } => self.save_then(Some(path), action),
            DialogPurpose::SaveAs { then: None } => Ok(self.save(Some(path))?.1.into()),
        }
    }

    /// The answer about an import's instanced Godot scenes.
    pub(super) fn answer_sources(&mut self, answer: SourcesAnswer) -> Result<Outcome> {
        match self.interchange.answer(answer, self.doc, self.log)? {
            SourcesStep::Done => Ok(Outcome::default()),
            SourcesStep::PickFolder => Ok(self.start_dialog(DialogPurpose::ImportSources)),
            SourcesStep::Replace { doc, written, dir } => {
                // As an import does: the journal starts again from this scene.
                let outcome = self.replace_document(*doc);
                (self.interchange).wrote_sources(&written, &dir, self.log);
                Ok(outcome)
            }
        }
    }
}
