//! The status bar: the running job with Cancel, the recording's mark, the file and its size,
//! how many world matrices the last frame recomputed, the point under the pointer, the crash
//! journal's warning and the last message. It reads the frame's context and sends commands.

use super::frame::FrameContext;
use super::viewport::ViewportState;
use crate::editor::session::command::{Command, FileCommand, JournalCommand};
use crate::editor::view::numbers::{format_significant, grid_label};
use crate::model::scene::name::node_label;

/// The status bar; `recomputed`: how many world matrices the last frame recomputed.
pub(super) fn ui(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    viewport: &ViewportState,
    recomputed: usize,
) {
    job_bar(ui, fx);
    recording_mark(ui, fx);
    // Wrapped: at 150 % its parts take a second line rather than cut the message off.
    ui.horizontal_wrapped(|ui| {
        let doc = fx.doc;
        let name = doc.path().map_or_else(|| "untitled".into(), |p| p.display().to_string());
        let star = if doc.is_modified() { " *" } else { "" };
        ui.label(format!("{name}{star}"));
        ui.separator();
        ui.label(format!(
            "{} nodes",
            crate::model::progress::grouped(doc.scene().len() as u64)
        ));
        ui.separator();
        ui.label(format!(
            "{recomputed} world matrices recomputed last frame (last change: {})",
            fx.last_change_recomputed()
        ))
        .on_hover_text("How many world matrices the update pass recomputed: only the edited nodes and their subtrees (dirty flags at work).");
        ui.separator();
        ui.label(pointer_text(fx, viewport))
            .on_hover_text("The world point under the pointer, and how many pixels one world unit spans.");
        journal_status(ui, fx);
        if let Some(m) = fx.last_message {
            ui.separator();
            let color = if m.is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
            ui.colored_label(color, &m.text);
        }
    });
}

/// The running job's line (Cancel, what it does, a bar, how far).
fn job_bar(ui: &mut egui::Ui, fx: &FrameContext) {
    let Some(job) = &fx.job else {
        return;
    };
    ui.horizontal(|ui| {
        // Cancel first: it stays put while the text after it changes.
        if ui.button("Cancel").clicked() {
            fx.send(Command::File(FileCommand::CancelJob));
        }
        ui.label(format!("{}: {}…", job.title, job.stage.describe()));
        let bar = match job.fraction() {
            Some(f) => egui::ProgressBar::new(f).show_percentage(),
            None => egui::ProgressBar::new(0.0).animate(true),
        };
        ui.add(bar.desired_width(240.0));
        if let Some(amount) = job.stage.amount(job.done, job.total) {
            ui.weak(amount);
        }
    });
}

/// The world point under the pointer (and in the viewed node's space), and the zoom, with
/// as many digits as a pixel resolves.
fn pointer_text(fx: &FrameContext, viewport: &ViewportState) -> String {
    let camera = viewport.camera;
    let pixel = 1.0 / camera.zoom;
    let mut pointer = viewport.pointer_world.map_or(String::new(), |p| {
        format!("({}, {})  ", grid_label(p.x, pixel), grid_label(p.y, pixel))
    });
    if let (Some(id), Some(p)) = (fx.view_node.0, viewport.pointer_world) {
        let v = camera.view.transform_point2(p);
        let name = fx
            .scene
            .node(id)
            .map_or("?".into(), |d| node_label(&d.name, id));
        pointer = format!(
            "{pointer}in {name}: ({}, {})  ",
            grid_label(v.x, pixel),
            grid_label(v.y, pixel)
        );
    }
    format!(
        "{pointer}zoom {} px/unit",
        format_significant(camera.zoom, 3)
    )
}

/// While a lesson is being recorded, the status bar's lasting mark: which step is recorded,
/// with Stop recording… (and Record the next step) at hand; once stopped, that the lesson
/// waits for its file.
fn recording_mark(ui: &mut egui::Ui, fx: &FrameContext) {
    use crate::editor::session::record::RecordCommand;
    let Some(recording) = fx.recording else {
        return;
    };
    let red = crate::app::viewport::c32(crate::editor::view::palette::RECORDING);
    ui.horizontal(|ui| {
        if recording.stopped() {
            let text = "⚫ Recording stopped: choose where to write the lesson";
            ui.colored_label(red, text);
            return;
        }
        let text = format!("⚫ Recording lesson step {}", recording.steps());
        ui.colored_label(red, egui::RichText::new(text).strong())
            .on_hover_text("Perform the solution in the editor: each command becomes a do: line");
        if ui.button("Stop recording…").clicked() {
            fx.send(Command::Record(RecordCommand::Stop));
        }
        if ui.button("Record the next step").clicked() {
            fx.send(Command::Record(RecordCommand::NextStep));
        }
    });
}

/// The journal warning while the crash journal is wanted but not written, with a Retry button.
fn journal_status(ui: &mut egui::Ui, fx: &FrameContext) {
    let crate::editor::session::journal::JournalHealth::Failing(why) = fx.journal_health() else {
        return;
    };
    ui.separator();
    ui.colored_label(ui.visuals().warn_fg_color, "⚠ No crash journal")
        .on_hover_text(format!("Changes are only in memory until saved: {why}"));
    if ui.small_button("Retry").clicked() {
        fx.send(Command::Journal(JournalCommand::RetryJournal));
    }
}
