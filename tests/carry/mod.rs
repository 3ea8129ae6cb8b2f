//! Helpers of the follow-with-added-nodes edge tests (`instance_carry_edges.rs`,
//! `instance_carry_moves.rs`): small parts and levels as text, the follow checked against
//! the general path (`plan::replace_ops`) with undo and redo, and against a load.
#![allow(dead_code)]

use graft::model::document::Document;
use graft::model::file;
use graft::model::instance::{TableEdit, plan};
use graft::model::scene::edit::{Change as Step, Edit, Op};
use graft::model::scene::{Keep, NodeId, Scene};
use std::path::{Path, PathBuf};

/// A scene file's text from node lines (`format`: the file's format).
pub fn scene_text(format: u32, lines: &[String]) -> String {
    let mut text = format!("(\n    format: {format},\n    nodes: [\n");
    for l in lines {
        text.push_str(&format!("        {l},\n"));
    }
    text.push_str("    ],\n)\n");
    text
}

/// A part's node line: id, name, parent (None: the root), x position, rotation.
pub fn node(id: u32, parent: Option<u32>, x: f32, rot: f32) -> String {
    let parent = parent.map_or(String::new(), |p| format!(", parent: Some({p})"));
    format!("(id: {id}, name: \"n{id}\"{parent}, position: ({x:?}, 1.0), rotation: {rot:?})")
}

/// Move `node` under `parent` at `index` (None: last), keeping its local transform: one
/// undo step, as a drag in the hierarchy makes.
pub fn move_node(doc: &mut Document, node: NodeId, parent: Option<NodeId>, index: Option<usize>) {
    let op = Op::Reparent {
        node,
        parent,
        index,
        keep: Keep::Local,
    };
    doc.perform("move", vec![op]).expect("moves freely");
}

/// A temp folder holding `files` (name, text); the path of `level.ron` in it.
pub fn folder(files: &[(&str, String)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let level = dir.path().join("level.ron");
    (dir, level)
}

/// Same ids, parents, data and world matrices (bit for bit), the same instance rows and the
/// same file written.
pub fn assert_same(a: &Scene, b: &Scene, what: &str) {
    assert_same_with(a, b, what, true);
}

/// [`assert_same`]; `stale`: also the table's waiting entries of nodes no longer under the
/// instance root they wait in (the general path drops those of every instance it replaces,
/// the fast path those of the instances it reshapes only).
pub fn assert_same_with(a: &Scene, b: &Scene, what: &str, stale: bool) {
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
pub fn general(scene: &Scene, level: &Path) -> Scene {
    let mut out = scene.clone();
    for op in plan::replace_ops(scene, level).expect("the general path") {
        op.perform(&mut out).expect("performed");
    }
    out
}

/// Swaps (the general path's rows out and in) in the history's last step.
pub fn last_swaps(doc: &Document) -> usize {
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
pub fn follow_checked(doc: &mut Document, level: &Path, what: &str) -> bool {
    follow_checked_with(doc, level, what, true)
}

/// [`follow_checked`]; `stale`: the waiting entries of nodes moved away from where they wait
/// compared too (see [`assert_same_with`]; with the general path's, and before and after
/// undo: one naming an instance the follow does not rebuild is lost when another instance
/// the node was moved into makes it wait there, see
/// `a_waiting_entry_taken_over_by_another_instance_comes_back_on_undo`).
pub fn follow_checked_with(doc: &mut Document, level: &Path, what: &str, stale: bool) -> bool {
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
pub fn assert_as_load(doc: &Document, saved: &Path, what: &str) {
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
pub fn assert_file_as_load(doc: &Document, saved: &Path, what: &str) {
    let loaded = file::load(saved).expect("load again");
    assert_eq!(
        file::to_ron_string(doc.scene()),
        file::to_ron_string(&loaded),
        "{what}: the file a save writes"
    );
}

/// The expanded node of instance `root` whose source chain is `chain`.
pub fn inner(s: &Scene, root: NodeId, chain: &[u32]) -> NodeId {
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
pub fn part_a() -> String {
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
pub fn part_a_plus() -> String {
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
pub fn level_with(added: &[String]) -> String {
    let mut lines = vec![
        "(id: 1, name: \"level\")".to_string(),
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", position: (5.0, 0.0), rotation: 12.0)".to_string(),
    ];
    lines.extend(added.iter().cloned());
    lines.push("(id: 40, name: \"plain\", parent: Some(1))".into());
    scene_text(5, &lines)
}

/// [`part_a`] without node 2 and its children.
pub fn part_a_minus() -> String {
    scene_text(1, &[node(1, None, 0.0, 0.0), node(5, Some(1), -1.0, 5.0)])
}

/// A bolt: root 1 with children 2 and 3.
pub fn bolt() -> String {
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
pub fn bolt_deeper() -> String {
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

/// The part versions the property test goes through (each a structural change of another).
pub fn part_versions() -> Vec<String> {
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
pub fn prop_level() -> String {
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
pub fn move_anywhere(doc: &mut Document, node: u32, to: usize, at: usize) {
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
