//! Predict steps and numbers that vary, without a window (issue 50): `graft lesson check`
//! plays a lesson with `vary:` lines over 50 seeds and refuses one whose mistake equals the
//! answer at some seed, or whose range makes a goal hold at the start, at FILE:LINE:COL; a
//! learner's numbers are reproducible from their seed; a prediction through `Editor::apply`
//! is judged (right, a named mistake, plain wrong) and Next waits for it.

mod common;
use graft::editor::lesson::course::COURSE;
use graft::editor::lesson::predict::{Value, Verdict};
use graft::editor::lesson::progress::CourseProgress;
use graft::editor::session::Editor;
use graft::editor::session::command::{Command, PanelCommand, SettingCommand};
use graft::editor::session::drop_rules::DropPreview;
use graft::editor::session::lesson::{LessonCommand, LessonSource, read_lesson};
use graft::editor::session::lesson_check::{VARY_SEEDS, check_lesson, walk_seeded};
use graft::editor::session::lesson_predict::PredictInput;
use graft::model::document::Document;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/lessons")
        .join(name)
}

fn graft(args: &[&str]) -> (i32, String, String) {
    common::run_graft(args)
}

const FROM_THE_DOC: &str = "from-the-doc/predict-vary.lesson";

#[test]
fn a_lesson_with_predict_and_vary_lines_written_from_the_doc_passes_over_50_seeds() {
    let path = fixture(FROM_THE_DOC);
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("2 steps, 3 goals and keeps, with the numbers of 50 learners"),
        "{out}"
    );
    assert_eq!(VARY_SEEDS, 50);
    let lesson = read_lesson(&LessonSource::File(path)).unwrap();
    let mut targets = std::collections::BTreeSet::new();
    for seed in 0..VARY_SEEDS {
        let walk = walk_seeded(&lesson, seed).expect("plays");
        assert!(walk.failures.is_empty(), "seed {seed}: {:?}", walk.failures);
        // The text, the question, the goal and the solution all read the seed's number.
        let step = &walk.lesson.steps[0];
        let target = step.vary[0].value.expect("drawn");
        targets.insert(target as i32);
        assert!((100.0..=170.0).contains(&target) && target % 10.0 == 0.0);
        let shown = format!("`{target}`");
        assert!(step.text[0].contains(&shown), "{:?}", step.text);
        let question = &step.predict.as_ref().unwrap().question;
        assert!(question.contains(&format!("{target}°")), "{question}");
        assert_eq!(step.goals[0].label, format!("The arm is turned {target}°"));
        assert_eq!(
            step.hints[0],
            format!("Type {target} into the arm's Local rotation.")
        );
        // The same seed gives the same numbers again.
        let again = walk_seeded(&lesson, seed).unwrap();
        assert_eq!(again.lesson.steps, walk.lesson.steps, "seed {seed}");
    }
    assert!(
        targets.len() >= 5,
        "learners get different numbers: {targets:?}"
    );
}

#[test]
fn a_mistake_equal_to_the_answer_at_some_seed_is_refused_at_its_line() {
    let path = fixture("mistake-equals-answer-at-a-seed.lesson");
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    let place = format!("{}:10:10:", path.display());
    assert!(err.contains(&place), "{err}");
    assert!(
        err.contains("cannot tell them apart") && err.contains("numbers of seed"),
        "{err}"
    );
}

#[test]
fn a_vary_range_that_makes_a_goal_hold_at_the_start_is_refused_at_the_goal() {
    let path = fixture("vary-goal-holds-at-start.lesson");
    let lesson = read_lesson(&LessonSource::File(path.clone())).unwrap();
    let failures = check_lesson(&lesson).expect("plays");
    let message = &failures.first().expect("a failure").message;
    let place = format!("{}:9:7:", path.display());
    assert!(message.starts_with(&place), "{message}");
    assert!(
        message.contains("already holds before the solution"),
        "{message}"
    );
    let (code, _, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains(&place), "{err}");
}

#[test]
fn bad_vary_lines_and_placeholders_are_refused_at_their_place() {
    let head = "graft lesson 1\ntitle: T\nstep: S\nscene: sample sword\n";
    let task = "goal: arm local rotation is 30\ndo: set arm local rotation 30\n";
    let cases = [
        ("vary: a from 5 to 1\n", "5:19:", "below its low end"),
        ("vary: a from 1 to 5 by 0\n", "5:21:", "positive number"),
        ("vary: a to 5\n", "5:9:", "`from LOW to HIGH`"),
        ("vary: \"my var\" from 1 to 2\n", "5:7:", "letters, digits"),
        ("vary: arm local size from 1 to 2\n", "5:17:", "`rotation`"),
        ("hint: turn {a\n", "5:12:", "never closed"),
        (
            "vary: a from 1 to 5 default 9\n",
            "5:21:",
            "between the range's",
        ),
    ];
    for (body, place, words) in cases {
        let text = format!("{head}{body}{task}");
        let e = graft::editor::lesson::parse::parse(&text, Path::new("v.lesson"))
            .expect_err(body)
            .to_string();
        assert!(
            e.starts_with(&format!("v.lesson:{place}")) && e.contains(words),
            "{body}: {e}"
        );
    }
    // A placeholder naming nothing is refused when the step's numbers are known.
    let text = format!("{head}hint: turn {{nothing.rotation}}\n{task}");
    let lesson = graft::editor::lesson::parse::parse(&text, Path::new("v.lesson")).unwrap();
    let e = walk_seeded(&lesson, 3).expect_err("refused").to_string();
    assert!(
        e.starts_with("v.lesson:5:12:") && e.contains("neither"),
        "{e}"
    );
}

fn open(editor: &mut Editor, source: LessonSource) {
    editor
        .apply(Command::Lesson(LessonCommand::Open(source)))
        .unwrap();
    editor.apply(Command::Lesson(LessonCommand::Begin)).unwrap();
    editor.tick(0.016);
}

fn predict(editor: &mut Editor, text: &str) -> graft::error::Result<()> {
    let input = PredictInput::Typed(text.into());
    editor
        .apply(Command::Lesson(LessonCommand::Predict(input)))
        .map(drop)
}

/// The sword to the body keeping local (lesson 04, step 2): prediction, action, verdict.
#[test]
fn a_prediction_is_judged_once_the_action_happened_and_next_waits_for_it() {
    let reparent = COURSE
        .iter()
        .position(|(f, _)| f.contains("reparent"))
        .unwrap();
    let mut editor = Editor::new(Document::sample());
    open(&mut editor, LessonSource::Builtin(reparent));
    editor
        .apply(Command::Lesson(LessonCommand::GoTo(1)))
        .unwrap();
    editor.tick(0.016);
    let play = |editor: &mut Editor| {
        editor
            .apply(Command::Setting(SettingCommand::ToggleKeepWorld))
            .unwrap();
        let (node, parent) = (
            graft::model::scene::NodeId(4),
            graft::model::scene::NodeId(1),
        );
        let zone = graft::editor::session::drop_rules::DropZone::Into(parent);
        let keep = graft::model::scene::Keep::Local;
        let drop = DropPreview::plan(editor.doc().scene(), &[node], zone, keep);
        editor
            .apply(Command::Panel(PanelCommand::DropRows(Box::new(drop))))
            .unwrap();
        editor.tick(0.016);
    };
    // Acting without predicting: the goals hold, Next does not light.
    play(&mut editor);
    let run = editor.lesson().unwrap();
    assert!(
        run.goals_hold() && !run.step_done(),
        "Next waits for a prediction"
    );
    assert!(editor.apply(Command::Lesson(LessonCommand::Next)).is_err());
    // Reset, a typo is refused (nothing committed), then the keep-world landing: named.
    editor.apply(Command::Lesson(LessonCommand::Reset)).unwrap();
    editor.tick(0.016);
    assert!(predict(&mut editor, "six").is_err());
    assert!(editor.lesson().unwrap().prediction().is_none());
    predict(&mut editor, "(2, 3)").unwrap();
    assert_eq!(
        editor.lesson().unwrap().feedback(),
        None,
        "not before the action"
    );
    play(&mut editor);
    let feedback = editor.lesson().unwrap().feedback().expect("revealed");
    assert_eq!(
        feedback.verdict,
        Verdict::Mistake(0),
        "{}",
        feedback.sentence
    );
    assert!(
        feedback.sentence.contains("Keep world transform"),
        "{}",
        feedback.sentence
    );
    assert!(editor.lesson().unwrap().step_done());
    assert!(
        predict(&mut editor, "(6, 0)").is_err(),
        "no second try once revealed"
    );
    // A click snaps to the step it is given.
    editor.apply(Command::Lesson(LessonCommand::Reset)).unwrap();
    let click = PredictInput::Click {
        at: glam::dvec2(6.04, -0.03),
        step: 0.1,
    };
    editor
        .apply(Command::Lesson(LessonCommand::Predict(click)))
        .unwrap();
    let p = editor.lesson().unwrap().prediction().unwrap().value;
    assert_eq!(p, Value::Vector(glam::vec2(6.0, 0.0)));
    play(&mut editor);
    let feedback = editor.lesson().unwrap().feedback().unwrap();
    assert_eq!(feedback.verdict, Verdict::Right);
    let account = &editor.lesson().unwrap().truth().unwrap().account;
    assert_eq!(account[0], "World_sword = M_body · M_sword", "{account:?}");
    assert_eq!(account.last().unwrap(), "sword: (5, 0) + (1, 0) = (6, 0)");
    // Show me alone also lets the learner go on.
    editor.apply(Command::Lesson(LessonCommand::Reset)).unwrap();
    editor
        .apply(Command::Lesson(LessonCommand::ShowMe))
        .unwrap();
    for _ in 0..20 {
        editor.tick(0.5);
    }
    assert!(editor.lesson().unwrap().step_done(), "Show me counts");
    assert_eq!(editor.lesson().unwrap().prediction(), None);
}

/// A learner's numbers come from the seed kept in their progress: the same progress gives the
/// same numbers, another learner's others.
#[test]
fn a_learners_numbers_come_from_the_seed_in_their_progress() {
    let path = fixture(FROM_THE_DOC);
    let target = |seed: u64| {
        let mut editor = Editor::new(Document::sample())
            .with_lesson_progress(CourseProgress::default().with_seed(seed));
        open(&mut editor, LessonSource::File(path.clone()));
        let run = editor.lesson().unwrap();
        let arm = graft::model::scene::NodeId(2);
        assert_eq!(editor.doc().scene().node(arm).unwrap().local.rotation, 90.0);
        run.step().vary[0].value.unwrap()
    };
    assert_eq!(target(7), target(7));
    let several: std::collections::BTreeSet<i32> = (1..12).map(|s| target(s) as i32).collect();
    assert!(several.len() > 2, "{several:?}");
    // A fresh progress has the lessons' own numbers (seed 0) until the window's start draws
    // the learner's seed, once, kept in its text; a run's seed (GRAFT_LESSON_SEED) is used
    // for that run only.
    let mut progress = CourseProgress::default();
    assert_eq!(progress.seed(), 0);
    progress.draw_seed(None);
    let seed = progress.seed();
    assert_ne!(seed, 0);
    progress.draw_seed(None);
    assert_eq!(progress.seed(), seed, "drawn once");
    assert_eq!(CourseProgress::from_text(&progress.to_text()).seed(), seed);
    progress.draw_seed(Some(0));
    assert_eq!(progress.seed(), 0, "this run's seed");
    assert_eq!(CourseProgress::from_text(&progress.to_text()).seed(), seed);
}

/// A click answers a local position too: the point where the node will land, read in the
/// space of the parent it hangs from after the solution (the sword onto the body, keeping the
/// world: its new local position).
#[test]
fn a_click_predicts_a_local_position_in_the_new_parents_space() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("local.lesson");
    std::fs::write(
        &path,
        "graft lesson 1\ntitle: Where does it hang?\n\nstep: Sheathe\nscene: sample sword\n\
         select: sword\nkeep-world: on\n\n\
         predict: sword local position | The sword's local position on the body?\n\
         mistake: local-as-world\ngoal: sword parent is body\n\
         do: reparent sword to body keep-world\n",
    )
    .unwrap();
    let mut editor = Editor::new(Document::sample());
    open(&mut editor, LessonSource::File(path));
    let click = |editor: &mut Editor, x: f64, y: f64| {
        let at = glam::dvec2(x, y);
        let input = PredictInput::Click { at, step: 0.1 };
        editor
            .apply(Command::Lesson(LessonCommand::Predict(input)))
            .expect("a click answers a local position");
    };
    let play = |editor: &mut Editor| {
        editor
            .apply(Command::Lesson(LessonCommand::ShowMe))
            .unwrap();
        for _ in 0..10 {
            editor.tick(0.5);
        }
    };
    // Where the sword is now, in the world: it stays there, at local (-3, 3) on the body.
    click(&mut editor, 2.02, 2.98);
    let run = editor.lesson().unwrap();
    let p = run.prediction().unwrap().value;
    assert_eq!(
        p,
        Value::Vector(glam::vec2(-3.0, 3.0)),
        "read in the body's space"
    );
    let mark = run.prediction_mark(editor.doc().scene()).expect("drawn");
    let graft::editor::view::prediction_prims::PredictionMark::Point { predicted, .. } = mark
    else {
        panic!("a point: {mark:?}");
    };
    assert!(
        predicted.distance(glam::vec2(2.0, 3.0)) < 1e-4,
        "where it was clicked: {predicted}"
    );
    play(&mut editor);
    let feedback = editor.lesson().unwrap().feedback().expect("revealed");
    assert_eq!(feedback.verdict, Verdict::Right, "{}", feedback.sentence);
    // A click at (7, 3) reads (2, 3) in the body's space: the world position taken as local.
    editor.apply(Command::Lesson(LessonCommand::Reset)).unwrap();
    editor.tick(0.016);
    click(&mut editor, 7.0, 3.0);
    play(&mut editor);
    let feedback = editor.lesson().unwrap().feedback().expect("revealed");
    assert_eq!(
        feedback.verdict,
        Verdict::Mistake(0),
        "{}",
        feedback.sentence
    );
}

/// The built-in lessons that ask for predictions draw their numbers (issue 50): seed 0 gives
/// the worked example's numbers, and every combination a learner can draw plays (played over
/// enough seeds to meet each one, more than `graft lesson check`'s 50), two learners mostly
/// different ones.
#[test]
fn the_courses_predict_lessons_vary_and_every_learners_numbers_play() {
    use std::collections::BTreeSet;
    // (lesson, the worked example's answer of its predict step: (step, x, y or angle))
    let lessons: [(usize, usize, &[f32]); 5] = [
        (1, 1, &[1.0, 3.0]),
        (3, 1, &[6.0, 0.0]),
        (4, 0, &[36.87]),
        (5, 1, &[3.4964, 2.1891]),
        (6, 2, &[-16.495, -3.75]),
    ];
    for (k, s, classic) in lessons {
        let lesson = read_lesson(&LessonSource::Builtin(k)).unwrap();
        let combos: usize = (lesson.steps.iter().flat_map(|s| &s.vary))
            .map(|v| ((v.high - v.low) / v.by).round() as usize + 1)
            .product();
        assert!(combos >= 5, "lesson {}: {combos} combinations", k + 1);
        let mut seen = BTreeSet::new();
        for seed in 0..400 {
            let walk = walk_seeded(&lesson, seed).expect("plays");
            assert!(
                walk.failures.is_empty(),
                "lesson {} seed {seed}: {:?}",
                k + 1,
                walk.failures
            );
            let drawn: Vec<String> = (walk.lesson.steps.iter().flat_map(|s| &s.vary))
                .map(|v| format!("{:?}", v.value))
                .collect();
            seen.insert(drawn);
            if seed == 0 {
                let truth = walk.starts[s].truth().expect("a predict step");
                let answer = match truth.answer {
                    Value::Vector(p) => vec![p.x, p.y],
                    Value::Number(a) => vec![a],
                };
                let near = answer
                    .iter()
                    .zip(classic)
                    .all(|(a, b)| (a - b).abs() < 0.01);
                assert!(near, "lesson {}: seed 0 gives {answer:?}", k + 1);
            }
        }
        assert_eq!(
            seen.len(),
            combos,
            "lesson {}: every combination drawn",
            k + 1
        );
    }
}
