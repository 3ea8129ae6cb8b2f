//! One whole-app frame, headless (`egui::Context::run_ui`, no GPU), while the root is being
//! moved every frame (so every world matrix is recomputed and everything is redrawn).
//! Targets (issue 7): ≤ 2 ms at 1k nodes, ≤ 8 ms at 100k.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::Command;
use graft::model::document::Document;
use graft::model::math::Trs;
use graft::model::scene::edit::Op;
use graft::tools::generate::{GenShape, generate};

// The allocator the graft binary uses (src/main.rs), so frames allocate as in the window.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One frame's input: a 1400 × 900 window and nothing else.
fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1400.0, 900.0),
        )),
        ..Default::default()
    }
}

fn frame(ctx: &egui::Context, app: &mut GraftApp) {
    let mut output = ctx.run_ui(input(), |ui| app.frame_ui(ui));
    output.textures_delta.clear();
}

/// The app on `scene` after three frames made by `frame` (the level of detail settles).
fn settled<R>(
    scene: graft::model::scene::Scene,
    frame: impl Fn(&egui::Context, &mut GraftApp) -> R,
) -> (GraftApp, egui::Context) {
    let mut app =
        GraftApp::with_document(Document::untitled(scene), Box::new(FakeDialogs::default()));
    let ctx = egui::Context::default();
    for _ in 0..3 {
        frame(&ctx, &mut app);
    }
    (app, ctx)
}

/// One frame's step of a drag, through the editor as the move tool sends it (one continuous
/// undo step).
fn drag_step(app: &mut GraftApp, ops: Vec<Op>) {
    app.perform_ops("Move", ops, true);
}

fn app_frame(c: &mut Criterion) {
    for nodes in [1_000, 100_000] {
        let scene = generate(GenShape::Random, nodes, 1);
        let root = scene.id_at(0);
        let (mut app, ctx) = settled(scene, frame);
        let mut k = 0u32;
        c.bench_function(&format!("app_frame_dragging_root_{nodes}"), |b| {
            b.iter(|| {
                k = k.wrapping_add(1);
                let local = Trs::from_position(Vec2::new((k % 100) as f32 * 0.01, 1.0));
                drag_step(&mut app, vec![Op::SetLocal { node: root, local }]);
                frame(&ctx, &mut app);
            })
        });
    }
}

/// One frame of playback at 100k nodes with 10k animated (issue 13: ≤ 12 ms), against the
/// same app frame with nothing playing, measured in the same run.
fn playback_frame(c: &mut Criterion) {
    use graft::editor::session::timeline::TimelineCommand;
    let scene = graft::tools::bench_anim::animated_scene(100_000, 10_000);
    let (mut app, ctx) = settled(scene, frame);
    c.bench_function("app_frame_idle_100000", |b| {
        b.iter(|| frame(&ctx, &mut app))
    });
    app.run(Command::Timeline(TimelineCommand::Play));
    c.bench_function("app_frame_playing_100000_10000_animated", |b| {
        b.iter(|| frame(&ctx, &mut app))
    });
}

/// A frame as the window makes it: the app's UI, then tessellation (what eframe does before
/// it uploads meshes to the GPU).
fn tessellated_frame(ctx: &egui::Context, app: &mut GraftApp) -> usize {
    let mut output = ctx.run_ui(input(), |ui| app.frame_ui(ui));
    output.textures_delta.clear();
    let shapes = std::mem::take(&mut output.shapes);
    ctx.tessellate(shapes, output.pixels_per_point).len()
}

/// Issue 14 at 1M random nodes (tessellation included): the whole scene in view (≤ 16 ms; an
/// unchanged frame paints the kept layer, so a panning view is measured too),
/// zoomed in 50× (≤ 8 ms), and dragging one leaf node with the whole scene in view (≤ 16 ms);
/// the same whole-view frame at 100k in the same run.
fn big_scene_frames(c: &mut Criterion) {
    for nodes in [100_000, 1_000_000] {
        let scene = generate(GenShape::Random, nodes, 1);
        let leaf = scene.id_at(scene.len() - 1);
        let (mut app, ctx) = settled(scene, tessellated_frame);
        c.bench_function(&format!("big_whole_view_{nodes}"), |b| {
            b.iter(|| tessellated_frame(&ctx, &mut app))
        });
        // The same view while it pans by a pixel a frame: every frame is planned anew.
        let mut step = 1.0 / app.viewport.camera.zoom;
        c.bench_function(&format!("big_panning_{nodes}"), |b| {
            b.iter(|| {
                step = -step;
                app.viewport.camera.center.x += step;
                tessellated_frame(&ctx, &mut app)
            })
        });
        let mut k = 0u32;
        c.bench_function(&format!("big_drag_leaf_{nodes}"), |b| {
            b.iter(|| {
                k = k.wrapping_add(1);
                let local = Trs::from_position(Vec2::new((k % 100) as f32 * 0.01, 1.0));
                drag_step(&mut app, vec![Op::SetLocal { node: leaf, local }]);
                tessellated_frame(&ctx, &mut app)
            })
        });
        app.viewport.camera.zoom *= 50.0;
        tessellated_frame(&ctx, &mut app);
        c.bench_function(&format!("big_zoomed_in_{nodes}"), |b| {
            b.iter(|| tessellated_frame(&ctx, &mut app))
        });
    }
}

/// Dragging the one root of a 1M-node wide scene (tessellation included): every world matrix
/// moves each frame by the same translation.
fn big_root_drag(c: &mut Criterion) {
    let scene = generate(GenShape::Wide, 1_000_000, 1);
    let root = scene.id_at(0);
    let (mut app, ctx) = settled(scene, tessellated_frame);
    let mut k = 0u32;
    c.bench_function("big_drag_root_wide_1000000", |b| {
        b.iter(|| {
            k = k.wrapping_add(1);
            let local = Trs::from_position(Vec2::new((k % 100) as f32 * 0.05, 1.0));
            drag_step(&mut app, vec![Op::SetLocal { node: root, local }]);
            tessellated_frame(&ctx, &mut app)
        })
    });
}

/// Everything of the 1M-node random scene dragged at once (Select all, then move): every
/// top-level node gets the same shift each frame, as the move tool asks.
fn big_drag_all(c: &mut Criterion) {
    let scene = generate(GenShape::Random, 1_000_000, 1);
    let roots: Vec<_> = scene
        .child_indices(None)
        .map(|i| (scene.id_at(i), scene.data_at(i).local))
        .collect();
    let (mut app, ctx) = settled(scene, tessellated_frame);
    let mut k = 0u32;
    c.bench_function("big_drag_all_random_1000000", |b| {
        b.iter(|| {
            k = k.wrapping_add(1);
            let shift = Vec2::new((k % 100) as f32 * 0.05, 0.0);
            let ops = roots
                .iter()
                .map(|&(node, local)| Op::SetLocal {
                    node,
                    local: Trs {
                        position: local.position + shift,
                        ..local
                    },
                })
                .collect();
            drag_step(&mut app, ops);
            tessellated_frame(&ctx, &mut app)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = app_frame, playback_frame, big_scene_frames, big_root_drag, big_drag_all
}
criterion_main!(benches);
