//! Which of a frame's kept nodes show at all. A zoomed-in view of a dense scene keeps tens of
//! thousands of shapes that mostly lie under other opaque shapes drawn after them (pre-order
//! is painting order); fanning, outlining and copying those through egui's tessellator was
//! most of such a frame. Walking the kept nodes from the topmost down, each opaque rectangle
//! or ellipse marks the cells of a coarse screen grid that lie wholly inside it as covered; a
//! node whose screen box lies on covered cells only is hidden. The test is conservative: a
//! node is hidden only when something opaque above it covers all of its box. It reads only
//! what the frame plan found (each kept node's screen box and covered radius).

use crate::editor::view::camera::ScreenRect;
use rustc_hash::FxHashSet;

/// Cell size of the coverage grid, in pixels.
const CELL: f32 = 4.0;
/// A box over more cells than this is not tested (it is drawn).
const TEST_MAX_CELLS: usize = 4_096;
/// Kept shapes from which hidden ones are looked for (fewer are cheap to draw anyway).
pub const OCCLUSION_FROM: usize = 5_000;
/// Nodes drawn with outlines, axes and origins in a dense view (a plan that keeps
/// [`OCCLUSION_FROM`] shapes or more), where outlines and axes on every shape are clutter (and
/// in the viewport their strokes were most of the frame).
pub const DENSE_DETAIL_LIMIT: usize = 400;

/// Pixels around a shape's box its outline and edge smoothing may reach.
const OUTLINE: f32 = 1.5;

/// For each kept node (`draw`: pre-order indices in painting order; `screen`: the plan's
/// centre, half-extent and covered radius of each): false when opaque shapes drawn after it
/// cover its whole screen box. Nodes in `always` are never hidden.
pub fn visible_nodes(
    view: ScreenRect,
    draw: &[u32],
    screen: &[[f32; 5]],
    always: &FxHashSet<u32>,
) -> Vec<bool> {
    let size = (view.max - view.min) / CELL;
    let (cols, rows) = (
        size.x.ceil().max(0.0) as usize,
        size.y.ceil().max(0.0) as usize,
    );
    let mut covered = vec![false; cols * rows];
    let mut visible = vec![true; draw.len()];
    if cols == 0 || rows == 0 || screen.len() != draw.len() {
        return visible;
    }
    let (ox, oy) = (view.min.x, view.min.y);
    // Cells overlapping [lo, hi] (outer) or lying wholly inside it (inner), clamped.
    let outer = |lo: f32, hi: f32, n: usize| {
        (
            lo.floor().clamp(0.0, n as f32) as usize,
            hi.ceil().clamp(0.0, n as f32) as usize,
        )
    };
    let inner = |lo: f32, hi: f32, n: usize| {
        (
            lo.ceil().clamp(0.0, n as f32) as usize,
            hi.floor().clamp(0.0, n as f32) as usize,
        )
    };
    for (k, (&i, &[x, y, ex, ey, cover])) in draw.iter().zip(screen).enumerate().rev() {
        let (cx, cy) = ((x - ox) / CELL, (y - oy) / CELL);
        let (hx, hy) = ((ex + OUTLINE) / CELL, (ey + OUTLINE) / CELL);
        let ((x0, x1), (y0, y1)) = (outer(cx - hx, cx + hx, cols), outer(cy - hy, cy + hy, rows));
        let area = (x1 - x0) * (y1 - y0);
        if area > 0
            && area <= TEST_MAX_CELLS
            && !always.contains(&i)
            && (y0..y1).all(|y| covered[y * cols + x0..y * cols + x1].iter().all(|&c| c))
        {
            visible[k] = false;
            continue;
        }
        // The square inscribed in the covered circle.
        let s = cover * std::f32::consts::FRAC_1_SQRT_2 / CELL;
        if s.is_nan() || s < 1.0 {
            continue; // covers no whole cell
        }
        let ((x0, x1), (y0, y1)) = (inner(cx - s, cx + s, cols), inner(cy - s, cy + s, rows));
        for y in y0..y1 {
            covered[y * cols + x0..y * cols + x1.max(x0)].fill(true);
        }
    }
    visible
}
