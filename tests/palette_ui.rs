//! The command palette and the keymap in the running app: every table shortcut is a real egui
//! key, and the palette finds "Duplicate" by typing "dup", shows Ctrl+D beside it and runs it
//! on the selection as one undo step.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::table::command_table;
use graft::model::scene::NodeId;
use std::path::PathBuf;

fn app() -> Harness<'static, GraftApp> {
    let path = PathBuf::from("scenes/sword.ron");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

#[test]
fn every_table_shortcut_names_an_egui_key() {
    for spec in command_table() {
        for s in &spec.shortcuts {
            assert!(
                Key::from_name(s.key).is_some(),
                "{}: no egui key {}",
                spec.name,
                s.key
            );
        }
    }
}

#[test]
fn the_palette_finds_duplicate_by_typing_dup_and_runs_it_as_one_step() {
    let mut h = app();
    h.get_by_label("hand").click();
    h.run_steps(2);
    let n = h.state().scene().len();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.run_steps(2);
    h.event(egui::Event::Text("dup".into()));
    h.run_steps(2);
    let duplicate_with_shortcut = egui_kittest::kittest::By::new().predicate(|n| {
        n.label()
            .is_some_and(|l| l.starts_with("Duplicate") && l.contains("Ctrl+D"))
    });
    assert!(
        h.query(duplicate_with_shortcut).is_some(),
        "Duplicate is offered with Ctrl+D beside it"
    );
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().scene().len(), n + 2, "hand and sword copied");
    assert_eq!(
        h.state().doc().history().labels().0,
        vec!["Duplicate hand"],
        "one undo step"
    );
    assert!(
        h.query_by_label_contains("Type a command").is_none(),
        "the palette closed"
    );
    let copy = *h.state().selection().last().unwrap();
    assert_ne!(copy, NodeId(3), "the copy is selected");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), n);
}

#[test]
fn f1_opens_the_palette_and_escape_closes_it_without_running_anything() {
    let mut h = app();
    h.key_press(Key::F1);
    h.run_steps(2);
    assert!(
        h.state()
            .editor()
            .is_open(graft::editor::session::command::Window::Palette)
    );
    h.event(egui::Event::Text("frame".into()));
    h.run_steps(1);
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert!(
        !h.state()
            .editor()
            .is_open(graft::editor::session::command::Window::Palette)
    );
    assert!(!h.state().doc().is_modified());
}

#[test]
fn w_e_r_and_x_switch_tools_from_the_keyboard() {
    use graft::editor::view::handles::{Orientation, Tool};
    let mut h = app();
    h.key_press(Key::E);
    h.run_steps(1);
    assert_eq!(h.state().editor().tool(), Tool::Rotate);
    h.key_press(Key::R);
    h.run_steps(1);
    assert_eq!(h.state().editor().tool(), Tool::Scale);
    h.key_press(Key::W);
    h.run_steps(1);
    assert_eq!(h.state().editor().tool(), Tool::Move);
    h.key_press(Key::X);
    h.run_steps(1);
    assert_eq!(h.state().editor().orientation(), Orientation::World);
}

#[test]
fn ctrl_a_selects_every_node_and_delete_then_removes_them_as_one_step() {
    let mut h = app();
    let ids = h.state().scene().ids().to_vec();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    assert_eq!(h.state().editor().selection(), ids.as_slice());
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert!(h.state().scene().is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().ids(), ids.as_slice());
}
