//! Lessons without a window: the format's errors at FILE:LINE:COL, `graft lesson check` on the
//! built-in course and on lessons written to be broken, the doc's own example, and a lesson
//! followed through `Editor::apply` (goals tick and untick, Show me is one undo step, Reset,
//! progress, the unsaved-changes prompt).

mod common;
use graft::editor::lesson::course::COURSE;
use graft::editor::lesson::parse::parse;
use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, FileCommand, GuardAnswer, HistoryCommand, PanelCommand, SelectionCommand,
};
use graft::editor::session::drop_rules::{DropPreview, DropZone};
use graft::editor::session::lesson::{LessonCommand, LessonSource, read_lesson};
use graft::editor::session::lesson_check::walk_lesson;
use graft::model::document::Document;
use graft::model::scene::Keep;
use graft::model::scene::NodeId;
use std::path::{Path, PathBuf};

const SWORD: NodeId = NodeId(4);
const BODY: NodeId = NodeId(1);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/lessons")
        .join(name)
}

fn graft(args: &[&str]) -> (i32, String, String) {
    common::run_graft(args)
}

#[test]
fn every_built_in_lesson_passes_its_own_check() {
    let (code, out, err) = graft(&["lesson", "check", "--builtin"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("ok ")).count(),
        COURSE.len(),
        "{out}"
    );
    for k in 0..COURSE.len() {
        let lesson = read_lesson(&LessonSource::Builtin(k)).expect("parses");
        assert!(
            (3..=6).contains(&lesson.steps.len()),
            "{}: 3–6 steps",
            lesson.title
        );
        let (starts, failures) = walk_lesson(&lesson).expect("plays");
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(starts.len(), lesson.steps.len());
    }
    let (code, list, _) = graft(&["lesson", "list"]);
    assert_eq!(code, 0);
    assert!(
        list.contains("Reparenting") && list.contains("Bounds and culling"),
        "{list}"
    );
}

#[test]
fn lessons_written_to_be_broken_fail_naming_the_step_and_the_goal() {
    let cases = [
        (
            "goal-true-from-start.lesson",
            "goal-true-from-start.lesson:7:7: step 1 \"Nothing to do\": goal `sword parent is hand` already holds before the solution",
        ),
        (
            "solution-misses.lesson",
            "solution-misses.lesson:6:7: step 1 \"Sheathe the sword\": goal `sword parent is body` does not hold after the solution",
        ),
        (
            "broken-keep.lesson",
            "broken-keep.lesson:7:7: step 1 \"Reparent keeping the local numbers\": keep `sword world position is (2, 3)` does not hold after the solution",
        ),
        (
            "unknown-node.lesson",
            "unknown-node.lesson:6:7: no node is called `shield` in the scene of step \"Move the shield\"",
        ),
        (
            "malformed.lesson",
            "malformed.lesson:6:1: unknown key `gaol:`",
        ),
        (
            "missing-scene.lesson",
            "missing-scene.lesson:5:8: cannot open the scene",
        ),
    ];
    for (file, expected) in cases {
        let path = fixture(file);
        let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{file}: {out}{err}");
        assert!(out.contains("FAIL"), "{file}: {out}");
        assert!(
            err.contains(expected),
            "{file}: expected `{expected}` in\n{err}"
        );
    }
    // One bad file among good ones fails the run but every file is reported.
    let good = fixture("inline-and-file.lesson");
    let bad = fixture("solution-misses.lesson");
    let (code, out, _) = graft(&[
        "lesson",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("ok   ") && out.contains("FAIL"), "{out}");
}

/// Written by a helper who read only docs/lesson-format.md, docs/scene-format.md and the
/// sample scenes (not the source): it passed on its first check.
#[test]
fn a_lesson_written_from_the_format_doc_alone_passes() {
    let path = fixture("from-the-doc/pivot.lesson");
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 steps, 22 goals and keeps"), "{out}");
}

#[test]
fn inline_scenes_scene_files_and_quoted_names_work() {
    let path = fixture("inline-and-file.lesson");
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let lesson = read_lesson(&LessonSource::File(path)).unwrap();
    assert_eq!(lesson.id, "inline-and-file");
    assert_eq!(
        lesson.steps[0].goals[0].label,
        "The moon's orbit is above the pivot"
    );
}

/// Each bad text and where its error must point.
#[test]
fn malformed_lessons_are_refused_at_line_and_column() {
    let head = "graft lesson 1\ntitle: T\nstep: S\nscene: sample sword\n";
    let cases: [(&str, &str); 12] = [
        (
            "title: T\n",
            "x.lesson:1:1: a lesson file starts with the line `graft lesson 1`",
        ),
        (
            "graft lesson 1\nstep: S\nscene: sample sword\ngoal: sword exists\ndo: select sword\n",
            "x.lesson:5:1: the lesson has no `title:` line",
        ),
        (
            "graft lesson 1\ntitle: T\n",
            "x.lesson:2:1: the lesson has no `step:`",
        ),
        (
            "graft lesson 1\ntitle: T\nstep: S\ngoal: sword exists\ndo: select sword\n",
            "x.lesson:3:1: the first step needs a `scene:`",
        ),
        (
            "graft lesson 1\ntitle: T\nstep: S\nscene: sample swrd\n",
            "x.lesson:4:15: no sample scene is called `swrd`",
        ),
        (
            "goal: sword world position is (2 3)\n",
            "x.lesson:5:34: expected `,` between x and y",
        ),
        (
            "goal: sword world posture is (2, 3)\n",
            "x.lesson:5:19: expected `position`, `rotation`, `scale` or `skew`",
        ),
        (
            "goal: view shows wireframe\n",
            "x.lesson:5:18: expected `axes`",
        ),
        (
            "goal: sword parent is \"body\n",
            "x.lesson:5:23: this quoted name is never closed",
        ),
        (
            "goal: time is past -1e999\n",
            "x.lesson:5:20: `-1e999` is out of range for a number (f32",
        ),
        (
            "goal: sword exists\ndo: fly sword\n",
            "x.lesson:6:5: expected `select`",
        ),
        (
            "goal: sword exists\ndo: select sword\nstep: S2\nscene:\n(format: 1, nodes: [])\n",
            "x.lesson:9:1: `scene:` with no value is followed by the scene's text between two ``` lines",
        ),
    ];
    for (k, (text, expected)) in cases.iter().enumerate() {
        let text = if text.starts_with("graft") || text.starts_with("title") {
            text.to_string()
        } else {
            format!("{head}{text}")
        };
        let error = parse(&text, Path::new("x.lesson")).expect_err(&format!("case {k} refused"));
        assert!(
            error.to_string().starts_with(expected),
            "case {k}: `{error}` should start with `{expected}`"
        );
    }
}

/// Issue 38: degrees with `°`, numbers that say what is wrong, long names cut in messages,
/// `frame:` naming nodes.
#[test]
fn reader_errors_say_what_is_wrong_and_quote_at_most_60_characters() {
    let head = "graft lesson 1\ntitle: T\nstep: S\nscene: sample sword\n";
    let read = |tail: &str| parse(&format!("{head}{tail}"), Path::new("x.lesson"));
    let ok = read("goal: sword world rotation is 45° ± 0.5°\ndo: set sword world rotation 45°\n")
        .expect("° after degrees");
    assert_eq!(ok.steps[0].solution.len(), 1);
    let framed = read("frame: sword, \"body\"\ngoal: sword exists\ndo: select sword\n").unwrap();
    let names = framed.steps[0]
        .setup
        .frame_nodes
        .as_ref()
        .expect("frame: NODES");
    assert_eq!(names.len(), 2);
    let long = "n".repeat(5_000_000);
    let cases: Vec<(String, String)> = vec![
        (
            "goal: time is past 1e39\n".into(),
            "x.lesson:5:20: `1e39` is out of range for a number (f32".into(),
        ),
        (
            "goal: time is past 1.2.3\n".into(),
            "x.lesson:5:20: `1.2.3` is not a number (write decimals".into(),
        ),
        (
            "goal: sword world rotation is ° 90\n".into(),
            "x.lesson:5:31: `°` follows a number of degrees (`90°`)".into(),
        ),
        (
            format!("{}\n", "1".repeat(100_000))
                .replace('1', "1")
                .replacen("", "goal: time is past ", 1),
            format!("x.lesson:5:20: `{}…` is out of range", "1".repeat(60)),
        ),
        (
            format!("goal: {long} parent is body\ndo: select sword\n"),
            format!("x.lesson:5:7: no node is called `{}…`", "n".repeat(60)),
        ),
        (
            format!("{}: x\n", "k".repeat(1000)),
            format!("x.lesson:5:1: unknown key `{}…:`", "k".repeat(60)),
        ),
        (
            "frame: shield\ngoal: sword exists\ndo: select sword\n".into(),
            "x.lesson:5:8: no node is called `shield`".into(),
        ),
    ];
    for (k, (tail, expected)) in cases.iter().enumerate() {
        let error = match read(tail) {
            Err(e) => e.to_string(),
            Ok(lesson) => match walk_lesson(&lesson) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("case {k} refused"),
            },
        };
        assert!(
            error.starts_with(expected.as_str()),
            "case {k}: `{}` should start with `{}`",
            &error[..error.len().min(300)],
            &expected[..expected.len().min(300)]
        );
        assert!(error.len() < 1000, "case {k}: the message is short");
    }
}

#[test]
fn the_format_documents_own_example_is_a_working_lesson() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lesson-format.md"),
    )
    .unwrap();
    let start = doc.find("```\ngraft lesson 1").expect("the example") + 4;
    let end = start + doc[start..].find("\n```").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("example.lesson");
    std::fs::write(&path, &doc[start..end]).unwrap();
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
}

fn open_reparenting() -> Editor {
    let mut editor = Editor::new(Document::sample());
    let k = COURSE
        .iter()
        .position(|(f, _)| f.contains("reparent"))
        .unwrap();
    editor
        .apply(Command::Lesson(LessonCommand::Open(LessonSource::Builtin(
            k,
        ))))
        .unwrap();
    editor.tick(0.016);
    editor
}

fn goals(editor: &Editor) -> Vec<bool> {
    editor
        .lesson()
        .unwrap()
        .checklist()
        .iter()
        .map(|(_, ok)| *ok)
        .collect()
}

#[test]
fn a_goal_ticks_however_the_learner_gets_there_and_unticks_after_undo() {
    let mut editor = open_reparenting();
    let run = editor.lesson().unwrap();
    assert_eq!((run.step_index(), run.step_done()), (0, false));
    assert!(
        editor.doc().path().is_none() && !editor.doc().is_modified(),
        "a fresh untitled document"
    );
    let drop = DropPreview::plan(
        editor.doc().scene(),
        &[SWORD],
        DropZone::Into(BODY),
        Keep::World,
    );
    editor
        .apply(Command::Panel(PanelCommand::DropRows(Box::new(drop))))
        .unwrap();
    editor.tick(0.016);
    assert!(editor.lesson().unwrap().step_done(), "{:?}", goals(&editor));
    assert!(editor.lesson_progress().is_done("04-reparent", 0));
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    editor.tick(0.016);
    assert!(
        !editor.lesson().unwrap().step_done(),
        "undo unticks: {:?}",
        goals(&editor)
    );
    assert!(
        editor.apply(Command::Lesson(LessonCommand::Next)).is_err(),
        "Next waits for the goals"
    );
    // Through Node > Move to… instead of a drop: the same goals through another command.
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![SWORD])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::MoveTo {
            parent: Some(BODY),
            keep: Keep::World,
        }))
        .unwrap();
    editor.tick(0.016);
    assert!(editor.lesson().unwrap().step_done());
    editor.apply(Command::Lesson(LessonCommand::Next)).unwrap();
    editor.tick(0.016);
    assert_eq!(editor.lesson().unwrap().step_index(), 1);
}

#[test]
fn show_me_is_one_undo_step_and_reset_restores_the_step() {
    let mut editor = open_reparenting();
    let before = editor.doc().scene().node(SWORD).unwrap().local;
    editor
        .apply(Command::Lesson(LessonCommand::ShowMe))
        .unwrap();
    assert!(editor.lesson().unwrap().showing());
    for _ in 0..100 {
        editor.tick(0.1);
    }
    assert!(!editor.lesson().unwrap().showing());
    assert!(editor.lesson().unwrap().step_done(), "{:?}", goals(&editor));
    assert_eq!(editor.doc().history().labels().0.len(), 1, "one undo step");
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    editor.tick(0.016);
    assert_eq!(
        editor.doc().scene().node(SWORD).unwrap().local,
        before,
        "undo takes it all back"
    );
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .unwrap();
    editor.apply(Command::Lesson(LessonCommand::Reset)).unwrap();
    editor.tick(0.016);
    assert_eq!(
        editor.doc().scene().node(SWORD).unwrap().local,
        before,
        "reset restores the scene"
    );
    assert_eq!(editor.doc().scene().parent(SWORD).unwrap(), Some(NodeId(3)));
    assert!(!editor.lesson().unwrap().step_done());
    // Another command while Show me plays finishes it first: still one undo step.
    editor
        .apply(Command::Lesson(LessonCommand::ShowMe))
        .unwrap();
    editor.tick(0.016);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![BODY])))
        .unwrap();
    assert!(!editor.lesson().unwrap().showing());
    assert_eq!(editor.doc().history().labels().0.len(), 1);
}

#[test]
fn leaving_a_lesson_with_changes_asks_and_a_bad_lesson_changes_nothing() {
    let mut editor = open_reparenting();
    editor
        .apply(Command::Lesson(LessonCommand::ShowMe))
        .unwrap();
    editor.apply(Command::File(FileCommand::New)).unwrap();
    assert!(
        editor.pending_guard().is_some(),
        "the lesson's scene has changes: asked"
    );
    editor
        .apply(Command::File(FileCommand::AnswerGuard(GuardAnswer::Cancel)))
        .unwrap();
    assert!(editor.lesson().is_some());
    let bad = fixture("unknown-node.lesson");
    let scene_before = editor.doc().scene().ids().to_vec();
    let history_before = editor.doc().history().labels().0.len();
    let error = editor
        .apply(Command::File(FileCommand::OpenPath(bad)))
        .expect_err("refused");
    assert!(
        error.to_string().contains("unknown-node.lesson:6:7"),
        "{error}"
    );
    assert_eq!(editor.doc().scene().ids(), scene_before.as_slice());
    assert_eq!(editor.doc().history().labels().0.len(), history_before);
    assert_eq!(
        editor.lesson().unwrap().lesson().title,
        "Reparenting",
        "the lesson stays"
    );
    editor.apply(Command::File(FileCommand::New)).unwrap();
    editor
        .apply(Command::File(FileCommand::AnswerGuard(
            GuardAnswer::Discard,
        )))
        .unwrap();
    assert!(editor.lesson().is_none(), "another scene ends the lesson");
}

#[test]
fn a_lesson_file_opens_by_path_and_resumes_where_the_learner_was() {
    let mut editor = Editor::new(Document::sample());
    editor
        .apply(Command::File(FileCommand::OpenPath(fixture(
            "inline-and-file.lesson",
        ))))
        .unwrap();
    editor.tick(0.016);
    assert_eq!(
        editor.lesson().unwrap().lesson().title,
        "Inline scenes and scene files"
    );
    editor
        .apply(Command::Lesson(LessonCommand::ShowMe))
        .unwrap();
    editor.apply(Command::Lesson(LessonCommand::Next)).unwrap();
    editor.tick(0.016);
    let progress = editor.lesson_progress().clone();
    let mut later = Editor::new(Document::sample()).with_lesson_progress(progress);
    later
        .apply(Command::File(FileCommand::OpenPath(fixture(
            "inline-and-file.lesson",
        ))))
        .unwrap();
    assert_eq!(
        later.lesson().unwrap().step_index(),
        1,
        "resumes at the first step not done"
    );
    later.apply(Command::Lesson(LessonCommand::Back)).unwrap();
    assert_eq!(later.lesson().unwrap().step_index(), 0);
}

/// Ten million units from the origin an f32 steps by 1: a goal within 0.01 could never hold
/// there, so a comparison allows the value's own resolution (4 f32 steps) — and no more.
#[test]
fn goals_far_from_the_origin_compare_at_f32_resolution() {
    let text = "graft lesson 1\ntitle: Far away\n\nstep: Move it\nscene:\n```\n(format: 1, nodes: [\n    (id: 1, name: \"far\", position: (10000000.0, 0.0)),\n    (id: 2, name: \"child\", parent: Some(1), position: (0.3, 0.0)),\n])\n```\ngoal: child world position is (10000005.3, 0)\ndo: set child local position (5.3, 0)\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.lesson");
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(
        code, 0,
        "the goal holds at f32 resolution after the solution, not before: {out}{err}"
    );
}

/// `lesson check` of a long lesson stays linear: 10,000 steps (each turning keep-world the other
/// way) are read and walked, every step's goal false before its solution and true after.
#[test]
fn ten_thousand_steps_are_read_and_checked() {
    let mut text = String::from("graft lesson 1\ntitle: Many\n");
    for k in 0..10_000 {
        let (goal, undo) = if k % 2 == 0 {
            ("off", "on")
        } else {
            ("on", "off")
        };
        text += &format!(
            "\nstep: Step {k}\nscene: sample sword\nkeep-world: {undo}\ngoal: keep-world is {goal}\ndo: keep-world {goal}\n"
        );
    }
    let lesson = parse(&text, Path::new("many.lesson")).expect("parses");
    assert_eq!(lesson.steps.len(), 10_000);
    let (starts, failures) = walk_lesson(&lesson).expect("plays");
    assert_eq!(starts.len(), 10_000);
    assert!(
        failures.is_empty(),
        "{:?}",
        &failures[..failures.len().min(3)]
    );
}

/// A number the text states about a linked node that the screen shows neither at the step's
/// start nor after its solution is refused at its place (issue 44.6); the true ones pass.
#[test]
fn a_false_number_in_a_steps_text_is_refused_at_its_line() {
    let path = fixture("false-number.lesson");
    let (code, out, err) = graft(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    let expected = "false-number.lesson:8:21: step 1 \"Move the body\": the text says the hand position is (9, 9), but the screen shows (0, 3) or (2, 2) at the step's start and (0, 3) or (3, 3) after its solution";
    assert!(err.contains(expected), "expected `{expected}` in\n{err}");
    assert_eq!(
        err.matches("the text says").count(),
        1,
        "only the false one: {err}"
    );
}
