//! Floating windows: the unsaved-changes prompt, the typed-path fallback, errors, history,
//! keyboard shortcuts (generated from the command table), About and the command palette. Each
//! reads the frame's context and answers with commands.

mod close;
mod sources;

use crate::app::frame::{CommandSender, FrameContext};
use crate::editor::gesture_table::{Area, gestures_in};
use crate::editor::session::FileAction;
use crate::editor::session::command::{
    Command, FileCommand, GuardAnswer, HistoryCommand, Window, WindowCommand,
};
use crate::editor::session::dialogs::DialogOutcome;
use crate::editor::table::{CommandSpec, Shortcut, shortcut_rows};
use crate::model::document::SAMPLE_SCENES;
pub(super) use close::closable;
use std::path::PathBuf;

/// What the windows remember between frames: text being typed.
#[derive(Default)]
pub struct WindowsState {
    path_text: Option<String>,
    /// The recorded lesson's title being typed after Stop.
    lesson_title: Option<String>,
    palette_query: String,
    palette_choice: usize,
    palette_focus: bool,
    /// Help ▸ Lessons…, with the lesson files it read.
    lessons: super::lesson_window::LessonsWindow,
}

/// Draw every open window; what they answer is sent.
pub fn show(ctx: &egui::Context, fx: &FrameContext, state: &mut WindowsState) {
    let out = fx.wiring.sender;
    if fx.recovery_offer().is_some() {
        // Before anything else: the other windows wait for the answer.
        super::recovery::recovery_window(ctx, fx, out);
        return;
    }
    super::recovery::conflict_window(ctx, fx, out);
    guard_window(ctx, fx, out);
    path_prompt_window(ctx, fx, state, out);
    lesson_title_window(ctx, fx, &mut state.lesson_title, out);
    sources::sources_window(ctx, fx, out);
    error_window(ctx, fx, out);
    if fx.is_open(Window::History) {
        history_window(ctx, fx, out);
    }
    if fx.is_open(Window::Shortcuts) {
        shortcuts_window(ctx, out);
    }
    if fx.is_open(Window::About) {
        about_window(ctx, out);
    }
    if fx.is_open(Window::ImportReport) {
        report_window(ctx, fx, out);
    }
    if fx.is_open(Window::Lessons) {
        state.lessons.show(ctx, fx);
    }
    if fx.is_open(Window::Palette) {
        palette_window(ctx, fx, state, out);
    } else {
        state.palette_query.clear();
        state.palette_choice = 0;
        state.palette_focus = true;
    }
}

/// The last import's or export's report: a summary line, then one line per note.
fn report_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(report) = fx.interchange_report() else {
        return;
    };
    let closed = closable(ctx, &report.title, Window::ImportReport, |ui| {
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                ui.set_max_width(640.0);
                for (k, line) in report.lines.iter().enumerate() {
                    if k == 0 {
                        ui.strong(line);
                    } else {
                        ui.label(line);
                    }
                }
            });
    });
    out.send_all(closed);
}

fn guard_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(action) = fx.pending_guard else {
        return;
    };
    let what = match action {
        FileAction::New => "starting a new scene",
        FileAction::Open | FileAction::OpenPath(_) => "opening another scene",
        FileAction::Import => "importing a scene",
        FileAction::SwapLoaded => {
            "the scene that finished loading replaces it (it was edited while loading)"
        }
        FileAction::Revert => "reverting to the saved file",
        FileAction::Quit => "closing",
        FileAction::Generate(_) => "generating a new scene",
        FileAction::OpenLesson(_) => "opening the lesson (its scene replaces this one)",
        FileAction::Recover => "recovering the other journal (its scene replaces this one)",
    };
    egui::Modal::new(egui::Id::unique("graft-unsaved")).show(ctx, |ui| {
        super::a11y::name_dialog(ui, "Unsaved changes");
        ui.heading("Unsaved changes");
        ui.label(format!(
            "Save the changes to {} before {what}?",
            fx.doc.display_name()
        ));
        ui.horizontal(|ui| {
            let save = ui.button("Save");
            let discard = ui.button("Discard");
            let cancel = ui.button("Cancel");
            // The prompt takes the keyboard on Save (Enter saves; Tab reaches the others).
            if ![&save, &discard, &cancel].iter().any(|b| b.has_focus()) {
                save.request_focus();
            }
            if save.clicked() {
                out.send(Command::File(FileCommand::AnswerGuard(GuardAnswer::Save)));
            }
            if discard.clicked() {
                out.send(Command::File(FileCommand::AnswerGuard(
                    GuardAnswer::Discard,
                )));
            }
            if cancel.clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.send(Command::File(FileCommand::AnswerGuard(GuardAnswer::Cancel)));
            }
        });
    });
}

fn path_prompt_window(
    ctx: &egui::Context,
    fx: &FrameContext,
    state: &mut WindowsState,
    out: &CommandSender,
) {
    let Some(purpose) = fx.path_prompt else {
        state.path_text = None;
        return;
    };
    let text = state.path_text.get_or_insert_with(|| {
        fx.doc
            .path()
            .map_or(String::new(), |p| p.display().to_string())
    });
    let title = purpose.prompt();
    let title = title.as_str();
    egui::Modal::new(egui::Id::unique("graft-path-prompt")).show(ctx, |ui| {
        super::a11y::name_dialog(ui, title);
        ui.heading(title);
        let edit = ui.add(
            egui::TextEdit::singleline(text)
                .char_limit(4096)
                .desired_width(420.0)
                .hint_text("scenes/sword.ron"),
        );
        super::a11y::name(ui, &edit, "Path");
        if !edit.has_focus() && !edit.lost_focus() {
            edit.request_focus();
        }
        let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.horizontal(|ui| {
            if (ui.button("OK").clicked() || entered) && !text.trim().is_empty() {
                let path = PathBuf::from(text.trim());
                out.send(Command::File(FileCommand::DialogClosed(
                    DialogOutcome::Picked(path),
                )));
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.send(Command::File(FileCommand::DialogClosed(
                    DialogOutcome::Cancelled,
                )));
            }
        });
    });
}

fn error_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(text) = fx.error else {
        return;
    };
    let mut open = true;
    egui::Window::new("Problem")
        .id(egui::Id::unique("graft-error"))
        .open(&mut open)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ctx, |ui| {
            // The sign starts the text, not the title: a screen reader says "Problem" first.
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
            if ui.button("OK").clicked() {
                out.send(Command::Window(WindowCommand::DismissError));
            }
        });
    if !open {
        out.send(Command::Window(WindowCommand::DismissError));
    }
}

fn history_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let (labels, applied) = fx.doc.history().labels();
    let mut picked = None;
    let closed = closable(ctx, "History", Window::History, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            if ui.selectable_label(applied == 0, "(opened)").clicked() {
                picked = Some(0);
            }
            for (k, label) in labels.iter().enumerate() {
                let text = if k < applied {
                    label.to_string()
                } else {
                    format!("⟳ {label}")
                };
                if ui.selectable_label(k + 1 == applied, text).clicked() {
                    picked = Some(k + 1);
                }
            }
        });
    });
    out.send_all(picked.map(|x| Command::History(HistoryCommand::JumpHistory(x))));
    out.send_all(closed);
}

fn shortcuts_window(ctx: &egui::Context, out: &CommandSender) {
    let closed = closable(ctx, "Keyboard shortcuts", Window::Shortcuts, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.strong("Commands");
            help_grid(ui, "shortcuts", shortcut_rows());
            for area in Area::ALL {
                ui.add_space(6.0);
                ui.strong(area.title());
                let rows = gestures_in(area).map(|g| (g.input.to_string(), g.does.to_string()));
                help_grid(ui, area.title(), rows.collect());
            }
        });
    });
    out.send_all(closed);
}

/// One striped grid of (keys, what they do) rows.
fn help_grid(ui: &mut egui::Ui, id: &str, rows: Vec<(String, String)>) {
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for (keys, what) in rows {
            ui.monospace(keys);
            ui.label(what);
            ui.end_row();
        }
    });
}

fn about_window(ctx: &egui::Context, out: &CommandSender) {
    let closed = closable(ctx, "About graft", Window::About, |ui| {
        ui.heading("graft");
        ui.label("An editor for 2D scene graphs: build transform hierarchies by drag and drop, see every node's local and world transform side by side, reparent exactly, and see where shear comes from.");
        ui.label(format!(
            "Sample scenes (in the scenes/ folder of the source): {}.",
            SAMPLE_SCENES.join(", ")
        ));
        ui.label("World = parentWorld · local, y up, degrees counter-clockwise.");
    });
    out.send_all(closed);
}

/// The command palette (Ctrl+Shift+P, F1): type part of a command's name, pick with the arrow
/// keys or the mouse, Enter runs it, Esc closes.
fn palette_window(
    ctx: &egui::Context,
    fx: &FrameContext,
    state: &mut WindowsState,
    out: &CommandSender,
) {
    let matches = fx.palette_matches(&state.palette_query);
    state.palette_choice = state.palette_choice.min(matches.len().saturating_sub(1));
    let (enter, escape) = palette_keys(ctx, state, matches.len());
    let mut chosen = enter.then_some(state.palette_choice);
    egui::Window::new("Command palette")
        .id(egui::Id::unique("graft-palette"))
        .collapsible(false)
        .title_bar(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .fixed_size([460.0, 320.0])
        .show(ctx, |ui| {
            let field = palette_query(ui, state);
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(280.0)
                .show(ui, |ui| {
                    let options = palette_list(ui, &matches, state.palette_choice, &mut chosen);
                    let picked = (options.as_slice(), state.palette_choice);
                    super::a11y::pick_list(ui, ui.unique_id(), "Commands", field, picked);
                });
        });
    if let Some(spec) = chosen.and_then(|k| matches.get(k)) {
        out.send(Command::Window(WindowCommand::Close(Window::Palette)));
        out.send(spec.command.clone());
    } else if escape {
        out.send(Command::Window(WindowCommand::Close(Window::Palette)));
    }
}

/// The palette's keys: the arrows move the choice among `count` matches; returns whether Enter
/// and Esc were pressed.
fn palette_keys(ctx: &egui::Context, state: &mut WindowsState, count: usize) -> (bool, bool) {
    let (up, down, enter, escape) = ctx.input(|i| {
        (
            i.key_pressed(egui::Key::ArrowUp),
            i.key_pressed(egui::Key::ArrowDown),
            i.key_pressed(egui::Key::Enter),
            i.key_pressed(egui::Key::Escape),
        )
    });
    if down && state.palette_choice + 1 < count {
        state.palette_choice += 1;
    }
    if up {
        state.palette_choice = state.palette_choice.saturating_sub(1);
    }
    (enter, escape)
}

/// The palette's query field (focused when the palette opens); typing resets the choice.
/// Returns its id.
fn palette_query(ui: &mut egui::Ui, state: &mut WindowsState) -> egui::Id {
    let edit = ui.add(
        egui::TextEdit::singleline(&mut state.palette_query)
            .char_limit(256)
            .hint_text("Type a command…")
            .desired_width(f32::INFINITY),
    );
    super::a11y::name(ui, &edit, "Command: type part of its name");
    if state.palette_focus {
        edit.request_focus();
        state.palette_focus = false;
    }
    if edit.changed() {
        state.palette_choice = 0;
    }
    edit.id
}

/// The matching commands with their shortcuts, `choice` highlighted; a click sets `chosen`.
/// Returns the rows' ids.
fn palette_list(
    ui: &mut egui::Ui,
    matches: &[&CommandSpec],
    choice: usize,
    chosen: &mut Option<usize>,
) -> Vec<egui::Id> {
    let mut rows = Vec::with_capacity(matches.len());
    for (k, spec) in matches.iter().enumerate() {
        let shortcut = spec
            .shortcuts
            .first()
            .map(Shortcut::text)
            .unwrap_or_default();
        let button =
            egui::Button::selectable(k == choice, spec.label).shortcut_text(shortcut.as_str());
        let row = ui.add(button);
        if k == choice
            && ui
                .input(|i| i.key_pressed(egui::Key::ArrowDown) || i.key_pressed(egui::Key::ArrowUp))
        {
            row.scroll_to_me(None);
        }
        // "Save, Ctrl+S": the shortcut is part of what the option says.
        let said = if shortcut.is_empty() {
            spec.label.to_string()
        } else {
            format!("{}, {shortcut}", spec.label)
        };
        super::a11y::name(ui, &row, &said);
        rows.push(row.id);
        if row.on_hover_text(spec.tooltip).clicked() {
            *chosen = Some(k);
        }
    }
    if matches.is_empty() {
        ui.weak("No command matches");
    }
    rows
}

/// After Stop recording: the lesson's title, asked before where to write it (suggested from
/// what its first step did); Enter or "Choose where to write…" goes on, Esc drops nothing and
/// keeps the recording for later.
fn lesson_title_window(
    ctx: &egui::Context,
    fx: &FrameContext,
    text: &mut Option<String>,
    out: &CommandSender,
) {
    use crate::editor::session::record::RecordCommand;
    let Some(suggested) = fx.recording.and_then(|r| r.asks_for_title()) else {
        *text = None;
        return;
    };
    let text = text.get_or_insert(suggested);
    egui::Modal::new(egui::Id::unique("graft-lesson-title")).show(ctx, |ui| {
        super::a11y::name_dialog(ui, "Name the recorded lesson");
        ui.heading("Name the recorded lesson");
        ui.label("Its title, as the Lessons window and the lesson's first line show it:");
        let edit = ui.add(
            egui::TextEdit::singleline(text)
                .char_limit(200)
                .desired_width(360.0),
        );
        super::a11y::name(ui, &edit, "Lesson title");
        if !edit.has_focus() && !edit.lost_focus() {
            edit.request_focus();
        }
        let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.horizontal(|ui| {
            let write = ui.add_enabled(
                !text.trim().is_empty(),
                egui::Button::new("Choose where to write…"),
            );
            if write.clicked() || (entered && !text.trim().is_empty()) {
                let title = text.trim().to_string();
                out.send(Command::Record(RecordCommand::Write { title }));
            }
            if ui.button("Drop the recording").clicked() {
                out.send(Command::Record(RecordCommand::Cancel));
            }
        });
    });
}

/// Open a scene file in a new graft window: this program started again on it (a process of
/// its own, so the two windows share nothing but the files).
pub(super) fn open_window(path: &std::path::Path) -> std::result::Result<(), String> {
    let started =
        std::env::current_exe().and_then(|exe| std::process::Command::new(exe).arg(path).spawn());
    // The child is not waited for: it lives on as a window of its own.
    started
        .map(drop)
        .map_err(|e| format!("Could not open {} in a new window: {e}", path.display()))
}
