//! Undo/redo: random edit sequences undone all the way give the original scene exactly, redone
//! all the way give the final scene exactly; refused steps change nothing; gestures merge.

mod common;

use common::*;
use glam::Vec2;
use graft::editor::session::command::{EditCommand, HistoryCommand, SelectionCommand};
use graft::model::math::Trs;
use graft::model::scene::Keep;
use graft::model::scene::edit::{History, Op};
use graft::model::scene::{NodeData, NodeId, Scene};
use proptest::prelude::*;

fn trs() -> impl Strategy<Value = Trs> {
    (
        (-5.0f32..5.0, -5.0f32..5.0),
        -180.0f32..180.0,
        (0.3f32..3.0, 0.3f32..3.0),
        -30.0f32..30.0,
    )
        .prop_map(|((x, y), r, (sx, sy), k)| Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k))
}

/// An op on nodes picked by index (resolved against the scene at that moment).
fn op_for(
    scene: &Scene,
    kind: u8,
    a: prop::sample::Index,
    b: prop::sample::Index,
    t: Trs,
    flag: bool,
) -> Option<Op> {
    if scene.is_empty() {
        return Some(Op::Add {
            parent: None,
            index: None,
            data: NodeData::named("first", t),
        });
    }
    let node = scene.id_at(a.index(scene.len()));
    let other = scene.id_at(b.index(scene.len()));
    Some(match kind {
        0 => Op::SetLocal { node, local: t },
        1 => Op::SetWorld { node, world: t },
        2 => Op::SetWorldPosition {
            node,
            position: t.position,
        },
        3 => Op::Rename {
            node,
            name: format!("n{}", t.rotation as i32),
        },
        4 => Op::Reparent {
            node,
            parent: if flag { None } else { Some(other) },
            index: Some(0),
            keep: Keep::world_if(flag),
        },
        5 => Op::Add {
            parent: Some(other),
            index: Some(0),
            data: NodeData::named("added", t),
        },
        6 => Op::Remove { node },
        7 => Op::SetAppearance {
            node,
            shape: graft::model::scene::Shape::Ellipse { size: t.scale },
            color: [1, 2, 3, 4],
        },
        _ => {
            let mut copy = scene.copy_subtree(node).ok()?;
            copy.renumber(NodeId(
                scene.ids().iter().map(|i| i.0).max().unwrap_or(0) + 1,
            ));
            copy.index += 1;
            Op::Insert { subtree: copy }
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn undo_all_restores_the_original_and_redo_all_the_final(
        steps in prop::collection::vec(prop::collection::vec((0u8..9, any::<prop::sample::Index>(), any::<prop::sample::Index>(), trs(), any::<bool>()), 1..4), 1..25),
    ) {
        let mut scene = sword_scene();
        let original = scene.clone();
        let mut history = History::new();
        for step in steps {
            // Several ops in one step: resolve each against the scene as it will be.
            let mut ops = Vec::new();
            let mut preview = scene.clone();
            for (kind, a, b, t, flag) in step {
                if let Some(op) = op_for(&preview, kind, a, b, t, flag) && op.clone().perform(&mut preview).is_ok() {
                    ops.push(op);
                }
            }
            let before = scene.clone();
            match history.perform(&mut scene, "step", ops) {
                Ok(()) => {}
                Err(_) => prop_assert!(scene == before, "a refused step changed the scene"),
            }
            scene.check_invariants().unwrap();
        }
        let last = scene.clone();
        let (labels, applied) = history.labels();
        prop_assert_eq!(labels.len(), applied);
        while history.undo(&mut scene).unwrap().is_some() {}
        prop_assert!(scene == original, "undo all");
        prop_assert!(history.is_clean());
        while history.redo(&mut scene).unwrap().is_some() {}
        prop_assert!(scene == last, "redo all");
        // The cached world matrices follow too.
        scene.update_world();
        let mut fresh = last.clone();
        fresh.mark_all_dirty();
        fresh.update_world();
        for i in 0..scene.len() {
            prop_assert_eq!(scene.cached_world_at(i), fresh.cached_world_at(i));
        }
    }
}

#[test]
fn a_refused_op_in_a_step_takes_back_the_ones_before_it() {
    let mut scene = sword_scene();
    let before = scene.clone();
    let mut history = History::new();
    let ops = vec![
        Op::Rename {
            node: NodeId(1),
            name: "torso".into(),
        },
        Op::SetLocal {
            node: NodeId(2),
            local: Trs::IDENTITY,
        },
        Op::Reparent {
            node: NodeId(2),
            parent: Some(NodeId(4)),
            index: None,
            keep: Keep::World,
        },
    ];
    let err = history.perform(&mut scene, "bad", ops).unwrap_err();
    assert!(err.to_string().contains("descendant"), "{err}");
    assert!(scene == before);
    assert_eq!(history.labels().0.len(), 0);
}

#[test]
fn gestures_merge_into_one_step_and_clean_mark_follows_saves() {
    let mut scene = sword_scene();
    let mut history = History::new();
    for k in 0..10 {
        let local = Trs::from_position(Vec2::new(k as f32, 0.0));
        history
            .perform_gesture(
                &mut scene,
                "Move arm",
                vec![Op::SetLocal {
                    node: NodeId(2),
                    local,
                }],
                Some(7),
            )
            .unwrap();
    }
    history.end_gesture();
    history
        .perform_gesture(
            &mut scene,
            "Move arm",
            vec![Op::SetLocal {
                node: NodeId(2),
                local: Trs::IDENTITY,
            }],
            Some(7),
        )
        .unwrap();
    assert_eq!(history.labels().0, vec!["Move arm", "Move arm"]);
    assert!(!history.is_clean());
    history.mark_clean();
    assert!(history.is_clean());
    history.undo(&mut scene).unwrap();
    assert!(!history.is_clean());
    history.redo(&mut scene).unwrap();
    assert!(history.is_clean(), "back at the saved step");
    history.undo(&mut scene).unwrap();
    history.undo(&mut scene).unwrap();
    assert!(scene == sword_scene(), "one undo per gesture");
    history
        .perform(
            &mut scene,
            "Rename",
            vec![Op::Rename {
                node: NodeId(1),
                name: "x".into(),
            }],
        )
        .unwrap();
    history.jump_to(&mut scene, 0).unwrap();
    assert!(
        !history.is_clean(),
        "the saved state is no longer reachable"
    );
}

/// The sword scene with a shield under the body and a gem on the sword.
fn armed_scene() -> Scene {
    let mut scene = sword_scene();
    let t = Trs::new(Vec2::new(0.5, -1.0), 30.0, Vec2::new(2.0, 0.5), 10.0);
    scene
        .add_node_with_id(
            NodeId(10),
            Some(NodeId(1)),
            None,
            NodeData::named("shield", t),
        )
        .unwrap();
    scene
        .add_node_with_id(
            NodeId(11),
            Some(NodeId(10)),
            None,
            NodeData::named("boss", t),
        )
        .unwrap();
    scene
        .add_node_with_id(
            NodeId(12),
            Some(NodeId(4)),
            Some(0),
            NodeData::named("gem", t),
        )
        .unwrap();
    scene
}

/// A step of every kind of op: reparents (keep world and not), rename, add, remove, set, insert.
fn big_step(scene: &Scene) -> Vec<Op> {
    let mut copy = scene.copy_subtree(NodeId(2)).unwrap();
    copy.renumber(NodeId(100));
    copy.index += 1;
    vec![
        Op::Reparent {
            node: NodeId(4),
            parent: Some(NodeId(1)),
            index: Some(0),
            keep: Keep::World,
        },
        Op::Rename {
            node: NodeId(2),
            name: "upper arm".into(),
        },
        Op::Add {
            parent: Some(NodeId(3)),
            index: None,
            data: NodeData::named("glove", Trs::from_position(Vec2::new(0.25, 0.0))),
        },
        Op::Remove { node: NodeId(10) },
        Op::SetWorld {
            node: NodeId(3),
            world: Trs::new(Vec2::new(-1.0, 4.0), 45.0, Vec2::new(1.5, 1.0), 5.0),
        },
        Op::Reparent {
            node: NodeId(3),
            parent: None,
            index: Some(0),
            keep: Keep::Local,
        },
        Op::SetAppearance {
            node: NodeId(1),
            shape: graft::model::scene::Shape::Rect {
                size: Vec2::new(1.0, 2.0),
            },
            color: [9, 8, 7, 6],
        },
        Op::Insert { subtree: copy },
        Op::SetLocal {
            node: NodeId(12),
            local: Trs::new(Vec2::new(-0.0, 3.0), -90.0, Vec2::new(-1.0, 1.0), 0.0),
        },
    ]
}

/// Everything a failed step, undo or redo must leave as it was.
fn state(scene: &Scene, history: &History) -> (Snapshot, NodeId, Vec<String>, usize) {
    scene.check_invariants().unwrap();
    let (labels, done) = history.labels();
    let labels = labels.into_iter().map(String::from).collect();
    (snapshot(scene), scene.next_id(), labels, done)
}

/// A scene with one step done ("Rename body") and one undone ("Rename sword"): both stacks used.
fn scene_with_history() -> (Scene, History) {
    let mut scene = armed_scene();
    let mut history = History::new();
    for (node, name) in [(1, "torso"), (4, "blade")] {
        let op = Op::Rename {
            node: NodeId(node),
            name: name.into(),
        };
        history.perform(&mut scene, "Rename", vec![op]).unwrap();
    }
    history.undo(&mut scene).unwrap();
    (scene, history)
}

fn assert_injected(err: graft::Error, at: usize) {
    assert!(matches!(err, graft::Error::Injected(k) if k == at), "{err}");
}

#[test]
fn a_failure_mid_step_leaves_scene_and_history_bit_identical() {
    let (scene, history) = scene_with_history();
    let ops = big_step(&scene);
    let before = state(&scene, &history);
    for at in 0..ops.len() {
        let (mut scene, mut history) = (scene.clone(), history.clone());
        history.inject_faults(&[at], &[]);
        let err = history.perform(&mut scene, "Big", ops.clone()).unwrap_err();
        assert_injected(err, at);
        assert_eq!(state(&scene, &history), before, "failure at op {at}");
        assert_eq!(history.redo_label(), Some("Rename"), "the redo stack stays");
        // The scene is still good for the whole step, and its undo.
        history.inject_faults(&[], &[]);
        history.perform(&mut scene, "Big", ops.clone()).unwrap();
        history.undo(&mut scene).unwrap();
        assert_eq!(snapshot(&scene), before.0);
    }
}

#[test]
fn a_failure_mid_undo_or_mid_redo_leaves_scene_and_history_bit_identical() {
    let (mut scene, mut history) = scene_with_history();
    let ops = big_step(&scene);
    let n = ops.len();
    let start = snapshot(&scene);
    history.perform(&mut scene, "Big", ops).unwrap();
    let done = state(&scene, &history);
    assert_ne!(done.0, start);
    for at in 0..n {
        let (mut scene, mut history) = (scene.clone(), history.clone());
        history.inject_faults(&[at], &[]);
        assert_injected(history.undo(&mut scene).unwrap_err(), at);
        assert_eq!(state(&scene, &history), done, "failure at undo edit {at}");
        assert_eq!(history.undo_label(), Some("Big"));
        history.inject_faults(&[], &[]);
        history.undo(&mut scene).unwrap();
        assert_eq!(snapshot(&scene), start);
    }
    history.undo(&mut scene).unwrap();
    let undone = state(&scene, &history);
    assert_eq!(undone.0, start);
    for at in 0..n {
        let (mut scene, mut history) = (scene.clone(), history.clone());
        history.inject_faults(&[at], &[]);
        assert_injected(history.redo(&mut scene).unwrap_err(), at);
        assert_eq!(state(&scene, &history), undone, "failure at redo edit {at}");
        assert_eq!(history.redo_label(), Some("Big"));
        history.inject_faults(&[], &[]);
        history.redo(&mut scene).unwrap();
        assert_eq!(snapshot(&scene), done.0);
    }
}

#[test]
fn a_failed_rollback_is_reported_not_ignored() {
    let (mut scene, mut history) = scene_with_history();
    let ops = big_step(&scene);
    // Op 3 fails; taking back op 1 (the second edit taken back) fails too.
    history.inject_faults(&[3], &[1]);
    let err = history.perform(&mut scene, "Big", ops).unwrap_err();
    let graft::Error::RollbackFailed { error, rollback } = &err else {
        panic!("expected RollbackFailed, got {err}");
    };
    assert!(matches!(**error, graft::Error::Injected(3)));
    assert!(matches!(**rollback, graft::Error::Injected(1)));
    assert!(err.to_string().contains("may be inconsistent"), "{err}");
    assert_eq!(
        history.labels(),
        (vec!["Rename", "Rename"], 1),
        "nothing recorded"
    );
}

/// Selecting everything in a big scene and deleting it is one step that undo puts back exactly
/// (finding the topmost selected nodes was quadratic: half an hour at a million nodes).
#[test]
fn deleting_a_big_selection_is_one_step_and_undo_restores_it() {
    use graft::editor::Command;
    use graft::editor::session::Editor;
    use graft::model::document::Document;
    use graft::tools::generate::{GenShape, generate};
    let mut scene = generate(GenShape::Random, 100_000, 12);
    scene.update_world();
    let before = scene.clone();
    let mut e = Editor::new(Document::untitled(scene));
    e.apply(Command::Selection(SelectionCommand::Select(
        e.doc().scene().ids().to_vec(),
    )))
    .unwrap();
    e.apply(Command::Edit(EditCommand::Delete)).unwrap();
    assert!(e.doc().scene().is_empty());
    assert!(e.selection().is_empty());
    e.apply(Command::History(HistoryCommand::Undo)).unwrap();
    e.update_world();
    assert!(*e.doc().scene() == before);
    e.apply(Command::History(HistoryCommand::Redo)).unwrap();
    assert!(e.doc().scene().is_empty());
}

/// `is_selected` (a set for big selections) agrees with the selection list through selecting,
/// toggling, deleting and undoing.
#[test]
fn is_selected_follows_the_selection() {
    use graft::editor::Command;
    use graft::editor::session::Editor;
    use graft::model::document::Document;
    use graft::tools::generate::{GenShape, generate};
    let mut e = Editor::new(Document::untitled(generate(GenShape::Random, 500, 2)));
    let ids = e.doc().scene().ids().to_vec();
    let agree = |e: &Editor| {
        for &id in &ids {
            assert_eq!(e.is_selected(id), e.selection().contains(&id), "{id}");
        }
    };
    e.apply(Command::Selection(SelectionCommand::Select(
        ids[..100].to_vec(),
    )))
    .unwrap();
    agree(&e);
    e.apply(Command::Selection(SelectionCommand::ToggleSelect(ids[5])))
        .unwrap();
    agree(&e);
    e.apply(Command::Selection(SelectionCommand::ToggleSelect(ids[300])))
        .unwrap();
    agree(&e);
    e.apply(Command::Edit(EditCommand::Delete)).unwrap();
    e.update_world();
    agree(&e);
    e.apply(Command::History(HistoryCommand::Undo)).unwrap();
    e.update_world();
    agree(&e);
    e.apply(Command::Selection(SelectionCommand::Select(
        ids[200..210].to_vec(),
    )))
    .unwrap();
    agree(&e);
}
