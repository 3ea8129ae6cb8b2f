//! Random command sequences against the history: random scenes (some with singular, zero-scale
//! nodes), random multi-op steps including invalid ops (unknown ids, cycles, keep-world under a
//! singular parent, bad indices, NaN), undo and redo, and injected failures. Nothing panics, a
//! refused step, undo or redo leaves the scene bit-identical, and undo all / redo all give back
//! the original / final scene bit for bit, world matrices included.
//!
//! Size: `CASES` × `OPS_PER_CASE` = 64 × 200 = 12,800 ops per run.

mod common;

use common::*;
use glam::Vec2;
use graft::Error;
use graft::model::math::Trs;
use graft::model::math::try_inverse;
use graft::model::scene::Keep;
use graft::model::scene::edit::{History, Op};
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene, Shape};
use proptest::prelude::*;
use proptest::sample::Index;

/// Proptest cases per run.
const CASES: u32 = 64;
/// Ops performed (accepted or refused) per case.
const OPS_PER_CASE: usize = 200;

fn trs() -> impl Strategy<Value = Trs> {
    (
        (-8.0f32..8.0, -8.0f32..8.0),
        -180.0f32..180.0,
        (0.25f32..3.0, 0.25f32..3.0, any::<bool>()),
        prop_oneof![3 => Just(0.0f32), 1 => -40.0f32..40.0],
    )
        .prop_map(|((x, y), r, (sx, sy, flip), k)| {
            let sx = if flip { -sx } else { sx };
            Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k)
        })
}

/// A local transform that is sometimes singular (a zero scale component).
fn node_trs() -> impl Strategy<Value = Trs> {
    (trs(), 0u8..16).prop_map(|(mut t, z)| {
        match z {
            0 => t.scale.x = 0.0,
            1 => t.scale = Vec2::ZERO,
            _ => {}
        }
        t
    })
}

/// A random forest of 1..24 nodes with gaps between ids (so unknown ids sit among real ones).
fn scene() -> impl Strategy<Value = Scene> {
    prop::collection::vec(
        (any::<Index>(), prop::bool::weighted(0.15), node_trs()),
        1..24,
    )
    .prop_map(|raw| {
        let specs = raw
            .into_iter()
            .enumerate()
            .map(|(k, (pick, root, local))| NodeSpec {
                id: NodeId(3 * k as u32 + 1),
                parent: (k > 0 && !root).then(|| NodeId(3 * pick.index(k) as u32 + 1)),
                data: NodeData::named(format!("n{k}"), local),
            })
            .collect();
        Scene::from_specs(specs).expect("a forest in parent-first order is valid")
    })
}

/// The random inputs of one op, resolved against the scene when the step is built.
#[derive(Clone, Debug)]
struct OpSeed {
    kind: u8,
    a: Index,
    b: Index,
    index: u8,
    t: Trs,
    flag: bool,
}

fn op_seed() -> impl Strategy<Value = OpSeed> {
    (
        0u8..24,
        any::<Index>(),
        any::<Index>(),
        any::<u8>(),
        trs(),
        any::<bool>(),
    )
        .prop_map(|(kind, a, b, index, t, flag)| OpSeed {
            kind,
            a,
            b,
            index,
            t,
            flag,
        })
}

/// What to do next: a step of `size` ops (maybe a gesture), an undo, a redo or an update pass,
/// and maybe an injected failure at the edit numbered `fault`.
#[derive(Clone, Debug)]
struct Action {
    kind: u8,
    size: usize,
    gesture: bool,
    fault: Option<usize>,
}

fn action() -> impl Strategy<Value = Action> {
    (
        0u8..10,
        1usize..5,
        prop::bool::weighted(0.2),
        prop::option::weighted(0.15, 0usize..5),
    )
        .prop_map(|(kind, size, gesture, fault)| Action {
            kind,
            size,
            gesture,
            fault,
        })
}

const UNKNOWN: NodeId = NodeId(1_000_000);

fn pick(scene: &Scene, at: &Index) -> NodeId {
    if scene.is_empty() {
        UNKNOWN
    } else {
        scene.id_at(at.index(scene.len()))
    }
}

/// A sibling index: last, first, small (maybe past the end), or far past the end.
fn sibling_index(k: u8) -> Option<usize> {
    match k % 8 {
        0..=2 => None,
        3 | 4 => Some(0),
        5 | 6 => Some(k as usize % 3),
        _ => Some(40 + k as usize),
    }
}

/// Turn a seed into an op on the scene as it is now. Kinds 10 to 13 are always refused, the
/// others sometimes (a cycle, a bad index, a singular parent, a removed node).
fn resolve(scene: &Scene, s: &OpSeed) -> Op {
    let node = pick(scene, &s.a);
    let other = pick(scene, &s.b);
    let index = sibling_index(s.index);
    // Kinds 15 and up repeat the ordinary ones, so most steps go through.
    let kind = if s.kind >= 15 { s.kind % 10 } else { s.kind };
    match kind {
        0 => Op::SetLocal { node, local: s.t },
        1 => Op::SetWorld { node, world: s.t },
        2 => Op::SetWorldPosition {
            node,
            position: s.t.position,
        },
        3 => Op::Rename {
            node,
            name: format!("r{}", s.index),
        },
        4 => Op::SetAppearance {
            node,
            shape: if s.flag {
                Shape::Rect { size: s.t.scale }
            } else {
                Shape::sprite("a.png", s.t.position)
            },
            color: [s.index, 1, 2, 3],
        },
        5 | 6 => Op::Reparent {
            node,
            parent: (s.kind == 5).then_some(other),
            index,
            keep: Keep::world_if(s.flag),
        },
        7 => Op::Add {
            parent: s.flag.then_some(other),
            index,
            data: NodeData::named("added", s.t),
        },
        8 => Op::Remove { node },
        9 => insert_copy(scene, node, s),
        10 => {
            // Under itself or under one of its descendants: a cycle.
            let target = scene
                .index(node)
                .map(|i| scene.id_at(i + s.b.index(scene.subtree_len_at(i))))
                .unwrap_or(node);
            Op::Reparent {
                node,
                parent: Some(target),
                index: None,
                keep: Keep::world_if(s.flag),
            }
        }
        11 => {
            // Keep-world under a node whose world matrix is singular (if the scene has one).
            let singular: Vec<NodeId> = (0..scene.len())
                .filter(|&i| try_inverse(&scene.world_at(i)).is_err())
                .map(|i| scene.id_at(i))
                .collect();
            let parent = if singular.is_empty() {
                other
            } else {
                *s.b.get(&singular)
            };
            Op::Reparent {
                node,
                parent: Some(parent),
                index,
                keep: Keep::World,
            }
        }
        12 => {
            // Unknown ids, as the node or as the new parent.
            let unknown = NodeId(UNKNOWN.0 + s.index as u32);
            match s.index % 3 {
                0 => Op::Rename {
                    node: unknown,
                    name: "ghost".into(),
                },
                1 => Op::Reparent {
                    node,
                    parent: Some(unknown),
                    index,
                    keep: Keep::world_if(s.flag),
                },
                _ => Op::Remove { node: unknown },
            }
        }
        13 => {
            let mut bad = s.t;
            bad.rotation = if s.flag { f32::NAN } else { f32::INFINITY };
            Op::SetLocal { node, local: bad }
        }
        _ => Op::SetWorld {
            // Children of singular parents cannot be solved: refused. Others are placed.
            node,
            world: Trs::new(s.t.position, s.t.rotation, s.t.scale, 0.0),
        },
    }
}

/// Paste-like insert of a copy of `node`'s subtree: fresh ids (valid), or its own ids (refused).
fn insert_copy(scene: &Scene, node: NodeId, s: &OpSeed) -> Op {
    let Ok(copy) = scene.copy_subtree(node) else {
        return Op::Remove { node };
    };
    let mut copies = [copy];
    if s.flag {
        scene.renumber_fresh(&mut copies);
    }
    let [mut copy] = copies;
    copy.index += (s.index % 3) as usize;
    Op::Insert { subtree: copy }
}

/// What a refused step, undo or redo must leave unchanged.
fn state(scene: &Scene, history: &History) -> (Snapshot, NodeId, Vec<String>, usize) {
    let (labels, done) = history.labels();
    (
        snapshot(scene),
        scene.next_id(),
        labels.into_iter().map(String::from).collect(),
        done,
    )
}

/// Counts of what one case did, to check it exercised both outcomes.
#[derive(Default, Debug)]
struct Stats {
    ops: usize,
    accepted: usize,
    refused: usize,
    undos: usize,
    redos: usize,
}

/// Run a case; `states[k]` is the snapshot after `k` applied steps.
fn drive(mut scene: Scene, seeds: &[OpSeed], plan: &[Action]) -> Result<Stats, TestCaseError> {
    let mut history = History::new();
    let mut states = vec![snapshot(&scene)];
    let mut stats = Stats::default();
    let mut next_seed = 0;
    let mut turn = 0;
    while next_seed < seeds.len() {
        let action = &plan[turn % plan.len()];
        turn += 1;
        history.inject_faults(action.fault.as_slice(), &[]);
        let before = state(&scene, &history);
        let outcome = match action.kind {
            0..=5 => {
                let end = (next_seed + action.size).min(seeds.len());
                let ops: Vec<Op> = seeds[next_seed..end]
                    .iter()
                    .map(|s| resolve(&scene, s))
                    .collect();
                stats.ops += end - next_seed;
                next_seed = end;
                let gesture = action.gesture.then_some(1);
                let result = history.perform_gesture(&mut scene, "step", ops, gesture);
                match &result {
                    Ok(()) => {
                        stats.accepted += 1;
                        let done = history.labels().1;
                        states.truncate(done);
                        states.push(snapshot(&scene));
                    }
                    Err(_) => stats.refused += 1,
                }
                result.map(|()| None)
            }
            6 | 7 => {
                stats.undos += 1;
                history.undo(&mut scene)
            }
            8 => {
                stats.redos += 1;
                history.redo(&mut scene)
            }
            _ => {
                scene.update_world();
                let mut full = scene.clone();
                full.mark_all_dirty();
                full.update_world();
                for i in 0..scene.len() {
                    prop_assert_eq!(
                        affine_bits(&scene.cached_world_at(i)),
                        affine_bits(&full.cached_world_at(i))
                    );
                }
                Ok(None)
            }
        };
        history.inject_faults(&[], &[]);
        scene.check_invariants().map_err(TestCaseError::fail)?;
        let after = state(&scene, &history);
        match outcome {
            Err(Error::RollbackFailed { .. }) => {
                prop_assert!(false, "a rollback failed: {:?}", action);
            }
            Err(e) => prop_assert!(after == before, "refused ({}) but changed", e),
            Ok(_) if (6..=8).contains(&action.kind) => {
                prop_assert_eq!(&after.0, &states[after.3], "undo/redo landed elsewhere");
            }
            Ok(_) => {}
        }
        prop_assert_eq!(states.len(), after.2.len() + 1);
    }
    let mut done = history.labels().1;
    prop_assert_eq!(&snapshot(&scene), &states[done]);
    while history
        .undo(&mut scene)
        .map_err(|e| TestCaseError::fail(e.to_string()))?
        .is_some()
    {
        done -= 1;
        prop_assert_eq!(&snapshot(&scene), &states[done]);
    }
    prop_assert_eq!(done, 0);
    prop_assert_eq!(
        &snapshot(&scene),
        &states[0],
        "undo all: the original scene"
    );
    while history
        .redo(&mut scene)
        .map_err(|e| TestCaseError::fail(e.to_string()))?
        .is_some()
    {}
    prop_assert_eq!(
        Some(&snapshot(&scene)),
        states.last(),
        "redo all: the final scene"
    );
    Ok(stats)
}

/// The plan always starts with a step, so every case gets through its ops.
fn plan() -> impl Strategy<Value = Vec<Action>> {
    prop::collection::vec(action(), 20..80).prop_map(|mut plan| {
        plan[0].kind = 0;
        plan
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn random_commands_are_atomic_and_undo_redo_exact(
        scene in scene(),
        seeds in prop::collection::vec(op_seed(), OPS_PER_CASE),
        plan in plan(),
    ) {
        let stats = drive(scene, &seeds, &plan)?;
        prop_assert_eq!(stats.ops, OPS_PER_CASE);
    }
}

/// The generators are not degenerate: a fixed-seed run accepts and refuses many steps, and
/// undoes and redoes.
#[test]
fn a_typical_case_exercises_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        scene(),
        prop::collection::vec(op_seed(), OPS_PER_CASE),
        plan(),
    );
    let (mut total_accepted, mut total_refused, mut total_undos) = (0, 0, 0);
    for _ in 0..8 {
        let (scene, seeds, plan) = strategy.new_tree(&mut runner).expect("a value").current();
        let stats = drive(scene, &seeds, &plan).expect("case passes");
        total_accepted += stats.accepted;
        total_refused += stats.refused;
        total_undos += stats.undos.min(stats.redos);
    }
    assert!(total_accepted > 100, "accepted {total_accepted}");
    assert!(total_refused > 100, "refused {total_refused}");
    assert!(total_undos > 20, "undos/redos {total_undos}");
}
