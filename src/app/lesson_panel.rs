//! The lesson above the inspector (the introduction, the step's text, its checklist ticking
//! live, Hint, Show me, Reset, Back and Next, and the summary at the end). It reads the
//! frame's context and sends commands; the rules are in `editor/session/lesson.rs`. Help ▸
//! Lessons… is in `lesson_window.rs`.

use super::frame::Wiring;
use super::lesson_overlay::LessonOverlay;
use crate::app::frame::{CommandSender, FrameContext};
use crate::app::viewport::c32;
use crate::editor::lesson::explain::what_it_checks;
use crate::editor::lesson::text::{Span, keyboard_way, plain, spans};
use crate::editor::session::arrange::Panel;
use crate::editor::session::command::{Command, SelectionCommand};
use crate::editor::session::lesson::{LessonCommand, LessonRun, LessonSource, Summary};
use crate::editor::view::palette;
use std::collections::{HashMap, HashSet};

/// What the step title and goal lines sense: Tab and F6 can give them the keyboard (a screen
/// reader reads them), a press does nothing.
const FOCUSABLE: egui::Sense = egui::Sense::FOCUSABLE;

/// The colour of a goal that holds.
pub(super) const DONE: egui::Color32 = c32(palette::LESSON_DONE);
/// The colour of a keep that no longer holds.
const BROKEN: egui::Color32 = c32(palette::LESSON_BROKEN);

/// What the panel shows, as an id: each intro, step and summary is laid out afresh (its own
/// height, scrolled to its top), not in the room and scroll the one before left.
fn view_id(run: &LessonRun, summary: bool) -> egui::Id {
    let shown = (summary, run.showing_intro(), run.step_index());
    egui::Id::unique(("lesson", &run.lesson().id, shown))
}

/// The lesson panel and what it keeps between frames (owned by the app): the pinned predict
/// box's last height in each view, and the keeps' lines already scrolled into view when they
/// broke.
#[derive(Debug, Default)]
pub struct LessonPanel {
    /// The pinned predict box's height as last drawn, by the view it is pinned in.
    pinned: HashMap<egui::Id, f32>,
    /// The broken keeps' lines brought into view once (forgotten when the keep holds again).
    broken_seen: HashSet<egui::Id>,
}

impl LessonPanel {
    /// The lesson at the top of the right column, resizable (the inspector fills the rest);
    /// what it asks for is sent. Returns where it was drawn.
    pub fn ui(&mut self, ui: &mut egui::Ui, fx: &FrameContext, run: &LessonRun) -> egui::Rect {
        let height = ui.available_height();
        let summary = run.summary(fx.lesson_progress);
        let rect = egui::Panel::top(view_id(run, summary.is_some()))
            .resizable(true)
            .default_size(height * 0.6)
            .size_range(120.0..=(height - 80.0).max(120.0))
            .show(ui, |ui| self.contents(ui, fx, run, summary.as_ref()))
            .response
            .rect;
        (fx.wiring.targets).register_rect(ui, super::ui_targets::Key::LessonPanel, rect);
        rect
    }

    /// The lesson panel's contents.
    fn contents(
        &mut self,
        ui: &mut egui::Ui,
        fx: &FrameContext,
        run: &LessonRun,
        summary: Option<&Summary>,
    ) {
        let (w, out) = (fx.wiring, fx.wiring.sender);
        crate::app::a11y::name_panel(ui, "Lesson");
        header(ui, fx, run, out);
        ui.separator();
        if let Some(summary) = summary {
            summary_ui(ui, (run, w), summary, out);
        } else if run.showing_intro() {
            intro_ui(ui, fx, (run, w), out);
        } else {
            self.step_ui(ui, fx, run);
        }
    }
}

/// The title, the close button and one numbered button per step (done steps are green).
fn header(ui: &mut egui::Ui, fx: &FrameContext, run: &LessonRun, out: &CommandSender) {
    let lesson = run.lesson();
    // The close button first, at the right; the title wraps in the room left of it.
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
        let close = ui.small_button("✖");
        crate::app::a11y::name(ui, &close, "Close the lesson");
        if close
            .on_hover_text("Close the lesson (the scene stays)")
            .clicked()
        {
            out.send(Command::Lesson(LessonCommand::Close));
        }
        ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.add(egui::Label::new(egui::RichText::new(&lesson.title).heading()).wrap());
        });
    });
    ui.horizontal_wrapped(|ui| {
        let intro = egui::Button::selectable(run.showing_intro(), "Intro");
        if ui
            .add(intro)
            .on_hover_text("The lesson's introduction")
            .clicked()
        {
            out.send(Command::Lesson(LessonCommand::Introduction));
        }
        for (s, step) in lesson.steps.iter().enumerate() {
            let mut text = egui::RichText::new(format!("{}", s + 1));
            if fx.lesson_progress.is_done(&lesson.id, s) {
                text = text.color(DONE);
            }
            let current = s == run.step_index() && !run.showing_intro();
            let button = egui::Button::selectable(current, text);
            let button = ui.add(button);
            crate::app::a11y::name(ui, &button, &format!("Step {}: {}", s + 1, step.title));
            if button.on_hover_text(&step.title).clicked() {
                out.send(Command::Lesson(if s == run.step_index() {
                    LessonCommand::Begin
                } else {
                    LessonCommand::GoTo(s)
                }));
            }
        }
    });
}

/// The introduction: the lesson's about and its header text, what its check found, and Start.
fn intro_ui(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    (run, w): (&LessonRun, Wiring),
    out: &CommandSender,
) {
    let lesson = run.lesson();
    let start = if run.step_index() == 0 {
        "Start step 1 ⏵".to_string()
    } else {
        format!("Go on at step {} ⏵", run.step_index() + 1)
    };
    let start = ui.button(start);
    w.name_primary(Panel::Lesson, start.id);
    if start.clicked() {
        out.send(Command::Lesson(LessonCommand::Begin));
    }
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if !lesson.about.is_empty() {
                ui.label(egui::RichText::new(&lesson.about).italics());
                ui.add_space(6.0);
            }
            for paragraph in &lesson.intro {
                paragraph_ui(ui, fx, run, paragraph, out);
                ui.add_space(4.0);
            }
            failures_ui(ui, run, None);
            crate::app::a11y::scroll_focus_into_view(ui);
        });
}

/// What `graft lesson check` found wrong (all of it, or the step's).
fn failures_ui(ui: &mut egui::Ui, run: &LessonRun, step: Option<usize>) {
    let failures: Vec<_> = run
        .failures()
        .iter()
        .filter(|f| step.is_none_or(|k| f.step == k))
        .collect();
    if failures.is_empty() {
        return;
    }
    ui.separator();
    let warning = "⚠ This lesson fails its own check (graft lesson check):";
    ui.label(egui::RichText::new(warning).strong().color(BROKEN));
    for failure in failures {
        ui.label(egui::RichText::new(&failure.message).small().color(BROKEN));
    }
}

impl LessonPanel {
    /// The step: its title, the buttons at a fixed place, then its text, checklist and hints.
    fn step_ui(&mut self, ui: &mut egui::Ui, fx: &FrameContext, run: &LessonRun) {
        let (w, out) = (fx.wiring, fx.wiring.sender);
        let lesson = run.lesson();
        let title = format!(
            "Step {} of {}: {}",
            run.step_index() + 1,
            lesson.steps.len(),
            run.step().title
        );
        // F6 lands here when neither Next nor a goal can take the keyboard.
        let title = egui::Label::new(egui::RichText::new(title).strong());
        let title = ui.add(title.sense(FOCUSABLE));
        crate::app::a11y::focus_ring(ui, w.ring, &title);
        w.name_primary(Panel::Lesson, title.id);
        buttons(ui, (run, w), out);
        ui.separator();
        // While the step waits for a prediction, its box stays under the text's scroll area, in
        // view however long the text (its height as last drawn).
        let pinned = run.predict().is_some() && run.prediction().is_none();
        let pinned_id = ui.scope_id().with("pinned prediction");
        let pinned_height = match pinned {
            true => self.pinned.get(&pinned_id).copied().unwrap_or(110.0) + 6.0,
            false => 0.0,
        };
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .max_height((ui.available_height() - pinned_height).max(60.0))
            .show(ui, |ui| {
                failures_ui(ui, run, Some(run.step_index()));
                for paragraph in &run.step().text {
                    paragraph_ui(ui, fx, run, paragraph, out);
                    ui.add_space(4.0);
                }
                let gestures = &run.step().pointing.gestures;
                for way in gestures.iter().filter_map(keyboard_way) {
                    paragraph_ui(ui, fx, run, &way, out);
                    ui.add_space(4.0);
                }
                if !pinned {
                    super::lesson_predict::predict_box(ui, (run, w), out);
                }
                ui.separator();
                checklist(ui, fx, (run, w), &mut self.broken_seen);
                for hint in run.hints_shown() {
                    ui.add_space(4.0);
                    hint_ui(ui, fx, run, hint, out);
                }
                crate::app::a11y::scroll_focus_into_view(ui);
            });
        if pinned {
            let drawn = ui.scope(|ui| super::lesson_predict::predict_box(ui, (run, w), out));
            let height = drawn.response.rect.height();
            self.pinned.insert(pinned_id, height);
        }
    }
}

fn hint_ui(ui: &mut egui::Ui, fx: &FrameContext, run: &LessonRun, hint: &str, out: &CommandSender) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(egui::RichText::new("Hint").italics().weak());
        paragraph_ui(ui, fx, run, hint, out);
    });
}

/// A paragraph with its `code` (one unit that never breaks), **bold** and [node] links. A
/// screen reader reads it as one label, its whole text in order with the node names (the
/// pieces it is drawn in are hidden from it; the links stay, to be clicked).
fn paragraph_ui(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    run: &LessonRun,
    text: &str,
    out: &CommandSender,
) {
    let column = ui.available_width();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        let ctx = ui.ctx().clone();
        let hide = |r: egui::Response| crate::app::a11y::hide(&ctx, &r);
        for span in spans(text) {
            match span {
                Span::Plain(t) => {
                    hide(ui.label(t));
                }
                Span::Code(t) => hide(code_span(ui, &t, column)),
                Span::Bold(t) => {
                    hide(ui.strong(t));
                }
                Span::Node(name) => {
                    let id = run.resolve(fx.scene, &name);
                    let link = ui.add_enabled(id.is_some(), egui::Link::new(name.as_str()));
                    if let (true, Some(id)) = (link.on_hover_text("Select this node").clicked(), id)
                    {
                        out.send(Command::Selection(SelectionCommand::Select(vec![id])));
                    }
                }
            }
        }
        crate::app::a11y::paragraph(ui, &plain(text));
    });
}

/// A code span as one unit: it goes whole to the next line rather than breaking inside (only
/// one wider than the whole column wraps).
fn code_span(ui: &mut egui::Ui, text: &str, column: f32) -> egui::Response {
    let rich = egui::RichText::new(text).code();
    let font = egui::FontSelection::Style(egui::TextStyle::Monospace).resolve(ui.style());
    let width = ui
        .fonts_mut(|f| f.layout_no_wrap(text.into(), font, egui::Color32::WHITE))
        .size()
        .x;
    let mode = if width + 8.0 < column {
        egui::TextWrapMode::Extend
    } else {
        egui::TextWrapMode::Wrap
    };
    ui.add(egui::Label::new(rich).wrap_mode(mode))
}

/// The goals and keeps: a tick for each that holds, a broken keep marked with what changed,
/// and under a label what it checks.
fn checklist(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    (run, w): (&LessonRun, Wiring),
    seen: &mut HashSet<egui::Id>,
) {
    let goals = run.step().goals.len();
    let changes = fx.keep_changes(run);
    for (k, (goal, holds)) in run.checklist().into_iter().enumerate() {
        let keep = k >= goals;
        if k == goals {
            ui.label(egui::RichText::new("and still:").small());
        }
        let change = keep
            .then(|| changes.get(k - goals).cloned().flatten())
            .flatten();
        let (mark, color) = match (holds, &change) {
            (true, _) => ("☑", Some(DONE)),
            (false, Some(_)) if keep => ("✖", Some(BROKEN)),
            _ => ("☐", None),
        };
        let text = egui::RichText::new(format!("{mark} {}", goal.label));
        // Tab reads each goal; F6 lands on the first while Next is not lit.
        let line = egui::Label::new(color.map_or(text.clone(), |c| text.color(c)));
        let line = ui.add(line.sense(FOCUSABLE));
        crate::app::a11y::focus_ring(ui, w.ring, &line);
        // F6 lands on the prediction's field while a predict step waits for it.
        let awaits_prediction = run.predict().is_some() && run.prediction().is_none();
        if k == 0 && !run.step_done() && !awaits_prediction {
            w.name_primary(Panel::Lesson, line.id);
        }
        if line.gained_focus() {
            line.scroll_to_me(None);
        }
        // A broken keep is read as broken, not as a goal still to reach.
        let name = if change.is_some() && keep && !holds {
            format!("Broken: {}", goal.label)
        } else {
            goal.label.clone()
        };
        crate::app::a11y::goal(ui, &line, &name, holds);
        if let Some(change) = change {
            let text = format!("    broken: {change}");
            let note = ui.label(egui::RichText::new(text).small().color(BROKEN));
            show_when_it_breaks(ui, (&line, &note), seen);
        } else {
            seen.remove(&line.id);
        }
        let checks = what_it_checks(goal, keep.then_some(run.step().goals.as_slice()));
        if goal.label != checks {
            ui.label(
                egui::RichText::new(format!("    checks: {checks}"))
                    .small()
                    .weak(),
            );
        }
    }
    done_note(ui, run);
}

/// Once every goal holds: what to press next.
fn done_note(ui: &mut egui::Ui, run: &LessonRun) {
    if run.step_done() {
        let last = run.step_index() + 1 == run.lesson().steps.len();
        let next = if last { "Finish" } else { "Next" };
        let text = format!("Every goal holds: go on with {next}.");
        ui.label(egui::RichText::new(text).strong().color(DONE));
    }
}

/// Hint, Show me, Reset, Back and Next (Finish on the last step), always at the same place.
fn buttons(ui: &mut egui::Ui, (run, w): (&LessonRun, Wiring), out: &CommandSender) {
    let k = run.step_index();
    let last = k + 1 == run.lesson().steps.len();
    let send = |command| out.send(Command::Lesson(command));
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(k > 0, egui::Button::new("Back")).clicked() {
            send(LessonCommand::Back);
        }
        let next_text = if last { "Finish ✔" } else { "Next ⏵" };
        let next = ui.add_enabled(run.step_done(), egui::Button::new(next_text));
        if run.step_done() {
            w.name_primary(Panel::Lesson, next.id);
        }
        if next
            .on_disabled_hover_text("Lights up when every goal holds")
            .clicked()
        {
            send(LessonCommand::Next);
        }
        let more_hints = run.hints_shown().len() < run.step().hints.len();
        let hint = ui.add_enabled(more_hints, egui::Button::new("Hint"));
        if hint.on_hover_text("Show the next hint (below)").clicked() {
            send(LessonCommand::Hint);
        }
        let show = ui.add_enabled(!run.showing(), egui::Button::new("Show me"));
        if show
            .on_hover_text("Play the solution (one undo step: Ctrl+Z takes it back)")
            .clicked()
        {
            send(LessonCommand::ShowMe);
        }
        let reset = ui.button("Reset step");
        if reset
            .on_hover_text("Put the step back as it started")
            .clicked()
        {
            send(LessonCommand::Reset);
            w.overlay.point_again(ui.ctx());
        }
        pointing_buttons(ui, run, w.overlay);
    });
}

/// **Where?** (the step's highlights again, from the first) and **Show the gesture** (the ghost
/// pointer plays the step's drags without doing them), for a step that points.
fn pointing_buttons(ui: &mut egui::Ui, run: &LessonRun, overlay: &LessonOverlay) {
    let pointing = &run.step().pointing;
    if !pointing.points.is_empty()
        && ui
            .button("Where?")
            .on_hover_text("Point at the place in the editor again")
            .clicked()
    {
        overlay.point_again(ui.ctx());
    }
    if !pointing.gestures.is_empty()
        && ui
            .button("Show the gesture")
            .on_hover_text("A ghost pointer shows the drag (it does not do it)")
            .clicked()
    {
        overlay.show_gesture(ui.ctx());
    }
}

/// The end of the lesson, all of it scrolling in a short panel: what to do next (the next
/// lesson, close, back to the last step) first, then the steps done, the time taken and what
/// was learned (the buttons came last and a short panel cut them off).
fn summary_ui(
    ui: &mut egui::Ui,
    (run, w): (&LessonRun, Wiring),
    summary: &Summary,
    out: &CommandSender,
) {
    // Shrunk to its content in height: the panel keeps the size it had (a summary that took all
    // the room it could would push the next lesson's inspector below the window).
    egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new("Lesson complete ✔")
                    .heading()
                    .color(DONE),
            );
            ui.add_space(4.0);
            summary_buttons(ui, (run, w), summary, out);
            ui.separator();
            let secs = summary.time.as_secs();
            let time = if secs >= 60 {
                format!("{} min {} s", secs / 60, secs % 60)
            } else {
                format!("{secs} s")
            };
            ui.label(format!(
                "Steps done: {} of {}   Time: {time}",
                summary.done, summary.steps
            ));
            ui.add_space(4.0);
            ui.label(egui::RichText::new("What you learned").strong());
            ui.label(&summary.learned);
            if summary.next.is_none() {
                ui.add_space(6.0);
                ui.label("Help > Lessons… lists the course.");
            }
            crate::app::a11y::scroll_focus_into_view(ui);
        });
}

/// The summary's buttons: the next lesson (the primary action), close, back to the last step
/// (primary when there is no next lesson).
fn summary_buttons(
    ui: &mut egui::Ui,
    (run, w): (&LessonRun, Wiring),
    summary: &Summary,
    out: &CommandSender,
) {
    ui.horizontal_wrapped(|ui| {
        if let Some((k, title)) = &summary.next {
            let open = LessonSource::Builtin(*k);
            let next = ui.button(format!("Next lesson: {title} ⏵"));
            w.name_primary(Panel::Lesson, next.id);
            if next.clicked() {
                out.send(Command::Lesson(LessonCommand::Open(open)));
            }
        }
        if ui.button("Close the lesson").clicked() {
            out.send(Command::Lesson(LessonCommand::Close));
        }
        let back = ui.button(format!("Back to step {}", run.step_index() + 1));
        if summary.next.is_none() {
            w.name_primary(Panel::Lesson, back.id);
        }
        if back.clicked() {
            out.send(Command::Lesson(LessonCommand::Begin));
        }
    });
}

/// Scroll a keep's line and its "broken:" note into view in the frame it breaks (a long step
/// text may have pushed the checklist below the panel's fold); later frames leave the
/// learner's scrolling alone.
fn show_when_it_breaks(
    ui: &egui::Ui,
    (line, note): (&egui::Response, &egui::Response),
    seen: &mut HashSet<egui::Id>,
) {
    if seen.insert(line.id) {
        ui.scroll_to_rect(line.rect.union(note.rect), Some(egui::Align::Center));
    }
}
