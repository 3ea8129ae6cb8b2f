//! Show me in the window (issue 44): every step of every built-in lesson, played by pressing
//! Show me and waiting for it to finish, ends with every goal ticked and Next (Finish) lit, as
//! `graft lesson check` says it does headless. A goal that reads per-frame state (how many
//! world matrices the last change recomputed) must see Show me's own change, not the frame's.

#[path = "ui_common/learner.rs"]
mod learner;
mod ui_common;

use graft::editor::lesson::course::COURSE;
use graft::editor::session::lesson::{LessonSource, read_lesson};
use learner::Learner;

/// Press Show me and let it play to its end (it plays one action every few frames).
fn show_me(learner: &mut Learner, what: &str) {
    learner.click("Show me");
    for _ in 0..200 {
        if !learner.run().showing() {
            break;
        }
        learner.frames(2);
    }
    assert!(!learner.run().showing(), "{what}: Show me did not finish");
    learner.frames(3);
}

#[test]
fn show_me_finishes_every_step_of_every_built_in_lesson_in_the_window() {
    let mut h = learner::app_at(egui::vec2(1280.0, 800.0));
    let mut learner = Learner::new(&mut h);
    learner.open_from_help_menu(1);
    for k in 0..COURSE.len() {
        let lesson = read_lesson(&LessonSource::Builtin(k)).expect("a built-in lesson reads");
        assert_eq!(learner.run().lesson().title, lesson.title);
        learner.start();
        for s in 0..lesson.steps.len() {
            let what = format!("{}, step {}", lesson.title, s + 1);
            assert_eq!(learner.run().step_index(), s, "{what}");
            assert!(!learner.step_done(), "{what}: done before Show me");
            show_me(&mut learner, &what);
            learner.assert_ticked(&what);
            let last = s + 1 == lesson.steps.len();
            learner.click(if last { "Finish ✔" } else { "Next ⏵" });
            learner.frames(6);
        }
        assert!(
            learner.run().finished().is_some(),
            "{}: finished",
            lesson.title
        );
        if k + 1 < COURSE.len() {
            learner.next_lesson();
        }
    }
}
