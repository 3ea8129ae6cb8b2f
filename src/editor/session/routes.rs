//! Where each family of commands goes. [`Command`] is nested by part (`Command::Edit(EditCommand)`
//! …): [`Editor::apply`] matches the part exhaustively and each part matches its own enum
//! exhaustively, with no fallthrough, so a new command does not compile until its part carries
//! it out. Each part is a struct with its own methods, handed exactly the other parts it reads or
//! changes, as rerun hands `run_system_command` only the store it changes: the router builds the
//! split borrows (`&mut self.doc`, `&mut self.log`, …), or a borrowed context of exactly those
//! parts when there are many (`probes::ProbeParts`, [`EditParts`], `ExportParts`, [`FileParts`],
//! whose flows hand a step another part carries out back here as a [`Back`]). A part never
//! reaches another's fields, nor names `Editor` (only this file, `mod.rs` and `tick.rs` do, with
//! the lesson walks that play a scratch session and the announcer: `tests/session_parts.rs`): a
//! flow that spans parts (recovering a journal, answering "changed on disk", a lesson step's
//! start) is routed here, each part doing its share. A new command goes to the part's enum that
//! owns what it changes, and gets a sample in `tests/panel_rules.rs` (`one_of_each`), which
//! checks that every part carries out its kind.

use crate::editor::lesson::play::bind_step;
use crate::editor::session::Editor;
use crate::editor::session::command::{
    Command, EditCommand, Effect, FileCommand, InstanceCommand, JournalCommand, ProbeCommand,
    ViewCommand,
};
use crate::editor::session::disk_watch::AfterConflict;
use crate::editor::session::edits::{self, EditParts};
use crate::editor::session::exports::{ExportParts, FigureSpec};
use crate::editor::session::file_parts::{Back, FileParts, Flow};
use crate::editor::session::instances::InstanceDone;
use crate::editor::session::journal_recover::RecoveryAnswer;
use crate::editor::session::lesson_command::{LessonCommand, LessonSource, RecordCommand};
use crate::editor::session::lesson_play::{Played, setup_commands, vary_commands};
use crate::editor::session::purpose::{ConflictAnswer, DialogPurpose, FileAction, Outcome};
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline_command::TimelineCommand;
use crate::editor::session::{
    arrange, files, lesson, lesson_check, probes, record_check, selection, sprites, windows,
};
use crate::error::{Error, Result};
use crate::model::document::Document;

impl Editor {
    /// Hand the command to its part (see this file's head): one exhaustive match here and one in
    /// each part, so a command without a handler does not compile.
    pub(super) fn dispatch(&mut self, command: Command) -> Result<Outcome> {
        match command {
            Command::Selection(command) => {
                let (scene, keys) = (self.doc.scene(), self.timeline.key_selection_mut());
                selection::handle(&mut self.selection, keys, scene, command)
            }
            Command::Setting(command) => {
                self.settings.handle(command);
                Ok(Outcome::default())
            }
            Command::Window(command) => windows::handle(&mut self.windows, &mut self.log, command),
            Command::History(command) => {
                let (doc, gestures, log) = (&mut self.doc, &mut self.gestures, &mut self.log);
                edits::history_command(doc, gestures, log, command)
            }
            Command::Panel(command) => {
                let tool = self.tool();
                self.edit_parts().intent_command(command, tool)
            }
            Command::Edit(command) => self.edit_command(command),
            Command::File(command) => self.file_command(command),
            Command::View(command) => self.view_command(command),
            Command::Journal(command) => self.journal_command(command),
            Command::Timeline(command) => self.timeline_command(command),
            Command::Probe(command) => self.probe_command(command),
            Command::Lesson(command) => self.lesson_command(command),
            Command::Record(command) => self.record_command(command),
            Command::Lifecycle(step) => Ok(self.lifecycle(step)),
            Command::Instance(command) => self.instance_command(command),
        }
    }

    /// Carry out what a lesson line sends (the caller records the journal and the refusal, as
    /// `apply` does).
    pub(super) fn play(&mut self, played: Played) -> Result<Outcome> {
        match played {
            Played::Command(command) => self.dispatch(command),
            Played::Ops {
                label,
                ops,
                continuous,
            } => (self.edit_parts().perform(label, ops, continuous)).map(|()| Outcome::default()),
        }
    }

    /// New, open, import, the export dialogs, save, revert, quit and the answers to their
    /// prompts and dialogs.
    pub(super) fn file_command(&mut self, command: FileCommand) -> Result<Outcome> {
        use FileCommand as C;
        let dialog = |e: &mut Self, purpose| Ok(e.start_dialog(purpose));
        let request = |e: &mut Self, action| e.file_flow(|f| f.request(action));
        match command {
            C::New => request(self, FileAction::New),
            C::Open => request(self, FileAction::Open),
            C::Import => request(self, FileAction::Import),
            C::ExportGodot if self.settings.godot3_export() => {
                dialog(self, DialogPurpose::ExportGodot3)
            }
            C::ExportGodot => dialog(self, DialogPurpose::ExportGodot),
            C::ExportGodot3 => dialog(self, DialogPurpose::ExportGodot3),
            C::ExportSvg => dialog(self, DialogPurpose::ExportSvg),
            C::ExportAnimation => dialog(self, DialogPurpose::ExportAnimation),
            C::SaveFigure => dialog(self, DialogPurpose::ExportFigure),
            C::SaveAs => dialog(self, DialogPurpose::SaveAs { then: None }),
            // A lesson is read and checked before the unsaved-changes prompt: a broken one is
            // refused without asking anything.
            C::OpenPath(path) if files::is_lesson_file(&path) => {
                self.lesson_command(LessonCommand::Open(LessonSource::File(path)))
            }
            C::OpenPath(path) => request(self, FileAction::OpenPath(path)),
            C::Revert => request(self, FileAction::Revert),
            C::Quit => request(self, FileAction::Quit),
            C::CloseRequested => Ok(self.files.close_requested(&self.doc)),
            C::Save => self.file_parts().save_command(),
            C::ChooseImage(node) => {
                let purpose = sprites::choose_image(&self.doc, node)?;
                Ok(self.start_dialog(purpose))
            }
            C::AnswerGuard(answer) => self.file_flow(|f| f.answer_guard(answer)),
            C::DialogClosed(outcome) => match self.files.dialog_closed(outcome, &mut self.log) {
                Some((purpose, path)) => self.file_flow(|f| f.finish_dialog(purpose, path)),
                None => Ok(Outcome::default()),
            },
            C::Generate(request) => {
                request.check()?;
                self.file_flow(|f| f.request(FileAction::Generate(request)))
            }
            C::CancelJob => Ok(self.jobs.cancel(&mut self.log)),
            C::AnswerConflict(answer) => self.answer_conflict(answer),
            C::AnswerSources(answer) => self.file_parts().answer_sources(answer),
        }
    }

    /// The parts an edit is handed, by split borrows.
    pub(super) fn edit_parts(&mut self) -> EditParts<'_> {
        EditParts {
            doc: &mut self.doc,
            gestures: &mut self.gestures,
            selection: &mut self.selection,
            log: &mut self.log,
            timeline: &self.timeline,
        }
    }

    /// Scenes inside scenes: an edit of [`EditParts`], or a file asked for first.
    pub(super) fn instance_command(&mut self, command: InstanceCommand) -> Result<Outcome> {
        match self.edit_parts().instance_command(command)? {
            InstanceDone::Done(outcome) => Ok(outcome),
            InstanceDone::AskPath(purpose) => Ok(self.start_dialog(purpose)),
        }
    }

    /// Copy, paste, duplicate, delete, add, group, unparent, reorder, move to and nudge.
    pub(super) fn edit_command(&mut self, command: EditCommand) -> Result<Outcome> {
        // Del acts on what was picked last: keys on the timeline (picking nodes clears them).
        if command == EditCommand::Delete && !self.selected_keys().is_empty() {
            return self.timeline_command(TimelineCommand::DeleteSelectedKeys);
        }
        let (keep, view) = (self.keep(), self.view_node().1);
        let clipboard = &mut self.clipboard;
        let mut edit = EditParts {
            doc: &mut self.doc,
            gestures: &mut self.gestures,
            selection: &mut self.selection,
            log: &mut self.log,
            timeline: &self.timeline,
        };
        edit.handle(command, clipboard, keep, view)
    }

    /// Rename in place, framing, the space the view is from, the figure's settings, which
    /// panel has the keyboard, the interface's scale and theme.
    pub(super) fn view_command(&mut self, command: ViewCommand) -> Result<Outcome> {
        use ViewCommand as C;
        let effect = |effect| Ok(Outcome::with(effect));
        let done = Ok(Outcome::default());
        match command {
            C::StartRename => Ok(self.primary().map_or_else(Outcome::default, |id| {
                Outcome::with(Effect::StartRename(id))
            })),
            C::FrameSelection => effect(Effect::Frame(self.selection.ids().to_vec())),
            C::FrameAll => effect(Effect::Frame(self.doc.scene().ids().to_vec())),
            C::SetViewSpace(space) => {
                self.settings.look_from(self.doc.scene(), space)?;
                done
            }
            C::SetFigure(options) => {
                self.figure = *options;
                Ok(Outcome::default())
            }
            C::FocusPanel(step) => {
                let lesson_open = self.lesson().is_some();
                let (settings, log) = (&mut self.settings, &mut self.log);
                Ok(arrange::focus_panel(settings, log, step, lesson_open))
            }
            C::SetFocusedPanel(panel) => {
                self.settings.set_panel(panel);
                done
            }
            C::StepUiScale(step) => {
                let (settings, log) = (&mut self.settings, &mut self.log);
                Ok(arrange::step_interface_scale(settings, log, step))
            }
            C::SetUiScale(scale) => {
                self.settings.set_ui_scale(scale);
                done
            }
            C::SetHighContrast(on) => {
                self.settings.set_high_contrast(on);
                done
            }
            C::ToggleHighContrast => {
                let on = !self.settings.high_contrast();
                self.settings.set_high_contrast(on);
                done
            }
        }
    }

    /// The crash journal on and off, a retry, and the answer about recovery: the journal is
    /// handed the document and the log.
    pub(super) fn journal_command(&mut self, command: JournalCommand) -> Result<Outcome> {
        let (doc, log) = (&mut self.doc, &mut self.log);
        match command {
            JournalCommand::AnswerRecovery(answer) => {
                self.journaling.any_orphan()?;
                if answer == RecoveryAnswer::Recover {
                    // The recovered scene replaces this one: unsaved work (a scene recovered
                    // before) is asked about first.
                    return self.file_flow(|f| f.request(FileAction::Recover));
                }
                self.answer_recovery_now(answer)
            }
            JournalCommand::ToggleJournal => Ok(self.journaling.toggle(doc, log)),
            JournalCommand::RetryJournal => {
                if !self.journaling.retry(doc, log) {
                    log.info("The crash journal still cannot be written");
                }
                Ok(Outcome::default())
            }
        }
    }
}

/// The file flows ([`FileParts`]) and the steps they hand back to other parts.
impl Editor {
    /// The parts a file flow is handed, by split borrows.
    pub(super) fn file_parts(&mut self) -> FileParts<'_> {
        FileParts {
            doc: &mut self.doc,
            files: &mut self.files,
            jobs: &mut self.jobs,
            log: &mut self.log,
            interchange: &mut self.interchange,
            windows: &mut self.windows,
            disk: &mut self.disk,
            journaling: &mut self.journaling,
            selection: &mut self.selection,
            lessons: &mut self.lessons,
        }
    }

    /// Run a file flow, then the step it hands back (its effects after the flow's).
    pub(super) fn file_flow(
        &mut self,
        flow: impl FnOnce(&mut FileParts<'_>) -> Result<Flow>,
    ) -> Result<Outcome> {
        let Flow { mut outcome, back } = flow(&mut self.file_parts())?;
        if let Some(back) = back {
            outcome.effects.extend(self.route_back(back)?.effects);
        }
        Ok(outcome)
    }

    /// Show a file dialog, unless one is open.
    pub(super) fn start_dialog(&mut self, purpose: DialogPurpose) -> Outcome {
        self.files.start_dialog(purpose, &self.doc, &mut self.log)
    }

    /// A file flow's step that another part carries out.
    fn route_back(&mut self, back: Back) -> Result<Outcome> {
        match back {
            Back::OpenLesson(path) => {
                self.lesson_command(LessonCommand::Open(LessonSource::File(path)))
            }
            Back::StartLesson(lesson) => self.start_lesson(*lesson),
            Back::Recover => self.answer_recovery_now(RecoveryAnswer::Recover),
            Back::ExportGodot(path, v3) => self.export(|x, s, _| x.export_godot(path, v3, s)),
            Back::ExportSvg(path) => self.export(|x, _, _| x.export_svg(path)),
            Back::ExportAnimation(path) => self.export(|x, _, f| x.export_animation(path, f)),
            Back::ExportFigure(path) => self.export(|x, _, f| x.export_figure(path, f)),
            Back::WriteLesson(path) => {
                let (check, log) = (record_check::checked_lesson_text, &mut self.log);
                (self.recorder.write_lesson(log, path, check)).map(|()| Outcome::default())
            }
            Back::ExportProgress(path) => self.lessons.export_progress(&mut self.log, path),
            Back::InstanceScene(under, path) => self.edit_parts().instance_scene(under, &path),
            Back::SaveBranch(node, path) => {
                self.selection.set(vec![node]);
                self.instance_command(InstanceCommand::SaveBranch(Some(path)))
            }
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
}

impl Editor {
    /// The timeline, handed the document, the gesture counter and the node selection.
    pub(super) fn timeline_command(&mut self, command: TimelineCommand) -> Result<Outcome> {
        let (doc, gestures) = (&mut self.doc, &mut self.gestures);
        (self.timeline).handle(command, doc, gestures, self.selection.ids())
    }

    /// Probes, handed the document (with the gesture counter and the timeline, for undo steps),
    /// the settings, the log and the primary selection.
    pub(super) fn probe_command(&mut self, command: ProbeCommand) -> Result<Outcome> {
        let primary = self.primary();
        let parts = probes::ProbeParts {
            doc: &mut self.doc,
            gestures: &mut self.gestures,
            timeline: &self.timeline,
            settings: &mut self.settings,
            log: &mut self.log,
            primary,
        };
        parts.handle(command)
    }

    /// The app's start, end and thresholds, as commands.
    pub(super) fn lifecycle(
        &mut self,
        step: crate::editor::session::command::Lifecycle,
    ) -> Outcome {
        use crate::editor::session::command::Lifecycle as L;
        match step {
            L::StartJournal(dir) => self.journaling.start(&mut self.doc, &mut self.log, dir),
            L::EndJournal => self.journaling.end(&self.doc),
            L::EndOnSignal => self.journaling.end_on_signal(&self.doc),
            L::BackgroundSaveNodes(nodes) => self.set_background_save_nodes(nodes),
            L::BackgroundBytes(bytes) => self.set_background_bytes(bytes),
            L::DrawLessonSeed(run) => self.lessons.draw_seed(run),
        }
        Outcome::default()
    }
}

/// Calls the files' and jobs' flows make into the journal and the disk watch, routed to those
/// parts with what they are handed.
impl Editor {
    /// The answer to the recovery prompt, carried out (unsaved changes already asked about):
    /// the journal rebuilds the document, the files part swaps it in, the disk watch is told
    /// whether the file on disk is newer, and the journal resumes on the new document.
    pub(super) fn answer_recovery_now(&mut self, answer: RecoveryAnswer) -> Result<Outcome> {
        self.journaling.any_orphan()?;
        let older = self
            .recovery_offer()
            .is_some_and(|o| o.older_than_file.is_some() || o.file_changed.is_some());
        let Some(recovered) = self.journaling.answer_now(&mut self.log, answer)? else {
            return Ok(Outcome::default());
        };
        self.journaling.before_recovered(self.doc.is_modified());
        let relative = recovered.relative_path();
        let (document, resumed) = recovered.split();
        self.file_parts().swap_document(document);
        self.disk.recovered_older_than_file(older || relative);
        Ok((self.journaling).resume(&mut self.doc, &mut self.log, resumed))
    }

    /// Write what the last command changed (after every command and tick).
    pub(super) fn record_journal(&mut self) {
        self.journaling.record(&mut self.doc, &mut self.log);
    }

    /// The answer to the "changed on disk" question: the disk watch takes it (handed the
    /// document and the log), then the files part saves, reloads or asks where.
    pub(super) fn answer_conflict(&mut self, answer: ConflictAnswer) -> Result<Outcome> {
        match self.disk.answer(&mut self.doc, &mut self.log, answer) {
            AfterConflict::Nothing => Ok(Outcome::default()),
            AfterConflict::SaveAs(then) => Ok(self.start_dialog(DialogPurpose::SaveAs { then })),
            AfterConflict::Reload => self.file_flow(|f| f.run_action(FileAction::Revert)),
            AfterConflict::Overwrite(then) => self.file_flow(|f| {
                let (saved, outcome) = f.save(None)?;
                f.then_run(outcome, then.filter(|_| saved))
            }),
        }
    }

    /// Recording a lesson, handed the document, the log and the view; then the dialog that
    /// asks where to write it, if the recording asks for one.
    pub(super) fn record_command(&mut self, command: RecordCommand) -> Result<Outcome> {
        let view = self.view_state();
        let dialog = (self.recorder).handle(command, &self.doc, &mut self.log, &view)?;
        Ok(dialog.map_or_else(Outcome::default, |purpose| self.start_dialog(purpose)))
    }

    /// Put a lesson's snapshot back: its scene as a fresh untitled document (through the files
    /// part; the lesson is the caller's), then the selection, the settings and the playback.
    pub(super) fn restore(&mut self, snapshot: &lesson::Snapshot) -> Outcome {
        // A scratch document: moving on to another lesson never asks to save it.
        let scratch = Document::scratch(snapshot.scene().clone());
        let outcome = self.file_parts().replace_document(scratch);
        snapshot.put_back(&mut self.selection, &mut self.settings, &mut self.timeline);
        self.update_world();
        outcome
    }
}

/// Lessons: the lesson-only commands go to [`Lessons`](lesson::Lessons) (handed the log); a
/// step's start, Next, Back and Reset drive the session through its parts and commands, as a
/// learner would, with the run taken out of the lessons part while its step changes the session.
impl Editor {
    pub(super) fn lesson_command(&mut self, command: LessonCommand) -> Result<Outcome> {
        let opens = matches!(
            command,
            LessonCommand::Open(_) | LessonCommand::OpenFile | LessonCommand::ExportProgress
        );
        if self.lessons.run().is_none() && !opens {
            return Err(Error::Refused(
                "No lesson is open: Help > Lessons… lists them".into(),
            ));
        }
        match command {
            LessonCommand::Open(source) => self.open_lesson(source),
            LessonCommand::Close => {
                self.finish_show();
                Ok(self.lessons.close(&mut self.log))
            }
            LessonCommand::Next => self.next_step(),
            LessonCommand::Back => self.go_to_step(self.lessons.step().saturating_sub(1)),
            LessonCommand::GoTo(k) => {
                self.lessons.leave_intro();
                self.go_to_step(k)
            }
            LessonCommand::Hint => Ok(self.lessons.hint()),
            LessonCommand::ShowMe => Ok(self.lessons.start_show()),
            LessonCommand::Reset => self.reset_step(),
            LessonCommand::Begin => Ok(self.lessons.show_intro(false)),
            LessonCommand::Introduction => Ok(self.lessons.show_intro(true)),
            LessonCommand::OpenFile => Ok(self.start_dialog(DialogPurpose::OpenLesson)),
            LessonCommand::ExportProgress => Ok(self.start_dialog(DialogPurpose::ExportProgress)),
            LessonCommand::Predict(input) => self.lessons.predict(&mut self.log, input),
            LessonCommand::PredictByClick(on) => self.lessons.predict_by_click(on),
        }
    }

    /// Read, check and (after the unsaved-changes prompt) start a lesson.
    fn open_lesson(&mut self, source: LessonSource) -> Result<Outcome> {
        let lesson = lesson::read_lesson(&source)?;
        // Refuse a lesson that cannot be played before anything changes.
        lesson_check::walk_lesson(&lesson)?;
        if let LessonSource::File(path) = source {
            // Help > Lessons lists the lesson files opened before (with the recent files).
            self.files.remember(&path);
        }
        self.file_flow(|f| f.request(FileAction::OpenLesson(Box::new(lesson))))
    }

    /// Start a lesson at the first step not completed yet (the unsaved-changes prompt is done).
    pub(super) fn start_lesson(
        &mut self,
        lesson: crate::editor::lesson::Lesson,
    ) -> Result<Outcome> {
        let walk = lesson_check::walk_seeded(&lesson, self.lessons.seed())?;
        let first = self.lessons.begin_run(&mut self.log, walk);
        self.enter_step(first, false)
    }

    fn next_step(&mut self) -> Result<Outcome> {
        self.finish_show();
        self.update_world();
        self.evaluate_goals();
        match self.lessons.next_step(&mut self.log)? {
            Some(k) => self.enter_step(k, true),
            None => Ok(Outcome::default()),
        }
    }

    fn go_to_step(&mut self, k: usize) -> Result<Outcome> {
        let steps = self.lessons.steps();
        if k >= steps {
            return Err(Error::Refused(format!("This lesson has {steps} steps")));
        }
        self.enter_step(k, false)
    }

    /// Enter step `k`: its own scene, or the learner's scene when continuing with Next (if the
    /// step's names still mean nodes there), or the step's canonical start; then its set-up.
    fn enter_step(&mut self, k: usize, continuing: bool) -> Result<Outcome> {
        self.finish_show();
        let Some(mut run) = self.lessons.take_run() else {
            return Ok(Outcome::default());
        };
        let result = self.enter_step_with(&mut run, k, continuing);
        self.lessons.put_run(Some(run));
        result
    }

    fn enter_step_with(
        &mut self,
        run: &mut lesson::LessonRun,
        k: usize,
        continuing: bool,
    ) -> Result<Outcome> {
        let step = &run.lesson().steps[k];
        let path = run.lesson().path.clone();
        let mut outcome = Outcome::default();
        let keeps_scene =
            continuing && step.scene.is_none() && bind_step(self.doc.scene(), step, &path).is_ok();
        if !keeps_scene {
            outcome = self.restore(run.start_of(k));
        } else {
            self.apply_setup(step, &path)?;
        }
        let bindings = bind_step(self.doc.scene(), step, &path)?;
        run.entered(k, bindings, self.snapshot());
        outcome.effects.extend(run.step_framing(self, keeps_scene));
        Ok(outcome)
    }

    /// Apply a step's set-up through the normal commands.
    pub(super) fn apply_setup(
        &mut self,
        step: &crate::editor::lesson::Step,
        path: &std::path::Path,
    ) -> Result<()> {
        self.update_world();
        let bindings = bind_step(self.doc.scene(), step, path)?;
        for command in setup_commands(&self.play_from(), &step.setup, &bindings, path)? {
            self.dispatch(command)?;
        }
        for command in vary_commands(&self.play_from(), step, &bindings)? {
            self.play(command)?;
        }
        self.update_world();
        Ok(())
    }

    fn reset_step(&mut self) -> Result<Outcome> {
        self.finish_show();
        let entry = self.lessons.run().and_then(|r| r.entry().cloned());
        let mut outcome = entry
            .map(|e| self.restore_keeping_lesson(&e))
            .unwrap_or_default();
        // The step starts again as it started: framed again too.
        if let Some(run) = self.lessons.run() {
            outcome.effects.extend(run.step_framing(self, false));
        }
        self.info("Step reset");
        Ok(outcome)
    }

    fn restore_keeping_lesson(&mut self, snapshot: &lesson::Snapshot) -> Outcome {
        let run = self.lessons.take_run();
        let outcome = self.restore(snapshot);
        self.lessons.restart_step(run);
        outcome
    }
}
