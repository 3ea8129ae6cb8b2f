//! Where a scene's bytes go, by part (`graft bench instances`): each per-node array, the heap
//! its nodes' data own, and the instance table. Allocated bytes, not resident ones.

use super::node_data::NodeData;
use super::node_id::NodeId;
use super::shape::Shape;
use super::types::Scene;
use glam::Affine2;
use std::mem::size_of;

/// Heap bytes one node's data owns (names past 24 bytes, sprites, polygons, probes, tracks).
pub(crate) fn heap_bytes(d: &NodeData) -> u64 {
    let name = if d.name.is_heap_allocated() {
        d.name.capacity()
    } else {
        0
    };
    let shape = match &d.shape {
        Shape::Sprite(s) => size_of::<super::Sprite>() + s.path.capacity(),
        Shape::Polygon { points } => 16 + points.capacity() * 8,
        _ => 0,
    };
    let thin = |cap: usize, each: usize| if cap == 0 { 0 } else { 16 + cap * each };
    let tracks = thin(d.tracks.capacity(), size_of::<crate::model::anim::Track>())
        + (d.tracks.iter())
            .map(|t| t.keys.capacity() * size_of::<crate::model::anim::Key>())
            .sum::<usize>();
    (name + shape + thin(d.probes.capacity(), 8) + tracks) as u64
}

impl Scene {
    /// The per-node arrays' allocated capacities (name, elements, bytes per element), the id
    /// index's included, for `graft bench memory`.
    pub(crate) fn array_capacities(&self) -> Vec<(&'static str, usize, usize)> {
        use std::mem::size_of;
        let arrays = vec![
            ("ids", self.ids.capacity(), size_of::<NodeId>()),
            ("data", self.data.capacities().0, size_of::<NodeData>()),
            ("data refs", self.data.capacities().2, 4),
            ("parent", self.parent.capacity(), size_of::<u32>()),
            ("subtree_len", self.subtree_len.capacity(), size_of::<u32>()),
            ("local_mat", self.data.capacities().1, size_of::<Affine2>()),
            ("world", self.world.capacity(), size_of::<Affine2>()),
            (
                "id index",
                self.index_of.capacity(),
                self.index_of.entry_bytes(),
            ),
        ];
        arrays
    }

    /// Allocated bytes by part: each per-node array, the data's heap, the instance table.
    pub fn memory_parts(&self) -> Vec<(String, u64)> {
        let mut parts: Vec<(String, u64)> = (self.array_capacities().into_iter())
            .map(|(name, cap, each)| (name.to_string(), (cap * each) as u64))
            .collect();
        parts.push(("data heap".into(), self.data_heap_bytes()));
        let shared = self.data.capacities().3;
        let shared_bytes = (shared.len() * size_of::<NodeData>()) as u64
            + shared.iter().map(|d| heap_bytes(d)).sum::<u64>();
        parts.push(("shared parts".into(), shared_bytes));
        if let Some(table) = self.instances() {
            parts.extend(table.memory_parts());
        }
        parts
    }

    /// Heap bytes the nodes' own data hold (the shared parts are counted on their own).
    fn data_heap_bytes(&self) -> u64 {
        self.data.own_data().iter().map(heap_bytes).sum()
    }
}
