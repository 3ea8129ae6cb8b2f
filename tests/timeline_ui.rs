//! The timeline panel in the running app: Play advances time and poses the scene without an
//! undo step, Pause stops it, and K keys the selection as one step.

mod ui_common;

use egui::Key;
use egui_kittest::kittest::Queryable;
use graft::model::scene::NodeId;
use std::path::PathBuf;
use ui_common::app_on_path;

#[test]
fn play_pause_and_key_the_selection() {
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    assert!(h.query_by_label("arm").is_some());
    let rest = h.state().scene().node(NodeId(2)).unwrap().local.rotation;

    h.get_by_label("Play").click();
    h.run_steps(10);
    assert!(h.state().editor().timeline().playing());
    assert!(h.state().editor().timeline().time() > 0.0);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    assert!(!h.state().editor().timeline().playing());
    let posed = h.state().scene().node(NodeId(2)).unwrap().local.rotation;
    assert_ne!(posed, rest, "playing moved the arm");
    assert!(
        h.state().doc().history().labels().0.is_empty(),
        "and recorded nothing"
    );

    // Select the hand and key it (K) at the current time.
    h.get_by_label("hand").click();
    h.run_steps(2);
    h.key_press(Key::K);
    h.run_steps(2);
    let labels = h.state().doc().history().labels().0;
    assert!(
        labels
            .last()
            .is_some_and(|l| l.starts_with("Key 1 node(s)")),
        "{labels:?}"
    );
    assert!(!h.state().scene().node(NodeId(3)).unwrap().tracks.is_empty());
}

/// A click on the ruler scrubs: 30% along the track is 30% of the clip, and the solar system's
/// moon is where the animation puts it then; playing moves it on.
#[test]
fn clicking_the_ruler_scrubs_and_play_moves_the_moon() {
    let mut h = app_on_path(PathBuf::from("scenes/solar.ron"));
    let moon = |h: &egui_kittest::Harness<graft::app::GraftApp>| {
        h.state().scene().world(NodeId(3)).unwrap().translation
    };
    let start = moon(&h);
    let track = h.state().timeline.track;
    let at = egui::pos2(track.left() + track.width() * 0.3, track.top() + 4.0);
    h.hover_at(at);
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(2);
    let t = h.state().editor().timeline().time();
    assert!((t - 3.6).abs() < 0.05, "30% of the 12 s clip: {t}");
    let expected = h.state().scene().sampled_worlds(NodeId(3), &[t])[0].translation;
    assert!((moon(&h) - expected).length() < 1e-4);
    assert!((moon(&h) - start).length() > 1.0, "the moon moved");
    let before = moon(&h);
    h.state_mut()
        .run(graft::editor::session::command::Command::Timeline(
            graft::editor::session::timeline::TimelineCommand::Play,
        ));
    h.run_steps(20);
    assert!(
        (moon(&h) - before).length() > 1e-3,
        "playing moves the moon on"
    );
}

/// A pinch (or Ctrl + wheel) over the timeline zooms its time axis around the pointer; a click
/// then scrubs in the zoomed span.
#[test]
fn zooming_the_timeline_magnifies_time_around_the_pointer() {
    let mut h = app_on_path(PathBuf::from("scenes/solar.ron"));
    let track = h.state().timeline.track;
    let at = egui::pos2(track.left() + track.width() * 0.5, track.top() + 4.0);
    h.hover_at(at);
    h.run_steps(1);
    h.event(egui::Event::Zoom(4.0));
    h.run_steps(2);
    let (zoom, start) = (h.state().timeline.zoom, h.state().timeline.start);
    assert!((zoom - 4.0).abs() < 1e-3, "zoom {zoom}");
    // Around the pointer: the middle of the track still shows 6 s; the span is 3 s.
    assert!((start - 4.5).abs() < 0.05, "start {start}");
    let left = egui::pos2(track.left() + 1.0, track.top() + 4.0);
    h.hover_at(left);
    h.drag_at(left);
    h.run_steps(1);
    h.drop_at(left);
    h.run_steps(2);
    let t = h.state().editor().timeline().time();
    assert!((t - 4.5).abs() < 0.05, "the left edge is 4.5 s now: {t}");
}

/// Drag a box over the three keys at 0 s (solar.ron's sun, earth and moon rows), drag one of
/// them to a quarter of the clip: all three move together as one step; Del deletes them and
/// no node.
#[test]
fn box_select_keys_then_drag_and_delete_them_together() {
    let mut h = app_on_path(PathBuf::from("scenes/solar.ron"));
    let track = h.state().timeline.track;
    let row = |r: usize| track.top() + 18.0 * (r as f32 + 1.5);
    let rows = h.state().scene().animated_nodes().len();
    assert_eq!(rows, 3);
    let drag = |h: &mut egui_kittest::Harness<graft::app::GraftApp>, a: egui::Pos2, b| {
        h.hover_at(a);
        h.drag_at(a);
        h.run_steps(1);
        h.hover_at(a.lerp(b, 0.5));
        h.run_steps(1);
        h.hover_at(b);
        h.run_steps(1);
        h.drop_at(b);
        h.run_steps(2);
    };
    let from = egui::pos2(track.left() + 40.0, row(0) - 8.0);
    let to = egui::pos2(track.left() - 20.0, row(rows - 1) + 8.0);
    drag(&mut h, from, to);
    let picked = h.state().editor().selected_keys();
    assert_eq!(picked.len(), 3, "{picked:?}");
    assert!(picked.iter().all(|k| k.time == 0.0));
    assert!(h.query_by_label("3 key(s) selected").is_some());

    let grab = egui::pos2(track.left(), row(1));
    let quarter = egui::pos2(track.left() + track.width() * 0.25, row(1));
    drag(&mut h, grab, quarter);
    let labels = h.state().doc().history().labels().0;
    assert_eq!(labels, vec!["Move 3 key(s)"], "one step");
    let scene = h.state().scene();
    for node in scene.animated_nodes() {
        let times = graft::model::anim::key_times(&scene.node(node).unwrap().tracks);
        assert_eq!(times.len(), 2, "{times:?}");
        assert!(
            (times[0] - 3.0).abs() < 0.05,
            "a quarter of 12 s: {times:?}"
        );
        assert_eq!(times[1], 12.0);
    }

    let nodes = h.state().scene().len();
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), nodes, "keys deleted, not nodes");
    let labels = h.state().doc().history().labels().0;
    assert_eq!(labels.last().copied(), Some("Delete 3 key(s)"));
    let scene = h.state().scene();
    for node in scene.animated_nodes() {
        let times = graft::model::anim::key_times(&scene.node(node).unwrap().tracks);
        assert_eq!(times, vec![12.0]);
    }
}
