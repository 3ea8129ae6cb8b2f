//! World-space trails and the two comparison ghosts, painted as `editor::view::trails` places
//! them: for the selected nodes, the path of their world origin over the clip with time ticks
//! (in the animated solar system the moon's trail is the epicycle); each node's
//! accumulated-TRS ghost; each animated node's blended-world-matrix ghost.

use super::prim_shapes::c32;
use super::screen::{p2, sr};
use super::state::Frame;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::Camera;
use crate::editor::view::palette;
use crate::editor::view::trails::{
    LABEL_OFFSET, accumulated_marks, tick_label, trails, world_blend_marks,
};
use egui::Stroke;

/// The font of tick labels and notes.
fn small_font() -> egui::FontId {
    egui::FontId::proportional(10.0)
}

/// A closed outline as a dashed line (nothing for an empty one).
fn dashed(painter: &egui::Painter, outline: &[glam::Vec2], stroke: Stroke, dash: (f32, f32)) {
    if outline.is_empty() {
        return;
    }
    let points: Vec<egui::Pos2> = outline.iter().map(|p| p2(*p)).collect();
    painter.extend(egui::Shape::dashed_line(&points, stroke, dash.0, dash.1));
}

/// Draw the trails of the selection, when trails are on.
pub(super) fn paint_trails(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    let editor = frame.editor;
    if !editor.timeline().trails() {
        return;
    }
    let scene = editor.doc().scene();
    let color = c32(palette::TRAIL);
    // The widest label is the latest tick's (the most digits): measure it once.
    let widest = tick_label(scene.clip().length);
    let size = painter.layout_no_wrap(widest, small_font(), color).size();
    let label_size = glam::Vec2::new(size.x, size.y);
    let rect = sr(frame.rect);
    for trail in trails(scene, editor.selection(), camera, rect, label_size) {
        let points: Vec<egui::Pos2> = trail.points.iter().map(|p| p2(*p)).collect();
        painter.add(egui::Shape::line(points, Stroke::new(1.5, color)));
        for tick in trail.ticks {
            let at = p2(tick.at);
            painter.circle_filled(at, 3.0, color);
            if let Some(label) = tick.label {
                let offset = egui::vec2(LABEL_OFFSET.x, LABEL_OFFSET.y);
                let align = egui::Align2::LEFT_TOP;
                painter.text(at + offset, align, label, small_font(), color);
            }
        }
    }
}

/// With "Composition side by side": each node's accumulated-TRS ghost (dashed, faint) and a
/// line to its true place, with the distance when it is visible.
pub(super) fn paint_accumulated(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    if !frame.editor.view().shows(ViewOption::AccumulatedGhosts) {
        return;
    }
    let scene = frame.editor.doc().scene();
    let ghost = c32(palette::GHOST);
    for mark in accumulated_marks(scene, camera, sr(frame.rect)) {
        dashed(painter, &mark.outline, Stroke::new(1.5, ghost), (5.0, 4.0));
        let origin = p2(mark.origin);
        painter.circle_stroke(origin, 3.5, Stroke::new(1.5, ghost));
        if let Some(true_origin) = mark.link {
            painter.line_segment([origin, p2(true_origin)], Stroke::new(1.0, ghost));
        }
        if let Some(note) = mark.note {
            let at = origin + egui::vec2(6.0, 4.0);
            painter.text(at, egui::Align2::LEFT_TOP, note, small_font(), ghost);
        }
    }
}

/// With "Interpolated world matrices": where blending the keyed world matrices would put each
/// animated node now (dashed cyan outline and axes), beside where interpolating its locals does.
pub(super) fn paint_world_blend(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    let editor = frame.editor;
    if !editor.view().shows(ViewOption::WorldBlendGhosts) {
        return;
    }
    let scene = editor.doc().scene();
    let color = c32(palette::BLEND);
    let time = editor.timeline().time();
    for mark in world_blend_marks(scene, time, camera, sr(frame.rect)) {
        dashed(painter, &mark.outline, Stroke::new(1.5, color), (4.0, 3.0));
        let origin = p2(mark.origin);
        for tip in mark.axes {
            painter.line_segment([origin, p2(tip)], Stroke::new(1.0, color));
        }
    }
}
