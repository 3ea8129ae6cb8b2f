//! Every change to a scene is an [`Op`] performed into an [`Edit`] that knows its exact inverse
//! (the history of labelled steps is `history.rs`; `edit.rs` names both).

use super::node_data::{Color, NodeData};
use super::node_id::NodeId;
use super::ops::{DetachedSubtree, Keep};
use super::shape::Shape;
use super::sprites::{map_data, map_shape};
use super::types::Scene;
use crate::error::{Error, Result};
use crate::model::anim::{ClipSettings, Track};
use crate::model::instance::TableEdit;
use crate::model::math::Trs;
use glam::Vec2;

/// Where a node sits: its parent, its sibling index and its local transform.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Placement {
    /// The parent (None = a root).
    pub parent: Option<NodeId>,
    /// Position among the parent's children.
    pub index: usize,
    /// The local transform there.
    pub local: Trs,
}

/// A requested change, as panels and the command line express it.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Set a local transform.
    SetLocal {
        /// The node.
        node: NodeId,
        /// The new local transform.
        local: Trs,
    },
    /// Place a node at a world transform (solved through the parent's inverse).
    SetWorld {
        /// The node.
        node: NodeId,
        /// The wanted world transform.
        world: Trs,
    },
    /// Move a node to a world position, keeping its local rotation, scale and skew.
    SetWorldPosition {
        /// The node.
        node: NodeId,
        /// The wanted world position.
        position: Vec2,
    },
    /// Rename a node.
    Rename {
        /// The node.
        node: NodeId,
        /// The new name.
        name: String,
    },
    /// Change shape and colour.
    SetAppearance {
        /// The node.
        node: NodeId,
        /// The new shape.
        shape: Shape,
        /// The new colour.
        color: Color,
    },
    /// Replace a node's probes (points in its local space).
    SetProbes {
        /// The node.
        node: NodeId,
        /// The new list.
        probes: Vec<Vec2>,
    },
    /// Replace a node's keyframe tracks.
    SetTracks {
        /// The node.
        node: NodeId,
        /// The new tracks (each valid, one per channel).
        tracks: Vec<Track>,
    },
    /// Change the clip's length and loop mode.
    SetClip {
        /// The new settings.
        settings: ClipSettings,
    },
    /// Move a node under another parent (or reorder with the same parent).
    Reparent {
        /// The node.
        node: NodeId,
        /// The new parent (None = root).
        parent: Option<NodeId>,
        /// The sibling index (None = last).
        index: Option<usize>,
        /// Keep the world transform or the local numbers (an `Op` is not journaled: the
        /// journal holds the `Edit`, placements before and after).
        keep: Keep,
    },
    /// Add a new node.
    Add {
        /// Under this parent (None = root).
        parent: Option<NodeId>,
        /// At this sibling index (None = last).
        index: Option<usize>,
        /// Its data.
        data: NodeData,
    },
    /// Remove a node and its subtree.
    Remove {
        /// The node.
        node: NodeId,
    },
    /// Insert a detached subtree (paste, duplicate) at its recorded parent and index.
    Insert {
        /// The subtree, with ids not yet in the scene.
        subtree: DetachedSubtree,
    },
    /// Change the instance table (instance a scene, make local, revert, follow a source).
    Instances(Box<TableEdit>),
}

/// A performed change with everything needed to redo and undo it exactly.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub enum Edit {
    /// A local transform changed.
    SetLocal {
        /// The node.
        node: NodeId,
        /// Before.
        before: Trs,
        /// After.
        after: Trs,
    },
    /// A name changed.
    Rename {
        /// The node.
        node: NodeId,
        /// Before.
        before: String,
        /// After.
        after: String,
    },
    /// Shape and colour changed.
    Appearance {
        /// The node.
        node: NodeId,
        /// Before.
        before: (Shape, Color),
        /// After.
        after: (Shape, Color),
    },
    /// A node's probes changed.
    Probes {
        /// The node.
        node: NodeId,
        /// Before.
        before: Vec<Vec2>,
        /// After.
        after: Vec<Vec2>,
    },
    /// A node's tracks changed.
    Tracks {
        /// The node.
        node: NodeId,
        /// Before.
        before: Vec<Track>,
        /// After.
        after: Vec<Track>,
    },
    /// The clip's settings changed.
    Clip {
        /// Before.
        before: ClipSettings,
        /// After.
        after: ClipSettings,
    },
    /// Parent, index and local changed together.
    Move {
        /// The node.
        node: NodeId,
        /// Before.
        before: Placement,
        /// After.
        after: Placement,
    },
    /// A subtree was inserted.
    Insert(DetachedSubtree),
    /// A subtree was removed (kept here to put back).
    Remove(DetachedSubtree),
    /// The instance table changed.
    Instances(Box<TableEdit>),
}

impl Op {
    /// Carry out the change on the scene; returns the edit that records it. Refused ops change
    /// nothing.
    pub fn perform(self, scene: &mut Scene) -> Result<Edit> {
        match self {
            Op::SetLocal { node, local } => Self::set_local(scene, node, local),
            Op::SetWorld { node, world } => Self::set_world(scene, node, world),
            Op::SetWorldPosition { node, position } => {
                Self::set_world_position(scene, node, position)
            }
            Op::Rename { node, name } => Self::rename(scene, node, name),
            Op::SetAppearance { node, shape, color } => {
                Self::set_appearance(scene, node, shape, color)
            }
            Op::SetProbes { node, probes } => Self::set_probes(scene, node, probes),
            Op::SetTracks { node, tracks } => Self::set_tracks(scene, node, tracks),
            Op::SetClip { settings } => Self::set_clip(scene, settings),
            Op::Reparent {
                node,
                parent,
                index,
                keep,
            } => Self::reparent(scene, node, parent, index, keep),
            Op::Add {
                parent,
                index,
                data,
            } => Self::add(scene, parent, index, data),
            Op::Remove { node } => Ok(Edit::Remove(scene.remove_subtree(node)?)),
            Op::Insert { subtree } => Self::insert(scene, subtree),
            Op::Instances(change) => change.apply(scene).map(|()| Edit::Instances(change)),
        }
    }

    /// [`Op::SetLocal`]: set the local transform, recording the old one.
    fn set_local(scene: &mut Scene, node: NodeId, local: Trs) -> Result<Edit> {
        let before = scene.set_local(node, local)?;
        Ok(Edit::SetLocal {
            node,
            before,
            after: local,
        })
    }

    /// [`Op::SetWorld`]: solve the local transform for a world one, recording both locals.
    fn set_world(scene: &mut Scene, node: NodeId, world: Trs) -> Result<Edit> {
        let before = scene.set_world_trs(node, world)?;
        Self::local_changed(scene, node, before)
    }

    /// [`Op::SetWorldPosition`]: move to a world position, recording both locals.
    fn set_world_position(scene: &mut Scene, node: NodeId, position: Vec2) -> Result<Edit> {
        let before = scene.set_world_position(node, position)?;
        Self::local_changed(scene, node, before)
    }

    /// The [`Edit::SetLocal`] from `before` to the node's local transform now.
    fn local_changed(scene: &Scene, node: NodeId, before: Trs) -> Result<Edit> {
        let after = scene.node(node)?.local;
        Ok(Edit::SetLocal {
            node,
            before,
            after,
        })
    }

    /// [`Op::Rename`]: rename, recording the old name.
    fn rename(scene: &mut Scene, node: NodeId, name: String) -> Result<Edit> {
        let before = scene.rename(node, name.clone())?;
        Ok(Edit::Rename {
            node,
            before,
            after: name,
        })
    }

    /// [`Op::SetAppearance`]: change shape and colour, recording the old ones.
    fn set_appearance(scene: &mut Scene, node: NodeId, shape: Shape, color: Color) -> Result<Edit> {
        let before = scene.set_appearance(node, shape.clone(), color)?;
        Ok(Edit::Appearance {
            node,
            before,
            after: (shape, color),
        })
    }

    /// [`Op::SetProbes`]: replace the probes, recording the old list.
    fn set_probes(scene: &mut Scene, node: NodeId, probes: Vec<Vec2>) -> Result<Edit> {
        let before = scene.set_probes(node, probes.clone())?;
        Ok(Edit::Probes {
            node,
            before,
            after: probes,
        })
    }

    /// [`Op::SetTracks`]: replace the tracks, recording the old ones.
    fn set_tracks(scene: &mut Scene, node: NodeId, tracks: Vec<Track>) -> Result<Edit> {
        let before = scene.set_tracks(node, tracks.clone())?;
        Ok(Edit::Tracks {
            node,
            before,
            after: tracks,
        })
    }

    /// [`Op::SetClip`]: change the clip settings, recording the old ones.
    fn set_clip(scene: &mut Scene, settings: ClipSettings) -> Result<Edit> {
        let before = scene.set_clip(settings)?;
        Ok(Edit::Clip {
            before,
            after: settings,
        })
    }

    /// [`Op::Reparent`]: move the node, recording its placement before and after.
    fn reparent(
        scene: &mut Scene,
        node: NodeId,
        parent: Option<NodeId>,
        index: Option<usize>,
        keep: Keep,
    ) -> Result<Edit> {
        let undo = scene.reparent(node, parent, index, keep)?;
        Ok(Edit::Move {
            node,
            before: Placement {
                parent: undo.old_parent,
                index: undo.old_index,
                local: undo.old_local,
            },
            after: placement(scene, node)?,
        })
    }

    /// [`Op::Add`]: add a node (tracks checked first), recording it as an inserted subtree.
    fn add(
        scene: &mut Scene,
        parent: Option<NodeId>,
        index: Option<usize>,
        data: NodeData,
    ) -> Result<Edit> {
        Scene::check_tracks(scene.next_id(), &data.tracks)?;
        let id = scene.add_node(parent, index, data)?;
        Ok(Edit::Insert(scene.copy_subtree(id)?))
    }

    /// [`Op::Insert`]: insert a subtree (every node's tracks checked first), recording it.
    fn insert(scene: &mut Scene, subtree: DetachedSubtree) -> Result<Edit> {
        for (id, data) in subtree.ids.iter().zip(&subtree.data) {
            Scene::check_tracks(*id, &data.tracks)?;
        }
        let root = subtree.root();
        scene.insert_subtree(subtree)?;
        Ok(Edit::Insert(scene.copy_subtree(root)?))
    }
}

/// Where a node is now.
pub fn placement(scene: &Scene, node: NodeId) -> Result<Placement> {
    Ok(Placement {
        parent: scene.parent(node)?,
        index: scene.sibling_index(node)?,
        local: scene.node(node)?.local,
    })
}

/// Put a node at a placement: refused (with nothing changed) before the move, never halfway.
fn place(scene: &mut Scene, node: NodeId, at: &Placement) -> Result<()> {
    if let Some(field) = at.local.first_non_finite() {
        return Err(Error::NotFinite { node, field });
    }
    scene.reparent(node, at.parent, Some(at.index), Keep::Local)?;
    scene.set_local(node, at.local).map(drop)
}

impl Edit {
    /// Do the change again (redo).
    pub fn apply(&self, scene: &mut Scene) -> Result<()> {
        match self {
            Edit::SetLocal { node, after, .. } => scene.set_local(*node, *after).map(drop),
            Edit::Rename { node, after, .. } => scene.rename(*node, after.clone()).map(drop),
            Edit::Appearance { node, after, .. } => scene
                .set_appearance(*node, after.0.clone(), after.1)
                .map(drop),
            Edit::Probes { node, after, .. } => scene.set_probes(*node, after.clone()).map(drop),
            Edit::Tracks { node, after, .. } => scene.set_tracks(*node, after.clone()).map(drop),
            Edit::Clip { after, .. } => scene.set_clip(*after).map(drop),
            Edit::Move { node, after, .. } => place(scene, *node, after),
            Edit::Insert(subtree) => scene.insert_subtree(subtree.clone()),
            // A journal's Remove names its subtree's root first; one with no node is refused.
            Edit::Remove(subtree) => match subtree.ids.first() {
                Some(&root) => scene.remove_subtree(root).map(drop),
                None => Err(Error::Format("malformed subtree: it has no node".into())),
            },
            Edit::Instances(change) => change.apply(scene),
        }
    }

    /// The edit that takes the change back.
    pub fn inverse(&self) -> Edit {
        match self.clone() {
            Edit::Insert(subtree) => Edit::Remove(subtree),
            Edit::Remove(subtree) => Edit::Insert(subtree),
            Edit::Instances(change) => Edit::Instances(Box::new(change.inverse())),
            mut edit => {
                edit.swap_before_after();
                edit
            }
        }
    }

    /// Exchange `before` and `after` (subtree edits, which have neither, stay as they are).
    fn swap_before_after(&mut self) {
        use std::mem::swap;
        match self {
            Edit::SetLocal { before, after, .. } => swap(before, after),
            Edit::Rename { before, after, .. } => swap(before, after),
            Edit::Appearance { before, after, .. } => swap(before, after),
            Edit::Probes { before, after, .. } => swap(before, after),
            Edit::Tracks { before, after, .. } => swap(before, after),
            Edit::Clip { before, after } => swap(before, after),
            Edit::Move { before, after, .. } => swap(before, after),
            Edit::Insert(_) | Edit::Remove(_) | Edit::Instances(_) => {}
        }
    }

    /// The node this edit is about (the root, for subtrees; None for the clip, which is the
    /// scene's).
    pub fn node(&self) -> Option<NodeId> {
        match self {
            Edit::SetLocal { node, .. }
            | Edit::Rename { node, .. }
            | Edit::Appearance { node, .. }
            | Edit::Probes { node, .. }
            | Edit::Tracks { node, .. }
            | Edit::Move { node, .. } => Some(*node),
            Edit::Insert(s) | Edit::Remove(s) => Some(s.root()),
            Edit::Instances(change) => Some(change.root()),
            Edit::Clip { .. } => None,
        }
    }

    /// True when a later edit of the same gesture can be folded into this one.
    /// True when the edit changed nothing (a drag's frame before the pointer moved).
    pub(super) fn is_noop(&self) -> bool {
        match self {
            Edit::SetLocal { before, after, .. } => before == after,
            Edit::Probes { before, after, .. } => before == after,
            Edit::Clip { before, after } => before == after,
            _ => false,
        }
    }

    pub(super) fn can_absorb(&self, later: &Edit) -> bool {
        match (self, later) {
            (Edit::SetLocal { node, .. }, Edit::SetLocal { node: n2, .. }) => node == n2,
            (Edit::Appearance { node, .. }, Edit::Appearance { node: n2, .. }) => node == n2,
            (Edit::Probes { node, .. }, Edit::Probes { node: n2, .. }) => node == n2,
            (Edit::Tracks { node, .. }, Edit::Tracks { node: n2, .. }) => node == n2,
            (Edit::Clip { .. }, Edit::Clip { .. }) => true,
            _ => false,
        }
    }

    /// Fold a later edit of the same gesture into this one (keeps the first `before`).
    pub(super) fn absorb(&mut self, later: &Edit) {
        match (self, later) {
            (Edit::SetLocal { after, .. }, Edit::SetLocal { after: a2, .. }) => *after = *a2,
            (Edit::Appearance { after, .. }, Edit::Appearance { after: a2, .. }) => {
                *after = a2.clone()
            }
            (Edit::Probes { after, .. }, Edit::Probes { after: a2, .. }) => *after = a2.clone(),
            (Edit::Tracks { after, .. }, Edit::Tracks { after: a2, .. }) => *after = a2.clone(),
            (Edit::Clip { after, .. }, Edit::Clip { after: a2, .. }) => *after = *a2,
            _ => {}
        }
    }
}

/// [`map_shape`](super::sprites::map_shape) over the shapes and nodes an edit holds (before and after); how many
/// changed.
pub fn map_edit(edit: &mut Edit, map: &mut impl FnMut(&str) -> Option<String>) -> usize {
    match edit {
        Edit::Appearance { before, after, .. } => {
            usize::from(map_shape(&mut before.0, map)) + usize::from(map_shape(&mut after.0, map))
        }
        Edit::Insert(subtree) | Edit::Remove(subtree) => map_data(subtree.data.iter_mut(), map),
        Edit::Instances(change) => change.map_paths(map),
        _ => 0,
    }
}
