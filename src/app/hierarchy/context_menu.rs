//! A hierarchy row's context menu: entries of the command table (their labels, shortcuts and
//! tooltips) acting on the row's node.

use super::HierarchyState;
use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::editor::session::command::{
    Command, EditCommand, InstanceCommand, NewNodePlace, SelectionCommand,
};
use crate::editor::table::{Shortcut, find_command};
use crate::editor::vocabulary::CommandId;
use crate::model::scene::NodeId;

/// Node ▸ Instance scene… under `id` (the dialog asks which file).
fn instance_under(id: NodeId) -> Command {
    Command::Instance(InstanceCommand::Instance {
        under: Some(id),
        path: None,
    })
}

/// One context-menu entry of the command table (its label, shortcut and tooltip): true when
/// clicked, which pushes `command`.
fn menu_entry(ui: &mut egui::Ui, id: CommandId, command: Command, out: &CommandSender) -> bool {
    let Some(spec) = find_command(id) else {
        return false;
    };
    let shortcut = spec
        .shortcuts
        .first()
        .map(Shortcut::text)
        .unwrap_or_default();
    let clicked = ui
        .add(egui::Button::new(spec.label).shortcut_text(shortcut))
        .on_hover_text(spec.tooltip)
        .clicked();
    if clicked {
        out.send(command);
    }
    clicked
}

/// The row's context menu: entries of the command table (with their shortcuts), acting on
/// the row's node (selected first when it was not).
pub(super) fn context_menu(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    state: &mut HierarchyState,
    id: NodeId,
    out: &CommandSender,
) {
    if !fx.selection.contains(id) {
        out.send(Command::Selection(SelectionCommand::Select(vec![id])));
    }
    let (entry, edit) = (menu_entry, Command::Edit);
    let place = |place| edit(EditCommand::AddNode(place));
    if entry(
        ui,
        CommandId::NodeAddChild,
        place(NewNodePlace::ChildOf(id)),
        out,
    ) {
        state.set_collapsed(id, false);
    }
    entry(
        ui,
        CommandId::NodeAddSibling,
        place(NewNodePlace::After(id)),
        out,
    );
    entry(
        ui,
        CommandId::NodeGroup,
        edit(EditCommand::CreateParent),
        out,
    );
    entry(ui, CommandId::NodeInstance, instance_under(id), out);
    entry(
        ui,
        CommandId::NodeUnparent,
        edit(EditCommand::Unparent),
        out,
    );
    ui.separator();
    for name in [
        CommandId::EditRename,
        CommandId::EditDuplicate,
        CommandId::EditCopy,
        CommandId::EditPaste,
        CommandId::EditDelete,
    ] {
        if let Some(spec) = find_command(name) {
            entry(ui, name, spec.command.clone(), out);
        }
    }
}
