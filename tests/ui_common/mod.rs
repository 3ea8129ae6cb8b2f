//! Helpers shared by the egui_kittest tests: scene files in temporary folders, the app on a
//! file, typing into a spin button, and world → screen in the running app.
#![allow(dead_code)]

use egui::{Key, Pos2, Rect};
use egui_kittest::Harness;
use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::view::camera::ScreenRect;
use std::path::PathBuf;

/// A scene file with this text in a temporary folder.
pub fn scene_file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.ron");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// The app on a file, in a 1400×900 window, a few frames in.
pub fn app_on_path(path: PathBuf) -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(5);
    h
}

/// Click a spin button to edit it and select its text.
pub fn start_editing(h: &mut Harness<GraftApp>, field: Rect) {
    h.hover_at(field.center());
    h.run_steps(1);
    h.drag_at(field.center());
    h.run_steps(1);
    h.drop_at(field.center());
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
}

/// Click a spin button to edit it, replace its text, press Enter.
pub fn type_number(h: &mut Harness<GraftApp>, field: Rect, text: &str) {
    start_editing(h, field);
    h.event(egui::Event::Text(text.into()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
}

/// An egui rectangle as the editor layer's screen rectangle.
pub fn view(r: Rect) -> ScreenRect {
    ScreenRect {
        min: Vec2::new(r.min.x, r.min.y),
        max: Vec2::new(r.max.x, r.max.y),
    }
}

/// Where a world point is on screen in the running app.
pub fn on_screen(h: &Harness<GraftApp>, p: Vec2) -> Pos2 {
    let v = &h.state().viewport;
    let s = v.camera.to_screen(view(v.last_rect), p);
    Pos2::new(s.x, s.y)
}

/// A hierarchy row's rect: the leftmost widget labelled `name` (the viewport may show the
/// same name further right).
pub fn row(h: &Harness<GraftApp>, name: &str) -> Rect {
    use egui_kittest::kittest::Queryable;
    h.query_all_by_label(name)
        .map(|n| n.rect())
        .min_by(|a, b| a.left().total_cmp(&b.left()))
        .expect("a row")
}

/// Press on `from`, move to `to` in five frames, release there.
pub fn drag(h: &mut Harness<GraftApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(2);
    for k in 1..=5 {
        h.hover_at(from + (to - from) * (k as f32 / 5.0));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(4);
}
