//! The nodes' data and local matrices in pre-order: each node's own, or — for the nodes an
//! instance brings in — its source's node, held once per source in a shared part (issue 48:
//! sharing, not copying).
//!
//! A scene without shared nodes is one `Vec<NodeData>` and one `Vec<Affine2>` (exactly as
//! before: plain scenes cost nothing more, and the world update walks the same slice). Once a
//! shared node is added, every node gets a 4-byte reference: its own slot (data and matrix),
//! or (part, index). Changing a shared node's data first copies it to an own slot (copy on
//! write: an override), so the part and every other instance stay as they are.

use super::block::Cell;
use super::node_data::NodeData;
use crate::model::math::Trs;
use glam::Affine2;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `part` of a reference to an own slot.
const OWN: u32 = u32::MAX;
/// Parts a scene shares at most (7 bits); a source beyond them is copied.
pub(crate) const MAX_PARTS: usize = 128;
/// Nodes a part may have (24 bits; more than a file may hold).
const MAX_PART_NODES: usize = 1 << 24;

/// A node's data in 4 bytes: own slot `index` (top bit set), or node `index` of shared part
/// `part` (7 bits of part, 24 of index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ref(u32);

impl Ref {
    fn own(index: u32) -> Ref {
        Ref(index | 1 << 31)
    }

    fn shared(part: u32, index: u32) -> Ref {
        Ref(part << 24 | index)
    }

    /// (part, index), the part [`OWN`] for an own slot.
    #[inline]
    fn get(self) -> (u32, u32) {
        if self.0 >> 31 == 1 {
            (OWN, self.0 & !(1 << 31))
        } else {
            (self.0 >> 24, self.0 & (MAX_PART_NODES as u32 - 1))
        }
    }
}

/// One shared part: a source's nodes (its root first) and their local matrices, keyed by the
/// source's file.
#[derive(Clone, Debug)]
pub(crate) struct Part {
    /// The source file (absolute).
    pub(crate) key: PathBuf,
    /// Its nodes' data, in the source's pre-order.
    pub(crate) nodes: Arc<[NodeData]>,
    /// Their local matrices.
    mats: Arc<[Affine2]>,
}

fn mats_of(nodes: &[NodeData]) -> Arc<[Affine2]> {
    nodes.iter().map(|d| d.local.to_affine()).collect()
}

/// The references and parts, once any node is shared.
#[derive(Clone, Debug, Default)]
struct Shared {
    refs: Vec<Ref>,
    parts: Vec<Part>,
    /// Own slots no node uses (their data cleared).
    free: Vec<u32>,
}

/// Node data and local matrices in pre-order (see the module doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct Column {
    own: Vec<NodeData>,
    own_mat: Vec<Affine2>,
    shared: Option<Box<Shared>>,
}

impl From<Vec<NodeData>> for Column {
    fn from(own: Vec<NodeData>) -> Self {
        let own_mat = own.iter().map(|d| d.local.to_affine()).collect();
        Column {
            own,
            own_mat,
            shared: None,
        }
    }
}

impl PartialEq for Column {
    fn eq(&self, other: &Self) -> bool {
        match (&self.shared, &other.shared) {
            (None, None) => self.own == other.own,
            _ => self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i)),
        }
    }
}

/// Own slots: the data and the matrices.
struct Slots<'a> {
    own: &'a mut Vec<NodeData>,
    mats: &'a mut Vec<Affine2>,
}

impl Slots<'_> {
    /// Put `data` and its matrix in a slot of `free` (or a new one); its index.
    fn put(&mut self, free: &mut Vec<u32>, data: NodeData, mat: Affine2) -> u32 {
        match free.pop() {
            Some(slot) => {
                self.own[slot as usize] = data;
                self.mats[slot as usize] = mat;
                slot
            }
            None => {
                self.own.push(data);
                self.mats.push(mat);
                (self.own.len() - 1) as u32
            }
        }
    }

    /// Free a slot (its data cleared) into `free`.
    fn release(&mut self, free: &mut Vec<u32>, slot: u32) {
        self.own[slot as usize] = NodeData::default();
        free.push(slot);
    }
}

impl Column {
    /// Number of nodes.
    pub(crate) fn len(&self) -> usize {
        match &self.shared {
            None => self.own.len(),
            Some(s) => s.refs.len(),
        }
    }

    /// The data of node `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &NodeData {
        match &self.shared {
            None => &self.own[i],
            Some(s) => {
                let (part, index) = s.refs[i].get();
                if part == OWN {
                    &self.own[index as usize]
                } else {
                    &s.parts[part as usize].nodes[index as usize]
                }
            }
        }
    }

    /// The local matrix of node `i`.
    #[inline]
    pub(crate) fn local(&self, i: usize) -> Affine2 {
        match &self.shared {
            None => self.own_mat[i],
            Some(s) => {
                let (part, index) = s.refs[i].get();
                if part == OWN {
                    self.own_mat[index as usize]
                } else {
                    s.parts[part as usize].mats[index as usize]
                }
            }
        }
    }

    /// Every node's local matrix as one slice, when no node is shared (the world update's
    /// fast path).
    #[inline]
    pub(crate) fn dense_locals(&self) -> Option<&[Affine2]> {
        self.shared.is_none().then_some(&self.own_mat[..])
    }

    /// Split into the own slots and the references (made when missing).
    fn slots(&mut self) -> (Slots<'_>, &mut Shared) {
        let n = self.own.len() as u32;
        let s = self.shared.get_or_insert_with(|| {
            Box::new(Shared {
                refs: (0..n).map(Ref::own).collect(),
                ..Shared::default()
            })
        });
        let slots = Slots {
            own: &mut self.own,
            mats: &mut self.own_mat,
        };
        (slots, &mut **s)
    }

    /// The own slot of node `i`, a shared node's data and matrix copied to one first.
    fn own_slot_of(&mut self, i: usize) -> usize {
        let Some(s) = self.shared.as_deref_mut() else {
            return i;
        };
        let (part, index) = s.refs[i].get();
        if part == OWN {
            return index as usize;
        }
        let p = &s.parts[part as usize];
        let (data, mat) = (p.nodes[index as usize].clone(), p.mats[index as usize]);
        let mut slots = Slots {
            own: &mut self.own,
            mats: &mut self.own_mat,
        };
        let slot = slots.put(&mut s.free, data, mat);
        s.refs[i] = Ref::own(slot);
        slot as usize
    }

    /// The data of node `i` to change: a shared node's is copied to an own slot first.
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut NodeData {
        let slot = self.own_slot_of(i);
        &mut self.own[slot]
    }

    /// Set node `i`'s local matrix (a shared node's copied to an own slot first).
    pub(crate) fn set_local(&mut self, i: usize, m: Affine2) {
        let slot = self.own_slot_of(i);
        self.own_mat[slot] = m;
    }

    /// Pose node `index` of part `k` (playing a clip, not an edit): its local and matrix set
    /// for every node that shows it, so the instances stay shared. The part is copied first
    /// when something else holds it too.
    pub(crate) fn pose_part(&mut self, k: u32, index: u32, local: Trs) {
        let Some(s) = self.shared.as_deref_mut() else {
            return;
        };
        let part = &mut s.parts[k as usize];
        Arc::make_mut(&mut part.nodes)[index as usize].local = local;
        Arc::make_mut(&mut part.mats)[index as usize] = local.to_affine();
    }

    /// Nodes in part `k` (0 when there is none).
    pub(crate) fn part_len(&self, k: u32) -> usize {
        (self.shared.as_ref())
            .and_then(|s| s.parts.get(k as usize))
            .map_or(0, |p| p.nodes.len())
    }

    /// The part and index node `i` shows, when it is shared.
    pub(crate) fn shared_at(&self, i: usize) -> Option<(u32, u32)> {
        let (part, index) = self.shared.as_ref()?.refs[i].get();
        (part != OWN).then_some((part, index))
    }

    /// The part keyed `key`, added with `nodes()` when missing: its number. None when the
    /// scene shares [`MAX_PARTS`] already or the part is too big (its nodes are then copied).
    pub(crate) fn part(
        &mut self,
        key: &Path,
        nodes: impl FnOnce() -> Arc<[NodeData]>,
    ) -> Option<u32> {
        let (_, s) = self.slots();
        if let Some(k) = s.parts.iter().position(|p| p.key == key) {
            return Some(k as u32);
        }
        let nodes = nodes();
        if s.parts.len() >= MAX_PARTS || nodes.len() >= MAX_PART_NODES {
            return None;
        }
        let mats = mats_of(&nodes);
        s.parts.push(Part {
            key: key.to_path_buf(),
            nodes,
            mats,
        });
        Some((s.parts.len() - 1) as u32)
    }

    /// The part keyed `key`, if there is one.
    pub(crate) fn find_part(&self, key: &Path) -> Option<(u32, &Arc<[NodeData]>)> {
        let s = self.shared.as_ref()?;
        let k = s.parts.iter().position(|p| p.key == key)?;
        Some((k as u32, &s.parts[k].nodes))
    }

    /// Give part `k` new nodes (of the same count); returns the old ones.
    pub(crate) fn replace_part(&mut self, k: u32, nodes: Arc<[NodeData]>) -> Arc<[NodeData]> {
        let (_, s) = self.slots();
        let part = &mut s.parts[k as usize];
        part.mats = mats_of(&nodes);
        std::mem::replace(&mut part.nodes, nodes)
    }

    /// Make node `i` show node `index` of part `part` again (its own slot freed).
    pub(crate) fn share(&mut self, i: usize, part: u32, index: u32) {
        let (mut slots, s) = self.slots();
        let (was, slot) = std::mem::replace(&mut s.refs[i], Ref::shared(part, index)).get();
        if was == OWN {
            slots.release(&mut s.free, slot);
        }
    }

    /// Add a node that shows node `index` of part `part`.
    pub(crate) fn push_shared(&mut self, part: u32, index: u32) {
        self.slots().1.refs.push(Ref::shared(part, index));
    }

    /// Insert nodes with their own data and local matrices at `pos`.
    pub(crate) fn splice(&mut self, pos: usize, data: Vec<NodeData>, mats: Vec<Affine2>) {
        if self.shared.is_none() {
            self.own.splice(pos..pos, data);
            self.own_mat.splice(pos..pos, mats);
            return;
        }
        let (mut slots, s) = self.slots();
        let refs: Vec<Ref> = (data.into_iter().zip(mats))
            .map(|(d, m)| Ref::own(slots.put(&mut s.free, d, m)))
            .collect();
        s.refs.splice(pos..pos, refs);
    }

    /// Add `other`'s nodes after these (own data moved, shared nodes copied).
    pub(crate) fn append(&mut self, other: Column) {
        let len = self.len();
        match other.shared {
            None => self.splice(len, other.own, other.own_mat),
            Some(_) => {
                let copies = other.to_vec(0..other.len());
                let mats = (0..other.len()).map(|i| other.local(i)).collect();
                self.splice(len, copies, mats);
            }
        }
    }

    /// Copies of the data of nodes `range`.
    pub(crate) fn to_vec(&self, range: Range<usize>) -> Vec<NodeData> {
        match &self.shared {
            None => self.own[range].to_vec(),
            Some(_) => range.map(|i| self.get(i).clone()).collect(),
        }
    }

    /// Remove nodes `range` (their own slots freed).
    pub(crate) fn drain(&mut self, range: Range<usize>) {
        if self.shared.is_none() {
            self.own.drain(range.clone());
            self.own_mat.drain(range);
            return;
        }
        let (mut slots, s) = self.slots();
        for r in s.refs.drain(range) {
            let (part, slot) = r.get();
            if part == OWN {
                slots.release(&mut s.free, slot);
            }
        }
    }

    /// Rotate the nodes of `window` left by `amount` (a move keeping pre-order).
    pub(crate) fn rotate_left(&mut self, window: Range<usize>, amount: usize) {
        match &mut self.shared {
            None => {
                self.own[window.clone()].rotate_left(amount);
                self.own_mat[window].rotate_left(amount);
            }
            Some(s) => s.refs[window].rotate_left(amount),
        }
    }

    /// The column with its nodes in `order` (node `order[i]` becomes node `i`).
    pub(crate) fn permuted(self, order: &[usize]) -> Column {
        match self.shared {
            None => {
                let mut slots: Vec<Option<NodeData>> = self.own.into_iter().map(Some).collect();
                let own = order.iter().filter_map(|&k| slots[k].take()).collect();
                let own_mat = order.iter().map(|&k| self.own_mat[k]).collect();
                Column {
                    own,
                    own_mat,
                    shared: None,
                }
            }
            Some(mut s) => {
                s.refs = order.iter().map(|&k| s.refs[k]).collect();
                Column {
                    own: self.own,
                    own_mat: self.own_mat,
                    shared: Some(s),
                }
            }
        }
    }

    /// The column rebuilt in one pass (a follow that reshaped instances): node `i` of the
    /// result is `cells[i]`: an old node with its data as it is (own slot kept, shared ref
    /// kept), node `j` of part `part`, or `own[x]` in a new own slot. Old own slots no cell
    /// keeps are freed; part `part` then holds `nodes`.
    pub(crate) fn reshape(
        &mut self,
        cells: &[Cell],
        mut own: Vec<Option<NodeData>>,
        part: u32,
        nodes: Arc<[NodeData]>,
    ) {
        let old_len = self.len();
        let (mut slots, s) = self.slots();
        let mut kept = vec![false; old_len];
        for c in cells {
            if let Cell::Old(k) = c {
                kept[*k as usize] = true;
            }
        }
        for (k, r) in s.refs.iter().enumerate() {
            let (p, slot) = r.get();
            if p == OWN && !kept[k] {
                slots.release(&mut s.free, slot);
            }
        }
        let mut refs = Vec::with_capacity(cells.len());
        for c in cells {
            refs.push(match *c {
                Cell::Old(k) => s.refs[k as usize],
                Cell::Shared(j) => Ref::shared(part, j),
                Cell::Own(x) => {
                    let data = own[x as usize].take().unwrap_or_default();
                    let mat = data.local.to_affine();
                    Ref::own(slots.put(&mut s.free, data, mat))
                }
            });
        }
        s.refs = refs;
        let p = &mut s.parts[part as usize];
        p.mats = mats_of(&nodes);
        p.nodes = nodes;
    }

    /// Call `f` on every own node's data and every shared part's node (each part once,
    /// copied when `f` changes it); the sum of what `f` returns. `f` must not change locals.
    pub(crate) fn map_all(&mut self, f: &mut dyn FnMut(&mut NodeData) -> usize) -> usize {
        let mut sum: usize = self.own.iter_mut().map(&mut *f).sum();
        if let Some(s) = &mut self.shared {
            for part in &mut s.parts {
                let mut nodes = part.nodes.to_vec();
                let changed: usize = nodes.iter_mut().map(&mut *f).sum();
                if changed > 0 {
                    part.nodes = nodes.into();
                    sum += changed;
                }
            }
        }
        sum
    }

    /// Allocated elements: own data, own matrices, references; and the parts' nodes.
    pub(crate) fn capacities(&self) -> (usize, usize, usize, Vec<&NodeData>) {
        let refs = self.shared.as_ref().map_or(0, |s| s.refs.capacity());
        let parts = (self.shared.iter())
            .flat_map(|s| s.parts.iter().flat_map(|p| p.nodes.iter()))
            .collect();
        (self.own.capacity(), self.own_mat.capacity(), refs, parts)
    }

    /// Own data (free slots included), for accounting.
    pub(crate) fn own_data(&self) -> &[NodeData] {
        &self.own
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> NodeData {
        NodeData::named(name, crate::model::math::Trs::IDENTITY)
    }

    /// Shared nodes read their part; a change copies one first; removed own slots are reused.
    #[test]
    fn shared_nodes_are_copied_on_write_and_own_slots_reused() {
        let mut c = Column::from(vec![named("a")]);
        let part = c.part(Path::new("/p.ron"), || vec![named("x"), named("y")].into());
        let k = part.expect("a part");
        c.push_shared(k, 1);
        c.push_shared(k, 1);
        assert_eq!((c.get(0).name.as_str(), c.get(1).name.as_str()), ("a", "y"));
        assert_eq!(c.shared_at(1), Some((k, 1)));
        c.get_mut(1).name = "z".into();
        assert_eq!((c.get(1).name.as_str(), c.get(2).name.as_str()), ("z", "y"));
        assert_eq!(c.shared_at(1), None);
        let (_, nodes) = c.find_part(Path::new("/p.ron")).expect("the part");
        assert_eq!(nodes[1].name, "y", "the part is unchanged");
        c.drain(1..2);
        assert_eq!((c.len(), c.get(1).name.as_str()), (2, "y"));
        let own = c.own_data().len();
        c.splice(1, vec![named("w")], vec![Affine2::IDENTITY]);
        assert_eq!(c.own_data().len(), own, "the freed slot is reused");
        let c = c.permuted(&[2, 0, 1]);
        let names: Vec<&str> = (0..3).map(|i| c.get(i).name.as_str()).collect();
        assert_eq!(names, ["y", "a", "w"]);
    }

    /// Past [`MAX_PARTS`] a source is not shared (its nodes are copied by the caller).
    #[test]
    fn a_scene_shares_at_most_max_parts() {
        let mut c = Column::default();
        for k in 0..MAX_PARTS {
            let key = PathBuf::from(format!("/{k}.ron"));
            assert_eq!(c.part(&key, || vec![named("x")].into()), Some(k as u32));
        }
        assert_eq!(
            c.part(Path::new("/more.ron"), || vec![named("x")].into()),
            None
        );
        assert_eq!(
            c.part(Path::new("/3.ron"), || vec![named("x")].into()),
            Some(3)
        );
    }
}
