//! The viewport: camera math, hit testing through sheared and mirrored world matrices, and
//! clicking and dragging nodes in the running app.

use egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use glam::DVec2;
use glam::Vec2;
use graft::NodeId;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::camera::{Camera, ScreenRect};
use graft::editor::geometry::hit_test_world;
use std::path::{Path, PathBuf};

fn load(name: &str) -> graft::Scene {
    graft::file::load(&Path::new("scenes").join(name)).unwrap()
}

fn view(r: Rect) -> ScreenRect {
    ScreenRect {
        min: Vec2::new(r.min.x, r.min.y),
        max: Vec2::new(r.max.x, r.max.y),
    }
}

fn pos(v: Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// Where a world point is on screen in the running app.
fn on_screen(h: &Harness<GraftApp>, p: Vec2) -> Pos2 {
    let v = &h.state().viewport;
    pos(v.camera.to_screen(view(v.last_rect), p))
}

#[test]
fn camera_maps_world_to_screen_with_y_up_and_zooms_around_the_pointer() {
    let rect = ScreenRect::from_min_size(Vec2::new(100.0, 50.0), Vec2::new(800.0, 600.0));
    let mut camera = Camera {
        center: DVec2::new(2.0, 1.0),
        zoom: 40.0,
    };
    assert_eq!(camera.to_screen(rect, Vec2::new(2.0, 1.0)), rect.center());
    let up = camera.to_screen(rect, Vec2::new(2.0, 2.0));
    assert!(up.y < rect.center().y, "world y up is screen up");
    assert!((up.y - (rect.center().y - 40.0)).abs() < 1e-4);
    for p in [Vec2::new(-3.5, 7.25), Vec2::new(100.0, -0.125)] {
        let back = camera.to_world(rect, camera.to_screen(rect, p));
        assert!(
            (back - p.as_dvec2()).abs().max_element() < 1e-3,
            "{p} -> {back}"
        );
    }
    let anchor = Vec2::new(300.0, 200.0);
    let under = camera.to_world(rect, anchor);
    camera.zoom_around(rect, anchor, 2.5);
    assert_eq!(camera.zoom, 100.0);
    assert!(
        (camera.to_world(rect, anchor) - under).abs().max_element() < 1e-9,
        "the point under the pointer stays"
    );
}

#[test]
fn hit_testing_follows_shear_and_mirrors() {
    let shear = load("shear.ron");
    // The child's unit square becomes a rhombus: its world matrix maps local (0.45, 0.45) far
    // from where an unsheared square would be.
    let world = shear.world(NodeId(2)).unwrap();
    let inside = world.transform_point2(Vec2::new(0.45, 0.45));
    assert_eq!(
        hit_test_world(&shear, inside.as_dvec2(), 0.0),
        Some(NodeId(2))
    );
    let outside = world.transform_point2(Vec2::new(0.55, 0.0));
    assert_ne!(
        hit_test_world(&shear, outside.as_dvec2(), 0.0),
        Some(NodeId(2))
    );
    // A point inside the square's axis-aligned box but outside the rhombus misses.
    let corner = world.translation + Vec2::new(0.9, 0.9);
    assert_ne!(
        hit_test_world(&shear, corner.as_dvec2(), 0.0),
        Some(NodeId(2))
    );

    let flip = load("flip.ron");
    let fish = flip.world(NodeId(2)).unwrap();
    assert!(fish.matrix2.determinant() < 0.0);
    assert_eq!(
        hit_test_world(
            &flip,
            fish.transform_point2(Vec2::new(0.9, 0.4)).as_dvec2(),
            0.0
        ),
        Some(NodeId(2))
    );
    assert_ne!(
        hit_test_world(
            &flip,
            fish.transform_point2(Vec2::new(1.1, 0.0)).as_dvec2(),
            0.0
        ),
        Some(NodeId(2))
    );
}

fn app() -> Harness<'static, GraftApp> {
    let path = PathBuf::from("scenes/sword.ron");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(5);
    h
}

fn screen_of(h: &Harness<GraftApp>, id: NodeId) -> Pos2 {
    let app = h.state();
    let world = app.scene().world(id).unwrap();
    // A point inside the shape, away from the origin marker.
    pos(app.viewport.camera.to_screen(
        view(app.viewport.last_rect),
        world.transform_point2(Vec2::new(0.0, -0.5)),
    ))
}

#[test]
fn clicking_a_node_selects_it_and_dragging_moves_it_by_the_world_delta() {
    let mut h = app();
    let body = screen_of(&h, NodeId(1));
    h.hover_at(body);
    h.run_steps(1);
    h.drag_at(body);
    h.run_steps(1);
    h.drop_at(body);
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![NodeId(1)]);

    let start = h.state().scene().world(NodeId(1)).unwrap().translation;
    let zoom = h.state().viewport.camera.zoom;
    h.hover_at(body);
    h.drag_at(body);
    h.run_steps(2);
    for k in 1..=4 {
        h.hover_at(body + egui::vec2(25.0 * k as f32, -10.0 * k as f32));
        h.run_steps(1);
    }
    h.drop_at(body + egui::vec2(100.0, -40.0));
    h.run_steps(3);
    let moved = h.state().scene().world(NodeId(1)).unwrap().translation;
    let expected = start + Vec2::new(100.0, 40.0) / zoom as f32;
    assert!(
        (moved - expected).abs().max_element() < 1e-3,
        "{moved} vs {expected}"
    );
    assert_eq!(
        h.state().doc().history().labels().0,
        vec!["Move body"],
        "one undo step for the whole drag"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().scene().world(NodeId(1)).unwrap().translation,
        start
    );

    // Clicking empty space clears the selection.
    let empty = h.state().viewport.last_rect.left_top() + egui::vec2(5.0, 5.0);
    h.hover_at(empty);
    h.drag_at(empty);
    h.run_steps(1);
    h.drop_at(empty);
    h.run_steps(2);
    assert!(h.state().selection().is_empty());
}

#[test]
fn dragging_on_empty_space_box_selects_the_origins_inside() {
    let mut h = app();
    let to_screen = |h: &Harness<GraftApp>, x: f32, y: f32| on_screen(h, Vec2::new(x, y));
    let (from, to) = (to_screen(&h, 5.9, -1.6), to_screen(&h, 3.8, 0.6));
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(2);
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(2);
    let mut selected = h.state().selection().to_vec();
    selected.sort();
    assert_eq!(
        selected,
        vec![NodeId(1), NodeId(5)],
        "body and scabbard, not the arm above"
    );
    assert!(!h.state().doc().is_modified(), "selecting changes nothing");
}

mod handle_math {
    use super::*;
    use graft::editor::handles::{
        HandleDrag, Orientation, Part, Tool, along, drag_op, pick, rotation_delta, scale_factor,
        snap,
    };
    use graft::scene::edit::Op;

    #[test]
    fn snapping_projection_rotation_and_scale_factors() {
        assert_eq!(snap(0.26, 0.5), 0.5);
        assert_eq!(snap(-37.0, 15.0), -30.0);
        assert_eq!(snap(1.04, 0.1), 1.0);
        assert_eq!(
            along(Vec2::new(3.0, 4.0), Vec2::new(2.0, 0.0)),
            Vec2::new(3.0, 0.0)
        );
        assert!(
            (rotation_delta(Vec2::ZERO, Vec2::X, Vec2::Y) - 90.0).abs() < 1e-4,
            "counter-clockwise is positive"
        );
        assert!(
            (rotation_delta(Vec2::ONE, Vec2::new(2.0, 1.0), Vec2::new(1.0, 0.0)) + 90.0).abs()
                < 1e-4
        );
        assert_eq!(
            scale_factor(
                Vec2::ZERO,
                Vec2::X,
                Vec2::new(2.0, 5.0),
                Vec2::new(3.0, -1.0)
            ),
            1.5
        );
    }

    #[test]
    fn handles_are_picked_along_the_node_axes() {
        let rect = ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
        let camera = Camera {
            center: DVec2::ZERO,
            zoom: 50.0,
        };
        let world = graft::Trs::new(Vec2::ZERO, 90.0, Vec2::ONE, 0.0).to_affine();
        let axes = graft::editor::handles::handle_axes(&world, Orientation::Local);
        let c = rect.center();
        // Local x of a node turned 90° points up on screen.
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(0.0, -50.0)
            ),
            Some(Part::AxisX)
        );
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(-50.0, 0.0)
            ),
            Some(Part::AxisY)
        );
        assert_eq!(
            pick(Tool::Move, camera, rect, &world, axes, c),
            Some(Part::Center)
        );
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(50.0, 50.0)
            ),
            None
        );
        assert_eq!(
            pick(
                Tool::Rotate,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(70.0, 0.0)
            ),
            Some(Part::Ring)
        );
        let world_axes = graft::editor::handles::handle_axes(&world, Orientation::World);
        assert_eq!(
            pick(
                Tool::Scale,
                camera,
                rect,
                &world,
                world_axes,
                c + Vec2::new(50.0, 0.0)
            ),
            Some(Part::AxisX)
        );
    }

    #[test]
    fn scaling_a_rotated_node_along_world_x_shears_it_honestly_and_local_does_not() {
        let fixed = graft::Trs::new(Vec2::ZERO, 45.0, Vec2::ONE, 0.0);
        let world = fixed.to_affine();
        let drag = |orientation| HandleDrag {
            part: Part::AxisX,
            node: NodeId(1),
            start_pointer: DVec2::new(1.0, 0.0),
            start_world: world,
            start_local: fixed,
            axes: graft::editor::handles::handle_axes(&world, orientation),
            orientation,
        };
        let Some(Op::SetWorld {
            world: stretched, ..
        }) = drag_op(
            Tool::Scale,
            &drag(Orientation::World),
            DVec2::new(2.0, 0.0),
            false,
            1.0,
        )
        else {
            panic!()
        };
        assert!(
            stretched.skew.abs() > 1.0,
            "world-axis scale of a 45° node needs skew: {stretched:?}"
        );
        assert!(graft::math::shear_metrics(&stretched.to_affine()).is_sheared(0.01));
        let local_axis = graft::editor::handles::handle_axes(&world, Orientation::Local).0;
        let Some(Op::SetLocal { local, .. }) = drag_op(
            Tool::Scale,
            &HandleDrag {
                start_pointer: local_axis.as_dvec2(),
                ..drag(Orientation::Local)
            },
            (local_axis * 2.0).as_dvec2(),
            false,
            1.0,
        ) else {
            panic!()
        };
        assert_eq!(local.scale, Vec2::new(2.0, 1.0));
        assert_eq!(local.skew, 0.0);
        // Rotating with Ctrl snaps the world rotation to 15°.
        let Some(Op::SetWorld { world: turned, .. }) = drag_op(
            Tool::Rotate,
            &HandleDrag {
                part: Part::Ring,
                ..drag(Orientation::Local)
            },
            DVec2::new(0.8, 0.75),
            true,
            1.0,
        ) else {
            panic!()
        };
        assert_eq!(turned.rotation % 15.0, 0.0, "{turned:?}");
    }
}

#[test]
fn dragging_the_rotate_ring_turns_the_selection_in_one_undo_step() {
    let mut h = app();
    // Select the body (world rotation 0) and switch to the rotate handle with E.
    let body = screen_of(&h, NodeId(1));
    h.hover_at(body);
    h.drag_at(body);
    h.run_steps(1);
    h.drop_at(body);
    h.run_steps(2);
    h.hover_at(body);
    h.run_steps(1);
    h.key_press(Key::E);
    h.run_steps(2);
    assert_eq!(
        h.state().editor().tool(),
        graft::editor::handles::Tool::Rotate
    );
    let origin = {
        let world = h.state().scene().world(NodeId(1)).unwrap();
        on_screen(&h, world.translation)
    };
    let r = graft::editor::handles::HANDLE_PX;
    let from = origin + egui::vec2(r, 0.0);
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(2);
    for k in 1..=6 {
        let a = std::f32::consts::FRAC_PI_2 * k as f32 / 6.0;
        h.hover_at(origin + egui::vec2(r * a.cos(), -r * a.sin()));
        h.run_steps(1);
    }
    h.drop_at(origin + egui::vec2(0.0, -r));
    h.run_steps(3);
    let rotation = h.state().scene().node(NodeId(1)).unwrap().local.rotation;
    assert!(
        (rotation - 90.0).abs() < 0.5,
        "a quarter turn counter-clockwise: {rotation}"
    );
    assert_eq!(h.state().doc().history().labels().0, vec!["Rotate body"]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().scene().node(NodeId(1)).unwrap().local.rotation,
        0.0
    );
}

#[test]
fn the_node_matrix_agrees_with_to_screen() {
    let rect = ScreenRect::from_min_size(Vec2::new(30.0, 20.0), Vec2::new(640.0, 480.0));
    let camera = Camera {
        center: DVec2::new(-1.5, 2.0),
        zoom: 33.0,
    };
    let world = graft::Trs::new(Vec2::new(4.0, -2.5), 30.0, Vec2::new(2.0, 0.5), 10.0).to_affine();
    let m = camera.node_to_screen(rect, &world);
    for p in [Vec2::ZERO, Vec2::new(4.0, -2.5), Vec2::new(-100.0, 7.0)] {
        let a = camera.to_screen(rect, world.transform_point2(p));
        let b = m.transform_point2(p);
        assert!((a - b).abs().max_element() < 1e-3, "{a:?} vs {b:?}");
    }
}
