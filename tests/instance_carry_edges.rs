//! Edge cases of a follow that carries nodes added under instanced nodes in its one pass
//! (issue 48, `carry.rs`): each compared with the general path (`plan::replace_ops`: the
//! scene saved and read again) and, where the level is saved, with loading it again (the
//! nodes, their worlds and the file a save writes), undo and redo exact.

use graft::model::document::Document;
use graft::model::file;
use graft::model::instance::{TableEdit, plan};
use graft::model::scene::edit::{Change as Step, Edit, Op};
use graft::model::scene::{Keep, NodeId, Scene};
use std::path::{Path, PathBuf};

/// A scene file's text from node lines (`format`: the file's format).
fn scene_text(format: u32, lines: &[String]) -> String {
    let mut text = format!("(\n    format: {format},\n    nodes: [\n");
    for l in lines {
        text.push_str(&format!("        {l},\n"));
    }
    text.push_str("    ],\n)\n");
    text
}

/// A part's node line: id, name, parent (None: the root), x position, rotation.
fn node(id: u32, parent: Option<u32>, x: f32, rot: f32) -> String {
    let parent = parent.map_or(String::new(), |p| format!(", parent: Some({p})"));
    format!("(id: {id}, name: \"n{id}\"{parent}, position: ({x:?}, 1.0), rotation: {rot:?})")
}

/// A temp folder holding `files` (name, text); the path of `level.ron` in it.
fn folder(files: &[(&str, String)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let level = dir.path().join("level.ron");
    (dir, level)
}

/// Same ids, parents, data and world matrices (bit for bit), the same instance rows and the
/// same file written.
fn assert_same(a: &Scene, b: &Scene, what: &str) {
    assert_same_with(a, b, what, true);
}

/// [`assert_same`]; `stale`: also the table's waiting entries of nodes no longer under the
/// instance root they wait in (the general path drops those of every instance it replaces,
/// the fast path those of the instances it reshapes only).
fn assert_same_with(a: &Scene, b: &Scene, what: &str, stale: bool) {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.update_world();
    b.update_world();
    assert_eq!(a.len(), b.len(), "{what}: node count");
    for i in 0..a.len() {
        assert_eq!(a.id_at(i), b.id_at(i), "{what}: id at {i}");
        assert_eq!(
            a.parent_index_at(i),
            b.parent_index_at(i),
            "{what}: parent at {i}"
        );
        assert_eq!(a.data_at(i), b.data_at(i), "{what}: data at {i}");
        let bits = |m: glam::Affine2| m.to_cols_array().map(f32::to_bits);
        assert_eq!(
            bits(a.world_at(i)),
            bits(b.world_at(i)),
            "{what}: world at {i}"
        );
        let id = a.id_at(i);
        assert_eq!(a.origin(id), b.origin(id), "{what}: origin of {id}");
        let (ta, tb) = (a.instances(), b.instances());
        let pending = |s: &Scene, t: Option<&graft::model::instance::Instances>| {
            let waits = t.and_then(|t| t.pending(id));
            let here = |r: NodeId| stale || s.parent(id).ok().flatten() == Some(r);
            waits
                .filter(|(r, _)| here(*r))
                .map(|(r, c)| (r, c.to_vec()))
        };
        assert_eq!(pending(&a, ta), pending(&b, tb), "{what}: pending {id}");
        if let Some(entry) = a.instance_entry(id) {
            let other = b.instance_entry(id).expect("the same instance");
            assert_eq!(entry.sticky, other.sticky, "{what}: sticky of {id}");
            assert_eq!(entry.dangling, other.dangling, "{what}: dangling of {id}");
            let chains = |e: &graft::model::instance::Entry| {
                e.source.as_ref().map(|s| s.chains.clone()).ok()
            };
            assert_eq!(chains(entry), chains(other), "{what}: source of {id}");
        }
    }
    assert_eq!(
        file::to_ron_string(&a),
        file::to_ron_string(&b),
        "{what}: the file"
    );
}

/// The general path's scene: the ops of `plan::replace_ops` performed on a copy.
fn general(scene: &Scene, level: &Path) -> Scene {
    let mut out = scene.clone();
    for op in plan::replace_ops(scene, level).expect("the general path") {
        op.perform(&mut out).expect("performed");
    }
    out
}

/// Swaps (the general path's rows out and in) in the history's last step.
fn last_swaps(doc: &Document) -> usize {
    let changes = doc.history().as_changes();
    let last = changes.iter().rev().find_map(|c| match c {
        Step::Step { edits, .. } => Some(edits.clone()),
        _ => None,
    });
    let swap = |e: &&Edit| matches!(e, Edit::Instances(t) if matches!(**t, TableEdit::Swap { .. }));
    last.unwrap_or_default().iter().filter(swap).count()
}

/// Follow the sources on disk: the result equals the general path's; undo gives back the
/// scene before, redo the follow. Returns whether the fast path did it (no swap).
fn follow_checked(doc: &mut Document, level: &Path, what: &str) -> bool {
    follow_checked_with(doc, level, what, true)
}

/// [`follow_checked`]; `stale`: the waiting entries of nodes moved away from where they wait
/// compared too (see [`assert_same_with`]; with the general path's, and before and after
/// undo: one naming an instance the follow does not rebuild is lost when another instance
/// the node was moved into makes it wait there, see
/// `a_waiting_entry_taken_over_by_another_instance_comes_back_on_undo`).
fn follow_checked_with(doc: &mut Document, level: &Path, what: &str, stale: bool) -> bool {
    let before = doc.scene().clone();
    let want = general(&before, level);
    assert!(
        doc.reload_instances("Follow").expect("follow"),
        "{what}: changed"
    );
    let after = doc.scene().clone();
    let against = format!("{what}: follow against the general path");
    assert_same_with(&after, &want, &against, stale);
    let fast = last_swaps(doc) == 0;
    doc.undo().expect("undo");
    assert_same_with(doc.scene(), &before, &format!("{what}: undone"), stale);
    doc.redo().expect("redo");
    assert_same(doc.scene(), &after, &format!("{what}: redone"));
    fast
}

/// The followed scene against loading the level (saved before the follow) again: the data
/// and worlds at every index.
fn assert_as_load(doc: &Document, saved: &Path, what: &str) {
    let mut after = doc.scene().clone();
    after.update_world();
    let mut loaded = file::load(saved).expect("load again");
    loaded.update_world();
    assert_eq!(loaded.len(), after.len(), "{what}: node count");
    for i in 0..after.len() {
        assert_eq!(loaded.data_at(i), after.data_at(i), "{what}: data at {i}");
        let bits = |m: glam::Affine2| m.to_cols_array().map(f32::to_bits);
        assert_eq!(
            bits(loaded.world_at(i)),
            bits(after.world_at(i)),
            "{what}: world at {i}"
        );
    }
}

/// The file a save of the followed scene writes against that of the level (saved before the
/// follow) loaded again.
fn assert_file_as_load(doc: &Document, saved: &Path, what: &str) {
    let loaded = file::load(saved).expect("load again");
    assert_eq!(
        file::to_ron_string(doc.scene()),
        file::to_ron_string(&loaded),
        "{what}: the file a save writes"
    );
}

/// The expanded node of instance `root` whose source chain is `chain`.
fn inner(s: &Scene, root: NodeId, chain: &[u32]) -> NodeId {
    let table = s.instances().expect("instances");
    *(s.ids().iter())
        .find(|id| {
            table
                .origin(**id)
                .is_some_and(|o| o.root == root && table.chain_of(o) == Some(chain))
        })
        .expect("the node")
}

/// A part: root 1; 2 (children 3, 4); 5.
fn part_a() -> String {
    scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(2, Some(1), 1.0, 30.0),
            node(3, Some(2), 0.0, 10.0),
            node(4, Some(2), 2.0, 20.0),
            node(5, Some(1), -1.0, 5.0),
        ],
    )
}

/// [`part_a`] with node 10 added under 2 (after 4) and a level above 5 (node 6).
fn part_a_plus() -> String {
    scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(2, Some(1), 1.0, 30.0),
            node(3, Some(2), 0.0, 10.0),
            node(4, Some(2), 2.0, 20.0),
            node(10, Some(2), 3.0, 40.0),
            node(6, Some(1), -2.0, 15.0),
            node(5, Some(6), -1.0, 5.0),
        ],
    )
}

/// The level: instance p (id 2) of part.ron with `added` lines after it.
fn level_with(added: &[String]) -> String {
    let mut lines = vec![
        "(id: 1, name: \"level\")".to_string(),
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", position: (5.0, 0.0), rotation: 12.0)".to_string(),
    ];
    lines.extend(added.iter().cloned());
    lines.push("(id: 40, name: \"plain\", parent: Some(1))".into());
    scene_text(5, &lines)
}

/// A pending added node (inside node 10, which the part lacks) that the user moved under the
/// source node 2 before its children: the save writes it inside [2] at index 0 (a source node
/// comes after it), so a load puts it there. The one pass must too, its table entry of
/// waiting for node 10 notwithstanding (that entry is stale once it moved).
#[test]
fn a_pending_node_moved_under_a_source_node_keeps_its_written_index() {
    let added = [
        "(id: 60, name: \"waiting\", parent: Some(2), inside: [10], position: (0.5, 0.5))".into(),
    ];
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    assert!(
        doc.scene()
            .instances()
            .unwrap()
            .pending(NodeId(60))
            .is_some()
    );
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    let op = Op::Reparent {
        node: NodeId(60),
        parent: Some(n2),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move 60", vec![op]).expect("moves freely");
    let text = file::to_ron_string(doc.scene());
    assert!(text.contains("inside: [2], index: 0"), "{text}");
    // The part gains a level above 5 only (node 10 still absent).
    let plus = part_a_plus().replace(&format!("        {},\n", node(10, Some(2), 3.0, 40.0)), "");
    std::fs::write(dir.path().join("part.ron"), plus).expect("part");
    follow_checked(&mut doc, &level, "pending moved");
    let s = doc.scene();
    assert_eq!(s.parent(NodeId(60)).unwrap(), Some(n2));
    assert_eq!(s.sibling_index(NodeId(60)).unwrap(), 0, "still before n3");
}

/// [`part_a`] without node 2 and its children.
fn part_a_minus() -> String {
    scene_text(1, &[node(1, None, 0.0, 0.0), node(5, Some(1), -1.0, 5.0)])
}

/// An added node placed before the source node 2's children (`index: 0` in the file) whose
/// node the part loses and gets back: a load of the level saved between keeps its index
/// (the table's kept index, written back) and puts it first again when node 2 comes back.
/// The follow (either path) forgets the index: the node ends after node 2's children.
/// Fails on main at "first again" (left 2, right 0): neither path keeps the table's kept
/// index (`Instances::kept_index`, set only by a load) as a load of the saved level would.
#[test]
#[ignore = "open: a follow does not keep a pending node's written index (both paths)"]
fn a_placed_node_with_an_index_keeps_it_while_its_node_is_gone() {
    let added = [
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 0, position: (0.5, 0.5))"
            .into(),
    ];
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    assert_eq!(doc.scene().sibling_index(NodeId(60)).unwrap(), 0);
    std::fs::write(&part, part_a_minus()).expect("part loses node 2");
    follow_checked(&mut doc, &level, "node 2 gone");
    let s = doc.scene();
    assert!(
        s.instances().unwrap().pending(NodeId(60)).is_some(),
        "waits"
    );
    assert_as_load(&doc, &level, "node 2 gone");
    // (The file a save writes differs already: the load writes `index: 0` for 60.)
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a()).expect("node 2 back");
    follow_checked(&mut doc, &level, "node 2 back");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    assert_eq!(doc.scene().parent(NodeId(60)).unwrap(), Some(n2));
    assert_eq!(
        doc.scene().sibling_index(NodeId(60)).unwrap(),
        0,
        "first again"
    );
}

/// A pending added node with an index (inside node 10, which only a change adds) placed when
/// node 10 comes and pending again when it goes: each follow writes the file a load writes.
#[test]
fn a_pending_node_with_an_index_placed_and_pending_again_writes_what_a_load_writes() {
    let added = [
        "(id: 60, name: \"waiting\", parent: Some(2), inside: [10], index: 0, position: (0.5, 0.5))"
            .into(),
    ];
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(&part, part_a_plus()).expect("node 10 comes");
    follow_checked(&mut doc, &level, "node 10 comes");
    assert_as_load(&doc, &level, "node 10 comes");
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a()).expect("node 10 goes");
    follow_checked(&mut doc, &level, "node 10 goes");
    assert_as_load(&doc, &level, "node 10 goes");
}

/// The part's root children reordered (5 moved before 2, a move within one parent) with
/// added nodes under the root at indexes and inside 2 and 5: the one pass equals the general
/// path and a load, undo and redo exact.
#[test]
fn added_nodes_follow_a_reorder_of_the_roots_children() {
    let added: Vec<String> = [
        "(id: 60, name: \"r1\", parent: Some(2), index: 1, position: (0.5, 0.5))",
        "(id: 61, name: \"y\", parent: Some(2), inside: [2], index: 1, position: (0.1, 0.5))",
        "(id: 62, name: \"y child\", parent: Some(61), position: (0.1, 0.2))",
        "(id: 63, name: \"z\", parent: Some(2), inside: [5], position: (0.3, 0.5))",
        "(id: 64, name: \"w\", parent: Some(2), position: (0.7, 0.5))",
        "(id: 65, name: \"r0\", parent: Some(2), index: 0, position: (0.9, 0.5))",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    let reordered = scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(5, Some(1), -1.0, 5.0),
            node(2, Some(1), 1.0, 30.0),
            node(4, Some(2), 2.0, 20.0),
            node(3, Some(2), 0.0, 10.0),
        ],
    );
    std::fs::write(&part, reordered).expect("reordered");
    assert!(
        follow_checked(&mut doc, &level, "reordered"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "reordered");
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a_minus()).expect("node 2 gone");
    assert!(follow_checked(&mut doc, &level, "2 gone"), "the fast path");
    assert_as_load(&doc, &level, "2 gone");
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a_plus()).expect("back, deeper");
    assert!(follow_checked(&mut doc, &level, "back"), "the fast path");
    assert_as_load(&doc, &level, "back");
}

/// Added nodes under one source node whose file indexes collide and exceed its children,
/// and two pending ones with the same kept index placed together when their node comes.
#[test]
fn colliding_and_large_indexes_follow_as_a_load_places_them() {
    let added: Vec<String> = [
        "(id: 60, name: \"a\", parent: Some(2), inside: [2], index: 0)",
        "(id: 61, name: \"b\", parent: Some(2), inside: [2], index: 0)",
        "(id: 62, name: \"c\", parent: Some(2), inside: [2], index: 9)",
        "(id: 63, name: \"d\", parent: Some(2), inside: [2], index: 1)",
        "(id: 64, name: \"e\", parent: Some(2), inside: [2])",
        "(id: 65, name: \"f\", parent: Some(2), inside: [10], index: 0)",
        "(id: 66, name: \"g\", parent: Some(2), inside: [10], index: 0)",
        "(id: 67, name: \"h\", parent: Some(2), inside: [10], index: 5)",
        "(id: 68, name: \"i\", parent: Some(2), inside: [10])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    let with_10 = scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(10, Some(1), 4.0, 0.0),
            node(11, Some(10), 4.0, 1.0),
            node(12, Some(10), 4.0, 2.0),
            node(2, Some(1), 1.0, 30.0),
            node(4, Some(2), 2.0, 20.0),
            node(5, Some(1), -1.0, 5.0),
        ],
    );
    std::fs::write(&part, with_10).expect("node 10 comes, 3 goes");
    assert!(
        follow_checked(&mut doc, &level, "10 comes"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "10 comes");
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a()).expect("as it was");
    assert!(
        follow_checked(&mut doc, &level, "as it was"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "as it was");
}

/// The file a follow's save writes where a load keeps an index: node 60 placed with
/// `index: 0` whose node goes (a load keeps the index, the follow drops it), and node 61
/// pending with `index: 0` placed then pending again (the follow keeps its first index,
/// stale, where a load of the level saved between has none). Fails on main at "2 and 10
/// gone: the file a save writes" (`index: 0` missing for 60, extra for 61).
#[test]
#[ignore = "open: a follow does not keep the table's kept indexes as a load would (both paths)"]
fn a_follow_writes_the_kept_indexes_a_load_writes() {
    let added: Vec<String> = [
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 0)",
        "(id: 61, name: \"waiting\", parent: Some(2), inside: [10], index: 0)",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(&part, part_a_plus()).expect("node 10 comes");
    follow_checked(&mut doc, &level, "10 comes");
    assert_as_load(&doc, &level, "10 comes");
    assert_file_as_load(&doc, &level, "10 comes");
    doc.save_to(&level).expect("save");
    std::fs::write(&part, part_a_minus()).expect("2 and 10 go");
    follow_checked(&mut doc, &level, "2 and 10 gone");
    assert_as_load(&doc, &level, "2 and 10 gone");
    assert_file_as_load(&doc, &level, "2 and 10 gone");
}

/// A bolt: root 1 with children 2 and 3.
fn bolt() -> String {
    scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(2, Some(1), 0.2, 30.0),
            node(3, Some(1), 0.4, 60.0),
        ],
    )
}

/// [`bolt`] gaining a level above 2 (node 4) and a new node 5 first under the root.
fn bolt_deeper() -> String {
    scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(5, Some(1), 0.1, 5.0),
            node(4, Some(1), 0.3, 45.0),
            node(2, Some(4), 0.2, 30.0),
            node(3, Some(1), 0.4, 60.0),
        ],
    )
}

/// Two sources changing in one follow: an instance of bolt.ron (70) added inside node 2 of
/// the part's instance p before its children, itself with a node added inside its node 2 at
/// index 0 (and a second, plain bolt instance beside them). Both parts change in their
/// structure on disk at once, and back: the fast path equals the general path and a load.
#[test]
fn two_sources_change_in_one_follow_with_one_instance_inside_the_others_added_node() {
    let added: Vec<String> = [
        "(id: 70, name: \"bolt\", parent: Some(2), inside: [2], index: 0, instance: \"bolt.ron\", position: (0.3, 0.0))",
        "(id: 71, name: \"on bolt\", parent: Some(70), inside: [2], index: 0, position: (0.0, 0.1))",
        "(id: 72, name: \"after\", parent: Some(2), inside: [5])",
    ]
    .map(String::from)
    .to_vec();
    let mut level_text = level_with(&added);
    level_text = level_text.replace(
        "        (id: 40,",
        "        (id: 80, name: \"bolt2\", parent: Some(1), instance: \"bolt.ron\"),\n        (id: 40,",
    );
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", level_text),
    ]);
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    std::fs::write(dir.path().join("bolt.ron"), bolt_deeper()).expect("bolt");
    assert!(
        follow_checked(&mut doc, &level, "both change"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "both change");
    assert_file_as_load(&doc, &level, "both change");
    let n4 = inner(doc.scene(), NodeId(70), &[4]);
    let n2 = inner(doc.scene(), NodeId(70), &[2]);
    assert_eq!(doc.scene().parent(n2).unwrap(), Some(n4));
    assert_eq!(doc.scene().parent(NodeId(71)).unwrap(), Some(n2));
    doc.save_to(&level).expect("save");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    std::fs::write(dir.path().join("bolt.ron"), bolt()).expect("bolt");
    assert!(
        follow_checked(&mut doc, &level, "both back"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "both back");
}

/// An added subtree holding an instance of the same file (p's node 2 gets a child that is
/// itself a part.ron instance): the one pass cannot rebuild it (its nodes change too) and the
/// general path does it, equal to a load, undo and redo exact.
#[test]
fn an_added_instance_of_the_same_file_takes_the_general_path() {
    let added: Vec<String> = [
        "(id: 70, name: \"holder\", parent: Some(2), inside: [2], index: 1)",
        "(id: 71, name: \"p inside p\", parent: Some(70), instance: \"part.ron\", position: (0.3, 0.0))",
        "(id: 72, name: \"deep\", parent: Some(71), inside: [2], index: 0)",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    assert!(
        !follow_checked(&mut doc, &level, "same file"),
        "the general path"
    );
    assert_as_load(&doc, &level, "same file");
    assert_file_as_load(&doc, &level, "same file");
    doc.save_to(&level).expect("save");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    assert!(
        !follow_checked(&mut doc, &level, "2 gone"),
        "the general path"
    );
    assert_as_load(&doc, &level, "2 gone");
}

/// An added node holding an instance of a file that nests the part (car.ron: a car root with
/// a part.ron instance in it): when the part changes, the instance p and the car (whose
/// source changes with its nested part) both follow, the car carried inside p's added node.
#[test]
fn an_added_instance_of_a_file_nesting_the_part_follows_with_it() {
    let car = scene_text(
        4,
        &[
            node(1, None, 0.0, 0.0),
            "(id: 2, name: \"wheel\", parent: Some(1), instance: \"part.ron\", position: (1.0, 0.0))"
                .into(),
            node(3, Some(1), 2.0, 0.0),
        ],
    );
    let added: Vec<String> = [
        "(id: 70, name: \"car\", parent: Some(2), inside: [2], index: 1, instance: \"car.ron\", position: (0.3, 0.0))",
        "(id: 71, name: \"on the wheel's hub\", parent: Some(70), inside: [2, 2], index: 0)",
        "(id: 72, name: \"on car 3\", parent: Some(70), inside: [3])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("car.ron", car),
        ("level.ron", level_with(&added)),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let hub = inner(doc.scene(), NodeId(70), &[2, 2]);
    assert_eq!(doc.scene().parent(NodeId(71)).unwrap(), Some(hub));
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    assert!(
        follow_checked(&mut doc, &level, "nested part changes"),
        "the fast path"
    );
    assert_as_load(&doc, &level, "nested part changes");
    assert_file_as_load(&doc, &level, "nested part changes");
    doc.save_to(&level).expect("save");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    follow_checked(&mut doc, &level, "2 gone");
    assert_as_load(&doc, &level, "2 gone");
    doc.save_to(&level).expect("save");
    std::fs::write(dir.path().join("part.ron"), part_a()).expect("part");
    follow_checked(&mut doc, &level, "2 back");
    assert_as_load(&doc, &level, "2 back");
}

/// The follow's step replayed (as from a journal) on the scene before it where the user has
/// since moved an added node elsewhere in the instance (node 60 from node 2 to node 5): the
/// recorded placements no longer hold, so the replay is refused and nothing changes.
#[test]
fn a_replayed_follow_whose_added_node_moved_is_refused_with_nothing_changed() {
    let added: Vec<String> = [
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 0)",
        "(id: 61, name: \"tag\", parent: Some(2), inside: [5])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "follow"), "the fast path");
    let changes = doc.history().as_changes();
    let step = changes
        .iter()
        .rev()
        .find(|c| matches!(c, Step::Step { .. }))
        .expect("the follow's step")
        .clone();
    doc.undo().expect("undo");
    let n5 = inner(doc.scene(), NodeId(2), &[5]);
    let op = Op::Reparent {
        node: NodeId(60),
        parent: Some(n5),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move 60", vec![op]).expect("moves freely");
    let before = doc.scene().clone();
    let table: Vec<TableEdit> = match &step {
        Step::Step { edits, .. } => (edits.iter())
            .filter_map(|e| match e {
                Edit::Instances(t) => Some((**t).clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    assert!(
        matches!(table.first(), Some(TableEdit::ReshapeCarrying(..))),
        "{table:?}"
    );
    let mut applied = doc.scene().clone();
    let result = table[0].apply(&mut applied);
    assert!(result.is_err(), "the reshape applied over the move");
    assert_same(&applied, &before, "the table edit refused");
    let replayed = doc.replay(&step);
    assert!(replayed.is_err(), "the step replayed over the move");
    assert_same(doc.scene(), &before, "the step refused");
}

/// A pending added node (60, waiting for node 10) the user moved under another added node
/// (61) before a follow: a load of the level, and the general path, have 60 as a plain child
/// of 61 (nothing waits); the one pass must not keep 60 waiting either, or moving it back
/// under the instance root writes `inside: [10]` again where a load's scene would not.
#[test]
fn a_pending_node_moved_into_an_added_node_stops_waiting_after_a_follow() {
    moved_pending_then_followed(NodeId(61), true);
}

/// As above, 60 moved out of the instance (under the level's root), p left without added
/// nodes: the follow drops its waiting entry too (a table edit that carries, not format 5's).
#[test]
fn a_pending_node_moved_out_of_its_instance_stops_waiting_after_a_follow() {
    moved_pending_then_followed(NodeId(1), false);
}

/// Node 60 (waiting in p for node 10) moved under `to` (`holder`: p has node 61 added), the
/// part changed without node 10, followed (equal to the general path, undo/redo exact), then
/// 60 moved back under p's root: the same scene and file as the general path's.
fn moved_pending_then_followed(to: NodeId, holder: bool) {
    let mut added = vec!["(id: 60, name: \"waiting\", parent: Some(2), inside: [10])".to_string()];
    if holder {
        added.push("(id: 61, name: \"holder\", parent: Some(2), inside: [2], index: 0)".into());
    }
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    let op = Op::Reparent {
        node: NodeId(60),
        parent: Some(to),
        index: None,
        keep: Keep::Local,
    };
    doc.perform("move 60", vec![op]).expect("moves freely");
    let plus = part_a_plus().replace(&format!("        {},\n", node(10, Some(2), 3.0, 40.0)), "");
    std::fs::write(dir.path().join("part.ron"), plus).expect("part");
    let mut want = general(doc.scene(), &level);
    assert!(
        follow_checked(&mut doc, &level, "moved, followed"),
        "the fast path"
    );
    let back = Op::Reparent {
        node: NodeId(60),
        parent: Some(NodeId(2)),
        index: None,
        keep: Keep::Local,
    };
    back.clone().perform(&mut want).expect("moved back");
    doc.perform("move 60 back", vec![back]).expect("moved back");
    assert_same(doc.scene(), &want, "moved back after the follow");
}

/// A level of 300 instances of the part, with nodes added under most of them (inside node 2
/// before its children, under the root at index 1, waiting for node 10 with an index, some
/// moved by the user), followed on two threads (the planning and the blocks split in pieces)
/// through three structural changes: each equal to the general path (and a load where the
/// level is saved), undo and redo exact.
#[test]
fn a_big_level_follows_on_two_threads_as_the_general_path() {
    graft::model::scene::set_parallel_threshold(0);
    graft::model::scene::set_propagation_threads(2);
    let mut lines = vec!["(id: 1, name: \"level\")".to_string()];
    let mut next = 1000;
    for k in 0..300u32 {
        let root = k + 2;
        lines.push(format!(
            "(id: {root}, name: \"p{k}\", parent: Some(1), instance: \"part.ron\", position: ({k}.0, 0.0), rotation: {}.0)",
            k % 37
        ));
        if k % 2 == 0 {
            lines.push(format!(
                "(id: {next}, name: \"cap\", parent: Some({root}), inside: [2], index: 0, position: (0.1, 0.2))"
            ));
            lines.push(format!(
                "(id: {}, name: \"pin\", parent: Some({next}))",
                next + 1
            ));
        }
        if k % 3 == 0 {
            lines.push(format!(
                "(id: {}, name: \"r\", parent: Some({root}), index: 1)",
                next + 2
            ));
        }
        if k % 5 == 0 {
            lines.push(format!(
                "(id: {}, name: \"w\", parent: Some({root}), inside: [10], index: {})",
                next + 3,
                k % 3
            ));
        }
        next += 4;
    }
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", scene_text(5, &lines))]);
    let part = dir.path().join("part.ron");
    let mut doc = Document::open(&level).expect("open");
    // Some caps moved by the user under node 5 of their instance, saved.
    for k in (0..300u32).step_by(14) {
        let n5 = inner(doc.scene(), NodeId(k + 2), &[5]);
        let op = Op::Reparent {
            node: NodeId(1000 + 4 * k),
            parent: Some(n5),
            index: Some(0),
            keep: Keep::Local,
        };
        doc.perform("move cap", vec![op]).expect("moves");
    }
    doc.save_to(&level).expect("save");
    for (what, text) in [
        ("plus", part_a_plus()),
        ("minus", part_a_minus()),
        ("as it was", part_a()),
    ] {
        std::fs::write(&part, text).expect("part");
        assert!(
            follow_checked(&mut doc, &level, what),
            "{what}: the fast path"
        );
        assert_as_load(&doc, &level, what);
        doc.save_to(&level).expect("save");
    }
}

/// The car (nesting the part) made before p in the table, then moved by the user into p's
/// node 2: the car's reshape comes first in the follow and p's carries the rebuilt car.
#[test]
fn an_instance_made_first_then_moved_into_an_added_place_follows_with_it() {
    let car = scene_text(
        4,
        &[
            node(1, None, 0.0, 0.0),
            "(id: 2, name: \"wheel\", parent: Some(1), instance: \"part.ron\", position: (1.0, 0.0))"
                .into(),
        ],
    );
    let lines = [
        "(id: 1, name: \"level\")".to_string(),
        "(id: 80, name: \"car\", parent: Some(1), instance: \"car.ron\")".into(),
        "(id: 81, name: \"on the hub\", parent: Some(80), inside: [2, 2], index: 0)".into(),
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", rotation: 12.0)".into(),
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 1)".into(),
    ];
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("car.ron", car),
        ("level.ron", scene_text(5, &lines)),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let entries: Vec<NodeId> = (doc.scene().instances().unwrap().entries().iter())
        .map(|e| e.root)
        .collect();
    assert_eq!(entries, [NodeId(80), NodeId(2)], "the car first");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    let op = Op::Reparent {
        node: NodeId(80),
        parent: Some(n2),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move the car", vec![op])
        .expect("an instance root moves freely");
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "plus"), "the fast path");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "minus"), "the fast path");
    doc.save_to(&level).expect("save");
    std::fs::write(dir.path().join("part.ron"), part_a()).expect("part");
    assert!(follow_checked(&mut doc, &level, "back"), "the fast path");
    assert_as_load(&doc, &level, "back");
}

/// The part versions the property test goes through (each a structural change of another).
fn part_versions() -> Vec<String> {
    let reordered = scene_text(
        1,
        &[
            node(1, None, 0.0, 0.0),
            node(5, Some(1), -1.0, 5.0),
            node(2, Some(1), 1.0, 30.0),
            node(4, Some(2), 2.0, 20.0),
            node(10, Some(4), 3.0, 40.0),
            node(3, Some(2), 0.0, 10.0),
        ],
    );
    vec![part_a(), part_a_plus(), part_a_minus(), reordered]
}

/// Three instances of the part (roots 2, 3, 4), with added nodes: in p (2) one inside node 2
/// at index 0 with a child, one under the root at index 1, one waiting for node 10 with an
/// index; in q (3) one waiting without an index, one inside 5 and a bolt instance inside 2
/// (with a node of its own inside the bolt's 2); r (4) none; a bolt instance (80) at the
/// level with a node waiting for the bolt's node 9.
fn prop_level() -> String {
    let lines: Vec<String> = [
        "(id: 1, name: \"level\")",
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", rotation: 12.0)",
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 0, position: (0.1, 0.2))",
        "(id: 61, name: \"pin\", parent: Some(60), position: (0.0, 0.3))",
        "(id: 62, name: \"r\", parent: Some(2), index: 1)",
        "(id: 63, name: \"w\", parent: Some(2), inside: [10], index: 1)",
        "(id: 3, name: \"q\", parent: Some(1), instance: \"part.ron\", position: (4.0, 0.0))",
        "(id: 64, name: \"w2\", parent: Some(3), inside: [10])",
        "(id: 65, name: \"on 5\", parent: Some(3), inside: [5])",
        "(id: 66, name: \"bolt in q\", parent: Some(3), inside: [2], index: 0, instance: \"bolt.ron\")",
        "(id: 67, name: \"on its 2\", parent: Some(66), inside: [2], index: 0)",
        "(id: 4, name: \"r\", parent: Some(1), instance: \"part.ron\", position: (8.0, 0.0))",
        "(id: 80, name: \"bolt\", parent: Some(1), instance: \"bolt.ron\", position: (0.0, 3.0))",
        "(id: 81, name: \"w3\", parent: Some(80), inside: [9], index: 1)",
        "(id: 40, name: \"plain\", parent: Some(1))",
    ]
    .map(String::from)
    .to_vec();
    scene_text(5, &lines)
}

/// Move added node `node` (60..=67 or 81) under the node at `to` (any index but its own subtree's,
/// modulo) at sibling index `at` (modulo its children + 1).
fn move_anywhere(doc: &mut Document, node: u32, to: usize, at: usize) {
    let s = doc.scene();
    let x = s.index(NodeId(node)).expect("added node");
    let len = s.subtree_len_at(x);
    let targets: Vec<usize> = (0..s.len()).filter(|t| !(x..x + len).contains(t)).collect();
    let t = targets[to % targets.len()];
    let here = s.parent_index_at(x) == Some(t);
    let children = s.child_indices(Some(t)).count() - usize::from(here);
    // Under the root it waits in, a waiting node goes last: the file cannot say it is before
    // the source's nodes (a load, and the general path, put it after them even when its
    // instance's source did not change; the fast path leaves that instance alone).
    let waits_here = (s.instances())
        .and_then(|table| table.pending(NodeId(node)))
        .is_some_and(|(r, _)| r == s.id_at(t));
    let op = Op::Reparent {
        node: NodeId(node),
        parent: Some(s.id_at(t)),
        index: (!waits_here).then_some(at % (children + 1)),
        keep: Keep::Local,
    };
    doc.perform("move", vec![op])
        .expect("an added node moves freely");
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Added nodes (placed, indexed, waiting) moved anywhere by the user (within their
    /// instance, into another, into another added node, out to the level), then the part
    /// changed through random versions: every follow equals the general path, undo and redo
    /// exact, on two threads.
    #[test]
    fn moved_added_nodes_follow_as_the_general_path(
        moves in prop::collection::vec((prop::sample::select(vec![60u32, 61, 62, 63, 64, 65, 66, 67, 81]), 0..64usize, 0..8usize), 0..5),
        versions in prop::collection::vec((0..4usize, 0..2usize), 1..4),
        save_first in any::<bool>(),
    ) {
        graft::model::scene::set_parallel_threshold(0);
        graft::model::scene::set_propagation_threads(2);
        let (dir, level) = folder(&[
            ("part.ron", part_a()),
            ("bolt.ron", bolt()),
            ("level.ron", prop_level()),
        ]);
        let (part, bolt_file) = (dir.path().join("part.ron"), dir.path().join("bolt.ron"));
        let mut doc = Document::open(&level).expect("open");
        for &(node, to, at) in &moves {
            move_anywhere(&mut doc, node, to, at);
        }
        if save_first {
            doc.save_to(&level).expect("save");
        }
        let (all, bolts) = (part_versions(), [bolt(), bolt_deeper()]);
        let mut now = (0, 0);
        for v in versions {
            if v == now {
                continue;
            }
            std::fs::write(&part, &all[v.0]).expect("part");
            std::fs::write(&bolt_file, &bolts[v.1]).expect("bolt");
            follow_checked_with(&mut doc, &level, &format!("version {v:?}"), false);
            if save_first {
                doc.save_to(&level).expect("save");
            }
            now = v;
        }
    }
}

/// Node 63, waiting in p for node 10, moved by the user under q's node 2, which the part then
/// loses: the follow drops p's stale entry for 63 and q makes it wait for node 2; undo must
/// give back p's entry (the two rows name the same node: every row's entries are taken out
/// before any is put in, or q's row takes out what p's just put back).
#[test]
fn a_waiting_node_moved_into_another_instance_undoes_exactly() {
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", prop_level()),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let q2 = inner(doc.scene(), NodeId(3), &[2]);
    let op = Op::Reparent {
        node: NodeId(63),
        parent: Some(q2),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move 63", vec![op]).expect("moves freely");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "minus"), "the fast path");
    let table = doc.scene().instances().expect("table");
    assert_eq!(table.pending(NodeId(63)), Some((NodeId(3), &[2][..])));
}

/// Node 81, waiting in a bolt instance for the bolt's node 9, moved by the user under p's
/// node 2; then both files change in one follow (the part loses node 2, so 81 waits in p;
/// the bolt gains a level): the part's reshape makes 81 wait in p, and the bolt's, after it,
/// must neither refuse (its stale entry for 81 is gone) nor take p's entry out; undo gives
/// back the bolt's entry.
#[test]
fn a_waiting_node_moved_across_two_changing_sources_follows_and_undoes() {
    let lines: Vec<String> = [
        "(id: 1, name: \"level\")",
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", rotation: 12.0)",
        "(id: 80, name: \"bolt\", parent: Some(1), instance: \"bolt.ron\")",
        "(id: 81, name: \"w\", parent: Some(80), inside: [9], index: 1)",
        "(id: 82, name: \"on bolt 2\", parent: Some(80), inside: [2])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", scene_text(5, &lines)),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    let op = Op::Reparent {
        node: NodeId(81),
        parent: Some(n2),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move 81", vec![op]).expect("moves freely");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    std::fs::write(dir.path().join("bolt.ron"), bolt_deeper()).expect("bolt");
    assert!(follow_checked(&mut doc, &level, "both"), "the fast path");
    let table = doc.scene().instances().expect("table");
    assert_eq!(table.pending(NodeId(81)), Some((NodeId(2), &[2][..])));
}

/// Node 81, waiting in the level's bolt instance for the bolt's node 9, moved under p's node
/// 2, which the part then loses: the follow makes 81 wait in p (the table holds one entry per
/// node, so the bolt's is replaced); undo must give the bolt's entry back (moved back under
/// the bolt, 81 is written `inside: [9]` again). Fails on main at "minus: undone: pending
/// 81" (left None), on either path: neither the general path's rows of p nor the reshape's
/// carry record an entry naming another instance.
#[test]
#[ignore = "open: a waiting entry naming another instance is lost by the follow's undo (both paths)"]
fn a_waiting_entry_taken_over_by_another_instance_comes_back_on_undo() {
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", prop_level()),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    let op = Op::Reparent {
        node: NodeId(81),
        parent: Some(n2),
        index: Some(0),
        keep: Keep::Local,
    };
    doc.perform("move 81", vec![op]).expect("moves freely");
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    follow_checked(&mut doc, &level, "minus");
}
