//! Instanced nodes sharing their source's data: a source's nodes as a shared part, a node
//! sharing again when it equals its source, and a follow's table edits applied (`Follow`: the
//! part swapped; `Reshape`: every instance rebuilt in one pass, planned in `reshape.rs`). No file is read
//! here (reading sources is `follow.rs` and `expand.rs`), so the scene and its instance table
//! reach this without reaching the loader.

use super::ids::Origin;
use super::table_edit::Row;
use crate::error::{Error, Result};
use crate::model::scene::block::{Block, BlockNode, Fill};
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

/// True when the instance rooted at index `i` holds exactly `source`'s nodes in its order
/// (nothing added under them, nothing pending): what a reshape can rebuild.
pub(crate) fn exact(scene: &Scene, i: usize, source: &Source) -> bool {
    let (root, n) = (scene.id_at(i), source.scene.len());
    scene.subtree_len_at(i) == n
        && (1..n).all(|k| {
            scene.origin(scene.id_at(i + k))
                == Some(Origin {
                    root,
                    index: k as u32,
                })
        })
}

/// Apply a [`TableEdit::Reshape`](super::TableEdit::Reshape) from `from` to `to`: refused, with nothing changed, when an
/// instance does not hold `from`'s nodes exactly or its row does not fit.
pub(crate) fn apply_reshape(
    scene: &mut Scene,
    key: &Path,
    (from, to): (&Arc<Source>, &Arc<Source>),
    rows: &[Row],
) -> Result<()> {
    let map = index_map(from, to);
    let gone = gone(from, to);
    let mut order: Vec<(usize, &Row)> = (rows.iter())
        .map(|r| Ok((scene.index(r.root)?, r)))
        .collect::<Result<_>>()?;
    order.sort_by_key(|(i, _)| *i);
    let mut blocks = Vec::with_capacity(rows.len());
    let mut origins: Vec<(NodeId, Origin)> = Vec::new();
    for &(i, row) in &order {
        let block = block_of(scene, i, row, (from, to), (&map, &gone))?;
        origins.extend(block.nodes.iter().enumerate().map(|(k, b)| {
            let index = k as u32 + 1;
            (
                b.id,
                Origin {
                    root: row.root,
                    index,
                },
            )
        }));
        blocks.push(block);
    }
    scene.reshape(key, part_nodes(to), blocks)?;
    let table = scene.instance_table_mut();
    for row in rows {
        for id in &row.before.ids {
            table.origins.remove(id);
        }
        if let Some(entry) = table.entry_mut(row.root) {
            entry.source = Ok(Arc::clone(to));
            entry.sticky = row.after.sticky.iter().cloned().collect();
            entry.dangling = row.after.dangling.clone();
        }
    }
    table.origins.extend(origins);
    Ok(())
}

/// The block that rebuilds the instance rooted at index `i` (see [`apply_reshape`]).
fn block_of(
    scene: &Scene,
    i: usize,
    row: &Row,
    (from, to): (&Source, &Source),
    (map, gone): (&[Option<u32>], &[usize]),
) -> Result<Block<NodeData>> {
    let refused = |why: &str| Err(Error::Refused(format!("instance {}: {why}", row.root)));
    if scene.instance_entry(row.root).is_none() || !exact(scene, i, from) {
        return refused("its nodes are not its source's (cannot follow it)");
    }
    if !(gone.iter())
        .map(|&j| scene.id_at(i + j))
        .eq(row.before.ids.iter().copied())
    {
        return refused("the nodes its source lost are not the ones recorded");
    }
    let own: FxHashMap<NodeId, &NodeData> = row.after.own.iter().map(|(id, d)| (*id, d)).collect();
    let mut fresh = row.after.ids.iter();
    let mut own_data = Vec::new();
    let mut nodes = Vec::with_capacity(to.scene.len().saturating_sub(1));
    for (j, kept) in map.iter().enumerate().skip(1) {
        let (id, fill) = match *kept {
            Some(old) => {
                let old = (i + old as usize) as u32;
                let j = j as u32;
                (scene.id_at(old as usize), Fill::Kept { old, j })
            }
            None => {
                let Some(&id) = fresh.next() else {
                    return refused("fewer new ids than new nodes");
                };
                let fill = match own.get(&id) {
                    Some(d) => {
                        own_data.push((*d).clone());
                        Fill::Own(own_data.len() as u32 - 1)
                    }
                    None => Fill::Part(j as u32),
                };
                (id, fill)
            }
        };
        let parent = to.scene.parent_index_at(j).unwrap_or(0) as u32;
        nodes.push(BlockNode { id, parent, fill });
    }
    if fresh.next().is_some() {
        return refused("more new ids than new nodes");
    }
    Ok(Block {
        root: i,
        nodes,
        own: own_data,
    })
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
