//! Viewport painting: the grid and world axes, nodes through their world matrices, drag ghosts,
//! the shear overlay and handles. What to draw and where comes from `crate::editor` (computed
//! camera-relative in f64); this file only turns it into egui shapes.

use super::{p2, sr};
use crate::editor::session::dnd::{DropPreview, drop_parent};
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{ScreenShape, clip_segment, world_f64};
use crate::editor::view::grid::grid;
use crate::editor::view::handles::{HANDLE_PX, Part, Tool};
use crate::editor::view::overlay::{ghost_worlds, shear_overlay_among};
use crate::model::scene::{NodeId, Scene};
use egui::{Color32, Pos2, Rect, Stroke};
use glam::{Affine2, DVec2, Vec2};

/// A line between two screen points given in f64, clipped to the view first.
pub(super) fn segment_shape(
    rect: ScreenRect,
    a: DVec2,
    b: DVec2,
    stroke: Stroke,
) -> Option<egui::Shape> {
    clip_segment(a, b, rect.expand(4.0))
        .map(|(a, b)| egui::Shape::line_segment([p2(a), p2(b)], stroke))
}

/// An arrow from `from` to `to` (screen, f64) as line shapes (egui's arrow: a tip a quarter
/// of its length); one that reaches far past the view is drawn as its clipped line without a
/// tip.
pub(super) fn arrow_shapes(
    rect: ScreenRect,
    from: DVec2,
    to: DVec2,
    stroke: Stroke,
    out: &mut Vec<egui::Shape>,
) {
    let near = |p: DVec2| (p - rect.center().as_dvec2()).abs().max_element() < 1e5;
    if near(from) && near(to) {
        let (origin, tip) = (p2(from.as_vec2()), p2(to.as_vec2()));
        let vec = tip - origin;
        let rot = egui::emath::Rot2::from_angle(std::f32::consts::TAU / 10.0);
        let (length, dir) = (vec.length() * 0.25, vec.normalized());
        out.push(egui::Shape::line_segment([origin, tip], stroke));
        out.push(egui::Shape::line_segment(
            [tip, tip - length * (rot * dir)],
            stroke,
        ));
        out.push(egui::Shape::line_segment(
            [tip, tip - length * (rot.inverse() * dir)],
            stroke,
        ));
    } else {
        out.extend(segment_shape(rect, from, to, stroke));
    }
}

fn arrow(painter: &egui::Painter, rect: ScreenRect, from: DVec2, to: DVec2, stroke: Stroke) {
    let mut shapes = Vec::new();
    arrow_shapes(rect, from, to, stroke, &mut shapes);
    painter.extend(shapes);
}

/// A closed outline, when it has an area.
pub(super) fn closed_shape(outline: &[Vec2], stroke: Stroke) -> Option<egui::Shape> {
    (outline.len() > 2)
        .then(|| egui::Shape::closed_line(outline.iter().map(|p| p2(*p)).collect(), stroke))
}

fn closed(painter: &egui::Painter, outline: &[Vec2], stroke: Stroke) {
    if let Some(shape) = closed_shape(outline, stroke) {
        painter.add(shape);
    }
}

/// The grid, its labels (kept apart at the corner) and the world axes.
pub(super) fn draw_grid(painter: &egui::Painter, rect: Rect, camera: Camera) {
    let g = grid(camera, sr(rect));
    let line = Stroke::new(1.0, Color32::from_gray(45));
    let text = Color32::from_gray(110);
    let font = egui::FontId::proportional(10.0);
    // The y labels sit in a column at the left, the x labels along the bottom: each skips the
    // corner the other uses.
    let (label_column, label_row) = (48.0, 14.0);
    for l in &g.vertical {
        painter.line_segment(
            [
                Pos2::new(l.screen, rect.top()),
                Pos2::new(l.screen, rect.bottom()),
            ],
            line,
        );
        if l.screen > rect.left() + label_column {
            let at = Pos2::new(l.screen + 2.0, rect.bottom() - 2.0);
            painter.text(at, egui::Align2::LEFT_BOTTOM, &l.label, font.clone(), text);
        }
    }
    for l in &g.horizontal {
        painter.line_segment(
            [
                Pos2::new(rect.left(), l.screen),
                Pos2::new(rect.right(), l.screen),
            ],
            line,
        );
        if l.screen < rect.bottom() - label_row {
            let at = Pos2::new(rect.left() + 2.0, l.screen - 2.0);
            painter.text(at, egui::Align2::LEFT_BOTTOM, &l.label, font.clone(), text);
        }
    }
    if let Some(y) = g.x_axis {
        let stroke = Stroke::new(1.5, Color32::from_rgb(120, 60, 60));
        painter.line_segment(
            [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)],
            stroke,
        );
    }
    if let Some(x) = g.y_axis {
        let stroke = Stroke::new(1.5, Color32::from_rgb(60, 120, 60));
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            stroke,
        );
    }
}

/// Outline one node (its shape) and ring its origin.
pub(super) fn outline_node(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    id: NodeId,
    stroke: Stroke,
) {
    let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id)) else {
        return;
    };
    if world_f64(&world).is_none() {
        return;
    }
    let m = camera.node_to_screen_f64(sr(rect), &world);
    let mut shape = ScreenShape::new();
    shape.compute(&scene.data_at(i).shape, &m, sr(rect));
    closed(painter, &shape.outline, stroke);
    if rect.expand(20.0).contains(p2(m.translation.as_vec2())) {
        painter.circle_stroke(p2(m.translation.as_vec2()), 8.0, stroke);
    }
}

/// The ghosts of a hierarchy drag: where the dragged nodes land with the chosen setting (bright)
/// and with the other (faint), with arrows for the nodes that would jump.
pub(super) fn draw_ghosts(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    preview: &DropPreview,
) {
    if !preview.allowed {
        return;
    }
    let view = sr(rect);
    let parent = drop_parent(scene, preview.zone);
    let mut shape = ScreenShape::new();
    for (keep_world, alpha) in [(preview.keep_world, 200u8), (!preview.keep_world, 70u8)] {
        let color = if keep_world {
            Color32::from_rgba_unmultiplied(120, 200, 255, alpha)
        } else {
            Color32::from_rgba_unmultiplied(255, 160, 90, alpha)
        };
        for (i, world) in ghost_worlds(scene, &preview.dragged, parent, keep_world) {
            if world_f64(&world).is_none() {
                continue;
            }
            let m = camera.node_to_screen_f64(view, &world);
            shape.compute(&scene.data_at(i).shape, &m, view);
            closed(painter, &shape.outline, Stroke::new(2.0, color));
            let origin = m.translation;
            if rect.expand(10.0).contains(p2(origin.as_vec2())) {
                painter.circle_stroke(p2(origin.as_vec2()), 4.0, Stroke::new(1.5, color));
            }
            if !keep_world && preview.dragged.contains(&scene.id_at(i)) {
                let from = camera.to_screen_f64(view, scene.world_at(i).translation.as_dvec2());
                arrow(painter, view, from, origin, Stroke::new(1.0, color));
            }
        }
    }
}

/// The shear warning overlay for the nodes on screen (the marks `crate::editor::view::overlay`
/// computes): outline, world-axes parallelogram and the angle off 90°; the parents that cause
/// it get a ring and a note.
/// Only the nodes the drawing pass found big enough on screen are looked at.
pub(super) fn draw_shear_overlay(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    candidates: &[usize],
) {
    let warn = Color32::from_rgb(255, 140, 0);
    let font = egui::FontId::proportional(12.0);
    let candidates = candidates.iter().copied();
    let overlay = shear_overlay_among(scene, camera, sr(rect), candidates);
    for mark in &overlay.marks {
        closed(painter, &mark.outline, Stroke::new(2.5, warn));
        closed(painter, &mark.axes, Stroke::new(1.5, warn));
        if let Some(text) = &mark.label {
            let at = p2(mark.axes[0]) + egui::vec2(6.0, 6.0);
            label(
                painter,
                at,
                egui::Align2::LEFT_TOP,
                text.clone(),
                &font,
                warn,
            );
        }
    }
    for (_, at) in &overlay.causes {
        let at = p2(*at);
        if !rect.expand(20.0).contains(at) {
            continue;
        }
        painter.circle_stroke(at, 9.0, Stroke::new(2.0, warn));
        let note = "non-uniform scale: causes shear below";
        let at = at + egui::vec2(12.0, 12.0);
        label(
            painter,
            at,
            egui::Align2::LEFT_TOP,
            note.to_string(),
            &font,
            warn,
        );
    }
}

/// Text on a dark plate, so it stays readable over any shape.
pub(super) fn label(
    painter: &egui::Painter,
    at: Pos2,
    align: egui::Align2,
    text: String,
    font: &egui::FontId,
    color: Color32,
) {
    let galley = painter.layout_no_wrap(text, font.clone(), color);
    let rect = align.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, Color32::from_black_alpha(170));
    painter.galley(rect.min, galley, color);
}

/// Draw the handles of `tool` for a node with this world matrix.
pub(super) fn draw_handles(
    painter: &egui::Painter,
    tool: Tool,
    camera: Camera,
    rect: Rect,
    world: &Affine2,
    axes: (Vec2, Vec2),
    hot: Option<Part>,
) {
    let origin = p2(camera.to_screen(sr(rect), world.translation));
    if !rect.expand(HANDLE_PX).contains(origin) {
        return;
    }
    let width = |part: Part| if hot == Some(part) { 3.5 } else { 2.0 };
    let red = Color32::from_rgb(240, 80, 80);
    let green = Color32::from_rgb(90, 220, 90);
    let blue = Color32::from_rgb(90, 160, 255);
    let dir = |axis: Vec2| {
        let d = camera.dir_to_screen(axis);
        egui::vec2(d.x, d.y) * HANDLE_PX
    };
    if tool != Tool::Rotate {
        // The centre square: free move, or uniform scale.
        let square = Rect::from_center_size(origin, egui::vec2(12.0, 12.0));
        let stroke = Stroke::new(width(Part::Center), blue);
        painter.rect_stroke(square, 0.0, stroke, egui::StrokeKind::Middle);
    }
    match tool {
        Tool::Move => {
            painter.arrow(origin, dir(axes.0), Stroke::new(width(Part::AxisX), red));
            painter.arrow(origin, dir(axes.1), Stroke::new(width(Part::AxisY), green));
        }
        Tool::Rotate => {
            painter.circle_stroke(origin, HANDLE_PX, Stroke::new(width(Part::Ring), blue));
        }
        Tool::Scale => {
            for (axis, part, color) in [(axes.0, Part::AxisX, red), (axes.1, Part::AxisY, green)] {
                let end = origin + dir(axis);
                painter.line_segment([origin, end], Stroke::new(width(part), color));
                let square = Rect::from_center_size(end, egui::vec2(10.0, 10.0));
                painter.rect_filled(square, 0.0, color);
            }
        }
    }
}
