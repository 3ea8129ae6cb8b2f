//! The hierarchy's arrow keys, while the hierarchy has the keyboard (F6); what each does is
//! [`row_key`]'s.

use super::state::HierarchyState;
use crate::app::frame::CommandSender;
use crate::editor::session::picking::{Arrow, RowKey, row_key};
use crate::editor::view::rows::Row;
use crate::model::scene::{NodeId, Scene};
use egui::{Key, Modifiers};

/// Arrow keys: up / down move the selection, right expands, left collapses or goes to the parent.
pub(super) fn keyboard_navigation(
    ui: &egui::Ui,
    scene: &Scene,
    selection: &[NodeId],
    rows: &[Row],
    state: &mut HierarchyState,
    out: &CommandSender,
) {
    if ui.ctx().text_edit_focused() || state.renaming.is_some() {
        return;
    }
    let arrows = ui.input(|i| {
        let plain = i.modifiers == Modifiers::NONE;
        [
            (Key::ArrowUp, Arrow::Up),
            (Key::ArrowDown, Arrow::Down),
            (Key::ArrowLeft, Arrow::Left),
            (Key::ArrowRight, Arrow::Right),
        ]
        .into_iter()
        .filter(|(key, _)| plain && i.key_pressed(*key))
        .map(|(_, arrow)| arrow)
        .collect::<Vec<_>>()
    });
    for arrow in arrows {
        let collapsed = |id| state.is_collapsed(id);
        match row_key(scene, rows, selection, collapsed, arrow) {
            Some(RowKey::Command(command)) => out.send(command),
            Some(RowKey::SetCollapsed(id, hidden)) => state.set_collapsed(id, hidden),
            None => {}
        }
    }
}
