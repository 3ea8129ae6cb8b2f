//! World-space trails: for the selected nodes, the path of their world origin over the clip
//! (sampled densely enough to look smooth), with time ticks. In the animated solar system the
//! moon's trail is the epicycle.

use super::{Frame, p2, sr};
use crate::editor::view::camera::Camera;
use egui::{Color32, Stroke};

/// Samples along a trail.
const SAMPLES: usize = 360;
/// Ticks along a trail (one every length / TICKS).
const TICKS: usize = 8;
/// Trails drawn at most (the first selected nodes).
const MAX_TRAILS: usize = 16;

/// Draw the trails of the selection, when trails are on.
pub(super) fn paint_trails(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    let editor = frame.editor;
    if !editor.timeline().trails {
        return;
    }
    let scene = editor.doc().scene();
    let length = scene.clip().length;
    let times: Vec<f32> = (0..=SAMPLES)
        .map(|k| length * k as f32 / SAMPLES as f32)
        .collect();
    let rect = sr(frame.rect);
    let color = Color32::from_rgb(120, 230, 255);
    for &node in editor.selection().iter().take(MAX_TRAILS) {
        let path = scene.world_path(node, &times);
        if path.len() < 2 {
            continue;
        }
        let points: Vec<egui::Pos2> = path
            .iter()
            .map(|p| p2(camera.to_screen_f64(rect, *p).as_vec2()))
            .collect();
        painter.add(egui::Shape::line(points.clone(), Stroke::new(1.5, color)));
        for k in 0..TICKS {
            let at = points[k * SAMPLES / TICKS];
            painter.circle_filled(at, 3.0, color);
            painter.text(
                at + egui::vec2(5.0, 5.0),
                egui::Align2::LEFT_TOP,
                format!("{:.2}s", length * k as f32 / TICKS as f32),
                egui::FontId::proportional(10.0),
                color,
            );
        }
    }
}

/// With "Composition side by side": each node's accumulated-TRS ghost (dashed, faint) and a
/// line to its true place, with the distance when it is visible.
pub(super) fn paint_accumulated(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    use crate::editor::session::command::ViewOption;
    use crate::editor::view::overlay::accumulated_ghosts;
    if !frame.editor.view().shows(ViewOption::AccumulatedGhosts) {
        return;
    }
    let scene = frame.editor.doc().scene();
    let ghost = Color32::from_rgba_unmultiplied(230, 120, 255, 150);
    for g in accumulated_ghosts(scene, camera, sr(frame.rect)) {
        if g.outline.len() > 2 {
            let mut pts: Vec<egui::Pos2> = g.outline.iter().map(|p| p2(*p)).collect();
            pts.push(pts[0]);
            painter.extend(egui::Shape::dashed_line(
                &pts,
                Stroke::new(1.5, ghost),
                5.0,
                4.0,
            ));
        }
        painter.circle_stroke(p2(g.origin), 3.5, Stroke::new(1.5, ghost));
        if (g.origin - g.true_origin).length() > 2.0 {
            painter.line_segment([p2(g.origin), p2(g.true_origin)], Stroke::new(1.0, ghost));
        }
        if g.error > 1e-4 && (g.origin - g.true_origin).length() > 12.0 {
            painter.text(
                p2(g.origin) + egui::vec2(6.0, 4.0),
                egui::Align2::LEFT_TOP,
                format!(
                    "off by {}",
                    crate::editor::view::numbers::format_number(g.error)
                ),
                egui::FontId::proportional(10.0),
                ghost,
            );
        }
    }
}

/// With "Interpolated world matrices": where blending the keyed world matrices would put each
/// animated node now (dashed cyan outline and axes), beside where interpolating its locals does.
pub(super) fn paint_world_blend(frame: &Frame, painter: &egui::Painter, camera: Camera) {
    use crate::editor::session::command::ViewOption;
    use crate::editor::view::geometry::ScreenShape;
    use crate::editor::view::overlay::world_blend_ghosts;
    let editor = frame.editor;
    if !editor.view().shows(ViewOption::WorldBlendGhosts) {
        return;
    }
    let scene = editor.doc().scene();
    let color = Color32::from_rgba_unmultiplied(90, 220, 255, 170);
    let rect = sr(frame.rect);
    let mut shape = ScreenShape::new();
    for (id, blended) in world_blend_ghosts(scene, editor.timeline().time) {
        let Ok(data) = scene.node(id) else { continue };
        let m = camera.node_to_screen_f64(rect, &blended);
        shape.compute(&data.shape, &m, rect);
        if shape.outline.len() > 2 {
            let mut pts: Vec<egui::Pos2> = shape.outline.iter().map(|p| p2(*p)).collect();
            pts.push(pts[0]);
            painter.extend(egui::Shape::dashed_line(
                &pts,
                Stroke::new(1.5, color),
                4.0,
                3.0,
            ));
        }
        let o = p2(m.translation.as_vec2());
        for axis in [glam::DVec2::X, glam::DVec2::Y] {
            let tip = p2(m.transform_point2(axis).as_vec2());
            painter.line_segment([o, tip], Stroke::new(1.0, color));
        }
    }
}
