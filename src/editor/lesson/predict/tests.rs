use super::mistakes::{Scenes, judge, wrong_value};
use super::*;
use crate::editor::lesson::parse::parse;
use crate::editor::lesson::{Lesson, course::sample_scene};
use crate::model::scene::{NodeId, Scene};
use std::path::Path;

const HEAD: &str = "graft lesson 1\ntitle: T\nstep: S\nscene: sample sword\n";

fn lesson(body: &str) -> crate::error::Result<Lesson> {
    parse(&format!("{HEAD}{body}"), Path::new("p.lesson"))
}

fn error(body: &str) -> String {
    lesson(body).expect_err("refused").to_string()
}

const STEP: &str = "goal: hand local position is (0, 4)\ndo: set hand local position (0, 4)\n";

#[test]
fn a_predict_line_and_its_mistakes_parse() {
    let text = format!(
        "predict: sword world position ± 0.3 | Where?\nmistake: no-parent-rotation\nmistake: keep-local | My own words\nmistake: (2, 4) | Up, not left\n{STEP}"
    );
    let l = lesson(&text).expect("parses");
    let p = l.steps[0].predict.as_ref().expect("a prediction");
    assert_eq!(p.node.text, "sword");
    assert_eq!(
        (p.frame, p.kind, p.tolerance),
        (ValueSpace::World, Kind::Position, 0.3)
    );
    assert_eq!(p.question, "Where?");
    assert!(p.by_click());
    let kinds: Vec<_> = p.mistakes.iter().map(|m| m.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            MistakeKind::NoParentRotation,
            MistakeKind::KeepLocal,
            MistakeKind::Named(Value::Vector(glam::vec2(2.0, 4.0)))
        ]
    );
    assert_eq!(p.mistakes[1].text.as_deref(), Some("My own words"));
    assert_eq!(
        p.mistakes[2].at,
        crate::editor::lesson::Pos { line: 8, col: 10 }
    );
    // An angle's default tolerance, and a question made up when none is written.
    let l = lesson(&format!("predict: arm world rotation\n{STEP}")).unwrap();
    let p = l.steps[0].predict.as_ref().unwrap();
    assert_eq!(p.tolerance, PREDICT_ANGLE_TOLERANCE);
    assert!(!p.by_click() && p.question.contains("arm world rotation"));
}

#[test]
fn broken_predict_lines_are_refused_at_their_place() {
    let cases = [
        (
            "mistake: keep-local\n",
            "p.lesson:5:1:",
            "follows the step's `predict:`",
        ),
        (
            "predict: sword world position\nmistake: keep-locl\n",
            "p.lesson:6:10:",
            "no-parent-rotation",
        ),
        (
            "predict: sword world position\nmistake: 30 | An angle\n",
            "p.lesson:6:10:",
            "a vector",
        ),
        (
            "predict: sword world rotation\nmistake: (1, 2) | A vector\n",
            "p.lesson:6:10:",
            "a number",
        ),
        (
            "predict: sword world position\nmistake: (1, 2)\n",
            "p.lesson:6:10:",
            "its sentence",
        ),
        (
            "predict: sword world size\n",
            "p.lesson:5:22:",
            "`position`",
        ),
        (
            "predict: sword world position\npredict: hand world position\n",
            "p.lesson:6:1:",
            "already has",
        ),
    ];
    for (body, place, words) in cases {
        let e = error(&format!("{body}{STEP}"));
        assert!(e.starts_with(place) && e.contains(words), "{body}: {e}");
    }
}

#[test]
fn typed_predictions_read_as_their_kind() {
    let v = |x, y| Some(Value::Vector(glam::vec2(x, y)));
    assert_eq!(read_typed("(1, 3)", Kind::Position), v(1.0, 3.0));
    assert_eq!(read_typed(" -2.5 , 4 ", Kind::Position), v(-2.5, 4.0));
    assert_eq!(read_typed("−1 3", Kind::Scale), v(-1.0, 3.0));
    assert_eq!(read_typed("36.87°", Kind::Skew), Some(Value::Number(36.87)));
    assert_eq!(read_typed("30", Kind::Position), None);
    assert_eq!(read_typed("(1, 2)", Kind::Rotation), None);
    assert_eq!(read_typed("north", Kind::Rotation), None);
    assert_eq!(read_typed("inf, 2", Kind::Position), None);
}

fn two_step_predict(mistakes: &[MistakeKind]) -> (Predict, Truth) {
    let predict = Predict {
        node: crate::editor::lesson::Name {
            text: "sword".into(),
            at: Default::default(),
        },
        frame: ValueSpace::World,
        kind: Kind::Position,
        tolerance: 0.25,
        question: "Where?".into(),
        mistakes: (mistakes.iter())
            .map(|kind| Mistake {
                kind: kind.clone(),
                text: None,
                at: Default::default(),
            })
            .collect(),
        at: Default::default(),
    };
    let truth = Truth {
        answer: Value::Vector(glam::vec2(1.0, 3.0)),
        wrong: vec![
            Value::Vector(glam::vec2(6.0, 6.0)),
            Value::Vector(glam::vec2(1.0, 0.0)),
        ],
        account: Vec::new(),
        space: glam::Affine2::IDENTITY,
    };
    (predict, truth)
}

#[test]
fn a_prediction_is_right_a_named_mistake_or_plain_wrong() {
    let (predict, truth) =
        two_step_predict(&[MistakeKind::NoParentRotation, MistakeKind::LocalAsWorld]);
    let at = |x, y| judge(&predict, &truth, Value::Vector(glam::vec2(x, y)));
    let right = at(1.1, 3.1);
    assert_eq!(right.verdict, Verdict::Right);
    assert!(
        right.sentence.starts_with("Right: (1, 3)"),
        "{}",
        right.sentence
    );
    let sums = at(6.1, 5.9);
    assert_eq!(sums.verdict, Verdict::Mistake(0));
    assert!(
        sums.sentence.contains("local positions added up"),
        "{}",
        sums.sentence
    );
    let local = at(1.0, 0.1);
    assert_eq!(local.verdict, Verdict::Mistake(1));
    assert!(
        local.sentence.contains("sword's local value"),
        "{}",
        local.sentence
    );
    let far = at(40.0, -12.0);
    assert_eq!(far.verdict, Verdict::Wrong);
    assert!(far.sentence.starts_with("Wrong: the answer is (1, 3)"));
    assert!((far.distance - glam::vec2(39.0, -15.0).length()).abs() < 1e-4);
    // Angles a whole turn apart are the same prediction.
    assert!(Value::Number(350.0).distance(Value::Number(-10.0), Kind::Rotation) < 1e-4);
}

fn sample(name: &str) -> Scene {
    let text = sample_scene(name).expect("the sample");
    let mut scene = crate::model::file::parse(text, Path::new("s.ron")).expect("reads");
    scene.update_world();
    scene
}

fn id(scene: &Scene, name: &str) -> NodeId {
    crate::editor::lesson::eval::nodes_named(scene, name)[0]
}

#[test]
fn the_classic_mistakes_are_computed_from_the_scene() {
    // The sword sample: body (5, 0), arm (0, 2) turned 90°, hand (0, 3), sword (1, 0).
    let scene = sample("sword");
    let sword = id(&scene, "sword");
    let scenes = Scenes {
        after: &scene,
        flipped: None,
    };
    let (mut predict, _) = two_step_predict(&[]);
    let wrong = |p: &Predict, kind: MistakeKind| wrong_value(p, &kind, sword, &scenes);
    let v = |x: f32, y: f32| Ok(Value::Vector(glam::vec2(x, y)));
    assert_eq!(wrong(&predict, MistakeKind::NoParentRotation), v(6.0, 5.0));
    assert_eq!(wrong(&predict, MistakeKind::LocalAsWorld), v(1.0, 0.0));
    assert!(wrong(&predict, MistakeKind::KeepLocal).is_err_and(|e| e.contains("reparents a node")));
    assert!(wrong(&predict, MistakeKind::NoInverse).is_err_and(|e| e.contains("local value")));
    // The parent's matrix where its inverse belongs: World_hand · World_sword.
    predict.frame = ValueSpace::Local;
    let Ok(Value::Vector(p)) = wrong(&predict, MistakeKind::NoInverse) else {
        panic!("a vector")
    };
    assert!(p.distance(glam::vec2(-1.0, 4.0)) < 1e-4, "{p}");
    // A world angle: the child's own angle taken as the world's; the chain reversed.
    predict.frame = ValueSpace::World;
    predict.kind = Kind::Rotation;
    assert_eq!(
        wrong(&predict, MistakeKind::LocalAsWorld),
        Ok(Value::Number(0.0))
    );
    assert!(wrong(&predict, MistakeKind::Accumulated).is_ok());
}

#[test]
fn the_reversed_chain_of_a_stretch_above_a_turn_has_no_skew() {
    let scene = sample("shear");
    let child = id(&scene, "rotated child");
    let scenes = Scenes {
        after: &scene,
        flipped: None,
    };
    let (mut predict, _) = two_step_predict(&[]);
    predict.kind = Kind::Skew;
    let Ok(Value::Number(skew)) = wrong_value(&predict, &MistakeKind::ScaleOrder, child, &scenes)
    else {
        panic!("a number")
    };
    assert!(skew.abs() < 1e-3, "R·S never shears: {skew}");
    let truth = scene.world_trs(child).unwrap().skew;
    assert!((truth - 36.87).abs() < 0.01, "S·R does: {truth}");
}
