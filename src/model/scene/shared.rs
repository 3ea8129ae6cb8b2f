//! Instanced nodes sharing their source's data (`column.rs`): which nodes do, a part
//! following its changed source, a node shared again once its data equals its source's, and
//! many instances' subtrees replaced in one pass (a source that gained, lost or moved nodes,
//! followed by every instance at once: O(nodes) instead of a removal and an insertion per
//! instance, each O(nodes)).

use super::block::{Block, Cell, Fill};
use super::node_data::NodeData;
use super::node_id::NodeId;
use super::store::NO_PARENT;
use super::types::Scene;
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
        let moved: Vec<bool> = (old.iter().zip(nodes.iter()))
            .map(|(a, b)| !super::store::same_bits(&a.local, &b.local))
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
            *v = super::store::NEXT_VERSION.fetch_add(1, Relaxed);
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
            new_of: vec![u32::MAX; n],
            ids: Vec::with_capacity(m),
            parents: Vec::with_capacity(m),
            world: Vec::with_capacity(m),
            cells: Vec::with_capacity(m),
            own: Vec::new(),
            roots: Vec::new(),
        };
        let mut next_block = blocks.into_iter().peekable();
        let mut old = 0;
        while old < n {
            let new = out.ids.len() as u32;
            out.new_of[old] = new;
            let id = self.ids[old];
            out.ids.push(id);
            self.index_of.insert(id, new);
            let p = self.parent[old];
            out.parents.push(if p == NO_PARENT {
                p
            } else {
                out.new_of[p as usize]
            });
            out.world.push(self.world[old]);
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
        let (cells, own) = (std::mem::take(&mut out.cells), std::mem::take(&mut out.own));
        self.finish_reshape(out);
        self.data.reshape(&cells, own, key_part, part);
        Ok(())
    }

    /// Add a block's nodes after its root (the last node of `out`); the ids of the block's
    /// old nodes it does not keep are forgotten.
    fn push_block(&mut self, out: &mut Rebuilt, block: Block<NodeData>, key_part: u32) {
        let (root_new, root_old) = (out.ids.len() as u32 - 1, block.root);
        out.roots.push(root_new);
        let len = self.subtree_len_at(root_old);
        let mut kept = vec![false; len];
        let mut block_own: Vec<Option<NodeData>> = block.own.into_iter().map(Some).collect();
        for node in block.nodes {
            let new = out.ids.len() as u32;
            out.ids.push(node.id);
            self.index_of.insert(node.id, new);
            out.parents.push(root_new + node.parent);
            out.world.push(Affine2::IDENTITY);
            let cell = match node.fill {
                Fill::Kept { old: k, j } => {
                    kept[k as usize - root_old] = true;
                    match self.data.shared_at(k as usize) {
                        Some((p, _)) if p == key_part => Cell::Shared(j),
                        _ => Cell::Old(k),
                    }
                }
                Fill::Carried { old: k } => {
                    kept[k as usize - root_old] = true;
                    Cell::Old(k)
                }
                Fill::Part(j) => Cell::Shared(j),
                Fill::Own(k) => {
                    let data = block_own.get_mut(k as usize).and_then(Option::take);
                    out.own_cell(data.unwrap_or_default())
                }
            };
            out.cells.push(cell);
        }
        for (k, kept) in kept.iter().enumerate().skip(1) {
            if !kept {
                let id = self.ids[root_old + k];
                self.index_of.remove(&id);
            }
        }
    }

    /// Put the rebuilt columns in place: subtree lengths, the next id, the dirty roots (the
    /// old ones moved, each block's root added).
    fn finish_reshape(&mut self, out: Rebuilt) {
        let Rebuilt {
            ids,
            parents,
            world,
            new_of,
            roots,
            ..
        } = out;
        let m = ids.len();
        let mut subtree_len = vec![1u32; m];
        for i in (1..m).rev() {
            if parents[i] != NO_PARENT {
                subtree_len[parents[i] as usize] += subtree_len[i];
            }
        }
        if let Some(max) = ids.iter().map(|id| id.0).max() {
            self.next_id = self.next_id.max(max.saturating_add(1));
        }
        let dirty: Vec<u32> = (self.dirty_roots.iter())
            .map(|&r| new_of[r as usize])
            .filter(|&r| r != u32::MAX)
            .collect();
        self.dirty_roots = dirty;
        self.ids = ids;
        self.parent = parents;
        self.subtree_len = subtree_len;
        self.world = world;
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
            *v = super::store::NEXT_VERSION.fetch_add(1, Relaxed);
        }
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
                    Fill::Kept { old, .. } | Fill::Carried { old } => {
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
    /// Old index → new index (for nodes outside blocks and block roots; `u32::MAX` inside).
    new_of: Vec<u32>,
    ids: Vec<NodeId>,
    /// Parent indices, new.
    parents: Vec<u32>,
    /// World matrices (a block's nodes stale until the update).
    world: Vec<Affine2>,
    cells: Vec<Cell>,
    own: Vec<Option<NodeData>>,
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
