//! A primitive of `editor::view::primitives` as egui shapes (lines, outlines, circles, plates,
//! haloed text), in the view's palette: what the viewport, its kept layers and the node layer
//! paint with.

use super::screen::p2;
use crate::editor::view::palette::Rgba;
use crate::editor::view::primitives::Prim;
use egui::{Color32, Pos2, Rect, Stroke};
use glam::Vec2;

/// A colour of the view's palette as egui's.
pub(crate) const fn c32(c: Rgba) -> Color32 {
    let [r, g, b, a] = c.0;
    Color32::from_rgba_unmultiplied_const(r, g, b, a)
}

/// Where text drawn from a primitive goes: its box (cap height to descenders, as the draw list
/// and figures have it) centred on the galley.
fn text_anchor(at: Vec2, size: f32) -> Pos2 {
    Pos2::new(at.x, at.y - 0.3 * size)
}

/// A primitive as egui shapes (bodies and density images are the node layer's to paint).
pub(crate) fn prim_shapes(ctx: &egui::Context, prim: &Prim, out: &mut Vec<egui::Shape>) {
    match *prim {
        Prim::Line { a, b, width, color } => {
            out.push(egui::Shape::line_segment(
                [p2(a), p2(b)],
                Stroke::new(width, c32(color)),
            ));
        }
        Prim::Polygon {
            ref points,
            width,
            color,
        } => polygon_shape(points, width, c32(color), out),
        Prim::Path {
            ref points,
            width,
            color,
            dash,
        } => path_shapes(points, Stroke::new(width, c32(color)), dash, out),
        Prim::Circle {
            center,
            radius,
            width,
            color,
        } if width > 0.0 => {
            let stroke = Stroke::new(width, c32(color));
            out.push(egui::Shape::circle_stroke(p2(center), radius, stroke));
        }
        Prim::Circle {
            center,
            radius,
            color,
            ..
        } => {
            out.push(egui::Shape::circle_filled(p2(center), radius, c32(color)));
        }
        Prim::Plate { min, max, color } => {
            let rect = Rect::from_min_max(p2(min), p2(max));
            out.push(egui::Shape::rect_filled(rect, 3.0, c32(color)));
        }
        Prim::Text {
            at,
            size,
            color,
            ref text,
            halo,
        } => text_shapes(ctx, (at, size), (color, halo), text, out),
        Prim::Body { .. } | Prim::Density { .. } => {}
    }
}

/// A closed outline stroked `width` px wide, or a filled (convex) area when `width` is 0.
fn polygon_shape(points: &[Vec2], width: f32, color: Color32, out: &mut Vec<egui::Shape>) {
    if width == 0.0 {
        let corners = points.iter().map(|p| p2(*p)).collect();
        out.push(egui::Shape::convex_polygon(corners, color, Stroke::NONE));
    } else {
        out.extend(closed_shape(points, Stroke::new(width, color)));
    }
}

/// An open line through `points`, dashed (dash, gap) or solid.
fn path_shapes(
    points: &[Vec2],
    stroke: Stroke,
    dash: Option<(f32, f32)>,
    out: &mut Vec<egui::Shape>,
) {
    let points: Vec<Pos2> = points.iter().map(|p| p2(*p)).collect();
    match dash {
        Some((dash, gap)) => out.extend(egui::Shape::dashed_line(&points, stroke, dash, gap)),
        None => out.push(egui::Shape::line(points, stroke)),
    }
}

/// A text primitive's galley, over its halo's copies when it has one.
fn text_shapes(
    ctx: &egui::Context,
    (at, size): (Vec2, f32),
    (color, halo): (Rgba, Option<Rgba>),
    text: &str,
    out: &mut Vec<egui::Shape>,
) {
    let font = egui::FontId::proportional(size);
    let galley = ctx.fonts_mut(|f| f.layout_no_wrap(text.to_owned(), font, c32(color)));
    let pos = egui::Align2::LEFT_CENTER
        .anchor_size(text_anchor(at, size), galley.size())
        .min;
    if let Some(halo) = halo {
        for (dx, dy) in HALO_OFFSETS {
            let moved = pos + egui::vec2(dx, dy);
            out.push(egui::Shape::galley_with_override_text_color(
                moved,
                galley.clone(),
                c32(halo),
            ));
        }
    }
    out.push(egui::Shape::galley(pos, galley, c32(color)));
}

/// Where a halo's copies of a text are drawn, around it (1 px each way).
const HALO_OFFSETS: [(f32, f32); 8] = [
    (-1.0, -1.0),
    (0.0, -1.0),
    (1.0, -1.0),
    (-1.0, 0.0),
    (1.0, 0.0),
    (-1.0, 1.0),
    (0.0, 1.0),
    (1.0, 1.0),
];

/// A closed outline, when it has an area.
pub(crate) fn closed_shape(outline: &[Vec2], stroke: Stroke) -> Option<egui::Shape> {
    (outline.len() > 2)
        .then(|| egui::Shape::closed_line(outline.iter().map(|p| p2(*p)).collect(), stroke))
}
