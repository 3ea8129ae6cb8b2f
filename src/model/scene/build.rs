//! Building a [`Scene`] from a flat node list (files, generators), validating every rule.

use super::{NO_PARENT, NodeData, NodeId, Scene};
use crate::error::{Error, Result};
use rustc_hash::{FxHashMap, FxHashSet};

/// One node as a flat list describes it: id, parent id and data. Sibling order = list order.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    /// The node's id, unique in the list.
    pub id: NodeId,
    /// The parent's id; `None` for a root. May name a node later in the list.
    pub parent: Option<NodeId>,
    /// Name, local transform and appearance.
    pub data: NodeData,
}

impl Scene {
    /// Build a scene from a flat list: checks numbers, duplicate ids, missing parents and cycles,
    /// then lays the nodes out in pre-order. Never recurses, so any depth works.
    // Long on purpose: the checks run in a fixed order (ids, parents, cycles, numbers) so the first
    // error reported is the one a person should fix first; each phase is a few lines.
    pub fn from_specs(specs: Vec<NodeSpec>) -> Result<Scene> {
        let n = specs.len();
        let mut slot_of: FxHashMap<NodeId, usize> = FxHashMap::default();
        slot_of.reserve(n);
        for (k, spec) in specs.iter().enumerate() {
            if let Some(field) = spec.data.local.first_non_finite() {
                return Err(Error::NotFinite {
                    node: spec.id,
                    field,
                });
            }
            if slot_of.insert(spec.id, k).is_some() {
                return Err(Error::DuplicateId(spec.id));
            }
        }
        let mut parent_slot = vec![usize::MAX; n];
        let mut child_count = vec![0u32; n + 1];
        for (k, spec) in specs.iter().enumerate() {
            if let Some(p) = spec.parent {
                let Some(&ps) = slot_of.get(&p) else {
                    return Err(Error::MissingParent {
                        node: spec.id,
                        parent: p,
                    });
                };
                parent_slot[k] = ps;
                child_count[ps] += 1;
            } else {
                child_count[n] += 1;
            }
        }
        // Children of every slot in list order (CSR); slot n is the virtual root.
        let mut start = vec![0usize; n + 2];
        for k in 0..=n {
            start[k + 1] = start[k] + child_count[k] as usize;
        }
        let mut fill = start.clone();
        let mut children = vec![0usize; n];
        for (k, &ps) in parent_slot.iter().enumerate() {
            let bucket = if ps == usize::MAX { n } else { ps };
            children[fill[bucket]] = k;
            fill[bucket] += 1;
        }
        // Iterative pre-order walk from the virtual root.
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = children[start[n]..start[n + 1]]
            .iter()
            .rev()
            .copied()
            .collect();
        while let Some(k) = stack.pop() {
            order.push(k);
            stack.extend(children[start[k]..start[k + 1]].iter().rev());
        }
        if order.len() < n {
            return Err(cycle_error(&specs, &parent_slot, &order));
        }
        let mut new_index = vec![0u32; n];
        for (i, &k) in order.iter().enumerate() {
            new_index[k] = i as u32;
        }
        let mut slots: Vec<Option<NodeSpec>> = specs.into_iter().map(Some).collect();
        let mut scene = Scene::new();
        scene.reserve(n);
        for &k in &order {
            let Some(spec) = slots[k].take() else {
                continue;
            };
            let parent = if parent_slot[k] == usize::MAX {
                NO_PARENT
            } else {
                new_index[parent_slot[k]]
            };
            scene.push_raw(spec.id, parent, spec.data);
        }
        scene.finish_bulk_build();
        Ok(scene)
    }

    fn reserve(&mut self, n: usize) {
        self.ids.reserve(n);
        self.data.reserve(n);
        self.parent.reserve(n);
        self.subtree_len.reserve(n);
        self.local_mat.reserve(n);
        self.world.reserve(n);
        self.index_of.reserve(n);
    }

    /// Append a node whose parent index (already pushed, or `NO_PARENT`) is known.
    fn push_raw(&mut self, id: NodeId, parent: u32, data: NodeData) {
        let i = self.ids.len() as u32;
        self.ids.push(id);
        self.parent.push(parent);
        self.subtree_len.push(1);
        let m = data.local.to_affine();
        self.local_mat.push(m);
        self.world.push(m);
        self.data.push(data);
        self.index_of.insert(id, i);
    }

    /// After `push_raw` calls: subtree lengths, the next free id, everything dirty.
    fn finish_bulk_build(&mut self) {
        for i in (0..self.len()).rev() {
            if let Some(p) = self.parent_index_at(i) {
                self.subtree_len[p] += self.subtree_len[i];
            }
        }
        self.next_id = self
            .ids
            .iter()
            .map(|id| id.0.saturating_add(1))
            .max()
            .unwrap_or(1)
            .max(1);
        self.mark_all_dirty();
        self.bump_version();
    }
}

/// Describe one parent loop among the nodes the walk from the roots never reached.
fn cycle_error(specs: &[NodeSpec], parent_slot: &[usize], reached: &[usize]) -> Error {
    let reached: FxHashSet<usize> = reached.iter().copied().collect();
    let first = (0..specs.len())
        .filter(|k| !reached.contains(k))
        .min_by_key(|&k| specs[k].id)
        .unwrap_or(0);
    // Follow parents until a slot repeats: everything from its first visit on is the loop.
    let mut seen: FxHashMap<usize, usize> = FxHashMap::default();
    let mut walk = Vec::new();
    let mut k = first;
    while let Some(&slot) = parent_slot.get(k) {
        if let Some(&at) = seen.get(&k) {
            walk.drain(..at);
            break;
        }
        seen.insert(k, walk.len());
        walk.push(k);
        k = slot;
    }
    let smallest = walk
        .iter()
        .enumerate()
        .min_by_key(|(_, k)| specs[**k].id)
        .map_or(0, |(pos, _)| pos);
    walk.rotate_left(smallest);
    let mut ids: Vec<String> = walk.iter().map(|&k| specs[k].id.to_string()).collect();
    if let Some(head) = ids.first().cloned() {
        ids.push(head);
    }
    Error::ParentCycle {
        node: walk.first().map_or(specs[first].id, |&k| specs[k].id),
        path: ids.join(" -> "),
    }
}
