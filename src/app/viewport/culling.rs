//! View ▸ Subtree bounds and View ▸ Culling rectangle, painted as `editor::view::culling_demo`
//! computes them: each subtree's world box, and a draggable "camera" rectangle with the
//! subtrees culling skips whole and the counts of nodes tested and drawn.

use super::prim_shapes::c32;
use super::screen::{p2, sr};
use super::state::{Frame, ViewportState};
use crate::editor::session::command::ViewOption;
use crate::editor::view::culling_demo::{WorldRect, cull_against, default_rect, subtree_boxes};
use crate::editor::view::palette::{self, Rgba};
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

/// A box of `SubtreeBounds` as a world rectangle.
fn world_rect(b: [f32; 4]) -> WorldRect {
    [b[0] as f64, b[1] as f64, b[2] as f64, b[3] as f64]
}

/// Paint both overlays when they are on; the culling rectangle can be dragged by its label.
pub(super) fn paint_culling(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let view = frame.fx.view;
    let scene = frame.fx.scene;
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
            let [red, _, blue, alpha] = palette::SUBTREE_BOX.0;
            let stroke = Stroke::new(1.0, c32(Rgba([red, shade, blue, alpha])));
            let outline_points = corners(frame, state, world_rect(b));
            outline(painter, outline_points, stroke, Color32::TRANSPARENT);
        }
    }
    if view.shows(ViewOption::Culling) {
        paint_camera_rect(frame, painter, state);
    } else {
        state.culling_rect = None;
    }
}

/// The culling rectangle, the subtrees it skips whole, the counts, and its drag handle.
fn paint_camera_rect(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let scene = frame.fx.scene;
    let screen = sr(frame.rect);
    let rect = *state.culling_rect.get_or_insert_with(|| {
        let a = state.camera.to_world(screen, screen.min);
        let b = state.camera.to_world(screen, screen.max);
        default_rect(a.min(b), a.max(b))
    });
    let report = cull_against(scene, &state.bounds, &state.extents, rect);
    let skipped_fill = c32(palette::CULLED_FILL);
    for &(i, _) in &report.skipped {
        if let Some(b) = state.bounds.subtree_box(i) {
            let stroke = Stroke::new(1.5, c32(palette::CULLED));
            outline(
                painter,
                corners(frame, state, world_rect(b)),
                stroke,
                skipped_fill,
            );
        }
    }
    let camera_color = c32(palette::CULLING_CAMERA);
    let points = corners(frame, state, rect);
    outline(
        painter,
        points.clone(),
        Stroke::new(2.0, camera_color),
        Color32::TRANSPARENT,
    );
    // The counts in the viewport's corner (always readable); the handle on the rectangle.
    let skipped = report.skipped.len();
    let counts = format!(
        "culling: {} tested · {} drawn\n{skipped} subtree{} skipped whole ({} nodes)",
        report.tested,
        report.drawn,
        if skipped == 1 { "" } else { "s" },
        report.skipped_nodes()
    );
    let corner = frame.rect.left_bottom() + egui::vec2(8.0, -70.0);
    tag(painter, corner, counts, camera_color);
    let at = points
        .iter()
        .fold(egui::pos2(f32::INFINITY, f32::INFINITY), |m, p| m.min(*p));
    let label = tag(
        painter,
        at - egui::vec2(0.0, 20.0),
        "✚ camera (drag)".into(),
        camera_color,
    );
    drag_handle(frame, state, label, rect);
}

/// Dragging the rectangle's label moves the rectangle in the world.
fn drag_handle(frame: &Frame, state: &mut ViewportState, label: egui::Rect, rect: WorldRect) {
    let screen = sr(frame.rect);
    let id = egui::Id::unique("graft-culling-rect");
    let handle = frame.ui.interact(label, id, egui::Sense::drag());
    if handle.dragged() {
        let delta = handle.drag_delta();
        let from = state.camera.to_world(screen, glam::Vec2::ZERO);
        let to = state.camera.to_world(screen, glam::vec2(delta.x, delta.y));
        let d = to - from;
        state.culling_rect = Some([rect[0] + d.x, rect[1] + d.y, rect[2] + d.x, rect[3] + d.y]);
    }
    handle.on_hover_cursor(egui::CursorIcon::Grab);
}

/// Text on a dark tag with its top-left at `at`; returns the tag's rectangle.
fn tag(painter: &egui::Painter, at: egui::Pos2, text: String, color: Color32) -> egui::Rect {
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(12.0), color);
    let back = egui::Rect::from_min_size(at, galley.size() + egui::vec2(8.0, 4.0));
    painter.rect_filled(back, 3.0, c32(palette::TAG_PLATE));
    painter.galley(back.min + egui::vec2(4.0, 2.0), galley, color);
    back
}
