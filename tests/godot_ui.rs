//! Godot scenes in the running app: a `.tscn` dropped on the window is imported (its report in a
//! window, the old scene kept when the file is bad); File > Export as Godot scene writes a
//! `.tscn` that imports back to the same world matrices.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::{DialogOutcome, FakeDialogs};
use graft::editor::session::dialogs::DialogKind;
use std::path::PathBuf;

const CRANE: &str = "examples/godot-crane/crane.tscn";

fn app(fake: &FakeDialogs) -> Harness<'static, GraftApp> {
    let fake = fake.clone();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, None, Box::new(fake)));
    h.run_steps(3);
    h
}

/// A file dropped on the window, as the windowing integration hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(h: &mut Harness<GraftApp>, path: PathBuf) {
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path)));
    h.run_steps(3);
}

#[test]
fn a_dropped_tscn_is_imported_with_its_report_and_exports_back() {
    let fake = FakeDialogs::default();
    let mut h = app(&fake);
    drop_file(&mut h, PathBuf::from(CRANE));
    let scene = h.state().scene().clone();
    assert_eq!(scene.len(), 15);
    assert_eq!(
        h.state().doc().path(),
        None,
        "an import is a new, untitled scene"
    );
    assert!(
        h.query_all_by_label_contains("Imported crane.tscn").count() >= 2,
        "the report window and the status bar"
    );
    assert!(
        h.query_by_label_contains("CanvasLayer \"HUD\" imported as a root")
            .is_some()
    );
    assert!(h.query_by_label("HUD").is_some(), "in the hierarchy");

    // File > Export as Godot scene, to a picked path; the report says where it went.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.tscn");
    fake.push(DialogOutcome::Picked(target.clone()));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::E);
    h.run_steps(3);
    assert!(matches!(
        fake.requests().last(),
        Some(DialogKind::Export { .. })
    ));
    assert!(target.exists(), "{:?}", h.state().editor().last_message());
    let back = graft::model::godot::import_file(&target).unwrap().scene;
    assert_eq!(back.len(), scene.len() + 1, "under one root Node2D");
    for i in 0..scene.len() {
        let name = &scene.data_at(i).name;
        let j = (0..back.len())
            .find(|&j| back.data_at(j).name == *name)
            .unwrap();
        let (a, b) = (scene.world_at(i), back.world_at(j));
        let tol = 1e-5 * a.to_cols_array().iter().fold(1.0f32, |m, v| m.max(v.abs()));
        for (x, y) in a.to_cols_array().iter().zip(b.to_cols_array()) {
            assert!((x - y).abs() <= tol, "{name}: {a:?} vs {b:?}");
        }
    }
}

#[test]
fn a_broken_tscn_says_where_and_the_old_scene_stays() {
    let fake = FakeDialogs::default();
    let mut h = app(&fake);
    let before = h.state().scene().clone();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tscn");
    std::fs::write(
        &bad,
        "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\nposition = Vector2(1, \n",
    )
    .unwrap();
    drop_file(&mut h, bad);
    assert!(*h.state().scene() == before);
    let message = h.state().editor().last_message().unwrap().clone();
    assert!(message.is_error);
    assert!(message.text.contains("bad.tscn:4:"), "{}", message.text);
    let binary = dir.path().join("level.scn");
    std::fs::write(&binary, b"RSCC\x00\x01").unwrap();
    drop_file(&mut h, binary);
    assert!(*h.state().scene() == before);
    let text = &h.state().editor().last_message().unwrap().text;
    assert!(text.contains("binary Godot scene"), "{text}");
}
