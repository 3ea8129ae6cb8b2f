//! The recovery prompt in the real app (egui_kittest): after a session ended without a clean
//! end, the window asks before anything else; Enter recovers the scene and its history, and
//! Ctrl+Z walks back through it. Later and Discard close the prompt and keep the scene.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::Editor;
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
    let _ = shadow.apply(graft::editor::session::command::Command::Undo);
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
