//! A predict step's box in the lesson panel: the question, a field to type the prediction (or
//! **Click in the viewport**), then **See it**, and once the action happened the verdict, the
//! prediction next to the result and the account from the matrix chain. The judging is in
//! `editor/lesson/predict`; this only draws and sends commands.

use crate::app::frame::CommandSender;
use crate::app::viewport::c32;
use crate::editor::lesson::predict::Verdict;
use crate::editor::session::command::Command;
use crate::editor::session::lesson::{LessonCommand, LessonRun};
use crate::editor::session::lesson_predict::PredictInput;
use crate::editor::view::palette;

/// The colours of a right prediction, a named mistake and a plain wrong one.
const RIGHT: egui::Color32 = c32(palette::LESSON_DONE);
const MISTAKE: egui::Color32 = c32(palette::LESSON_HIGHLIGHT);
const WRONG: egui::Color32 = c32(palette::LESSON_BROKEN);

/// The box, when the step asks for a prediction.
pub(super) fn predict_box(
    ui: &mut egui::Ui,
    (run, w): (&LessonRun, super::frame::Wiring),
    out: &CommandSender,
) {
    let Some(predict) = run.predict() else {
        return;
    };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(egui::RichText::new("Predict first").strong());
        ui.label(&predict.question);
        match (run.prediction(), run.feedback()) {
            (None, _) => ask(ui, (run, w), out),
            (Some(p), None) => {
                let text = format!(
                    "Your prediction: {}. Now do it, or press See it.",
                    p.value.describe(predict.kind)
                );
                ui.label(text);
                if ui
                    .button("See it")
                    .on_hover_text("Play the step's solution and compare")
                    .clicked()
                {
                    out.send(Command::Lesson(LessonCommand::ShowMe));
                }
            }
            (Some(_), Some(feedback)) => result(ui, run, &feedback),
        }
    });
}

/// The field to type the prediction, and the button that takes a click in the viewport.
fn ask(ui: &mut egui::Ui, (run, w): (&LessonRun, super::frame::Wiring), out: &CommandSender) {
    let Some(predict) = run.predict() else {
        return;
    };
    let id = egui::Id::unique(("lesson prediction", &run.lesson().id, run.step_index()));
    let mut text = ui
        .data_mut(|d| d.get_temp::<String>(id))
        .unwrap_or_default();
    let hint = if predict.kind.is_angle() {
        "degrees, e.g. 30"
    } else {
        "(x, y)"
    };
    let mut commit = false;
    ui.horizontal_wrapped(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut text)
                .hint_text(hint)
                .desired_width(110.0),
        );
        crate::app::a11y::name(ui, &field, "Your prediction");
        // F6 to the lesson panel lands here: the step asks this first.
        w.name_primary(crate::editor::session::arrange::Panel::Lesson, field.id);
        commit |= field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        commit |= ui.button("Predict").clicked();
        if predict.by_click() {
            let on = run.predicting_by_click();
            let click = egui::Button::selectable(on, "Click in the viewport");
            if ui
                .add(click)
                .on_hover_text(
                    "Your next click in the viewport is the prediction (Ctrl snaps to the grid)",
                )
                .clicked()
            {
                out.send(Command::Lesson(LessonCommand::PredictByClick(!on)));
            }
        }
    });
    if run.predicting_by_click() {
        ui.label(egui::RichText::new("Click where you predict, in the viewport.").italics());
    }
    if commit && !text.trim().is_empty() {
        out.send(Command::Lesson(LessonCommand::Predict(
            PredictInput::Typed(text.clone()),
        )));
    }
    ui.data_mut(|d| d.insert_temp(id, text));
}

/// The verdict, the prediction next to the result, and the account.
fn result(ui: &mut egui::Ui, run: &LessonRun, feedback: &crate::editor::lesson::predict::Feedback) {
    let (Some(predict), Some(truth), Some(prediction)) =
        (run.predict(), run.truth(), run.prediction())
    else {
        return;
    };
    let color = match feedback.verdict {
        Verdict::Right => RIGHT,
        Verdict::Mistake(_) => MISTAKE,
        Verdict::Wrong => WRONG,
    };
    ui.label(egui::RichText::new(&feedback.sentence).color(color));
    let late = if prediction.late {
        " (given after the result was on screen)"
    } else {
        ""
    };
    ui.label(format!(
        "You predicted {}, the result is {}{late}.",
        prediction.value.describe(predict.kind),
        truth.answer.describe(predict.kind)
    ));
    ui.label(egui::RichText::new("How it comes out").small().strong());
    for line in &truth.account {
        ui.add(egui::Label::new(egui::RichText::new(line).monospace().size(11.0)).extend());
    }
}
