//! Focus that stays (issue 45): after each of twenty commands given by keys alone, the object
//! with the accessibility focus (what a screen reader is on) is named, and it lies inside the
//! panel graft says has the keyboard, or inside the window or dialog the command opened.

mod ui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use graft::app::GraftApp;
use graft::editor::session::arrange::Panel;

fn app() -> Harness<'static, GraftApp> {
    let (dir, path) = ui_common::scene_file(&std::fs::read_to_string("scenes/sword.ron").unwrap());
    let h = ui_common::app_on_path(path);
    std::mem::forget(dir); // the file must outlive the harness (a save writes next to it)
    h
}

/// Where the focus should be after a command.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// Inside the panel that has graft's keyboard (which must be this one).
    Panel(Panel),
    /// Inside the window or dialog with this name.
    Window(&'static str),
}

/// One step: what it is called, its keys, where the focus lands.
struct Step {
    name: &'static str,
    keys: &'static [(Modifiers, Key)],
    text: Option<&'static str>,
    place: Place,
}

const NONE: Modifiers = Modifiers::NONE;
const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};

/// The name a panel's pane has on the accessibility tree.
fn pane_name(panel: Panel) -> &'static str {
    match panel {
        Panel::Hierarchy => "Hierarchy",
        Panel::Viewport => "Viewport",
        Panel::Inspector => "Inspector",
        Panel::Timeline => "Timeline",
        Panel::Lesson => "Lesson",
    }
}

/// The focused object's name and the names of the panes and windows it lies in, innermost
/// first; None when nothing has the focus.
fn focus_and_containers(h: &Harness<GraftApp>) -> Option<(String, Vec<(Role, String)>)> {
    let node = h.query(By::new().predicate(|n| n.is_focused()))?;
    let node = node.accesskit_node();
    let name = node.label().or_else(|| node.value()).unwrap_or_default();
    let mut containers = Vec::new();
    let mut at = node.parent();
    while let Some(n) = at {
        if matches!(n.role(), Role::Pane | Role::Window | Role::Dialog) {
            containers.push((n.role(), n.label().unwrap_or_default()));
        }
        at = n.parent();
    }
    Some((name, containers))
}

fn check(h: &Harness<GraftApp>, step: &Step) {
    let (name, containers) = focus_and_containers(h)
        .unwrap_or_else(|| panic!("after {}: nothing has the focus", step.name));
    assert!(
        !name.trim().is_empty(),
        "after {}: the focused object has no name (in {containers:?})",
        step.name
    );
    let inside = |want: &str| containers.iter().any(|(_, n)| n == want);
    match step.place {
        Place::Panel(panel) => {
            assert_eq!(
                h.state().editor().focused_panel(),
                panel,
                "after {}: the panel with the keyboard",
                step.name
            );
            assert!(
                inside(pane_name(panel)),
                "after {}: {name:?} is not in the {panel:?} panel but in {containers:?}",
                step.name
            );
        }
        Place::Window(window) => assert!(
            inside(window),
            "after {}: {name:?} is not in the window {window:?} but in {containers:?}",
            step.name
        ),
    }
    eprintln!("{:<34} → {name:?}", step.name);
}

fn run(h: &mut Harness<GraftApp>, step: &Step) {
    for &(modifiers, key) in step.keys {
        h.key_press_modifiers(modifiers, key);
        h.run_steps(3);
    }
    if let Some(text) = step.text {
        h.event(egui::Event::Text(text.into()));
        h.run_steps(2);
        h.key_press(Key::Enter);
        h.run_steps(3);
    }
    check(h, step);
}

#[rustfmt::skip]
const STEPS: [Step; 20] = [
    step("Ctrl+A, Up (select the sword)", &[(CTRL, Key::A), (NONE, Key::ArrowUp)], None, Place::Panel(Panel::Hierarchy)),
    step("Down (the scabbard)", &[(NONE, Key::ArrowDown)], None, Place::Panel(Panel::Hierarchy)),
    step("Up (the sword again)", &[(NONE, Key::ArrowUp)], None, Place::Panel(Panel::Hierarchy)),
    step("F6 (the viewport)", &[(NONE, Key::F6)], None, Place::Panel(Panel::Viewport)),
    step("Right (a nudge)", &[(NONE, Key::ArrowRight)], None, Place::Panel(Panel::Viewport)),
    step("Ctrl+Z (undo the nudge)", &[(CTRL, Key::Z)], None, Place::Panel(Panel::Viewport)),
    step("F6 (the inspector)", &[(NONE, Key::F6)], None, Place::Panel(Panel::Inspector)),
    step("F6 (the timeline)", &[(NONE, Key::F6)], None, Place::Panel(Panel::Timeline)),
    step("F6 (the hierarchy)", &[(NONE, Key::F6)], None, Place::Panel(Panel::Hierarchy)),
    step("Ctrl+Shift+M (Move to…)", &[(CTRL_SHIFT, Key::M)], None, Place::Window("Move to…")),
    step("body, Enter (reparented)", &[], Some("body"), Place::Panel(Panel::Hierarchy)),
    step("Ctrl+Z (undo the reparent)", &[(CTRL, Key::Z)], None, Place::Panel(Panel::Hierarchy)),
    step("Ctrl+Shift+Z (redo it)", &[(CTRL_SHIFT, Key::Z)], None, Place::Panel(Panel::Hierarchy)),
    step("F2, blade, Enter (rename)", &[(NONE, Key::F2)], Some("blade"), Place::Panel(Panel::Hierarchy)),
    step("Alt+Up (reorder)", &[(Modifiers::ALT, Key::ArrowUp)], None, Place::Panel(Panel::Hierarchy)),
    step("Ctrl+D (duplicate)", &[(CTRL, Key::D)], None, Place::Panel(Panel::Hierarchy)),
    step("Delete (the copy)", &[(NONE, Key::Delete)], None, Place::Panel(Panel::Hierarchy)),
    step("Ctrl+Shift+P (palette)", &[(CTRL_SHIFT, Key::P)], None, Place::Window("Command palette")),
    step("Escape (palette closed)", &[(NONE, Key::Escape)], None, Place::Panel(Panel::Hierarchy)),
    step("Ctrl+N (unsaved changes)", &[(CTRL, Key::N)], None, Place::Window("Unsaved changes")),
];

/// True when the last frame outlined the row `name` (the focused row's ring: a 2-point
/// outline one row high around the row's name; the panel's ring is far taller).
fn ringed(h: &Harness<GraftApp>, name: &str) -> bool {
    let text = h.get_by_role_and_label(Role::TreeItem, name).rect();
    h.output()
        .shapes
        .iter()
        .any(|clipped| match &clipped.shape {
            egui::Shape::Rect(r) => {
                r.stroke.width >= 2.0 && r.rect.contains_rect(text) && r.rect.height() < 40.0
            }
            _ => false,
        })
}

#[rustfmt::skip]
const fn step(name: &'static str, keys: &'static [(Modifiers, Key)], text: Option<&'static str>, place: Place) -> Step {
    Step { name, keys, text, place }
}

/// Twenty commands by keys alone: after each, the accessibility focus is on a named object in
/// the panel that has graft's keyboard (or in the window the command opened).
#[test]
fn after_each_command_the_focus_is_named_and_in_the_panel_with_the_keyboard() {
    let mut h = app();
    run(&mut h, &STEPS[0]);
    assert!(ringed(&h, "sword"), "the focused row shows its focus");
    for step in &STEPS[1..] {
        run(&mut h, step);
    }
    // F2 selected the whole name: "blade" replaced "sword".
    let names: Vec<String> = (0..h.state().scene().len())
        .map(|i| h.state().scene().data_at(i).name.to_string())
        .collect();
    assert!(names.contains(&"blade".to_string()), "{names:?}");
}

/// The focused object's name and description (what Orca speaks of it).
fn focused(h: &Harness<GraftApp>) -> (String, String) {
    let node = h.query(By::new().predicate(|n| n.is_focused()));
    let node = node.expect("something has the focus");
    let node = node.accesskit_node();
    let name = node.label().unwrap_or_default();
    (name, node.description().unwrap_or_default())
}

/// Delete in the hierarchy: the keyboard and the selection go to the next row (the row above
/// when the deleted one was the last), which shows its ring and says what was deleted, not
/// to the first row or the window.
#[test]
fn after_delete_the_next_row_has_the_focus_and_the_selection() {
    use graft::model::scene::NodeId;
    let mut h = app();
    // body, arm, hand, sword, scabbard: Ctrl+A, Up selects the sword, Up the hand.
    run(&mut h, &STEPS[0]);
    h.key_press(Key::ArrowUp);
    h.run_steps(3);
    assert_eq!(focused(&h).0, "hand");
    h.key_press(Key::Delete);
    h.run_steps(3);
    let (name, said) = focused(&h);
    assert_eq!(name, "scabbard", "the next row after the hand's subtree");
    assert_eq!(h.state().editor().selection(), [NodeId(5)]);
    assert!(
        said.starts_with("Delete hand. scabbard selected"),
        "{said:?}"
    );
    assert!(ringed(&h, "scabbard"), "the next row shows its focus");
    h.key_press(Key::Delete);
    h.run_steps(3);
    let (name, said) = focused(&h);
    assert_eq!(name, "arm", "the row above the last one");
    assert_eq!(h.state().editor().selection(), [NodeId(2)]);
    assert!(
        said.starts_with("Delete scabbard. arm selected"),
        "{said:?}"
    );
    assert_eq!(h.state().editor().focused_panel(), Panel::Hierarchy);
}

/// Delete of the last row when the row above it is folded under a collapsed parent: the
/// selection goes to that row (the sword, above the scabbard in the scene), its parents are
/// expanded so it shows, and it has the keyboard (it went to the first row, the body).
#[test]
fn after_deleting_the_last_row_a_folded_row_above_is_shown_and_focused() {
    use graft::model::scene::NodeId;
    let mut h = app();
    run(&mut h, &STEPS[0]); // the sword
    for key in [Key::ArrowUp, Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown] {
        h.key_press(key); // the hand, the arm, the arm folded, the scabbard
        h.run_steps(3);
    }
    assert_eq!(focused(&h).0, "scabbard");
    assert!(
        h.query_by_role_and_label(Role::TreeItem, "sword").is_none(),
        "folded"
    );
    h.key_press(Key::Delete);
    h.run_steps(4);
    assert_eq!(h.state().editor().selection(), [NodeId(4)]);
    let (name, said) = focused(&h);
    assert_eq!(name, "sword", "the row above, shown");
    assert!(
        said.starts_with("Delete scabbard. sword selected"),
        "{said:?}"
    );
    assert!(ringed(&h, "sword"), "it shows its focus");
    assert_eq!(h.state().editor().focused_panel(), Panel::Hierarchy);
}

/// A key pressed and let go with `modifiers`, with the text it types.
fn keystroke(key: Key, modifiers: Modifiers, text: Option<&str>) -> Vec<egui::Event> {
    let event = |pressed| egui::Event::Key {
        key,
        physical_key: Some(key),
        pressed,
        repeat: false,
        modifiers,
    };
    let mut out = vec![event(true)];
    out.extend(text.map(|t| egui::Event::Text(t.into())));
    out.push(event(false));
    out
}

/// Hand `events` to the app at once, as a fast typist or xdotool on a slow frame does, through
/// the app's own key queue (eframe's raw-input hook, which kittest does not call), and run
/// frames until the queue is empty. Returns, per frame, the text typed in it.
fn through_the_key_queue(h: &mut Harness<GraftApp>, events: Vec<egui::Event>) -> Vec<String> {
    use eframe::App as _;
    let mut frames = Vec::new();
    let mut pending = events;
    let mut idle_frames = 0; // the queue leaves one frame empty between keys, never three
    while idle_frames < 3 && frames.len() < 200 {
        let mut raw = egui::RawInput {
            events: std::mem::take(&mut pending),
            ..Default::default()
        };
        let ctx = h.ctx.clone();
        h.state_mut().raw_input_hook(&ctx, &mut raw);
        let typed: String = (raw.events.iter())
            .filter_map(|e| match e {
                egui::Event::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        idle_frames = if raw.events.is_empty() {
            idle_frames + 1
        } else {
            0
        };
        for event in raw.events {
            h.event(event);
        }
        h.run_steps(1);
        frames.push(typed);
    }
    frames
}

/// Typing a value into an inspector field all at once: every character lands, in order, in
/// one frame (not one a frame), and Enter commits the whole value.
#[test]
fn a_value_typed_at_once_lands_whole_in_one_frame() {
    let mut h = app();
    run(&mut h, &STEPS[0]); // the sword selected
    let mut keys = Vec::new();
    keys.extend(keystroke(Key::F6, NONE, None)); // the viewport
    keys.extend(keystroke(Key::F6, NONE, None)); // the inspector's name field
    for _ in 0..5 {
        keys.extend(keystroke(Key::Tab, NONE, None)); // … to the local rotation
    }
    through_the_key_queue(&mut h, keys);
    assert_eq!(focused(&h).0, "sword, local rotation");
    let mut keys = keystroke(Key::A, CTRL, None);
    for (key, text) in [
        (Key::Minus, "-"),
        (Key::Num1, "1"),
        (Key::Num2, "2"),
        (Key::Period, "."),
        (Key::Num5, "5"),
    ] {
        keys.extend(keystroke(key, NONE, Some(text)));
    }
    keys.extend(keystroke(Key::Enter, NONE, None));
    let frames = through_the_key_queue(&mut h, keys);
    let typed: Vec<&String> = frames.iter().filter(|t| !t.is_empty()).collect();
    assert_eq!(typed, ["-12.5"], "typed in one frame, in order: {frames:?}");
    let scene = h.state().scene();
    let sword = scene.index(graft::model::scene::NodeId(4)).unwrap();
    let rotation = scene.data_at(sword).local.rotation;
    assert_eq!(rotation, -12.5);
}
