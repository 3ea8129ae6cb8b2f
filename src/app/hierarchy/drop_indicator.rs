//! Drag and drop in the hierarchy: the drop indicator, the refused and warning badges, and the
//! preview the viewport draws as ghosts. What a drop does is planned once per frame by
//! [`DropPreview::plan`] and carried to the session on release.

use super::state::HierarchyState;
use crate::editor::session::Editor;
use crate::editor::session::command::{Command, PanelCommand};
use crate::editor::session::drop_rules::{
    DropPreview, DropZone, drop_keeps_world, drop_parent, keep_world_warning, zone_for,
};

use crate::model::scene::NodeId;

/// The nodes being dragged in the hierarchy (topmost selected nodes, pre-order).
#[derive(Clone, Debug, PartialEq)]
pub struct DraggedNodes(pub Vec<NodeId>);

/// The drop of the dragged nodes in `zone` as it would be now (Shift inverts the toggle).
pub(super) fn plan(
    ui: &egui::Ui,
    editor: &Editor,
    dragged: &[NodeId],
    zone: DropZone,
) -> DropPreview {
    let keep_world = drop_keeps_world(editor.keep_world(), ui.input(|i| i.modifiers.shift));
    DropPreview::plan(editor.doc().scene(), dragged, zone, keep_world)
}

/// Keep the planned drop for the indicator and the ghosts; on release, send it as it was
/// planned.
pub(super) fn hold_or_drop(
    ui: &egui::Ui,
    state: &mut HierarchyState,
    preview: DropPreview,
    out: &mut Vec<Command>,
) {
    if ui.input(|i| i.pointer.any_released()) {
        egui::DragAndDrop::clear_payload(ui.ctx());
        state.preview = None;
        out.push(Command::Panel(PanelCommand::DropRows(Box::new(preview))));
    } else {
        state.preview = Some(preview);
    }
}

/// While something is dragged over this row: show where it would land, and drop it on release.
pub(super) fn drop_target(
    ui: &egui::Ui,
    editor: &Editor,
    state: &mut HierarchyState,
    rect: egui::Rect,
    id: NodeId,
    out: &mut Vec<Command>,
) {
    let scene = editor.doc().scene();
    let Some(dragged) = egui::DragAndDrop::payload::<DraggedNodes>(ui.ctx()) else {
        return;
    };
    let Some(pointer) = ui.ctx().pointer_latest_pos().filter(|p| rect.contains(*p)) else {
        return;
    };
    let zone = zone_for(rect.top(), rect.height(), pointer.y, id);
    let preview = plan(ui, editor, &dragged.0, zone);
    let painter = ui.painter();
    let color = if preview.allowed {
        ui.visuals().selection.stroke.color
    } else {
        ui.visuals().error_fg_color
    };
    let stroke = egui::Stroke::new(2.0, color);
    match zone {
        DropZone::Before(_) => painter.hline(rect.x_range(), rect.top(), stroke),
        DropZone::After(_) => painter.hline(rect.x_range(), rect.bottom(), stroke),
        _ => painter.rect_stroke(rect, 2.0, stroke, egui::StrokeKind::Inside),
    };
    let badge = match preview.allowed {
        false => Some(("⛔".to_string(), color)),
        true if preview.keep_world => {
            keep_world_warning(scene, &dragged.0, drop_parent(scene, zone))
                .map(|w| (format!("⚠ {w}"), ui.visuals().warn_fg_color))
        }
        true => None,
    };
    if let Some((badge, badge_color)) = badge {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let at = rect.right_center() - egui::vec2(6.0, 0.0);
        painter.text(at, egui::Align2::RIGHT_CENTER, badge, font, badge_color);
    }
    hold_or_drop(ui, state, preview, out);
}
