//! The lesson panel at the default 1280×800 (issue 38): the introduction before step 1, a last
//! step that finishes with a summary, a broken keep marked as broken with what changed, the
//! viewport at least half the window, and at every step start of every built-in lesson the
//! nodes the step names inside the viewport.

mod ui_common;

use egui::accesskit::{Role, Toggled};
use egui_kittest::Harness;
use egui_kittest::kittest::By;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::lesson::course::COURSE;
use graft::editor::session::clipboard::trs_to_text;
use graft::editor::session::command::{
    Command, FileCommand, GuardAnswer, HistoryCommand, PanelCommand, TransformSpace,
};
use graft::editor::session::dialogs::DialogKind;
use graft::editor::session::lesson::{LessonCommand, LessonSource, read_lesson};
use graft::editor::view::geometry::in_view;
use graft::editor::view::pointer::MoveDrag;
use graft::model::scene::NodeId;
use ui_common::view;

const SWORD: NodeId = NodeId(4);

fn app_with(dialogs: FakeDialogs) -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| GraftApp::new(cc, None, Box::new(dialogs)));
    h.run_steps(3);
    h
}

fn app() -> Harness<'static, GraftApp> {
    app_with(FakeDialogs::default())
}

/// The viewport's drag of the sword to `to` (world), ended: one undo step "Move sword".
fn drag_sword(h: &mut Harness<GraftApp>, to: glam::Vec2) {
    let from = h.state().scene().world(SWORD).unwrap().translation;
    let drag = MoveDrag {
        start_pointer: glam::DVec2::ZERO,
        starts: vec![(SWORD, from)],
    };
    h.state_mut()
        .run(Command::Panel(PanelCommand::MoveSelection {
            drag: std::sync::Arc::new(drag),
            pointer: to.as_dvec2() - from.as_dvec2(),
            snap: None,
        }));
    h.state_mut()
        .run(Command::History(HistoryCommand::EndGesture));
}

fn lesson(h: &mut Harness<GraftApp>, command: LessonCommand) {
    h.state_mut().run(Command::Lesson(command));
    h.run_steps(6);
}

/// Open a built-in lesson (leaving the last lesson's scene without saving it).
fn open(h: &mut Harness<GraftApp>, k: usize) {
    lesson(h, LessonCommand::Open(LessonSource::Builtin(k)));
    discard(h);
    let wanted = read_lesson(&LessonSource::Builtin(k)).unwrap().title;
    let run = h.state().editor().lesson().expect("a lesson is open");
    assert_eq!(run.lesson().title, wanted, "lesson {k} opens");
}

/// Answer the unsaved-changes prompt, if any, with Discard.
fn discard(h: &mut Harness<GraftApp>) {
    if h.state().editor().pending_guard().is_some() {
        h.state_mut().run(Command::File(FileCommand::AnswerGuard(
            GuardAnswer::Discard,
        )));
        h.run_steps(6);
    }
}

fn play_solution(h: &mut Harness<GraftApp>) {
    lesson(h, LessonCommand::ShowMe);
    for _ in 0..80 {
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(15));
        if !h.state().editor().lesson().unwrap().showing() {
            break;
        }
    }
    h.run_steps(3);
}

#[test]
fn the_introduction_shows_before_step_1_and_start_leaves_it() {
    let mut h = app();
    open(&mut h, 4);
    let run = h.state().editor().lesson().unwrap();
    assert!(run.showing_intro(), "the lesson opens on its introduction");
    let about = run.lesson().about.clone();
    // Read whole as one paragraph (its drawn pieces are hidden from a screen reader).
    // (Not the announcement, a status node saying the introduction too.)
    let shown = By::new()
        .label_contains("rotate · scale")
        .role(Role::Label)
        .predicate(|n| !n.is_hidden());
    assert!(h.query(shown).is_some(), "the intro text is drawn");
    assert!(h.query_by_label(&about).is_some(), "its about is drawn");
    h.get_by_label("Start step 1 ⏵").click();
    h.run_steps(4);
    assert!(!h.state().editor().lesson().unwrap().showing_intro());
    assert!(
        h.query(By::new().role(Role::Label).label_contains("Step 1 of"))
            .is_some()
    );
    assert!(h.query_by_label("Start step 1 ⏵").is_none());
}

/// The Reparenting lesson played to its summary; `short` first drags the lesson panel's
/// bottom edge up to about 190 px. Returns the panel's height at the last step.
fn finished_reparenting(h: &mut Harness<GraftApp>, short: bool) -> f32 {
    open(h, 3);
    let last = h.state().editor().lesson().unwrap().lesson().steps.len() - 1;
    lesson(h, LessonCommand::GoTo(last));
    lesson(h, LessonCommand::Begin);
    if short {
        let panel = lesson_panel(h);
        let x = panel.center().x;
        let edge = egui::pos2(x, panel.bottom() + 1.0);
        ui_common::drag(h, edge, egui::pos2(x, panel.top() + 190.0));
        let now = lesson_panel(h);
        assert!(now.height() < panel.height() - 20.0, "{panel:?} -> {now:?}");
    }
    play_solution(h);
    let height = lesson_panel(h).height();
    h.get_by_label("Finish ✔").click();
    h.run_steps(4);
    height
}

/// The lesson panel as drawn (its content may run past it, clipped).
fn lesson_panel(h: &Harness<GraftApp>) -> egui::Rect {
    h.state()
        .ui_targets()
        .rect(&graft::app::ui_targets::Key::LessonPanel)
        .expect("the lesson panel")
}

/// The summary's buttons lie inside a short lesson panel (they came after "What you learned"
/// and were cut off).
#[test]
fn the_summarys_buttons_are_never_cut_off() {
    let mut h = app();
    finished_reparenting(&mut h, true);
    let panel = lesson_panel(&h);
    let heading = h.get_by_label("Lesson complete ✔").rect();
    assert!(panel.contains_rect(heading), "{heading:?} {panel:?}");
    let steps = h.state().editor().lesson().unwrap().lesson().steps.len();
    let back = format!("Back to step {steps}");
    for button in ["Next lesson: Shear ⏵", "Close the lesson", back.as_str()] {
        // The summary's own button (the header has a close button of that name too).
        let rect = (h.query_all_by_label(button))
            .map(|n| n.rect())
            .find(|r| r.top() >= heading.bottom())
            .unwrap_or_else(|| panic!("no {button} under the heading"));
        assert!(
            panel.contains_rect(rect),
            "{button} {rect:?} is cut off by the panel {panel:?}"
        );
    }
}

#[test]
fn the_last_step_finishes_with_a_summary_and_the_next_lesson() {
    let mut h = app();
    let step = finished_reparenting(&mut h, false);
    assert!(h.state().editor().lesson().unwrap().finished().is_some());
    // The panel fits the summary, shorter than the last step's: a summary filling the step's
    // panel kept it tall, and the next lesson opened with the inspector's lower buttons under
    // the timeline (at 1280×800, Shear's "Select cause" at y 758).
    let summary = lesson_panel(&h);
    assert!(
        summary.height() < step - 20.0,
        "the summary kept the step's {step} px panel: {summary:?}"
    );
    assert!(h.query_by_label("Lesson complete ✔").is_some());
    assert!(h.query_by_label_contains("Steps done:").is_some());
    assert!(h.query_by_label_contains("Time:").is_some());
    assert!(h.query_by_label("What you learned").is_some());
    let next = h.get_by_label("Next lesson: Shear ⏵");
    next.click();
    h.run_steps(6);
    discard(&mut h);
    let run = h.state().editor().lesson().unwrap();
    assert_eq!(run.lesson().title, "Shear", "the next lesson opens");
}

#[test]
fn a_broken_keep_is_marked_broken_with_what_changed() {
    let mut h = app();
    open(&mut h, 3);
    lesson(&mut h, LessonCommand::Begin);
    assert_eq!(goal_state(&h, "It did not move in the world"), Some(true));
    // At 1280x800 the step's text pushes its checklist below the panel's fold.
    let panel = h.get_by_label("Lesson").rect();
    let keep = h
        .get_by_role_and_label(Role::CheckBox, "It did not move in the world")
        .rect();
    assert!(keep.top() > panel.bottom(), "{keep:?} below {panel:?}");
    drag_sword(&mut h, glam::vec2(2.5, 3.0));
    h.run_steps(4);
    // The keep's line and its note scrolled into view when it broke.
    let note = h
        .get_by_label("    broken: the sword moved in the world: (2, 3) -> (2.5, 3)")
        .rect();
    assert!(panel.contains_rect(note), "{note:?} inside {panel:?}");
    assert_eq!(
        goal_state(&h, "Broken: It did not move in the world"),
        Some(false)
    );
    assert_eq!(goal_state(&h, "It did not move in the world"), None);
    assert!(
        h.query_by_label("    broken: the sword moved in the world: (2, 3) -> (2.5, 3)")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("checks: sword world position is (2, 3)")
            .is_some()
    );
}

#[test]
fn a_stretch_in_place_breaks_a_keep_that_says_it_did_not_move() {
    let mut h = app();
    open(&mut h, 3);
    lesson(&mut h, LessonCommand::Begin);
    let world = h.state().scene().world_trs(SWORD).unwrap();
    let stretched = graft::model::math::Trs {
        scale: glam::vec2(1.5, 1.0),
        ..world
    };
    h.state_mut()
        .run(Command::Panel(PanelCommand::PasteTransform {
            node: SWORD,
            text: trs_to_text(&stretched),
            space: TransformSpace::World,
        }));
    h.run_steps(4);
    assert_eq!(
        goal_state(&h, "Broken: It did not move in the world"),
        Some(false)
    );
    assert_eq!(goal_state(&h, "It did not move in the world"), None);
    assert!(
        h.query_by_label_contains("kept its place but changed shape")
            .is_some()
    );
}

/// At every step start of every built-in lesson at 1280×800 the nodes the step names are
/// inside the viewport, and the viewport is at least half the window wide.
#[test]
fn every_step_of_every_lesson_starts_with_its_nodes_in_view() {
    let mut h = app();
    for k in 0..COURSE.len() {
        open(&mut h, k);
        lesson(&mut h, LessonCommand::Begin);
        let steps = h.state().editor().lesson().unwrap().lesson().steps.len();
        for s in 0..steps {
            lesson(&mut h, LessonCommand::GoTo(s));
            let app = h.state();
            let v = &app.viewport;
            assert!(v.last_rect.width() >= 640.0, "viewport {:?}", v.last_rect);
            let subject = app.editor().lesson().unwrap().subject(app.editor());
            assert!(
                in_view(v.camera, view(v.last_rect), app.scene(), &subject),
                "lesson {} step {}: {subject:?} out of {:?}",
                k + 1,
                s + 1,
                v.last_rect
            );
        }
        lesson(&mut h, LessonCommand::Close);
    }
}

#[test]
fn a_move_that_takes_a_named_node_out_of_view_frames_it_again() {
    let mut h = app();
    open(&mut h, 3);
    lesson(&mut h, LessonCommand::Begin);
    drag_sword(&mut h, glam::vec2(400.0, -300.0));
    h.run_steps(4);
    let app = h.state();
    let v = &app.viewport;
    let subject = app.editor().lesson().unwrap().subject(app.editor());
    assert!(subject.contains(&SWORD));
    assert!(in_view(v.camera, view(v.last_rect), app.scene(), &subject));
}

#[test]
fn open_a_lesson_file_asks_with_a_lesson_dialog() {
    let dialogs = FakeDialogs::default();
    let mut h = app_with(dialogs.clone());
    lesson(&mut h, LessonCommand::OpenFile);
    assert_eq!(dialogs.requests(), vec![DialogKind::OpenLesson]);
}

#[test]
fn a_lesson_that_fails_its_check_opens_with_the_failure_in_the_panel() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/lessons/goal-true-from-start.lesson");
    let mut h = app();
    lesson(&mut h, LessonCommand::Open(LessonSource::File(path)));
    let run = h.state().editor().lesson().expect("it opens");
    assert!(!run.failures().is_empty());
    assert!(run.showing_intro(), "the failure is shown first");
    assert!(h.query_by_label_contains("fails its own check").is_some());
    assert!(
        h.query_by_label_contains("already holds before the solution")
            .is_some()
    );
    lesson(&mut h, LessonCommand::Begin);
    assert!(
        h.query_by_label_contains("already holds before the solution")
            .is_some()
    );
}

/// A checklist line as a screen reader reads it: a check box named `name`, ticked or not;
/// None when there is no such line.
fn goal_state(h: &Harness<'_, GraftApp>, name: &str) -> Option<bool> {
    let toggled = |ticked: bool| {
        let want = if ticked {
            Toggled::True
        } else {
            Toggled::False
        };
        h.query(By::new().predicate(move |n| {
            n.role() == Role::CheckBox
                && n.label().as_deref() == Some(name)
                && n.toggled() == Some(want)
        }))
        .is_some()
    };
    if toggled(true) {
        Some(true)
    } else if toggled(false) {
        Some(false)
    } else {
        None
    }
}

/// Lesson 04's first step by ear: each paragraph is one label holding its whole text in order,
/// node names included (it was a dozen pieces read out of order), the pieces are hidden from a
/// screen reader, and the drag it asks for is also written as its keyboard way (Move to…).
#[test]
fn a_step_reads_as_whole_paragraphs_with_the_keyboard_way_of_its_gesture() {
    use egui_kittest::kittest::NodeT;
    use graft::editor::lesson::text::plain;
    let mut h = app();
    open(&mut h, 3);
    lesson(&mut h, LessonCommand::Begin);
    let step = h.state().editor().lesson().expect("open").step().clone();
    let labels: Vec<String> = h
        .query_all(By::new().role(Role::Label))
        .filter(|n| !n.accesskit_node().is_hidden())
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    for paragraph in &step.text {
        let whole = plain(paragraph);
        assert!(labels.contains(&whole), "no label {whole:?} in {labels:#?}");
    }
    let way = labels
        .iter()
        .find(|l| l.starts_with("By keyboard: select the sword"))
        .unwrap_or_else(|| panic!("no keyboard way in {labels:#?}"));
    assert!(way.contains("Move to… (Ctrl+Shift+M), type body"), "{way}");
    // A piece of the first paragraph is not read on its own.
    assert!(
        !labels.iter().any(|l| l == " hangs from the "),
        "{labels:#?}"
    );
}

/// Nothing is parsed per frame (issue 47): a finished lesson's summary names the next lesson
/// and Help ▸ Lessons… lists the course, each from lessons parsed once, not every frame.
#[test]
fn the_summary_and_the_lessons_window_parse_nothing_per_frame() {
    use graft::editor::lesson::parse::parse_count;
    use graft::editor::session::command::{Window, WindowCommand};
    let mut h = app();
    finished_reparenting(&mut h, false);
    assert!(h.query_by_label("Next lesson: Shear ⏵").is_some());
    h.state_mut()
        .run(Command::Window(WindowCommand::Show(Window::Lessons)));
    h.run_steps(3);
    assert!(
        h.query_by_label("1. Local and world").is_some(),
        "the course is listed"
    );
    let before = parse_count();
    h.run_steps(10);
    assert_eq!(parse_count() - before, 0, "lessons parsed in 10 frames");
}
