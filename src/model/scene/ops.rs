//! Structural edits: add, remove, re-insert and reparent (which also reorders). Each keeps the
//! pre-order layout by moving one contiguous range, and each refusal changes nothing.

use super::node_data::NodeData;
use super::node_id::NodeId;
use super::store::NO_PARENT;
use super::types::Scene;
use crate::error::{Error, Result};
use crate::model::math::{Trs, decompose_like, try_inverse};
use glam::Affine2;

/// Old pre-order index → new, after a block move.
type IndexMap = Box<dyn Fn(usize) -> usize>;

/// A subtree taken out of a scene (or copied from one), ready to be put back.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct DetachedSubtree {
    /// Where it goes back: the parent (None = a root)…
    pub parent: Option<NodeId>,
    /// …and the position among that parent's children.
    pub index: usize,
    /// Ids in pre-order; the first is the subtree's root.
    pub ids: Vec<NodeId>,
    /// Node data in pre-order.
    pub data: Vec<NodeData>,
    /// Parent of each node as an index into `ids` (`u32::MAX` for the root).
    pub parents: Vec<u32>,
}

impl DetachedSubtree {
    /// The id of the subtree's root.
    pub fn root(&self) -> NodeId {
        self.ids[0]
    }

    /// Give every node a new id, counting up from `first` (for paste and duplicate).
    pub fn renumber(&mut self, first: NodeId) {
        for (k, id) in self.ids.iter_mut().enumerate() {
            *id = NodeId(first.0.saturating_add(k as u32));
        }
    }
}

/// What a reparent keeps of the moved node: its world transform (Unity's
/// `worldPositionStays: true`, Godot's `keep_global_transform`) or its local numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// The world transform: the new local is solved so nothing moves on screen.
    World,
    /// The local numbers: they stay, so the node moves with its new parent.
    Local,
}

impl Keep {
    /// [`Keep::World`] when `keep_world` is true (the editor's keep-world setting), else
    /// [`Keep::Local`].
    pub fn world_if(keep_world: bool) -> Self {
        if keep_world { Keep::World } else { Keep::Local }
    }

    /// The other choice (what Shift gives, what the faint ghosts show).
    pub fn other(self) -> Self {
        match self {
            Keep::World => Keep::Local,
            Keep::Local => Keep::World,
        }
    }
}

/// What a reparent changed, enough to undo it exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReparentUndo {
    /// The node that moved.
    pub node: NodeId,
    /// Its parent before.
    pub old_parent: Option<NodeId>,
    /// Its sibling index before.
    pub old_index: usize,
    /// Its local transform before.
    pub old_local: Trs,
}

impl Scene {
    /// The first id from `next_id` on that no node uses (nothing is reserved).
    fn free_id(&self) -> NodeId {
        let mut id = self.next_id;
        while self.contains(NodeId(id)) {
            id = id.wrapping_add(1);
        }
        NodeId(id)
    }

    fn describe_parent(&self, parent: Option<usize>) -> String {
        parent.map_or("the scene root".into(), |p| format!("node {}", self.ids[p]))
    }

    /// The pre-order position where the `index`-th child of `parent` goes, not counting the
    /// subtree rooted at `skip` (the node being moved). `None` = after the last child.
    fn insertion_point(
        &self,
        parent: Option<usize>,
        index: Option<usize>,
        skip: Option<usize>,
    ) -> Result<usize> {
        let end = parent.map_or(self.len(), |p| p + self.subtree_len_at(p));
        let mut k = 0;
        for c in self.child_indices(parent) {
            if Some(c) == skip {
                continue;
            }
            if Some(k) == index {
                return Ok(c);
            }
            k += 1;
        }
        match index {
            Some(i) if i > k => Err(Error::IndexOutOfRange {
                index: i,
                count: k,
                parent: self.describe_parent(parent),
            }),
            _ => Ok(end),
        }
    }

    /// Add `delta` to the subtree length of `from` and all its ancestors.
    fn grow_ancestors(&mut self, from: Option<usize>, delta: i64) {
        let mut at = from;
        while let Some(a) = at {
            self.subtree_len[a] = (self.subtree_len[a] as i64 + delta) as u32;
            at = self.parent_index_at(a);
        }
    }

    fn refresh_index_of(&mut self, range: std::ops::Range<usize>) {
        for i in range {
            self.index_of.insert(self.ids[i], i as u32);
        }
    }

    /// Add a node under `parent` (None = a root) at sibling `index` (None = last). Returns its id.
    pub fn add_node(
        &mut self,
        parent: Option<NodeId>,
        index: Option<usize>,
        data: NodeData,
    ) -> Result<NodeId> {
        let id = self.free_id();
        self.add_node_with_id(id, parent, index, data)?;
        self.next_id = id.0.wrapping_add(1);
        Ok(id)
    }

    /// Add a node with a chosen id (refused if the id is taken).
    pub fn add_node_with_id(
        &mut self,
        id: NodeId,
        parent: Option<NodeId>,
        index: Option<usize>,
        data: NodeData,
    ) -> Result<()> {
        let subtree = DetachedSubtree {
            parent,
            index: 0,
            ids: vec![id],
            data: vec![data],
            parents: vec![NO_PARENT],
        };
        self.insert_at(subtree, index)
    }

    /// Put a detached subtree back at its recorded parent and index.
    pub fn insert_subtree(&mut self, subtree: DetachedSubtree) -> Result<()> {
        let index = subtree.index;
        self.insert_at(subtree, Some(index))
    }

    /// Insert a detached subtree at sibling `index` (None = last) of its recorded parent;
    /// refused, with nothing changed, if it is malformed or clashes with the scene.
    fn insert_at(&mut self, subtree: DetachedSubtree, index: Option<usize>) -> Result<()> {
        check_well_formed(&subtree)?;
        let p = subtree.parent.map(|id| self.index(id)).transpose()?;
        self.check_insertable_nodes(&subtree)?;
        let pos = self.insertion_point(p, index, None)?;
        let k = subtree.ids.len();
        self.grow_ancestors(p, k as i64);
        self.shift_indices_from(pos, k as u32);
        let locals = self.splice_structure(pos, p, &subtree);
        if let Some(max) = subtree.ids.iter().map(|id| id.0).max() {
            self.next_id = self.next_id.max(max.saturating_add(1));
        }
        self.ids.splice(pos..pos, subtree.ids);
        self.data.splice(pos, subtree.data, locals);
        self.refresh_index_of(pos..self.len());
        self.mark_dirty(pos);
        self.bump_version();
        Ok(())
    }

    /// Refuse a subtree whose ids are in the scene or repeated, or holding what the setters
    /// refuse: a local, shape or probe that is not finite, a name too long, a bad track.
    fn check_insertable_nodes(&self, subtree: &DetachedSubtree) -> Result<()> {
        let mut seen = rustc_hash::FxHashSet::default();
        for (id, data) in subtree.ids.iter().zip(&subtree.data) {
            if self.contains(*id) || !seen.insert(*id) {
                return Err(Error::DuplicateId(*id));
            }
            if let Some(field) = data.local.first_non_finite() {
                return Err(Error::NotFinite { node: *id, field });
            }
            // What the setters refuse, a journal's insert must not bring in either (a scene
            // that saves but does not load back).
            if !data.shape.is_finite() {
                let field = "shape";
                return Err(Error::NotFinite { node: *id, field });
            }
            if data.probes.iter().any(|p| !p.is_finite()) {
                let field = "probe";
                return Err(Error::NotFinite { node: *id, field });
            }
            super::name::check_name(&data.name)?;
            Scene::check_tracks(*id, &data.tracks)?;
        }
        Ok(())
    }

    /// Make room for `k` nodes at `pos`: stored parent and dirty-root indices from `pos` on
    /// move up by `k`.
    fn shift_indices_from(&mut self, pos: usize, k: u32) {
        for parent in &mut self.parent[pos..] {
            if *parent != NO_PARENT && *parent as usize >= pos {
                *parent += k;
            }
        }
        for r in &mut self.dirty_roots {
            if *r as usize >= pos {
                *r += k;
            }
        }
    }

    /// Splice the subtree's parents (under scene index `p`), matrices and subtree lengths
    /// into the columns at `pos`.
    /// Returns the subtree's local matrices (the data column takes them with the data).
    fn splice_structure(
        &mut self,
        pos: usize,
        p: Option<usize>,
        subtree: &DetachedSubtree,
    ) -> Vec<Affine2> {
        let k = subtree.ids.len();
        let parents = subtree.parents.iter().map(|&rel| match rel {
            NO_PARENT => p.map_or(NO_PARENT, |p| p as u32),
            rel => pos as u32 + rel,
        });
        self.parent.splice(pos..pos, parents);
        let locals: Vec<Affine2> = subtree.data.iter().map(|d| d.local.to_affine()).collect();
        self.world.splice(pos..pos, locals.iter().copied());
        self.subtree_len.splice(pos..pos, std::iter::repeat_n(1, k));
        for j in (pos..pos + k).rev() {
            if let Some(q) = self.parent_index_at(j).filter(|&q| q >= pos) {
                self.subtree_len[q] += self.subtree_len[j];
            }
        }
        locals
    }

    /// A copy of the subtree rooted at `id`, with its parent and index (the scene is unchanged).
    pub fn copy_subtree(&self, id: NodeId) -> Result<DetachedSubtree> {
        let s = self.index(id)?;
        let e = s + self.subtree_len_at(s);
        Ok(DetachedSubtree {
            parent: self.parent_index_at(s).map(|p| self.ids[p]),
            index: self.sibling_index(id)?,
            ids: self.ids[s..e].to_vec(),
            data: self.data.to_vec(s..e),
            parents: self.parent[s..e]
                .iter()
                .enumerate()
                .map(|(k, &p)| if k == 0 { NO_PARENT } else { p - s as u32 })
                .collect(),
        })
    }

    /// Remove the subtree rooted at `id`; returns it so it can be put back.
    pub fn remove_subtree(&mut self, id: NodeId) -> Result<DetachedSubtree> {
        let detached = self.copy_subtree(id)?;
        let s = self.index(id)?;
        let k = self.subtree_len_at(s);
        let e = s + k;
        self.grow_ancestors(self.parent_index_at(s), -(k as i64));
        for removed in &self.ids[s..e] {
            self.index_of.remove(removed);
        }
        self.ids.drain(s..e);
        self.data.drain(s..e);
        self.parent.drain(s..e);
        self.subtree_len.drain(s..e);
        self.world.drain(s..e);
        for parent in &mut self.parent[s..] {
            if *parent != NO_PARENT && *parent as usize >= e {
                *parent -= k as u32;
            }
        }
        self.dirty_roots
            .retain(|&r| !(s..e).contains(&(r as usize)));
        for r in &mut self.dirty_roots {
            if *r as usize >= e {
                *r -= k as u32;
            }
        }
        self.refresh_index_of(s..self.len());
        self.bump_version();
        Ok(detached)
    }

    /// Give copies ids no node uses (numbered up from above the largest id in use), one block
    /// after another, so they can be inserted (paste, duplicate).
    pub fn renumber_fresh(&self, subtrees: &mut [DetachedSubtree]) {
        let above = self
            .ids
            .iter()
            .map(|id| id.0)
            .max()
            .map_or(1, |m| m.saturating_add(1));
        let mut next = above.max(self.next_id);
        for s in subtrees {
            s.renumber(NodeId(next));
            next = next.saturating_add(s.ids.len() as u32);
        }
    }

    /// Move `node` (with its subtree) under `new_parent` (None = root) at sibling `index`
    /// (None = last). With [`Keep::World`] (Unity's worldPositionStays) the new local is
    /// inverse(newParentWorld) · oldWorld decomposed exactly, so nothing moves on screen;
    /// with [`Keep::Local`] the local numbers stay and the node jumps.
    ///
    /// Refused, with nothing changed: unknown ids; a node under itself or a descendant;
    /// an index past the end; [`Keep::World`] under a parent whose world matrix is singular.
    pub fn reparent(
        &mut self,
        node: NodeId,
        new_parent: Option<NodeId>,
        index: Option<usize>,
        keep: Keep,
    ) -> Result<ReparentUndo> {
        let s = self.index(node)?;
        let len = self.subtree_len_at(s);
        let p = new_parent.map(|id| self.index(id)).transpose()?;
        self.check_not_under_itself(node, s, len, p)?;
        let old_parent = self.parent_index_at(s);
        let undo = ReparentUndo {
            node,
            old_parent: old_parent.map(|q| self.ids[q]),
            old_index: self.sibling_index(node)?,
            old_local: self.data.get(s).local,
        };
        let dest = self.insertion_point(p, index, Some(s))?;
        let new_local = if keep == Keep::World && p != old_parent {
            Some(self.local_keeping_world(node, s, p)?)
        } else {
            None
        };
        // Nothing can fail from here on.
        self.bump_version();
        self.grow_ancestors(old_parent, -(len as i64));
        self.grow_ancestors(p, len as i64);
        let map = self.move_block(s, len, dest);
        let new_s = map(s);
        self.parent[new_s] = p.map_or(NO_PARENT, |p| map(p) as u32);
        match new_local {
            Some(trs) => {
                self.set_local_at(new_s, trs);
            }
            None => self.mark_dirty(new_s),
        }
        Ok(undo)
    }

    /// Refuse moving the node at `s` (subtree length `len`) under scene index `p` when `p` is
    /// the node itself or one of its descendants.
    fn check_not_under_itself(
        &self,
        node: NodeId,
        s: usize,
        len: usize,
        p: Option<usize>,
    ) -> Result<()> {
        match p.filter(|&p| s <= p && p < s + len) {
            Some(p) => Err(Error::Cycle {
                node,
                target: self.ids[p],
                relation: if p == s {
                    "the node itself"
                } else {
                    "a descendant"
                },
            }),
            None => Ok(()),
        }
    }

    /// The local transform that keeps the node at `s` where it is on screen under scene index
    /// `p` (None = root): inverse(parentWorld) · oldWorld, decomposed like its current local.
    fn local_keeping_world(&self, node: NodeId, s: usize, p: Option<usize>) -> Result<Trs> {
        let old_world = self.world_at(s);
        let local = match p {
            None => old_world,
            Some(p) => {
                let inv = try_inverse(&self.world_at(p))
                    .map_err(|_| Error::SingularParent(self.ids[p]))?;
                inv * old_world
            }
        };
        let trs = decompose_like(&local, &self.data.get(s).local);
        if let Some(field) = trs.first_non_finite() {
            return Err(Error::NotFinite { node, field });
        }
        Ok(trs)
    }

    /// Move the block `[s, s + len)` so that it sits just before original position `dest`
    /// (outside the block), remapping every stored index. Returns the old → new index map.
    fn move_block(&mut self, s: usize, len: usize, dest: usize) -> IndexMap {
        let e = s + len;
        // The window is the part of the arrays that changes; rotating it left by `amount`
        // puts the block in its new place.
        let (window, amount, map): (std::ops::Range<usize>, usize, IndexMap) = if dest < s {
            let map = move |x: usize| {
                if (s..e).contains(&x) {
                    x - s + dest
                } else if (dest..s).contains(&x) {
                    x + len
                } else {
                    x
                }
            };
            (dest..e, e - dest - len, Box::new(map))
        } else if dest > e {
            let map = move |x: usize| {
                if (s..e).contains(&x) {
                    x - s + dest - len
                } else if (e..dest).contains(&x) {
                    x - len
                } else {
                    x
                }
            };
            (s..dest, len, Box::new(map))
        } else {
            return Box::new(|x| x);
        };
        self.ids[window.clone()].rotate_left(amount);
        self.data.rotate_left(window.clone(), amount);
        self.parent[window.clone()].rotate_left(amount);
        self.subtree_len[window.clone()].rotate_left(amount);
        self.world[window.clone()].rotate_left(amount);
        // Parents before the window are untouched; everything from it on may point into it.
        for parent in &mut self.parent[window.start..] {
            if *parent != NO_PARENT {
                *parent = map(*parent as usize) as u32;
            }
        }
        for r in &mut self.dirty_roots {
            *r = map(*r as usize) as u32;
        }
        self.refresh_index_of(window);
        map
    }
}

/// Refuse a subtree that is empty, has columns of different lengths, or lists a node before
/// its parent.
fn check_well_formed(subtree: &DetachedSubtree) -> Result<()> {
    let n = subtree.ids.len();
    let well_formed = n > 0
        && subtree.data.len() == n
        && subtree.parents.len() == n
        && subtree.parents[0] == NO_PARENT
        && subtree
            .parents
            .iter()
            .enumerate()
            .skip(1)
            .all(|(k, &p)| (p as usize) < k);
    if !well_formed {
        return Err(Error::Format(
            "malformed subtree: parents must come before their children".into(),
        ));
    }
    Ok(())
}
