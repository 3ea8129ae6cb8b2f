//! The whole app driven through egui_kittest: real clicks and keys, a fake file dialog,
//! assertions on the app's state and on the files on disk.

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::{DialogOutcome, FakeDialogs};
use graft::editor::session::clipboard::trs_to_text;
use graft::editor::session::command::{FileCommand, PanelCommand, TransformSpace};
use graft::model::scene::NodeId;
use std::path::{Path, PathBuf};

fn app_on(path: Option<PathBuf>, fake: &FakeDialogs) -> Harness<'static, GraftApp> {
    let fake = fake.clone();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, path, Box::new(fake)));
    harness.run_steps(3);
    harness
}

fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::copy(Path::new("scenes").join(name), &path).unwrap();
    (dir, path)
}

fn name_of(h: &Harness<GraftApp>, id: u32) -> String {
    h.state().scene().node(NodeId(id)).unwrap().name.to_string()
}

fn rename(h: &mut Harness<GraftApp>, from: &str, to: &str) {
    h.get_by_label(from).click();
    h.run_steps(2);
    h.key_press(Key::F2);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.event(egui::Event::Text(to.to_string()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
}

#[test]
fn edit_undo_redo_save_round_trip_with_the_star() {
    let (_dir, path) = scratch("sword.ron");
    let fake = FakeDialogs::default();
    let mut h = app_on(Some(path.clone()), &fake);
    assert_eq!(h.state().doc().title(), "sword.ron — graft");
    rename(&mut h, "arm", "shoulder");
    assert_eq!(name_of(&h, 2), "shoulder");
    assert_eq!(h.state().doc().title(), "sword.ron* — graft");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(name_of(&h, 2), "arm");
    assert!(
        !h.state().doc().is_modified(),
        "undo back to the opened state clears the star"
    );

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(2);
    assert_eq!(name_of(&h, 2), "shoulder");
    assert!(h.state().doc().is_modified());

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert!(!h.state().doc().is_modified());
    let on_disk = graft::model::file::load(&path).unwrap();
    assert_eq!(on_disk.node(NodeId(2)).unwrap().name, "shoulder");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(
        h.state().doc().is_modified(),
        "undoing past the save brings the star back"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run_steps(2);
    assert!(!h.state().doc().is_modified());
}

#[test]
fn delete_and_duplicate_are_undoable() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    let start = h.state().scene().clone();
    h.get_by_label("hand").click();
    h.run_steps(2);
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert!(!h.state().scene().contains(NodeId(3)));
    assert!(
        !h.state().scene().contains(NodeId(4)),
        "the subtree goes with it"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(*h.state().scene() == start);
    h.get_by_label("arm").click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), start.len() + 3);
    assert_eq!(h.state().selection().len(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(*h.state().scene() == start);
}

#[test]
fn unsaved_changes_prompt_on_new_cancel_keeps_everything_discard_goes_on() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    rename(&mut h, "sword", "blade");
    let edited = h.state().scene().clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    assert!(
        h.query_by_role_and_label(Role::Dialog, "Unsaved changes")
            .is_some(),
        "the prompt is shown"
    );
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(
        h.query_by_role_and_label(Role::Dialog, "Unsaved changes")
            .is_none()
    );
    assert!(*h.state().scene() == edited);
    assert!(h.state().doc().is_modified());

    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert!(h.state().scene().is_empty());
    assert!(!h.state().doc().is_modified());
}

#[test]
fn closing_with_unsaved_changes_is_cancelled_then_asks() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    rename(&mut h, "hand", "fist");
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
    let cancelled = h
        .output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .is_some_and(|v| v.commands.contains(&egui::ViewportCommand::CancelClose));
    assert!(cancelled, "close is cancelled in the same frame");
    h.run_steps(2);
    assert!(
        h.query_by_role_and_label(Role::Dialog, "Unsaved changes")
            .is_some()
    );
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(name_of(&h, 3), "fist");
    assert!(!h.state().editor().quit_requested());

    // Save from the prompt: untitled, so the (fake) dialog asks where; then the window closes.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("kept.ron");
    fake.push(DialogOutcome::Picked(target.clone()));
    h.state_mut()
        .run(graft::editor::Command::File(FileCommand::Quit));
    h.run_steps(2);
    h.get_by_label("Save").click();
    h.run_steps(3);
    assert!(h.state().editor().quit_requested());
    assert_eq!(
        graft::model::file::load(&target)
            .unwrap()
            .node(NodeId(3))
            .unwrap()
            .name,
        "fist"
    );
}

#[test]
fn a_bad_file_shows_its_place_and_the_old_scene_stays() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "(\n  format: 1,\n  nodes: [(id: 1 name: \"x\")],\n)").unwrap();
    let fake = FakeDialogs::new([DialogOutcome::Picked(bad.clone())]);
    let mut h = app_on(None, &fake);
    let before = h.state().scene().clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(3);
    let message = h.state().editor().last_message().unwrap().clone();
    assert!(message.is_error);
    assert!(message.text.contains("bad.ron:3:"), "{}", message.text);
    assert!(
        h.query_all_by_label_contains("bad.ron:3:").count() >= 2,
        "shown in the error window and the status bar"
    );
    assert!(*h.state().scene() == before);
    assert_eq!(h.state().doc().path(), None);
}

#[test]
fn a_failing_save_says_why_and_keeps_the_star() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    rename(&mut h, "body", "torso");
    let dir = tempfile::tempdir().unwrap();
    fake.push(DialogOutcome::Picked(
        dir.path().join("missing-folder").join("x.ron"),
    ));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(3);
    assert_eq!(fake.requests().len(), 1, "untitled: Save asks where");
    assert!(h.state().doc().is_modified());
    assert!(
        h.state()
            .editor()
            .last_message()
            .unwrap()
            .text
            .contains("Could not save")
    );
    assert!(h.query_all_by_label_contains("Could not save").count() >= 2);
}

#[test]
fn without_a_native_dialog_a_path_field_opens_files() {
    let fake = FakeDialogs::new([DialogOutcome::Unavailable]);
    let mut h = app_on(None, &fake);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(3);
    assert!(
        h.query_by_role_and_label(
            Role::Dialog,
            "Open scene: type a .ron, .lesson, .tscn or .svg path"
        )
        .is_some()
    );
    let path = std::fs::canonicalize("scenes/shear.ron").unwrap();
    h.event(egui::Event::Text(path.to_str().unwrap().to_string()));
    h.run_steps(1);
    h.get_by_label("OK").click();
    h.run_steps(3);
    assert_eq!(h.state().doc().path(), Some(path.as_path()));
    assert_eq!(h.state().scene().len(), 4);
    assert_eq!(h.state().editor().recent().first(), Some(&path));
}

#[test]
fn history_window_jumps_to_a_step() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    let start = h.state().scene().clone();
    rename(&mut h, "arm", "shoulder");
    rename(&mut h, "hand", "fist");
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("History…").click();
    h.run_steps(3);
    h.get_by_label("(opened)").click();
    h.run_steps(2);
    assert!(*h.state().scene() == start);
    assert!(!h.state().doc().is_modified());
    h.get_by_label_contains("Rename hand to fist").click();
    h.run_steps(2);
    assert_eq!(name_of(&h, 3), "fist");
    assert_eq!(name_of(&h, 2), "shoulder");
}

#[test]
fn the_status_bar_counts_recomputed_world_matrices() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    assert_eq!(
        h.state().last_recomputed,
        0,
        "nothing changes between frames"
    );
    rename(&mut h, "hand", "fist"); // a rename changes no transform
    assert_eq!(h.state().last_recomputed, 0);
    // Moving the hand recomputes the hand and the sword: 2.
    h.state_mut().run(graft::editor::Command::Panel(
        PanelCommand::PasteTransform {
            node: NodeId(3),
            text: trs_to_text(&graft::model::math::Trs::IDENTITY),
            space: TransformSpace::Local,
        },
    ));
    h.run_steps(1);
    assert_eq!(h.state().editor().last_change_recomputed(), 2);
    assert!(h.query_by_label_contains("(last change: 2)").is_some());
}

#[test]
fn a_modal_shows_on_the_frame_that_opens_it() {
    let fake = FakeDialogs::default();
    let mut h = app_on(None, &fake);
    rename(&mut h, "arm", "shoulder");
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.step(); // one frame: the shortcut is applied, then the windows are drawn
    assert!(
        h.query_by_label_contains("Save the changes").is_some(),
        "the unsaved-changes prompt is up on the same frame"
    );
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(name_of(&h, 2), "shoulder", "cancel keeps everything");
}

#[test]
fn the_side_panels_keep_their_width_when_the_selection_changes() {
    let fake = FakeDialogs::default();
    let mut h = app_on(Some(PathBuf::from("scenes/shear.ron")), &fake);
    h.run_steps(3);
    let before = h.state().viewport.last_rect;
    for name in ["rotated child", "stretched", "fixed"] {
        h.get_by_label(name).click();
        h.run_steps(3);
        let now = h.state().viewport.last_rect;
        assert!(
            (now.left() - before.left()).abs() < 0.5 && (now.right() - before.right()).abs() < 0.5,
            "selecting {name} moved the viewport: {before:?} -> {now:?}"
        );
    }
}

#[test]
fn the_built_in_scene_shows_its_sprite_from_the_binary() {
    // No file: the sample scene's "../assets/sword.png" resolves against the working folder,
    // where it does not exist; the image compiled into graft is drawn instead.
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(4);
    assert!(h.state().doc().path().is_none());
    assert!(!std::path::Path::new("../assets/sword.png").exists());
    fn textured(shape: &egui::Shape) -> bool {
        match shape {
            egui::Shape::Vec(list) => list.iter().any(textured),
            egui::Shape::Mesh(mesh) => mesh.texture_id != egui::TextureId::default(),
            _ => false,
        }
    }
    assert!(
        h.output().shapes.iter().any(|c| textured(&c.shape)),
        "the sword is drawn with its image"
    );
}
