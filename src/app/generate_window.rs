//! File ▸ Generate scene…: pick a shape, a node count and a seed; Generate replaces the scene
//! (after the unsaved-changes prompt), on a worker with progress from 100,000 nodes.

use crate::app::frame::FrameContext;
use crate::editor::session::command::{Command, FileCommand, Window, WindowCommand};
use crate::editor::session::generate::{GenShape, GenerateRequest, MAX_GENERATED_NODES};
use crate::model::progress::grouped;

/// Node counts offered as one click.
const PRESETS: [(usize, &str); 4] = [
    (1_000, "1k"),
    (100_000, "100k"),
    (1_000_000, "1M"),
    (10_000_000, "10M"),
];

/// What the window remembers between frames: the request being put together.
#[derive(Default)]
pub struct GenerateWindowState {
    /// The shape, count and seed shown.
    pub request: GenerateRequest,
}

/// Draw the window; what it asks for is sent.
pub fn show(ctx: &egui::Context, fx: &FrameContext, state: &mut GenerateWindowState) {
    let out = fx.wiring.sender;
    let mut open = true;
    let busy = fx.job.is_some();
    egui::Window::new("Generate scene")
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            form(ui, &mut state.request);
            ui.separator();
            ui.horizontal(|ui| {
                let button = ui
                    .add_enabled(!busy, egui::Button::new("Generate"))
                    .on_hover_text(
                        "Replace the scene with this one (asks about unsaved changes first)",
                    )
                    .on_disabled_hover_text(
                        "Something is running in the background: wait for it or cancel it",
                    );
                if button.clicked() {
                    out.send(Command::File(FileCommand::Generate(state.request)));
                    out.send(Command::Window(WindowCommand::Close(Window::Generate)));
                }
                ui.weak(format!(
                    "about {} MB held",
                    estimate_mb(state.request.nodes)
                ));
            });
        });
    if !open {
        out.send(Command::Window(WindowCommand::Close(Window::Generate)));
    }
}

/// The editor holds about 300 bytes a node (docs/measurements.md, "Memory").
fn estimate_mb(nodes: usize) -> u64 {
    (nodes as u64 * 300).div_ceil(1_000_000)
}

/// Shape, node count (with presets) and seed.
fn form(ui: &mut egui::Ui, request: &mut GenerateRequest) {
    egui::Grid::new("generate-form")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("shape");
            ui.horizontal(|ui| {
                ui.radio_value(&mut request.shape, GenShape::Random, "random")
                    .on_hover_text(
                        "Random parents, positions, rotations, scales, some skew and mirrors",
                    );
                ui.radio_value(&mut request.shape, GenShape::Wide, "wide")
                    .on_hover_text("One root, √N children, the rest spread evenly below them");
                ui.radio_value(&mut request.shape, GenShape::Chain, "chain")
                    .on_hover_text("Each node the child of the one before: as deep as it gets");
            });
            ui.end_row();
            ui.label("nodes");
            ui.horizontal(|ui| {
                ui.add(
                    egui::DragValue::new(&mut request.nodes)
                        .range(1..=MAX_GENERATED_NODES)
                        .speed(100.0)
                        .custom_formatter(|n, _| grouped(n as u64))
                        .custom_parser(|text| text.replace([',', '_', ' '], "").parse().ok()),
                );
                for (nodes, label) in PRESETS {
                    if ui.selectable_label(request.nodes == nodes, label).clicked() {
                        request.nodes = nodes;
                    }
                }
            });
            ui.end_row();
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut request.seed))
                .on_hover_text("The same seed makes the same scene");
            ui.end_row();
        });
}
