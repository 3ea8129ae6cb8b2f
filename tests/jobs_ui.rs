//! A big file loading in the running app: frames keep coming while it loads (the status bar
//! shows what it is doing and how far), Cancel restores the old scene exactly, and a finished
//! load swaps the new scene in.

mod ui_common;

use egui_kittest::kittest::Queryable;
use graft::editor::session::command::{Command, FileCommand};
use graft::tools::generate::{GenShape, generate};
use std::path::PathBuf;
use ui_common::app_on_path;

#[test]
fn loading_keeps_frames_coming_shows_progress_and_cancel_restores_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    graft::model::file::save(&generate(GenShape::Random, 60_000, 9), &path).unwrap();
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    h.state_mut().set_background_bytes(0);
    let before = h.state().scene().clone();

    // Cancel from the status bar: the scene is exactly the one before.
    h.state_mut()
        .run(Command::File(FileCommand::OpenPath(path.clone())));
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
    h.state_mut()
        .run(Command::File(FileCommand::OpenPath(path.clone())));
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

/// Click the button whose label starts with `text` (menu entries carry their shortcut after it).
fn click_starting(h: &mut egui_kittest::Harness<graft::app::GraftApp>, text: &str) {
    let wanted = text.to_string();
    h.get(
        egui_kittest::kittest::By::new()
            .predicate(move |n| n.label().is_some_and(|l| l.starts_with(&wanted))),
    )
    .click();
    h.run_steps(3);
}

#[test]
fn file_generate_shows_progress_cancels_and_makes_the_scene() {
    let mut h = app_on_path(PathBuf::from("scenes/sword.ron"));
    let before = h.state().scene().clone();
    let open_window = |h: &mut egui_kittest::Harness<graft::app::GraftApp>| {
        click_starting(h, "File");
        click_starting(h, "Generate scene…");
        assert!(
            h.query_by_label("Generate scene").is_some(),
            "the window opened"
        );
    };

    // Ten million nodes take seconds: the status bar shows the work, Cancel drops it.
    open_window(&mut h);
    h.get_by_label("chain").click();
    h.get_by_label("10M").click();
    h.run_steps(2);
    h.get_by_label("Generate").click();
    h.run_steps(3);
    assert!(h.state().editor().job().is_some(), "generating on a worker");
    // The worker reports nodes made as it goes.
    let mut frames = 0;
    while h.query_by_label_contains(" of 10,000,000 nodes").is_none() && frames < 500 {
        h.step();
        frames += 1;
    }
    assert!(
        h.query_by_label_contains("Generating a 10,000,000-node chain scene (seed 1): generating")
            .is_some()
    );
    assert!(h.query_by_label_contains("of 10,000,000 nodes").is_some());
    assert!(
        h.query_by_label("Generate scene").is_none(),
        "the window closed"
    );
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.state().editor().job().is_none());
    assert!(
        *h.state().scene() == before,
        "cancel left the scene as it was"
    );

    // A thousand: made and swapped in.
    open_window(&mut h);
    h.get_by_label("1k").click();
    h.run_steps(2);
    h.get_by_label("Generate").click();
    let mut frames = 0;
    while h.state().editor().job().is_some() && frames < 100_000 {
        h.step();
        frames += 1;
    }
    h.run_steps(3);
    let mut expected = generate(GenShape::Chain, 1_000, 1);
    expected.update_world();
    assert!(
        *h.state().scene() == expected,
        "the chain `graft generate` makes"
    );
    // The status bar says so (its live region announces the same words).
    let said = egui_kittest::kittest::By::new()
        .role(egui::accesskit::Role::Label)
        .label_contains("Generated a 1,000-node chain scene (seed 1)");
    assert!(h.query(said).is_some());
}
