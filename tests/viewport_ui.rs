//! The viewport in the running app: clicking, box selection, dragging nodes and handles (the
//! math behind them is tested without a window in `viewport_math.rs`).

use egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::command::{SelectionCommand, ViewCommand};
use graft::editor::view::camera::ScreenRect;
use graft::model::scene::NodeId;
use std::path::PathBuf;

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
        graft::editor::view::handles::Tool::Rotate
    );
    let origin = {
        let world = h.state().scene().world(NodeId(1)).unwrap();
        on_screen(&h, world.translation)
    };
    let r = graft::editor::view::handles::HANDLE_PX;
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
fn in_the_view_from_the_arm_a_drag_moves_the_hand_in_the_arms_space_and_undo_restores() {
    use graft::editor::session::command::{Command, ViewSpace};
    let mut h = app();
    h.state_mut()
        .run(Command::View(ViewCommand::SetViewSpace(ViewSpace::Node(
            NodeId(2),
        ))));
    h.key_press(Key::Home);
    h.run_steps(4);
    let rect = view(h.state().viewport.last_rect);
    let camera = h.state().viewport.camera;
    // The arm's origin sits at the view's origin, its x axis along the screen's.
    let arm = h.state().scene().world(NodeId(2)).unwrap();
    let origin = camera.to_screen_f64(rect, arm.translation.as_dvec2());
    assert!((origin - camera.view_to_screen(rect, glam::DVec2::ZERO)).length() < 0.5);
    assert!((camera.dir_to_screen(arm.matrix2.x_axis) - Vec2::X).length() < 1e-5);
    // Drag the hand 80 px to the right on screen: in the arm's space it moves +80/zoom in x.
    let before = h.state().scene().node(NodeId(3)).unwrap().local.position;
    let hand = h.state().scene().world(NodeId(3)).unwrap();
    let start = pos(camera.to_screen(rect, hand.translation));
    h.hover_at(start);
    h.run_steps(1);
    h.drag_at(start);
    h.run_steps(2);
    for k in 1..=4 {
        h.hover_at(start + egui::vec2(20.0 * k as f32, 0.0));
        h.run_steps(1);
    }
    h.drop_at(start + egui::vec2(80.0, 0.0));
    h.run_steps(3);
    let after = h.state().scene().node(NodeId(3)).unwrap().local.position;
    let moved = after - before;
    let want = 80.0 / camera.zoom as f32;
    assert!(
        (moved - Vec2::new(want, 0.0)).length() < 1e-3,
        "the hand's local (arm-space) position moved by {moved}, want ({want}, 0)"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().scene().node(NodeId(3)).unwrap().local.position,
        before
    );
}

/// Pressing 3 on `moon orbit` (issue 25, item 6): the view turns into its space and the node
/// stays where it was on screen, and so does its parent (world lengths keep their size).
#[test]
fn switching_the_view_space_keeps_the_selection_where_it_was_on_screen() {
    let path = PathBuf::from("scenes/solar.ron");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(5);
    let (moon_orbit, earth) = (NodeId(6), NodeId(2));
    h.state_mut()
        .run(graft::editor::session::command::Command::Selection(
            SelectionCommand::Select(vec![moon_orbit]),
        ));
    h.run_steps(3);
    let before = (origin_of(&h, moon_orbit), origin_of(&h, earth));
    let rect = h.state().viewport.last_rect;
    assert!(
        rect.contains(before.0),
        "in view before: {before:?} in {rect:?}"
    );
    h.key_press(Key::Num3);
    h.run_steps(4);
    assert_ne!(
        h.state().editor().view_node().0,
        None,
        "the view looks from the node"
    );
    let after = (origin_of(&h, moon_orbit), origin_of(&h, earth));
    assert!(
        (after.0 - before.0).length() < 1.0,
        "the selection stayed put: {before:?} → {after:?}"
    );
    let spread = |p: (Pos2, Pos2)| (p.0 - p.1).length();
    assert!(
        (spread(after) - spread(before)).abs() < 1.0,
        "world lengths keep their size on screen"
    );
    // And back to the world: still in place.
    h.key_press(Key::Num1);
    h.run_steps(4);
    assert!((origin_of(&h, moon_orbit) - before.0).length() < 1.0);
}

fn origin_of(h: &Harness<GraftApp>, id: NodeId) -> Pos2 {
    on_screen(h, h.state().scene().world(id).unwrap().translation)
}
