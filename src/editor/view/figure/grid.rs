//! A figure's grid: lines, their labels (skipped where they would touch) and the world axes.

use super::{LABEL_CHAR_PX, colors, line, text};
use crate::editor::view::camera::Camera;
use crate::editor::view::camera::ScreenRect;
use crate::editor::view::grid::{GridLine, grid};
use glam::DVec2;

/// The grid lines, their labels and the world axes.
pub(super) fn grid_layer(out: &mut String, camera: Camera, rect: ScreenRect) {
    let g = grid(camera, rect);
    let (right, bottom) = (rect.max.x as f64, rect.max.y as f64);
    grid_verticals(out, &g.vertical, bottom);
    for l in &g.horizontal {
        let y = l.screen as f64;
        line(
            out,
            DVec2::new(0.0, y),
            DVec2::new(right, y),
            colors::GRID,
            1.0,
        );
        if y < bottom - 14.0 {
            text(
                out,
                DVec2::new(2.0, y - 2.0),
                10.0,
                colors::GRID_TEXT,
                &l.label,
            );
        }
    }
    if let Some(y) = g.x_axis {
        let y = y as f64;
        line(
            out,
            DVec2::new(0.0, y),
            DVec2::new(right, y),
            colors::X_AXIS,
            1.5,
        );
    }
    if let Some(x) = g.y_axis {
        let x = x as f64;
        line(
            out,
            DVec2::new(x, 0.0),
            DVec2::new(x, bottom),
            colors::Y_AXIS,
            1.5,
        );
    }
}

/// The vertical grid lines, labelled along the bottom; long labels (1.000000005e7) would run
/// into each other, so a label is skipped where it would touch the one before.
fn grid_verticals(out: &mut String, lines: &[GridLine], bottom: f64) {
    let mut free_from = 48.0;
    for l in lines {
        let x = l.screen as f64;
        line(
            out,
            DVec2::new(x, 0.0),
            DVec2::new(x, bottom),
            colors::GRID,
            1.0,
        );
        if x > free_from {
            let at = DVec2::new(x + 2.0, bottom - 3.0);
            text(out, at, 10.0, colors::GRID_TEXT, &l.label);
            free_from = x + 6.0 + LABEL_CHAR_PX * l.label.chars().count() as f64;
        }
    }
}
