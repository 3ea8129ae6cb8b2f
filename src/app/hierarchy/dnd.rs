//! Drag and drop in the hierarchy: drop zones, the reparent ops a drop performs, the refused and
//! warning indicators, and the preview the viewport draws as ghosts.

use super::HierarchyState;
use crate::editor::session::Editor;
use crate::editor::session::command::Command;
use crate::editor::session::dnd::{
    DropPreview, DropZone, drop_ops, drop_parent, keep_world_warning, zone_for,
};

use crate::model::scene::NodeId;

/// The nodes being dragged in the hierarchy (topmost selected nodes, pre-order).
#[derive(Clone, Debug, PartialEq)]
pub struct DraggedNodes(pub Vec<NodeId>);

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
    let shift = ui.input(|i| i.modifiers.shift);
    let keep_world = editor.keep_world() != shift;
    let result = drop_ops(scene, &dragged.0, zone, keep_world);
    state.preview = Some(DropPreview {
        dragged: dragged.0.clone(),
        zone,
        keep_world,
        allowed: result.is_ok(),
    });
    let painter = ui.painter();
    let color = if result.is_ok() {
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
    let badge = match &result {
        Err(_) => Some(("⛔".to_string(), color)),
        Ok(_) if keep_world => keep_world_warning(scene, &dragged.0, drop_parent(scene, zone))
            .map(|w| (format!("⚠ {w}"), ui.visuals().warn_fg_color)),
        Ok(_) => None,
    };
    if let Some((badge, badge_color)) = badge {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let at = rect.right_center() - egui::vec2(6.0, 0.0);
        painter.text(at, egui::Align2::RIGHT_CENTER, badge, font, badge_color);
    }
    if ui.input(|i| i.pointer.any_released()) {
        egui::DragAndDrop::clear_payload(ui.ctx());
        state.preview = None;
        out.push(Command::Drop {
            dragged: dragged.0.clone(),
            zone,
            keep_world,
        });
    }
}
