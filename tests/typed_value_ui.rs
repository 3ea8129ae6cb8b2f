//! A typed value is one edit (issue 44): typing `50` + Enter into any number field that edits
//! the scene — the inspector's local and world columns, a shape's size, a probe, the clip's
//! length — makes one history entry and one journal record, typed key by key as a person types
//! (a frame between keys). Esc cancels a typed value.

mod ui_common;

use egui::{Key, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::model::journal::summarize;
use graft::model::scene::NodeId;
use std::path::PathBuf;

const SCENE: &str = "(
    format: 3,
    clip: (length: 12.0, mode: Loop),
    nodes: [
        (id: 1, name: \"body\", position: (5.0, 0.0), shape: Rect(size: (1.4, 2.4)),
            tracks: [(channel: Rotation, keys: [(time: 0.0, value: 0.0), (time: 12.0, value: 360.0)])]),
        (id: 2, name: \"arm\", parent: Some(1), position: (0.0, 2.0), rotation: 90.0,
            probes: [(0.5, 0.5)]),
    ],
)";

/// The app on the scene above with the crash journal on, the arm selected.
fn app(dir: &tempfile::TempDir) -> Harness<'static, GraftApp> {
    let file = dir.path().join("typed.ron");
    std::fs::write(&file, SCENE).unwrap();
    let journal = dir.path().join("journal");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| {
            GraftApp::new_journaled(
                cc,
                Some(file),
                Box::new(FakeDialogs::default()),
                Some(journal),
            )
        });
    h.run_steps(5);
    h
}

/// Steps done (undo can take back) and journaled history changes so far.
fn counts(h: &Harness<GraftApp>) -> (usize, usize) {
    let steps = h.state().doc().history().labels().1;
    let path: PathBuf = h
        .state()
        .editor()
        .journal_path()
        .expect("journaling")
        .to_path_buf();
    let bytes = std::fs::read(path).expect("the journal reads");
    (steps, summarize(&bytes).expect("a journal").changes)
}

/// Click into a spin button, select its text, type `text` one key per frame, then `end`.
fn type_keys(h: &mut Harness<GraftApp>, field: Rect, text: &str, end: Key) {
    ui_common::start_editing(h, field);
    for c in text.chars() {
        h.event(egui::Event::Text(c.to_string()));
        h.run_steps(1);
    }
    h.key_press(end);
    h.run_steps(3);
}

/// The spin button screen readers call `name`.
fn field(h: &Harness<GraftApp>, name: &str) -> Rect {
    h.query_all(egui_kittest::kittest::By::new().label(name))
        .map(|n| n.rect())
        .next()
        .unwrap_or_else(|| panic!("no field {name:?}"))
}

/// Type `50` + Enter into the field `name`: one more undo step and one more journal record.
fn one_step_for(h: &mut Harness<GraftApp>, name: &str) {
    let before = counts(h);
    let rect = field(h, name);
    type_keys(h, rect, "50", Key::Enter);
    let after = counts(h);
    assert_eq!(
        after.0,
        before.0 + 1,
        "{name}: one undo step for `50` + Enter: {:?}",
        h.state().doc().history().labels()
    );
    assert_eq!(
        after.1,
        before.1 + 1,
        "{name}: one journal record for `50` + Enter"
    );
}

#[test]
fn typing_50_then_enter_is_one_step_and_one_journal_record_in_every_kind_of_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&dir);
    h.get_by_label("arm").click();
    h.run_steps(4);
    for name in [
        "arm, local position x",
        "arm, world position y",
        "arm, local rotation",
        "arm, world scale x",
    ] {
        one_step_for(&mut h, name);
    }
    let arm = h.state().scene().node(NodeId(2)).unwrap().local;
    assert_eq!(arm.position.x, 50.0, "the typed local x");
    assert_eq!(arm.rotation, 50.0, "the typed rotation");
    // Undo once: only the last typed value is taken back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run_steps(3);
    assert_eq!(
        h.state().scene().node(NodeId(2)).unwrap().local.rotation,
        50.0
    );
    // A probe's local x, the arm's probe; the body's shape width.
    one_step_for(&mut h, "probe 1 x in arm");
    h.get_by_label("body").click();
    h.run_steps(4);
    h.get_by_label("Appearance").click();
    h.run_steps(4);
    one_step_for(&mut h, "shape width");
    one_step_for(&mut h, "clip length, seconds");
    assert_eq!(h.state().scene().clip().length, 50.0);
}

#[test]
fn esc_cancels_a_typed_value() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&dir);
    h.get_by_label("arm").click();
    h.run_steps(4);
    let before = counts(&h);
    let rect = field(&h, "arm, local position x");
    type_keys(&mut h, rect, "50", Key::Escape);
    assert_eq!(counts(&h), before, "nothing recorded");
    assert_eq!(
        h.state().scene().node(NodeId(2)).unwrap().local.position.x,
        0.0
    );
}
