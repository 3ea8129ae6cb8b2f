//! The recovery prompt in the real app (egui_kittest): after a session ended without a clean
//! end, the window asks before anything else; Enter recovers the scene and its history, and
//! Ctrl+Z walks back through it. Later and Discard close the prompt and keep the scene.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::Editor;
use graft::editor::session::command::{FileCommand, HistoryCommand, PanelCommand};
use graft::model::document::Document;
use graft::model::file::to_ron_string;
use graft::tools::recover::drill;
use std::path::Path;

/// A journaled session on the sample that "crashes" after `steps` scripted commands; its scene
/// text at the end and one undo before.
fn crash(dir: &Path, steps: usize) -> (String, String) {
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.to_path_buf());
    drill(&mut editor, 99, steps, |_| {});
    let end = to_ron_string(editor.doc().scene());
    let mut shadow = Editor::new(Document::sample());
    drill(&mut shadow, 99, steps, |_| {});
    let _ = shadow.apply(graft::editor::session::command::Command::History(
        HistoryCommand::Undo,
    ));
    let before = to_ron_string(shadow.doc().scene());
    drop(editor); // no clean end
    (end, before)
}

fn app(dir: &Path) -> Harness<'static, GraftApp> {
    let dir = dir.to_path_buf();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| {
            GraftApp::new_journaled(cc, None, Box::new(FakeDialogs::default()), Some(dir))
        });
    harness.run_steps(3);
    harness
}

#[test]
fn enter_recovers_and_ctrl_z_walks_back() {
    let dir = tempfile::tempdir().unwrap();
    let (end, before) = crash(dir.path(), 60);
    let mut h = app(dir.path());
    h.get_by_label_contains("graft did not close cleanly");
    h.get_by_label("Recover");
    assert_ne!(
        to_ron_string(h.state().editor().doc().scene()),
        end,
        "not before the answer"
    );
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert!(
        h.state().editor().recovery_offer().is_none(),
        "the prompt closed"
    );
    assert_eq!(
        to_ron_string(h.state().editor().doc().scene()),
        end,
        "recovered bit for bit"
    );
    assert!(h.state().editor().doc().is_modified(), "unsaved");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        to_ron_string(h.state().editor().doc().scene()),
        before,
        "one step back"
    );
}

#[test]
fn later_keeps_the_sample_and_asks_again() {
    let dir = tempfile::tempdir().unwrap();
    crash(dir.path(), 20);
    let sample = to_ron_string(Document::sample().scene());
    {
        let mut h = app(dir.path());
        h.get_by_label("Later").click();
        h.run_steps(3);
        assert!(h.state().editor().recovery_offer().is_none());
        assert_eq!(to_ron_string(h.state().editor().doc().scene()), sample);
        assert!(
            h.query_by_label_contains("graft did not close cleanly")
                .is_none()
        );
    }
    let mut h = app(dir.path());
    h.get_by_label_contains("graft did not close cleanly");
    h.get_by_label("Discard").click();
    h.run_steps(3);
    assert!(h.state().editor().recovery_offer().is_none());
    assert_eq!(to_ron_string(h.state().editor().doc().scene()), sample);
}

/// The app on `file`, without a journal unless `journal` is given.
fn app_on(file: &Path, journal: Option<&Path>) -> Harness<'static, GraftApp> {
    let file = file.to_path_buf();
    let journal = journal.map(Path::to_path_buf);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| {
            GraftApp::new_journaled(cc, Some(file), Box::new(FakeDialogs::default()), journal)
        });
    harness.run_steps(3);
    harness
}

#[test]
fn a_file_changed_on_disk_is_noticed_and_reloaded_by_a_click() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.ron");
    std::fs::copy("scenes/sword.ron", &path).unwrap();
    let mut h = app_on(&path, None);
    // Another window saves the file with the arm renamed.
    let mut other = Editor::new(Document::open(&path).unwrap());
    other
        .apply(graft::editor::session::command::Command::Panel(
            PanelCommand::Rename {
                node: graft::model::scene::NodeId(2),
                name: "saved elsewhere".into(),
            },
        ))
        .unwrap();
    other
        .apply(graft::editor::session::command::Command::File(
            FileCommand::Save,
        ))
        .unwrap();
    // The window looks at its file every 2 s, with no input needed.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    h.run_steps(3);
    // The prompt says so (the status bar's live region announces the same words).
    h.get(
        egui_kittest::kittest::By::new()
            .role(egui::accesskit::Role::Label)
            .label_contains("changed on disk"),
    );
    h.get_by_label("Reload").click();
    h.run_steps(3);
    let name = h
        .state()
        .editor()
        .doc()
        .scene()
        .node(graft::model::scene::NodeId(2))
        .map(|d| d.name.to_string())
        .ok();
    assert_eq!(name.as_deref(), Some("saved elsewhere"));
    assert!(h.state().editor().disk_conflict().is_none());
}

#[test]
fn a_journal_that_cannot_start_shows_in_the_status_bar_until_retry_works() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("journal");
    std::fs::write(&blocked, "a file where the folder should be").unwrap();
    let path = dir.path().join("sword.ron");
    std::fs::copy("scenes/sword.ron", &path).unwrap();
    let mut h = app_on(&path, Some(&blocked));
    h.get_by_label("⚠ No crash journal");
    std::fs::remove_file(&blocked).unwrap();
    h.get_by_label("Retry").click();
    h.run_steps(3);
    assert!(h.query_by_label("⚠ No crash journal").is_none());
    assert!(h.state().editor().journaling());
}
