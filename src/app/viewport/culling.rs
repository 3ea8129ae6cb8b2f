//! View ▸ Subtree bounds and View ▸ Culling rectangle, painted as `editor::view::culling`
//! computes them: each subtree's world box, and a draggable "camera" rectangle with the
//! subtrees culling skips whole and the counts of nodes tested and drawn.

use super::{Frame, ViewportState, p2, sr};
use crate::editor::session::command::ViewOption;
use crate::editor::view::culling::{WorldRect, cull_against, default_rect, subtree_boxes};
use egui::{Color32, Stroke};
use glam::DVec2;

/// At most this many subtree boxes are drawn (the first in pre-order: the biggest subtrees).
const MAX_BOXES: usize = 2_000;

/// A world rectangle's corners on screen (a rotated view turns it).
fn corners(frame: &Frame, state: &ViewportState, r: WorldRect) -> Vec<egui::Pos2> {
    let rect = sr(frame.rect);
    [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])]
        .into_iter()
        .map(|(x, y)| p2(state.camera.to_screen_f64(rect, DVec2::new(x, y)).as_vec2()))
        .collect()
}

fn outline(painter: &egui::Painter, points: Vec<egui::Pos2>, stroke: Stroke, fill: Color32) {
    painter.add(egui::Shape::convex_polygon(points, fill, stroke));
}

/// Paint both overlays when they are on; the culling rectangle can be dragged by its label.
pub(super) fn paint_culling(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let view = frame.editor.view();
    let scene = frame.editor.doc().scene();
    if !view.shows(ViewOption::SubtreeBounds) && !view.shows(ViewOption::Culling) {
        state.culling_rect = None;
        return;
    }
    // Current for this frame's world (a no-op when the node layer already refreshed them).
    state.extents.refresh(scene);
    state.bounds.refresh(scene, &state.extents);
    if view.shows(ViewOption::SubtreeBounds) {
        for (_, depth, b) in subtree_boxes(scene, &state.bounds, MAX_BOXES) {
            let shade = 255u8.saturating_sub((depth.min(6) * 30) as u8);
            let stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, shade, 80, 200));
            let r = [b[0] as f64, b[1] as f64, b[2] as f64, b[3] as f64];
            outline(
                painter,
                corners(frame, state, r),
                stroke,
                Color32::TRANSPARENT,
            );
        }
    }
    if !view.shows(ViewOption::Culling) {
        state.culling_rect = None;
        return;
    }
    let screen = sr(frame.rect);
    let rect = *state.culling_rect.get_or_insert_with(|| {
        let a = state.camera.to_world(screen, screen.min);
        let b = state.camera.to_world(screen, screen.max);
        default_rect(a.min(b), a.max(b))
    });
    let report = cull_against(scene, &state.bounds, &state.extents, rect);
    let skipped_fill = Color32::from_rgba_unmultiplied(200, 60, 60, 40);
    for &(i, _) in &report.skipped {
        if let Some(b) = state.bounds.subtree_box(i) {
            let r = [b[0] as f64, b[1] as f64, b[2] as f64, b[3] as f64];
            let stroke = Stroke::new(1.5, Color32::from_rgb(220, 80, 80));
            outline(painter, corners(frame, state, r), stroke, skipped_fill);
        }
    }
    let camera_color = Color32::from_rgb(120, 220, 255);
    let points = corners(frame, state, rect);
    outline(
        painter,
        points.clone(),
        Stroke::new(2.0, camera_color),
        Color32::TRANSPARENT,
    );
    let font = egui::FontId::proportional(12.0);
    // The counts in the viewport's corner (always readable); the handle on the rectangle.
    let counts = format!(
        "culling: {} tested · {} drawn · {} subtrees skipped whole ({} nodes)",
        report.tested,
        report.drawn,
        report.skipped.len(),
        report.skipped_nodes()
    );
    let galley = painter.layout_no_wrap(counts, font.clone(), camera_color);
    let corner = frame.rect.left_bottom() + egui::vec2(8.0, -44.0 - galley.size().y);
    let back = egui::Rect::from_min_size(corner, galley.size() + egui::vec2(8.0, 4.0));
    painter.rect_filled(back, 3.0, Color32::from_black_alpha(200));
    painter.galley(back.min + egui::vec2(4.0, 2.0), galley, camera_color);
    let at = points
        .iter()
        .fold(egui::pos2(f32::INFINITY, f32::INFINITY), |m, p| m.min(*p));
    let galley = painter.layout_no_wrap("✚ camera (drag)".into(), font, camera_color);
    let label = egui::Rect::from_min_size(
        at - egui::vec2(0.0, galley.size().y + 4.0),
        galley.size() + egui::vec2(8.0, 4.0),
    );
    painter.rect_filled(label, 3.0, Color32::from_black_alpha(180));
    painter.galley(label.min + egui::vec2(4.0, 2.0), galley, camera_color);
    let handle = frame.ui.interact(
        label,
        egui::Id::unique("graft-culling-rect"),
        egui::Sense::drag(),
    );
    if handle.dragged() {
        let delta = handle.drag_delta();
        let from = state.camera.to_world(screen, glam::Vec2::ZERO);
        let to = state.camera.to_world(screen, glam::vec2(delta.x, delta.y));
        let d = to - from;
        state.culling_rect = Some([rect[0] + d.x, rect[1] + d.y, rect[2] + d.x, rect[3] + d.y]);
    }
    handle.on_hover_cursor(egui::CursorIcon::Grab);
}
