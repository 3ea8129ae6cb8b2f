//! Edits and history: every change to a scene is an [`Op`] performed into an [`Edit`] that knows
//! its exact inverse; a [`History`] of labelled steps gives undo, redo, jumps and a clean mark.

use super::{Color, DetachedSubtree, NodeData, NodeId, Scene, Shape};
use crate::error::Result;
use crate::math::Trs;
use glam::Vec2;

/// Where a node sits: its parent, its sibling index and its local transform.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// Move a node under another parent (or reorder with the same parent).
    Reparent {
        /// The node.
        node: NodeId,
        /// The new parent (None = root).
        parent: Option<NodeId>,
        /// The sibling index (None = last).
        index: Option<usize>,
        /// Keep the world transform (true) or the local numbers (false).
        keep_world: bool,
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
}

/// A performed change with everything needed to redo and undo it exactly.
#[derive(Clone, Debug, PartialEq)]
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
}

impl Op {
    /// Carry out the change on the scene; returns the edit that records it. Refused ops change
    /// nothing.
    pub fn perform(self, scene: &mut Scene) -> Result<Edit> {
        match self {
            Op::SetLocal { node, local } => {
                let before = scene.set_local(node, local)?;
                Ok(Edit::SetLocal {
                    node,
                    before,
                    after: local,
                })
            }
            Op::SetWorld { node, world } => {
                let before = scene.set_world_trs(node, world)?;
                let after = scene.node(node)?.local;
                Ok(Edit::SetLocal {
                    node,
                    before,
                    after,
                })
            }
            Op::SetWorldPosition { node, position } => {
                let before = scene.set_world_position(node, position)?;
                let after = scene.node(node)?.local;
                Ok(Edit::SetLocal {
                    node,
                    before,
                    after,
                })
            }
            Op::Rename { node, name } => {
                let before = scene.rename(node, name.clone())?;
                Ok(Edit::Rename {
                    node,
                    before,
                    after: name,
                })
            }
            Op::SetAppearance { node, shape, color } => {
                let before = scene.set_appearance(node, shape.clone(), color)?;
                Ok(Edit::Appearance {
                    node,
                    before,
                    after: (shape, color),
                })
            }
            Op::Reparent {
                node,
                parent,
                index,
                keep_world,
            } => {
                let undo = scene.reparent(node, parent, index, keep_world)?;
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
            Op::Add {
                parent,
                index,
                data,
            } => {
                let id = scene.add_node(parent, index, data)?;
                Ok(Edit::Insert(scene.copy_subtree(id)?))
            }
            Op::Remove { node } => Ok(Edit::Remove(scene.remove_subtree(node)?)),
            Op::Insert { subtree } => {
                let root = subtree.root();
                scene.insert_subtree(subtree)?;
                Ok(Edit::Insert(scene.copy_subtree(root)?))
            }
        }
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

fn place(scene: &mut Scene, node: NodeId, at: &Placement) -> Result<()> {
    scene.reparent(node, at.parent, Some(at.index), false)?;
    scene.set_local(node, at.local)?;
    Ok(())
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
            Edit::Move { node, after, .. } => place(scene, *node, after),
            Edit::Insert(subtree) => scene.insert_subtree(subtree.clone()),
            Edit::Remove(subtree) => scene.remove_subtree(subtree.root()).map(drop),
        }
    }

    /// The edit that takes the change back.
    pub fn inverse(&self) -> Edit {
        match self.clone() {
            Edit::SetLocal {
                node,
                before,
                after,
            } => Edit::SetLocal {
                node,
                before: after,
                after: before,
            },
            Edit::Rename {
                node,
                before,
                after,
            } => Edit::Rename {
                node,
                before: after,
                after: before,
            },
            Edit::Appearance {
                node,
                before,
                after,
            } => Edit::Appearance {
                node,
                before: after,
                after: before,
            },
            Edit::Move {
                node,
                before,
                after,
            } => Edit::Move {
                node,
                before: after,
                after: before,
            },
            Edit::Insert(subtree) => Edit::Remove(subtree),
            Edit::Remove(subtree) => Edit::Insert(subtree),
        }
    }

    /// The node this edit is about (the root, for subtrees).
    pub fn node(&self) -> NodeId {
        match self {
            Edit::SetLocal { node, .. }
            | Edit::Rename { node, .. }
            | Edit::Appearance { node, .. }
            | Edit::Move { node, .. } => *node,
            Edit::Insert(s) | Edit::Remove(s) => s.root(),
        }
    }

    /// True when a later edit of the same gesture can be folded into this one.
    fn can_absorb(&self, later: &Edit) -> bool {
        match (self, later) {
            (Edit::SetLocal { node, .. }, Edit::SetLocal { node: n2, .. }) => node == n2,
            (Edit::Appearance { node, .. }, Edit::Appearance { node: n2, .. }) => node == n2,
            _ => false,
        }
    }

    /// Fold a later edit of the same gesture into this one (keeps the first `before`).
    fn absorb(&mut self, later: &Edit) {
        match (self, later) {
            (Edit::SetLocal { after, .. }, Edit::SetLocal { after: a2, .. }) => *after = *a2,
            (Edit::Appearance { after, .. }, Edit::Appearance { after: a2, .. }) => {
                *after = a2.clone()
            }
            _ => {}
        }
    }
}

/// One undoable step: a label and the edits it made, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// What the step did, e.g. "Reparent sword".
    pub label: String,
    /// The edits, in the order they were made.
    pub edits: Vec<Edit>,
    /// Steps with the same gesture key merge (one step per drag or slider gesture).
    gesture: Option<u64>,
}

/// Undo and redo stacks with a clean mark (the step that matches the file on disk).
#[derive(Clone, Debug, Default)]
pub struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
    /// `done.len()` when the scene last matched its file; None when that state is gone.
    clean: Option<usize>,
}

impl History {
    /// An empty history whose current state is clean.
    pub fn new() -> Self {
        Self {
            clean: Some(0),
            ..Self::default()
        }
    }

    /// Perform `ops` as one labelled step. If any op is refused, the ones already performed are
    /// taken back and the error is returned: the scene is left exactly as it was.
    pub fn perform(
        &mut self,
        scene: &mut Scene,
        label: impl Into<String>,
        ops: Vec<Op>,
    ) -> Result<()> {
        self.perform_gesture(scene, label, ops, None)
    }

    /// Like [`History::perform`], but consecutive steps with the same `gesture` key become one.
    pub fn perform_gesture(
        &mut self,
        scene: &mut Scene,
        label: impl Into<String>,
        ops: Vec<Op>,
        gesture: Option<u64>,
    ) -> Result<()> {
        let mut edits = Vec::with_capacity(ops.len());
        for op in ops {
            match op.perform(scene) {
                Ok(edit) => edits.push(edit),
                Err(e) => {
                    for edit in edits.iter().rev() {
                        let _ = edit.inverse().apply(scene);
                    }
                    return Err(e);
                }
            }
        }
        if edits.is_empty() {
            return Ok(());
        }
        self.record(Step {
            label: label.into(),
            edits,
            gesture,
        });
        Ok(())
    }

    /// Record an already performed step.
    fn record(&mut self, step: Step) {
        self.undone.clear();
        if self.clean.is_some_and(|c| c > self.done.len()) {
            self.clean = None;
        }
        let clean_here = self.clean == Some(self.done.len());
        if let (Some(g), Some(last)) = (step.gesture, self.done.last_mut())
            && last.gesture == Some(g)
            && !clean_here
            && step.edits.len() == last.edits.len()
            && last
                .edits
                .iter()
                .zip(&step.edits)
                .all(|(a, b)| a.can_absorb(b))
        {
            for (a, b) in last.edits.iter_mut().zip(&step.edits) {
                a.absorb(b);
            }
            return;
        }
        self.done.push(step);
    }

    /// End the current gesture: the next step starts a new undo entry even with the same key.
    pub fn end_gesture(&mut self) {
        if let Some(last) = self.done.last_mut() {
            last.gesture = None;
        }
    }

    /// Take back the last step; returns its label.
    pub fn undo(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let Some(step) = self.done.pop() else {
            return Ok(None);
        };
        for edit in step.edits.iter().rev() {
            if let Err(e) = edit.inverse().apply(scene) {
                self.done.push(step);
                return Err(e);
            }
        }
        let label = step.label.clone();
        self.undone.push(step);
        Ok(Some(label))
    }

    /// Do the last undone step again; returns its label.
    pub fn redo(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let Some(step) = self.undone.pop() else {
            return Ok(None);
        };
        for edit in &step.edits {
            if let Err(e) = edit.apply(scene) {
                self.undone.push(step);
                return Err(e);
            }
        }
        let label = step.label.clone();
        self.done.push(step);
        Ok(Some(label))
    }

    /// Undo or redo until exactly `done` steps are applied.
    pub fn jump_to(&mut self, scene: &mut Scene, done: usize) -> Result<()> {
        while self.done.len() > done {
            self.undo(scene)?;
        }
        while self.done.len() < done && !self.undone.is_empty() {
            self.redo(scene)?;
        }
        Ok(())
    }

    /// The labels of all steps, oldest first, and how many of them are applied.
    pub fn labels(&self) -> (Vec<&str>, usize) {
        let labels = self
            .done
            .iter()
            .chain(self.undone.iter().rev())
            .map(|s| s.label.as_str())
            .collect();
        (labels, self.done.len())
    }

    /// Label of the step Undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.done.last().map(|s| s.label.as_str())
    }

    /// Label of the step Redo would do again.
    pub fn redo_label(&self) -> Option<&str> {
        self.undone.last().map(|s| s.label.as_str())
    }

    /// Mark the current state as the one on disk.
    pub fn mark_clean(&mut self) {
        self.clean = Some(self.done.len());
        self.end_gesture();
    }

    /// True when the scene matches what was last saved or opened.
    pub fn is_clean(&self) -> bool {
        self.clean == Some(self.done.len())
    }
}
