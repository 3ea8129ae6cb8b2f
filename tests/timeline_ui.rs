//! The timeline panel in the running app: Play advances time and poses the scene without an
//! undo step, Pause stops it, and K keys the selection as one step.

mod ui_common;

use egui::Key;
use egui_kittest::kittest::Queryable;
use graft::NodeId;
use std::path::PathBuf;
use ui_common::app_on_path;

#[test]
fn play_pause_and_key_the_selection() {
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    assert!(h.query_by_label("arm").is_some());
    let rest = h.state().scene().node(NodeId(2)).unwrap().local.rotation;

    h.get_by_label("▶ Play").click();
    h.run_steps(10);
    assert!(h.state().editor().timeline().playing);
    assert!(h.state().editor().timeline().time > 0.0);
    h.get_by_label("⏸ Pause").click();
    h.run_steps(2);
    assert!(!h.state().editor().timeline().playing);
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
