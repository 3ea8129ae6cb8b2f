//! The hierarchy's arrow keys, while the hierarchy has the keyboard (F6).

use super::{HierarchyState, Row};
use crate::editor::session::command::Command;
use crate::model::scene::{NodeId, Scene};
use egui::{Key, Modifiers};

/// Arrow keys: up / down move the selection, right expands, left collapses or goes to the parent.
pub(super) fn keyboard_navigation(
    ui: &egui::Ui,
    scene: &Scene,
    selection: &[NodeId],
    rows: &[Row],
    state: &mut HierarchyState,
    out: &mut Vec<Command>,
) {
    if ui.ctx().text_edit_focused() || state.renaming.is_some() {
        return;
    }
    let Some(&current) = selection.last() else {
        return;
    };
    let Some(pos) = rows.iter().position(|r| scene.id_at(r.index) == current) else {
        return;
    };
    let (up, down, left, right) = ui.input(|i| {
        let plain = i.modifiers == Modifiers::NONE;
        (
            plain && i.key_pressed(Key::ArrowUp),
            plain && i.key_pressed(Key::ArrowDown),
            plain && i.key_pressed(Key::ArrowLeft),
            plain && i.key_pressed(Key::ArrowRight),
        )
    });
    let select = |k: usize, out: &mut Vec<Command>| {
        out.push(Command::Select(vec![scene.id_at(rows[k].index)]))
    };
    if up && pos > 0 {
        select(pos - 1, out);
    }
    if down && pos + 1 < rows.len() {
        select(pos + 1, out);
    }
    let has_children = scene.subtree_len_at(rows[pos].index) > 1;
    if right && has_children {
        state.set_collapsed(current, false);
    }
    if left {
        if has_children && !state.is_collapsed(current) {
            state.set_collapsed(current, true);
        } else if let Some(p) = scene.parent_index_at(rows[pos].index) {
            out.push(Command::Select(vec![scene.id_at(p)]));
        }
    }
}
