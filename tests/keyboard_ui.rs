//! Everything from the keyboard (issue 39.3), in the running app: F6 / Shift+F6 move the
//! keyboard between panels, the arrows nudge the selection in the viewport (one undo step a
//! press), Alt+Up / Alt+Down reorder, Node ▸ Move to… reparents keeping world (Shift+Enter
//! keeping local), and every command of the table is found by typing its label in the palette.

mod ui_common;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use glam::Vec2;
use graft::app::GraftApp;
use graft::editor::session::arrange::Panel;
use graft::editor::session::command::{EditCommand, SelectionCommand, ViewCommand, Window};
use graft::editor::table::{CommandSpec, command_table, fuzzy_score};
use graft::model::scene::NodeId;

const SWORD: NodeId = NodeId(4);
const BODY: NodeId = NodeId(1);

fn app() -> Harness<'static, GraftApp> {
    let (dir, path) = ui_common::scene_file(&std::fs::read_to_string("scenes/sword.ron").unwrap());
    let h = ui_common::app_on_path(path);
    std::mem::forget(dir); // the file must outlive the harness (a save writes next to it)
    h
}

fn key(h: &mut Harness<GraftApp>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    h.run_steps(2);
}

/// Ctrl+A then Up: the sword alone selected, from the keyboard.
fn select_sword(h: &mut Harness<GraftApp>) {
    key(h, Modifiers::COMMAND, Key::A);
    key(h, Modifiers::NONE, Key::ArrowUp);
    assert_eq!(h.state().selection(), [SWORD]);
}

fn world_position(h: &Harness<GraftApp>, id: NodeId) -> Vec2 {
    h.state().scene().world_trs(id).unwrap().position
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-4
}

#[test]
fn f6_moves_the_keyboard_round_the_panels_and_arrows_nudge_in_the_viewport() {
    let mut h = app();
    select_sword(&mut h);
    assert_eq!(h.state().editor().focused_panel(), Panel::Hierarchy);
    key(&mut h, Modifiers::NONE, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Viewport);
    let start = world_position(&h, SWORD);
    key(&mut h, Modifiers::NONE, Key::ArrowRight);
    key(&mut h, Modifiers::NONE, Key::ArrowRight);
    key(&mut h, Modifiers::SHIFT, Key::ArrowUp);
    assert!(close(
        world_position(&h, SWORD),
        start + Vec2::new(0.2, 1.0)
    ));
    assert_eq!(
        h.state().selection(),
        [SWORD],
        "arrows no longer walk the rows"
    );
    assert_eq!(
        h.state().doc().history().labels().0.len(),
        3,
        "one step a press"
    );
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(close(
        world_position(&h, SWORD),
        start + Vec2::new(0.2, 0.0)
    ));
    for want in [Panel::Inspector, Panel::Timeline, Panel::Hierarchy] {
        key(&mut h, Modifiers::NONE, Key::F6);
        assert_eq!(h.state().editor().focused_panel(), want);
    }
    key(&mut h, Modifiers::SHIFT, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Timeline);
}

#[test]
fn alt_up_and_down_reorder_siblings_as_one_undo_step_each() {
    let mut h = app();
    let scabbard = NodeId(5);
    h.get_by_label("scabbard").click();
    h.run_steps(2);
    let children = |h: &Harness<GraftApp>| h.state().scene().children(Some(BODY)).unwrap();
    assert_eq!(children(&h), [NodeId(2), scabbard]);
    key(&mut h, Modifiers::ALT, Key::ArrowUp);
    assert_eq!(children(&h), [scabbard, NodeId(2)]);
    assert_eq!(h.state().doc().history().labels().0, ["Move scabbard up"]);
    key(&mut h, Modifiers::ALT, Key::ArrowUp);
    assert_eq!(
        children(&h),
        [scabbard, NodeId(2)],
        "already first: refused"
    );
    key(&mut h, Modifiers::ALT, Key::ArrowDown);
    assert_eq!(children(&h), [NodeId(2), scabbard]);
    assert_eq!(
        h.state().selection(),
        [scabbard],
        "the moved node stays selected"
    );
}

#[test]
fn move_to_reparents_the_sword_onto_the_body_keeping_world_from_the_keyboard() {
    let mut h = app();
    select_sword(&mut h);
    let world = world_position(&h, SWORD);
    key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::M);
    assert!(h.state().editor().is_open(Window::MoveTo));
    h.event(egui::Event::Text("bod".into()));
    h.run_steps(2);
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert!(!h.state().editor().is_open(Window::MoveTo));
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(BODY));
    assert!(close(world_position(&h, SWORD), world), "world kept");
    assert!(close(world, Vec2::new(2.0, 3.0)));
    let said = h.state().editor().last_message().unwrap().text.clone();
    assert_eq!(
        said,
        "sword reparented to body, keeping world position (2, 3)"
    );
    // Shift+Enter keeps the local numbers instead: the sword jumps.
    key(&mut h, Modifiers::COMMAND, Key::Z);
    let local = h.state().scene().node(SWORD).unwrap().local.position;
    key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::M);
    h.event(egui::Event::Text("body".into()));
    h.run_steps(2);
    key(&mut h, Modifiers::SHIFT, Key::Enter);
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(BODY));
    assert_eq!(h.state().scene().node(SWORD).unwrap().local.position, local);
    assert!(!close(world_position(&h, SWORD), world));
}

/// The score the palette ranks a command by for a query (as `palette_matches` does).
fn score(spec: &CommandSpec, query: &str) -> Option<i32> {
    fuzzy_score(query, spec.label).max(fuzzy_score(query, spec.name).map(|s| s - 2))
}

/// True when typing `spec`'s label puts it first among every command of the table.
fn label_ranks_first(spec: &CommandSpec) -> bool {
    let own = score(spec, spec.label);
    command_table()
        .iter()
        .take_while(|other| other.name != spec.name)
        .all(|other| score(other, spec.label) < own)
        && command_table()
            .iter()
            .skip_while(|other| other.name != spec.name)
            .skip(1)
            .all(|other| score(other, spec.label) <= own)
}

#[test]
fn every_command_of_the_table_is_reachable_from_the_keyboard() {
    let mut h = app();
    select_sword(&mut h);
    key(&mut h, Modifiers::COMMAND, Key::C); // Paste as child needs a clipboard
    h.state_mut()
        .run(graft::editor::session::command::Command::Edit(
            EditCommand::Nudge {
                direction: (1, 0),
                big: false,
            },
        )); // Undo needs a step
    h.run_steps(2);
    let mut typed = 0;
    for spec in command_table() {
        assert!(
            label_ranks_first(spec),
            "{}: typing {:?} does not put it first",
            spec.name,
            spec.label
        );
        if !(spec.enabled)(h.state().editor()) {
            // Disabled here: it cannot run now, but its label still finds it once it can.
            continue;
        }
        key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
        assert!(h.state().editor().is_open(Window::Palette), "{}", spec.name);
        h.event(egui::Event::Text(spec.label.into()));
        h.run_steps(2);
        let first = || {
            By::new().predicate(move |n| {
                n.role() == egui::accesskit::Role::ListBoxOption
                    && n.is_selected() == Some(true)
                    && n.label().is_some_and(|l| l.starts_with(spec.label))
            })
        };
        assert!(
            h.query(first()).is_some(),
            "{}: typing {:?} in the palette does not choose it",
            spec.name,
            spec.label
        );
        key(&mut h, Modifiers::NONE, Key::Escape);
        typed += 1;
    }
    assert!(
        typed > 40,
        "most commands were typed in the palette ({typed})"
    );
    // And Enter runs the chosen one.
    key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.event(egui::Event::Text("Focus next panel".into()));
    h.run_steps(2);
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(h.state().editor().focused_panel(), Panel::Viewport);
}

#[test]
fn ctrl_equals_minus_and_zero_scale_the_interface() {
    let mut h = app();
    key(&mut h, Modifiers::COMMAND, Key::Equals);
    assert_eq!(h.state().editor().ui_scale(), 1.1);
    key(&mut h, Modifiers::COMMAND, Key::Equals);
    key(&mut h, Modifiers::COMMAND, Key::Equals);
    assert_eq!(h.state().editor().ui_scale(), 1.5);
    assert!(
        (h.ctx.zoom_factor() - 1.5).abs() < 1e-6,
        "egui draws at 150 %"
    );
    // Then 175 and 200 %, the usual steps.
    key(&mut h, Modifiers::COMMAND, Key::Equals);
    assert_eq!(h.state().editor().ui_scale(), 1.75);
    key(&mut h, Modifiers::COMMAND, Key::Equals);
    assert_eq!(h.state().editor().ui_scale(), 2.0);
    key(&mut h, Modifiers::COMMAND, Key::Minus);
    key(&mut h, Modifiers::COMMAND, Key::Minus);
    key(&mut h, Modifiers::COMMAND, Key::Minus);
    assert_eq!(h.state().editor().ui_scale(), 1.25);
    key(&mut h, Modifiers::COMMAND, Key::Num0);
    assert_eq!(h.state().editor().ui_scale(), 1.0);
    assert!((h.ctx.zoom_factor() - 1.0).abs() < 1e-6);
}

/// The name of the control that has egui's keyboard focus, if one has.
fn focused_control(h: &Harness<GraftApp>) -> Option<String> {
    h.ctx.memory(|m| m.focused())?;
    let node = h.query(By::new().predicate(|n| n.is_focused()))?;
    use egui_kittest::kittest::NodeT;
    let node = node.accesskit_node();
    Some(node.label().or_else(|| node.value()).unwrap_or_default())
}

#[test]
fn f6_gives_the_first_control_of_the_inspector_and_timeline_the_keyboard() {
    let mut h = app();
    select_sword(&mut h);
    key(&mut h, Modifiers::NONE, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Viewport);
    // The canvas has the keyboard (a screen reader reads it) and keeps the arrows: they nudge.
    assert_eq!(
        focused_control(&h).as_deref(),
        Some("Viewport: 5 nodes, selected: sword"),
        "the viewport's canvas has the keyboard"
    );
    key(&mut h, Modifiers::NONE, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Inspector);
    let inspector = focused_control(&h).expect("a control of the inspector has focus");
    key(&mut h, Modifiers::NONE, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Timeline);
    let timeline = focused_control(&h).expect("a control of the timeline has focus");
    assert_ne!(inspector, timeline);
    eprintln!("F6 focused {inspector:?}, then {timeline:?}");
    key(&mut h, Modifiers::NONE, Key::F6);
    assert_eq!(h.state().editor().focused_panel(), Panel::Hierarchy);
    // Back in the hierarchy, the selected row has the keyboard.
    assert_eq!(focused_control(&h).as_deref(), Some("sword"));
}

/// The width of the panel the accessibility tree calls `name`.
fn pane_width(h: &Harness<GraftApp>, name: &'static str) -> f64 {
    use egui_kittest::kittest::NodeT;
    let pane = h.get(By::new().predicate(move |n| {
        n.role() == egui::accesskit::Role::Pane && n.label().as_deref() == Some(name)
    }));
    pane.accesskit_node()
        .bounding_box()
        .map_or(0.0, |r| r.width())
}

#[test]
fn at_150_percent_in_a_1280_by_800_window_the_viewport_keeps_half_of_it() {
    let text = std::fs::read_to_string("scenes/sword.ron").unwrap();
    let (_dir, path) = ui_common::scene_file(&text);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            let dialogs = Box::new(graft::app::dialogs::FakeDialogs::default());
            GraftApp::new(cc, Some(path), dialogs)
        });
    h.run_steps(5);
    for _ in 0..3 {
        key(&mut h, Modifiers::COMMAND, Key::Equals);
    }
    h.run_steps(5);
    assert_eq!(h.state().editor().ui_scale(), 1.5);
    // The tree's bounds are in pixels.
    let window = f64::from(h.ctx.content_rect().width() * h.ctx.pixels_per_point());
    let viewport = pane_width(&h, "Viewport");
    eprintln!(
        "window {window:.0} px, viewport {viewport:.0}, hierarchy {:.0}, inspector {:.0}",
        pane_width(&h, "Hierarchy"),
        pane_width(&h, "Inspector")
    );
    assert!(
        viewport >= window / 2.0,
        "viewport {viewport:.0} of {window:.0}"
    );
}

/// F6 (after leaving it, if it has the keyboard) until the lesson panel has the keyboard.
fn enter_lesson_panel(h: &mut Harness<GraftApp>) {
    if h.state().editor().focused_panel() == Panel::Lesson {
        key(h, Modifiers::NONE, Key::F6);
    }
    for _ in 0..6 {
        if h.state().editor().focused_panel() == Panel::Lesson {
            return;
        }
        key(h, Modifiers::NONE, Key::F6);
    }
    panic!("F6 never reaches the lesson panel");
}

/// True when the last frame outlined the widget called `label` (a focus ring around it).
fn outlined(h: &Harness<GraftApp>, label: &str) -> bool {
    let around = h.get_by_label(label).rect().expand(2.0);
    h.output()
        .shapes
        .iter()
        .any(|clipped| match &clipped.shape {
            egui::Shape::Rect(r) => {
                r.stroke.width > 0.0
                    && (r.rect.min - around.min).length() < 0.5
                    && (r.rect.max - around.max).length() < 0.5
            }
            _ => false,
        })
}

/// (step index, showing the introduction) of the open lesson; panics when it was closed.
fn lesson_at(h: &Harness<GraftApp>) -> (usize, bool) {
    let run = h
        .state()
        .editor()
        .lesson()
        .expect("the lesson is still open");
    (run.step_index(), run.showing_intro())
}

/// F6 into the lesson panel lands on the step's primary action, not on "Close the lesson"
/// (first in drawing order): Start on the introduction, the first goal while Next is unlit,
/// Next once every goal holds. Enter on each keeps the lesson open.
#[test]
fn f6_into_the_lesson_lands_on_its_primary_action_and_enter_never_closes_it() {
    use graft::editor::session::command::Command;
    use graft::editor::session::lesson::{LessonCommand, LessonSource};
    let mut h = app();
    let path = std::path::PathBuf::from("assets/lessons/01-local-world.lesson");
    let open = LessonCommand::Open(LessonSource::File(path));
    h.state_mut().run(Command::Lesson(open));
    h.run_steps(3);
    assert_eq!(lesson_at(&h), (0, true));
    enter_lesson_panel(&mut h);
    assert_eq!(focused_control(&h).as_deref(), Some("Start step 1 ⏵"));
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(lesson_at(&h), (0, false), "Enter started step 1");
    enter_lesson_panel(&mut h);
    let run = h.state().editor().lesson().expect("the lesson");
    let (goal, holds) = run.checklist()[0];
    let first_goal = goal.label.clone();
    assert!(!holds && !run.step_done());
    assert_eq!(
        focused_control(&h),
        Some(first_goal.clone()),
        "Next is unlit"
    );
    assert!(
        outlined(&h, &first_goal),
        "the focused goal shows its focus"
    );
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(lesson_at(&h), (0, false), "Enter on a goal does nothing");
    let scene = h.state().scene();
    let hand = (0..scene.len())
        .find(|&i| scene.data_at(i).name == "hand")
        .map(|i| scene.id_at(i))
        .expect("the lesson's scene has a hand");
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![hand])));
    h.run_steps(3);
    assert!(h.state().editor().lesson().is_some_and(|r| r.step_done()));
    enter_lesson_panel(&mut h);
    assert_eq!(focused_control(&h).as_deref(), Some("Next ⏵"));
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(lesson_at(&h), (1, false), "Enter went on to step 2");
}

/// A key press or release as the window sends it.
fn press(key: Key, pressed: bool, modifiers: Modifiers) -> egui::Event {
    egui::Event::Key {
        key,
        physical_key: Some(key),
        pressed,
        repeat: false,
        modifiers,
    }
}

/// `events` arriving together, handed to the app through the window's input hook as eframe
/// does, then as many frames as the app asks for.
fn in_one_frame(h: &mut Harness<GraftApp>, events: impl IntoIterator<Item = egui::Event>) {
    h.input_mut().events.extend(events);
    for _ in 0..6 {
        let mut raw = std::mem::take(h.input_mut());
        let ctx = h.ctx.clone();
        eframe::App::raw_input_hook(h.state_mut(), &ctx, &mut raw);
        *h.input_mut() = raw;
        h.run_steps(1);
    }
}

/// Ctrl+A then Up arriving in one frame (a slow frame, a screen reader user typing ahead, the
/// a11y peer's xdotool): through the window's input hook each key acts on what the one before
/// did, so the sword is selected. Read against the frame's start, Up saw nothing selected and
/// picked the last row, the scabbard.
#[test]
fn two_keys_arriving_in_one_frame_act_one_after_the_other() {
    let mut h = app();
    in_one_frame(
        &mut h,
        [
            press(Key::A, true, Modifiers::COMMAND),
            press(Key::A, false, Modifiers::COMMAND),
            press(Key::ArrowUp, true, Modifiers::NONE),
            press(Key::ArrowUp, false, Modifiers::NONE),
        ],
    );
    assert_eq!(h.state().selection(), [SWORD]);
}

/// Shift+F6 then Enter arriving together, a row of the hierarchy focused: Shift+F6 gives the
/// lesson panel the keyboard, and the frame after it focuses Start; Enter waits for that and
/// starts step 1 (in the frame right after Shift+F6 it pressed the row still focused).
#[test]
fn a_key_waits_for_the_focus_the_key_before_it_moved() {
    use graft::editor::session::command::Command;
    use graft::editor::session::lesson::{LessonCommand, LessonSource};
    let mut h = app();
    let path = std::path::PathBuf::from("assets/lessons/01-local-world.lesson");
    let open = LessonCommand::Open(LessonSource::File(path));
    h.state_mut().run(Command::Lesson(open));
    h.run_steps(3);
    if h.state().editor().focused_panel() != Panel::Hierarchy {
        h.state_mut()
            .run(Command::View(ViewCommand::SetFocusedPanel(
                Panel::Hierarchy,
            )));
        h.run_steps(3);
    }
    assert!(focused_control(&h).is_some(), "a row has the keyboard");
    in_one_frame(
        &mut h,
        [
            press(Key::F6, true, Modifiers::SHIFT),
            press(Key::F6, false, Modifiers::SHIFT),
            press(Key::Enter, true, Modifiers::NONE),
            press(Key::Enter, false, Modifiers::NONE),
        ],
    );
    assert_eq!(h.state().editor().focused_panel(), Panel::Lesson);
    assert_eq!(lesson_at(&h), (0, false), "Enter started step 1");
    assert!(h.state().selection().is_empty(), "no row was pressed");
}
