#[path = "ui_common/learner.rs"]
mod learner;
mod ui_common;
use learner::{Gesture, Learner};

#[test]
fn shot() {
    let mut h = learner::app_at(egui::vec2(1280.0, 800.0));
    let mut l = Learner::new(&mut h);
    l.open_from_help_menu(2);
    l.start();
    l.go_to_step(2);
    l.predict_click(glam::vec2(2.0, 4.0));
    l.frames(3);
    l.h.render().unwrap().save("/tmp/h50_before.png").unwrap();
    l.perform(&Gesture::Row("hand"));
    l.perform(&Gesture::Field("hand, local position y", "4"));
    l.frames(5);
    l.h.render().unwrap().save("/tmp/h50_after.png").unwrap();
    // An angle: lesson 05 step 1.
    l.open_from_help_menu(5);
    l.start();
    l.predict_typed("45");
    l.perform(&Gesture::Menu("View", "Shear warning overlay"));
    l.perform(&Gesture::Row("rotated child"));
    l.frames(5);
    l.h.render().unwrap().save("/tmp/h50_angle.png").unwrap();
}
