//! Many instances' subtrees replaced in one pass: a source that gained, lost or moved nodes,
//! followed by every instance at once (`model/instance/reshape.rs`), in O(nodes) instead of a
//! removal and an insertion per instance (each O(nodes)).

use super::column::Cell;
use super::{NO_PARENT, NodeData, NodeId, Scene};
use crate::error::{Error, Result};
use glam::Affine2;
use std::path::Path;
use std::sync::Arc;

/// Where a node of a reshaped instance gets its data.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Fill {
    /// The node at pre-order index `old` now: its own data as it is, or — when it shares the
    /// part — node `j` of the new part.
    Kept {
        /// Its pre-order index before.
        old: u32,
        /// Its index in the new part.
        j: u32,
    },
    /// Node `j` of the new part, shared.
    Part(u32),
    /// Data of its own.
    Own(NodeData),
}

/// One new node below a reshaped instance's root.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BlockNode {
    /// Its id (one of the block's old nodes' or one no node uses).
    pub(crate) id: NodeId,
    /// Its parent: 0 the root, `k` the block's node `k - 1`.
    pub(crate) parent: u32,
    /// Its data.
    pub(crate) fill: Fill,
}

/// An instance whose nodes below its root are replaced (the root stays as it is).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Block {
    /// The root's pre-order index.
    pub(crate) root: usize,
    /// The new nodes below it, in pre-order.
    pub(crate) nodes: Vec<BlockNode>,
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
        blocks: Vec<Block>,
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
        // Old index → new index (for nodes outside blocks and block roots; `n` → `m`).
        let mut new_of = vec![u32::MAX; n + 1];
        let mut ids = Vec::with_capacity(m);
        let mut cells = Vec::with_capacity(m);
        let mut own: Vec<Option<NodeData>> = Vec::new();
        let mut parents: Vec<u32> = Vec::with_capacity(m);
        let mut block_parent: Vec<(usize, u32)> = Vec::new();
        let mut roots: Vec<u32> = Vec::new();
        let mut next_block = blocks.into_iter().peekable();
        let mut old = 0;
        while old < n {
            new_of[old] = ids.len() as u32;
            ids.push(self.ids[old]);
            parents.push(self.parent[old]);
            cells.push(match self.data.shared_at(old) {
                Some((p, _)) if p == key_part => {
                    own.push(Some(self.data.get(old).clone()));
                    Cell::Own(own.len() as u32 - 1)
                }
                _ => Cell::Old(old as u32),
            });
            let Some(block) = next_block.next_if(|b| b.root == old) else {
                old += 1;
                continue;
            };
            let root_new = ids.len() as u32 - 1;
            roots.push(root_new);
            for node in block.nodes {
                ids.push(node.id);
                // Remapped below: a block's parents are new indices already.
                parents.push(NO_PARENT);
                block_parent.push((ids.len() - 1, root_new + node.parent));
                cells.push(match node.fill {
                    Fill::Kept { old: k, j } => match self.data.shared_at(k as usize) {
                        Some((p, _)) if p == key_part => Cell::Shared(j),
                        _ => Cell::Old(k),
                    },
                    Fill::Part(j) => Cell::Shared(j),
                    Fill::Own(data) => {
                        own.push(Some(data));
                        Cell::Own(own.len() as u32 - 1)
                    }
                });
            }
            old += self.subtree_len_at(old);
        }
        new_of[n] = m as u32;
        self.finish_reshape(ids, parents, &new_of, (&block_parent, &roots));
        self.data.reshape(&cells, own, key_part, part);
        Ok(())
    }

    /// Put the rebuilt ids and parents in place: parents of old nodes remapped, subtree
    /// lengths, the id index, dirty roots and world matrices made anew.
    fn finish_reshape(
        &mut self,
        ids: Vec<NodeId>,
        mut parents: Vec<u32>,
        new_of: &[u32],
        (block_parent, roots): (&[(usize, u32)], &[u32]),
    ) {
        let in_block: Vec<bool> = {
            let mut v = vec![false; ids.len()];
            for &(i, _) in block_parent {
                v[i] = true;
            }
            v
        };
        for (i, p) in parents.iter_mut().enumerate() {
            if !in_block[i] && *p != NO_PARENT {
                *p = new_of[*p as usize];
            }
        }
        for &(i, p) in block_parent {
            parents[i] = p;
        }
        let m = ids.len();
        let mut subtree_len = vec![1u32; m];
        for i in (1..m).rev() {
            if parents[i] != NO_PARENT {
                subtree_len[parents[i] as usize] += subtree_len[i];
            }
        }
        for (old, id) in self.ids.iter().enumerate() {
            if new_of[old] == u32::MAX {
                self.index_of.remove(id);
            }
        }
        for (i, id) in ids.iter().enumerate() {
            self.index_of.insert(*id, i as u32);
        }
        if let Some(max) = ids.iter().map(|id| id.0).max() {
            self.next_id = self.next_id.max(max.saturating_add(1));
        }
        let mut world = vec![Affine2::IDENTITY; m];
        for (old, &new) in new_of[..self.ids.len()].iter().enumerate() {
            if new != u32::MAX {
                world[new as usize] = self.world[old];
            }
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
        for &r in roots {
            // The block's root: its subtree's matrices are stale.
            self.mark_dirty(r as usize);
        }
        self.bump_version();
        for v in [
            &mut self.appearance_version,
            &mut self.probes_version,
            &mut self.tracks_version,
        ] {
            *v = super::NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Refuse blocks out of pre-order, inside one another, with a parent after its node, or
    /// bringing an id the scene uses outside them (or twice).
    fn check_blocks(&self, blocks: &[Block]) -> Result<()> {
        let bad = |why: &str| Err(Error::Format(format!("malformed reshape: {why}")));
        let mut end = 0;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut kept = rustc_hash::FxHashSet::default();
        for b in blocks {
            if b.root >= self.len() || b.root < end {
                return bad("blocks out of order");
            }
            end = b.root + self.subtree_len_at(b.root);
            for (k, node) in b.nodes.iter().enumerate() {
                if node.parent as usize > k {
                    return bad("a parent after its node");
                }
                let inside = (self.index_of.get(&node.id))
                    .is_some_and(|&i| (b.root + 1..end).contains(&(i as usize)));
                if (self.contains(node.id) && !inside) || !seen.insert(node.id) {
                    return Err(Error::DuplicateId(node.id));
                }
                if let Fill::Kept { old, .. } = node.fill
                    && (!(b.root + 1..end).contains(&(old as usize)) || !kept.insert(old))
                {
                    return bad("a kept node from outside its block, or kept twice");
                }
            }
        }
        Ok(())
    }
}
