//! A teacher's report (issue 50): a learner's progress keeps each step's time, hints, Show me
//! and prediction; `graft lesson report` over 30 generated learners' progress files prints the
//! class table (and `--csv`), naming and skipping a file that is not progress.

mod common;
use graft::editor::lesson::course::COURSE;
use graft::editor::lesson::progress::{CourseProgress, PredictionRecord, StepRecord};
use graft::editor::session::Editor;
use graft::editor::session::command::Command;
use graft::editor::session::lesson::{LessonCommand, LessonSource};
use graft::editor::session::lesson_predict::PredictInput;
use graft::model::document::Document;

/// Learner `i` of the generated class: step 1 done by all in 10 + 2i seconds; the predict step
/// (2) done by those with i % 3 != 0, predicting by i % 4: right, no-parent-rotation twice,
/// local-as-world.
fn learner(i: usize) -> CourseProgress {
    let mut p = CourseProgress::default().with_seed(i as u64 + 1);
    p.complete("02-chain", 0);
    p.record(
        "02-chain",
        0,
        StepRecord {
            seconds: 10.0 + 2.0 * i as f32,
            ..Default::default()
        },
    );
    if !i.is_multiple_of(3) {
        let verdict = [
            "right",
            "no-parent-rotation",
            "no-parent-rotation",
            "local-as-world",
        ][i % 4];
        p.complete("02-chain", 1);
        p.record(
            "02-chain",
            1,
            StepRecord {
                seconds: 60.0,
                hints: i % 2,
                shown: false,
                prediction: Some(PredictionRecord {
                    value: vec![1.0, 3.0],
                    verdict: verdict.into(),
                    error: 0.0,
                    late: false,
                }),
            },
        );
    }
    p
}

#[test]
fn the_report_of_30_learners_and_a_file_that_is_not_progress() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["lesson".to_string(), "report".to_string()];
    for i in 0..30 {
        let path = dir.path().join(format!("learner{i:02}.json"));
        std::fs::write(&path, learner(i).to_json()).unwrap();
        args.push(path.display().to_string());
    }
    let bad = dir.path().join("notes.json");
    std::fs::write(&bad, "{ this is not progress").unwrap();
    args.push(bad.display().to_string());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = common::run_graft(&argv);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains(&format!(
            "skipped {}: not a graft progress file",
            bad.display()
        )),
        "{err}"
    );
    // Step 2 by 20 learners (i % 3 != 0); of their predictions (i % 4): right 5, two mistakes
    // named no-parent-rotation 11 times, local-as-world 4.
    let finishers: Vec<usize> = (0..30usize).filter(|i| !i.is_multiple_of(3)).collect();
    let right = finishers.iter().filter(|i| *i % 4 == 0).count();
    let sums = finishers.iter().filter(|i| matches!(*i % 4, 1 | 2)).count();
    assert_eq!((finishers.len(), right, sums), (20, 5, 11));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "30 learners", "{out}");
    let words = |line: &str| {
        line.split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        words(lines[1]),
        [
            "lesson",
            "step",
            "finished",
            "median",
            "time",
            "predictions",
            "right",
            "most",
            "common",
            "mistake"
        ]
    );
    // Step 1: everyone, median of 10, 12, …, 68 = 39 s, no prediction.
    assert_eq!(
        words(lines[2]),
        ["02-chain", "1", "30/30", "39", "s", "-", "-"]
    );
    assert_eq!(
        words(lines[3]),
        [
            "02-chain",
            "2",
            "20/30",
            "60",
            "s",
            "5/20",
            "no-parent-rotation",
            "(11)"
        ]
    );
    // Then each learner's seed, so a teacher can see the numbers a learner drew.
    assert_eq!(lines[4], "", "{out}");
    assert!(lines[5].starts_with("seeds (GRAFT_LESSON_SEED=N"), "{out}");
    for i in 0..30usize {
        let line = lines[6 + i].split_whitespace().collect::<Vec<_>>();
        assert!(line[0].ends_with(&format!("learner{i:02}.json")), "{out}");
        assert_eq!(line[1], (i + 1).to_string(), "{out}");
    }
    assert_eq!(lines.len(), 36, "{out}");
    let mut csv_args = argv.clone();
    csv_args.push("--csv");
    let (code, csv, _) = common::run_graft(&csv_args);
    assert_eq!(code, 0);
    let csv: Vec<&str> = csv.lines().collect();
    assert_eq!(
        csv[0],
        "lesson,step,finished,median_seconds,predicted,right,most_common_mistake,times"
    );
    assert_eq!(csv[2], "02-chain,2,20,60.0,20,5,\"no-parent-rotation\",11");
    // Nothing readable at all is a failure.
    let (code, _, err) = common::run_graft(&["lesson", "report", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
}

/// The editor keeps the record: a learner of lesson 02 who asked for a hint and predicted
/// `(6, 6)` (the local positions summed) in step 2.
#[test]
fn the_progress_keeps_hints_time_and_the_prediction_of_a_step() {
    let chain = COURSE
        .iter()
        .position(|(f, _)| f.contains("chain"))
        .unwrap();
    let mut editor = Editor::new(Document::sample());
    let mut apply = |c: LessonCommand| {
        editor.apply(Command::Lesson(c)).unwrap();
        editor.tick(0.016);
    };
    apply(LessonCommand::Open(LessonSource::Builtin(chain)));
    apply(LessonCommand::GoTo(1));
    apply(LessonCommand::Hint);
    apply(LessonCommand::Predict(PredictInput::Typed("(6, 6)".into())));
    let hand = graft::model::scene::NodeId(3);
    let local = editor.doc().scene().node(hand).unwrap().local;
    let moved = graft::model::math::Trs {
        position: glam::vec2(0.0, 4.0),
        ..local
    };
    editor.apply(common::paste_local(hand, moved)).unwrap();
    editor.tick(0.016);
    assert!(editor.lesson().unwrap().step_done());
    let records = editor.lesson_progress().records();
    let record = &records["02-chain"][&1];
    assert_eq!((record.hints, record.shown), (1, false));
    assert!(record.seconds >= 0.0);
    let prediction = record.prediction.as_ref().expect("the prediction");
    assert_eq!(prediction.verdict, "no-parent-rotation");
    assert_eq!(prediction.value, vec![6.0, 6.0]);
    assert!((prediction.error - glam::vec2(5.0, 3.0).length()).abs() < 1e-3);
    // Kept through the window's storage and the exported file alike.
    let progress = editor.lesson_progress();
    assert_eq!(&CourseProgress::from_text(&progress.to_text()), progress);
    assert_eq!(
        &CourseProgress::from_json(&progress.to_json()).unwrap(),
        progress
    );
}
