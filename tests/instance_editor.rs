//! Instances in the editor (issue 48): Node ▸ Instance scene…, Save branch as scene…, Make
//! local, Revert to source, Open source and following a source saved by another program, each
//! one undo step that the crash journal records and recovery rebuilds exactly.

mod common;

use graft::editor::session::Editor;
use graft::editor::session::command::InstanceCommand as I;
use graft::editor::session::command::{
    Command, EditCommand, Effect, FileCommand, HistoryCommand, JournalCommand, PanelCommand,
    SelectionCommand,
};
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file;
use graft::model::instance::FieldSet;
use graft::model::instance::plan::overrides_of_node;
use graft::model::math::Trs;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeId, Scene};
use std::fs;
use std::path::{Path, PathBuf};

/// The part every instance test instances: a wheel, its hub and a spoke (ids 1, 2, 3).
const WHEEL: &str = include_str!("fixtures/wheel-part.ron");

const CAR: &str = r#"(
    format: 1,
    nodes: [
        (id: 1, name: "body", position: (5.0, 0.0)),
        (id: 2, name: "mount", parent: Some(1), position: (0.0, 3.0), rotation: 45.0, scale: (2.0, 1.0)),
        (id: 3, name: "arm", parent: Some(2), position: (1.0, 1.0), rotation: 10.0),
        (id: 4, name: "hand", parent: Some(3), position: (0.0, 2.0), shape: Rect(size: (0.5, 0.5))),
    ],
)
"#;

/// A folder with `car.ron` and `parts/wheel.ron`; the car open in an editor.
fn car_editor() -> (tempfile::TempDir, PathBuf, Editor) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("parts")).expect("parts");
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL).expect("wheel");
    let car = dir.path().join("car.ron");
    fs::write(&car, CAR).expect("car");
    let editor = Editor::new(Document::open(&car).expect("open"));
    (dir, car, editor)
}

fn wheel_under(editor: &mut Editor, dir: &Path, parent: u32) -> NodeId {
    editor
        .apply(Command::Instance(I::Instance {
            under: Some(NodeId(parent)),
            path: Some(dir.join("parts/wheel.ron")),
        }))
        .expect("instance");
    editor.primary().expect("the instance is selected")
}

/// The node of instance `root` that is node `chain` of its source.
fn inner(scene: &Scene, root: NodeId, chain: &[u32]) -> NodeId {
    let table = scene.instances().expect("instances");
    *scene
        .ids()
        .iter()
        .find(|id| {
            table
                .origin(**id)
                .is_some_and(|o| o.root == root && table.chain_of(o) == Some(chain))
        })
        .unwrap_or_else(|| panic!("no node {chain:?} in instance {root}"))
}

fn turn(editor: &mut Editor, node: NodeId, degrees: f32) {
    let mut local = editor.doc().scene().node(node).expect("node").local;
    local.rotation = degrees;
    editor
        .apply(common::paste_local(node, local))
        .expect("turn");
}

/// The scene as text, its next id, and every node's id, origin and world matrix bits.
type State = (String, u32, Vec<(NodeId, Option<(NodeId, u32)>, [u32; 6])>);

fn state(scene: &Scene) -> State {
    let mut scene = scene.clone();
    scene.update_world();
    let nodes = scene
        .ids()
        .iter()
        .map(|&id| {
            let origin = scene.origin(id).map(|o| (o.root, o.index));
            let world = scene.world(id).expect("world");
            (id, origin, common::affine_bits(&world))
        })
        .collect();
    (file::to_ron_string(&scene), scene.next_id().0, nodes)
}

#[test]
fn instance_scene_is_one_undo_step_and_names_its_source_relative_to_the_scene() {
    let (dir, car, mut editor) = car_editor();
    let before = state(editor.doc().scene());
    let root = wheel_under(&mut editor, dir.path(), 2);
    let scene = editor.doc().scene();
    assert_eq!(
        scene.len(),
        7,
        "4 own nodes, the instance root and its 2 nodes"
    );
    assert_eq!(scene.parent(root).expect("parent"), Some(NodeId(2)));
    let entry = scene.instance_entry(root).expect("an instance");
    assert_eq!(entry.path, "parts/wheel.ron");
    assert_eq!(scene.node(root).expect("root").name, "wheel");
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Instance wheel.ron under mount")
    );
    let after = state(editor.doc().scene());
    assert!(
        after.0.contains("instance: \"parts/wheel.ron\""),
        "{}",
        after.0
    );

    editor
        .apply(Command::History(HistoryCommand::Undo))
        .expect("undo");
    let undone = state(editor.doc().scene());
    assert_eq!(
        (undone.0, undone.2),
        (before.0, before.2),
        "undo: as before"
    );
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .expect("redo");
    assert_eq!(
        state(editor.doc().scene()),
        after,
        "redo: exactly the instance"
    );

    // Saved and opened again: the same instance.
    editor
        .apply(Command::File(FileCommand::Save))
        .expect("save");
    let again = file::load(&car).expect("reopen");
    assert_eq!(state(&again).0, after.0);
}

#[test]
fn a_bad_source_is_refused_with_nothing_changed() {
    let (dir, _car, mut editor) = car_editor();
    let before = state(editor.doc().scene());
    fs::write(
        dir.path().join("two.ron"),
        "(format: 1, nodes: [(id: 1), (id: 2)])",
    )
    .unwrap();
    fs::write(
        dir.path().join("broken.ron"),
        "(format: 1, nodes: [(id: 1, ",
    )
    .unwrap();
    for (name, why) in [
        ("two.ron", "2 roots"),
        ("broken.ron", "cannot instance"),
        ("missing.ron", "cannot instance"),
        ("car.ron", "cycle"),
    ] {
        let err = editor
            .apply(Command::Instance(I::Instance {
                under: Some(NodeId(1)),
                path: Some(dir.path().join(name)),
            }))
            .expect_err(name)
            .to_string();
        assert!(err.contains(why), "{name}: {err}");
        assert_eq!(
            state(editor.doc().scene()),
            before,
            "{name}: nothing changed"
        );
    }
    assert!(editor.doc().history().undo_label().is_none());
}

#[test]
fn instancing_and_overriding_are_journaled_and_recovered_exactly() {
    let (dir, car, mut editor) = car_editor();
    let journals = dir.path().join("journals");
    fs::create_dir(&journals).unwrap();
    editor.start_journal(journals.clone());
    let root = wheel_under(&mut editor, dir.path(), 2);
    let spoke = inner(editor.doc().scene(), root, &[3]);
    turn(&mut editor, spoke, 30.0);
    let second = wheel_under(&mut editor, dir.path(), 1);
    editor
        .apply(Command::Instance(I::Revert {
            node: Some(spoke),
            fields: FieldSet::ROTATION,
        }))
        .expect("revert");
    let hub = inner(editor.doc().scene(), second, &[2]);
    turn(&mut editor, hub, 12.5);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![second])))
        .unwrap();
    editor.apply(Command::Instance(I::MakeLocal)).unwrap();
    let done = editor.doc().history().labels().1;
    let live = state(editor.doc().scene());
    drop(editor); // a crash: no clean end

    let mut next = Editor::new(Document::open(&car).expect("open"));
    next.start_journal(journals);
    assert!(
        next.recovery_offer().is_some(),
        "the crashed journal is offered"
    );
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .expect("recover");
    assert_eq!(
        state(next.doc().scene()),
        live,
        "bit for bit, ids and origins too"
    );
    assert_eq!(next.doc().history().labels().1, done);
    // Undo goes back through every instance step; redo comes back exactly.
    while next.doc().history().undo_label().is_some() {
        next.apply(Command::History(HistoryCommand::Undo))
            .expect("undo");
    }
    assert_eq!(file::to_ron_string(next.doc().scene()), CAR_CANONICAL());
    next.apply(Command::History(HistoryCommand::JumpHistory(done)))
        .expect("redo all");
    assert_eq!(state(next.doc().scene()), live);
}

#[allow(non_snake_case)]
fn CAR_CANONICAL() -> String {
    file::to_ron_string(&file::parse(CAR, Path::new("car.ron")).expect("car"))
}

#[test]
fn save_branch_as_scene_writes_the_file_and_puts_an_instance_in_its_place() {
    let (dir, car, mut editor) = car_editor();
    let before = state(editor.doc().scene());
    let world_of = |scene: &Scene, name: &str| {
        let mut scene = scene.clone();
        scene.update_world();
        let i = (0..scene.len())
            .find(|&i| scene.data_at(i).name == name)
            .expect(name);
        common::affine_bits(&scene.world(scene.id_at(i)).expect("world"))
    };
    let hand_world = world_of(editor.doc().scene(), "hand");
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            3,
        )])))
        .unwrap();
    let arm = dir.path().join("parts/arm.ron");
    editor
        .apply(Command::Instance(I::SaveBranch(Some(arm.clone()))))
        .expect("save branch");
    let scene = editor.doc().scene();
    let root = editor.primary().expect("the instance is selected");
    assert_eq!(
        scene.instance_entry(root).expect("instance").path,
        "parts/arm.ron"
    );
    assert_eq!(scene.parent(root).unwrap(), Some(NodeId(2)));
    assert_eq!(scene.node(root).unwrap().name, "arm");
    assert_eq!(
        scene.node(root).unwrap().local.rotation,
        10.0,
        "its own transform"
    );
    assert_eq!(world_of(scene, "hand"), hand_world, "nothing moved");
    let saved = file::load(&arm).expect("the branch file loads");
    assert_eq!(saved.len(), 2);
    assert_eq!(
        saved.data_at(0).local,
        Trs::IDENTITY,
        "the part at its own origin"
    );
    assert_eq!(overrides_of_node(scene, root), Some(FieldSet::default()));
    let text = file::to_ron_string(scene);
    assert!(!text.contains("overrides"), "no overrides: {text}");

    editor
        .apply(Command::History(HistoryCommand::Undo))
        .expect("undo");
    assert_eq!(
        state(editor.doc().scene()).0,
        before.0,
        "the branch is back"
    );
    assert_eq!(state(editor.doc().scene()).2, before.2);
    assert!(arm.exists(), "the written file stays");
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .expect("redo");
    editor
        .apply(Command::File(FileCommand::Save))
        .expect("save");
    let again = file::load(&car).expect("reopen");
    assert_eq!(world_of(&again, "hand"), hand_world);
}

#[test]
fn save_branch_is_refused_for_a_source_node_and_over_its_own_scene() {
    let (dir, car, mut editor) = car_editor();
    let root = wheel_under(&mut editor, dir.path(), 1);
    let hub = inner(editor.doc().scene(), root, &[2]);
    let before = state(editor.doc().scene());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hub])))
        .unwrap();
    let err = editor
        .apply(Command::Instance(I::SaveBranch(Some(
            dir.path().join("hub.ron"),
        ))))
        .expect_err("refused");
    assert!(err.to_string().contains("Make local"), "{err}");
    assert!(!dir.path().join("hub.ron").exists());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            3,
        )])))
        .unwrap();
    let err = editor
        .apply(Command::Instance(I::SaveBranch(Some(car.clone()))))
        .expect_err("refused");
    assert!(err.to_string().contains("over the scene"), "{err}");
    assert_eq!(state(editor.doc().scene()), before);
}

#[test]
fn revert_to_source_per_value_and_per_node() {
    let (dir, _car, mut editor) = car_editor();
    let root = wheel_under(&mut editor, dir.path(), 1);
    let spoke = inner(editor.doc().scene(), root, &[3]);
    turn(&mut editor, spoke, 30.0);
    editor
        .apply(Command::Panel(PanelCommand::Rename {
            node: spoke,
            name: "blade".into(),
        }))
        .unwrap();
    let fields = |e: &Editor| overrides_of_node(e.doc().scene(), spoke).unwrap().0;
    assert_eq!(fields(&editor), FieldSet::ROTATION | FieldSet::NAME);
    editor
        .apply(Command::Instance(I::Revert {
            node: Some(spoke),
            fields: FieldSet::ROTATION,
        }))
        .unwrap();
    assert_eq!(
        fields(&editor),
        FieldSet::NAME,
        "the rotation follows the source again"
    );
    assert_eq!(
        editor.doc().scene().node(spoke).unwrap().local.rotation,
        0.0
    );
    assert_eq!(editor.doc().scene().node(spoke).unwrap().name, "blade");
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![spoke])))
        .unwrap();
    editor
        .apply(Command::Instance(I::Revert {
            node: None,
            fields: u16::MAX,
        }))
        .unwrap();
    assert_eq!(fields(&editor), 0);
    assert_eq!(editor.doc().scene().node(spoke).unwrap().name, "spoke");
    // Nothing left: said, no step.
    let steps = editor.doc().history().labels().1;
    editor
        .apply(Command::Instance(I::Revert {
            node: None,
            fields: u16::MAX,
        }))
        .unwrap();
    assert_eq!(editor.doc().history().labels().1, steps);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(fields(&editor), FieldSet::NAME);
}

#[test]
fn an_override_loaded_equal_to_the_source_is_kept_until_reverted() {
    let (dir, car, _editor) = car_editor();
    let text = r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body"),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", overrides: [(node: [3], rotation: 0.0)]),
    ],
)
"#;
    fs::write(&car, text).unwrap();
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    let spoke = inner(editor.doc().scene(), NodeId(10), &[3]);
    assert_eq!(
        overrides_of_node(editor.doc().scene(), spoke),
        Some(FieldSet(FieldSet::ROTATION)),
        "pinned to the value it has, so a change of the source does not show through"
    );
    editor
        .apply(Command::Instance(I::Revert {
            node: Some(spoke),
            fields: u16::MAX,
        }))
        .unwrap();
    assert_eq!(
        overrides_of_node(editor.doc().scene(), spoke),
        Some(FieldSet(0))
    );
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(!fs::read_to_string(&car).unwrap().contains("overrides"));
    // The source turns the spoke: the reverted instance follows.
    fs::write(
        dir.path().join("parts/wheel.ron"),
        WHEEL.replace(
            "position: (1.0, 0.0),",
            "position: (1.0, 0.0), rotation: 90.0,",
        ),
    )
    .unwrap();
    let again = file::load(&car).unwrap();
    assert_eq!(
        again
            .node(inner(&again, NodeId(10), &[3]))
            .unwrap()
            .local
            .rotation,
        90.0
    );
}

#[test]
fn make_local_keeps_every_world_matrix_and_undo_brings_the_instance_back() {
    let (dir, _car, mut editor) = car_editor();
    let root = wheel_under(&mut editor, dir.path(), 2);
    let hub = inner(editor.doc().scene(), root, &[2]);
    turn(&mut editor, hub, 20.0);
    let instanced = state(editor.doc().scene());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hub])))
        .unwrap();
    editor
        .apply(Command::Instance(I::MakeLocal))
        .expect("make local");
    let scene = editor.doc().scene();
    assert!(scene.instance_entry(root).is_none() && scene.origin(hub).is_none());
    let local = state(scene);
    let worlds = |s: &State| s.2.iter().map(|(id, _, w)| (*id, *w)).collect::<Vec<_>>();
    assert_eq!(
        worlds(&local),
        worlds(&instanced),
        "same ids, same world matrices"
    );
    assert!(!local.0.contains("instance"), "plain nodes: {}", local.0);
    // Plain now: the hub may be deleted.
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hub])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Delete))
        .expect("a plain node goes");
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(state(editor.doc().scene()), instanced);
}

#[test]
fn deleting_a_source_node_is_refused_with_the_reason_and_make_local_named() {
    let (dir, _car, mut editor) = car_editor();
    let root = wheel_under(&mut editor, dir.path(), 1);
    let hub = inner(editor.doc().scene(), root, &[2]);
    let before = state(editor.doc().scene());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hub])))
        .unwrap();
    let err = editor
        .apply(Command::Edit(EditCommand::Delete))
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("belongs to instance") && err.contains("Make local"),
        "{err}"
    );
    assert_eq!(
        editor.last_message().unwrap().text,
        err,
        "said in the status bar"
    );
    let err = editor
        .apply(Command::Edit(EditCommand::Unparent))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("cannot be moved"), "{err}");
    assert_eq!(state(editor.doc().scene()), before);
    // A node added under it moves freely; the instance root too.
    editor
        .apply(Command::Edit(EditCommand::AddNode(
            graft::editor::session::command::NewNodePlace::ChildOf(hub),
        )))
        .expect("add under a source node");
    let added = editor.primary().unwrap();
    editor
        .apply(Command::Edit(EditCommand::Unparent))
        .expect("an added node moves");
    assert_eq!(editor.doc().scene().parent(added).unwrap(), None);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![root])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Unparent))
        .expect("the root moves");
}

#[test]
fn open_source_asks_for_a_new_window_on_the_source_file() {
    let (dir, _car, mut editor) = car_editor();
    let root = wheel_under(&mut editor, dir.path(), 1);
    let spoke = inner(editor.doc().scene(), root, &[3]);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![spoke])))
        .unwrap();
    let outcome = editor
        .apply(Command::Instance(I::OpenSource))
        .expect("open");
    let want = fs::canonicalize(dir.path().join("parts/wheel.ron")).unwrap();
    match outcome.effects.as_slice() {
        [Effect::OpenWindow(path)] => {
            assert_eq!(fs::canonicalize(path).unwrap(), want)
        }
        other => panic!("{other:?}"),
    }
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            1,
        )])))
        .unwrap();
    assert!(editor.apply(Command::Instance(I::OpenSource)).is_err());
}

const CAR_WITH_WHEEL: &str = r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body"),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0)),
    ],
)
"#;

/// Another program saves the wheel with its hub moved (and a new node under it).
fn save_wheel_elsewhere(dir: &Path) {
    let wheel = dir.join("parts/wheel.ron");
    let mut other = Editor::new(Document::open(&wheel).expect("open the source"));
    other
        .perform_ops(
            "move hub",
            vec![
                Op::SetLocal {
                    node: NodeId(2),
                    local: Trs::new(glam::Vec2::new(0.0, 2.0), 0.0, glam::Vec2::ONE, 0.0),
                },
                Op::Add {
                    parent: Some(NodeId(2)),
                    index: None,
                    data: graft::model::scene::NodeData::named("bolt", Trs::IDENTITY),
                },
            ],
            false,
        )
        .expect("edit the source");
    other
        .apply(Command::File(FileCommand::Save))
        .expect("save the source");
}

/// The window looks at its files every 2 s (`WATCH_FILE_EVERY`), with no input needed.
fn wait_for_the_watch(editor: &mut Editor) {
    std::thread::sleep(graft::editor::session::disk_watch::WATCH_FILE_EVERY);
    std::thread::sleep(std::time::Duration::from_millis(100));
    editor.tick(0.016);
}

#[test]
fn a_source_saved_elsewhere_is_followed_overrides_kept_and_the_follow_is_recovered() {
    let (dir, car, _) = car_editor();
    fs::write(&car, CAR_WITH_WHEEL).unwrap();
    let journals = dir.path().join("journals");
    fs::create_dir(&journals).unwrap();
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.start_journal(journals.clone());
    editor.tick(0.016); // the first look: the sources as they are
    let spoke = inner(editor.doc().scene(), NodeId(10), &[3]);
    let hub = inner(editor.doc().scene(), NodeId(10), &[2]);
    turn(&mut editor, spoke, 30.0);
    save_wheel_elsewhere(dir.path());
    wait_for_the_watch(&mut editor);
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Follow wheel.ron")
    );
    // A node of this scene's own takes the next id after the source's new one.
    editor
        .apply(Command::Edit(EditCommand::AddNode(
            graft::editor::session::command::NewNodePlace::ChildOf(NodeId(1)),
        )))
        .unwrap();

    let scene = editor.doc().scene();
    assert_eq!(
        scene.node(hub).unwrap().local.position.y,
        2.0,
        "the hub followed"
    );
    assert_eq!(
        scene.node(spoke).unwrap().local.rotation,
        30.0,
        "the override kept"
    );
    assert_eq!(scene.len(), 6, "the new bolt is in the instance");
    let said = editor
        .messages()
        .iter()
        .any(|m| m.text.contains("its instances follow"));
    assert!(said, "{:?}", editor.messages());
    let live = state(editor.doc().scene());
    drop(editor); // a crash

    let mut next = Editor::new(Document::open(&car).expect("open"));
    next.start_journal(journals);
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .expect("recover");
    assert_eq!(
        state(next.doc().scene()),
        live,
        "the follow replayed exactly"
    );
}

#[test]
fn following_a_source_leaves_a_clean_scene_clean() {
    let (dir, car, _) = car_editor();
    fs::write(&car, CAR_WITH_WHEEL).unwrap();
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.tick(0.016);
    save_wheel_elsewhere(dir.path());
    wait_for_the_watch(&mut editor);
    let scene = editor.doc().scene();
    assert_eq!(scene.len(), 5, "followed");
    assert!(
        !editor.doc().is_modified(),
        "the file would not change: still clean"
    );
}
