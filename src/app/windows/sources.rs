//! "level.tscn instances 3 Godot scenes": asked right after an import that keeps instances,
//! whether the instances go on reading the `.tscn` files or graft writes each as a `.ron`.

use crate::app::frame::{CommandSender, FrameContext};
use crate::editor::session::command::{Command, FileCommand};
use crate::editor::session::interchange::SourcesAnswer;

/// How many source names the question lists before "and N more".
const LISTED: usize = 6;

/// The question as a modal; Enter keeps the `.tscn` sources, Escape too.
pub(super) fn sources_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let Some(question) = fx.sources_question() else {
        return;
    };
    let answer = |a| Command::File(FileCommand::AnswerSources(a));
    egui::Modal::new(egui::Id::unique("graft-import-sources")).show(ctx, |ui| {
        super::super::a11y::name_dialog(ui, "Instanced Godot scenes");
        ui.heading("Instanced Godot scenes");
        let names: Vec<String> = (question.sources.iter().take(LISTED))
            .map(|p| p.file_name().map_or(p.display().to_string(), |n| n.to_string_lossy().into_owned()))
            .collect();
        let more = question.sources.len().saturating_sub(LISTED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        ui.label(format!(
            "{} instances {} Godot scene(s): {}{more}.",
            question.imported,
            question.sources.len(),
            names.join(", ")
        ));
        ui.label("Keep them: each instance reads its .tscn (read-only in graft), so later edits in Godot follow.");
        ui.label("Write them as graft scenes: one .ron each in a folder you pick, edited in graft like any part.");
        ui.horizontal_wrapped(|ui| {
            let keep = ui.button("Keep the .tscn files");
            let write = ui.button("Write them as graft scenes…");
            if ![&keep, &write].iter().any(|b| b.has_focus()) {
                keep.request_focus();
            }
            if keep.clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.send(answer(SourcesAnswer::Keep));
            }
            if write.clicked() {
                out.send(answer(SourcesAnswer::Write(None)));
            }
        });
    });
}
