//! The editing session without any UI: random command sequences through [`Editor::apply`] on
//! random, sample and hand-made scenes (one with zero-scale parents), with failures injected
//! into the history. Nothing panics; a refused command leaves the scene (bit for bit, world
//! caches included), the history and the selection as they were; undoing everything gives the
//! original scene and redoing everything the final one, bit for bit. Then focused examples.
//!
//! Size: `CASES` × `COMMANDS_PER_CASE` = 64 × 200 = 12,800 commands per run.

mod common;

use common::{Snapshot, affine_bits, near, snapshot, spec};
use glam::Vec2;
use graft::Error;
use graft::editor::session::command::{
    EditCommand, HistoryCommand, NewNodePlace, PanelCommand, SelectionCommand, SettingCommand,
    ViewOption, WindowCommand,
};
use graft::editor::session::drop_rules::{DropPreview, DropZone};
use graft::editor::view::handles::Tool;
use graft::editor::{Command, Editor};
use graft::model::document::{Document, SAMPLE_SCENES};
use graft::model::math::Trs;
use graft::model::math::try_inverse;
use graft::model::scene::Keep;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeData, NodeId, Scene};
use graft::tools::generate::{GenShape, generate};
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::Path;

/// The hierarchy's drop of `dragged` in `zone`, planned on `scene` as the row plans it.
fn drop_rows(scene: &Scene, dragged: &[NodeId], zone: DropZone, keep: Keep) -> Command {
    let preview = DropPreview::plan(scene, dragged, zone, keep);
    Command::Panel(PanelCommand::DropRows(Box::new(preview)))
}

/// Proptest cases per run.
const CASES: u32 = 64;
/// Commands applied (accepted or refused) per case.
const COMMANDS_PER_CASE: usize = 200;
/// Ids from here on name no node of any test scene.
const UNKNOWN: u32 = 1_000_000;

/// A local transform, sometimes mirrored or skewed, sometimes singular (a zero scale).
fn trs() -> impl Strategy<Value = Trs> {
    (
        (-8.0f32..8.0, -8.0f32..8.0),
        -180.0f32..180.0,
        (0.25f32..3.0, 0.25f32..3.0, any::<bool>()),
        prop_oneof![3 => Just(0.0f32), 1 => -40.0f32..40.0],
        0u8..16,
    )
        .prop_map(|((x, y), r, (sx, sy, flip), k, zero)| {
            let sx = if flip { -sx } else { sx };
            let mut t = Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k);
            match zero {
                0 => t.scale.x = 0.0,
                1 => t.scale = Vec2::ZERO,
                _ => {}
            }
            t
        })
}

/// Stage with two singular children (scale 0 and a flattened x) and a free-standing pair.
fn singular_scene() -> Scene {
    let t = |x: f32, y: f32, r: f32, s: Vec2| Trs::new(Vec2::new(x, y), r, s, 0.0);
    Scene::from_specs(vec![
        spec(1, None, "stage", t(0.0, 0.0, 0.0, Vec2::ONE)),
        spec(2, Some(1), "flat", t(1.0, 0.0, 10.0, Vec2::ZERO)),
        spec(3, Some(2), "kid", t(0.5, 0.5, 0.0, Vec2::ONE)),
        spec(4, Some(1), "squash", t(-1.0, 2.0, 0.0, Vec2::new(0.0, 1.0))),
        spec(5, Some(4), "leaf", t(0.0, 1.0, 45.0, Vec2::ONE)),
        spec(6, None, "free", t(3.0, 1.0, 30.0, Vec2::new(2.0, 1.0))),
        spec(7, Some(6), "free kid", t(0.0, 1.0, 45.0, Vec2::ONE)),
    ])
    .expect("valid singular scene")
}

/// Hand-made scene `k`: the singular scene, an empty scene, or one of the shipped samples.
fn hand_made(k: usize) -> Scene {
    match k {
        0 => singular_scene(),
        1 => Scene::new(),
        k => {
            let name = SAMPLE_SCENES[(k - 2) % SAMPLE_SCENES.len()];
            graft::model::file::load(&Path::new("scenes").join(name)).expect("sample scene loads")
        }
    }
}

/// Mostly random generated scenes of 1..40 nodes, sometimes a hand-made one.
fn scene() -> impl Strategy<Value = Scene> {
    prop_oneof![
        5 => (1usize..40, any::<u64>()).prop_map(|(n, seed)| generate(GenShape::Random, n, seed)),
        2 => (0..2 + SAMPLE_SCENES.len()).prop_map(hand_made),
    ]
}

/// The random inputs of one op, resolved against the scene when the command is built.
#[derive(Clone, Debug)]
struct OpSeed {
    kind: u8,
    a: Index,
    b: Index,
    n: u8,
    t: Trs,
    flag: bool,
}

/// Random inputs of one op.
fn op_seed() -> impl Strategy<Value = OpSeed> {
    (
        0u8..12,
        any::<Index>(),
        any::<Index>(),
        any::<u8>(),
        trs(),
        any::<bool>(),
    )
        .prop_map(|(kind, a, b, n, t, flag)| OpSeed {
            kind,
            a,
            b,
            n,
            t,
            flag,
        })
}

/// The random inputs of one command, resolved against the editor when it is applied.
#[derive(Clone, Debug)]
struct Seed {
    kind: u8,
    a: Index,
    b: Index,
    c: Index,
    n: u8,
    flags: u8,
    ops: Vec<OpSeed>,
}

/// Random inputs of one command.
fn seed() -> impl Strategy<Value = Seed> {
    (
        0u8..40,
        any::<Index>(),
        any::<Index>(),
        any::<Index>(),
        any::<u8>(),
        any::<u8>(),
        prop::collection::vec(op_seed(), 1..4),
    )
        .prop_map(|(kind, a, b, c, n, flags, ops)| Seed {
            kind,
            a,
            b,
            c,
            n,
            flags,
            ops,
        })
}

/// A node of the scene, or an unknown id when it is empty.
fn pick(scene: &Scene, at: &Index) -> NodeId {
    if scene.is_empty() {
        NodeId(UNKNOWN)
    } else {
        scene.id_at(at.index(scene.len()))
    }
}

/// `node` or one of its descendants (`node` itself when it is unknown).
fn in_subtree(scene: &Scene, node: NodeId, at: &Index) -> NodeId {
    scene
        .index(node)
        .map(|i| scene.id_at(i + at.index(scene.subtree_len_at(i))))
        .unwrap_or(node)
}

/// Nodes whose world matrix cannot be inverted.
fn singular_nodes(scene: &Scene) -> Vec<NodeId> {
    (0..scene.len())
        .filter(|&i| try_inverse(&scene.world_at(i)).is_err())
        .map(|i| scene.id_at(i))
        .collect()
}

/// A singular node if the scene has one, else `fallback`.
fn singular_or(scene: &Scene, at: &Index, fallback: NodeId) -> NodeId {
    let singular = singular_nodes(scene);
    if singular.is_empty() {
        fallback
    } else {
        *at.get(&singular)
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

/// Turn an op seed into an op on the scene as it is now; kinds 3, 7, 8 and 9 are (almost)
/// always refused, the others sometimes.
fn resolve_op(scene: &Scene, s: &OpSeed) -> Op {
    let node = pick(scene, &s.a);
    let other = pick(scene, &s.b);
    let index = sibling_index(s.n);
    match s.kind {
        0..=2 => Op::SetLocal { node, local: s.t },
        3 => {
            let mut bad = s.t;
            match s.n % 3 {
                0 => bad.rotation = f32::NAN,
                1 => bad.position.x = f32::INFINITY,
                _ => bad.scale.y = f32::NEG_INFINITY,
            }
            Op::SetLocal { node, local: bad }
        }
        4 => Op::Rename {
            node,
            name: format!("r{}", s.n),
        },
        5 | 6 => Op::Reparent {
            node,
            parent: (s.kind == 5).then_some(other),
            index,
            keep: Keep::world_if(s.flag),
        },
        7 => Op::Reparent {
            node,
            parent: Some(in_subtree(scene, node, &s.b)),
            index: None,
            keep: Keep::world_if(s.flag),
        },
        8 => Op::Reparent {
            node,
            parent: Some(singular_or(scene, &s.b, other)),
            index,
            keep: Keep::World,
        },
        9 => {
            let unknown = NodeId(UNKNOWN + u32::from(s.n));
            if s.flag {
                Op::Reparent {
                    node,
                    parent: Some(unknown),
                    index,
                    keep: Keep::Local,
                }
            } else {
                Op::Rename {
                    node: unknown,
                    name: "ghost".into(),
                }
            }
        }
        10 => Op::Add {
            parent: match s.n % 4 {
                0 => None,
                1 => Some(NodeId(UNKNOWN)),
                _ => Some(other),
            },
            index,
            data: NodeData::named("added", s.t),
        },
        _ => Op::Remove {
            node: if s.n.is_multiple_of(5) {
                NodeId(UNKNOWN)
            } else {
                node
            },
        },
    }
}

/// A drop target: a node, one in the first dragged node's subtree, a singular one, or unknown.
fn drop_target(scene: &Scene, dragged: &[NodeId], s: &Seed) -> NodeId {
    let first = dragged.first().copied().unwrap_or(NodeId(UNKNOWN));
    match (s.n / 8) % 8 {
        0..=2 => pick(scene, &s.c),
        3 | 4 => in_subtree(scene, first, &s.c),
        5 | 6 => singular_or(scene, &s.c, pick(scene, &s.c)),
        _ => NodeId(UNKNOWN + 1),
    }
}

/// What a step sends: a command, or ops no panel sends (the `test-hooks` feature's
/// `perform_ops`: random edits that may be refused).
#[derive(Clone, Debug)]
enum Sent {
    Command(Command),
    Ops {
        label: String,
        ops: Vec<Op>,
        continuous: bool,
    },
}

impl From<Command> for Sent {
    fn from(command: Command) -> Self {
        Sent::Command(command)
    }
}

/// Turn a seed into what the test sends to the editor as it is now (never a file command).
fn resolve(editor: &Editor, s: &Seed) -> Sent {
    if !(4..=11).contains(&s.kind) {
        return Sent::Command(resolve_command(editor, s));
    }
    let scene = editor.doc().scene();
    let continuous = s.flags & 1 == 1;
    let ops = if continuous && s.flags & 2 == 2 && !scene.is_empty() {
        // A drag of the first node: consecutive steps like this merge.
        vec![Op::SetLocal {
            node: scene.id_at(0),
            local: s.ops[0].t,
        }]
    } else {
        s.ops.iter().map(|o| resolve_op(scene, o)).collect()
    };
    Sent::Ops {
        label: format!("step {}", s.n),
        ops,
        continuous,
    }
}

/// A seed's command (the kinds other than raw ops).
fn resolve_command(editor: &Editor, s: &Seed) -> Command {
    let scene = editor.doc().scene();
    let (a, b, c) = (pick(scene, &s.a), pick(scene, &s.b), pick(scene, &s.c));
    let unknown = NodeId(UNKNOWN + u32::from(s.n));
    match s.kind {
        0..=2 | 37..=39 => Command::Selection(SelectionCommand::Select(match s.flags % 6 {
            0 => Vec::new(),
            1 => vec![a, unknown],
            _ => [a, b, c][..=(s.n % 3) as usize].to_vec(),
        })),
        3 => Command::Selection(SelectionCommand::ToggleSelect(
            if s.flags.is_multiple_of(5) {
                unknown
            } else {
                a
            },
        )),
        12 => Command::History(HistoryCommand::EndGesture),
        13 | 14 => Command::History(HistoryCommand::Undo),
        15 => Command::History(HistoryCommand::Redo),
        16 => {
            let steps = editor.doc().history().labels().0.len();
            Command::History(HistoryCommand::JumpHistory(s.n as usize % (steps + 2)))
        }
        17 => Command::Edit(EditCommand::Copy),
        18 => Command::Edit(EditCommand::Paste),
        19 | 20 => Command::Edit(EditCommand::Duplicate),
        21 => Command::Edit(EditCommand::Delete),
        22..=24 => Command::Edit(EditCommand::AddNode(match s.flags % 5 {
            0 => NewNodePlace::Root,
            1 => NewNodePlace::ChildOf(a),
            2 => NewNodePlace::ChildOf(unknown),
            3 => NewNodePlace::After(a),
            _ => NewNodePlace::After(unknown),
        })),
        25 | 26 => Command::Edit(EditCommand::CreateParent),
        27 => Command::Edit(EditCommand::Unparent),
        28..=32 => {
            let mut picked = vec![a];
            if s.flags & 16 == 16 {
                picked.push(b);
            }
            let mut dragged = scene.topmost(&picked);
            if s.flags.is_multiple_of(7) {
                dragged.push(unknown);
            }
            let target = drop_target(scene, &dragged, s);
            let zone = match s.n % 4 {
                0 => DropZone::Before(target),
                1 => DropZone::After(target),
                2 => DropZone::Into(target),
                _ => DropZone::Root,
            };
            let keep = Keep::world_if(s.flags & 8 == 8);
            drop_rows(scene, &dragged, zone, keep)
        }
        33 => Command::Setting(SettingCommand::ToggleKeepWorld),
        34 => Command::Setting(SettingCommand::SetTool(
            [Tool::Move, Tool::Rotate, Tool::Scale][s.n as usize % 3],
        )),
        35 => Command::Setting(SettingCommand::ToggleView(
            [
                ViewOption::Axes,
                ViewOption::Links,
                ViewOption::Names,
                ViewOption::Shear,
                ViewOption::Recomputed,
            ][s.n as usize % 5],
        )),
        _ => Command::Window(WindowCommand::Refused("x".into())),
    }
}

/// Everything a refused command must leave as it was.
#[derive(Clone, Debug, PartialEq)]
struct State {
    scene: Snapshot,
    live_worlds: Vec<[u32; 6]>,
    next_id: NodeId,
    labels: Vec<String>,
    done: usize,
    selection: Vec<NodeId>,
}

/// The editor's state, taken after `update_world` (so the live world caches are current).
fn state(editor: &Editor) -> State {
    let scene = editor.doc().scene();
    let (labels, done) = editor.doc().history().labels();
    State {
        scene: snapshot(scene),
        live_worlds: (0..scene.len())
            .map(|i| affine_bits(&scene.cached_world_at(i)))
            .collect(),
        next_id: scene.next_id(),
        labels: labels.into_iter().map(String::from).collect(),
        done,
        selection: editor.selection().to_vec(),
    }
}

/// Check the scene's arrays and that its incrementally updated world caches equal a full pass.
fn check_scene(scene: &Scene) -> Result<(), TestCaseError> {
    scene.check_invariants().map_err(TestCaseError::fail)?;
    let mut full = scene.clone();
    full.mark_all_dirty();
    full.update_world();
    for i in 0..scene.len() {
        prop_assert_eq!(
            affine_bits(&scene.cached_world_at(i)),
            affine_bits(&full.cached_world_at(i)),
            "stale world cache at {}",
            i
        );
    }
    Ok(())
}

/// Counts of what a run did, to check the generators reach every outcome.
#[derive(Debug, Default)]
struct Stats {
    commands: usize,
    accepted_edits: usize,
    refused: usize,
    merges: usize,
    singular: usize,
    cycles: usize,
    descendant_drops: usize,
    injected: usize,
    undos: usize,
}

/// True for the commands that move through the history instead of adding to it.
fn navigates(command: &Sent) -> bool {
    matches!(
        command,
        Sent::Command(
            Command::History(HistoryCommand::Undo)
                | Command::History(HistoryCommand::Redo)
                | Command::History(HistoryCommand::JumpHistory(_))
        )
    )
}

/// Apply one command and update the world as the app does each frame; check a refusal changed
/// nothing and was reported.
fn step(
    editor: &mut Editor,
    command: impl Into<Sent>,
    stats: &mut Stats,
) -> Result<Result<(), Error>, TestCaseError> {
    let command = command.into();
    let before = state(editor);
    let message_count = editor.messages().len();
    let result = match command.clone() {
        Sent::Command(command) => editor.apply(command),
        Sent::Ops {
            label,
            ops,
            continuous,
        } => editor.perform_ops(label, ops, continuous),
    };
    let selection = editor.selection().to_vec();
    editor.update_world();
    check_scene(editor.doc().scene())?;
    stats.commands += 1;
    let Err(error) = result else {
        return Ok(Ok(()));
    };
    stats.refused += 1;
    match &error {
        Error::RollbackFailed { .. } => {
            prop_assert!(false, "{command:?}: a rollback failed: {error}")
        }
        Error::SingularParent(_) => stats.singular += 1,
        Error::Cycle { .. } => stats.cycles += 1,
        Error::Injected(_) => stats.injected += 1,
        Error::Refused(m) if m.contains("descendant") => stats.descendant_drops += 1,
        _ => {}
    }
    prop_assert_eq!(&selection, &before.selection, "{:?} refused", command);
    let after = state(editor);
    prop_assert!(
        after == before,
        "{command:?} refused ({error}) but changed the editor:\nbefore {before:?}\nafter {after:?}"
    );
    prop_assert_eq!(editor.messages().len(), message_count + 1);
    let last = editor.last_message().expect("a message");
    let text = error.to_string();
    prop_assert!(last.is_error);
    prop_assert_eq!(&last.text, &text);
    prop_assert_eq!(editor.error(), Some(text.as_str()));
    Ok(Err(error))
}

/// Run one case. `states[k]` is the scene after `k` applied steps.
fn drive(scene: Scene, seeds: &[Seed], faults: &[usize]) -> Result<Stats, TestCaseError> {
    let mut doc = Document::untitled(scene);
    doc.history_mut().inject_faults(faults, &[]);
    let mut editor = Editor::new(doc);
    editor.update_world();
    let mut states = vec![snapshot(editor.doc().scene())];
    let mut stats = Stats::default();
    for s in seeds {
        let command = resolve(&editor, s);
        let before = state(&editor);
        let result = step(&mut editor, command.clone(), &mut stats)?;
        let now = state(&editor);
        if navigates(&command) {
            prop_assert_eq!(
                &now.scene,
                &states[now.done],
                "{:?} landed elsewhere",
                command
            );
            continue;
        }
        if result.is_err() {
            continue;
        }
        if matches!(
            command,
            Sent::Command(
                Command::Edit(EditCommand::Duplicate)
                    | Command::Edit(EditCommand::Paste)
                    | Command::Edit(EditCommand::AddNode(_))
                    | Command::Edit(EditCommand::CreateParent)
            )
        ) && now.labels != before.labels
        {
            let scene = editor.doc().scene();
            prop_assert!(!now.selection.is_empty(), "{:?} selected nothing", command);
            prop_assert!(now.selection.iter().all(|id| scene.contains(*id)));
            prop_assert!(
                now.selection
                    .iter()
                    .all(|id| !before.scene.ids.contains(&id.0))
            );
        }
        if (&now.labels, now.done) != (&before.labels, before.done) {
            stats.accepted_edits += 1;
            states.truncate(now.done);
            states.push(now.scene.clone());
        } else if now.scene != states[now.done] {
            // A continuous step folded into the open gesture's undo step.
            prop_assert!(
                matches!(
                    command,
                    Sent::Ops {
                        continuous: true,
                        ..
                    }
                ),
                "{command:?} changed the scene without a history step"
            );
            prop_assert_eq!(states.len(), now.done + 1);
            stats.merges += 1;
            states[now.done] = now.scene.clone();
        }
        prop_assert_eq!(states.len(), now.labels.len() + 1);
    }
    let end = state(&editor);
    prop_assert_eq!(&end.scene, &states[end.done]);
    // Undo everything (an injected failure refuses one attempt; the next goes through).
    let mut attempts = 0;
    while editor.doc().history().undo_label().is_some() {
        attempts += 1;
        prop_assert!(attempts < 10_000, "undo never ends");
        if step(
            &mut editor,
            Command::History(HistoryCommand::Undo),
            &mut stats,
        )?
        .is_ok()
        {
            stats.undos += 1;
            let now = state(&editor);
            prop_assert_eq!(&now.scene, &states[now.done]);
        }
    }
    prop_assert_eq!(
        &state(&editor).scene,
        &states[0],
        "undo all: the original scene"
    );
    while editor.doc().history().redo_label().is_some() {
        attempts += 1;
        prop_assert!(attempts < 20_000, "redo never ends");
        step(
            &mut editor,
            Command::History(HistoryCommand::Redo),
            &mut stats,
        )?
        .ok();
    }
    prop_assert_eq!(
        Some(&state(&editor).scene),
        states.last(),
        "redo all: the last step's scene"
    );
    while state(&editor).done != end.done {
        attempts += 1;
        prop_assert!(attempts < 30_000, "jump never ends");
        step(
            &mut editor,
            Command::History(HistoryCommand::JumpHistory(end.done)),
            &mut stats,
        )?
        .ok();
        let now = state(&editor);
        prop_assert_eq!(&now.scene, &states[now.done]);
    }
    prop_assert_eq!(&state(&editor).scene, &end.scene, "back to the final scene");
    Ok(stats)
}

/// Edit numbers at which the history refuses on purpose (none in half the cases).
fn faults() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![Just(Vec::new()), prop::collection::vec(0usize..300, 1..4),]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn random_editor_commands_are_atomic_and_undo_redo_exact(
        scene in scene(),
        seeds in prop::collection::vec(seed(), COMMANDS_PER_CASE),
        faults in faults(),
    ) {
        let stats = drive(scene, &seeds, &faults)?;
        prop_assert!(stats.commands >= COMMANDS_PER_CASE);
    }
}

/// The generators are not degenerate: fixed-seed cases accept and refuse many commands, for
/// each of the reasons the property test claims to cover.
#[test]
fn a_typical_run_reaches_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        scene(),
        prop::collection::vec(seed(), COMMANDS_PER_CASE),
        faults(),
    );
    let mut total = Stats::default();
    for k in 0..16 {
        let (scene, seeds, faults) = strategy.new_tree(&mut runner).expect("a value").current();
        // Every other case runs on the singular scene, so keep-world refusals come up.
        let scene = if k % 2 == 0 { singular_scene() } else { scene };
        let stats = drive(scene, &seeds, &faults).expect("case passes");
        total.accepted_edits += stats.accepted_edits;
        total.refused += stats.refused;
        total.merges += stats.merges;
        total.singular += stats.singular;
        total.cycles += stats.cycles;
        total.descendant_drops += stats.descendant_drops;
        total.injected += stats.injected;
        total.undos += stats.undos;
        total.commands += stats.commands;
    }
    assert!(total.accepted_edits > 300, "{total:?}");
    assert!(total.refused > 300, "{total:?}");
    assert!(total.merges > 5, "{total:?}");
    assert!(total.singular > 5, "{total:?}");
    assert!(total.cycles > 5, "{total:?}");
    assert!(total.descendant_drops > 5, "{total:?}");
    assert!(total.injected > 0, "{total:?}");
    assert!(total.undos > 300, "{total:?}");
}

/// An editor on the shipped sword scene, world matrices up to date.
fn sword_editor() -> Editor {
    let scene = graft::model::file::load(Path::new("scenes/sword.ron")).expect("sword scene loads");
    let mut editor = Editor::new(Document::untitled(scene));
    editor.update_world();
    editor
}

/// The scene's snapshot after an update pass, as the app would draw it.
fn scene_now(editor: &mut Editor) -> Snapshot {
    editor.update_world();
    snapshot(editor.doc().scene())
}

/// The history's step labels, oldest first.
fn labels(editor: &Editor) -> Vec<String> {
    let (labels, _) = editor.doc().history().labels();
    labels.into_iter().map(String::from).collect()
}

/// The sword scene's hand.
const HAND: NodeId = NodeId(3);

#[test]
fn duplicate_hand_is_one_step_selects_fresh_copies_and_undoes_exactly() {
    let mut editor = sword_editor();
    let original = scene_now(&mut editor);
    let old_ids = editor.doc().scene().ids().to_vec();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![HAND])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Duplicate)).unwrap();
    editor.update_world();
    assert_eq!(labels(&editor), ["Duplicate hand"]);
    let scene = editor.doc().scene();
    let [copy] = editor.selection() else {
        panic!("one copy selected: {:?}", editor.selection());
    };
    assert!(!old_ids.contains(copy), "copy id {copy} is not fresh");
    // The copy of hand (with a copy of its sword) sits right after hand, under arm.
    assert_eq!(scene.parent(*copy).unwrap(), scene.parent(HAND).unwrap());
    assert_eq!(
        scene.sibling_index(*copy).unwrap(),
        scene.sibling_index(HAND).unwrap() + 1
    );
    let i = scene.index(*copy).unwrap();
    let copies = &scene.ids()[i..i + scene.subtree_len_at(i)];
    assert_eq!(copies.len(), 2);
    assert!(copies.iter().all(|id| !old_ids.contains(id)));
    let names: Vec<&str> = copies
        .iter()
        .map(|id| scene.node(*id).unwrap().name.as_str())
        .collect();
    assert_eq!(names, ["hand", "sword"]);
    assert_eq!(scene.len(), old_ids.len() + 2);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(scene_now(&mut editor), original);
    assert_eq!(editor.doc().history().undo_label(), None);
}

#[test]
fn create_parent_groups_two_siblings_in_place_keeping_world() {
    const ARM: NodeId = NodeId(2);
    const SCABBARD: NodeId = NodeId(5);
    const BODY: NodeId = NodeId(1);
    let mut editor = sword_editor();
    let scene = editor.doc().scene();
    assert_eq!(scene.children(Some(BODY)).unwrap(), [ARM, SCABBARD]);
    let worlds: Vec<_> = scene
        .ids()
        .iter()
        .map(|id| (*id, scene.world(*id).unwrap()))
        .collect();
    let group = scene.next_id();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            SCABBARD, ARM,
        ])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::CreateParent))
        .unwrap();
    editor.update_world();
    let scene = editor.doc().scene();
    assert_eq!(editor.selection(), [group]);
    assert_eq!(scene.node(group).unwrap().name, "group");
    assert_eq!(scene.parent(group).unwrap(), Some(BODY));
    assert_eq!(scene.sibling_index(group).unwrap(), 0, "at the arm's place");
    assert_eq!(scene.children(Some(group)).unwrap(), [ARM, SCABBARD]);
    for (id, world) in &worlds {
        let now = scene.world(*id).unwrap();
        assert!(near(&now, world, 1e-5), "{id} moved: {world:?} → {now:?}");
    }
    assert_eq!(labels(&editor), ["Group 2 nodes"]);
}

#[test]
fn dropping_a_node_onto_its_descendant_is_refused_by_name() {
    const ARM: NodeId = NodeId(2);
    const SWORD: NodeId = NodeId(4);
    let mut editor = sword_editor();
    let before = state(&editor);
    for zone in [
        DropZone::Into(SWORD),
        DropZone::Before(SWORD),
        DropZone::After(HAND),
    ] {
        for keep_world in [true, false] {
            let keep = Keep::world_if(keep_world);
            let error = editor
                .apply(drop_rows(editor.doc().scene(), &[ARM], zone, keep))
                .expect_err("a cycle is refused");
            let text = error.to_string();
            assert!(text.contains("arm"), "{text}");
            assert!(text.contains("descendant"), "{text}");
            assert_eq!(editor.error(), Some(text.as_str()));
            editor.update_world();
            assert_eq!(state(&editor), before);
        }
    }
}

#[test]
fn adding_a_child_to_an_unknown_node_is_refused_and_reported() {
    let mut editor = sword_editor();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![HAND])))
        .unwrap();
    let before = state(&editor);
    let error = editor
        .apply(Command::Edit(EditCommand::AddNode(NewNodePlace::ChildOf(
            NodeId(99),
        ))))
        .expect_err("unknown parent");
    assert!(matches!(error, Error::UnknownNode(NodeId(99))), "{error:?}");
    let text = error.to_string();
    let last = editor.last_message().expect("a message");
    assert!(last.is_error);
    assert_eq!(last.text, text);
    assert_eq!(editor.error(), Some(text.as_str()));
    editor.update_world();
    assert_eq!(state(&editor), before);
}

#[test]
fn a_continuous_gesture_is_one_undo_step_until_it_ends() {
    let mut editor = sword_editor();
    let original = scene_now(&mut editor);
    // The move tool's drags of the hand ("Move hand").
    let first = common::drag_of(&editor, HAND);
    for x in [0.5, 1.0, 1.5] {
        let pointer = glam::DVec2::new(x, 0.0);
        editor.apply(common::drag_to(&first, pointer)).unwrap();
    }
    let first_gesture = scene_now(&mut editor);
    editor
        .apply(Command::History(HistoryCommand::EndGesture))
        .unwrap();
    let second = common::drag_of(&editor, HAND);
    let pointer = glam::DVec2::new(2.0, 0.0);
    editor.apply(common::drag_to(&second, pointer)).unwrap();
    assert_eq!(labels(&editor), ["Move hand", "Move hand"]);
    assert_eq!(editor.doc().history().labels().1, 2);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(scene_now(&mut editor), first_gesture);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(scene_now(&mut editor), original);
}

#[test]
fn selecting_an_unknown_node_is_refused_and_keeps_the_selection() {
    let mut editor = sword_editor();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            HAND,
            NodeId(1),
        ])))
        .unwrap();
    let error = editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            77,
        )])))
        .expect_err("unknown node");
    assert!(matches!(error, Error::UnknownNode(NodeId(77))), "{error:?}");
    assert_eq!(editor.selection(), [HAND, NodeId(1)]);
    let error = editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            NodeId(1),
            NodeId(77),
        ])))
        .expect_err("one unknown node");
    assert!(matches!(error, Error::UnknownNode(NodeId(77))), "{error:?}");
    assert_eq!(editor.selection(), [HAND, NodeId(1)]);
}

#[test]
fn an_injected_failure_inside_create_parent_leaves_everything_as_it_was() {
    const ARM: NodeId = NodeId(2);
    const SCABBARD: NodeId = NodeId(5);
    let scene = graft::model::file::load(Path::new("scenes/sword.ron")).expect("sword scene loads");
    let mut doc = Document::untitled(scene);
    // The first two edits (selecting applies none) are the group's Add and the arm's move;
    // the scabbard's move fails, so both must be taken back.
    doc.history_mut().inject_faults(&[2], &[]);
    let mut editor = Editor::new(doc);
    editor.update_world();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            ARM, SCABBARD,
        ])))
        .unwrap();
    let before = state(&editor);
    let error = editor
        .apply(Command::Edit(EditCommand::CreateParent))
        .expect_err("injected failure");
    assert!(matches!(error, Error::Injected(2)), "{error:?}");
    editor.update_world();
    assert_eq!(state(&editor), before);
    // The hook fires once: the same command now goes through.
    editor
        .apply(Command::Edit(EditCommand::CreateParent))
        .unwrap();
    assert_eq!(labels(&editor), ["Group 2 nodes"]);
}

#[test]
fn keep_world_reparents_under_a_zero_scale_parent_are_refused() {
    const FLAT: NodeId = NodeId(2);
    const FREE: NodeId = NodeId(6);
    let mut editor = Editor::new(Document::untitled(singular_scene()));
    editor.update_world();
    let before = state(&editor);
    let drop = |editor: &Editor, keep| {
        drop_rows(editor.doc().scene(), &[FREE], DropZone::Into(FLAT), keep)
    };
    let error = editor
        .apply(drop(&editor, Keep::World))
        .expect_err("singular parent");
    assert!(matches!(error, Error::SingularParent(FLAT)), "{error:?}");
    editor.update_world();
    assert_eq!(state(&editor), before);
    // Grouping the flat node's child: the group inherits the singular world, so it is refused.
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            3,
        )])))
        .unwrap();
    let before = state(&editor);
    editor
        .apply(Command::Edit(EditCommand::CreateParent))
        .expect_err("group under a singular parent");
    editor.update_world();
    assert_eq!(state(&editor), before);
    // Keeping the local numbers instead is allowed.
    editor.apply(drop(&editor, Keep::Local)).unwrap();
    assert_eq!(editor.doc().scene().parent(FREE).unwrap(), Some(FLAT));
}

#[test]
fn a_failed_history_jump_changes_nothing() {
    let scene = graft::model::file::load(Path::new("scenes/sword.ron")).expect("sword scene loads");
    let mut doc = Document::untitled(scene);
    // Edits 0 and 1 are the two renames, 2 undoes the second, 3 (undoing the first) fails.
    doc.history_mut().inject_faults(&[3], &[]);
    let mut editor = Editor::new(doc);
    for name in ["palm", "fist"] {
        editor
            .apply(Command::Panel(PanelCommand::Rename {
                node: HAND,
                name: name.into(),
            }))
            .unwrap();
    }
    editor.update_world();
    let before = state(&editor);
    let error = editor
        .apply(Command::History(HistoryCommand::JumpHistory(0)))
        .expect_err("injected failure");
    assert!(matches!(error, Error::Injected(3)), "{error:?}");
    editor.update_world();
    // `Editor::apply` promises a failed command changes nothing; the jump kept one undo.
    assert_eq!(state(&editor).done, before.done);
    assert_eq!(state(&editor), before);
}
