//! What panels ask for in their own terms (rename this node, paste this text, the handle is
//! here now, drop these rows), turned into model edits and undo labels. Panels never build an
//! [`Op`] or a label: the session chooses both, here.

use crate::editor::session::clipboard::trs_from_text;
use crate::editor::session::command::{PanelCommand, TransformSpace};
use crate::editor::session::edits::EditParts;
use crate::editor::session::multi_edit;
use crate::editor::session::purpose::Outcome;
use crate::editor::view::handles::{self, HandleDrag, Tool};
use crate::editor::view::pointer::MoveDrag;
use crate::error::{Error, Result};
use crate::model::math::Trs;
use crate::model::scene::edit::Op;
use crate::model::scene::name::node_label;
use crate::model::scene::{NodeId, Shape};
use glam::DVec2;

impl EditParts<'_> {
    /// Carry out a panel's intent; `tool` is the viewport's handle (the settings').
    pub(super) fn intent_command(&mut self, command: PanelCommand, tool: Tool) -> Result<Outcome> {
        let done = match command {
            PanelCommand::Rename { node, name } => self.rename(node, name),
            PanelCommand::SetLook { node, shape, color } => self.set_look(node, shape, color),
            PanelCommand::PasteTransform { node, text, space } => {
                self.paste_transform(node, &text, space)
            }
            PanelCommand::SetTransform {
                space,
                before,
                mut value,
                lock_scale,
            } => {
                if lock_scale {
                    multi_edit::lock_ratio(before.scale, &mut value.scale);
                }
                self.set_transform(space, &before, value)
            }
            PanelCommand::DragHandle {
                drag,
                pointer,
                snap,
                grid_step,
            } => self.drag_handle(tool, &drag, pointer, snap, grid_step),
            PanelCommand::MoveSelection {
                drag,
                pointer,
                snap,
            } => self.move_selection(&drag, pointer, snap),
            PanelCommand::SetClip(settings) => {
                let ops = vec![Op::SetClip { settings }];
                self.perform("Change the clip".into(), ops, true)
            }
            PanelCommand::DropRows(preview) => return self.drop_rows(*preview),
        };
        done.map(|()| Outcome::default())
    }

    /// "Rename old to new", one step; the same name changes nothing.
    fn rename(&mut self, node: NodeId, name: String) -> Result<()> {
        let old = self.doc.scene().node(node)?.name.to_string();
        if old == name {
            return Ok(());
        }
        let label = format!(
            "Rename {} to {}",
            node_label(&old, node),
            node_label(&name, node)
        );
        self.perform(label, vec![Op::Rename { node, name }], false)
    }

    /// "Change the look of name", continuous.
    fn set_look(&mut self, node: NodeId, shape: Shape, color: [u8; 4]) -> Result<()> {
        let name = node_label(&self.doc.scene().node(node)?.name, node);
        let label = format!("Change the look of {name}");
        let op = Op::SetAppearance { node, shape, color };
        self.perform(label, vec![op], true)
    }

    /// Read a transform from text and set it as the node's local or world transform; text
    /// that is not a transform is refused with what is wrong with it.
    fn paste_transform(&mut self, node: NodeId, text: &str, space: TransformSpace) -> Result<()> {
        let name = node_label(&self.doc.scene().node(node)?.name, node);
        let t = trs_from_text(text).map_err(Error::Refused)?;
        let op = match space {
            TransformSpace::World => Op::SetWorld { node, world: t },
            TransformSpace::Local => Op::SetLocal { node, local: t },
        };
        self.perform(format!("Paste transform onto {name}"), vec![op], false)
    }

    /// An edit of the inspector's column: the primary gets `value`, the other selected nodes
    /// only the numbers that changed ([`multi_edit`]).
    fn set_transform(&mut self, space: TransformSpace, before: &Trs, value: Trs) -> Result<()> {
        let scene = self.doc.scene();
        let Some(primary) = self.primary() else {
            return Ok(());
        };
        let targets = multi_edit::targets(scene, self.selection.ids());
        let (label, ops) = match space {
            TransformSpace::Local => {
                multi_edit::local_edit(scene, primary, before, &targets, value)
            }
            TransformSpace::World => {
                multi_edit::world_edit(scene, primary, before, &targets, value)
            }
        };
        self.perform(label, ops, true)
    }

    /// A handle dragged to `pointer`: the op the tool asks for, one continuous step named
    /// after the tool ("Rotate arm"). Nothing while the pointer is where the drag began.
    fn drag_handle(
        &mut self,
        tool: Tool,
        drag: &HandleDrag,
        pointer: DVec2,
        snap: bool,
        grid_step: f64,
    ) -> Result<()> {
        if pointer == drag.start_pointer {
            return Ok(());
        }
        let Some(op) = handles::drag_op(tool, drag, pointer, snap, grid_step) else {
            return Ok(());
        };
        let verb = match tool {
            Tool::Move => "Move",
            Tool::Rotate => "Rotate",
            Tool::Scale => "Scale",
        };
        let label = format!("{verb} {}", self.name_of(drag.node));
        self.perform(label, vec![op], true)
    }

    /// The dragged nodes moved by the pointer's motion since the drag began (snapped with
    /// Ctrl), one continuous step; nothing while the motion is zero.
    fn move_selection(&mut self, drag: &MoveDrag, pointer: DVec2, snap: Option<f64>) -> Result<()> {
        let delta = drag.delta(pointer, snap);
        if delta == DVec2::ZERO {
            return Ok(());
        }
        let label = drag.label(self.doc.scene());
        self.perform(label, drag.ops(delta), true)
    }
}
