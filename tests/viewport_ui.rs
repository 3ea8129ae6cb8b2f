//! The viewport: camera math, hit testing through sheared and mirrored world matrices, and
//! clicking and dragging nodes in the running app.

use egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use glam::Vec2;
use graft::NodeId;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::app::viewport::{Camera, hit_test};
use std::path::{Path, PathBuf};

fn load(name: &str) -> graft::Scene {
    graft::file::load(&Path::new("scenes").join(name)).unwrap()
}

#[test]
fn camera_maps_world_to_screen_with_y_up_and_zooms_around_the_pointer() {
    let rect = Rect::from_min_size(Pos2::new(100.0, 50.0), egui::vec2(800.0, 600.0));
    let mut camera = Camera {
        center: Vec2::new(2.0, 1.0),
        zoom: 40.0,
    };
    assert_eq!(camera.to_screen(rect, Vec2::new(2.0, 1.0)), rect.center());
    let up = camera.to_screen(rect, Vec2::new(2.0, 2.0));
    assert!(up.y < rect.center().y, "world y up is screen up");
    assert!((up.y - (rect.center().y - 40.0)).abs() < 1e-4);
    for p in [Vec2::new(-3.5, 7.25), Vec2::new(100.0, -0.125)] {
        let back = camera.to_world(rect, camera.to_screen(rect, p));
        assert!((back - p).abs().max_element() < 1e-3, "{p} -> {back}");
    }
    let anchor = Pos2::new(300.0, 200.0);
    let under = camera.to_world(rect, anchor);
    camera.zoom_around(rect, anchor, 2.5);
    assert_eq!(camera.zoom, 100.0);
    assert!(
        (camera.to_world(rect, anchor) - under).abs().max_element() < 1e-4,
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
    assert_eq!(hit_test(&shear, inside, 0.0), Some(NodeId(2)));
    let outside = world.transform_point2(Vec2::new(0.55, 0.0));
    assert_ne!(hit_test(&shear, outside, 0.0), Some(NodeId(2)));
    // A point inside the square's axis-aligned box but outside the rhombus misses.
    let corner = world.translation + Vec2::new(0.9, 0.9);
    assert_ne!(hit_test(&shear, corner, 0.0), Some(NodeId(2)));

    let flip = load("flip.ron");
    let fish = flip.world(NodeId(2)).unwrap();
    assert!(fish.matrix2.determinant() < 0.0);
    assert_eq!(
        hit_test(&flip, fish.transform_point2(Vec2::new(0.9, 0.4)), 0.0),
        Some(NodeId(2))
    );
    assert_ne!(
        hit_test(&flip, fish.transform_point2(Vec2::new(1.1, 0.0)), 0.0),
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
    let world = app.doc.scene.world(id).unwrap();
    // A point inside the shape, away from the origin marker.
    app.viewport.camera.to_screen(
        app.viewport.last_rect,
        world.transform_point2(Vec2::new(0.0, -0.5)),
    )
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
    assert_eq!(h.state().selection, vec![NodeId(1)]);

    let start = h.state().doc.scene.world(NodeId(1)).unwrap().translation;
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
    let moved = h.state().doc.scene.world(NodeId(1)).unwrap().translation;
    let expected = start + Vec2::new(100.0, 40.0) / zoom;
    assert!(
        (moved - expected).abs().max_element() < 1e-3,
        "{moved} vs {expected}"
    );
    assert_eq!(
        h.state().doc.history.labels().0,
        vec!["Move body"],
        "one undo step for the whole drag"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().doc.scene.world(NodeId(1)).unwrap().translation,
        start
    );

    // Clicking empty space clears the selection.
    let empty = h.state().viewport.last_rect.left_top() + egui::vec2(5.0, 5.0);
    h.hover_at(empty);
    h.drag_at(empty);
    h.run_steps(1);
    h.drop_at(empty);
    h.run_steps(2);
    assert!(h.state().selection.is_empty());
}

#[test]
fn dragging_on_empty_space_box_selects_the_origins_inside() {
    let mut h = app();
    let to_screen = |h: &Harness<GraftApp>, x: f32, y: f32| {
        let v = &h.state().viewport;
        v.camera.to_screen(v.last_rect, Vec2::new(x, y))
    };
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
    let mut selected = h.state().selection.clone();
    selected.sort();
    assert_eq!(
        selected,
        vec![NodeId(1), NodeId(5)],
        "body and scabbard, not the arm above"
    );
    assert!(!h.state().doc.is_modified(), "selecting changes nothing");
}
