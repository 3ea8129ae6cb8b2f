//! The lesson panel in the real app, driven by the pointer and the keyboard: Help ▸ Lessons…
//! opens the reparenting lesson, a hierarchy drag ticks its goals and lights Next, Show me is
//! one undo step, Reset restores the step, and a goal on a world position ticks when the value
//! is typed in the inspector's World column and unticks after undo.

mod ui_common;
use ui_common::{drag, row};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::command::{Command, Window, WindowCommand};
use graft::editor::session::lesson::LessonCommand;
use graft::model::scene::NodeId;
use ui_common::type_number;

const BODY: NodeId = NodeId(1);
const HAND: NodeId = NodeId(3);
const SWORD: NodeId = NodeId(4);

fn app() -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 900.0))
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

/// Open a built-in lesson from Help ▸ Lessons… by clicking its title.
fn open_lesson(h: &mut Harness<GraftApp>, title: &str) {
    h.state_mut()
        .run(Command::Window(WindowCommand::Show(Window::Lessons)));
    h.run_steps(3);
    // The lesson's button, not its "Introduction to …" header.
    h.get_by(|n| {
        n.label()
            .is_some_and(|l| l.contains(title) && !l.starts_with("Introduction to"))
    })
    .click();
    h.run_steps(5);
    let run = h.state().editor().lesson().expect("the lesson is open");
    assert!(run.lesson().title.contains(title));
    // It opens on its introduction: start the step.
    h.get_by_label_contains("step 1 ⏵").click();
    h.run_steps(3);
    assert!(!h.state().editor().lesson().unwrap().showing_intro());
}

/// The hierarchy's row of a node (the leftmost widget with that label: the lesson's text
/// links to nodes too).
fn done(h: &Harness<GraftApp>) -> bool {
    h.state().editor().lesson().is_some_and(|r| r.step_done())
}

fn undo_steps(h: &Harness<GraftApp>) -> usize {
    h.state().doc().history().labels().0.len()
}

#[test]
fn dragging_the_sword_onto_the_body_ticks_the_goal_and_lights_next() {
    let mut h = app();
    open_lesson(&mut h, "Reparenting");
    assert!(!done(&h));
    let (sword, body) = (row(&h, "sword"), row(&h, "body"));
    drag(&mut h, sword.center(), body.center());
    let scene = h.state().scene();
    assert_eq!(
        scene.parent(SWORD).unwrap(),
        Some(BODY),
        "dropped on the body"
    );
    assert!(
        done(&h),
        "every goal ticks: {:?}",
        h.state().editor().lesson().unwrap().checklist()
    );
    h.get_by_label("Next ⏵").click();
    h.run_steps(4);
    assert_eq!(
        h.state().editor().lesson().unwrap().step_index(),
        1,
        "Next went on"
    );
}

#[test]
fn show_me_on_a_fresh_step_is_one_undo_step_and_reset_restores_it() {
    let mut h = app();
    open_lesson(&mut h, "Reparenting");
    let before = h.state().scene().node(SWORD).unwrap().local;
    h.get_by_label("Show me").click();
    for _ in 0..60 {
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
        if !h.state().editor().lesson().unwrap().showing() {
            break;
        }
    }
    h.run_steps(3);
    assert!(done(&h), "the solution ticks every goal");
    assert_eq!(undo_steps(&h), 1, "one undo step");
    h.get_by_label("Reset step").click();
    h.run_steps(4);
    assert_eq!(
        h.state().scene().node(SWORD).unwrap().local,
        before,
        "reset restores the scene"
    );
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(HAND));
    assert!(!done(&h));
}

#[test]
fn a_world_position_goal_ticks_when_typed_in_the_inspector_and_unticks_after_undo() {
    let mut h = app();
    open_lesson(&mut h, "Local and world");
    h.state_mut().run(Command::Lesson(LessonCommand::GoTo(1)));
    h.run_steps(6);
    assert_eq!(
        h.state().editor().primary(),
        Some(HAND),
        "the step selects the hand"
    );
    assert!(!done(&h));
    let spins: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|n| n.rect())
        .collect();
    let top = spins
        .iter()
        .map(|r| r.center().y)
        .fold(f32::INFINITY, f32::min);
    let mut position_row: Vec<egui::Rect> = spins
        .into_iter()
        .filter(|r| (r.center().y - top).abs() < 2.0)
        .collect();
    position_row.sort_by(|a, b| a.left().total_cmp(&b.left()));
    assert_eq!(position_row.len(), 4, "local x, y, world x, y");
    type_number(&mut h, position_row[2], "3");
    h.run_steps(3);
    let world = h.state().scene().world(HAND).unwrap().translation;
    assert!(
        (world - glam::vec2(3.0, 2.0)).abs().max_element() < 1e-4,
        "{world:?}"
    );
    assert!(
        done(&h),
        "{:?}",
        h.state().editor().lesson().unwrap().checklist()
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(4);
    assert!(!done(&h), "undo unticks");
}

/// A first start offers the course where a newcomer looks (issue 44): with nothing selected the
/// inspector says what the course is and starts lesson 1 in one click; after lesson 1 it offers
/// lesson 2; with a lesson open it stays out of the way.
#[test]
fn the_empty_inspector_offers_the_course_and_goes_on_where_the_learner_left_it() {
    use graft::editor::lesson::course::outline;
    let mut h = app();
    h.get_by_label("Start lesson 1: Local and world").click();
    h.run_steps(4);
    let run = h.state().editor().lesson().expect("lesson 1 opened");
    assert_eq!(run.lesson().title, outline()[0].title);
    assert!(
        h.query_by_label_contains("Start lesson 1").is_none(),
        "not over a lesson"
    );

    let mut progress = graft::editor::lesson::progress::CourseProgress::default();
    for step in 0..outline()[0].steps {
        progress.complete(&outline()[0].id, step);
    }
    let editor = graft::editor::Editor::new(graft::model::document::Document::sample())
        .with_lesson_progress(progress);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| GraftApp::with_editor(editor, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    let next = format!("Continue with lesson 2: {}", outline()[1].title);
    h.get_by_label(&next).click();
    h.run_steps(4);
    let run = h.state().editor().lesson().expect("lesson 2 opened");
    assert_eq!(run.lesson().title, outline()[1].title);
}

/// Help ▸ Lessons…: each lesson's folded introduction is told apart by ear ("Introduction to
/// Reparenting"), collapsed, not a toggle (it was nine "Introduction" buttons read "not
/// pressed" while open).
#[test]
fn the_lessons_introductions_are_named_for_their_lesson_and_say_they_are_collapsed() {
    use egui_kittest::kittest::NodeT;
    let mut h = app();
    h.state_mut()
        .run(Command::Window(WindowCommand::Show(Window::Lessons)));
    h.run_steps(3);
    let headers: Vec<(String, Option<String>, bool)> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Introduction to ")))
        .map(|n| {
            let a = n.accesskit_node();
            let name = a.label().unwrap_or_default();
            assert_eq!(a.data().is_expanded(), Some(false), "{name} is collapsed");
            (name, a.description(), a.toggled().is_some())
        })
        .collect();
    assert!(headers.len() >= 9, "{headers:?}");
    let mut names: Vec<&String> = headers.iter().map(|(n, _, _)| n).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), headers.len(), "distinct: {headers:?}");
    assert!(names.contains(&&"Introduction to Reparenting".to_string()));
    for (name, description, toggled) in &headers {
        assert_eq!(description.as_deref(), None, "{name}: the state says it");
        assert!(!toggled, "{name} is not a toggle");
    }
}

/// Help ▸ Lessons… lists the lesson files among the recent files (read once, kept by the
/// window rather than in egui's memory), and not the other recent files.
#[test]
fn the_lessons_window_lists_the_recent_lesson_files() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("assets/lessons/02-chain.lesson").unwrap();
    let text = text.replacen("title: The chain product", "title: My chain lesson", 1);
    let lesson = dir.path().join("mine.lesson");
    std::fs::write(&lesson, text).unwrap();
    let scene = dir.path().join("scene.ron");
    let editor = graft::editor::Editor::new(graft::model::document::Document::sample())
        .with_recent(vec![scene, lesson.clone()]);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| GraftApp::with_editor(editor, Box::new(FakeDialogs::default())));
    h.state_mut()
        .run(Command::Window(WindowCommand::Show(Window::Lessons)));
    h.run_steps(3);
    assert!(h.query_by_label("Lesson files").is_some());
    let entry = format!("My chain lesson ({})", lesson.display());
    assert!(
        h.query_by_label(&entry).is_some(),
        "the lesson file is listed"
    );
    assert!(
        h.query_by_label_contains("scene.ron").is_none(),
        "not a scene"
    );
}
