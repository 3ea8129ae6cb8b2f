//! One hierarchy-panel frame, headless (`egui::Context::run_ui`), at 1k and 100k nodes.
//! Target: ≤ 2 ms per frame at 100k (release). Only the visible rows are laid out.

use criterion::{Criterion, criterion_group, criterion_main};
use graft::app::hierarchy::HierarchyState;
use graft::editor::session::command::SelectionCommand;
use graft::editor::{Command, Editor};
use graft::model::document::Document;
use graft::tools::generate::{GenShape, generate};
use std::hint::black_box;

fn frame(ctx: &egui::Context, editor: &Editor, state: &mut HierarchyState) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(320.0, 900.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| {
        let mut registers = graft::app::frame::Registers::default();
        let fx = graft::app::frame::FrameContext::new(editor, registers.wiring());
        state.ui(ui, &fx);
        black_box(registers.take_commands());
    });
    output.textures_delta.clear();
}

fn hierarchy_frame(c: &mut Criterion) {
    for nodes in [1_000, 100_000] {
        let scene = generate(GenShape::Random, nodes, 1);
        let middle = scene.id_at(nodes / 2);
        let mut editor = Editor::new(Document::untitled(scene));
        editor
            .apply(Command::Selection(SelectionCommand::Select(vec![middle])))
            .expect("the node exists");
        let ctx = egui::Context::default();
        let mut state = HierarchyState::default();
        for _ in 0..3 {
            frame(&ctx, &editor, &mut state); // fonts and layout caches warm up
        }
        c.bench_function(&format!("hierarchy_frame_{nodes}"), |b| {
            b.iter(|| frame(&ctx, &editor, &mut state))
        });
    }
}

criterion_group!(benches, hierarchy_frame);
criterion_main!(benches);
