//! **Show the gesture** on a row the learner cannot see (issue 38.3): the sword's row folded
//! under a collapsed parent, or scrolled away in a long hierarchy. The rows are brought into
//! view first (parents expanded, the list scrolled, as it does for the selection), then the
//! ghost pointer plays from the sword's row to the body's, at 1280×800. A `point: row` on a
//! folded row is unfolded the same way when the point is first shown.

use egui::Rect;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::app::lesson_overlay::{GESTURE_SECONDS, Painted, painted};
use graft::editor::session::command::{
    Command, EditCommand, FileCommand, GuardAnswer, NewNodePlace,
};
use graft::editor::session::lesson::{LessonCommand, LessonSource};

/// The course's Reparenting lesson: step 1 drags the sword's row onto the body's.
const REPARENT: usize = 3;
const FPS: f32 = 30.0;

fn reparenting() -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / FPS)
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    let open = LessonCommand::Open(LessonSource::Builtin(REPARENT));
    h.state_mut().run(Command::Lesson(open));
    h.run_steps(3);
    if h.state().editor().pending_guard().is_some() {
        h.state_mut().run(Command::File(FileCommand::AnswerGuard(
            GuardAnswer::Discard,
        )));
    }
    h.state_mut().run(Command::Lesson(LessonCommand::Begin));
    h.run_steps(4);
    h
}

/// A hierarchy row's rect, when it is drawn (a row scrolled away is in the tree, with no
/// place on screen).
fn row(h: &Harness<GraftApp>, name: &str) -> Option<Rect> {
    let node = h.query_by_role_and_label(Role::TreeItem, name)?;
    let b = node.accesskit_node().bounding_box()?;
    let rect = Rect::from_min_max(
        egui::pos2(b.x0 as f32, b.y0 as f32),
        egui::pos2(b.x1 as f32, b.y1 as f32),
    );
    Some(rect)
}

/// Press Show the gesture and keep the frames in which the ghost pointer is drawn.
fn play_gesture(h: &mut Harness<GraftApp>) -> Vec<Painted> {
    h.get_by_label("Show the gesture").click();
    let mut frames = Vec::new();
    for _ in 0..(GESTURE_SECONDS as f32 * FPS * 3.0) as usize {
        h.step();
        let shown = painted(&h.ctx);
        if shown.ghost.is_some() {
            frames.push(shown);
        } else if !frames.is_empty() {
            break;
        }
    }
    frames
}

/// The ghost pointer went from the sword's row to the body's row, both drawn now.
fn assert_played_from_sword_to_body(h: &Harness<GraftApp>, frames: &[Painted]) {
    assert!(
        frames.len() as f32 / FPS > GESTURE_SECONDS as f32 - 0.3,
        "the whole gesture plays ({} frames)",
        frames.len()
    );
    let sword = row(h, "sword").expect("the sword's row is shown now");
    let body = row(h, "body").expect("the body's row is shown now");
    let (first, last) = (
        frames[0].ghost.unwrap(),
        frames.last().unwrap().ghost.unwrap(),
    );
    let on = |r: Rect, p: egui::Pos2| (r.top()..=r.bottom()).contains(&p.y);
    assert!(
        on(sword, first),
        "starts on the sword's row: {first:?} {sword:?}"
    );
    assert!(on(body, last), "ends on the body's row: {last:?} {body:?}");
}

/// Fold the arm (the sword hangs under arm > hand) with the keyboard on its row.
fn fold_the_arm(h: &mut Harness<GraftApp>) {
    h.get_by_role_and_label(Role::TreeItem, "arm").click();
    h.run_steps(2);
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(3);
}

/// The lesson's highlight holds the sword's row, which is drawn.
fn assert_sword_row_highlighted(h: &Harness<GraftApp>, what: &str) {
    let sword = row(h, "sword").unwrap_or_else(|| panic!("{what}: the sword's row is hidden"));
    let lit = painted(&h.ctx).highlight;
    assert!(
        lit.is_some_and(|lit| lit.expand(0.5).contains_rect(sword)),
        "{what}: {lit:?} does not hold the sword's row {sword:?}"
    );
}

#[test]
fn a_point_on_a_folded_row_unfolds_it_when_first_shown_and_on_where() {
    let mut h = reparenting();
    assert_sword_row_highlighted(&h, "step 1");
    fold_the_arm(&mut h);
    assert_eq!(
        row(&h, "sword"),
        None,
        "a fold made while pointed at is kept"
    );
    // Step 3 first points at the sword's row, highlighted.
    h.state_mut().run(Command::Lesson(LessonCommand::GoTo(2)));
    h.run_steps(4);
    assert_sword_row_highlighted(&h, "step 3");
    // Folded while pointed at, it stays folded until Where? shows the point again, which
    // unfolds it (this fails without the reveal).
    fold_the_arm(&mut h);
    assert_eq!(row(&h, "sword"), None, "folded again");
    h.get_by_label("Where?").click();
    h.run_steps(4);
    assert_sword_row_highlighted(&h, "after Where?");
}

#[test]
fn show_the_gesture_unfolds_a_collapsed_parent_first() {
    let mut h = reparenting();
    fold_the_arm(&mut h);
    assert_eq!(row(&h, "sword"), None, "the sword's row is folded away");
    let frames = play_gesture(&mut h);
    assert!(!frames.is_empty(), "the ghost pointer plays");
    assert_played_from_sword_to_body(&h, &frames);
    assert!(
        !h.state().editor().lesson().unwrap().step_done(),
        "it did nothing"
    );
}

#[test]
fn show_the_gesture_scrolls_to_rows_scrolled_away() {
    let mut h = reparenting();
    for _ in 0..80 {
        h.state_mut()
            .run(Command::Edit(EditCommand::AddNode(NewNodePlace::Root)));
    }
    h.run_steps(3);
    // Each new node was selected and the list followed it to its end.
    assert_eq!(row(&h, "sword"), None, "the sword's row is scrolled away");
    let frames = play_gesture(&mut h);
    assert!(!frames.is_empty(), "the ghost pointer plays");
    assert_played_from_sword_to_body(&h, &frames);
}

#[test]
fn a_row_the_filter_hides_is_named_with_what_to_clear() {
    let mut h = reparenting();
    // The hierarchy's filter is the leftmost text field.
    h.query_all_by_role(Role::TextInput)
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the filter field")
        .click();
    h.run_steps(2);
    h.event(egui::Event::Text("body".into()));
    h.run_steps(3);
    assert_eq!(row(&h, "sword"), None, "the filter hides the sword's row");
    h.get_by_label("Show the gesture").click();
    h.run_steps(6);
    let shown = painted(&h.ctx);
    assert_eq!(shown.ghost, None, "no ghost pointer between rows not shown");
    let said = shown.bubble.unwrap_or_default();
    assert!(
        said.contains("sword") && said.contains("clear its filter"),
        "{said}"
    );
}
