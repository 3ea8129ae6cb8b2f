//! Instanced nodes sharing their source's data (`column.rs`): which nodes do, a part
//! following its changed source, and a node shared again once its data equals its source's.

use super::{NodeData, Scene};
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
