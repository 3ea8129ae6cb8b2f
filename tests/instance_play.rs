//! Playing a clip in a scene of instances of an animated part (issue 48, "sharing, not
//! copying"): an instanced node that shows its source's data is posed in the shared part,
//! once for every instance, so it stays shared (before, each pose copied every animated
//! instanced node: at 10,000 instances of a 100-node part, +152 B per node resident), with
//! the same data and world matrices, bit for bit, as the same nodes held as plain copies and
//! posed one by one; and a pose is not an override: a save while posed writes the file it
//! wrote before playing.

mod common;

use common::{assert_same_nodes, plain_copy};
use graft::model::anim::{Channel, Key, Track};
use graft::model::document::Document;
use graft::model::file;
use graft::model::generate::{GenShape, generate};
use graft::model::scene::NodeId;
use graft::model::scene::edit::Op;
use std::path::{Path, PathBuf};

const INSTANCES: usize = 4;
const PART_NODES: usize = 9;

/// A part whose nodes below the root turn and slide (two tracks each), in `dir`.
fn write_animated_part(dir: &Path) {
    let mut part = generate(GenShape::Wide, PART_NODES, 11);
    for i in 1..part.len() {
        let turn = vec![Key::new(0.0, 0.0), Key::new(1.0, 90.0 + i as f32)];
        let slide = vec![Key::new(0.0, 0.5), Key::new(0.5, -1.0), Key::new(1.0, 2.0)];
        let tracks = vec![
            Track::new(Channel::Rotation, turn).expect("track"),
            Track::new(Channel::PositionX, slide).expect("track"),
        ];
        part.set_tracks(part.id_at(i), tracks).expect("tracks");
    }
    file::save(&part, &dir.join("part.ron")).expect("part");
}

/// A level of instances of the part; with `override_one`, the second overrides node 3's
/// colour (so that node has its own data and is posed on its own).
fn write_level(dir: &Path, override_one: bool) -> PathBuf {
    let mut text =
        String::from("(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"level\"),\n");
    for k in 0..INSTANCES {
        let over = if override_one && k == 1 {
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
    let level = dir.join("level.ron");
    std::fs::write(&level, text).expect("level");
    level
}

#[test]
fn a_played_instance_stays_shared_and_poses_as_its_plain_copy_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_animated_part(dir.path());
    let level = write_level(dir.path(), true);
    let mut shared = file::load(&level).expect("load");
    let mut plain = plain_copy(&shared);
    let was_shared: Vec<usize> = (0..shared.len())
        .filter(|&i| shared.is_shared_at(i))
        .collect();
    assert_eq!(
        was_shared.len(),
        INSTANCES * (PART_NODES - 1) - 1,
        "every inner node shares but the overridden one"
    );
    let second = shared.index(NodeId(3)).expect("second instance");
    let own = (second + 1..second + PART_NODES)
        .find(|&i| !shared.is_shared_at(i))
        .expect("the overridden node is own");
    for t in [0.0, 0.3, 0.5, 0.75, 0.75, 1.0, 0.1] {
        let moved = shared.set_pose_at(t);
        assert_eq!(moved, plain.set_pose_at(t), "as many locals moved at {t}");
        assert_same_nodes(&mut shared, &mut plain, &format!("posed at {t}"));
        let still: Vec<usize> = was_shared
            .iter()
            .copied()
            .filter(|&i| shared.is_shared_at(i))
            .collect();
        assert_eq!(
            still, was_shared,
            "posed at {t}, every shared node still shares"
        );
    }
    assert!(
        shared.data_at(own).local.rotation != 0.0,
        "the overridden node is posed from its own data"
    );
}

#[test]
fn a_save_while_posed_writes_the_file_it_wrote_before_playing() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_animated_part(dir.path());
    let level = write_level(dir.path(), false);
    let mut doc = Document::open(&level).expect("open");
    let before = file::to_ron_string(doc.scene());
    assert!(doc.set_pose_at(0.4) > 0, "the pose moved nodes");
    doc.update_world();
    let posed = file::to_ron_string(doc.scene());
    assert_eq!(
        posed, before,
        "a pose of nodes that show their source is no override"
    );
    // Saved while posed and opened again, then posed at the same time: the same scene.
    let again_path = dir.path().join("again.ron");
    std::fs::write(&again_path, &posed).expect("write");
    let mut again = file::load(&again_path).expect("load again");
    again.set_pose_at(0.4);
    let mut now = plain_copy(doc.scene());
    assert_same_nodes(&mut again, &mut now, "saved while posed, posed again");
}

#[test]
fn an_edit_of_a_posed_node_copies_the_pose_and_the_other_instances_keep_sharing() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_animated_part(dir.path());
    let level = write_level(dir.path(), false);
    let mut doc = Document::open(&level).expect("open");
    doc.set_pose_at(0.25);
    let a = doc.scene().index(NodeId(2)).expect("first instance") + 2;
    let b = doc.scene().index(NodeId(3)).expect("second instance") + 2;
    let posed = doc.scene().data_at(a).local;
    let node = doc.scene().id_at(a);
    doc.perform(
        "Rename",
        vec![Op::Rename {
            node,
            name: "renamed".into(),
        }],
    )
    .expect("rename");
    let scene = doc.scene();
    assert!(!scene.is_shared_at(a), "the renamed node has its own data");
    assert_eq!(scene.data_at(a).local, posed, "with the pose it showed");
    assert!(scene.is_shared_at(b), "the other instance still shares");
    assert_eq!(scene.data_at(b).local, posed, "and shows the same pose");
    let text = file::to_ron_string(scene);
    assert!(
        text.contains("name: \"renamed\""),
        "the own node writes its override: {text}"
    );
}

/// The part on disk changed: a node added under its first child (`structural`), or every
/// inner node recoloured.
fn change_part(dir: &Path, structural: bool) {
    let path = dir.join("part.ron");
    let mut part = file::load(&path).expect("part");
    if structural {
        let first = part.id_at(1);
        let data = graft::model::scene::NodeData::named("added", Default::default());
        part.add_node(Some(first), None, data).expect("add");
    } else {
        for i in 1..part.len() {
            let d = part.data_at(i).clone();
            part.set_appearance(part.id_at(i), d.shape, [9, 99, 199, 255])
                .expect("colour");
        }
    }
    file::save(&part, &path).expect("save part");
}

/// Followed while posed: every node that shared still shares (the pose was not taken for an
/// override, and a structural change took the one pass, which keeps them shared), and posed
/// again it equals the level loaded afresh and posed at the same time (ids aside).
fn follow_while_posed(structural: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    write_animated_part(dir.path());
    let level = write_level(dir.path(), true);
    let mut doc = Document::open(&level).expect("open");
    doc.set_pose_at(0.4);
    change_part(dir.path(), structural);
    assert!(doc.reload_instances("Follow part.ron").expect("follow"));
    let scene = doc.scene();
    let own: Vec<usize> = (0..scene.len())
        .filter(|&i| scene.origin(scene.id_at(i)).is_some() && !scene.is_shared_at(i))
        .collect();
    assert_eq!(own.len(), 1, "only the overridden node is own: {own:?}");
    doc.set_pose_at(0.4);
    doc.update_world();
    let mut loaded = file::load(&level).expect("load again");
    loaded.set_pose_at(0.4);
    loaded.update_world();
    let now = doc.scene();
    assert_eq!(loaded.len(), now.len());
    for i in 0..now.len() {
        assert_eq!(loaded.data_at(i), now.data_at(i), "data at {i}");
        let bits = |m: glam::Affine2| m.to_cols_array().map(f32::to_bits);
        assert_eq!(
            bits(loaded.world_at(i)),
            bits(now.world_at(i)),
            "world at {i}"
        );
    }
}

#[test]
fn a_structural_follow_while_posed_keeps_every_instance_shared() {
    follow_while_posed(true);
}

#[test]
fn a_follow_of_values_while_posed_keeps_every_instance_shared() {
    follow_while_posed(false);
}
