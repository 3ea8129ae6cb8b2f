//! The prompts that protect work: the one shown before anything else after graft did not
//! close cleanly (recover the unsaved changes a journal kept, set them aside, or decide later;
//! Enter recovers), and "the file changed on disk" (Overwrite / Save As… / Reload).

use crate::app::frame::{CommandSender, FrameContext};
use crate::editor::session::command::{Command, FileCommand, JournalCommand};
use crate::editor::session::disk_watch::{ConflictAnswer, ConflictReason};
use crate::editor::session::journal::RecoveryAnswer;

/// Show the recovery prompt while a journal waits for an answer.
pub fn recovery_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(offer) = fx.recovery_offer() else {
        return;
    };
    let answer = |a| Command::Journal(JournalCommand::AnswerRecovery(a));
    egui::Modal::new(egui::Id::unique("graft-recovery")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        super::a11y::name_dialog(ui, "Recover unsaved changes");
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
        if let Some(saved) = &offer.older_than_file {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "This journal is older than the saved file (saved at {saved}): recovering it \
                     brings back an earlier state. Saving it would overwrite the newer file."
                ),
            );
        }
        if let Some(note) = &offer.file_changed {
            ui.colored_label(ui.visuals().warn_fg_color, note.as_str());
        }
        if offer.more > 0 {
            ui.label(format!("{} more after this one.", offer.more));
        }
        ui.horizontal(|ui| {
            let recover = ui.button("Recover");
            recover.request_focus();
            if recover.clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                out.send(answer(RecoveryAnswer::Recover));
            }
            if ui
                .button("Discard")
                .on_hover_text("Set the changes aside: kept a week in the journal folder")
                .clicked()
            {
                out.send(answer(RecoveryAnswer::Discard));
            }
            if ui.button("Later").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.send(answer(RecoveryAnswer::Later));
            }
        });
    });
}

/// "FILE changed on disk since graft read it": asked before a save would overwrite it, or
/// when the window noticed the change. Escape cancels.
pub fn conflict_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(conflict) = fx.disk_conflict() else {
        return;
    };
    let answer = |a| Command::File(FileCommand::AnswerConflict(a));
    let name = fx.doc.display_name();
    egui::Modal::new(egui::Id::unique("graft-disk-conflict")).show(ctx, |ui| {
        ui.set_max_width(480.0);
        let title = format!("{name} changed on disk");
        super::a11y::name_dialog(ui, &title);
        ui.heading(title);
        let why = match conflict.reason {
            ConflictReason::Saving => "Another program or another graft window wrote it since graft read it. Saving now would overwrite that version.",
            ConflictReason::Noticed => "Another program or another graft window wrote it since graft read it.",
        };
        ui.label(why);
        if fx.doc.is_modified() {
            ui.label("This window has unsaved changes: Reload drops them.");
        }
        ui.horizontal(|ui| {
            if ui
                .button("Overwrite")
                .on_hover_text("Save this version over the file (the other version is kept as .bak)")
                .clicked()
            {
                out.send(answer(ConflictAnswer::Overwrite));
            }
            if ui.button("Save As…").on_hover_text("Keep both: save this version under another name").clicked() {
                out.send(answer(ConflictAnswer::SaveAs));
            }
            if ui.button("Reload").on_hover_text("Load the file as it is on disk now").clicked() {
                out.send(answer(ConflictAnswer::Reload));
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.send(answer(ConflictAnswer::Cancel));
            }
        });
    });
}
