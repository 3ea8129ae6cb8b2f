//! The viewport grid as data: a step of 1, 2 or 5 × 10^k world units, and a counted, capped list
//! of lines, each computed as `(first + i) · step` in f64 (never by accumulation), with labels.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::numbers::grid_label;
use glam::DVec2;

/// No more grid lines than this per direction, whatever the view (the step keeps them ≥ 40 px
/// apart, so a view narrower than 10,000 px never reaches it).
pub const GRID_LINE_CAP: usize = 256;

/// Pixels between grid lines, at least.
const MIN_SPACING_PX: f64 = 40.0;

/// The grid step at this zoom: 1, 2 or 5 × 10^k world units, at least ~40 px apart.
pub fn grid_step(zoom: f64) -> f64 {
    let raw = MIN_SPACING_PX / zoom;
    if !raw.is_finite() || raw <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

/// One grid line: its world coordinate, where it is on screen, and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct GridLine {
    /// The world coordinate (x for a vertical line, y for a horizontal one).
    pub value: f64,
    /// Its screen coordinate (x for a vertical line, y for a horizontal one).
    pub screen: f32,
    /// The label: `value` with the digits the step needs.
    pub label: String,
}

/// The grid for one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// World units between lines.
    pub step: f64,
    /// Lines of constant x, left to right.
    pub vertical: Vec<GridLine>,
    /// Lines of constant y, bottom to top.
    pub horizontal: Vec<GridLine>,
    /// The screen x of the world y axis (x = 0), when in view.
    pub y_axis: Option<f32>,
    /// The screen y of the world x axis (y = 0), when in view.
    pub x_axis: Option<f32>,
}

/// The lines `first · step ..= last · step` covering `lo..=hi`, capped.
fn lines(lo: f64, hi: f64, step: f64, to_screen: impl Fn(f64) -> f64) -> Vec<GridLine> {
    let (first, last) = ((lo / step).ceil(), (hi / step).floor());
    // Beyond 2^52 consecutive multiples of the step are no longer distinct f64 numbers.
    if !(first.is_finite() && last.is_finite()) || first.abs().max(last.abs()) > 2f64.powi(52) {
        return Vec::new();
    }
    let count = ((last - first + 1.0).max(0.0) as usize).min(GRID_LINE_CAP);
    (0..count)
        .map(|i| {
            let value = (first + i as f64) * step;
            GridLine {
                value,
                screen: to_screen(value) as f32,
                label: grid_label(value, step),
            }
        })
        .collect()
}

/// The grid lines and axes of the viewed space (the world, or the node viewed from) visible
/// through `camera` in `rect`.
pub fn grid(camera: Camera, rect: ScreenRect) -> Grid {
    let step = grid_step(camera.zoom);
    // In the viewed space (the world, or a node's), whose axes are the screen's.
    let lo = camera.screen_to_view(rect, glam::Vec2::new(rect.min.x, rect.max.y));
    let hi = camera.screen_to_view(rect, glam::Vec2::new(rect.max.x, rect.min.y));
    let screen = |p: DVec2| camera.view_to_screen(rect, p);
    let vertical = lines(lo.x, hi.x, step, |x| screen(DVec2::new(x, 0.0)).x);
    let horizontal = lines(lo.y, hi.y, step, |y| screen(DVec2::new(0.0, y)).y);
    let origin = screen(DVec2::ZERO);
    Grid {
        step,
        vertical,
        horizontal,
        y_axis: (lo.x <= 0.0 && 0.0 <= hi.x).then_some(origin.x as f32),
        x_axis: (lo.y <= 0.0 && 0.0 <= hi.y).then_some(origin.y as f32),
    }
}
