//! The world-matrix cache: dirty subtree ranges, one batched update pass, a lazy getter,
//! world TRS getters and setters (SetGlobalSRT), and the accumulated-TRS comparison mode.

use super::node_id::NodeId;
use super::store::NO_PARENT;
use super::types::Scene;
use crate::error::{Error, Result};
use crate::model::math::{Trs, decompose_like, sin_cos_deg, try_inverse};
use glam::{Affine2, Vec2};

impl Scene {
    /// Mark the subtree at pre-order index `i` stale. O(1): a dirty subtree is its root index.
    pub(crate) fn mark_dirty(&mut self, i: usize) {
        let i = i as u32;
        // Stop early when this subtree is already the latest one marked (a drag edits one node
        // many times); other overlaps are merged by the update pass.
        if self.dirty_roots.last() != Some(&i) {
            self.dirty_roots.push(i);
        }
    }

    /// Mark every world matrix stale (after a bulk build, or for benchmarks).
    pub fn mark_all_dirty(&mut self) {
        self.dirty_roots.clear();
        let roots: Vec<u32> = self.child_indices(None).map(|i| i as u32).collect();
        self.dirty_roots.extend(roots);
    }

    /// Recompute the stale world matrices in one pass in pre-order; returns how many it computed.
    /// With nothing dirty it does no per-node work.
    pub fn update_world(&mut self) -> usize {
        if self.dirty_roots.is_empty() {
            self.last_recomputed = 0;
            return 0;
        }
        let mut roots = std::mem::take(&mut self.dirty_roots);
        roots.sort_unstable();
        let mut covered_end = 0usize;
        let mut count = 0usize;
        self.last_ranges.clear();
        let mut ranges = Vec::new();
        let (mut only_range_roots, mut range_start) = (true, usize::MAX);
        for &r in &roots {
            let r = r as usize;
            if r < covered_end {
                // Inside a subtree already recomputed in this pass: the same root marked again,
                // or a node inside it changed on its own.
                only_range_roots &= r == range_start;
                continue;
            }
            range_start = r;
            let end = r + self.subtree_len[r] as usize;
            ranges.push((r, end));
            self.last_ranges.push((r as u32, end as u32));
            count += end - r;
            covered_end = end;
        }
        // One thread, or several for a big update (`parallel.rs`); the result is the same.
        self.recompute_ranges(&ranges);
        roots.clear();
        self.dirty_roots = roots; // keep the allocation
        self.prev_world_version = self.world_version;
        self.world_version =
            super::store::NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.last_recomputed = count;
        self.last_only_range_roots = only_range_roots;
        count
    }

    /// True when every node marked changed for the last pass that recomputed anything was the
    /// first node of one of [`Scene::last_recomputed_ranges`]: no node inside a range changed
    /// on its own, so every range moved as a whole with its first node (a drag of those nodes).
    pub fn last_update_moved_whole_ranges(&self) -> bool {
        self.last_only_range_roots
    }

    /// world[i] = world[parent[i]] · local[i] for a whole subtree range whose root's parent is clean.
    pub(super) fn recompute_range(&mut self, start: usize, end: usize) {
        let p = self.parent[start];
        let first = self.data.local(start);
        self.world[start] = if p == NO_PARENT {
            first
        } else {
            self.world[p as usize] * first
        };
        let parents = &self.parent[start + 1..end];
        let Some(locals) = self.data.dense_locals() else {
            // Instanced nodes share their locals (`column.rs`): read through the references.
            for (k, &p) in parents.iter().enumerate() {
                let w = self.world[p as usize] * self.data.local(start + 1 + k);
                self.world[start + 1 + k] = w;
            }
            return;
        };
        let locals = &locals[start + 1..end];
        for (k, (&p, local)) in parents.iter().zip(locals).enumerate() {
            // Inside a subtree range every parent lies in the range, before its child.
            let w = self.world[p as usize] * *local;
            self.world[start + 1 + k] = w;
        }
    }

    /// The pre-order index ranges `[start, end)` the last pass that did any work recomputed,
    /// in order (the viewport flashes them).
    pub fn last_recomputed_ranges(&self) -> &[(u32, u32)] {
        &self.last_ranges
    }

    /// How many world matrices the last [`Scene::update_world`] recomputed.
    pub fn last_recomputed(&self) -> usize {
        self.last_recomputed
    }

    /// The cached world matrix at index `i` (current after [`Scene::update_world`]).
    pub fn cached_world_at(&self, i: usize) -> Affine2 {
        self.world[i]
    }

    /// The world matrix of the node at `i`, correct even when stale: computed on demand from the
    /// nearest clean ancestor. O(1) when nothing is dirty. Index-based, for the editor's
    /// drawing loops and the tests; the library API is [`Scene::world`] by id.
    #[doc(hidden)]
    #[inline]
    pub fn world_at(&self, i: usize) -> Affine2 {
        if self.dirty_roots.is_empty() {
            return self.world[i];
        }
        self.stale_world_at(i)
    }

    /// [`Scene::world_at`] while some subtrees are dirty.
    fn stale_world_at(&self, i: usize) -> Affine2 {
        // The outermost dirty subtree containing i, if any.
        let top = self
            .dirty_roots
            .iter()
            .map(|&r| r as usize)
            .filter(|&r| r <= i && i < r + self.subtree_len[r] as usize)
            .min();
        let Some(top) = top else {
            return self.world[i];
        };
        let mut path = Vec::new();
        let mut at = i;
        while at != top {
            path.push(at);
            at = self.parent[at] as usize;
        }
        let p = self.parent[top];
        let mut w = if p == NO_PARENT {
            self.data.local(top)
        } else {
            self.world[p as usize] * self.data.local(top)
        };
        for &k in path.iter().rev() {
            w *= self.data.local(k);
        }
        w
    }

    /// The world matrix of a node (lazy: correct even before the next update pass).
    pub fn world(&self, id: NodeId) -> Result<Affine2> {
        Ok(self.world_at(self.index(id)?))
    }

    /// The world matrix of a node's parent (identity for a root).
    pub fn parent_world(&self, id: NodeId) -> Result<Affine2> {
        let i = self.index(id)?;
        Ok(self
            .parent_index_at(i)
            .map_or(Affine2::IDENTITY, |p| self.world_at(p)))
    }

    /// The node's world transform as TRS + skew (a negative local x scale keeps world x negative).
    pub fn world_trs(&self, id: NodeId) -> Result<Trs> {
        let i = self.index(id)?;
        Ok(decompose_like(&self.world_at(i), &self.data.get(i).local))
    }

    /// The local transform that puts the node at world matrix `world` under its current parent.
    pub fn solve_local(&self, id: NodeId, world: &Affine2) -> Result<Trs> {
        let i = self.index(id)?;
        let local = match self.parent_index_at(i) {
            None => *world,
            Some(p) => {
                let inv = try_inverse(&self.world_at(p))
                    .map_err(|_| Error::SingularParent(self.ids[p]))?;
                inv * *world
            }
        };
        Ok(decompose_like(&local, &self.data.get(i).local))
    }

    /// Seed 001's SetGlobalSRT: place the node at this world transform by solving its local
    /// through the inverse of the parent's world. Refused when the parent is singular.
    pub fn set_world_trs(&mut self, id: NodeId, world: Trs) -> Result<Trs> {
        if let Some(field) = world.first_non_finite() {
            return Err(Error::NotFinite { node: id, field });
        }
        let local = self.solve_local(id, &world.to_affine())?;
        self.set_local(id, local)
    }

    /// Move the node to a world position; its local rotation, scale and skew stay as they are.
    pub fn set_world_position(&mut self, id: NodeId, position: Vec2) -> Result<Trs> {
        let i = self.index(id)?;
        if !position.is_finite() {
            return Err(Error::NotFinite {
                node: id,
                field: "position",
            });
        }
        let mut local = self.data.get(i).local;
        local.position = match self.parent_index_at(i) {
            None => position,
            Some(p) => try_inverse(&self.world_at(p))
                .map_err(|_| Error::SingularParent(self.ids[p]))?
                .transform_point2(position),
        };
        self.set_local(id, local)
    }

    /// Seed 001's accumulated mode: world TRS by component-wise accumulation down the chain
    /// (scale × scale, rotation + rotation, position = parentPos + R(parentRot)·(parentScale ∘ pos)).
    /// Scale stays along the accumulated axes, so parent scale × child rotation never shears;
    /// a node's own skew is added like rotation.
    pub fn accumulated_world_trs(&self, id: NodeId) -> Result<Trs> {
        let i = self.index(id)?;
        let mut acc = Trs::IDENTITY;
        let mut first = true;
        for k in self.path_indices(i) {
            let local = self.data.get(k).local;
            if first {
                acc = local;
                first = false;
                continue;
            }
            let (s, c) = sin_cos_deg(acc.rotation as f64);
            let scaled = (acc.scale * local.position).as_dvec2();
            let rotated = Vec2::new(
                (c * scaled.x - s * scaled.y) as f32,
                (s * scaled.x + c * scaled.y) as f32,
            );
            acc = Trs {
                position: acc.position + rotated,
                rotation: acc.rotation + local.rotation,
                scale: acc.scale * local.scale,
                skew: acc.skew + local.skew,
            };
        }
        Ok(acc)
    }
}
