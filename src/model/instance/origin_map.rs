//! Node id → [`Origin`] for every expanded node: an array from the smallest id while the ids
//! are dense (8 bytes a node; the ids an expansion gives out are consecutive), a hash map
//! otherwise (~27 bytes a node with the map's slack). Both answer the same questions.

use super::ids::Origin;
use crate::model::scene::NodeId;
use rustc_hash::FxHashMap;

/// Marks a slot with no origin.
const ABSENT: u32 = u32::MAX;

/// The array may span this many times the number of origins (plus some slack).
const DENSE_FACTOR: usize = 4;
const DENSE_SLACK: usize = 1024;

/// One slot: the instance root's id and the index in its source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    root: u32,
    index: u32,
}

const EMPTY: Slot = Slot {
    root: ABSENT,
    index: 0,
};

/// Node id → origin.
#[derive(Clone, Debug)]
pub(crate) enum OriginMap {
    /// `slots[id - base]`; `len` present.
    Dense {
        base: u32,
        slots: Vec<Slot>,
        len: usize,
    },
    /// Scattered ids.
    Sparse(FxHashMap<NodeId, Origin>),
}

impl Default for OriginMap {
    fn default() -> Self {
        OriginMap::Dense {
            base: 0,
            slots: Vec::new(),
            len: 0,
        }
    }
}

fn origin(s: Slot) -> Option<Origin> {
    (s.root != ABSENT).then_some(Origin {
        root: NodeId(s.root),
        index: s.index,
    })
}

impl OriginMap {
    /// The origin of `id`.
    pub(crate) fn get(&self, id: &NodeId) -> Option<Origin> {
        match self {
            OriginMap::Dense { base, slots, .. } => {
                let k = id.0.checked_sub(*base)? as usize;
                slots.get(k).copied().and_then(origin)
            }
            OriginMap::Sparse(map) => map.get(id).copied(),
        }
    }

    /// True when `id` has an origin.
    pub(crate) fn contains_key(&self, id: &NodeId) -> bool {
        self.get(id).is_some()
    }

    /// How many ids have an origin.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        match self {
            OriginMap::Dense { len, .. } => *len,
            OriginMap::Sparse(map) => map.len(),
        }
    }

    /// Set the origin of `id`.
    pub(crate) fn insert(&mut self, id: NodeId, o: Origin) {
        if let OriginMap::Dense { base, slots, len } = self
            && let Some(slot) = (id.0.checked_sub(*base)).and_then(|k| slots.get_mut(k as usize))
            && *len > 0
        {
            // Inside the array already (a follow rewriting every instance's origins).
            *len += usize::from(slot.root == ABSENT);
            *slot = Slot {
                root: o.root.0,
                index: o.index,
            };
            return;
        }
        if let OriginMap::Dense { base, slots, len } = self {
            let (lo, hi) = if *len == 0 {
                (id.0, id.0)
            } else {
                (id.0.min(*base), id.0.max(*base + slots.len() as u32 - 1))
            };
            let span = (hi - lo) as usize + 1;
            if span < (*len + 1) * DENSE_FACTOR + DENSE_SLACK {
                if *len == 0 {
                    slots.clear();
                    *base = id.0;
                } else if lo < *base {
                    let grow = (*base - lo) as usize;
                    slots.splice(0..0, std::iter::repeat_n(EMPTY, grow));
                    *base = lo;
                }
                let k = (id.0 - *base) as usize;
                if k >= slots.len() {
                    slots.resize(k + 1, EMPTY);
                }
                *len += usize::from(slots[k].root == ABSENT);
                slots[k] = Slot {
                    root: o.root.0,
                    index: o.index,
                };
                return;
            }
            *self = OriginMap::Sparse(self.iter().collect());
        }
        if let OriginMap::Sparse(map) = self {
            map.insert(id, o);
        }
    }

    /// Take away the origin of `id`.
    pub(crate) fn remove(&mut self, id: &NodeId) -> Option<Origin> {
        match self {
            OriginMap::Dense { base, slots, len } => {
                let k = id.0.checked_sub(*base)? as usize;
                let slot = slots.get_mut(k)?;
                let old = origin(*slot)?;
                *slot = EMPTY;
                *len -= 1;
                Some(old)
            }
            OriginMap::Sparse(map) => map.remove(id),
        }
    }

    /// Keep only the origins `keep` accepts.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&NodeId, &Origin) -> bool) {
        match self {
            OriginMap::Dense { base, slots, len } => {
                for (k, slot) in slots.iter_mut().enumerate() {
                    if let Some(o) = origin(*slot)
                        && !keep(&NodeId(*base + k as u32), &o)
                    {
                        *slot = EMPTY;
                        *len -= 1;
                    }
                }
            }
            OriginMap::Sparse(map) => map.retain(|id, o| keep(id, o)),
        }
    }

    /// Every (id, origin).
    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = (NodeId, Origin)> + '_> {
        match self {
            OriginMap::Dense { base, slots, .. } => Box::new(
                (slots.iter().enumerate())
                    .filter_map(move |(k, s)| Some((NodeId(*base + k as u32), origin(*s)?))),
            ),
            OriginMap::Sparse(map) => Box::new(map.iter().map(|(id, o)| (*id, *o))),
        }
    }

    /// Allocated bytes (for `graft bench instances`).
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            OriginMap::Dense { slots, .. } => (slots.capacity() * size_of::<Slot>()) as u64,
            OriginMap::Sparse(map) => {
                crate::model::scene::bytes::map_bytes(map.capacity(), size_of::<(NodeId, Origin)>())
            }
        }
    }
}

impl Extend<(NodeId, Origin)> for OriginMap {
    fn extend<T: IntoIterator<Item = (NodeId, Origin)>>(&mut self, iter: T) {
        for (id, o) in iter {
            self.insert(id, o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense array and the map answer alike, through inserts, removals and a switch.
    #[test]
    fn dense_and_sparse_answer_alike() {
        let mut map = OriginMap::default();
        let mut oracle: FxHashMap<NodeId, Origin> = FxHashMap::default();
        let ids = [50u32, 51, 49, 60, 10, 52, 3_000_000, 53, 48];
        for (n, &id) in ids.iter().enumerate() {
            let o = Origin {
                root: NodeId(7),
                index: n as u32 + 1,
            };
            map.insert(NodeId(id), o);
            oracle.insert(NodeId(id), o);
            if n == 5 {
                map.remove(&NodeId(51));
                oracle.remove(&NodeId(51));
            }
            map.retain(|id, _| id.0 != 60);
            oracle.retain(|id, _| id.0 != 60);
            assert_eq!(map.len(), oracle.len());
            for probe in [0u32, 3, 10, 48, 49, 50, 51, 52, 53, 60, 61, 3_000_000] {
                let id = NodeId(probe);
                assert_eq!(map.get(&id), oracle.get(&id).copied(), "id {probe}");
            }
            let mut all: Vec<_> = map.iter().collect();
            all.sort_by_key(|(id, _)| *id);
            let mut want: Vec<_> = oracle.iter().map(|(i, o)| (*i, *o)).collect();
            want.sort_by_key(|(id, _)| *id);
            assert_eq!(all, want);
        }
        assert!(
            matches!(map, OriginMap::Sparse(_)),
            "the far id made it a map"
        );
    }
}
