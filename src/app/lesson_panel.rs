//! The lesson panel beside the inspector (the step's text, its checklist ticking live, Hint,
//! Show me, Reset, Back and Next) and Help ▸ Lessons… (the course and lesson files). Both
//! read the session and answer with commands; the rules are in `editor/session/lesson.rs`.

use crate::editor::lesson::course::COURSE;
use crate::editor::lesson::text::{Span, spans};
use crate::editor::session::Editor;
use crate::editor::session::command::{Command, Window};
use crate::editor::session::lesson::{LessonCommand, LessonRun, LessonSource, read_lesson};

/// The colour of a goal that holds.
const DONE: egui::Color32 = egui::Color32::from_rgb(90, 190, 110);

/// The lesson panel's contents (the caller shows it only while a lesson runs).
pub fn ui(ui: &mut egui::Ui, editor: &Editor, run: &LessonRun) -> Vec<Command> {
    let mut out = Vec::new();
    let lesson = run.lesson();
    let k = run.step_index();
    ui.horizontal(|ui| {
        ui.heading(&lesson.title);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .small_button("✖")
                .on_hover_text("Close the lesson (the scene stays)")
                .clicked()
            {
                out.push(Command::Lesson(LessonCommand::Close));
            }
        });
    });
    step_dots(ui, editor, run, &mut out);
    ui.separator();
    egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .max_height(ui.available_height() - 70.0)
        .show(ui, |ui| {
            ui.strong(format!(
                "Step {} of {}: {}",
                k + 1,
                lesson.steps.len(),
                run.step().title
            ));
            ui.add_space(4.0);
            for paragraph in &run.step().text {
                paragraph_ui(ui, editor, run, paragraph, &mut out);
                ui.add_space(4.0);
            }
            ui.separator();
            checklist(ui, run);
            for hint in run.hints_shown() {
                ui.label(egui::RichText::new(format!("Hint: {hint}")).italics());
            }
        });
    ui.separator();
    buttons(ui, run, &mut out);
    out
}

/// One numbered button per step: done steps are green; a click goes to that step's start.
fn step_dots(ui: &mut egui::Ui, editor: &Editor, run: &LessonRun, out: &mut Vec<Command>) {
    let lesson = run.lesson();
    ui.horizontal_wrapped(|ui| {
        for (s, step) in lesson.steps.iter().enumerate() {
            let done = editor.lesson_progress().is_done(&lesson.id, s);
            let mut text = egui::RichText::new(format!("{}", s + 1));
            if done {
                text = text.color(DONE);
            }
            let button = egui::Button::selectable(s == run.step_index(), text);
            if ui.add(button).on_hover_text(&step.title).clicked() && s != run.step_index() {
                out.push(Command::Lesson(LessonCommand::GoTo(s)));
            }
        }
    });
}

/// A paragraph with its `code`, **bold** and [node] links.
fn paragraph_ui(
    ui: &mut egui::Ui,
    editor: &Editor,
    run: &LessonRun,
    text: &str,
    out: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        for span in spans(text) {
            match span {
                Span::Plain(t) => {
                    ui.label(t);
                }
                Span::Code(t) => {
                    ui.code(t);
                }
                Span::Bold(t) => {
                    ui.strong(t);
                }
                Span::Node(name) => {
                    let id = run.resolve(editor.doc().scene(), &name);
                    let link = ui.add_enabled(id.is_some(), egui::Link::new(name.as_str()));
                    if let (true, Some(id)) = (link.on_hover_text("Select this node").clicked(), id)
                    {
                        out.push(Command::Select(vec![id]));
                    }
                }
            }
        }
    });
}

/// The goals and keeps with a tick for each that holds now.
fn checklist(ui: &mut egui::Ui, run: &LessonRun) {
    let goals = run.step().goals.len();
    for (k, (goal, holds)) in run.checklist().into_iter().enumerate() {
        if k == goals {
            ui.label(egui::RichText::new("and still:").small());
        }
        let mark = if holds { "☑" } else { "☐" };
        let text = egui::RichText::new(format!("{mark} {}", goal.label));
        ui.label(if holds { text.color(DONE) } else { text });
    }
    if run.step_done() {
        ui.label(
            egui::RichText::new("Every goal holds: go on with Next.")
                .strong()
                .color(DONE),
        );
    }
}

fn buttons(ui: &mut egui::Ui, run: &LessonRun, out: &mut Vec<Command>) {
    let k = run.step_index();
    let last = k + 1 == run.lesson().steps.len();
    let mut send = |command| out.push(Command::Lesson(command));
    ui.horizontal_wrapped(|ui| {
        let more_hints = run.hints_shown().len() < run.step().hints.len();
        if ui
            .add_enabled(more_hints, egui::Button::new("Hint"))
            .on_hover_text("Show the next hint")
            .clicked()
        {
            send(LessonCommand::Hint);
        }
        let show = ui.add_enabled(!run.showing(), egui::Button::new("Show me"));
        if show
            .on_hover_text("Play the solution (one undo step: Ctrl+Z takes it back)")
            .clicked()
        {
            send(LessonCommand::ShowMe);
        }
        if ui
            .button("Reset step")
            .on_hover_text("Put the step back as it started")
            .clicked()
        {
            send(LessonCommand::Reset);
        }
    });
    ui.horizontal(|ui| {
        if ui.add_enabled(k > 0, egui::Button::new("Back")).clicked() {
            send(LessonCommand::Back);
        }
        let next_text = if last { "Finish" } else { "Next ⏵" };
        let next = ui.add_enabled(run.step_done() && !last, egui::Button::new(next_text));
        if next
            .on_disabled_hover_text("Next lights up when every goal holds")
            .clicked()
        {
            send(LessonCommand::Next);
        }
    });
}

/// Help ▸ Lessons…: the built-in course with each lesson's progress, and lesson files.
pub fn lessons_window(ctx: &egui::Context, editor: &Editor, out: &mut Vec<Command>) {
    let mut chosen = None;
    let closed = super::windows::closable(ctx, "Lessons", Window::Lessons, |ui| {
        ui.label("Short lessons on local and world space: each step has tasks the editor checks as you work.");
        ui.add_space(4.0);
        egui::Grid::new("graft-lessons")
            .num_columns(3)
            .striped(true)
            .show(ui, |ui| {
                for k in 0..COURSE.len() {
                    let Ok(lesson) = read_lesson(&LessonSource::Builtin(k)) else {
                        continue;
                    };
                    let done = editor.lesson_progress().count(&lesson.id);
                    let steps = lesson.steps.len();
                    if ui
                        .button(format!("{}. {}", k + 1, lesson.title))
                        .on_hover_text(&lesson.about)
                        .clicked()
                    {
                        chosen = Some(Command::Lesson(LessonCommand::Open(LessonSource::Builtin(
                            k,
                        ))));
                    }
                    ui.label(format!("{done}/{steps} steps"));
                    ui.label(egui::RichText::new(&lesson.about).small());
                    ui.end_row();
                }
            });
        ui.add_space(4.0);
        if ui
            .button("Open a lesson file…")
            .on_hover_text("A .lesson file (docs/lesson-format.md); File > Open takes them too")
            .clicked()
        {
            chosen = Some(Command::Open);
        }
    });
    if let Some(command) = chosen {
        out.push(Command::Close(Window::Lessons));
        out.push(command);
    }
    out.extend(closed);
}
