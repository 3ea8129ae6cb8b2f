//! The inspector and the viewport overlay on the sample scenes, through egui_kittest.

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::view::overlay::shear_overlay;
use graft::model::scene::NodeId;
mod ui_common;
use std::path::PathBuf;
use ui_common::{app_on_path, scene_file, type_number};

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
    assert_eq!(h.state().selection(), vec![NodeId(1)]);
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
    assert!(shear_overlay(h.state().scene()).is_empty());
}

#[test]
fn overlay_lists_the_sheared_node_and_its_cause() {
    let h = app_on("shear.ron");
    let marks = shear_overlay(h.state().scene());
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0].node, NodeId(2));
    assert_eq!(marks[0].cause, Some(NodeId(1)));
    assert!((marks[0].degrees_off - 36.87).abs() < 0.01, "{marks:?}");
}

/// The spin buttons of the inspector's rows, each row left to right (local x, local y, world x,
/// world y for the pairs), measured after the side panel has settled.
fn spin_rows(h: &mut Harness<GraftApp>) -> Vec<Vec<egui::Rect>> {
    h.run_steps(10);
    let spins: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|n| n.rect())
        .collect();
    let mut ys: Vec<f32> = spins.iter().map(|r| r.center().y.round()).collect();
    ys.sort_by(f32::total_cmp);
    ys.dedup();
    ys.iter()
        .map(|y| {
            let mut row: Vec<egui::Rect> = spins
                .iter()
                .copied()
                .filter(|r| r.center().y.round() == *y)
                .collect();
            row.sort_by(|a, b| a.center().x.total_cmp(&b.center().x));
            row
        })
        .collect()
}

const ROTATED_STRETCHED: &str = "(format: 1, nodes: [
    (id: 1, name: \"parent\", position: (1.0, -2.0), rotation: 30.0, scale: (2.0, 0.5)),
    (id: 2, name: \"child\", parent: Some(1), position: (1.0, 1.0), rotation: 10.0),
])";

#[test]
fn typing_a_world_position_under_a_rotated_non_uniform_parent_solves_the_local() {
    let (_dir, path) = scene_file(ROTATED_STRETCHED);
    let mut h = app_on_path(path);
    h.get_by_label("child").click();
    let rows = spin_rows(&mut h);
    assert_eq!(rows[0].len(), 4, "position row: local x, y, world x, y");
    type_number(&mut h, rows[0][2], "-3.25");
    let rows = spin_rows(&mut h);
    type_number(&mut h, rows[0][3], "4.5");
    let scene = &h.state().scene();
    let world = scene.world(NodeId(2)).unwrap();
    assert!(
        (world.translation - Vec2::new(-3.25, 4.5))
            .abs()
            .max_element()
            < 1e-4,
        "world is what was typed: {world:?}"
    );
    let parent = scene.world(NodeId(1)).unwrap();
    let local = scene.node(NodeId(2)).unwrap().local;
    let expected = parent.inverse().transform_point2(Vec2::new(-3.25, 4.5));
    assert!(
        (local.position - expected).abs().max_element() < 1e-4,
        "local solved through the parent: {local:?}"
    );
    assert_eq!(
        local.rotation, 10.0,
        "a position edit leaves the rest alone"
    );
    assert_eq!(
        h.state().doc().history().labels().0.len(),
        2,
        "one undo step per typed value"
    );
}

#[test]
fn editing_a_local_value_updates_the_world_column() {
    let (_dir, path) = scene_file(ROTATED_STRETCHED);
    let mut h = app_on_path(path);
    h.get_by_label("child").click();
    let rows = spin_rows(&mut h);
    type_number(&mut h, rows[0][0], "0");
    let world = h.state().scene().world(NodeId(2)).unwrap();
    let parent = h.state().scene().world(NodeId(1)).unwrap();
    assert!(
        (world.translation - parent.transform_point2(Vec2::new(0.0, 1.0)))
            .abs()
            .max_element()
            < 1e-5
    );
    // The world column shows the new value.
    let shown: Vec<String> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .filter_map(|n| n.value())
        .collect();
    let expected = format!("x {:.2}", world.translation.x);
    assert!(
        shown.iter().any(|v| v.starts_with(&expected)),
        "{shown:?} lacks {expected}"
    );

    // With the lock on, editing scale x keeps the x:y ratio.
    h.get_by_label_contains("Keep scale uniform").click();
    let rows = spin_rows(&mut h);
    let scale_row = &rows[2];
    type_number(&mut h, scale_row[0], "3");
    assert_eq!(
        h.state().scene().node(NodeId(2)).unwrap().local.scale,
        Vec2::new(3.0, 3.0)
    );
}

#[test]
fn under_a_singular_parent_the_world_fields_are_disabled_with_the_reason() {
    let (_dir, path) = scene_file(
        "(format: 1, nodes: [(id: 1, name: \"flat\", scale: (0.0, 1.0)), (id: 2, name: \"child\", parent: Some(1), position: (1.0, 1.0))])",
    );
    let mut h = app_on_path(path);
    h.get_by_label("child").click();
    let rows = spin_rows(&mut h);
    assert!(
        h.query_by_label_contains("World values are read-only")
            .is_some()
    );
    let disabled: Vec<bool> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|n| n.accesskit_node().is_disabled())
        .collect();
    assert_eq!(
        disabled.iter().filter(|d| **d).count(),
        6,
        "the six world fields: {disabled:?}"
    );
    let before = h.state().scene().clone();
    type_number(&mut h, rows[0][2], "5");
    assert!(
        *h.state().scene() == before,
        "typing into a disabled field changes nothing"
    );
}

#[test]
fn multi_selection_edits_apply_to_all_in_one_step_and_text_pastes() {
    let mut h = app_on("sword.ron");
    h.get_by_label("hand").click();
    h.run_steps(1);
    h.get_by_label("scabbard")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run_steps(10);
    // The inspector says so (the status bar's live region announces it too, with the names).
    assert!(
        h.query_by_label_contains("2 nodes selected: shared values")
            .is_some()
    );
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
    let scene = &h.state().scene();
    assert_eq!(scene.node(NodeId(3)).unwrap().local.rotation, 33.0);
    assert_eq!(scene.node(NodeId(5)).unwrap().local.rotation, 33.0);
    assert_eq!(
        scene.node(NodeId(5)).unwrap().local.position,
        Vec2::new(-0.9, -0.3),
        "other fields keep their own values"
    );
    assert_eq!(h.state().doc().history().labels().0, vec!["Edit 2 nodes"]);

    // Paste a transform as text onto the primary selection's world.
    h.get_by_label("sword").click();
    h.run_steps(3);
    // The paste field: the lowest text field on the inspector side (the name field is above it).
    let field = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .map(|n| n.rect())
        .filter(|r| r.left() > 700.0)
        .max_by(|a, b| a.top().total_cmp(&b.top()))
        .unwrap();
    h.drag_at(field.center());
    h.drop_at(field.center());
    h.run_steps(2);
    h.event(egui::Event::Text(
        "position: (7.0, -1.0), rotation: 10.0".into(),
    ));
    h.run_steps(1);
    h.get_by_label("Paste to world").click();
    h.run_steps(3);
    let world = h.state().scene().world_trs(NodeId(4)).unwrap();
    assert!(
        (world.position - Vec2::new(7.0, -1.0)).abs().max_element() < 1e-4,
        "{world:?}"
    );
    assert!((world.rotation - 10.0).abs() < 1e-3, "{world:?}");
}

#[test]
fn the_name_field_renames_and_the_appearance_section_changes_the_shape() {
    let mut h = app_on("sword.ron");
    h.get_by_label("scabbard").click();
    h.run_steps(3);
    let field = h
        .query_all_by_value("scabbard")
        .map(|n| n.rect())
        .find(|r| r.left() > 700.0)
        .unwrap();
    h.drag_at(field.center());
    h.drop_at(field.center());
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("sheath".into()));
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().scene().node(NodeId(5)).unwrap().name, "sheath");

    h.get_by_label("Appearance").click();
    h.run_steps(2);
    h.get_by_label("ellipse").click();
    h.run_steps(2);
    assert!(matches!(
        h.state().scene().node(NodeId(5)).unwrap().shape,
        graft::model::scene::Shape::Ellipse { .. }
    ));
    assert_eq!(h.state().doc().history().labels().0.len(), 2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(matches!(
        h.state().scene().node(NodeId(5)).unwrap().shape,
        graft::model::scene::Shape::Rect { .. }
    ));
    assert_eq!(
        h.state().scene().node(NodeId(5)).unwrap().name,
        "sheath",
        "one undo takes back only the shape"
    );
}

/// At 1024×768 (issue 44.7) the inspector is usable: the local and world fields, the shear
/// warning, its Select cause button and both Paste buttons lie inside the window (world stacks
/// under local where the two do not fit side by side), and typing into a stacked world field
/// still edits the world value.
#[test]
fn at_1024_by_768_every_inspector_field_and_the_shear_warning_fit_the_window() {
    let path = PathBuf::from("scenes").join("shear.ron");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 768.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h.get_by_label("rotated child").click();
    let rows = spin_rows(&mut h);
    let spins: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("rotated child,"))
        })
        .map(|n| n.rect())
        .collect();
    assert_eq!(spins.len(), 12, "six local and six world fields: {spins:?}");
    let inside = |r: egui::Rect| r.max.x <= 1024.0 && r.min.x >= 0.0;
    for r in &spins {
        assert!(inside(*r), "a transform field runs off the window: {r:?}");
    }
    for label in [
        "Select cause (stretched)",
        "Paste to local",
        "Paste to world",
    ] {
        let r = h.get_by_label(label).rect();
        assert!(inside(r), "{label} runs off the window: {r:?}");
    }
    let warning = h
        .get_by_label_contains("Cause: stretched's non-uniform scale")
        .rect();
    assert!(inside(warning), "the shear warning runs off: {warning:?}");
    // Stacked: position's world pair is the second row, under the local pair.
    assert_eq!(rows[0].len(), 2, "local x, y on the first line: {rows:?}");
    type_number(&mut h, rows[1][0], "1.5");
    let world = h.state().scene().world(NodeId(2)).unwrap();
    assert!((world.translation.x - 1.5).abs() < 1e-4, "{world:?}");
}
