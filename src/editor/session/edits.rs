//! Structural edits as the editor plans them: copy, paste, duplicate, delete, add, mirror,
//! reset, create parent, unparent and hierarchy drops. New ids are taken from the scene when the command
//! applies (never guessed by a panel); each edit is one undo step and selects what it made.
//! An edit is a method of [`EditParts`]: the document, the open gesture, the selection and the
//! message log, with the timeline read for auto-key, handed by the router (`routes.rs`).

use crate::editor::session::clipboard::Clipboard;
use crate::editor::session::command::{HistoryCommand, NewNodePlace};
use crate::editor::session::drop_rules::{DropPreview, DropVerdict};
use crate::editor::session::gestures::Gestures;
use crate::editor::session::instance_rows::{instance_copies, rows_in};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::selection::Selection;
use crate::editor::session::timeline::TimelineState;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::math::{MirrorAxis, Trs};
use crate::model::scene::Keep;
use crate::model::scene::edit::Op;
use crate::model::scene::{DetachedSubtree, NodeData, NodeId, Shape};
use glam::Vec2;

/// A new node's data: a unit square at the parent's origin.
pub fn new_node_data(name: &str) -> NodeData {
    NodeData {
        shape: Shape::Rect { size: Vec2::ONE },
        ..NodeData::named(name, Trs::IDENTITY)
    }
}

/// What an edit is handed (built by split borrows in `routes.rs`): the document and its
/// history, the gesture counter, the selection (an edit selects what it made), the message log,
/// and the timeline, read for auto-key.
pub(super) struct EditParts<'a> {
    pub(super) doc: &'a mut Document,
    pub(super) gestures: &'a mut Gestures,
    pub(super) selection: &'a mut Selection,
    pub(super) log: &'a mut MessageLog,
    pub(super) timeline: &'a TimelineState,
}

impl EditParts<'_> {
    /// Perform ops as one undo step, or as part of the open continuous gesture
    /// ([`timeline::perform`](crate::editor::session::timeline::perform), handed the gesture
    /// counter, the document and the timeline, read for auto-key).
    pub(super) fn perform(&mut self, label: String, ops: Vec<Op>, continuous: bool) -> Result<()> {
        let (gestures, doc) = (&mut *self.gestures, &mut *self.doc);
        crate::editor::session::timeline::perform(
            gestures,
            doc,
            self.timeline,
            label,
            ops,
            continuous,
        )
    }

    pub(super) fn info(&mut self, text: impl Into<String>) {
        self.log.info(text.into());
    }

    /// The primary selection, if it still exists.
    pub(super) fn primary(&self) -> Option<NodeId> {
        (self.selection.last()).filter(|id| self.doc.scene().contains(*id))
    }

    /// The primary selection, or "WHAT: select a node first".
    pub(super) fn primary_or_refuse(&self, what: &str) -> Result<NodeId> {
        self.primary()
            .ok_or_else(|| Error::Refused(format!("{what}: select a node first")))
    }

    /// Selected nodes whose ancestors are not also selected, in pre-order.
    pub(super) fn selected_roots(&self) -> Vec<NodeId> {
        self.doc.scene().topmost(self.selection.ids())
    }

    /// "Verb name" for one node, "Verb N nodes" for several.
    pub(super) fn label_for(&self, verb: &str, ids: &[NodeId]) -> String {
        match ids {
            [one] => format!("{verb} {}", self.name_of(*one)),
            many => format!("{verb} {} nodes", many.len()),
        }
    }

    pub(super) fn name_of(&self, id: NodeId) -> String {
        self.doc.scene().label(id)
    }

    /// Node ▸ Mirror: each selected subtree's root flipped about its own origin, one undo step
    /// (a child selected with its parent flips once, with the parent).
    pub(super) fn mirror(&mut self, axis: MirrorAxis) -> Result<Outcome> {
        let targets = self.selected_roots();
        let verb = match axis {
            MirrorAxis::Horizontal => "Mirror horizontally",
            MirrorAxis::Vertical => "Mirror vertically",
        };
        self.set_locals(verb, &targets, |local| local.mirrored(axis))
    }

    /// Node ▸ Reset local transform: every selected node back to the identity, one undo step.
    pub(super) fn reset_local(&mut self) -> Result<Outcome> {
        let targets = self.selection.ids().to_vec();
        self.set_locals("Reset local transform of", &targets, |_| Trs::IDENTITY)
    }

    /// Each target's local transform replaced by `change` of it, as one undo step.
    fn set_locals(
        &mut self,
        verb: &str,
        targets: &[NodeId],
        change: impl Fn(Trs) -> Trs,
    ) -> Result<Outcome> {
        if targets.is_empty() {
            return Ok(Outcome::default());
        }
        let scene = self.doc.scene();
        let ops = targets
            .iter()
            .map(|&node| {
                let local = change(scene.node(node)?.local);
                Ok(Op::SetLocal { node, local })
            })
            .collect::<Result<Vec<Op>>>()?;
        let label = self.label_for(verb, targets);
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }

    pub(super) fn copy(&mut self, clipboard: &mut Clipboard) -> Outcome {
        let roots = self.selected_roots();
        let scene = self.doc.scene();
        let subtrees: Vec<DetachedSubtree> = roots
            .iter()
            .filter_map(|id| scene.copy_subtree(*id).ok())
            .collect();
        let rows = rows_in(scene, &subtrees);
        let host = self.doc.path().map(std::path::Path::to_path_buf);
        clipboard.set(subtrees, rows, host);
        if !clipboard.is_empty() {
            let what = self.label_for("", &roots);
            self.info(format!("Copied {}", what.trim()));
        }
        Outcome::default()
    }

    pub(super) fn paste(&mut self, clipboard: &Clipboard) -> Result<Outcome> {
        if clipboard.is_empty() {
            self.info("Nothing to paste");
            return Ok(Outcome::default());
        }
        let parent = self.primary();
        let mut copies = clipboard.subtrees().to_vec();
        self.doc.renumber_fresh(&mut copies);
        let count = self.doc.scene().children(parent).map_or(0, |c| c.len());
        let mut ops: Vec<Op> = copies
            .iter()
            .enumerate()
            .map(|(k, c)| Op::Insert {
                subtree: DetachedSubtree {
                    parent,
                    index: count + k,
                    ..c.clone()
                },
            })
            .collect();
        let (rows, from) = clipboard.instances();
        let copied = clipboard.subtrees();
        ops.extend(instance_copies(
            self.doc.path(),
            rows,
            from,
            copied,
            &copies,
        )?);
        let ids: Vec<NodeId> = copies.iter().map(|c| c.root()).collect();
        let label = self.label_for("Paste", &ids);
        self.insert_and_select(label, ops, ids)
    }

    pub(super) fn duplicate(&mut self) -> Result<Outcome> {
        let roots = self.selected_roots();
        let scene = self.doc.scene();
        let mut copies: Vec<_> = roots
            .iter()
            .filter_map(|id| scene.copy_subtree(*id).ok())
            .collect();
        if copies.is_empty() {
            return Ok(Outcome::default());
        }
        let originals = copies.clone();
        let rows = rows_in(scene, &originals);
        self.doc.renumber_fresh(&mut copies);
        // Insert from the last so earlier sibling indices stay valid.
        let mut ops: Vec<Op> = copies
            .iter()
            .rev()
            .map(|c| Op::Insert {
                subtree: DetachedSubtree {
                    index: c.index + 1,
                    ..c.clone()
                },
            })
            .collect();
        let host = self.doc.path();
        ops.extend(instance_copies(host, &rows, host, &originals, &copies)?);
        let ids: Vec<NodeId> = copies.iter().map(|c| c.root()).collect();
        let label = self.label_for("Duplicate", &roots);
        self.insert_and_select(label, ops, ids)
    }

    /// Perform as one undo step, then select `ids`.
    fn insert_and_select(
        &mut self,
        label: String,
        ops: Vec<Op>,
        ids: Vec<NodeId>,
    ) -> Result<Outcome> {
        self.perform(label, ops, false)?;
        self.selection.set(ids);
        Ok(Outcome::default())
    }

    pub(super) fn delete(&mut self) -> Result<Outcome> {
        let roots = self.selected_roots();
        if roots.is_empty() {
            return Ok(Outcome::default());
        }
        let label = self.label_for("Delete", &roots);
        let scene = self.doc.scene();
        let first = roots.iter().filter_map(|&r| scene.index(r).ok()).min();
        let ops = roots
            .iter()
            .rev()
            .map(|&node| Op::Remove { node })
            .collect();
        self.perform(label, ops, false)?;
        self.selection.prune(self.doc.scene());
        if let Some(next) = first.and_then(|at| row_after_delete(self.doc.scene(), at)) {
            self.selection.set(vec![next]);
        }
        Ok(Outcome::default())
    }

    pub(super) fn add_node(&mut self, place: NewNodePlace) -> Result<Outcome> {
        let place = match place {
            NewNodePlace::ChildOfPrimary => {
                NewNodePlace::ChildOf(self.primary_or_refuse("Add child")?)
            }
            NewNodePlace::AfterPrimary => {
                NewNodePlace::After(self.primary_or_refuse("Add sibling")?)
            }
            other => other,
        };
        let scene = self.doc.scene();
        let (parent, index, label) = match place {
            NewNodePlace::Root | NewNodePlace::ChildOfPrimary | NewNodePlace::AfterPrimary => {
                (None, None, "Add node".to_string())
            }
            NewNodePlace::ChildOf(p) => {
                scene.index(p)?;
                (Some(p), None, format!("Add child to {}", self.name_of(p)))
            }
            NewNodePlace::After(s) => (
                scene.parent(s)?,
                Some(scene.sibling_index(s)? + 1),
                format!("Add sibling to {}", self.name_of(s)),
            ),
        };
        let id = scene.next_id();
        let ops = vec![Op::Add {
            parent,
            index,
            data: new_node_data("node"),
        }];
        self.insert_and_select(label, ops, vec![id])
    }

    /// A new "group" where the first selected node was, with the selection moved under it
    /// keeping world transforms.
    pub(super) fn create_parent(&mut self) -> Result<Outcome> {
        let scene = self.doc.scene();
        let mut targets = self.selected_roots();
        let Some(&first) = targets.first() else {
            return Err(Error::Refused("Select the nodes to group first".into()));
        };
        targets.sort_by_key(|t| scene.index(*t).unwrap_or(usize::MAX));
        let group = scene.next_id();
        let mut ops = vec![Op::Add {
            parent: scene.parent(first)?,
            index: Some(scene.sibling_index(first)?),
            data: NodeData::named("group", Trs::IDENTITY),
        }];
        ops.extend(targets.iter().map(|&node| Op::Reparent {
            node,
            parent: Some(group),
            index: None,
            keep: Keep::World,
        }));
        let label = self.label_for("Group", &targets);
        self.insert_and_select(label, ops, vec![group])
    }

    /// Move the selection to the root (keeping world transforms when the toggle, `keep`, says so).
    pub(super) fn unparent(&mut self, keep: Keep) -> Result<Outcome> {
        let targets = self.selected_roots();
        if targets.is_empty() {
            return Ok(Outcome::default());
        }
        let ops = targets
            .iter()
            .map(|&node| Op::Reparent {
                node,
                parent: None,
                index: None,
                keep,
            })
            .collect();
        let label = self.label_for("Unparent", &targets);
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }

    /// A drop the hierarchy planned while hovering: its verdict is used as planned (planned
    /// again if the tree changed since), and the reparent ops are built here from it.
    pub(super) fn drop_rows(&mut self, preview: DropPreview) -> Result<Outcome> {
        let (parent, index) = match preview.verdict_at(self.doc.scene()) {
            DropVerdict::Allowed { parent, index } => (parent, index),
            DropVerdict::RefusedQuietly => return Ok(Outcome::default()),
            DropVerdict::Refused(why) => return Err(Error::Refused(why)),
        };
        let ops = reparent_ops(&preview.dragged, parent, index, preview.keep);
        let how = if preview.keep == Keep::World {
            ""
        } else {
            " (keep local)"
        };
        let label = format!("{}{how}", self.label_for("Reparent", &preview.dragged));
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }
}

/// Undo, redo, history jumps and the end of a gesture: handed the document, the gesture
/// counter (each of these closes the open gesture) and the message log (what was undone).
pub(super) fn history_command(
    doc: &mut Document,
    gestures: &mut Gestures,
    log: &mut MessageLog,
    command: HistoryCommand,
) -> Result<Outcome> {
    let said = |done: Result<Option<String>>, verb: &str, nothing: &str, log: &mut MessageLog| {
        log.info(match done? {
            Some(label) => format!("{verb} {label}"),
            None => nothing.to_string(),
        });
        Ok(Outcome::default())
    };
    let done = match command {
        HistoryCommand::EndGesture => {
            doc.end_gesture();
            Ok(Outcome::default())
        }
        HistoryCommand::Undo => said(doc.undo(), "Undid", "Nothing to undo", log),
        HistoryCommand::Redo => said(doc.redo(), "Redid", "Nothing to redo", log),
        HistoryCommand::JumpHistory(n) => doc.jump_to(n).map(|_| Outcome::default()),
    };
    gestures.open = None;
    done
}

/// The reparent ops of an allowed drop or move: `dragged` under `parent` in order, the first at
/// `index` (None: each last).
pub(super) fn reparent_ops(
    dragged: &[NodeId],
    parent: Option<NodeId>,
    index: Option<usize>,
    keep: Keep,
) -> Vec<Op> {
    dragged
        .iter()
        .enumerate()
        .map(|(k, &node)| Op::Reparent {
            node,
            parent,
            index: index.map(|i| i + k),
            keep,
        })
        .collect()
}

/// What is selected after a delete whose first removed subtree began at pre-order index `at`:
/// the row that now sits there (the next row), else the last row (the one above, when the
/// deleted rows were the last), else nothing. A list keeps its place, as a file manager's does.
fn row_after_delete(scene: &crate::model::scene::Scene, at: usize) -> Option<NodeId> {
    let last = scene.len().checked_sub(1)?;
    Some(scene.id_at(at.min(last)))
}
