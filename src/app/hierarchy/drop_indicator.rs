//! Drag and drop in the hierarchy: the drop indicator, the refused and warning badges, and the
//! preview the viewport draws as ghosts. Where a drop goes, or why it is refused, is planned
//! once per frame by [`DropPreview::plan`] and carried to the session on release.

use super::state::HierarchyState;
use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::editor::session::command::{Command, PanelCommand};
use crate::editor::session::drop_rules::{DropBadge, DropPreview, DropZone, drop_keep, zone_for};

use crate::model::scene::NodeId;

/// The nodes being dragged in the hierarchy (topmost selected nodes, pre-order).
#[derive(Clone, Debug, PartialEq)]
pub struct DraggedNodes(pub Vec<NodeId>);

/// The drop of the dragged nodes in `zone` as it would be now (Shift inverts the toggle).
pub(super) fn plan(
    ui: &egui::Ui,
    fx: &FrameContext,
    dragged: &[NodeId],
    zone: DropZone,
) -> DropPreview {
    let keep = drop_keep(fx.keep_world, ui.input(|i| i.modifiers.shift));
    DropPreview::plan(fx.scene, dragged, zone, keep)
}

/// Keep the planned drop for the indicator and the ghosts; on release, send it as it was
/// planned.
pub(super) fn hold_or_drop(
    ui: &egui::Ui,
    state: &mut HierarchyState,
    preview: DropPreview,
    out: &CommandSender,
) {
    if ui.input(|i| i.pointer.any_released()) {
        egui::DragAndDrop::clear_payload(ui.ctx());
        state.preview = None;
        out.send(Command::Panel(PanelCommand::DropRows(Box::new(preview))));
    } else {
        state.preview = Some(preview);
    }
}

/// While something is dragged over this row: show where it would land, and drop it on release.
pub(super) fn drop_target(
    ui: &egui::Ui,
    fx: &FrameContext,
    state: &mut HierarchyState,
    rect: egui::Rect,
    id: NodeId,
    out: &CommandSender,
) {
    let scene = fx.scene;
    let Some(dragged) = egui::DragAndDrop::payload::<DraggedNodes>(ui.ctx()) else {
        return;
    };
    let Some(pointer) = ui.ctx().pointer_latest_pos().filter(|p| rect.contains(*p)) else {
        return;
    };
    let zone = zone_for(rect.top(), rect.height(), pointer.y, id);
    let preview = plan(ui, fx, &dragged.0, zone);
    let painter = ui.painter();
    let color = if preview.allowed() {
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
    let badge = preview.badge(scene).map(|badge| {
        let badge_color = match badge {
            DropBadge::Refused(_) => color,
            DropBadge::Warning(_) => ui.visuals().warn_fg_color,
        };
        (badge.text(), badge_color)
    });
    if let Some((badge, badge_color)) = badge {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let at = rect.right_center() - egui::vec2(6.0, 0.0);
        // On the row's background, so a long reason stays legible over the row's name.
        let galley = painter.layout_no_wrap(badge, font, badge_color);
        let place = egui::Align2::RIGHT_CENTER.anchor_size(at, galley.size());
        painter.rect_filled(place.expand(2.0), 2.0, ui.visuals().panel_fill);
        painter.galley(place.min, galley, badge_color);
    }
    hold_or_drop(ui, state, preview, out);
}
