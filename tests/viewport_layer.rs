//! The viewport's node layer, headless: a frame that changes nothing the layer shows paints
//! the kept layer again; a camera move, a selection or an edit plans it anew; while a drag
//! moves one subtree of a big scene only that subtree is drawn over a kept layer, and the
//! first unchanged frame after it plans the whole layer again (exact stacking).

use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::Command;
use graft::editor::session::command::{HistoryCommand, SelectionCommand};
use graft::model::document::Document;
use graft::model::math::Trs;
use graft::model::scene::edit::Op;
use graft::tools::generate::{GenShape, generate};

/// One 1400×900 frame of the app; its output with the texture changes dropped.
fn run_frame(ctx: &egui::Context, app: &mut GraftApp) -> egui::FullOutput {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1400.0, 900.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    output.textures_delta.clear();
    output
}

/// The app on `scene` after `frames` frames (the level of detail settles), and its context.
fn settled(scene: graft::model::scene::Scene, frames: usize) -> (GraftApp, egui::Context) {
    let mut app =
        GraftApp::with_document(Document::untitled(scene), Box::new(FakeDialogs::default()));
    let ctx = egui::Context::default();
    for _ in 0..frames {
        frame(&ctx, &mut app);
    }
    (app, ctx)
}

/// One frame; how many top-level shapes it painted.
fn frame(ctx: &egui::Context, app: &mut GraftApp) -> usize {
    run_frame(ctx, app).shapes.len()
}

/// One step of a drag of `leaf` (frame `k` of it).
fn move_leaf(app: &mut GraftApp, leaf: graft::model::scene::NodeId, k: usize) {
    app.perform_ops(
        "Move leaf",
        vec![Op::SetLocal {
            node: leaf,
            local: Trs::from_position(Vec2::new(k as f32 * 0.3, 1.0)),
        }],
        true,
    );
}

#[test]
fn the_layer_is_kept_while_unchanged_and_a_drag_redraws_only_the_dragged_subtree() {
    let scene = generate(GenShape::Random, 30_000, 2);
    let leaf = scene.id_at(scene.len() - 1);
    let (mut app, ctx) = settled(scene, 4);
    let (built, reused, moved) = app.viewport.layer_counts();
    let shapes = frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts(), (built, reused + 1, moved));
    assert_eq!(
        frame(&ctx, &mut app),
        shapes,
        "the kept layer paints the same shapes"
    );

    // The camera moves: planned anew.
    app.viewport.camera.center.x += 0.5;
    frame(&ctx, &mut app);
    let (built2, reused2, _) = app.viewport.layer_counts();
    assert!(built2 > built, "a camera move plans the layer");
    for _ in 0..2 {
        frame(&ctx, &mut app); // the level of detail may settle first
    }

    // A drag of one leaf: the first frame plans the layer without it, the rest keep that.
    let (built3, _, moved3) = app.viewport.layer_counts();
    for k in 0..6 {
        move_leaf(&mut app, leaf, k);
        frame(&ctx, &mut app);
    }
    let (built4, reused4, moved4) = app.viewport.layer_counts();
    assert_eq!(built4, built3 + 1, "one plan without the dragged leaf");
    assert_eq!(moved4, moved3 + 5, "then only the leaf is drawn each frame");
    // Held still mid-drag (egui repaints anyway): the last frame again, nothing planned.
    frame(&ctx, &mut app);
    let (built4, reused4, moved4) = {
        let (b, r, m) = app.viewport.layer_counts();
        assert_eq!(
            (b, r, m),
            (built4, reused4 + 1, moved4),
            "held: painted again"
        );
        (b, r, m)
    };
    // The drag is over: the next unchanged frame plans the whole layer, then it is kept.
    app.run(Command::History(HistoryCommand::EndGesture));
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().0, built4 + 1);
    frame(&ctx, &mut app);
    assert_eq!(
        app.viewport.layer_counts(),
        (built4 + 1, reused4 + 1, moved4)
    );
    assert!(reused4 >= reused2);

    // A new selection is drawn (highlighted): planned anew.
    app.run(Command::Selection(SelectionCommand::Select(vec![leaf])));
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().0, built4 + 2);
}

/// A big scene's view that pans is never planned in one frame: the frame shows the last layer
/// moved to the new camera, the new plan is made over the next
/// frames, and then the view is kept again.
#[test]
fn a_panned_big_view_plans_over_several_frames_and_shows_the_last_layer_meanwhile() {
    let scene = generate(GenShape::Random, 260_000, 4);
    let (mut app, ctx) = settled(scene, 4);
    let (built, reused, _) = app.viewport.layer_counts();
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().1, reused + 1);
    app.viewport.camera.center.x += 30.0 / app.viewport.camera.zoom;
    let mut frames = 0;
    while app.viewport.layer_counts().0 == built {
        frame(&ctx, &mut app);
        frames += 1;
        assert!(frames < 100, "the plan finishes");
    }
    assert!(frames >= 2, "planned over {frames} frames");
    let (built2, reused2, _) = app.viewport.layer_counts();
    assert_eq!(built2, built + 1);
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts(), (built2, reused2 + 1, 0));
}

/// Every shape of a frame's output, nested lists flattened, has finite coordinates.
fn all_finite(ctx: &egui::Context, app: &mut GraftApp) -> usize {
    let output = run_frame(ctx, app);
    fn check(shape: &egui::Shape, count: &mut usize) {
        let finite = |p: &egui::Pos2| p.x.is_finite() && p.y.is_finite();
        match shape {
            egui::Shape::Vec(list) => return list.iter().for_each(|s| check(s, count)),
            // An empty galley's bounds are "nothing" (infinite): check where it is put.
            egui::Shape::Text(text) => assert!(finite(&text.pos), "{:?}", text.pos),
            egui::Shape::Mesh(mesh) => {
                assert!(
                    mesh.vertices.iter().all(|v| finite(&v.pos)),
                    "a mesh vertex"
                )
            }
            other => {
                let r = other.visual_bounding_rect();
                assert!(!r.any_nan(), "a NaN in {other:?}");
                assert!(
                    !r.is_positive() || r.is_finite(),
                    "an infinity in {other:?}"
                );
            }
        }
        *count += 1;
    }
    let mut count = 0;
    output
        .shapes
        .iter()
        .for_each(|c| check(&c.shape, &mut count));
    count
}

/// The kept layer, the drag path (scenes of 20k nodes and more) and occlusion run in screen
/// space after the camera-relative f64 transform: a big scene far from the origin, or scaled
/// down to a millionth or up a millionfold, draws finite shapes, keeps its layer and drags.
#[test]
fn a_big_scene_far_away_or_at_extreme_scales_keeps_the_layer_and_drags() {
    for (offset, scale) in [(1.0e7, 1.0), (1.0e5, 1.0e-6), (-3.0e6, 1.0e6)] {
        let mut specs = graft::tools::generate::generate_specs(GenShape::Random, 30_000, 6);
        let holder = graft::model::scene::NodeId(specs.len() as u32 + 1);
        for spec in &mut specs {
            spec.parent.get_or_insert(holder);
        }
        specs.insert(
            0,
            graft::model::scene::NodeSpec {
                id: holder,
                parent: None,
                data: graft::model::scene::NodeData {
                    name: "far".into(),
                    local: Trs::new(
                        Vec2::new(offset, -offset * 0.5),
                        30.0,
                        Vec2::splat(scale),
                        0.0,
                    ),
                    ..Default::default()
                },
            },
        );
        let scene = graft::model::scene::Scene::from_specs(specs).unwrap();
        let leaf = scene.id_at(scene.len() - 1);
        let mut app =
            GraftApp::with_document(Document::untitled(scene), Box::new(FakeDialogs::default()));
        let ctx = egui::Context::default();
        for _ in 0..4 {
            assert!(
                all_finite(&ctx, &mut app) > 0,
                "{offset} {scale}: shapes drawn"
            );
        }
        let (built, reused, moved) = app.viewport.layer_counts();
        all_finite(&ctx, &mut app);
        assert_eq!(
            app.viewport.layer_counts(),
            (built, reused + 1, moved),
            "{offset} {scale}: the unchanged view is kept"
        );
        for k in 0..4 {
            move_leaf(&mut app, leaf, k);
            all_finite(&ctx, &mut app);
        }
        let (built2, _, moved2) = app.viewport.layer_counts();
        assert_eq!(built2, built + 1, "{offset} {scale}: one plan for the drag");
        assert_eq!(moved2, moved + 3, "{offset} {scale}: then only the leaf");
        // Zoomed in far: occlusion and the dense-view limits on the same numbers.
        app.viewport.camera.zoom *= 50.0;
        for _ in 0..3 {
            all_finite(&ctx, &mut app);
        }
    }
}

/// The density images of sub-pixel nodes lie under the shapes drawn as themselves (a sea of
/// tiny nodes averages to grey, which on top hid the bigger shapes among them).
#[test]
fn the_density_images_are_painted_under_the_shapes() {
    let scene = generate(GenShape::Random, 60_000, 3);
    let (mut app, ctx) = settled(scene, 3);
    fn flatten(shape: &egui::Shape, out: &mut Vec<egui::Shape>) {
        match shape {
            egui::Shape::Vec(list) => list.iter().for_each(|s| flatten(s, out)),
            other => out.push(other.clone()),
        }
    }
    let textured = |s: &egui::Shape| matches!(s, egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default());
    let fill = |s: &egui::Shape| matches!(s, egui::Shape::Mesh(m) if m.texture_id == egui::TextureId::default() && !m.vertices.is_empty());
    // The viewport's shapes: those clipped to the rect the density image is clipped to.
    let output = run_frame(&ctx, &mut app);
    let viewport_clip = output
        .shapes
        .iter()
        .find(|c| {
            let mut list = Vec::new();
            flatten(&c.shape, &mut list);
            list.iter().any(textured)
        })
        .expect("a density image")
        .clip_rect;
    let mut shapes = Vec::new();
    for clipped in output
        .shapes
        .iter()
        .filter(|c| c.clip_rect == viewport_clip)
    {
        flatten(&clipped.shape, &mut shapes);
    }
    let first_image = shapes.iter().position(textured).expect("a density image");
    let first_fill = shapes.iter().position(fill).expect("filled shapes");
    assert!(
        first_image < first_fill,
        "image {first_image}, first fill {first_fill}"
    );
}

/// The first vertex of the density image (the one mesh with a texture of its own) in a frame.
fn density_vertex(output: &egui::FullOutput) -> Option<egui::Pos2> {
    fn find(shape: &egui::Shape) -> Option<egui::Pos2> {
        match shape {
            egui::Shape::Vec(list) => list.iter().find_map(find),
            egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default() => {
                m.vertices.first().map(|v| v.pos)
            }
            _ => None,
        }
    }
    output.shapes.iter().find_map(|c| find(&c.shape))
}

/// Dragging the root of a big scene moves every node by one translation: the kept layer is
/// painted slid by it (no plan a frame), exactly where the camera puts the move; the first
/// unchanged frame plans the layer again; a rotation, or an edit inside the scene in the same
/// step, is planned as before. Near the origin, far from it, and at extreme scales (steps
/// chosen so f32 holds them exactly at that offset).
#[test]
fn a_big_scene_dragged_by_its_root_slides_its_kept_layer() {
    for (offset, scale, step) in [
        (0.0, 0.5, 0.5),
        (1.0e7, 0.5, 1.0),
        (0.0, 5.0e-7, 1.0e-6),
        (0.0, 5.0e5, 1.0e6),
    ] {
        slides(offset, scale, step);
    }
}

/// One case of [`a_big_scene_dragged_by_its_root_slides_its_kept_layer`].
fn slides(offset: f32, scale: f32, step: f32) {
    let case = format!("offset {offset}, scale {scale}");
    let root_at = |k: f32, angle: f32| {
        Trs::new(
            Vec2::new(offset + k * step, 1.0),
            angle,
            Vec2::splat(scale),
            0.0,
        )
    };
    let mut specs = graft::tools::generate::generate_specs(GenShape::Wide, 260_000, 1);
    specs[0].data.local = root_at(0.0, 0.0);
    let scene = graft::model::scene::Scene::from_specs(specs).unwrap();
    let root = scene.id_at(0);
    let inner = scene.id_at(scene.len() - 1);
    let (mut app, ctx) = settled(scene, 4);
    let before = density_vertex(&run_frame(&ctx, &mut app)).expect("a density image");
    let (built, _, _) = app.viewport.layer_counts();
    let slid = app.viewport.layer_slid();
    let zoom = app.viewport.camera.zoom;
    // Where the density image should be after the root moved `k` steps (world delta in f64
    // from the f32 positions, as the scene holds them).
    let expected = |k: f32| ((((offset + k * step) as f64) - offset as f64) * zoom) as f32;
    let drag = |app: &mut GraftApp, ops: Vec<Op>| {
        app.perform_ops("Move root", ops, true);
    };
    let near = |moved: egui::Vec2, x: f32| (moved.x - x).abs() < 0.01 && moved.y.abs() < 0.01;
    for k in 1..=3 {
        drag(
            &mut app,
            vec![Op::SetLocal {
                node: root,
                local: root_at(k as f32, 0.0),
            }],
        );
        let now = density_vertex(&run_frame(&ctx, &mut app)).expect("a density image");
        assert_eq!(
            app.viewport.layer_counts().0,
            built,
            "{case}, frame {k}: no plan"
        );
        assert_eq!(app.viewport.layer_slid(), slid + k, "{case}");
        let (moved, x) = (now - before, expected(k as f32));
        assert!(
            near(moved, x),
            "{case}, frame {k}: moved {moved:?}, wanted ({x}, 0)"
        );
    }
    // Held still (egui repaints anyway): the same slid layer, nothing planned.
    let held = density_vertex(&run_frame(&ctx, &mut app)).expect("a density image");
    assert_eq!(app.viewport.layer_counts().0, built, "{case}");
    assert_eq!(app.viewport.layer_slid(), slid + 4, "{case}");
    let moved = held - before;
    assert!(near(moved, expected(3.0)), "{case}, held: moved {moved:?}");
    // The drag stops: one exact plan, then the layer is kept.
    app.run(Command::History(HistoryCommand::EndGesture));
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().0, built + 1, "{case}");
    assert_eq!(app.viewport.layer_slid(), slid + 4, "{case}");
    // A turn of the root is not a slide.
    drag(
        &mut app,
        vec![Op::SetLocal {
            node: root,
            local: root_at(3.0, 10.0),
        }],
    );
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().0, built + 2, "{case}");
    // Nor is a slide with a node inside changed in the same step.
    drag(
        &mut app,
        vec![
            Op::SetLocal {
                node: root,
                local: root_at(4.0, 10.0),
            },
            Op::SetLocal {
                node: inner,
                local: Trs::from_position(Vec2::new(3.0, 3.0)),
            },
        ],
    );
    frame(&ctx, &mut app);
    assert_eq!(app.viewport.layer_counts().0, built + 3, "{case}");
    assert_eq!(app.viewport.layer_slid(), slid + 4, "{case}");
}
