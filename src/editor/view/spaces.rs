//! Coordinate spaces made visible, without egui: a node's own grid as lines on screen. Naming
//! a space and carrying points between spaces are the model's ([`crate::model::spaces`],
//! re-exported here).

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{clip_convex, clip_segment};
use crate::editor::view::numbers::grid_label;
pub use crate::model::spaces::{carry_point, from_world, relative_matrix, resolve_space, to_world};
use glam::{Affine2, DVec2, Vec2};

/// Lines drawn per direction at most (the step grows to keep them ≥ 20 px apart).
pub const LOCAL_GRID_LINE_CAP: usize = 200;

/// A node's own coordinate grid as it lies on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum LocalGrid {
    /// The node's world matrix is singular: no grid (a zero scale somewhere above or in it).
    Singular {
        /// Where its origin is on screen.
        origin: Vec2,
    },
    /// The grid.
    Lines {
        /// Local units between lines (1, 2 or 5 × 10^k; 1 unless lines would crowd).
        step: f64,
        /// Lines of constant local x (`[0]`) and of constant local y (`[1]`): screen start,
        /// screen end and the local coordinate, clipped to the view.
        lines: [Vec<(Vec2, Vec2, f64)>; 2],
        /// The local x axis (y = 0) and y axis (x = 0), clipped to the view.
        axes: [Option<(Vec2, Vec2)>; 2],
        /// Labels of the ticks on the two axes: where, and the local coordinate.
        ticks: Vec<(Vec2, String)>,
        /// The image of the local unit square (0,0), (1,0), (1,1), (0,1), clipped to the view.
        unit_square: Vec<Vec2>,
    },
}

/// The smallest 1, 2 or 5 × 10^k local step whose lines are at least `min_px` apart when
/// neighbouring lines are `px_per_unit` pixels apart per local unit.
fn step_for(px_per_unit: f64, min_px: f64) -> f64 {
    if !px_per_unit.is_finite() || px_per_unit <= 0.0 {
        return f64::INFINITY;
    }
    let raw = (min_px / px_per_unit).max(1.0);
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * (1.0 - 1e-12))
        .unwrap_or(10.0 * magnitude)
}

/// The grid of the space whose local → world matrix is `world`, as the camera shows it: unit
/// lines (wider steps where they would crowd), the axes, ticks labelled on them, and the unit
/// square — all computed camera-relative in f64 and clipped to the view.
pub fn local_grid(camera: Camera, rect: ScreenRect, world: &Affine2) -> LocalGrid {
    let m = camera.node_to_screen_f64(rect, world);
    let origin = m.translation.as_vec2();
    let det = m.matrix2.determinant();
    let (c0, c1) = (m.matrix2.x_axis, m.matrix2.y_axis);
    if !det.is_finite() || det.abs() <= 1e-9 * c0.length() * c1.length() || det == 0.0 {
        return LocalGrid::Singular { origin };
    }
    let (lo, hi) = local_bounds(&m.inverse(), rect);
    // Lines of constant x are |det| / |c1| pixels apart per unit, those of constant y |det| / |c0|.
    let step = step_for(det.abs() / c1.length(), 20.0).max(step_for(det.abs() / c0.length(), 20.0));
    let mut lines = [Vec::new(), Vec::new()];
    let mut ticks = Vec::new();
    for axis in [0, 1] {
        lines[axis] = grid_lines(&m, (lo, hi), step, rect, axis, &mut ticks);
    }
    let view = rect.expand(2.0);
    let axis_line =
        |p: DVec2, q: DVec2| clip_segment(m.transform_point2(p), m.transform_point2(q), view);
    let axes = [
        axis_line(DVec2::new(lo.x, 0.0), DVec2::new(hi.x, 0.0)),
        axis_line(DVec2::new(0.0, lo.y), DVec2::new(0.0, hi.y)),
    ];
    let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y].map(|p| m.transform_point2(p));
    let bounds = rect.expand(2048.0);
    let unit_square = clip_convex(&square, bounds.min.as_dvec2(), bounds.max.as_dvec2())
        .into_iter()
        .map(DVec2::as_vec2)
        .collect();
    LocalGrid::Lines {
        step,
        lines,
        axes,
        ticks,
        unit_square,
    }
}

/// The box, in the space's coordinates, that holds the view's corners (`inverse`: screen →
/// local): the lines worth drawing lie inside it.
fn local_bounds(inverse: &glam::DAffine2, rect: ScreenRect) -> (DVec2, DVec2) {
    let corners = [
        rect.min,
        Vec2::new(rect.max.x, rect.min.y),
        rect.max,
        Vec2::new(rect.min.x, rect.max.y),
    ]
    .map(|p| inverse.transform_point2(p.as_dvec2()));
    let lo = corners.iter().fold(DVec2::INFINITY, |a, p| a.min(*p));
    let hi = corners.iter().fold(DVec2::NEG_INFINITY, |a, p| a.max(*p));
    (lo, hi)
}

/// The lines of constant x (`axis` 0) or y (1) every `step` units inside `lo..hi`, clipped
/// to the view, each with its value; their ticks on the other axis go to `ticks`.
fn grid_lines(
    m: &glam::DAffine2,
    (lo, hi): (DVec2, DVec2),
    step: f64,
    rect: ScreenRect,
    axis: usize,
    ticks: &mut Vec<(Vec2, String)>,
) -> Vec<(Vec2, Vec2, f64)> {
    let mut lines = Vec::new();
    let view = rect.expand(2.0);
    let (a, b) = if axis == 0 {
        (lo.x, hi.x)
    } else {
        (lo.y, hi.y)
    };
    let (first, last) = ((a / step).ceil(), (b / step).floor());
    if !(first.is_finite() && last.is_finite()) || first.abs().max(last.abs()) > 2f64.powi(52) {
        return lines;
    }
    let count = ((last - first + 1.0).max(0.0) as usize).min(LOCAL_GRID_LINE_CAP);
    for k in 0..count {
        let value = (first + k as f64) * step;
        let (p, q, tick) = if axis == 0 {
            (
                DVec2::new(value, lo.y),
                DVec2::new(value, hi.y),
                DVec2::new(value, 0.0),
            )
        } else {
            (
                DVec2::new(lo.x, value),
                DVec2::new(hi.x, value),
                DVec2::new(0.0, value),
            )
        };
        if let Some((s, e)) = clip_segment(m.transform_point2(p), m.transform_point2(q), view) {
            lines.push((s, e, value));
        }
        let at = m.transform_point2(tick);
        if value != 0.0 && rect.contains(at.as_vec2()) && ticks.len() < 2 * LOCAL_GRID_LINE_CAP {
            ticks.push((at.as_vec2(), grid_label(value, step)));
        }
    }
    lines
}
