//! A step frames what it is about over time (issue 44): in the solar system lesson at
//! 1280×800, every node a step names is inside the viewport at the step's start and at every
//! second of the 12-second clip, from the world and from the earth (step 5's view); and Reset
//! step frames it again after the learner looked away.

#[path = "ui_common/learner.rs"]
mod learner;
mod ui_common;

use egui::{Key, Modifiers};
use learner::{Gesture, Learner};

/// The clip's times a learner can play through, one per second and a half.
const TIMES: [&str; 9] = ["0", "1.5", "3", "4.5", "6", "7.5", "9", "10.5", "12"];

/// Set the clip's time by the timeline's field and check the step's nodes are in view.
fn in_view_over_the_clip(learner: &mut Learner, what: &str) {
    for t in TIMES {
        learner.perform(&Gesture::Field("current time, seconds", t));
        learner.frames(3);
        learner.assert_subject_in_view(&format!("{what}, at {t} s"));
    }
}

#[test]
fn the_solar_lesson_keeps_its_nodes_in_view_over_the_whole_clip() {
    let mut h = learner::app_at(egui::vec2(1280.0, 800.0));
    let mut learner = Learner::new(&mut h);
    learner.open_from_help_menu(7);
    learner.start();
    let steps = learner.run().lesson().steps.len();
    for s in 1..=steps {
        learner.go_to_step(s);
        let what = format!("step {s}");
        learner.assert_subject_in_view(&format!("{what}, at its start"));
        if s == steps {
            // The view from the earth.
            learner.perform(&Gesture::Row("earth"));
            learner.perform(&Gesture::Press(Modifiers::NONE, Key::Num3));
            learner.frames(4);
            learner.assert_subject_in_view(&format!("{what}, from the earth"));
        }
        in_view_over_the_clip(&mut learner, &what);
    }
}

#[test]
fn reset_step_frames_the_step_again() {
    let mut h = learner::app_at(egui::vec2(1280.0, 800.0));
    let mut learner = Learner::new(&mut h);
    learner.open_from_help_menu(7);
    learner.start();
    // Zoom far out by the wheel over the viewport: the moon is a speck, then Reset step.
    let viewport = learner.h.state().viewport.last_rect;
    for _ in 0..6 {
        learner.wheel_at(viewport.center(), -400.0);
    }
    let zoom_out = learner.h.state().viewport.camera.zoom;
    learner.click("Reset step");
    learner.frames(4);
    let zoom_reset = learner.h.state().viewport.camera.zoom;
    assert!(
        zoom_reset > zoom_out * 2.0,
        "Reset step frames the step again: zoom {zoom_out} → {zoom_reset}"
    );
    learner.assert_subject_in_view("after Reset step");
}
