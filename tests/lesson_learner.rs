//! A scripted learner (issue 38, "Prove it"): every built-in lesson played to its summary at
//! 1280×800 by real gestures only — clicks on hierarchy rows, row drags, typing into the
//! inspector's fields, menu clicks, key presses — never Show me and never a command sent to the
//! app. Each lesson's solution is a table of gestures written from its steps' `do:` lines. At
//! every step start, every node the step names is inside the viewport's rectangle. The other
//! ways a lesson's text offers (a text link, a drag in the viewport, the Node menu, a shortcut)
//! are played on their steps too.
//!
//! And a lesson played to its end with keys only (issue 39): no pointer event at all. The
//! palette opens Help ▸ Lessons…, Tab reaches the lesson and its buttons, Node ▸ Move to…
//! (Ctrl+Shift+M) reparents, F6 and Tab reach the inspector's fields, typing and Enter set
//! them; the Reparenting lesson ends on its summary.

#[path = "ui_common/learner.rs"]
mod learner;
mod ui_common;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use graft::app::GraftApp;
use graft::editor::lesson::course::COURSE;
use graft::editor::lesson::predict::{Value, Verdict, mistakes};
use graft::editor::session::arrange::Panel;
use graft::editor::session::lesson::{LessonSource, read_lesson};
use graft::editor::view::prediction_prims::PredictionMark;
use graft::model::scene::NodeId;
use learner::{Gesture, Learner};

use Gesture::{
    AnswerClicked, AnswerTyped, Button, Check, DragNode, DragRow, DragRowBelow, DropPart, Field,
    Link, Menu, PredictTyped, Press, ProbeAt, Row, SavePart,
};

/// The gestures that solve each step of each built-in lesson, in course order. The numbers a
/// lesson draws per learner (`vary:`) are read from the running lesson: `{reach}`, and the
/// predictions' answers.
const SOLUTIONS: [&[&[Gesture]]; 10] = [
    // 01 Local and world
    &[
        &[Row("hand")],
        &[Field("hand, world position x", "3")],
        &[Field("hand, local position y", "4")],
        &[
            Field("body, local position x", "6"),
            Field("body, world position y", "1"),
        ],
    ],
    // 02 The chain product
    &[
        &[Row("sword")],
        &[
            AnswerTyped,
            Row("hand"),
            Field("hand, local position y", "{reach}"),
        ],
        &[Field("body, local rotation", "90")],
        &[
            Field("body, local scale x", "2"),
            Field("body, local scale y", "2"),
        ],
    ],
    // 03 Dirty flags
    &[
        &[Menu("View", "Flash recomputed world matrices")],
        &[Field("hand, world position x", "3")],
        &[Field("body, local position y", "1")],
        &[Field("arm, local position y", "2.5")],
        &[Field("scabbard, local position y", "0")],
    ],
    // 04 Reparenting
    &[
        &[DragRow("sword", "body")],
        &[
            AnswerClicked,
            Check("Keep world transform"),
            DragRow("sword", "body"),
        ],
        &[DragRow("sword", "scabbard")],
        &[
            Field("sword, local position x", "0"),
            Field("sword, local position y", "0"),
            Field("sword, local rotation", "0"),
        ],
        &[Field("body, world position x", "8")],
    ],
    // 05 Shear
    &[
        &[
            AnswerTyped,
            Menu("View", "Shear warning overlay"),
            Row("rotated child"),
        ],
        &[Button("Select cause (stretched)")],
        &[Field("stretched, local scale y", "{stretched.scale.x}")],
        &[Row("rotated child"), DragRowBelow("rotated child")],
        &[Row("scaled child"), Menu("Node", "Unparent (to root)")],
    ],
    // 06 Adding up TRS
    &[
        &[Menu("View", "Composition side by side")],
        &[AnswerClicked, Field("hull, local scale x", "{stretch}")],
        &[Row("muzzle")],
        &[Field("hull, local scale y", "{stretch}")],
        &[Field("muzzle, local scale y", "3")],
    ],
    // 07 The solar system
    &[
        &[Button("Play")],
        &[Button("Pause"), Check("trails (T)")],
        &[AnswerClicked, Field("current time, seconds", "3")],
        &[Field("current time, seconds", "1.25")],
        &[
            Row("earth"),
            Press(Modifiers::NONE, Key::Num3),
            Button("Play"),
        ],
    ],
    // 08 Spaces
    &[
        &[Menu("View", "View from the selection")],
        &[
            Menu("View", "Parent's grid"),
            Press(Modifiers::NONE, Key::G),
        ],
        &[Press(Modifiers::NONE, Key::P), ProbeAt("sword", 0.0, 1.0)],
        &[ProbeAt("body", -4.0, 3.0)],
        &[
            Press(Modifiers::NONE, Key::P),
            Field("body, local position x", "6"),
        ],
    ],
    // 09 Bounds and culling
    &[
        &[Menu("View", "Subtree bounds")],
        &[Field("oaks, local position y", "3")],
        &[Field("oak8, local position y", "-4")],
        &[
            Menu("View", "Culling rectangle"),
            Field("pines, local position x", "50"),
        ],
        &[Press(Modifiers::COMMAND, Key::Z)],
    ],
    // 10 Parts and instances
    &[
        &[DropPart("front", "wheel"), DropPart("back", "wheel")],
        &[Field("spoke, local rotation", "45")],
        &[SavePart(
            "wheel",
            "position: (0.5, 0.0), shape",
            "position: (0.5, 0.0), scale: (1.6, 1.0), shape",
        )],
        &[Button("Revert rotation")],
    ],
];

/// The app at the default window size, 1280×800 (seed 0: the lessons' own numbers).
fn app() -> Harness<'static, GraftApp> {
    learner::app_at(egui::vec2(1280.0, 800.0))
}

/// The app at 1280×800 for a learner with this seed.
fn app_seeded(seed: u64) -> Harness<'static, GraftApp> {
    learner::app_seeded(egui::vec2(1280.0, 800.0), seed)
}

/// The seeds of the learners below: 0 is the lessons' own numbers, the others draw theirs.
const SEEDS: [u64; 3] = [0, 23, 1];

/// Every built-in lesson, one after the other as the summary's "Next lesson" button leads,
/// played to its summary by gestures, by a learner with numbers of their own (seed 23).
#[test]
fn a_learner_plays_every_built_in_lesson_to_its_summary_by_gestures() {
    assert_eq!(SOLUTIONS.len(), COURSE.len(), "a solution for every lesson");
    let mut h = app_seeded(SEEDS[1]);
    let mut learner = Learner::new(&mut h);
    learner.open_from_help_menu(1);
    let mut checked = 0;
    for (k, steps) in SOLUTIONS.iter().enumerate() {
        let lesson = read_lesson(&LessonSource::Builtin(k)).expect("a built-in lesson reads");
        assert_eq!(steps.len(), lesson.steps.len(), "lesson {}: steps", k + 1);
        checked += learner.play(&lesson.title, steps);
        if k + 1 < COURSE.len() {
            learner.next_lesson();
        }
    }
    // Most steps name nodes (a step about a view option may name none).
    assert!(checked > 60, "{checked} named nodes checked in view");
}

/// True when some goal or keep of the lesson names a world point: a probe's reading, or a
/// world position.
fn names_points(lesson: &graft::editor::lesson::Lesson) -> bool {
    use graft::editor::lesson::{Predicate, Property, ValueSpace};
    let goals = lesson
        .steps
        .iter()
        .flat_map(|s| s.goals.iter().chain(&s.keeps));
    goals.clone().any(|g| {
        matches!(
            g.predicate,
            Predicate::Probe { .. }
                | Predicate::Transform {
                    frame: ValueSpace::World,
                    value: Property::Position(_),
                    ..
                }
        )
    })
}

/// Every world point the step names (as the app's subject has them) is inside the viewport's
/// rectangle. How many points that is.
fn assert_points_in_view(learner: &Learner, what: &str) -> usize {
    let app = learner.h.state();
    let v = &app.viewport;
    let points = learner.run().subject_points(app.editor());
    for p in &points {
        let s = v.camera.to_screen_f64(ui_common::view(v.last_rect), *p);
        let on_screen = egui::pos2(s.x as f32, s.y as f32);
        assert!(
            v.last_rect.contains(on_screen),
            "{what}: the point {p:?} is drawn at {on_screen:?}, out of the viewport {:?}",
            v.last_rect
        );
    }
    points.len()
}

/// At every step start, the world points a step names (where a probe must read a value, where
/// a node must go in the world) are inside the viewport at 1280×800 too, in every lesson whose
/// goals name one, played by gestures (by another learner, seed 1).
#[test]
fn at_every_step_start_the_points_a_step_names_are_in_view() {
    let mut h = app_seeded(SEEDS[2]);
    let mut learner = Learner::new(&mut h);
    let mut checked = 0;
    for (k, steps) in SOLUTIONS.iter().enumerate() {
        let lesson = read_lesson(&LessonSource::Builtin(k)).expect("a built-in lesson reads");
        if !names_points(&lesson) {
            continue;
        }
        learner.open_from_help_menu(k + 1);
        learner.start();
        for (s, gestures) in steps.iter().enumerate() {
            let what = format!("{}, step {}", lesson.title, s + 1);
            checked += assert_points_in_view(&learner, &what);
            learner.solve_step(&what, gestures);
            let last = s + 1 == steps.len();
            learner.click(if last { "Finish ✔" } else { "Next ⏵" });
            learner.frames(6);
        }
    }
    assert!(checked >= 10, "{checked} named points checked in view");
}

/// The predict steps of the course: (lesson index, step number).
const PREDICT_STEPS: [(usize, usize); 5] = [(1, 2), (3, 2), (4, 1), (5, 2), (6, 3)];

/// The world points of a prediction's mark: the ghost and the true place (an angle's origin).
fn mark_points(learner: &Learner) -> Vec<glam::Vec2> {
    let scene = learner.h.state().scene();
    match learner
        .run()
        .prediction_mark(scene)
        .expect("a mark once revealed")
    {
        PredictionMark::Point {
            predicted, truth, ..
        } => vec![predicted, truth],
        PredictionMark::Angle { origin, .. } => vec![origin],
    }
}

/// Each predict step of lessons 02, 04, 05, 06 and 07 at 1280×800, for two learners (seed 0,
/// the lessons' own numbers, and seed 1): the learner predicts the answer (right), each
/// expected mistake (the feedback names it) and a value far off (plain wrong), then acts by
/// gestures. The first learner types every prediction; the second clicks each one a click can
/// answer (a position) where it lies in the viewport. The answers are read from the lesson,
/// and differ between the two learners. Each time the verdict and the account are in the panel
/// and the prediction's ghost and arrow inside the viewport.
#[test]
fn a_learner_predicts_right_each_mistake_and_far_off_in_every_predict_step() {
    let mut answers = Vec::new();
    let (mut mistakes_named, mut clicked) = (0, 0);
    for (by_click, seed) in [(false, SEEDS[0]), (true, SEEDS[2])] {
        let mut h = app_seeded(seed);
        let mut learner = Learner::new(&mut h);
        for (k, s) in PREDICT_STEPS {
            learner.open_from_help_menu(k + 1);
            learner.start();
            learner.go_to_step(s);
            let truth = learner.run().truth().expect("its truth").clone();
            answers.push((k, seed, truth.answer));
            let played = predict_cases(&mut learner, k, s, by_click);
            mistakes_named += played.0;
            clicked += played.1;
        }
    }
    assert!(mistakes_named >= 18, "{mistakes_named} mistakes named");
    assert!(clicked >= 10, "{clicked} predictions clicked");
    for (k, _, a) in answers.iter().filter(|(_, seed, _)| *seed == SEEDS[0]) {
        let other = answers
            .iter()
            .find(|(j, seed, _)| j == k && *seed == SEEDS[2]);
        let b = other.expect("the other learner").2;
        assert!(
            a.distance(b, graft::editor::lesson::predict::Kind::Rotation) > 0.1,
            "lesson {}: two learners get different numbers: {a:?} and {b:?}",
            k + 1
        );
    }
}

/// A point far from the answer and every mistake of the step (inside the viewport, for a click).
fn far_point(learner: &Learner, truth: &graft::editor::lesson::predict::Truth) -> glam::Vec2 {
    let Value::Vector(t) = truth.answer else {
        unreachable!("a point")
    };
    let view = learner.h.state().viewport.last_rect.shrink(20.0);
    let offsets = [
        (3.0, 2.0),
        (-3.0, 2.0),
        (3.0, -2.0),
        (-3.0, -2.0),
        (1.5, 1.5),
        (-1.5, -1.5),
    ];
    let values = std::iter::once(&truth.answer).chain(&truth.wrong);
    offsets
        .iter()
        .map(|(x, y)| t + glam::vec2(*x, *y))
        .find(|p| {
            let apart = values
                .clone()
                .all(|v| matches!(v, Value::Vector(w) if truth.to_world(*w).distance(truth.to_world(*p)) > 1.0));
            apart && view.contains(ui_common::on_screen(learner.h, truth.to_world(*p)))
        })
        .expect("a point far off inside the viewport")
}

/// One predict step's cases: right, each mistake, far off; clicked when `by_click` and the
/// point shows in the viewport, else typed. How many mistakes were named and predictions
/// clicked.
fn predict_cases(learner: &mut Learner, k: usize, s: usize, by_click: bool) -> (usize, usize) {
    let predict = learner.run().predict().expect("a predict step").clone();
    let truth = learner.run().truth().expect("its truth").clone();
    let action: Vec<Gesture> = (SOLUTIONS[k][s - 1].iter())
        .filter(|g| !matches!(g, PredictTyped(_) | AnswerTyped | AnswerClicked))
        .cloned()
        .collect();
    let clicks = by_click && predict.by_click();
    let far = match truth.answer {
        Value::Vector(_) if clicks => Value::Vector(far_point(learner, &truth)),
        Value::Vector(p) => Value::Vector(p + glam::vec2(40.0, -30.0)),
        Value::Number(a) => Value::Number(a + 90.0),
    };
    let mut cases = vec![(truth.answer, Verdict::Right)];
    cases.extend(
        (truth.wrong.iter())
            .enumerate()
            .map(|(m, w)| (*w, Verdict::Mistake(m))),
    );
    cases.push((far, Verdict::Wrong));
    let (mut named, mut clicked) = (0, 0);
    for (value, verdict) in cases {
        let what = format!("lesson {}, step {s}, {verdict:?} {value:?}", k + 1);
        learner.click("Reset step");
        learner.frames(4);
        assert!(learner.run().prediction().is_none(), "{what}: a fresh step");
        let at = match value {
            Value::Vector(p) if clicks => Some(truth.to_world(p)),
            _ => None,
        };
        let view = learner.h.state().viewport.last_rect;
        match at.filter(|p| view.contains(ui_common::on_screen(learner.h, *p))) {
            Some(p) => {
                learner.predict_click(p);
                clicked += 1;
            }
            None => learner.predict_typed(&learner::typed(value)),
        }
        assert!(!learner.step_done(), "{what}: not done by predicting");
        for g in &action {
            learner.perform(g);
        }
        learner.frames(3);
        learner.assert_ticked(&what);
        let feedback = learner.run().feedback().expect("revealed");
        assert_eq!(feedback.verdict, verdict, "{what}: {}", feedback.sentence);
        let shown: String = feedback.sentence.chars().take(40).collect();
        assert!(
            learner.h.query_by_label_contains(&shown).is_some(),
            "{what}: the verdict {shown:?} in the panel"
        );
        if let Verdict::Mistake(m) = verdict {
            let sentence = mistakes::sentence(&predict, m);
            assert!(feedback.sentence.contains(&sentence), "{what}");
            named += 1;
        }
        let account = &truth.account[truth.account.len() - 1];
        assert!(
            learner.h.query_by_label_contains(account.trim()).is_some(),
            "{what}: the account's {account:?} in the panel"
        );
        let points = mark_points(learner);
        let inside = if verdict == Verdict::Wrong && !clicks {
            &points[1..]
        } else {
            &points[..]
        };
        for p in inside.iter().chain(points.last()) {
            let at = ui_common::on_screen(learner.h, *p);
            let view = learner.h.state().viewport.last_rect;
            assert!(
                view.contains(at),
                "{what}: {p} drawn at {at:?}, outside {view:?}"
            );
        }
    }
    (named, clicked)
}

/// The other ways the lessons' text offers work too: (lesson, step, gestures).
const OTHER_WAYS: [(usize, usize, &[Gesture]); 6] = [
    // "or the word hand in this text"
    (1, 1, &[Link("hand")]),
    // "drag it in the viewport"
    (3, 2, &[DragNode("hand", 30.0, 0.0)]),
    // "Drag the body's rectangle in the viewport"
    (3, 3, &[DragNode("body", 0.0, -30.0)]),
    // "Keep world transform is a checkbox in the Node menu"
    (
        4,
        2,
        &[
            AnswerTyped,
            Menu("Node", "Keep world transform"),
            DragRow("sword", "body"),
        ],
    ),
    // "Node > Unparent (to root), Ctrl+Shift+G"
    (
        5,
        4,
        &[
            Row("rotated child"),
            Press(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::G),
        ],
    ),
    // "or press 3"
    (8, 1, &[Press(Modifiers::NONE, Key::Num3)]),
];

/// Each other way, on its step reached by the step's button in the lesson panel.
#[test]
fn the_other_ways_the_text_offers_work_too() {
    let mut h = app();
    let mut learner = Learner::new(&mut h);
    for (k, s, gestures) in OTHER_WAYS {
        learner.open_from_help_menu(k);
        learner.start();
        if s > 1 {
            learner.go_to_step(s);
        }
        learner.solve_step(&format!("lesson {k}, step {s}"), gestures);
    }
}

/// The learner cannot pass a step by a wrong gesture: dropping the sword on the hand's row
/// (where it already hangs) or on the arm leaves Next unlit.
#[test]
fn a_wrong_gesture_leaves_the_step_undone() {
    let mut h = app();
    let mut learner = Learner::new(&mut h);
    learner.open_from_help_menu(4);
    learner.start();
    learner.perform(&DragRow("sword", "arm"));
    assert!(!learner.step_done(), "the sword on the arm is not the task");
    assert!(!learner.next_enabled(), "Next stays unlit");
}

// ---- keys only ----

const BODY: NodeId = NodeId(1);
const SWORD: NodeId = NodeId(4);
const SCABBARD: NodeId = NodeId(5);

/// Presses and typing, nothing else.
struct Keys<'h> {
    h: &'h mut Harness<'static, GraftApp>,
}

impl Keys<'_> {
    fn press(&mut self, modifiers: Modifiers, key: Key) {
        self.h.key_press_modifiers(modifiers, key);
        self.h.run_steps(3);
    }

    fn key(&mut self, key: Key) {
        self.press(Modifiers::NONE, key);
    }

    fn type_text(&mut self, text: &str) {
        self.h.event(egui::Event::Text(text.into()));
        self.h.run_steps(2);
    }

    /// The label of the widget that has the keyboard focus.
    fn focused(&self) -> Option<String> {
        self.h
            .query_all(egui_kittest::kittest::By::new().predicate(|n| n.is_focused()))
            .find_map(|n| n.accesskit_node().label())
    }

    /// Press Tab until the widget labelled `label` has the focus (at most 80 presses).
    fn tab_to(&mut self, label: &str) {
        for _ in 0..80 {
            if self.focused().as_deref() == Some(label) {
                return;
            }
            self.key(Key::Tab);
        }
        panic!(
            "Tab never reaches {label:?} (last focus {:?})",
            self.focused()
        );
    }

    /// Tab to a button and press it with Enter.
    fn press_button(&mut self, label: &str) {
        self.tab_to(label);
        self.key(Key::Enter);
        self.h.run_steps(3);
    }

    /// F6 until this panel has the keyboard.
    fn panel(&mut self, panel: Panel) {
        for _ in 0..6 {
            if self.h.state().editor().focused_panel() == panel {
                return;
            }
            self.key(Key::F6);
        }
        panic!("F6 never reaches {panel:?}");
    }

    /// The command palette: type a command's label, Enter.
    fn palette(&mut self, label: &str) {
        self.press(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
        self.type_text(label);
        self.key(Key::Enter);
    }

    /// Node ▸ Move to… (Ctrl+Shift+M), type the parent's name, Enter.
    fn move_to(&mut self, parent: &str) {
        self.press(Modifiers::COMMAND | Modifiers::SHIFT, Key::M);
        self.type_text(parent);
        self.key(Key::Enter);
    }

    /// Tab to an inspector field, type a number, Enter.
    fn field(&mut self, label: &str, text: &str) {
        self.panel(Panel::Inspector);
        self.tab_to(label);
        self.press(Modifiers::COMMAND, Key::A);
        self.type_text(text);
        self.key(Key::Enter);
    }

    /// F6 away and Shift+F6 back to the lesson panel: the keyboard lands on the predict box's
    /// field; type, Enter.
    fn predict(&mut self, text: &str) {
        self.panel(Panel::Lesson);
        self.key(Key::F6);
        self.press(Modifiers::SHIFT, Key::F6);
        assert_eq!(self.h.state().editor().focused_panel(), Panel::Lesson);
        let landed = self.focused();
        assert_eq!(
            landed.as_deref(),
            Some("Your prediction"),
            "F6 lands on the question"
        );
        self.type_text(text);
        self.key(Key::Enter);
        let run = self.h.state().editor().lesson().expect("a lesson");
        assert!(
            run.prediction().is_some(),
            "the typed prediction is committed"
        );
    }

    fn done(&self) -> bool {
        self.h
            .state()
            .editor()
            .lesson()
            .is_some_and(|r| r.step_done())
    }

    fn step(&self) -> usize {
        self.h
            .state()
            .editor()
            .lesson()
            .expect("a lesson")
            .step_index()
    }

    /// Every goal holds; then Next (Finish on the last step) from the lesson panel.
    /// The lesson is at step `s` (0-based), nothing of it done, its nodes in view.
    fn at_step(&mut self, s: usize) {
        assert_eq!(self.step(), s);
        assert!(!self.done(), "step {}: done before any key", s + 1);
        learner::Learner::new(self.h).assert_subject_in_view(&format!("keys, step {}", s + 1));
    }

    fn next(&mut self, what: &str) {
        let checklist = format!(
            "{:?}",
            self.h.state().editor().lesson().map(|r| r.checklist())
        );
        assert!(self.done(), "{what}: {checklist}");
        let last = self.step() + 1
            == self
                .h
                .state()
                .editor()
                .lesson()
                .unwrap()
                .lesson()
                .steps
                .len();
        self.panel(Panel::Lesson);
        self.press_button(if last { "Finish ✔" } else { "Next ⏵" });
    }
}

#[test]
fn the_reparenting_lesson_played_to_its_summary_with_keys_only() {
    let mut h = app();
    let mut k = Keys { h: &mut h };
    k.palette("Lessons…");
    k.press_button("4. Reparenting");
    let run = k.h.state().editor().lesson().expect("the lesson opens");
    assert!(run.showing_intro());
    k.panel(Panel::Lesson);
    k.press_button("Start step 1 ⏵");
    k.at_step(0);

    // 1: the sword onto the body, keeping world.
    k.move_to("body");
    assert_eq!(k.h.state().scene().parent(SWORD).unwrap(), Some(BODY));
    k.next("step 1");
    // 2: predict where it lands (typed), toggle off, then onto the body again.
    k.at_step(1);
    let answer = k.h.state().editor().lesson().and_then(|r| r.truth());
    k.predict(&learner::typed(answer.expect("a predict step").answer));
    k.palette("Keep world transform");
    assert!(!k.h.state().editor().keep_world());
    k.move_to("body");
    k.next("step 2");
    // 3: into the scabbard.
    k.at_step(2);
    k.move_to("scabbard");
    assert_eq!(k.h.state().scene().parent(SWORD).unwrap(), Some(SCABBARD));
    k.next("step 3");
    // 4: sheathed: local (0, 0), rotation 0.
    k.at_step(3);
    k.field("sword, local position x", "0");
    k.field("sword, local position y", "0");
    k.field("sword, local rotation", "0");
    k.next("step 4");
    // 5: the body to (8, 0).
    k.at_step(4);
    k.field("body, world position x", "8");
    k.next("step 5");

    let run = k.h.state().editor().lesson().expect("still open");
    assert!(run.finished().is_some(), "the lesson finished");
    assert!(
        k.h.query_by_label("Lesson complete ✔").is_some(),
        "the summary"
    );
    assert!(k.h.query_by_label_contains("Steps done: 5 of 5").is_some());
    let pointer = k.h.ctx.input(|i| i.pointer.latest_pos());
    assert_eq!(pointer, None, "no pointer event ever reached the app");
}
