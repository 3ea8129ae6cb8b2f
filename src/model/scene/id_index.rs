//! NodeId → pre-order index. Ids are dense in every scene graft makes or saves (1..n, plus the
//! ids handed out since), so the index is a plain array (4 bytes a node) while the largest id
//! stays within a small multiple of the node count; a file with scattered ids (say 7 and
//! 4,000,000,000) gets a hash map instead. Both answer the same questions.

use super::node_id::NodeId;
use rustc_hash::FxHashMap;

/// Marks an id with no node in the array.
const ABSENT: u32 = u32::MAX;
/// The array may be this many times longer than the node count (plus some slack).
const DENSE_FACTOR: usize = 4;
const DENSE_SLACK: usize = 1024;

/// NodeId → pre-order index.
#[derive(Clone, Debug)]
pub(crate) enum IdIndex {
    /// `slots[id]` is the index, or [`ABSENT`]; `len` ids are present.
    Dense { slots: Vec<u32>, len: usize },
    /// Scattered ids.
    Sparse(FxHashMap<NodeId, u32>),
}

impl Default for IdIndex {
    fn default() -> Self {
        IdIndex::Dense {
            slots: Vec::new(),
            len: 0,
        }
    }
}

/// True when an array up to `max_id` is worth it for `len` ids.
fn dense_enough(max_id: u32, len: usize) -> bool {
    (max_id as usize) < len.saturating_mul(DENSE_FACTOR) + DENSE_SLACK
}

impl IdIndex {
    /// The index of a map (an array when its ids are dense).
    pub fn from_map(map: FxHashMap<NodeId, u32>) -> Self {
        let max = map.keys().map(|id| id.0).max().unwrap_or(0);
        if !dense_enough(max, map.len()) {
            return IdIndex::Sparse(map);
        }
        let mut slots = vec![ABSENT; map.len().max(max as usize + 1)];
        for (id, i) in &map {
            slots[id.0 as usize] = *i;
        }
        IdIndex::Dense {
            slots,
            len: map.len(),
        }
    }

    /// The index of `id`.
    #[inline]
    pub fn get(&self, id: &NodeId) -> Option<&u32> {
        match self {
            IdIndex::Dense { slots, .. } => slots.get(id.0 as usize).filter(|&&i| i != ABSENT),
            IdIndex::Sparse(map) => map.get(id),
        }
    }

    /// True when `id` has an index.
    pub fn contains_key(&self, id: &NodeId) -> bool {
        self.get(id).is_some()
    }

    /// How many ids have an index (read by the consistency check, a test hook).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn len(&self) -> usize {
        match self {
            IdIndex::Dense { len, .. } => *len,
            IdIndex::Sparse(map) => map.len(),
        }
    }

    /// Entries allocated (for `graft bench memory`).
    pub fn capacity(&self) -> usize {
        match self {
            IdIndex::Dense { slots, .. } => slots.capacity(),
            IdIndex::Sparse(map) => map.capacity(),
        }
    }

    /// Bytes per allocated entry (for `graft bench memory`).
    pub fn entry_bytes(&self) -> usize {
        match self {
            IdIndex::Dense { .. } => size_of::<u32>(),
            IdIndex::Sparse(_) => size_of::<(NodeId, u32)>() + 1,
        }
    }

    /// Set the index of `id`.
    pub fn insert(&mut self, id: NodeId, index: u32) {
        match self {
            IdIndex::Dense { slots, len } => {
                let k = id.0 as usize;
                if k >= slots.len() {
                    if !dense_enough(id.0, *len + 1) {
                        self.make_sparse();
                        self.insert(id, index);
                        return;
                    }
                    slots.resize((k + 1).max(slots.len() * 3 / 2), ABSENT);
                }
                if slots[k] == ABSENT {
                    *len += 1;
                }
                slots[k] = index;
            }
            IdIndex::Sparse(map) => {
                map.insert(id, index);
            }
        }
    }

    /// Forget `id`.
    pub fn remove(&mut self, id: &NodeId) {
        match self {
            IdIndex::Dense { slots, len } => {
                if let Some(slot) = slots.get_mut(id.0 as usize)
                    && *slot != ABSENT
                {
                    *slot = ABSENT;
                    *len -= 1;
                }
            }
            IdIndex::Sparse(map) => {
                map.remove(id);
            }
        }
    }

    fn make_sparse(&mut self) {
        if let IdIndex::Dense { slots, .. } = self {
            let map = slots
                .iter()
                .enumerate()
                .filter(|(_, i)| **i != ABSENT)
                .map(|(id, i)| (NodeId(id as u32), *i))
                .collect();
            *self = IdIndex::Sparse(map);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_answer_alike() {
        let mut dense = IdIndex::default();
        for k in 1..100u32 {
            dense.insert(NodeId(k), k * 2);
        }
        assert!(matches!(dense, IdIndex::Dense { .. }));
        dense.remove(&NodeId(5));
        dense.remove(&NodeId(5));
        assert_eq!(dense.len(), 98);
        assert_eq!(dense.get(&NodeId(7)), Some(&14));
        assert_eq!(dense.get(&NodeId(5)), None);
        assert_eq!(dense.get(&NodeId(1_000_000)), None);
        // A far id turns it into a map, keeping every entry.
        dense.insert(NodeId(4_000_000_000), 1);
        assert!(matches!(dense, IdIndex::Sparse(_)));
        assert_eq!(dense.len(), 99);
        assert_eq!(dense.get(&NodeId(7)), Some(&14));
        assert_eq!(dense.get(&NodeId(4_000_000_000)), Some(&1));
        let map: FxHashMap<NodeId, u32> = [(NodeId(3), 0), (NodeId(9), 1)].into_iter().collect();
        let from = IdIndex::from_map(map);
        assert!(matches!(from, IdIndex::Dense { .. }));
        assert_eq!((from.get(&NodeId(9)), from.len()), (Some(&1), 2));
    }
}
