//! Every panel readable (issue 39.2), through egui's AccessKit tree in kittest: the
//! inspector's number fields say what they are ("sword, world position x") with their value,
//! the timeline's two time fields are told apart, icon buttons have names, and a node without
//! a name is read as "unnamed node N".

mod ui_common;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use graft::app::GraftApp;
use graft::editor::session::command::{EditCommand, PanelCommand};

fn app() -> Harness<'static, GraftApp> {
    let (dir, path) = ui_common::scene_file(&std::fs::read_to_string("scenes/sword.ron").unwrap());
    let h = ui_common::app_on_path(path);
    std::mem::forget(dir);
    h
}

/// True when a node called `label` reads `value`.
fn has_value(h: &Harness<GraftApp>, label: &'static str, value: f64) -> bool {
    h.query(By::new().predicate(move |n| {
        n.label().as_deref() == Some(label)
            && n.numeric_value().is_some_and(|v| (v - value).abs() < 1e-4)
    }))
    .is_some()
}

#[test]
fn the_swords_world_position_fields_are_labelled_with_their_values() {
    let mut h = app();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    h.key_press(Key::ArrowUp);
    h.run_steps(3);
    for (label, value) in [
        ("sword, world position x", 2.0),
        ("sword, world position y", 3.0),
        ("sword, local position x", 1.0),
    ] {
        assert!(has_value(&h, label, value), "{label} reads {value}");
    }
    h.get_by_label("sword, world rotation");
    h.get_by_label("sword, local scale y");
}

#[test]
fn time_fields_icon_buttons_and_unnamed_nodes_have_names() {
    let mut h = app();
    h.get_by_label("current time, seconds");
    h.get_by_label("clip length, seconds");
    h.get_by_label("Stop");
    h.get_by_label("Add a root node").click();
    h.run_steps(3);
    // The new node is called "node"; rename it to nothing and it is read by its id.
    let id = *h.state().selection().last().unwrap();
    h.state_mut()
        .run(graft::editor::session::command::Command::Panel(
            PanelCommand::Rename {
                node: id,
                name: String::new(),
            },
        ));
    h.run_steps(3);
    h.get_by_label(&format!("unnamed node {id}"));
}

/// The text of the polite live region (the status node a screen reader reads out on change).
fn announced(h: &Harness<GraftApp>) -> String {
    let live = h.get(By::new().predicate(|n| {
        n.role() == egui::accesskit::Role::Status && n.live() == egui::accesskit::Live::Polite
    }));
    live.accesskit_node().label().unwrap_or_default()
}

#[test]
fn the_selection_and_what_an_action_changed_are_announced() {
    let mut h = app();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    assert_eq!(
        announced(&h),
        "5 nodes selected: body, arm, hand, sword, scabbard"
    );
    h.key_press(Key::ArrowUp);
    h.run_steps(2);
    assert_eq!(announced(&h), "sword selected, world position (2, 3)");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::M);
    h.run_steps(2);
    h.event(egui::Event::Text("body".into()));
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(
        announced(&h),
        "sword reparented to body, keeping world position (2, 3)"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(announced(&h), "Undo: Reparent sword to body");
}

/// True when the tree has a node of this role called `label`.
fn has(h: &Harness<GraftApp>, role: egui::accesskit::Role, label: &'static str) -> bool {
    // A label's text is its value; any other node's name is its label.
    h.query_all(By::new().predicate(move |n| {
        n.role() == role
            && (n.label().as_deref() == Some(label) || n.value().as_deref() == Some(label))
    }))
    .next()
    .is_some()
}

#[test]
fn dialogs_the_palette_and_the_panels_have_roles_and_names() {
    use egui::accesskit::Role;
    let mut h = app();
    for panel in ["Timeline", "Hierarchy", "Inspector", "Viewport"] {
        assert!(has(&h, Role::Pane, panel), "the {panel} panel is named");
    }
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.run_steps(2);
    assert!(has(&h, Role::TextInput, "Command: type part of its name"));
    h.key_press(Key::Escape);
    h.run_steps(2);
    // The sword is its parent's only child: Alt+Up is refused and the problem window says why.
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    h.key_press(Key::ArrowUp);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.run_steps(2);
    assert!(has(&h, Role::Window, "Problem"));
    assert!(has(
        &h,
        Role::Label,
        "sword is already first among its siblings"
    ));
    h.get_by_label("OK").click();
    h.run_steps(2);
    assert!(!has(&h, Role::Window, "Problem"));
    h.state_mut()
        .run(graft::editor::session::command::Command::Edit(
            EditCommand::Nudge {
                direction: (1, 0),
                big: false,
            },
        ));
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    assert!(has(&h, Role::Dialog, "Unsaved changes"));
    for button in ["Save", "Discard", "Cancel"] {
        assert!(has(&h, Role::Button, button));
    }
}

#[test]
fn the_lesson_panel_reads_its_steps_and_each_goal_as_a_check_box_with_its_state() {
    use egui::accesskit::{Role, Toggled};
    use graft::editor::session::command::Command;
    use graft::editor::session::lesson::{LessonCommand, LessonSource};
    let mut h = app();
    let path = std::path::PathBuf::from("assets/lessons/01-local-world.lesson");
    h.state_mut()
        .run(Command::Lesson(LessonCommand::Open(LessonSource::File(
            path,
        ))));
    h.run_steps(3);
    h.state_mut().run(Command::Lesson(LessonCommand::Begin));
    h.run_steps(3);
    assert!(has(&h, Role::Pane, "Lesson"));
    let run = h.state().editor().lesson().expect("the lesson is open");
    let first = format!("Step 1: {}", run.lesson().steps[0].title);
    let goals: Vec<(String, bool)> = run
        .checklist()
        .into_iter()
        .map(|(goal, holds)| (goal.label.clone(), holds))
        .collect();
    h.get_by_label(&first);
    assert!(!goals.is_empty());
    for (label, holds) in goals {
        let want = if holds { Toggled::True } else { Toggled::False };
        let found = h.query(By::new().predicate(move |n| {
            n.role() == Role::CheckBox
                && n.label().as_deref() == Some(label.as_str())
                && n.toggled() == Some(want)
        }));
        assert!(found.is_some(), "a check box for a goal, {want:?}");
    }
}

/// (description with the expanded state, place among its siblings from 0, number of
/// siblings) of a hierarchy row: the number is on the row's container, where AT-SPI looks for
/// it; the level is the node's and its description's.
fn row_place(h: &Harness<GraftApp>, name: &str) -> (String, Option<usize>, Option<usize>) {
    let row = h.get_by_role_and_label(egui::accesskit::Role::TreeItem, name);
    let node = row.accesskit_node();
    let size = node.parent().and_then(|group| group.size_of_set());
    let description = node.description().unwrap_or_default();
    assert_eq!(
        Some(description.as_str()),
        node.level().map(|l| format!("level {l}")).as_deref()
    );
    let state = match node.data().is_expanded() {
        Some(true) => "expanded",
        Some(false) => "collapsed",
        None => "no children",
    };
    (
        format!("{description}, {state}"),
        node.position_in_set(),
        size,
    )
}

#[test]
fn hierarchy_rows_say_their_level_state_and_place_among_their_siblings() {
    let mut h = app();
    let place = |d: &str, at, of| (d.to_string(), Some(at), Some(of));
    assert_eq!(row_place(&h, "body"), place("level 1, expanded", 0, 1));
    assert_eq!(row_place(&h, "arm"), place("level 2, expanded", 0, 2));
    assert_eq!(row_place(&h, "sword"), place("level 4, no children", 0, 1));
    assert_eq!(
        row_place(&h, "scabbard"),
        place("level 2, no children", 1, 2)
    );
    h.get_by_label("Collapse arm").click();
    h.run_steps(3);
    assert_eq!(row_place(&h, "arm"), place("level 2, collapsed", 0, 2));
}

/// Under a filter a row counts only the siblings shown: "sc" shows the body and the
/// scabbard, which is then "1 of 1", not "2 of 2" with the arm hidden.
#[test]
fn a_filtered_row_counts_the_siblings_shown() {
    let mut h = app();
    let field = h.get_by_label("Filter rows by name");
    field.focus();
    field.type_text("sc");
    h.run_steps(3);
    let place = |d: &str, at, of| (d.to_string(), Some(at), Some(of));
    assert_eq!(
        row_place(&h, "scabbard"),
        place("level 2, no children", 0, 1)
    );
    assert!(h.query_by_label("arm").is_none(), "the arm is filtered out");
}

#[test]
fn fields_canvases_and_the_play_button_have_roles_and_names() {
    use egui::accesskit::Role;
    let mut h = app();
    assert!(has(&h, Role::TextInput, "Filter rows by name"));
    assert!(has(&h, Role::Canvas, "Viewport: 5 nodes, nothing selected"));
    let animated = h.state().editor().doc().scene().animated_nodes().len();
    let tracks = format!("Keyframe tracks, animated nodes: {animated}");
    let tracks = h.get_by_role_and_label(Role::Canvas, &tracks);
    assert!(tracks.rect().height() > 0.0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    assert!(has(
        &h,
        Role::Canvas,
        "Viewport: 5 nodes, selected: scabbard and 4 more"
    ));
    h.key_press(Key::ArrowUp);
    h.run_steps(3);
    assert!(has(&h, Role::Canvas, "Viewport: 5 nodes, selected: sword"));
    assert!(has(&h, Role::TextInput, "sword, name"));
    assert!(has(&h, Role::TextInput, "Transform to paste, as text"));
    // Read as "Play" / "Pause", without the glyph (a click gives the timeline the keyboard).
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run_steps(2);
    assert!(h.state().editor().timeline().playing());
    h.get_by_role_and_label(Role::Button, "Pause").click();
    h.run_steps(2);
    assert!(!h.state().editor().timeline().playing());
}
