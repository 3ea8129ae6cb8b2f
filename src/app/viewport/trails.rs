//! World-space trails: for the selected nodes, the path of their world origin over the clip
//! (sampled densely enough to look smooth), with time ticks. In the animated solar system the
//! moon's trail is the epicycle.

use super::{Frame, p2, sr};
use crate::editor::camera::Camera;
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
