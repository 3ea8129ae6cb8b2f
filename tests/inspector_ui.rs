//! The inspector and the viewport overlay on the sample scenes, through egui_kittest.

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec2;
use graft::NodeId;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::app::viewport::shear_overlay;
use std::path::PathBuf;

fn app_on(scene: &str) -> Harness<'static, GraftApp> {
    let path = PathBuf::from("scenes").join(scene);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

#[test]
fn shear_warning_names_the_cause_and_selects_it() {
    let mut h = app_on("shear.ron");
    h.get_by_label("rotated child").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("Cause: stretched's non-uniform scale (2, 1) above a rotation")
            .is_some()
    );
    h.get_by_label("Select cause (stretched)").click();
    h.run_steps(2);
    assert_eq!(h.state().selection, vec![NodeId(1)]);
    // The other pair composes rotate · scale: no warning.
    h.get_by_label("scaled child").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("Sheared").is_none());
}

#[test]
fn no_shear_warning_anywhere_in_the_sword_scene() {
    let mut h = app_on("sword.ron");
    for name in ["body", "arm", "hand", "sword", "scabbard"] {
        h.get_by_label(name).click();
        h.run_steps(2);
        assert!(h.query_by_label_contains("Sheared").is_none(), "{name}");
    }
    assert!(shear_overlay(&h.state().doc.scene).is_empty());
}

#[test]
fn overlay_lists_the_sheared_node_and_its_cause() {
    let h = app_on("shear.ron");
    let marks = shear_overlay(&h.state().doc.scene);
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0].node, NodeId(2));
    assert_eq!(marks[0].cause, Some(NodeId(1)));
    assert!((marks[0].degrees_off - 36.87).abs() < 0.01, "{marks:?}");
}

#[test]
fn typing_a_world_position_under_a_sheared_parent_solves_the_local() {
    let mut h = app_on("shear.ron");
    h.get_by_label("rotated child").click();
    h.run_steps(10); // let the side panel settle its width before measuring the fields
    let spins: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|n| n.rect())
        .collect();
    assert!(spins.len() >= 12, "{} spin buttons", spins.len());
    // The position row: the four spin buttons at the top, left to right: local x, local y,
    // world x, world y. Click world x to edit it, type a number, press Enter.
    let top = spins
        .iter()
        .map(|r| r.center().y)
        .fold(f32::INFINITY, f32::min);
    let mut row: Vec<egui::Rect> = spins
        .iter()
        .copied()
        .filter(|r| (r.center().y - top).abs() < 2.0)
        .collect();
    row.sort_by(|a, b| a.center().x.total_cmp(&b.center().x));
    assert_eq!(row.len(), 4);
    let world_x = row[2].center();
    h.hover_at(world_x);
    h.run_steps(1);
    h.drag_at(world_x);
    h.run_steps(1);
    h.drop_at(world_x);
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("-3.25".into()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
    let world = h.state().doc.scene.world(NodeId(2)).unwrap();
    assert!(
        (world.translation.x + 3.25).abs() < 1e-4,
        "world x is what was typed: {world:?}"
    );
    assert!(
        (world.translation.y - 2.0).abs() < 1e-4,
        "world y unchanged: {world:?}"
    );
    let local = h.state().doc.scene.node(NodeId(2)).unwrap().local;
    assert!(
        (local.position - Vec2::new(-1.625, 2.0))
            .abs()
            .max_element()
            < 1e-4,
        "solved through the (2, 1) parent: {local:?}"
    );
    assert_eq!(h.state().doc.history.labels().0.len(), 1, "one undo step");
}

#[test]
fn multi_selection_edits_apply_to_all_in_one_step_and_text_pastes() {
    let mut h = app_on("sword.ron");
    h.get_by_label("hand").click();
    h.run_steps(1);
    h.get_by_label("scabbard")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run_steps(10);
    assert!(h.query_by_label_contains("2 nodes selected").is_some());
    // The rotation fields: local rotation is the first spin button of the second row.
    let spins: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|n| n.rect())
        .collect();
    let mut rows: Vec<f32> = spins.iter().map(|r| r.center().y.round()).collect();
    rows.sort_by(f32::total_cmp);
    rows.dedup();
    let rotation_row = rows[1];
    let local_rotation = spins
        .iter()
        .filter(|r| r.center().y.round() == rotation_row)
        .min_by(|a, b| a.center().x.total_cmp(&b.center().x))
        .unwrap()
        .center();
    h.drag_at(local_rotation);
    h.run_steps(1);
    h.drop_at(local_rotation);
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("33".into()));
    h.key_press(Key::Enter);
    h.run_steps(3);
    let scene = &h.state().doc.scene;
    assert_eq!(scene.node(NodeId(3)).unwrap().local.rotation, 33.0);
    assert_eq!(scene.node(NodeId(5)).unwrap().local.rotation, 33.0);
    assert_eq!(
        scene.node(NodeId(5)).unwrap().local.position,
        Vec2::new(-0.9, -0.3),
        "other fields keep their own values"
    );
    assert_eq!(h.state().doc.history.labels().0, vec!["Edit 2 nodes"]);

    // Paste a transform as text onto the primary selection's world.
    h.get_by_label("sword").click();
    h.run_steps(3);
    let field = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.rect().left() > 700.0)
        .unwrap()
        .rect();
    h.drag_at(field.center());
    h.drop_at(field.center());
    h.run_steps(2);
    h.event(egui::Event::Text(
        "position: (7.0, -1.0), rotation: 10.0".into(),
    ));
    h.run_steps(1);
    h.get_by_label("Paste to world").click();
    h.run_steps(3);
    let world = h.state().doc.scene.world_trs(NodeId(4)).unwrap();
    assert!(
        (world.position - Vec2::new(7.0, -1.0)).abs().max_element() < 1e-4,
        "{world:?}"
    );
    assert!((world.rotation - 10.0).abs() < 1e-3, "{world:?}");
}
