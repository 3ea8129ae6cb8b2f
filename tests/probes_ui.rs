//! Point probes in the running app: P, a click drops a pin in the selected node's space; moving
//! one of its ancestors changes its world numbers in the inspector, never its own-space numbers;
//! dragging the pin moves it in one undo step.

mod ui_common;

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use glam::{DVec2, Vec2};
use graft::editor::view::numbers::format_number;
use graft::model::scene::NodeId;
use std::path::PathBuf;
use ui_common::{app_on_path, on_screen};

const HAND: NodeId = NodeId(3);

fn coords(p: DVec2) -> String {
    format!("({}, {})", format_number(p.x), format_number(p.y))
}

#[test]
fn drop_a_probe_move_the_hands_ancestor_world_numbers_change_hand_numbers_do_not() {
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    h.get_by_label("hand").click();
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![HAND]);
    assert!(h.query_by_label_contains("No probes").is_some());

    // P, then a click beside the hand (away from every shape): a probe in the hand's space.
    h.key_press(Key::P);
    h.run_steps(1);
    assert!(h.state().editor().probe_mode());
    let spot = on_screen(&h, Vec2::new(2.9, 2.5));
    h.hover_at(spot);
    h.run_steps(1);
    h.drag_at(spot);
    h.run_steps(1);
    h.drop_at(spot);
    h.run_steps(3);
    let readings = h.state().editor().probe_readings();
    assert_eq!(readings.len(), 1, "one probe dropped");
    let before = readings[0].clone();
    assert_eq!(before.probe.node, HAND);
    let world = before.world.unwrap();
    assert!((world - DVec2::new(2.9, 2.5)).length() < 0.05, "{world}");
    assert_eq!(
        h.state().doc().history().labels().0,
        vec!["Add a probe to hand"]
    );
    assert!(h.query_by_label_contains("Probes (1)").is_some());
    assert!(h.query_by_label("in hand (own)").is_some());
    assert!(
        h.query_all_by_label(&coords(world)).count() > 0,
        "world shown"
    );

    // Turn probe mode off and drag the body (the hand's grandparent) 100 px right.
    h.key_press(Key::P);
    h.run_steps(1);
    let body = on_screen(&h, Vec2::new(5.0, -0.6));
    h.hover_at(body);
    h.drag_at(body);
    h.run_steps(2);
    for k in 1..=4 {
        h.hover_at(body + egui::vec2(25.0 * k as f32, 0.0));
        h.run_steps(1);
    }
    h.drop_at(body + egui::vec2(100.0, 0.0));
    h.run_steps(3);
    assert_eq!(h.state().selection(), vec![NodeId(1)]);
    let after = h.state().editor().probe_readings()[0].clone();
    assert_eq!(after.local, before.local, "the hand-space numbers stay");
    let moved = after.world.unwrap();
    let zoom = h.state().viewport.camera.zoom;
    assert!((moved - world - DVec2::new(100.0 / zoom, 0.0)).length() < 1e-3);
    assert!(
        h.query_all_by_label(&coords(moved)).count() > 0,
        "new world shown"
    );
    assert!(
        h.query_all_by_label(&coords(world)).count() == 0,
        "old world gone"
    );
    // Its coordinates in the selection's (the body's) space are shown too, and agree.
    let in_body = after.in_selection.unwrap();
    assert!(h.query_all_by_label(&coords(in_body)).count() > 0);

    // Drag the pin itself: one undo step; the probe stays in the hand's space.
    let pin = on_screen(&h, moved.as_vec2());
    h.hover_at(pin);
    h.drag_at(pin);
    h.run_steps(2);
    for k in 1..=3 {
        h.hover_at(pin + egui::vec2(0.0, -10.0 * k as f32));
        h.run_steps(1);
    }
    h.drop_at(pin + egui::vec2(0.0, -30.0));
    h.run_steps(3);
    let dragged = h.state().editor().probe_readings()[0].clone();
    assert_eq!(dragged.probe.node, HAND);
    assert!((dragged.world.unwrap() - moved - DVec2::new(0.0, 30.0 / zoom)).length() < 1e-3);
    let labels = h.state().doc().history().labels().0;
    assert_eq!(labels.last(), Some(&"Move a probe of hand"));
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert_eq!(
        h.state().selection(),
        vec![NodeId(1)],
        "a pin drag selects nothing"
    );

    // Delete it from the inspector; undo brings it back.
    h.get_by_label_contains("Delete probe").click();
    h.run_steps(2);
    assert!(h.state().editor().probe_readings().is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().editor().probe_readings().len(), 1);
}
