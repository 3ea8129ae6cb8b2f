//! Where each family of commands goes. [`part_of`] names the part of every command (an
//! exhaustive match: a new command does not compile until it has one), and [`Editor::apply`]
//! hands the command to that part. A part that owns
//! its state alone (the selection, the settings, the open windows and the message log, the
//! history) is handed only that state, as rerun hands `run_system_command` only the store it
//! changes; the families that span the document, the selection and the log (panels' intents,
//! edits, files, the view, the timeline and lessons) are session methods. A new command goes to
//! the part that owns what it changes, and gets a sample in `tests/panel_rules.rs`
//! (`one_of_each`), which checks that every kind reaches a part.

use crate::editor::session::command::{Command, Effect, Window};
use crate::editor::session::gestures::Gestures;
use crate::editor::session::lesson::{LessonCommand, LessonSource};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline::TimelineCommand;
use crate::editor::session::{DialogPurpose, Editor, FileAction, Outcome, Routed, files};
use crate::error::{Error, Result};
use crate::model::document::Document;
use rustc_hash::FxHashSet;

/// The part of the session a command belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// The selection (handed the selection, the timeline's picked keys and the scene).
    Selection,
    /// Tools, toggles and remembered choices (handed the settings).
    Settings,
    /// Floating windows and the message log.
    Windows,
    /// Undo, redo, jumps and gesture ends (handed the document).
    History,
    /// Panels' intents, made into edits and undo labels.
    Intents,
    /// Structural edits and the keyboard's moves.
    Edits,
    /// Files, dialogs, prompts and background jobs.
    Files,
    /// Framing, spaces, focus and the interface's look.
    View,
    /// The timeline, probes, lessons, recording and the crash journal.
    Tools,
}

/// Which part carries out `command`: one exhaustive match, so a new command does not compile
/// until it is given a part (and `tests/panel_rules.rs` checks the part carries it out).
#[rustfmt::skip]
pub(super) fn part_of(command: &Command) -> Part {
    use Command as C;
    match command {
        C::Select(..) | C::SelectAll | C::ToggleSelect(..) => Part::Selection,
        C::SetGodot3Export(..) | C::SetGodotFlatten(..) | C::SetGodotPixelsPerUnit(..)
        | C::SetOrientation(..)
        | C::SetTool(..) | C::ToggleKeepWorld | C::ToggleOrientation | C::ToggleView(..) => {
            Part::Settings
        }
        C::Close(..) | C::DismissError | C::Refused(..) | C::Show(..) => Part::Windows,
        C::EndGesture | C::JumpHistory(..) | C::Redo | C::Undo => Part::History,
        C::DragHandle { .. } | C::DropRows(..) | C::MoveSelection { .. }
        | C::PasteTransform { .. } | C::Perform { .. } | C::Rename { .. } | C::SetClip(..)
        | C::SetLook { .. } | C::SetTransform { .. } => Part::Intents,
        C::AddNode(..) | C::Copy | C::CreateParent | C::Delete | C::Drop { .. } | C::Duplicate
        | C::Mirror(..) | C::MoveTo { .. } | C::Nudge { .. } | C::Paste | C::Reorder(..)
        | C::ResetLocal | C::Unparent | C::Instance(..) => Part::Edits,
        C::AnswerGuard(..) | C::CancelJob | C::ChooseImage(..) | C::CloseRequested
        | C::DialogClosed(..) | C::ExportAnimation | C::ExportGodot | C::ExportGodot3
        | C::ExportSvg | C::Generate(..) | C::Import | C::New | C::Open | C::OpenPath(..)
        | C::Quit | C::Revert | C::Save | C::SaveAs | C::SaveFigure => Part::Files,
        C::FocusPanel(..) | C::FrameAll | C::FrameSelection | C::SetFigure(..)
        | C::SetFocusedPanel(..) | C::SetHighContrast(..) | C::SetUiScale(..)
        | C::SetViewSpace(..) | C::StartRename | C::StepUiScale(..) => Part::View,
        C::AnswerConflict(..) | C::AnswerRecovery(..) | C::Lesson(..) | C::Probe(..)
        | C::Record(..) | C::RetryJournal | C::Timeline(..) | C::ToggleJournal
        | C::Lifecycle(..) => Part::Tools,
    }
}

/// Done with nothing for the app to do.
fn done() -> Routed {
    Routed::Done(Ok(Outcome::default()))
}

/// The handle tool, the handles' axes, "Keep world transform", what the viewport shows and the
/// Godot export's remembered choices: handed the settings only.
pub(super) fn settings_command(settings: &mut Settings, command: Command) -> Routed {
    match command {
        Command::SetGodot3Export(on) => settings.set_godot3_export(on),
        Command::SetGodotFlatten(on) => settings.set_godot_flatten(on),
        Command::SetGodotPixelsPerUnit(pixels) => settings.set_godot_pixels_per_unit(pixels),
        Command::SetTool(tool) => settings.set_tool(tool),
        Command::SetOrientation(orientation) => settings.set_orientation(orientation),
        Command::ToggleOrientation => settings.toggle_orientation(),
        Command::ToggleKeepWorld => settings.toggle_keep_world(),
        Command::ToggleView(option) => settings.toggle_view(option),
        other => return Routed::Pass(other),
    }
    done()
}

/// Open and close floating windows, dismiss the error window, say why something was refused:
/// handed the set of open windows and the message log only.
pub(super) fn window_command(
    windows: &mut FxHashSet<Window>,
    log: &mut MessageLog,
    command: Command,
) -> Routed {
    match command {
        Command::Show(window) => {
            windows.insert(window);
        }
        Command::Close(window) => {
            windows.remove(&window);
        }
        Command::DismissError => log.dismiss_error(),
        Command::Refused(reason) => return Routed::Done(Err(Error::Refused(reason))),
        other => return Routed::Pass(other),
    }
    done()
}

/// Undo, redo, history jumps and the end of a gesture: handed the document, the gesture
/// counter (each of these closes the open gesture) and the message log (what was undone).
pub(super) fn history_command(
    doc: &mut Document,
    gestures: &mut Gestures,
    log: &mut MessageLog,
    command: Command,
) -> Routed {
    let said = |done: Result<Option<String>>, verb: &str, nothing: &str, log: &mut MessageLog| {
        log.info(match done? {
            Some(label) => format!("{verb} {label}"),
            None => nothing.to_string(),
        });
        Ok(Outcome::default())
    };
    let done = match command {
        Command::EndGesture => {
            doc.end_gesture();
            Ok(Outcome::default())
        }
        Command::Undo => said(doc.undo(), "Undid", "Nothing to undo", log),
        Command::Redo => said(doc.redo(), "Redid", "Nothing to redo", log),
        Command::JumpHistory(n) => doc.jump_to(n).map(|_| Outcome::default()),
        other => return Routed::Pass(other),
    };
    gestures.open = None;
    Routed::Done(done)
}

impl Editor {
    /// New, open, import, the export dialogs, save, revert, quit and the answers to their
    /// prompts and dialogs.
    pub(super) fn file_command(&mut self, command: Command) -> Routed {
        let dialog = |e: &mut Self, purpose| Ok(e.start_dialog(purpose));
        Routed::Done(match command {
            Command::New => self.request(FileAction::New),
            Command::Open => self.request(FileAction::Open),
            Command::Import => self.request(FileAction::Import),
            Command::ExportGodot if self.settings.godot3_export() => {
                dialog(self, DialogPurpose::ExportGodot3)
            }
            Command::ExportGodot => dialog(self, DialogPurpose::ExportGodot),
            Command::ExportGodot3 => dialog(self, DialogPurpose::ExportGodot3),
            Command::ExportSvg => dialog(self, DialogPurpose::ExportSvg),
            Command::ExportAnimation => dialog(self, DialogPurpose::ExportAnimation),
            Command::SaveFigure => dialog(self, DialogPurpose::ExportFigure),
            Command::SaveAs => dialog(self, DialogPurpose::SaveAs { then: None }),
            // A lesson is read and checked before the unsaved-changes prompt: a broken one is
            // refused without asking anything.
            Command::OpenPath(path) if files::is_lesson_file(&path) => {
                self.lesson_command(LessonCommand::Open(LessonSource::File(path)))
            }
            Command::OpenPath(path) => self.request(FileAction::OpenPath(path)),
            Command::Revert => self.request(FileAction::Revert),
            Command::Quit => self.request(FileAction::Quit),
            Command::CloseRequested => Ok(self.close_requested()),
            Command::Save => self.save_command(),
            Command::ChooseImage(node) => self.choose_image(node),
            Command::AnswerGuard(answer) => self.answer_guard(answer),
            Command::DialogClosed(outcome) => self.dialog_closed(outcome),
            Command::Generate(request) => self.generate_command(request),
            Command::CancelJob => Ok(self.cancel_job()),
            other => return Routed::Pass(other),
        })
    }

    /// Copy, paste, duplicate, delete, add, group, unparent, drop, reorder, move to and nudge.
    pub(super) fn edit_command(&mut self, command: Command) -> Routed {
        Routed::Done(match command {
            Command::Copy => Ok(self.copy()),
            Command::Paste => self.paste(),
            Command::Duplicate => self.duplicate(),
            // Del acts on what was picked last: keys on the timeline (picking nodes clears them).
            Command::Delete if !self.selected_keys().is_empty() => {
                self.timeline_command(TimelineCommand::DeleteSelectedKeys)
            }
            Command::Delete => self.delete(),
            Command::AddNode(place) => self.add_node(place),
            Command::Mirror(axis) => self.mirror(axis),
            Command::ResetLocal => self.reset_local(),
            Command::CreateParent => self.create_parent(),
            Command::Unparent => self.unparent(),
            Command::Drop {
                dragged,
                zone,
                keep_world,
            } => self.drop_nodes(&dragged, zone, keep_world),
            Command::Reorder(step) => self.reorder(step),
            Command::MoveTo { parent, keep_world } => self.move_to(parent, keep_world),
            Command::Nudge { direction, big } => self.nudge(direction, big),
            Command::Instance(command) => self.instance_command(command),
            other => return Routed::Pass(other),
        })
    }

    /// Rename in place, framing, the space the view is from, the figure's settings, which
    /// panel has the keyboard, the interface's scale and theme.
    pub(super) fn view_command(&mut self, command: Command) -> Routed {
        let effect = |effect| Ok(Outcome::with(effect));
        Routed::Done(match command {
            Command::StartRename => Ok(self.primary().map_or_else(Outcome::default, |id| {
                Outcome::with(Effect::StartRename(id))
            })),
            Command::FrameSelection => effect(Effect::Frame(self.selection.ids().to_vec())),
            Command::FrameAll => effect(Effect::Frame(self.doc.scene().ids().to_vec())),
            Command::SetViewSpace(space) => self.set_view_space(space),
            Command::SetFigure(options) => {
                self.figure = *options;
                Ok(Outcome::default())
            }
            Command::FocusPanel(step) => Ok(self.focus_panel(step)),
            Command::SetFocusedPanel(panel) => Ok(self.set_focused_panel(panel)),
            Command::StepUiScale(_) | Command::SetUiScale(_) | Command::SetHighContrast(_) => {
                Ok(self.appearance_command(command))
            }
            other => return Routed::Pass(other),
        })
    }

    /// The timeline, probes, lessons, the crash journal and the answers about recovery and
    /// changes on disk.
    pub(super) fn tool_command(&mut self, command: Command) -> Routed {
        Routed::Done(match command {
            Command::Timeline(command) => self.timeline_command(command),
            Command::Probe(probe) => self.probe_command(probe),
            Command::Lesson(command) => self.lesson_command(command),
            Command::Record(command) => self.record_command(command),
            Command::AnswerRecovery(answer) => self.answer_recovery(answer),
            Command::AnswerConflict(answer) => self.answer_conflict(answer),
            Command::ToggleJournal => Ok(self.toggle_journal()),
            Command::Lifecycle(step) => Ok(self.lifecycle(step)),
            Command::RetryJournal => {
                if !self.retry_journal() {
                    self.info("The crash journal still cannot be written");
                }
                Ok(Outcome::default())
            }
            other => return Routed::Pass(other),
        })
    }
}

impl Editor {
    /// The app's start, end and thresholds, as commands.
    fn lifecycle(&mut self, step: crate::editor::session::command::Lifecycle) -> Outcome {
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
