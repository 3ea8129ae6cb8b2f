//! Instanced nodes sharing their source's data: a source's nodes as a shared part, a node
//! sharing again when it equals its source, and a follow's table edits applied (`Follow`: the
//! part swapped; `Reshape`: every instance rebuilt in one pass, planned in `reshape.rs`). No file is read
//! here (reading sources is `follow.rs` and `expand.rs`), so the scene and its instance table
//! reach this without reaching the loader.

use super::ids::Origin;
use super::table_edit::{Carry, Reshaping, Row};
use crate::error::{Error, Result};
use crate::model::scene::block::{Block, Fill};
use crate::model::scene::types::Source;
use crate::model::scene::{NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::Path;
use std::sync::Arc;

/// A source's nodes as a shared part (its root first).
pub(crate) fn part_nodes(source: &Source) -> Arc<[NodeData]> {
    (0..source.scene.len())
        .map(|j| source.scene.data_at(j).clone())
        .collect()
}

/// The node at `i` shares its source's data again if it equals it (after an edit or an undo
/// gave it back its source's values, or when an instance's rows are put in).
pub(crate) fn settle(scene: &mut Scene, i: usize) {
    let Some(table) = scene.instances() else {
        return;
    };
    let Some(o) = table.origin(scene.id_at(i)) else {
        return;
    };
    let Some(source) = (table.entry(o.root)).and_then(|e| e.source.as_ref().ok()) else {
        return;
    };
    let source = Arc::clone(source);
    if o.index as usize >= source.scene.len() {
        return;
    }
    let want = source.scene.data_at(o.index as usize);
    scene.share_if_equal(i, &source.path, o.index, want, || part_nodes(&source));
}

/// Every node of the instance rooted at `root` shares its source's data where it equals it.
pub(crate) fn settle_instance(scene: &mut Scene, root: NodeId) {
    let Ok(i) = scene.index(root) else { return };
    for k in i + 1..i + scene.subtree_len_at(i) {
        settle(scene, k);
    }
}

/// Apply a [`TableEdit::Follow`]: every instance of `key` gets `after`, and the nodes that
/// share the source show its nodes.
pub(crate) fn apply(scene: &mut Scene, key: &Path, after: &Arc<Source>) {
    let table = scene.instance_table_mut();
    for entry in &mut table.entries {
        if entry.source.as_ref().is_ok_and(|s| s.path == key) {
            entry.source = Ok(Arc::clone(after));
        }
    }
    scene.follow_part(key, part_nodes(after));
}

/// For each node of `to` (by index), its index in `from` when `from` has its chain.
pub(crate) fn index_map(from: &Source, to: &Source) -> Vec<Option<u32>> {
    (to.chains.iter())
        .map(|c| from.index_of(c).map(|j| j as u32))
        .collect()
}

/// The indices of the nodes of `from` that `to` lacks.
pub(crate) fn gone(from: &Source, to: &Source) -> Vec<usize> {
    (1..from.chains.len())
        .filter(|&j| to.index_of(&from.chains[j]).is_none())
        .collect()
}

/// Apply a [`TableEdit::Reshape`](super::TableEdit::Reshape) from its source before to the one
/// after (`carried`: the added subtrees' places, one per row, or none): refused, with nothing changed, when an
/// instance does not hold `from`'s nodes with the added subtrees recorded, or its row does not
/// fit.
pub(crate) fn apply_reshape(scene: &mut Scene, edit: &Reshaping, carried: &[Carry]) -> Result<()> {
    let refused = |e: &String| Error::Refused(e.clone());
    let from = edit.before.as_ref().map_err(refused)?;
    let to = edit.after.as_ref().map_err(refused)?;
    let (key, rows) = (&edit.key, &edit.rows);
    let map = index_map(from, to);
    let gone = gone(from, to);
    let none = Carry::default();
    let mut order: Vec<(usize, &Row, &Carry)> = (rows.iter().enumerate())
        .map(|(n, r)| Ok((scene.index(r.root)?, r, carried.get(n).unwrap_or(&none))))
        .collect::<Result<_>>()?;
    order.sort_by_key(|(i, _, _)| *i);
    // Each instance's block read from the scene as it is: on both cores for a big scene.
    let threads = crate::model::scene::threads_for(scene.len());
    let built = crate::model::pool::map_in_pieces(&order, threads, &|&(i, row, carry)| {
        block_of(scene, i, (row, carry), (from, to), (&map, &gone))
    });
    let mut blocks = Vec::with_capacity(rows.len());
    let mut origins: Vec<(NodeId, Origin)> = Vec::new();
    for (&(_, row, _), built) in order.iter().zip(built) {
        let (block, to_ids) = built?;
        origins.extend(to_ids.iter().enumerate().skip(1).map(|(j, id)| {
            let index = j as u32;
            (
                *id,
                Origin {
                    root: row.root,
                    index,
                },
            )
        }));
        blocks.push(block);
    }
    scene.reshape(key, part_nodes(to), blocks)?;
    reshape_rows(scene.instance_table_mut(), &order, to, origins);
    Ok(())
}

/// The table's side of [`apply_reshape`]: each row's nodes' origins, waiting nodes and entry
/// fields as after (`origins`: those of the new nodes).
fn reshape_rows(
    table: &mut crate::model::scene::types::Instances,
    order: &[(usize, &Row, &Carry)],
    to: &Arc<Source>,
    origins: Vec<(NodeId, Origin)>,
) {
    // Every row's waiting nodes out before any is put in, each only while it waits for that
    // row's instance: two rows, or two sources' reshapes in one follow, may name one node
    // (waiting in one instance, moved into another where it waits again).
    for (_, row, carry) in order {
        for (id, _) in &carry.before.pending {
            if table.pending.get(id).is_some_and(|(r, _)| *r == row.root) {
                table.pending.remove(id);
            }
        }
        table.take_kept(&carry.before.kept);
    }
    for (_, _, carry) in order {
        table.put_kept(&carry.after.kept);
    }
    for (row, carry) in order.iter().map(|(_, r, c)| (*r, *c)) {
        for id in &row.before.ids {
            table.origins.remove(id);
        }
        for (id, chain) in &carry.after.pending {
            table.pending.insert(*id, (row.root, chain.clone()));
        }
        if let Some(entry) = table.entry_mut(row.root) {
            entry.source = Ok(Arc::clone(to));
            entry.sticky = row.after.sticky.iter().cloned().collect();
            entry.dangling = row.after.dangling.clone();
        }
    }
    table.origins.extend(origins);
}

/// The block that rebuilds the instance rooted at index `i` (see [`apply_reshape`]), and the
/// id of each node of `to` in it (0: the root).
fn block_of(
    scene: &Scene,
    i: usize,
    (row, carry): (&Row, &Carry),
    (from, to): (&Source, &Source),
    (map, gone): (&[Option<u32>], &[usize]),
) -> Result<(Block<NodeData>, Vec<NodeId>)> {
    let refused = |why: &str| Err(Error::Refused(format!("instance {}: {why}", row.root)));
    let layout = match scene.instance_entry(row.root) {
        Some(_) => super::carry::layout(scene, i, from, &from.path),
        None => None,
    };
    let Some(layout) = layout else {
        return refused("its nodes are not its source's (cannot follow it)");
    };
    if !super::carry::recorded(scene, &layout, &carry.before) {
        return refused("the nodes added under it are not where recorded");
    }
    if !(gone.iter())
        .map(|&j| scene.id_at(layout.at[j]))
        .eq(row.before.ids.iter().copied())
    {
        return refused("the nodes its source lost are not the ones recorded");
    }
    let to_ids = match to_ids(scene, &layout.at, map, row) {
        Ok(ids) => ids,
        Err(why) => return refused(why),
    };
    let own: FxHashMap<NodeId, &NodeData> = row.after.own.iter().map(|(id, d)| (*id, d)).collect();
    let mut own_data = Vec::new();
    let node_of = |j: usize| {
        let id = to_ids[j];
        let fill = match map[j] {
            Some(old) => Fill::Kept {
                old: layout.at[old as usize] as u32,
                j: j as u32,
            },
            None => match own.get(&id) {
                Some(d) => {
                    own_data.push((*d).clone());
                    Fill::Own(own_data.len() as u32 - 1)
                }
                None => Fill::Part(j as u32),
            },
        };
        Some((id, fill))
    };
    let Some(nodes) = super::carry::emit(scene, to, &to_ids, &carry.after, node_of) else {
        return refused("an added node's recorded place is not in it");
    };
    let block = Block {
        root: i,
        nodes,
        own: own_data,
    };
    Ok((block, to_ids))
}

/// The id of each node of the new source in the instance of `row` (0: its root): a kept
/// node's (`at`: where the old source's nodes are), or the row's new ids in order.
fn to_ids(
    scene: &Scene,
    at: &[usize],
    map: &[Option<u32>],
    row: &Row,
) -> std::result::Result<Vec<NodeId>, &'static str> {
    let mut fresh = row.after.ids.iter();
    let mut to_ids = Vec::with_capacity(map.len());
    to_ids.push(row.root);
    for kept in map.iter().skip(1) {
        to_ids.push(match *kept {
            Some(old) => scene.id_at(at[old as usize]),
            None => *fresh.next().ok_or("fewer new ids than new nodes")?,
        });
    }
    match fresh.next() {
        Some(_) => Err("more new ids than new nodes"),
        None => Ok(to_ids),
    }
}

impl crate::model::scene::types::Instances {
    /// Allocated bytes of the table by part (`graft bench instances`): the origin of each
    /// expanded node, the entries, and the sources (each counted once).
    pub(crate) fn memory_parts(&self) -> Vec<(String, u64)> {
        use crate::model::scene::bytes::map_bytes;
        use std::mem::size_of;
        let origins = self.origins.bytes();
        let entries = (self.entries.capacity() * size_of::<crate::model::scene::types::Entry>())
            as u64
            + map_bytes(self.by_root.capacity(), 8);
        let mut seen: Vec<*const crate::model::scene::types::Source> = Vec::new();
        let mut sources = 0;
        for source in self.entries.iter().filter_map(|e| e.source.as_ref().ok()) {
            if !seen.contains(&Arc::as_ptr(source)) {
                seen.push(Arc::as_ptr(source));
                sources += (source
                    .scene
                    .memory_parts()
                    .iter()
                    .map(|(_, b)| b)
                    .sum::<u64>())
                    + (source.chains.len() * 24) as u64;
            }
        }
        vec![
            ("instance origins".into(), origins),
            ("instance entries".into(), entries),
            ("instance sources".into(), sources),
        ]
    }
}
