//! Between egui's screen types and the editor layer's: rectangles and points.

use crate::editor::view::camera::ScreenRect;
use egui::{Pos2, Rect};
use glam::Vec2;

/// An egui rectangle as the editor layer's screen rectangle.
pub(crate) fn sr(r: Rect) -> ScreenRect {
    ScreenRect {
        min: v2(r.min),
        max: v2(r.max),
    }
}

/// A screen point from the editor layer as an egui position.
pub(crate) fn p2(v: Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// An egui position as a glam vector.
pub(crate) fn v2(p: Pos2) -> Vec2 {
    Vec2::new(p.x, p.y)
}
