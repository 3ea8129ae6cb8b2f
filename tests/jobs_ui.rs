//! A big file loading in the running app: frames keep coming while it loads (the status bar
//! shows what it is doing and how far), Cancel restores the old scene exactly, and a finished
//! load swaps the new scene in.

mod ui_common;

use egui_kittest::kittest::Queryable;
use graft::editor::command::Command;
use graft::generate::{GenShape, generate};
use std::path::PathBuf;
use ui_common::app_on_path;

#[test]
fn loading_keeps_frames_coming_shows_progress_and_cancel_restores_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    graft::file::save(&generate(GenShape::Random, 60_000, 9), &path).unwrap();
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    h.state_mut().set_background_bytes(0);
    let before = h.state().scene().clone();

    // Cancel from the status bar: the scene is exactly the one before.
    h.state_mut().run(Command::OpenPath(path.clone()));
    h.run_steps(3); // the status bar grows a row: let its layout settle before clicking
    assert!(h.query_by_label_contains("Opening big.ron:").is_some());
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.state().editor().job().is_none());
    assert!(
        *h.state().scene() == before,
        "cancel left the scene as it was"
    );
    assert_eq!(
        h.state().doc().path(),
        Some(std::path::Path::new("scenes/sword.ron"))
    );

    // Open again and watch frames run while the worker loads.
    h.state_mut().run(Command::OpenPath(path.clone()));
    let mut frames = 0;
    let mut saw_progress = false;
    while h.state().editor().job().is_some() && frames < 100_000 {
        h.step();
        frames += 1;
        saw_progress |= h.query_by_label_contains("Opening big.ron:").is_some();
    }
    assert!(frames > 1, "the UI ran {frames} frames while loading");
    assert!(saw_progress, "the status bar showed the job");
    h.run_steps(2);
    assert_eq!(h.state().doc().path(), Some(path.as_path()));
    assert_eq!(h.state().scene().len(), 60_000);
}
