//! Lessons point at the editor (issue 38.3), at the default 1280×800: a `point:` target is
//! highlighted at the rect of the widget it names (found here through the accessibility tree,
//! as a screen reader finds it), the highlights follow one another as the learner acts, and
//! "Show the gesture" plays a ghost pointer from the first named row to the second without
//! changing anything. Also every error a `point:` or `gesture:` line can give.

mod ui_common;

use egui::Rect;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::DVec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::app::lesson_overlay::{GESTURE_SECONDS, Painted};
use graft::app::ui_targets::Key;
use graft::editor::lesson::parse::parse;
use graft::editor::lesson::targets::{Control, Target};
use graft::editor::session::command::{
    Command, Effect, FileCommand, GuardAnswer, SelectionCommand,
};
use graft::editor::session::lesson::{LessonCommand, LessonSource};
use graft::model::scene::NodeId;
use std::path::Path;

const SWORD: NodeId = NodeId(4);
/// The course's lessons by index.
const DIRTY: usize = 2;
const REPARENT: usize = 3;
const SOLAR: usize = 6;
/// Frames per second of the harness's clock.
const FPS: f32 = 30.0;

fn app() -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / FPS)
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

fn lesson(h: &mut Harness<GraftApp>, command: LessonCommand) {
    h.state_mut().run(Command::Lesson(command));
    h.run_steps(4);
}

/// Open a built-in lesson at step `step` (past its introduction).
fn open_at(k: usize, step: usize) -> Harness<'static, GraftApp> {
    let mut h = app();
    lesson(&mut h, LessonCommand::Open(LessonSource::Builtin(k)));
    if h.state().editor().pending_guard().is_some() {
        h.state_mut().run(Command::File(FileCommand::AnswerGuard(
            GuardAnswer::Discard,
        )));
    }
    lesson(&mut h, LessonCommand::Begin);
    if step > 0 {
        lesson(&mut h, LessonCommand::GoTo(step));
    }
    h.run_steps(3);
    h
}

fn overlay(h: &Harness<GraftApp>) -> Painted {
    h.state().lesson_painted()
}

/// A hierarchy row's rect as the accessibility tree has it (where its name is painted).
fn row(h: &Harness<GraftApp>, name: &str) -> Rect {
    h.get_by_role_and_label(Role::TreeItem, name).rect()
}

fn assert_holds(outer: Rect, inner: Rect, what: &str) {
    assert!(
        outer.expand(0.5).contains_rect(inner),
        "{what}: {inner:?} is not inside the highlight {outer:?}"
    );
}

/// The bubble hides no registered target but the highlighted one (nor the lesson panel), and
/// stays inside the window.
fn assert_bubble_hides_no_other_target(h: &Harness<GraftApp>) {
    let shown = overlay(h);
    let (highlight, bubble) = (shown.highlight.unwrap(), shown.bubble_rect.unwrap());
    assert!(!bubble.intersects(highlight), "the bubble hides its target");
    assert!(h.ctx.content_rect().contains_rect(bubble), "{bubble:?}");
    for (key, rect) in h.state().ui_targets().iter() {
        if highlight.expand(0.5).contains_rect(rect) {
            continue; // the target itself
        }
        assert!(
            !bubble.intersects(rect),
            "the bubble {bubble:?} hides {key:?} at {rect:?}"
        );
    }
}

#[test]
fn a_row_target_is_highlighted_at_that_rows_rect_and_the_rest_is_dimmed() {
    let h = open_at(REPARENT, 0);
    let shown = overlay(&h);
    let highlight = shown.highlight.expect("step 1 points at the sword's row");
    let (sword, body) = (row(&h, "sword"), row(&h, "body"));
    assert_holds(highlight, sword, "the sword's row");
    assert!(
        !highlight.intersects(body),
        "the body's row is not highlighted"
    );
    assert!(
        highlight.height() < 2.0 * sword.height().max(16.0),
        "one row"
    );
    assert!(shown.dimmed, "the rest of the window is dimmed");
    let bubble = shown.bubble_rect.unwrap();
    for other in ["body", "scabbard", "hand"] {
        assert!(
            !bubble.intersects(row(&h, other)),
            "the bubble hides {other}'s row"
        );
    }
    assert!(!bubble.intersects(highlight));
    assert_bubble_hides_no_other_target(&h);
    assert_eq!(
        shown.bubble.as_deref(),
        Some("Drag this row onto the body's row (Show the gesture shows how)")
    );
    // The registered rect is the widget's: the row's whole width in the hierarchy.
    let registered = h.state().ui_targets().rect(&Key::Row(SWORD)).unwrap();
    assert_eq!(registered, highlight);
}

#[test]
fn nothing_is_pointed_at_during_the_introduction_and_where_points_again() {
    let mut h = app();
    lesson(&mut h, LessonCommand::Open(LessonSource::Builtin(REPARENT)));
    assert!(h.state().editor().lesson().unwrap().showing_intro());
    assert_eq!(
        overlay(&h),
        Painted::default(),
        "the introduction is not dimmed"
    );
    h.get_by_label("Start step 1 ⏵").click();
    h.run_steps(4);
    assert!(overlay(&h).highlight.is_some(), "step 1 points");
    h.get_by_role_and_label(Role::TreeItem, "sword").click();
    h.run_steps(3);
    assert_eq!(overlay(&h).highlight, None, "the learner acted");
    h.get_by_label("Where?").click();
    h.run_steps(3);
    assert_holds(
        overlay(&h).highlight.unwrap(),
        row(&h, "sword"),
        "Where? again",
    );
}

#[test]
fn a_press_inside_the_highlight_ends_it() {
    let mut h = open_at(REPARENT, 0);
    assert!(overlay(&h).highlight.is_some());
    h.get_by_role_and_label(Role::TreeItem, "sword").click();
    h.run_steps(3);
    assert_eq!(
        overlay(&h),
        Painted::default(),
        "nothing is pointed at any more"
    );
}

#[test]
fn the_toggle_then_the_row_highlights_follow_the_learner() {
    let mut h = open_at(REPARENT, 1);
    let toggle = h.get_by_role_and_label(Role::CheckBox, "Keep world transform");
    let toggle_rect = toggle.rect();
    let first = overlay(&h).highlight.expect("the keep-world toggle");
    assert_holds(first, toggle_rect, "the keep-world checkbox");
    assert_eq!(
        h.state()
            .ui_targets()
            .rect(&Key::Control(Control::KeepWorld)),
        Some(first)
    );
    toggle.click();
    h.run_steps(3);
    assert!(!h.state().editor().keep_world(), "the click turned it off");
    let second = overlay(&h).highlight.expect("then the sword's row");
    assert_holds(second, row(&h, "sword"), "the sword's row");
    assert!(!second.intersects(toggle_rect));
}

#[test]
fn a_field_target_is_the_two_fields_of_that_row_and_column() {
    let h = open_at(REPARENT, 4);
    let shown = overlay(&h).highlight.expect("the body's world position");
    for axis in ["x", "y"] {
        let field = h
            .get_by_label(&format!("body, world position {axis}"))
            .rect();
        assert_holds(shown, field, axis);
        let local = h
            .get_by_label(&format!("body, local position {axis}"))
            .rect();
        assert!(
            !shown.intersects(local),
            "the local column is not highlighted"
        );
    }
    let rotation = h.get_by_label("body, world rotation").rect();
    assert!(!shown.intersects(rotation), "nor the next row");
}

#[test]
fn a_fields_bubble_hides_no_other_field_nor_the_next_row() {
    let h = open_at(REPARENT, 4);
    let bubble = overlay(&h).bubble_rect.expect("a bubble");
    for label in [
        "body, world rotation",
        "body, local rotation",
        "body, local position x",
        "body, local position y",
    ] {
        let field = h.get_by_label(label).rect();
        assert!(
            !bubble.intersects(field),
            "the bubble {bubble:?} hides {label} {field:?}"
        );
    }
    assert_bubble_hides_no_other_target(&h);
}

#[test]
fn a_step_reached_by_its_button_points_at_its_first_target() {
    let mut h = open_at(REPARENT, 0);
    let button = h.get_by_role_and_label(Role::Button, "Step 5: It goes where its parent goes");
    button.click();
    h.run_steps(6);
    assert_eq!(h.state().editor().lesson().unwrap().step_index(), 4);
    let shown = overlay(&h)
        .highlight
        .expect("step 5 points at the body's world position");
    let field = h.get_by_label("body, world position x").rect();
    assert_holds(shown, field, "the body's world x");
}

#[test]
fn a_field_of_a_node_not_selected_points_at_its_row_first() {
    let mut h = open_at(REPARENT, 4);
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![SWORD])));
    h.run_steps(3);
    let shown = overlay(&h);
    assert_holds(shown.highlight.unwrap(), row(&h, "body"), "the body's row");
    assert_eq!(shown.bubble.as_deref(), Some("Select body first"));
}

#[test]
fn a_menu_item_target_is_its_menu_then_the_item() {
    let mut h = open_at(DIRTY, 0);
    let closed = overlay(&h);
    let view = h.get_by_label("View");
    assert_holds(closed.highlight.unwrap(), view.rect(), "the View menu");
    assert_eq!(closed.bubble.as_deref(), Some("Open the View menu"));
    view.click();
    h.run_steps(3);
    // The item sits in View > Overlays: the submenu's button first.
    let submenu = overlay(&h);
    assert_eq!(submenu.bubble.as_deref(), Some("Open Overlays"));
    let overlays = h.get_by_label("Overlays").rect();
    assert_holds(submenu.highlight.unwrap(), overlays, "the Overlays submenu");
    h.hover_at(overlays.center());
    h.run_steps(4);
    let item = h.get_by(|node| {
        // A toggle: a check item.
        node.role() == Role::MenuItemCheckBox
            && node
                .label()
                .is_some_and(|l| l.contains("Flash recomputed world matrices"))
    });
    let open = overlay(&h);
    assert_holds(open.highlight.unwrap(), item.rect(), "the menu item");
    assert_eq!(open.bubble.as_deref(), Some("Turn this on"));
    item.click();
    h.run_steps(3);
    assert!(h.state().editor().lesson().unwrap().step_done());
    assert_eq!(overlay(&h).highlight, None, "a done step points at nothing");
}

#[test]
fn a_node_target_is_its_shape_in_the_viewport() {
    let h = open_at(DIRTY, 1);
    let shown = overlay(&h).highlight.expect("step 2 points at the hand");
    let hand = ui_common::on_screen(&h, glam::vec2(2.0, 2.0));
    let arm = ui_common::on_screen(&h, glam::vec2(5.0, 2.0));
    assert!(
        shown.contains(hand),
        "the hand's origin {hand:?} in {shown:?}"
    );
    assert!(!shown.contains(arm), "not the arm's");
    let viewport = h.state().viewport.last_rect;
    assert!(viewport.contains_rect(shown), "inside the viewport");
}

#[test]
fn the_timelines_play_button_and_time_field_are_targets() {
    let h = open_at(SOLAR, 0);
    let play = h.get_by_role_and_label(Role::Button, "Play").rect();
    assert_holds(overlay(&h).highlight.unwrap(), play, "the Play button");
    let h = open_at(SOLAR, 2);
    let time = h.get_by_label("current time, seconds").rect();
    assert_holds(overlay(&h).highlight.unwrap(), time, "the time field");
    let bubble = overlay(&h).bubble_rect.unwrap();
    assert!(
        bubble.bottom() <= time.top(),
        "near the bottom the bubble is above"
    );
}

/// Where the ghost pointer was on each frame of "Show the gesture", and the frames.
fn play_gesture(h: &mut Harness<GraftApp>) -> Vec<Painted> {
    h.get_by_label("Show the gesture").click();
    let mut frames = Vec::new();
    for _ in 0..(GESTURE_SECONDS as f32 * FPS * 2.0) as usize {
        h.step();
        let shown = overlay(h);
        if shown.ghost.is_some() {
            frames.push(shown);
        } else if !frames.is_empty() {
            break;
        }
    }
    frames
}

#[test]
fn the_ghost_pointer_drags_from_the_swords_row_to_the_bodys_row() {
    let mut h = open_at(REPARENT, 0);
    let (sword, body) = (row(&h, "sword"), row(&h, "body"));
    let frames = play_gesture(&mut h);
    let seconds = frames.len() as f32 / FPS;
    assert!(
        (seconds - GESTURE_SECONDS as f32).abs() < 0.2,
        "it plays about 1.5 s ({seconds} s)"
    );
    let tips: Vec<egui::Pos2> = frames.iter().filter_map(|f| f.ghost).collect();
    let (first, last) = (tips[0], tips[tips.len() - 1]);
    let on_row = |r: Rect, p: egui::Pos2| (r.top()..=r.bottom()).contains(&p.y);
    assert!(
        on_row(sword, first),
        "starts on the sword's row: {first:?} {sword:?}"
    );
    assert!(
        on_row(body, last),
        "ends on the body's row: {last:?} {body:?}"
    );
    let (from, to) = frames[0].gesture.unwrap();
    assert!(from.contains(first) && to.contains(last));
    let middle = tips[tips.len() / 2];
    assert!(
        middle.y > first.y.min(last.y) + 1.0 && middle.y < first.y.max(last.y) - 1.0,
        "on its way half-way: {middle:?}"
    );
    assert!(
        frames.iter().all(|f| f.dimmed),
        "the rest is dimmed meanwhile"
    );
}

#[test]
fn show_the_gesture_changes_nothing_and_plays_again() {
    let mut h = open_at(REPARENT, 0);
    let before = graft::model::file::to_ron_string(h.state().scene());
    let revision = h.state().doc().revision();
    let selection = h.state().selection().to_vec();
    let undo = h.state().doc().history().undo_label().map(str::to_string);
    let first = play_gesture(&mut h);
    assert!(!first.is_empty());
    let app = h.state();
    assert_eq!(graft::model::file::to_ron_string(app.scene()), before);
    assert_eq!(app.doc().revision(), revision, "not even a no-op edit");
    assert_eq!(app.selection(), selection);
    assert_eq!(app.doc().history().undo_label().map(str::to_string), undo);
    assert!(!app.editor().lesson().unwrap().step_done());
    let again = play_gesture(&mut h);
    assert_eq!(again.len(), first.len(), "it plays again, the same");
}

fn lesson_error(lines: &str) -> String {
    let text = format!(
        "graft lesson 1\ntitle: T\n\nstep: S\nscene: sample sword\ngoal: sword parent is body\ndo: reparent sword to body\n{lines}\n"
    );
    match parse(&text, Path::new("t.lesson")) {
        Ok(lesson) => {
            let walked = graft::editor::session::lesson_check::walk_lesson(&lesson);
            walked.err().map(|e| e.to_string()).unwrap_or_default()
        }
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_pointing_error_names_its_place_and_what_exists() {
    let cases = [
        (
            "point: toggle keep-wrld",
            "t.lesson:8:15: unknown toggle: the toggles a lesson can point at are `keep-world` or `trails`",
        ),
        (
            "point: button stop",
            "t.lesson:8:15: unknown button: the buttons a lesson can point at are `play`",
        ),
        (
            "point: widget sword",
            "t.lesson:8:8: unknown target: a target is `row NODE`",
        ),
        (
            "point: menu Veiw > Names",
            "t.lesson:8:13: no menu is called `Veiw`; the menus are File, Edit, Node, View, Help",
        ),
        (
            "point: menu Edit > Duplicat",
            "t.lesson:8:20: the Edit menu has no item `Duplicat`; its items are: Undo, Redo, Copy, Paste as child, Duplicate,",
        ),
        (
            "point: menu View >",
            "t.lesson:8:19: expected the item's label after `>`",
        ),
        ("point: menu", "t.lesson:8:12: `menu` needs a menu's title"),
        ("point:", "t.lesson:8:7: `point:` needs a target"),
        (
            "point: field sword world pos",
            "t.lesson:8:26: expected `position`, `rotation`, `scale` or `skew`",
        ),
        (
            "point: row sword sword",
            "t.lesson:8:18: unexpected text after the end",
        ),
        (
            "point: row swrod",
            "t.lesson:8:12: no node is called `swrod` in the scene of step \"S\"",
        ),
        (
            "gesture: drag row sword -> row bdy",
            "t.lesson:8:32: no node is called `bdy`",
        ),
        (
            "gesture: row sword -> row body",
            "t.lesson:8:10: a gesture is `drag FROM -> TO`",
        ),
        (
            "gesture: drag row sword row body",
            "t.lesson:8:33: expected `->` between where the drag starts and where it drops",
        ),
        (
            "gesture: drag row sword -> menu Edit",
            "t.lesson:8:28: a drag never drops on a menu",
        ),
        (
            "gesture: drag -> row body",
            "t.lesson:8:15: expected a target",
        ),
        ("goal: keep-world is off\npoint: toggle keep-world", ""),
    ];
    for (line, wanted) in cases {
        let got = lesson_error(line);
        if wanted.is_empty() {
            assert_eq!(got, "", "{line} is a good line");
        } else {
            assert!(
                got.starts_with(wanted),
                "{line}\n got: {got}\nwanted: {wanted}"
            );
        }
    }
}

#[test]
fn targets_read_back_as_written() {
    let text = "graft lesson 1\ntitle: T\n\nstep: S\nscene: sample shear\ngoal: stretched is selected\ndo: select stretched\npoint: row \"rotated child\" | Select it\npoint: menu Edit > History\npoint: field time\npoint: field stretched local scale\ngesture: drag node stretched → row \"rotated child\"\n";
    let lesson = parse(text, Path::new("t.lesson")).unwrap();
    let pointing = &lesson.steps[0].pointing;
    let targets: Vec<&Target> = pointing.points.iter().map(|p| &p.target).collect();
    assert!(matches!(targets[0], Target::Row(n) if n.text == "rotated child"));
    assert_eq!(pointing.points[0].text(), "Select it");
    assert_eq!(
        targets[1],
        &Target::Menu {
            menu: "Edit",
            item: Some("History…")
        }
    );
    assert_eq!(pointing.points[1].text(), "Edit > History…");
    assert_eq!(targets[2], &Target::Control(Control::Time));
    assert_eq!(pointing.points[3].text(), "stretched's Local scale");
    let g = &pointing.gestures[0];
    assert!(matches!(&g.from, Target::Node(n) if n.text == "stretched"));
    assert!(matches!(&g.to, Target::Row(n) if n.text == "rotated child"));
    graft::editor::session::lesson_check::walk_lesson(&lesson).expect("its names are the scene's");
}

/// Every built-in lesson points where its text tells the learner to drag, type or turn on.
#[test]
fn every_built_in_lesson_points_where_it_says_drag_type_or_turn_on() {
    use graft::editor::lesson::course::lessons;
    for lesson in lessons().unwrap() {
        for (k, step) in lesson.steps.iter().enumerate() {
            let text = step.text.join(" ").to_lowercase();
            let asks = ["drag", "type", "turn on", "turn **"]
                .iter()
                .any(|w| text.contains(w));
            if asks {
                assert!(
                    !step.pointing.points.is_empty(),
                    "{} step {}: the text asks to act but points nowhere",
                    lesson.title,
                    k + 1
                );
            }
            if text.contains("drag the [") || text.contains("drag the sword's row") {
                assert!(
                    !step.pointing.gestures.is_empty(),
                    "{} step {}: a drag between rows has a gesture",
                    lesson.title,
                    k + 1
                );
            }
        }
    }
}

// ---- the points a step names are framed with its nodes (issue 38.2) ----

const SPACES: usize = 7;

/// Lesson 08 at step `step` (0-based), past its introduction, without the window.
fn spaces_at(step: usize) -> (graft::editor::session::Editor, Vec<Effect>) {
    use graft::editor::session::Editor;
    let mut editor = Editor::new(graft::model::document::Document::sample());
    let open = Command::Lesson(LessonCommand::Open(LessonSource::Builtin(SPACES)));
    editor.apply(open).unwrap();
    if editor.pending_guard().is_some() {
        editor
            .apply(Command::File(FileCommand::AnswerGuard(
                GuardAnswer::Discard,
            )))
            .unwrap();
    }
    editor.apply(Command::Lesson(LessonCommand::Begin)).unwrap();
    let go = editor.apply(Command::Lesson(LessonCommand::GoTo(step)));
    (editor, go.unwrap().effects)
}

fn near(points: &[DVec2], p: DVec2) -> bool {
    points.iter().any(|q| (*q - p).length() < 1e-4)
}

#[test]
fn a_probe_goals_world_point_is_in_the_steps_subject_and_framed() {
    // "Pin a probe": the sword's probe at (0, 1) in its space, (1, 3) in the world.
    let (editor, effects) = spaces_at(2);
    let run = editor.lesson().unwrap();
    let points = run.subject_points(&editor);
    assert!(near(&points, DVec2::new(1.0, 3.0)), "{points:?}");
    let framed = effects.iter().find_map(|e| match e {
        Effect::FrameWithPoints(f) => Some(f.clone()),
        _ => None,
    });
    let framed = framed.unwrap_or_else(|| panic!("the step frames its points: {effects:?}"));
    assert!(near(&framed.points, DVec2::new(1.0, 3.0)), "{framed:?}");
    assert!(framed.nodes.contains(&SWORD));
    // "Probes ride with their nodes": a world position and probes read in other spaces.
    let (editor, _) = spaces_at(4);
    let points = editor.lesson().unwrap().subject_points(&editor);
    for p in [(6.0, 0.0), (2.0, 3.0), (1.0, 3.0)] {
        assert!(near(&points, DVec2::new(p.0, p.1)), "{p:?} in {points:?}");
    }
}

#[test]
fn at_1280x800_the_probe_point_is_inside_the_viewport_at_the_steps_start() {
    let h = open_at(SPACES, 2);
    let app = h.state();
    let viewport = app.viewport.last_rect;
    let p = ui_common::on_screen(&h, glam::vec2(1.0, 3.0));
    assert!(
        viewport.shrink(2.0).contains(p),
        "the probe's place {p:?} is out of the viewport {viewport:?}"
    );
    let framed = app.editor().lesson().unwrap().framed(app.editor());
    let camera = app.viewport.camera;
    let rect = ui_common::view(viewport);
    assert!(framed.in_view(camera, rect, app.scene()), "{framed:?}");
}
