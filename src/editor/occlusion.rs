//! Which of a frame's kept nodes show at all. A zoomed-in view of a dense scene keeps tens of
//! thousands of shapes that mostly lie under other opaque shapes drawn after them (pre-order
//! is painting order); fanning, outlining and copying those through egui's tessellator was
//! most of such a frame. Walking the kept nodes from the topmost down, each opaque rectangle
//! or ellipse marks the cells of a coarse screen grid that lie wholly inside it as covered; a
//! node whose screen box lies on covered cells only is hidden. The test is conservative: a
//! node is hidden only when something opaque above it covers all of its box.

use super::camera::{Camera, ScreenRect};
use super::geometry::screen_extent;
use crate::scene::{Scene, Shape};
use glam::DVec2;
use rustc_hash::FxHashSet;

/// Cell size of the coverage grid, in pixels.
const CELL: f64 = 4.0;
/// A box over more cells than this is not tested (it is drawn).
const TEST_MAX_CELLS: usize = 4_096;

/// For each node of `draw` (pre-order indices, in painting order): false when opaque shapes
/// drawn after it cover its whole screen box. Nodes in `always` are never hidden.
pub fn visible_nodes(
    scene: &Scene,
    camera: Camera,
    view: ScreenRect,
    draw: &[u32],
    always: &FxHashSet<u32>,
) -> Vec<bool> {
    let origin = view.min.as_dvec2();
    let size = (view.max - view.min).as_dvec2() / CELL;
    let (cols, rows) = (
        size.x.ceil().max(0.0) as usize,
        size.y.ceil().max(0.0) as usize,
    );
    let mut covered = vec![false; cols * rows];
    let mut visible = vec![true; draw.len()];
    if cols == 0 || rows == 0 {
        return visible;
    }
    let cells = |lo: f64, hi: f64, n: usize| -> (usize, usize) {
        // Cells overlapping [lo, hi) (clamped to the grid).
        let a = lo.floor().clamp(0.0, n as f64) as usize;
        let b = (hi.ceil()).clamp(0.0, n as f64) as usize;
        (a, b)
    };
    for (k, &i) in draw.iter().enumerate().rev() {
        let i = i as usize;
        let data = scene.data_at(i);
        let m = camera.node_to_screen_f64(view, &scene.world_at(i));
        let half = super::geometry::half_size(&data.shape);
        let extent = screen_extent(&m, half) + DVec2::splat(1.5); // outline and feathering
        let (lo, hi) = (
            (m.translation - extent - origin) / CELL,
            (m.translation + extent - origin) / CELL,
        );
        let ((x0, x1), (y0, y1)) = (cells(lo.x, hi.x, cols), cells(lo.y, hi.y, rows));
        let area = (x1 - x0) * (y1 - y0);
        if area > 0
            && area <= TEST_MAX_CELLS
            && !always.contains(&(i as u32))
            && (y0..y1).all(|y| covered[y * cols + x0..y * cols + x1].iter().all(|&c| c))
        {
            visible[k] = false;
            continue;
        }
        let opaque = data.color[3] == 255
            && matches!(data.shape, Shape::Rect { .. } | Shape::Ellipse { .. });
        if !opaque {
            continue;
        }
        // The circle inscribed in the shape's image (conjugate half-axes a and b: its radius is
        // at least |det(a, b)| / (|a| + |b|)), and the square inscribed in that circle.
        let a = m.matrix2.x_axis * half.x as f64;
        let b = m.matrix2.y_axis * half.y as f64;
        let r = (a.perp_dot(b)).abs() / (a.length() + b.length()).max(f64::MIN_POSITIVE);
        let s = r * std::f64::consts::FRAC_1_SQRT_2 / CELL;
        if s.is_nan() || s < 1.0 {
            continue; // covers no whole cell (or not finite)
        }
        let c = (m.translation - origin) / CELL;
        let inner = |lo: f64, hi: f64, n: usize| -> (usize, usize) {
            (
                lo.ceil().clamp(0.0, n as f64) as usize,
                hi.floor().clamp(0.0, n as f64) as usize,
            )
        };
        let ((x0, x1), (y0, y1)) = (inner(c.x - s, c.x + s, cols), inner(c.y - s, c.y + s, rows));
        for y in y0..y1 {
            covered[y * cols + x0..y * cols + x1].fill(true);
        }
    }
    visible
}
