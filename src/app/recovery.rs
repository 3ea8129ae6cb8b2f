//! The prompt shown before anything else after graft did not close cleanly: recover the
//! unsaved changes a journal kept, set them aside, or decide later. Enter recovers.

use crate::editor::session::Editor;
use crate::editor::session::command::Command;
use crate::editor::session::journal::RecoveryAnswer;

/// Show the recovery prompt while a journal waits for an answer.
pub fn recovery_window(ctx: &egui::Context, editor: &Editor, out: &mut Vec<Command>) {
    let Some(offer) = editor.recovery_offer() else {
        return;
    };
    let answer = |a| Command::AnswerRecovery(a);
    egui::Modal::new(egui::Id::unique("graft-recovery")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        ui.heading("Recover unsaved changes");
        let edits = match offer.edits {
            1 => "1 edit".to_string(),
            n => format!("{n} edits"),
        };
        ui.label(format!(
            "graft did not close cleanly. Recover the unsaved changes to {} ({edits}, last at {})?",
            offer.document, offer.last_at
        ));
        ui.label(
            egui::RichText::new(format!(
                "The scene and its whole undo history come back from the journal {}.",
                offer.journal.display()
            ))
            .small()
            .weak(),
        );
        if offer.more > 0 {
            ui.label(format!("{} more after this one.", offer.more));
        }
        ui.horizontal(|ui| {
            let recover = ui.button("Recover");
            recover.request_focus();
            if recover.clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                out.push(answer(RecoveryAnswer::Recover));
            }
            if ui
                .button("Discard")
                .on_hover_text("Set the changes aside: kept a week in the journal folder")
                .clicked()
            {
                out.push(answer(RecoveryAnswer::Discard));
            }
            if ui.button("Later").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.push(answer(RecoveryAnswer::Later));
            }
        });
    });
}
