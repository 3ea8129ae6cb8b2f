//! Building a [`Scene`] from a flat node list (files, generators), validating every rule.

use super::column::Column;
use super::node_data::NodeData;
use super::node_id::NodeId;
use super::store::NO_PARENT;
use super::types::Scene;
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
    pub fn from_specs(specs: Vec<NodeSpec>) -> Result<Scene> {
        let n = specs.len();
        let (mut ids, mut parents, mut data) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for spec in specs {
            ids.push(spec.id);
            parents.push(spec.parent);
            data.push(spec.data);
        }
        Scene::from_columns(ids, &parents, data.into())
    }

    /// [`from_specs`](Self::from_specs) from the list's columns (`ids[k]`, `parents[k]` and
    /// `data[k]` describe node `k`; the three have one length). A list already in pre-order
    /// (every file graft saves) keeps its arrays: `ids` and `data` become the scene's own,
    /// and the id map built while checking ids becomes its index. The checks run in a fixed
    /// order (numbers and ids, parents, cycles) so the first error reported is the one a
    /// person should fix first.
    pub(crate) fn from_columns(
        ids: Vec<NodeId>,
        parents: &[Option<NodeId>],
        data: Column,
    ) -> Result<Scene> {
        debug_assert!(parents.len() == ids.len() && data.len() == ids.len());
        if let Some(k) =
            (0..data.len()).position(|k| data.get(k).name.len() > super::name::MAX_NAME_BYTES)
        {
            let why = super::name::check_name(&data.get(k).name).err();
            return Err(Error::Format(format!(
                "node {}: {}",
                ids[k].0,
                why.map_or_else(String::new, |e| e.to_string())
            )));
        }
        let slot_of = slot_map(&ids, &data)?;
        if let Some(parent) = preorder_parents(&ids, parents) {
            // Already in pre-order: slot k is index k.
            return Ok(Scene::laid_out(ids, parent, data, slot_of));
        }
        let (parent_slot, child_count) = parent_slots(&ids, parents, &slot_of)?;
        let order = preorder_slots(&parent_slot, &child_count);
        if order.len() < ids.len() {
            return Err(cycle_error(&ids, &parent_slot, &order));
        }
        Ok(Scene::reordered(ids, data, slot_of, &parent_slot, &order))
    }

    /// The scene with list slots laid out in pre-`order`: parents, ids and data moved, and
    /// the id map (`slot_of`) turned into the index.
    fn reordered(
        ids: Vec<NodeId>,
        data: Column,
        mut slot_of: FxHashMap<NodeId, u32>,
        parent_slot: &[u32],
        order: &[usize],
    ) -> Scene {
        let mut new_index = vec![0u32; ids.len()];
        for (i, &k) in order.iter().enumerate() {
            new_index[k] = i as u32;
        }
        let parent = order
            .iter()
            .map(|&k| match parent_slot[k] {
                NO_PARENT => NO_PARENT,
                ps => new_index[ps as usize],
            })
            .collect();
        let ids_in_order = order.iter().map(|&k| ids[k]).collect();
        let data_in_order = data.permuted(order);
        for index in slot_of.values_mut() {
            *index = new_index[*index as usize];
        }
        Scene::laid_out(ids_in_order, parent, data_in_order, slot_of)
    }

    /// A scene from arrays already in pre-order (`parent`: indices, `NO_PARENT` for roots;
    /// `index_of`: id → index).
    fn laid_out(
        ids: Vec<NodeId>,
        parent: Vec<u32>,
        data: Column,
        index_of: FxHashMap<NodeId, u32>,
    ) -> Scene {
        // The world matrices start as the locals (every node is dirty).
        let world: Vec<_> = match data.dense_locals() {
            Some(locals) => locals.to_vec(),
            None => (0..data.len()).map(|i| data.local(i)).collect(),
        };
        let mut scene = Scene {
            subtree_len: vec![1; ids.len()],
            world,
            ids,
            parent,
            data,
            index_of: super::id_index::IdIndex::from_map(index_of),
            ..Scene::default()
        };
        scene.finish_bulk_build();
        scene
    }

    /// After laying out the arrays: subtree lengths, the next free id, everything dirty.
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

/// Id → list slot, refusing the first node with a non-finite local or a repeated id.
fn slot_map(ids: &[NodeId], data: &Column) -> Result<FxHashMap<NodeId, u32>> {
    let mut slot_of: FxHashMap<NodeId, u32> = FxHashMap::default();
    slot_of.reserve(ids.len());
    for (k, &id) in ids.iter().enumerate() {
        let node = data.get(k);
        if let Some(field) = node.local.first_non_finite() {
            return Err(Error::NotFinite { node: id, field });
        }
        if slot_of.insert(id, k as u32).is_some() {
            return Err(Error::DuplicateId(id));
        }
    }
    Ok(slot_of)
}

/// Each node's parent slot (`NO_PARENT` for roots) and each slot's child count (slot
/// `ids.len()` counts the roots); refuses the first parent that is not in the list.
fn parent_slots(
    ids: &[NodeId],
    parents: &[Option<NodeId>],
    slot_of: &FxHashMap<NodeId, u32>,
) -> Result<(Vec<u32>, Vec<u32>)> {
    let n = ids.len();
    let mut parent_slot = vec![NO_PARENT; n];
    let mut child_count = vec![0u32; n + 1];
    for (k, (&id, &parent)) in ids.iter().zip(parents).enumerate() {
        if let Some(p) = parent {
            let Some(&ps) = slot_of.get(&p) else {
                return Err(Error::MissingParent {
                    node: id,
                    parent: p,
                });
            };
            parent_slot[k] = ps;
            child_count[ps as usize] += 1;
        } else {
            child_count[n] += 1;
        }
    }
    Ok((parent_slot, child_count))
}

/// The slots in pre-order, children in list order, by an iterative walk from the roots;
/// slots in a parent loop are never reached, so the result is then shorter than the list.
fn preorder_slots(parent_slot: &[u32], child_count: &[u32]) -> Vec<usize> {
    let n = parent_slot.len();
    // Children of every slot in list order (CSR); slot n is the virtual root.
    let mut start = vec![0usize; n + 2];
    for k in 0..=n {
        start[k + 1] = start[k] + child_count[k] as usize;
    }
    let mut fill = start.clone();
    let mut children = vec![0usize; n];
    for (k, &ps) in parent_slot.iter().enumerate() {
        let bucket = if ps == NO_PARENT { n } else { ps as usize };
        children[fill[bucket]] = k;
        fill[bucket] += 1;
    }
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
    order
}

/// The parent index of every node when the list is already in pre-order (each node's parent is
/// the last node before it on the current path from a root, so the walk from the roots visits
/// the list in order), or `None` when it is not (then the general path sorts it, or reports
/// the missing parent or the cycle). One pass with a stack of ids, no hashing.
fn preorder_parents(ids: &[NodeId], parents: &[Option<NodeId>]) -> Option<Vec<u32>> {
    let mut parent = Vec::with_capacity(ids.len());
    let mut path: Vec<u32> = Vec::new();
    for (k, &p) in parents.iter().enumerate() {
        match p {
            None => {
                path.clear();
                parent.push(NO_PARENT);
            }
            Some(p) => {
                while path.last().is_some_and(|&top| ids[top as usize] != p) {
                    path.pop();
                }
                parent.push(*path.last()?);
            }
        }
        path.push(k as u32);
    }
    Some(parent)
}

/// Describe one parent loop among the nodes the walk from the roots never reached.
fn cycle_error(ids: &[NodeId], parent_slot: &[u32], reached: &[usize]) -> Error {
    let reached: FxHashSet<usize> = reached.iter().copied().collect();
    let first = (0..ids.len())
        .filter(|k| !reached.contains(k))
        .min_by_key(|&k| ids[k])
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
        k = slot as usize;
    }
    let smallest = walk
        .iter()
        .enumerate()
        .min_by_key(|(_, k)| ids[**k])
        .map_or(0, |(pos, _)| pos);
    walk.rotate_left(smallest);
    let mut names: Vec<String> = walk.iter().map(|&k| ids[k].to_string()).collect();
    if let Some(head) = names.first().cloned() {
        names.push(head);
    }
    Error::ParentCycle {
        node: walk.first().map_or(ids[first], |&k| ids[k]),
        path: names.join(" -> "),
    }
}
