//! Instances share their source's data (issue 48, "sharing, not copying"): an instanced node
//! shows its source's node, held once; an edit copies it first (copy on write), so the other
//! instances and the source keep theirs; an undo that gives it back its source's values
//! shares it again; a source changed on disk is followed by swapping the shared part, with
//! the same result as loading the scene again (world matrices bit for bit), and undo and
//! redo exact.

mod common;

use common::{assert_same_nodes, plain_copy};
use graft::model::document::Document;
use graft::model::file;
use graft::model::generate::{GenShape, generate};
use graft::model::math::Trs;
use graft::model::scene::edit::Op;
use graft::model::scene::{
    DEFAULT_PARALLEL_MIN, NodeId, Scene, set_parallel_threshold, set_propagation_threads,
};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const INSTANCES: usize = 5;
const PART_NODES: usize = 9;

/// A folder with `part.ron` (a random part of one root) and `level.ron` (five instances of
/// it under one root, the third overriding node 3's colour).
fn level_folder(seed: u64) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let part = generate(GenShape::Wide, PART_NODES, seed);
    file::save(&part, &dir.path().join("part.ron")).expect("part");
    let mut text =
        String::from("(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"level\"),\n");
    for k in 0..INSTANCES {
        let over = if k == 2 {
            ", overrides: [(node: [3], color: (200, 40, 40, 255))]"
        } else {
            ""
        };
        text.push_str(&format!(
            "        (id: {}, name: \"p{k}\", parent: Some(1), instance: \"part.ron\", position: ({}.0, 1.0), rotation: {}.0{over}),\n",
            k + 2,
            k * 7,
            k * 11
        ));
    }
    text.push_str("    ],\n)\n");
    let level = dir.path().join("level.ron");
    std::fs::write(&level, text).expect("level");
    (dir, level)
}

/// The pre-order index of node `j` (source index) of instance `k`.
fn node_of(scene: &Scene, k: usize, j: usize) -> usize {
    let root = scene.index(NodeId(k as u32 + 2)).expect("instance root");
    root + j
}

/// Same ids, data and world matrices (bit for bit) at every index.
fn assert_same(a: &mut Scene, b: &mut Scene) {
    assert_same_nodes(a, b, "shared and plain");
}

fn turned(scene: &Scene, i: usize, by: f32) -> Trs {
    let l = scene.data_at(i).local;
    Trs::new(l.position, l.rotation + by, l.scale, l.skew)
}

#[test]
fn an_edit_copies_one_instances_node_and_leaves_the_others_and_the_source_shared() {
    let (_dir, level) = level_folder(3);
    let mut doc = Document::open(&level).expect("open");
    let source = doc
        .scene()
        .instance_entry(NodeId(2))
        .expect("entry")
        .source
        .clone();
    let source = source.expect("source read");
    let (a, b) = (node_of(doc.scene(), 0, 4), node_of(doc.scene(), 1, 4));
    assert!(doc.scene().is_shared_at(a) && doc.scene().is_shared_at(b));
    let overridden = source.index_of(&[3]).expect("node 3 in the part");
    let overridden = node_of(doc.scene(), 2, overridden);
    assert!(!doc.scene().is_shared_at(overridden), "an override is own");
    let before_b = doc.scene().data_at(b).clone();
    let node = doc.scene().id_at(a);
    let local = turned(doc.scene(), a, 30.0);
    doc.perform("turn", vec![Op::SetLocal { node, local }])
        .expect("turn");
    let scene = doc.scene();
    assert_eq!(scene.data_at(a).local, local);
    assert!(!scene.is_shared_at(a), "the edited node has its own data");
    assert!(scene.is_shared_at(b), "the other instance still shares");
    assert_eq!(scene.data_at(b), &before_b);
    assert_eq!(
        source.scene.data_at(4),
        &before_b,
        "the source is unchanged"
    );
    let entry = scene.instance_entry(NodeId(2)).expect("entry");
    let shared = entry.source.as_ref().expect("source");
    assert_eq!(
        shared.scene.data_at(4),
        &before_b,
        "the entry's source is unchanged"
    );
    doc.undo().expect("undo");
    assert!(
        doc.scene().is_shared_at(a),
        "back to its source's values: shared again"
    );
    assert_eq!(doc.scene().data_at(a), &before_b);
}

#[test]
fn the_shared_scene_has_the_expanded_scenes_world_matrices() {
    let (_dir, level) = level_folder(5);
    let mut shared = file::load(&level).expect("load");
    let mut plain = plain_copy(&shared);
    assert!((0..shared.len()).any(|i| shared.is_shared_at(i)));
    assert!(!(0..plain.len()).any(|i| plain.is_shared_at(i)));
    assert_same(&mut shared, &mut plain);
    // The update on several threads reads the shared locals too: the same bits.
    set_propagation_threads(3);
    set_parallel_threshold(1);
    shared.mark_all_dirty();
    let on_threads = shared.update_world();
    set_parallel_threshold(DEFAULT_PARALLEL_MIN);
    set_propagation_threads(0);
    assert_eq!(on_threads, shared.len());
    assert_same(&mut shared, &mut plain);
}

/// Rewrite the part: node `j` turned by `by` degrees, recoloured, renamed.
fn rewrite_part(part: &Path, changes: &[(usize, f32, u8)]) {
    let mut scene = file::load(part).expect("part");
    for &(j, by, c) in changes {
        let id = scene.id_at(j);
        scene.set_local(id, turned(&scene, j, by)).expect("turn");
        let shape = scene.data_at(j).shape.clone();
        scene
            .set_appearance(id, shape, [c, 255 - c, 7, 255])
            .expect("colour");
        scene.rename(id, format!("n{c}")).expect("rename");
    }
    file::save(&scene, part).expect("save part");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Edits on some instances' nodes, saved; the part changed on disk; the follow gives what
    /// loading the level again gives; undo gives back the scene before it, redo the same again.
    #[test]
    fn following_a_changed_source_equals_loading_again_and_undoes_exactly(
        seed in 0u64..1000,
        edits in prop::collection::vec((0..INSTANCES, 1..PART_NODES, -90.0f32..90.0), 0..6),
        changes in prop::collection::vec((0..PART_NODES, -45.0f32..45.0, any::<u8>()), 1..5),
    ) {
        let (dir, level) = level_folder(seed);
        let mut doc = Document::open(&level).expect("open");
        for &(k, j, by) in &edits {
            let i = node_of(doc.scene(), k, j);
            let others: Vec<_> = (0..INSTANCES)
                .filter(|&o| o != k)
                .map(|o| node_of(doc.scene(), o, j))
                .map(|i| (i, doc.scene().data_at(i).clone()))
                .collect();
            let (node, local) = (doc.scene().id_at(i), turned(doc.scene(), i, by));
            doc.perform("turn", vec![Op::SetLocal { node, local }]).expect("turn");
            for (o, data) in others {
                prop_assert_eq!(doc.scene().data_at(o), &data, "another instance changed");
            }
        }
        doc.save_to(&level).expect("save level");
        let mut before = doc.scene().clone();
        let untouched = (0..INSTANCES).find(|k| *k != 2 && edits.iter().all(|e| e.0 != *k));
        rewrite_part(&dir.path().join("part.ron"), &changes);
        prop_assert!(doc.reload_instances("Follow part.ron").expect("follow"));
        if let Some(k) = untouched {
            let i = node_of(doc.scene(), k, 1);
            prop_assert!(doc.scene().is_shared_at(i), "the part was swapped, not copied");
        }
        let mut fresh = file::load(&level).expect("load again");
        let mut after = doc.scene().clone();
        assert_same(&mut after, &mut fresh);
        doc.undo().expect("undo");
        let mut undone = doc.scene().clone();
        assert_same(&mut undone, &mut before);
        doc.redo().expect("redo");
        let mut redone = doc.scene().clone();
        assert_same(&mut redone, &mut fresh);
    }
}

/// A source the journal gives back keeps its own nested sources in view: the disk watch and
/// the paste check see the wheel a recovered car instances (the journal's record of a source
/// keeps its nodes, not its instances).
#[test]
fn a_recovered_sources_nested_sources_are_still_watched() {
    use graft::model::instance::snapshot::Snapshot;
    let dir = tempfile::tempdir().expect("temp dir");
    let wheel = include_str!("fixtures/wheel-part.ron");
    std::fs::write(dir.path().join("wheel.ron"), wheel).expect("wheel");
    let car = "(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"car\"),\n        (id: 2, name: \"front\", parent: Some(1), instance: \"wheel.ron\"),\n    ],\n)\n";
    std::fs::write(dir.path().join("car.ron"), car).expect("car");
    let level_text = "(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"level\"),\n        (id: 2, name: \"car\", parent: Some(1), instance: \"car.ron\"),\n    ],\n)\n";
    let level = dir.path().join("level.ron");
    std::fs::write(&level, level_text).expect("level");
    let scene = file::load(&level).expect("load");
    let files = |s: &Scene| s.instances().expect("instances").source_files();
    let names = |list: Vec<PathBuf>| -> Vec<String> {
        let mut n: Vec<String> = (list.iter())
            .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(files(&scene)), ["car.ron", "wheel.ron"]);
    let snapshot = Snapshot::of(&scene).expect("a snapshot");
    let bytes = postcard::to_allocvec(&snapshot).expect("encode");
    let back: Snapshot = postcard::from_bytes(&bytes).expect("decode");
    let text = file::to_ron_string(&scene);
    let recovered = back
        .parse(&text, &level, scene.next_id())
        .expect("recovered");
    assert_eq!(names(files(&recovered)), ["car.ron", "wheel.ron"]);
}

/// An instance made local no longer follows its source: its nodes stop sharing it.
#[test]
fn an_instance_made_local_does_not_follow_its_source() {
    use graft::model::instance::plan;
    let (dir, level) = level_folder(9);
    let mut doc = Document::open(&level).expect("open");
    let (ops, _) = plan::make_local_ops(doc.scene(), NodeId(2)).expect("make local");
    doc.perform("Make local", ops).expect("made local");
    let (local, other) = (node_of(doc.scene(), 0, 1), node_of(doc.scene(), 1, 1));
    let kept = doc.scene().data_at(local).clone();
    rewrite_part(&dir.path().join("part.ron"), &[(1, 20.0, 9)]);
    assert!(doc.reload_instances("Follow part.ron").expect("follow"));
    assert_eq!(
        doc.scene().data_at(local),
        &kept,
        "the local copy stays as it was"
    );
    assert_ne!(doc.scene().data_at(other), &kept, "the instance follows");
    doc.undo().expect("undo the follow");
    doc.undo().expect("undo make local");
    assert!(
        doc.scene().is_shared_at(local),
        "an instance again: shared again"
    );
}
