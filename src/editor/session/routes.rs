//! Where each family of commands goes. [`Command`] is nested by part (`Command::Edit(EditCommand)`
//! …): [`Editor::apply`] matches the part exhaustively and each part matches its own enum
//! exhaustively, with no fallthrough, so a new command does not compile until its part carries
//! it out. A part that owns
//! its state alone (the selection, the settings, the open windows and the message log, the
//! history) is handed only that state, as rerun hands `run_system_command` only the store it
//! changes; the families that span the document, the selection and the log (panels' intents,
//! edits, files, the view, the timeline and lessons) are session methods. A new command goes to
//! the part's enum that owns what it changes, and gets a sample in `tests/panel_rules.rs`
//! (`one_of_each`), which checks that every part carries out its kind.

#[cfg(doc)]
use crate::editor::session::command::Command;
use crate::editor::session::command::{
    EditCommand, Effect, FileCommand, HistoryCommand, JournalCommand, SettingCommand, ViewCommand,
    Window, WindowCommand,
};
use crate::editor::session::edits::EditParts;
use crate::editor::session::gestures::Gestures;
use crate::editor::session::lesson::{LessonCommand, LessonSource};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline::TimelineCommand;
use crate::editor::session::{DialogPurpose, Editor, FileAction, Outcome, arrange, files};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::edit::Op;
use rustc_hash::FxHashSet;

/// The handle tool, the handles' axes, "Keep world transform", what the viewport shows and the
/// Godot export's remembered choices: handed the settings only.
pub(super) fn settings_command(settings: &mut Settings, command: SettingCommand) {
    use SettingCommand as C;
    match command {
        C::SetGodot3Export(on) => settings.set_godot3_export(on),
        C::SetGodotFlatten(on) => settings.set_godot_flatten(on),
        C::SetGodotPixelsPerUnit(pixels) => settings.set_godot_pixels_per_unit(pixels),
        C::SetTool(tool) => settings.set_tool(tool),
        C::SetOrientation(orientation) => settings.set_orientation(orientation),
        C::ToggleOrientation => settings.toggle_orientation(),
        C::ToggleKeepWorld => settings.toggle_keep_world(),
        C::ToggleView(option) => settings.toggle_view(option),
    }
}

/// Open and close floating windows, dismiss the error window, say why something was refused:
/// handed the set of open windows and the message log only.
pub(super) fn window_command(
    windows: &mut FxHashSet<Window>,
    log: &mut MessageLog,
    command: WindowCommand,
) -> Result<Outcome> {
    match command {
        WindowCommand::Show(window) => {
            windows.insert(window);
        }
        WindowCommand::Close(window) => {
            windows.remove(&window);
        }
        WindowCommand::DismissError => log.dismiss_error(),
        WindowCommand::Refused(reason) => return Err(Error::Refused(reason)),
    }
    Ok(Outcome::default())
}

/// Undo, redo, history jumps and the end of a gesture: handed the document, the gesture
/// counter (each of these closes the open gesture) and the message log (what was undone).
pub(super) fn history_command(
    doc: &mut Document,
    gestures: &mut Gestures,
    log: &mut MessageLog,
    command: HistoryCommand,
) -> Result<Outcome> {
    let said = |done: Result<Option<String>>, verb: &str, nothing: &str, log: &mut MessageLog| {
        log.info(match done? {
            Some(label) => format!("{verb} {label}"),
            None => nothing.to_string(),
        });
        Ok(Outcome::default())
    };
    let done = match command {
        HistoryCommand::EndGesture => {
            doc.end_gesture();
            Ok(Outcome::default())
        }
        HistoryCommand::Undo => said(doc.undo(), "Undid", "Nothing to undo", log),
        HistoryCommand::Redo => said(doc.redo(), "Redid", "Nothing to redo", log),
        HistoryCommand::JumpHistory(n) => doc.jump_to(n).map(|_| Outcome::default()),
    };
    gestures.open = None;
    done
}

impl Editor {
    /// New, open, import, the export dialogs, save, revert, quit and the answers to their
    /// prompts and dialogs.
    pub(super) fn file_command(&mut self, command: FileCommand) -> Result<Outcome> {
        use FileCommand as C;
        let dialog = |e: &mut Self, purpose| Ok(e.start_dialog(purpose));
        match command {
            C::New => self.request(FileAction::New),
            C::Open => self.request(FileAction::Open),
            C::Import => self.request(FileAction::Import),
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
            C::OpenPath(path) => self.request(FileAction::OpenPath(path)),
            C::Revert => self.request(FileAction::Revert),
            C::Quit => self.request(FileAction::Quit),
            C::CloseRequested => Ok(self.close_requested()),
            C::Save => self.save_command(),
            C::ChooseImage(node) => self.choose_image(node),
            C::AnswerGuard(answer) => self.answer_guard(answer),
            C::DialogClosed(outcome) => self.dialog_closed(outcome),
            C::Generate(request) => self.generate_command(request),
            C::CancelJob => Ok(self.cancel_job()),
            C::AnswerConflict(answer) => self.answer_conflict(answer),
            C::AnswerSources(answer) => self.answer_sources(answer),
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

    /// Perform ops as one undo step, or as part of the open gesture ([`EditParts::perform`]).
    pub(super) fn perform(&mut self, label: String, ops: Vec<Op>, continuous: bool) -> Result<()> {
        self.edit_parts().perform(label, ops, continuous)
    }

    /// Copy, paste, duplicate, delete, add, group, unparent, reorder, move to and nudge.
    pub(super) fn edit_command(&mut self, command: EditCommand) -> Result<Outcome> {
        use EditCommand as C;
        // Del acts on what was picked last: keys on the timeline (picking nodes clears them).
        if command == C::Delete && !self.selected_keys().is_empty() {
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
        match command {
            C::Copy => Ok(edit.copy(clipboard)),
            C::Paste => edit.paste(clipboard),
            C::Duplicate => edit.duplicate(),
            C::Delete => edit.delete(),
            C::AddNode(place) => edit.add_node(place),
            C::Mirror(axis) => edit.mirror(axis),
            C::ResetLocal => edit.reset_local(),
            C::CreateParent => edit.create_parent(),
            C::Unparent => edit.unparent(keep),
            C::Reorder(step) => edit.reorder(step),
            C::MoveTo { parent, keep } => edit.move_to(parent, keep),
            C::Nudge { direction, big } => edit.nudge(direction, big, view),
        }
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
            C::SetViewSpace(space) => self.set_view_space(space),
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

    /// The crash journal on and off, a retry, and the answer about recovery.
    pub(super) fn journal_command(&mut self, command: JournalCommand) -> Result<Outcome> {
        match command {
            JournalCommand::AnswerRecovery(answer) => self.answer_recovery(answer),
            JournalCommand::ToggleJournal => Ok(self.toggle_journal()),
            JournalCommand::RetryJournal => {
                if !self.retry_journal() {
                    self.info("The crash journal still cannot be written");
                }
                Ok(Outcome::default())
            }
        }
    }
}

impl Editor {
    /// The app's start, end and thresholds, as commands.
    pub(super) fn lifecycle(
        &mut self,
        step: crate::editor::session::command::Lifecycle,
    ) -> Outcome {
        use crate::editor::session::command::Lifecycle as L;
        match step {
            L::StartJournal(dir) => self.start_journal(dir),
            L::EndJournal => self.end_journal(),
            L::EndOnSignal => self.end_on_signal(),
            L::BackgroundSaveNodes(nodes) => self.set_background_save_nodes(nodes),
            L::BackgroundBytes(bytes) => self.set_background_bytes(bytes),
        }
        Outcome::default()
    }
}
