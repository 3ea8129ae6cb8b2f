//! `graft bench instances`: the scenes it writes (the part, the level of its instances, the
//! plain scene; with `--added`, one node added under a source node of every instance) and
//! the follow stages, which change the part on disk and time the level following it, then
//! check that every instance did (its added node kept where it was).

use super::bench_stage::{InstanceStage, mark};
use crate::model::document::Document;
use crate::model::file;
use crate::model::generate::{GenShape, generate};
use crate::model::instance::Chain;
use crate::model::math::Trs;
use crate::model::scene::{NodeId, Scene};
use crate::tools::failure::Failure;
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// How the follow stages change the part.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Change {
    /// Each node turned 10° more, its colour changed (the nodes stay in their places).
    Values,
    /// A node added as the last child of the root's first child.
    Add,
    /// The last node (a leaf) removed.
    Remove,
    /// The first grandchild moved under the root's last child.
    Move,
}

/// The structural stages, by name.
pub(super) const STRUCTURAL: [&str; 3] = ["follow-add", "follow-remove", "follow-move"];

/// Change `part` as `change` says.
fn change_part(part: &mut Scene, change: Change) -> Result<(), Failure> {
    let children: Vec<usize> = part.child_indices(Some(0)).collect();
    let (Some(&first), Some(&last)) = (children.first(), children.last()) else {
        return Err(Failure("the part has no children".into()));
    };
    match change {
        Change::Values => {
            for i in 0..part.len() {
                let id = part.id_at(i);
                let d = part.data_at(i).clone();
                let l = d.local;
                part.set_local(id, Trs::new(l.position, l.rotation + 10.0, l.scale, l.skew))?;
                part.set_appearance(id, d.shape, [d.color[2], d.color[0], d.color[1], 255])?;
            }
        }
        Change::Add => {
            let data = crate::model::scene::NodeData::named("added", Trs::IDENTITY);
            part.add_node(Some(part.id_at(first)), None, data)?;
        }
        Change::Remove => {
            part.remove_subtree(part.id_at(part.len() - 1))?;
        }
        Change::Move => {
            let grandchild = part.child_indices(Some(first)).next();
            let node = grandchild.ok_or_else(|| Failure("no grandchild".into()))?;
            let (node, parent) = (part.id_at(node), part.id_at(last));
            part.reparent(node, Some(parent), None, crate::model::scene::Keep::Local)?;
        }
    }
    Ok(())
}

/// The part beside the level changed as `change` says, the document following it, then its
/// world update.
pub(super) fn follow_stage(
    level: &Path,
    run: &mut InstanceStage,
    change: Change,
) -> Result<(), Failure> {
    let mut doc = Document::open(level)?;
    doc.update_world();
    let added = added_inside(doc.scene());
    let part_path = level.with_file_name("part.ron");
    let mut part = file::load(&part_path)?;
    change_part(&mut part, change)?;
    file::save(&part, &part_path)?;
    let start = Instant::now();
    run.marks.push(mark("level open, part rewritten", start));
    let followed = doc.reload_instances("Follow part.ron")?;
    run.ms = start.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    doc.update_world();
    run.world_ms = t.elapsed().as_secs_f64() * 1e3;
    run.marks.push(mark("followed, world updated", start));
    run.nodes = doc.scene().len();
    if !followed {
        return Err(Failure("the follow changed nothing".into()));
    }
    if change == Change::Values {
        check_followed(doc.scene(), &part)?;
    } else {
        check_shaped(doc.scene(), &part)?;
    }
    check_added(doc.scene(), &added)
}

/// A node added under a source node: the node, its instance and the chain of the source node
/// it is inside.
type Added = (NodeId, NodeId, Chain);

/// The nodes added under source nodes of the scene's instances (the scene's own nodes whose
/// parent came from a source).
fn added_inside(scene: &Scene) -> Vec<Added> {
    let Some(table) = scene.instances() else {
        return Vec::new();
    };
    (1..scene.len())
        .filter(|&i| table.origin(scene.id_at(i)).is_none())
        .filter_map(|i| {
            let parent = table.origin(scene.id_at(scene.parent_index_at(i)?))?;
            let chain = table.chain_of(parent)?;
            Some((scene.id_at(i), parent.root, chain.into()))
        })
        .collect()
}

/// Every instance holds the changed part's nodes and the nodes added under it.
fn check_shaped(scene: &Scene, part: &Scene) -> Result<(), Failure> {
    let table = scene
        .instances()
        .ok_or_else(|| Failure("no instances".into()))?;
    let mut own: FxHashMap<NodeId, usize> = FxHashMap::default();
    for i in 1..scene.len() {
        let id = scene.id_at(i);
        if table.origin(id).is_none()
            && let Some(p) = scene.parent_index_at(i)
            && let Some(o) = table.origin(scene.id_at(p))
        {
            *own.entry(o.root).or_default() += scene.subtree_len_at(i);
        }
    }
    for entry in table.entries() {
        let len = scene.subtree_len_at(scene.index(entry.root)?);
        let added = own.get(&entry.root).copied().unwrap_or(0);
        if len != part.len() + added {
            return Err(Failure(format!(
                "instance {} did not follow: {len} nodes, the part {} and {added} added",
                entry.root,
                part.len()
            )));
        }
    }
    Ok(())
}

/// Each node in `added` is still under its instance's node of the same chain, first among
/// its children (the level gives it `index: 0`).
fn check_added(scene: &Scene, added: &[Added]) -> Result<(), Failure> {
    let table = scene
        .instances()
        .ok_or_else(|| Failure("no instances".into()))?;
    for (id, root, chain) in added {
        let parent = scene.parent(*id)?;
        let origin = parent.and_then(|p| table.origin(p));
        let here = origin
            .filter(|o| o.root == *root)
            .and_then(|o| table.chain_of(o));
        if here != Some(&chain[..]) || scene.sibling_index(*id)? != 0 {
            return Err(Failure(format!(
                "node {id} added inside node {chain:?} of instance {root} is now under {parent:?} at {}",
                scene.sibling_index(*id)?
            )));
        }
    }
    Ok(())
}

/// Every instance's node of the part's index 1 shows the rewritten part's (overrides aside).
fn check_followed(scene: &Scene, part: &Scene) -> Result<(), Failure> {
    let want = part.data_at(1).local.rotation;
    let table = scene
        .instances()
        .ok_or_else(|| Failure("no instances".into()))?;
    for entry in table.entries() {
        let i = scene.index(entry.root)?;
        let k = (i + 1..i + scene.subtree_len_at(i)).find(|&k| {
            table
                .origin(scene.id_at(k))
                .is_some_and(|o| o.root == entry.root && o.index == 1)
        });
        let got = k.map(|k| scene.data_at(k).local.rotation);
        if got != Some(want) {
            return Err(Failure(format!(
                "instance {} did not follow: rotation {got:?}, the part's {want}",
                entry.root
            )));
        }
    }
    Ok(())
}

/// Write the part (`part_nodes` nodes, one root), the level (`instances` instances of it
/// under one root; every 100th overrides one node's colour; with `added`, each has a node
/// added inside the root's first child at `index: 0`, before that node's own children) and
/// the plain scene of as many nodes as the level has, in `dir`.
pub(super) fn write_scenes(
    dir: &Path,
    instances: usize,
    part_nodes: usize,
    added: bool,
) -> Result<(), Failure> {
    let part = generate(GenShape::Wide, part_nodes, 7);
    file::save(&part, &dir.join("part.ron"))?;
    file::save(&part, &dir.join("part-as-written.ron"))?;
    let inside = (part.child_indices(Some(0)).next()).map(|c| part.id_at(c));
    let inside = inside.ok_or_else(|| Failure("the part has no children".into()))?;
    let format = if added { 5 } else { 4 };
    let mut text =
        format!("(\n    format: {format},\n    nodes: [\n        (id: 1, name: \"level\"),\n");
    let side = (instances as f64).sqrt().ceil() as usize;
    for k in 0..instances {
        let (x, y) = ((k % side) as f64 * 30.0, (k / side) as f64 * 30.0);
        let id = k + 2;
        let over = if k % 100 == 0 {
            ", overrides: [(node: [3], color: (200, 40, 40, 255))]"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "        (id: {id}, name: \"part{k}\", parent: Some(1), instance: \"part.ron\", position: ({x:.1}, {y:.1}){over}),"
        );
        if added {
            let _ = writeln!(
                text,
                "        (id: {}, name: \"added{k}\", parent: Some({id}), inside: [{inside}], index: 0, position: (0.5, 0.5)),",
                instances + 2 + k
            );
        }
    }
    text.push_str("    ],\n)\n");
    std::fs::write(dir.join("level.ron"), text)?;
    let plain = generate(
        GenShape::Wide,
        instances * (part_nodes + usize::from(added)) + 1,
        1,
    );
    file::save(&plain, &dir.join("plain.ron"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each follow stage on a small level with added nodes, each from the part as written:
    /// the instances follow and keep their added nodes (the stage checks it), and the check
    /// fails when an added node is not where it was.
    #[test]
    fn the_follow_stages_follow_a_level_with_added_nodes_and_check_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_scenes(dir.path(), 4, 12, true)
            .map_err(|f| f.0)
            .expect("scenes");
        let level = dir.path().join("level.ron");
        let doc = Document::open(&level).expect("open");
        let added = added_inside(doc.scene());
        assert_eq!(added.len(), 4, "one added node per instance");
        for stage in ["follow", "follow-add", "follow-remove", "follow-move"] {
            std::fs::copy(
                dir.path().join("part-as-written.ron"),
                dir.path().join("part.ron"),
            )
            .expect("part");
            let change = match stage {
                "follow" => Change::Values,
                "follow-add" => Change::Add,
                "follow-remove" => Change::Remove,
                _ => Change::Move,
            };
            let run = follow_stage(&level, &mut InstanceStage::default(), change);
            assert!(run.is_ok(), "{stage}: {:?}", run.err().map(|f| f.0));
        }
        let moved = [(added[0].0, added[0].1, vec![999].into_boxed_slice())];
        assert!(check_added(doc.scene(), &moved).is_err(), "a wrong chain");
        let mut part = file::load(&dir.path().join("part-as-written.ron")).expect("part");
        assert!(
            check_shaped(doc.scene(), &part).is_ok(),
            "the part as written"
        );
        change_part(&mut part, Change::Add)
            .map_err(|f| f.0)
            .expect("a node more");
        assert!(
            check_shaped(doc.scene(), &part).is_err(),
            "not the part now"
        );
    }
}
