//! Instances in the editor, continued (issue 48). Copy, paste and duplicate: a copied instance root pastes as an
//! instance of the same source (overrides kept, the source shared), not as plain nodes; in
//! a scene in another folder the source is named from there; a paste that would make a
//! scene contain itself is refused. Also: an override whose node the source lost is
//! removable (one undo step), and only such an override, and opening a scene says where it
//! is; a source saved right after it was instanced is followed.

use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, FileCommand, HistoryCommand, InstanceCommand as I, SelectionCommand,
};
use graft::model::document::Document;
use graft::model::file;
use graft::model::scene::{NodeId, Scene};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The part every instance test instances: a wheel, its hub and a spoke (ids 1, 2, 3).
const WHEEL: &str = include_str!("fixtures/wheel-part.ron");

const CAR: &str = r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body"),
        (id: 2, name: "axle", parent: Some(1)),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0), overrides: [(node: [3], rotation: 30.0), (node: [9], scale: (3.0, 3.0))]),
        (id: 11, name: "cap", parent: Some(10), inside: [2]),
    ],
)
"#;

fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("parts")).expect("parts");
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL).expect("wheel");
    let car = dir.path().join("car.ron");
    fs::write(&car, CAR).expect("car");
    (dir, car)
}

fn open(path: &Path) -> Editor {
    Editor::new(Document::open(path).expect("open"))
}

/// The instance rooted at `root` as the file would write it, without its id and name.
fn instance_line(scene: &Scene, root: NodeId) -> String {
    let text = file::to_ron_string(scene);
    let line = text
        .lines()
        .find(|l| l.contains(&format!("(id: {root},")))
        .unwrap_or_else(|| panic!("no line of {root} in {text}"));
    line.split_once("instance:")
        .expect("an instance line")
        .1
        .to_string()
}

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

/// The copy is an instance like the original: same source (shared), same overrides kept,
/// its own nodes marked as coming from the source, the added node under the same source node.
fn assert_same_instance(scene: &Scene, original: NodeId, copy: NodeId) {
    let (a, b) = (
        scene.instance_entry(original).expect("original"),
        scene.instance_entry(copy).expect("the copy is an instance"),
    );
    assert_eq!(a.path, b.path);
    let (Ok(sa), Ok(sb)) = (&a.source, &b.source) else {
        panic!("sources")
    };
    assert!(Arc::ptr_eq(sa, sb), "the source is shared, not copied");
    assert_eq!(a.dangling, b.dangling, "the kept overrides too");
    assert_eq!(instance_line(scene, original), instance_line(scene, copy));
    let spoke = inner(scene, copy, &[3]);
    assert_eq!(scene.node(spoke).unwrap().local.rotation, 30.0);
    let hub = inner(scene, copy, &[2]);
    let cap = scene.children(Some(hub)).expect("hub's children");
    assert_eq!(cap.len(), 2, "the spoke and the added cap");
}

#[test]
fn duplicating_an_instance_makes_an_instance_and_undo_redo_are_exact() {
    let (_dir, car) = folder();
    let mut editor = open(&car);
    let before = file::to_ron_string(editor.doc().scene());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            10,
        )])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Duplicate))
        .expect("duplicate");
    let copy = editor.primary().expect("the copy is selected");
    assert_same_instance(editor.doc().scene(), NodeId(10), copy);
    let after = file::to_ron_string(editor.doc().scene());
    // Saved and read back: still two instances.
    editor
        .apply(Command::File(FileCommand::Save))
        .expect("save");
    let again = Document::open(&car).expect("reopen");
    assert_eq!(file::to_ron_string(again.scene()), after);
    assert_same_instance(again.scene(), NodeId(10), copy);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(file::to_ron_string(editor.doc().scene()), before);
    assert!(editor.doc().scene().instance_entry(copy).is_none());
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .unwrap();
    assert_eq!(file::to_ron_string(editor.doc().scene()), after);
    assert_same_instance(editor.doc().scene(), NodeId(10), copy);
}

#[test]
fn copy_and_paste_under_another_node_makes_an_instance() {
    let (_dir, car) = folder();
    let mut editor = open(&car);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            1,
        )])))
        .unwrap();
    // The whole body: its instance inside it comes back as an instance too.
    editor.apply(Command::Edit(EditCommand::Copy)).unwrap();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            2,
        )])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Paste))
        .expect("paste");
    let body = editor.primary().expect("the pasted body");
    let scene = editor.doc().scene();
    let copy = (scene.ids().iter().copied())
        .find(|&id| id != NodeId(10) && scene.instance_entry(id).is_some())
        .expect("an instance in the pasted body");
    assert!(scene.is_ancestor_or_self(body, copy).expect("both there"));
    assert_same_instance(scene, NodeId(10), copy);
}

#[test]
fn pasted_in_a_scene_of_another_folder_the_source_is_named_from_there() {
    let (dir, car) = folder();
    let mut editor = open(&car);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            10,
        )])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Copy)).unwrap();
    fs::create_dir(dir.path().join("levels")).unwrap();
    let level = dir.path().join("levels/level.ron");
    fs::write(&level, "(format: 1, nodes: [(id: 1, name: \"ground\")])").unwrap();
    editor
        .apply(Command::File(FileCommand::OpenPath(level.clone())))
        .expect("open the level");
    editor.tick(0.016);
    assert_eq!(editor.doc().path(), Some(level.as_path()));
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            1,
        )])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Paste))
        .expect("paste");
    let copy = editor.primary().unwrap();
    let entry = editor
        .doc()
        .scene()
        .instance_entry(copy)
        .expect("an instance");
    assert_eq!(entry.path, "../parts/wheel.ron");
    editor
        .apply(Command::File(FileCommand::Save))
        .expect("save");
    let again = Document::open(&level).expect("reopen");
    let spoke = inner(again.scene(), copy, &[3]);
    assert_eq!(again.scene().node(spoke).unwrap().local.rotation, 30.0);
}

#[test]
fn pasting_an_instance_into_its_own_source_is_refused() {
    let (dir, car) = folder();
    let mut editor = open(&car);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            10,
        )])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Copy)).unwrap();
    let wheel = dir.path().join("parts/wheel.ron");
    editor
        .apply(Command::File(FileCommand::OpenPath(wheel.clone())))
        .expect("open the wheel");
    editor.tick(0.016);
    assert_eq!(editor.doc().path(), Some(wheel.as_path()));
    let before = file::to_ron_string(editor.doc().scene());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            1,
        )])))
        .unwrap();
    let err = editor
        .apply(Command::Edit(EditCommand::Paste))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("would then contain itself"), "{err}");
    assert_eq!(file::to_ron_string(editor.doc().scene()), before);
    assert!(editor.doc().history().undo_label().is_none());
}

#[test]
fn a_duplicated_instance_follows_its_source_like_the_original() {
    let (dir, car) = folder();
    let mut editor = open(&car);
    editor.tick(0.016);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            10,
        )])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Duplicate)).unwrap();
    let copy = editor.primary().unwrap();
    let moved = WHEEL.replace("position: (0.0, 0.5)", "position: (0.0, 4.0)");
    fs::write(dir.path().join("parts/wheel.ron"), moved).unwrap();
    std::thread::sleep(graft::editor::session::disk_watch::WATCH_FILE_EVERY);
    std::thread::sleep(std::time::Duration::from_millis(100));
    editor.tick(0.016);
    let scene = editor.doc().scene();
    for root in [NodeId(10), copy] {
        let hub = inner(scene, root, &[2]);
        assert_eq!(scene.node(hub).unwrap().local.position.y, 4.0, "{root}");
    }
}

#[test]
fn an_override_of_a_lost_node_is_removed_in_one_undo_step_and_only_such_a_one() {
    let (_dir, car) = folder();
    let mut editor = open(&car);
    let before = file::to_ron_string(editor.doc().scene());
    assert!(before.contains("(node: [9], scale: (3.0, 3.0))"));
    let refused = editor
        .apply(Command::Instance(I::RemoveDangling {
            root: NodeId(10),
            chain: Some(vec![3]),
        }))
        .expect_err("node 3 is in the source: its override is not dangling");
    assert!(refused.to_string().contains("keeps no override of node 3"));
    let not_instance = editor.apply(Command::Instance(I::RemoveDangling {
        root: NodeId(2),
        chain: None,
    }));
    assert!(not_instance.is_err());
    editor
        .apply(Command::Instance(I::RemoveDangling {
            root: NodeId(10),
            chain: Some(vec![9]),
        }))
        .expect("remove");
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Remove override of node 9 from front")
    );
    let after = file::to_ron_string(editor.doc().scene());
    assert!(!after.contains("node: [9]"), "{after}");
    assert!(
        after.contains("(node: [3], rotation: 30.0)"),
        "the live one stays"
    );
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(file::to_ron_string(editor.doc().scene()), before);
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .unwrap();
    assert_eq!(file::to_ron_string(editor.doc().scene()), after);
}

#[test]
fn a_source_saved_right_after_it_was_instanced_is_still_followed() {
    // The disk watch looks every 2 s; a source first read between two looks takes its state
    // as it was read, so a save before the next look is a change, not the state to start from.
    let (dir, _car) = folder();
    let plain = dir.path().join("plain.ron");
    fs::write(&plain, "(format: 1, nodes: [(id: 1, name: \"ground\")])").unwrap();
    let mut editor = open(&plain);
    editor.tick(0.016); // a look: no sources yet
    editor
        .apply(Command::Instance(I::Instance {
            under: Some(NodeId(1)),
            path: Some(dir.path().join("parts/wheel.ron")),
        }))
        .expect("instance");
    let root = editor.primary().expect("the instance");
    editor.tick(0.016);
    let moved = WHEEL.replace("position: (0.0, 0.5)", "position: (0.0, 4.0)");
    fs::write(dir.path().join("parts/wheel.ron"), moved).unwrap();
    std::thread::sleep(graft::editor::session::disk_watch::WATCH_FILE_EVERY);
    std::thread::sleep(std::time::Duration::from_millis(100));
    editor.tick(0.016);
    let scene = editor.doc().scene();
    let hub = inner(scene, root, &[2]);
    assert_eq!(scene.node(hub).unwrap().local.position.y, 4.0, "followed");
}

#[test]
fn opening_a_scene_says_where_an_override_of_a_lost_node_is() {
    let (_dir, car) = folder();
    let mut editor = Editor::new(Document::sample());
    editor
        .apply(Command::File(FileCommand::OpenPath(car.clone())))
        .expect("open");
    editor.tick(0.016);
    let said: Vec<&str> = editor.messages().iter().map(|m| m.text.as_str()).collect();
    // Line 6, at `node: [9]`, as `graft check` places it.
    let want = format!(
        "{}:6:143: override of node 9, no longer in parts/wheel.ron",
        car.display()
    );
    assert!(said.contains(&want.as_str()), "{said:#?}");
}
