//! Instanced nodes sharing their source's data (`column.rs`): which nodes do, a part
//! following its changed source, a node shared again once its data equals its source's, and
//! many instances' subtrees replaced in one pass (a source that gained, lost or moved nodes,
//! followed by every instance at once: O(nodes) instead of a removal and an insertion per
//! instance, each O(nodes)).

use super::block::{Block, Cell, Fill};
use super::{NO_PARENT, NodeData, NodeId, Scene};
use crate::error::{Error, Result};
use glam::Affine2;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

impl Scene {
    /// True when the node at `i` shows its source's data, held once for every instance (an
    /// instanced node no override changed).
    pub fn is_shared_at(&self, i: usize) -> bool {
        self.data.shared_at(i).is_some()
    }

    /// The source node index the node at `i` shows, when it is shared.
    pub(crate) fn shared_index_at(&self, i: usize) -> Option<u32> {
        self.data.shared_at(i).map(|(_, j)| j)
    }

    /// Every node showing the part of the source file `key` shows `nodes` now (node for node,
    /// as many; the part's local matrices with them): the changed subtrees are marked dirty. False
    /// (nothing changed) when no node shows that part or the count differs.
    pub(crate) fn follow_part(&mut self, key: &Path, nodes: Arc<[NodeData]>) -> bool {
        let Some((k, old)) = self.data.find_part(key) else {
            return false;
        };
        if old.len() != nodes.len() {
            return false;
        }
        let bits = |d: &NodeData| d.local.components().map(f32::to_bits);
        let moved: Vec<bool> = (old.iter().zip(nodes.iter()))
            .map(|(a, b)| bits(a) != bits(b))
            .collect();
        self.data.replace_part(k, nodes);
        let mut covered_end = 0;
        for i in 0..self.len() {
            let Some((p, j)) = self.data.shared_at(i) else {
                continue;
            };
            if p == k && moved[j as usize] && i >= covered_end {
                self.mark_dirty(i);
                covered_end = i + self.subtree_len[i] as usize;
            }
        }
        self.bump_version();
        for v in [
            &mut self.appearance_version,
            &mut self.probes_version,
            &mut self.tracks_version,
        ] {
            *v = super::NEXT_VERSION.fetch_add(1, Relaxed);
        }
        true
    }

    /// Make the node at `i` show node `j` of the source file `key` again (held once) when its
    /// own data equals `want`, that node's data; `nodes` gives the part when the scene has
    /// none for `key` yet. The data the node shows does not change.
    pub(crate) fn share_if_equal(
        &mut self,
        i: usize,
        key: &Path,
        j: u32,
        want: &NodeData,
        nodes: impl FnOnce() -> Arc<[NodeData]>,
    ) {
        if i >= self.len() || self.data.shared_at(i).is_some() || self.data.get(i) != want {
            return;
        }
        let Some(k) = self.data.part(key, nodes) else {
            return;
        };
        let same = (self.data.find_part(key)).is_some_and(|(_, p)| p.get(j as usize) == Some(want));
        if same {
            self.data.share(i, k, j);
        }
    }

    /// Give every node of the subtree rooted at `id` its own copy of the data it shows (its
    /// instance is gone: a later change of the source must not reach it).
    pub(crate) fn unshare_subtree(&mut self, id: super::NodeId) {
        let Ok(i) = self.index(id) else { return };
        for k in i..i + self.subtree_len_at(i) {
            if self.data.shared_at(k).is_some() {
                self.data.get_mut(k);
            }
        }
    }

    /// After an edit of the node at `i`: shared again if it now equals its source's node.
    pub(crate) fn settle_at(&mut self, i: usize) {
        if self.instances.is_some() {
            crate::model::instance::share::settle(self, i);
        }
    }
}

impl Scene {
    /// The nodes of the shared part of the source file `key`, if nodes share it.
    pub(crate) fn shared_part(&self, key: &Path) -> Option<&Arc<[NodeData]>> {
        self.data.find_part(key).map(|(_, nodes)| nodes)
    }

    /// Replace the nodes below each block's root by the block's nodes, and give the shared
    /// part of the source file `key` the nodes `part` (nodes outside the blocks that still
    /// showed it get their own copy first). Blocks in pre-order, none inside another. Refused,
    /// with nothing changed, when a block is malformed or brings an id the scene uses
    /// elsewhere. World matrices of the blocks are marked stale.
    pub(crate) fn reshape(
        &mut self,
        key: &Path,
        part: Arc<[NodeData]>,
        blocks: Vec<Block<NodeData>>,
    ) -> Result<()> {
        self.check_blocks(&blocks)?;
        let n = self.len();
        let key_part = self.data.find_part(key).map(|(k, _)| k);
        let Some(key_part) = key_part else {
            return Err(Error::Refused(format!(
                "no instance shares {}: nothing to reshape",
                key.display()
            )));
        };
        let grown: usize = blocks.iter().map(|b| b.nodes.len()).sum();
        let shrunk: usize = blocks.iter().map(|b| self.subtree_len_at(b.root) - 1).sum();
        let m = n + grown - shrunk;
        let mut out = Rebuilt {
            new_of: vec![u32::MAX; n + 1],
            ids: Vec::with_capacity(m),
            parents: Vec::with_capacity(m),
            cells: Vec::with_capacity(m),
            own: Vec::new(),
            block_parent: Vec::with_capacity(grown),
            roots: Vec::new(),
        };
        let mut next_block = blocks.into_iter().peekable();
        let mut old = 0;
        while old < n {
            out.new_of[old] = out.ids.len() as u32;
            out.ids.push(self.ids[old]);
            out.parents.push(self.parent[old]);
            let cell = match self.data.shared_at(old) {
                Some((p, _)) if p == key_part => out.own_cell(self.data.get(old).clone()),
                _ => Cell::Old(old as u32),
            };
            out.cells.push(cell);
            match next_block.next_if(|b| b.root == old) {
                Some(block) => {
                    self.push_block(&mut out, block, key_part);
                    old += self.subtree_len_at(old);
                }
                None => old += 1,
            }
        }
        out.new_of[n] = m as u32;
        let (cells, own) = (std::mem::take(&mut out.cells), std::mem::take(&mut out.own));
        self.finish_reshape(out);
        self.data.reshape(&cells, own, key_part, part);
        Ok(())
    }

    /// Add a block's nodes after its root (the last node of `out`).
    fn push_block(&self, out: &mut Rebuilt, block: Block<NodeData>, key_part: u32) {
        let root_new = out.ids.len() as u32 - 1;
        out.roots.push(root_new);
        let mut block_own: Vec<Option<NodeData>> = block.own.into_iter().map(Some).collect();
        for node in block.nodes {
            out.ids.push(node.id);
            // Set in finish_reshape: a block's parents are new indices already.
            out.parents.push(NO_PARENT);
            (out.block_parent).push((out.ids.len() as u32 - 1, root_new + node.parent));
            let cell = match node.fill {
                Fill::Kept { old: k, j } => match self.data.shared_at(k as usize) {
                    Some((p, _)) if p == key_part => Cell::Shared(j),
                    _ => Cell::Old(k),
                },
                Fill::Part(j) => Cell::Shared(j),
                Fill::Own(k) => {
                    let data = block_own.get_mut(k as usize).and_then(Option::take);
                    out.own_cell(data.unwrap_or_default())
                }
            };
            out.cells.push(cell);
        }
    }

    /// Put the rebuilt ids and parents in place: parents of old nodes remapped, subtree
    /// lengths, the id index, dirty roots and world matrices made anew.
    fn finish_reshape(&mut self, out: Rebuilt) {
        let Rebuilt {
            ids,
            mut parents,
            new_of,
            block_parent,
            roots,
            ..
        } = out;
        let mut in_block = vec![false; ids.len()];
        for &(i, _) in &block_parent {
            in_block[i as usize] = true;
        }
        for (i, p) in parents.iter_mut().enumerate() {
            if !in_block[i] && *p != NO_PARENT {
                *p = new_of[*p as usize];
            }
        }
        for &(i, p) in &block_parent {
            parents[i as usize] = p;
        }
        let m = ids.len();
        let mut subtree_len = vec![1u32; m];
        for i in (1..m).rev() {
            if parents[i] != NO_PARENT {
                subtree_len[parents[i] as usize] += subtree_len[i];
            }
        }
        self.reindex(&ids, &new_of);
        self.ids = ids;
        self.parent = parents;
        self.subtree_len = subtree_len;
        for &r in &roots {
            // The block's root: its subtree's matrices are stale.
            self.mark_dirty(r as usize);
        }
        self.bump_version();
        for v in [
            &mut self.appearance_version,
            &mut self.probes_version,
            &mut self.tracks_version,
        ] {
            *v = super::NEXT_VERSION.fetch_add(1, Relaxed);
        }
    }

    /// The id index, the next id, the world matrices and the dirty roots for the rebuilt
    /// `ids` (`new_of`: old index → new, `u32::MAX` for a node of a block).
    fn reindex(&mut self, ids: &[NodeId], new_of: &[u32]) {
        // New indices first, then the ids no node has now forgotten (removing every block
        // node first would make the index look sparse and turn it into a hash map).
        for (i, id) in ids.iter().enumerate() {
            self.index_of.insert(*id, i as u32);
        }
        for (old, id) in self.ids.iter().enumerate() {
            let still = (self.index_of.get(id)).is_some_and(|&k| ids.get(k as usize) == Some(id));
            if new_of[old] == u32::MAX && !still {
                self.index_of.remove(id);
            }
        }
        if let Some(max) = ids.iter().map(|id| id.0).max() {
            self.next_id = self.next_id.max(max.saturating_add(1));
        }
        let mut world = vec![Affine2::IDENTITY; ids.len()];
        for (old, &new) in new_of[..self.ids.len()].iter().enumerate() {
            if new != u32::MAX {
                world[new as usize] = self.world[old];
            }
        }
        self.world = world;
        let dirty: Vec<u32> = (self.dirty_roots.iter())
            .map(|&r| new_of[r as usize])
            .filter(|&r| r != u32::MAX)
            .collect();
        self.dirty_roots = dirty;
    }

    /// Refuse blocks out of pre-order, inside one another, with a parent after its node, or
    /// bringing an id the scene uses outside them (or twice).
    fn check_blocks(&self, blocks: &[Block<NodeData>]) -> Result<()> {
        let bad = |why: &str| Err(Error::Format(format!("malformed reshape: {why}")));
        let mut end = 0;
        // Ids new to the scene (few: a source's added nodes), and the block's kept nodes.
        let mut fresh = rustc_hash::FxHashSet::default();
        for b in blocks {
            if b.root >= self.len() || b.root < end {
                return bad("blocks out of order");
            }
            end = b.root + self.subtree_len_at(b.root);
            let mut kept = vec![false; end - b.root];
            for (k, node) in b.nodes.iter().enumerate() {
                if node.parent as usize > k {
                    return bad("a parent after its node");
                }
                let ok = match node.fill {
                    Fill::Kept { old, .. } => {
                        let at = (old as usize).wrapping_sub(b.root);
                        let inside = (1..kept.len()).contains(&at) && !kept[at];
                        if inside {
                            kept[at] = true;
                        }
                        if !inside || self.ids[old as usize] != node.id {
                            return bad("a kept node from outside its block, or kept twice");
                        }
                        true
                    }
                    Fill::Part(_) | Fill::Own(_) => {
                        !self.contains(node.id) && fresh.insert(node.id)
                    }
                };
                if !ok {
                    return Err(Error::DuplicateId(node.id));
                }
            }
        }
        Ok(())
    }
}

/// The columns of a reshaped scene while they are built (`Scene::reshape`).
struct Rebuilt {
    /// Old index → new index (for nodes outside blocks and block roots; `n` → `m`).
    new_of: Vec<u32>,
    ids: Vec<NodeId>,
    /// Old parent indices outside blocks (remapped at the end), [`NO_PARENT`] inside.
    parents: Vec<u32>,
    cells: Vec<Cell>,
    own: Vec<Option<NodeData>>,
    /// Each block node's new index and its parent's.
    block_parent: Vec<(u32, u32)>,
    /// The blocks' roots, new indices.
    roots: Vec<u32>,
}

impl Rebuilt {
    /// A cell with data of its own.
    fn own_cell(&mut self, data: NodeData) -> Cell {
        self.own.push(Some(data));
        Cell::Own(self.own.len() as u32 - 1)
    }
}
