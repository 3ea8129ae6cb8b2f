//! Which nodes a viewport frame draws, and how, decided without egui and on every core: one
//! pass over the pre-order arrays (cut into one contiguous range per thread) sorts each node
//! into "off screen" (a whole subtree at once when its box misses the view), "splat" (smaller
//! than a few pixels: added to a density grid, a whole tiny subtree as one splat) or "draw"
//! (kept, in order, for the painter to fan and outline). The pass also collects the parent
//! links worth a line and the nodes big enough for a shear mark. The painter then touches the
//! full data of the drawn nodes only.
//!
//! A thread never makes a subtree-wide decision for a subtree that runs past the end of its
//! range: it visits those nodes one by one, so the ranges need not fall on subtree boundaries
//! and every node is decided exactly once.

use super::camera::{Camera, ScreenRect};
use super::cull::{CULL_MIN_SUBTREE, Extents, SubtreeBounds, world_to_screen};
use super::geometry::{clip_segment, screen_extent};
use super::overlay::may_get_shear_mark;
use crate::scene::Scene;
use glam::{DVec2, Vec2};
use rustc_hash::FxHashSet;

/// Screen cell size of the density grid, in pixels.
pub const CELL: f64 = 2.0;
/// Parent-child link lines drawn at most.
pub const LINK_LIMIT: usize = 3_000;
/// Shapeless nodes (drawn as origin dots only while detailed) kept at most per range.
pub const SHAPELESS_LIMIT: usize = 1_500;
/// Scenes smaller than this are planned on one thread.
pub const PARALLEL_MIN_NODES: usize = 50_000;
/// Pixels around the view a subtree's box must reach to be visited.
const CULL_MARGIN: f64 = 24.0;

/// Per-cell area-weighted colour sums of what was splatted: red, green, blue, alpha, area.
#[derive(Clone, Debug, Default)]
pub struct DensityGrid {
    origin: DVec2,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Per cell: area-weighted red, green, blue and alpha sums, and the covered area (px²).
    pub sums: Vec<[f32; 5]>,
    /// Splats added.
    pub count: usize,
}

impl DensityGrid {
    /// An empty grid over this screen rect, keeping the allocation of `reuse`.
    pub fn over(rect: ScreenRect, mut reuse: Vec<[f32; 5]>) -> Self {
        let size = (rect.max - rect.min).as_dvec2() / CELL;
        let (cols, rows) = (
            size.x.ceil().max(0.0) as usize,
            size.y.ceil().max(0.0) as usize,
        );
        reuse.clear();
        reuse.resize(cols * rows, [0.0; 5]);
        Self {
            origin: rect.min.as_dvec2(),
            cols,
            rows,
            sums: reuse,
            count: 0,
        }
    }

    /// Add `area` (px²) of `color` spread over the screen box `p ± extent`, in proportion to
    /// how much of it each cell holds.
    #[inline]
    pub fn splat(&mut self, p: DVec2, extent: DVec2, area: f64, color: [u8; 4]) {
        let c = (p - self.origin) / CELL;
        let e = extent / CELL;
        // A sub-pixel node still shows: at least a tenth of a pixel's worth of area.
        let area = area.max(0.1) as f32;
        let (cols, rows) = (self.cols as f64, self.rows as f64);
        if e.x < 0.25 && e.y < 0.25 {
            // The common case: well inside one cell.
            if c.x >= 0.0 && c.y >= 0.0 && c.x < cols && c.y < rows {
                add(
                    &mut self.sums[c.y as usize * self.cols + c.x as usize],
                    color,
                    area,
                );
                self.count += 1;
            }
            return;
        }
        let (lo, hi) = (c - e, c + e);
        if !(hi.x > 0.0 && hi.y > 0.0 && lo.x < cols && lo.y < rows) {
            return;
        }
        let size = (hi - lo).max(DVec2::splat(1e-9));
        let (x0, y0) = (lo.x.max(0.0) as usize, lo.y.max(0.0) as usize);
        let x1 = (hi.x.min(cols - 1e-9) as usize).min(self.cols - 1);
        let y1 = (hi.y.min(rows - 1e-9) as usize).min(self.rows - 1);
        for y in y0..=y1 {
            let fy = overlap(lo.y, hi.y, y as f64) / size.y;
            for x in x0..=x1 {
                let fx = overlap(lo.x, hi.x, x as f64) / size.x;
                let share = area * (fx * fy) as f32;
                if share > 0.0 {
                    add(&mut self.sums[y * self.cols + x], color, share);
                }
            }
        }
        self.count += 1;
    }

    /// Add another grid over the same rect.
    pub fn absorb(&mut self, other: &DensityGrid) {
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            for k in 0..5 {
                a[k] += b[k];
            }
        }
        self.count += other.count;
    }

    /// The cell's colour: the area-weighted mean, as opaque as the share of the cell covered
    /// (straight alpha); None for an empty cell.
    pub fn cell_color(sums: &[f32; 5]) -> Option<[u8; 4]> {
        let [r, g, b, a, area] = *sums;
        if area <= 0.0 {
            return None;
        }
        let coverage = (area / (CELL * CELL) as f32).min(1.0);
        Some([
            (r / area).round() as u8,
            (g / area).round() as u8,
            (b / area).round() as u8,
            (a / area * coverage).round() as u8,
        ])
    }
}

/// Add `area` of `color` to a cell's sums.
#[inline]
fn add(cell: &mut [f32; 5], color: [u8; 4], area: f32) {
    for (sum, c) in cell.iter_mut().zip(color) {
        *sum += c as f32 * area;
    }
    cell[4] += area;
}

/// How much of `lo..hi` lies in the unit interval starting at `k`.
fn overlap(lo: f64, hi: f64, k: f64) -> f64 {
    (hi.min(k + 1.0) - lo.max(k)).max(0.0)
}

/// What a frame draws.
#[derive(Clone, Debug, Default)]
pub struct FramePlan {
    /// Nodes to draw as shapes (or origin dots), in pre-order.
    pub draw: Vec<u32>,
    /// Parent-child link lines (screen, clipped to the view), the first [`LINK_LIMIT`].
    pub links: Vec<(Vec2, Vec2)>,
    /// Nodes that may get a shear mark, in pre-order.
    pub shear: Vec<u32>,
    /// What was splatted.
    pub density: DensityGrid,
}

/// Everything the planning pass reads.
pub struct PlanInput<'a> {
    /// The scene (world matrices current).
    pub scene: &'a Scene,
    /// Its per-node extents and colours.
    pub extents: &'a Extents,
    /// Its subtree boxes.
    pub bounds: &'a SubtreeBounds,
    /// The camera.
    pub camera: Camera,
    /// The viewport on screen.
    pub view: ScreenRect,
    /// Nodes under this half-extent (px) are splatted.
    pub tiny: f64,
    /// Selected nodes' pre-order indices and every ancestor's (never splatted whole).
    pub protected: &'a FxHashSet<u32>,
    /// Selected nodes' pre-order indices (always drawn).
    pub selected: &'a FxHashSet<u32>,
    /// Collect parent links.
    pub links: bool,
    /// Collect shear candidates.
    pub shear: bool,
}

/// Plan a frame on up to `threads` threads, reusing `reuse`'s buffers.
pub fn plan(input: &PlanInput, threads: usize, reuse: FramePlan) -> FramePlan {
    let n = input.scene.len();
    let threads = if n < PARALLEL_MIN_NODES {
        1
    } else {
        threads.clamp(1, 8)
    };
    let mut first = FramePlan {
        density: DensityGrid::over(input.view, reuse.density.sums),
        draw: reuse.draw,
        links: reuse.links,
        shear: reuse.shear,
    };
    first.draw.clear();
    first.links.clear();
    first.shear.clear();
    if threads == 1 {
        plan_range(input, 0, n, &mut first);
        return first;
    }
    let share = n.div_ceil(threads);
    let mut rest: Vec<FramePlan> = (1..threads)
        .map(|_| FramePlan {
            density: DensityGrid::over(input.view, Vec::new()),
            ..FramePlan::default()
        })
        .collect();
    std::thread::scope(|scope| {
        for (k, part) in rest.iter_mut().enumerate() {
            let (a, b) = ((k + 1) * share, ((k + 2) * share).min(n));
            scope.spawn(move || plan_range(input, a.min(n), b, part));
        }
        plan_range(input, 0, share.min(n), &mut first);
    });
    for part in rest {
        first.draw.extend(part.draw);
        let room = LINK_LIMIT.saturating_sub(first.links.len());
        first.links.extend(part.links.into_iter().take(room));
        first.shear.extend(part.shear);
        first.density.absorb(&part.density);
    }
    first
}

/// Plan the nodes `a..b` into `out`.
fn plan_range(input: &PlanInput, a: usize, b: usize, out: &mut FramePlan) {
    let scene = input.scene;
    let to_screen = world_to_screen(input.camera, input.view);
    let (lo, hi) = (input.view.min.as_dvec2(), input.view.max.as_dvec2());
    let mut shapeless = 0usize;
    let mut i = a;
    while i < b {
        let len = scene.subtree_len_at(i);
        let whole = len >= CULL_MIN_SUBTREE && i + len <= b;
        if whole
            && !input
                .bounds
                .may_show(i, &to_screen, input.view, CULL_MARGIN)
        {
            // Off screen: only the root's link may cross the view (the rest lie in the box).
            link(input, i, None, out);
            i += len;
            continue;
        }
        if whole
            && !input.protected.contains(&(i as u32))
            && let Some((at, extent, area, color)) =
                input.bounds.tiny_on_screen(i, &to_screen, input.tiny)
        {
            link(input, i, None, out);
            out.density.splat(at, extent, area, color);
            i += len;
            continue;
        }
        let world = scene.world_at(i);
        if !world.is_finite() {
            i += 1;
            continue; // an overflowed world matrix: nothing to draw
        }
        let m = input.camera.node_to_screen_f64(input.view, &world);
        if input.shear && may_get_shear_mark(&m, input.view) {
            out.shear.push(i as u32);
        }
        link(input, i, Some(m.translation), out);
        let half = input.extents.half[i];
        let extent = screen_extent(&m, half);
        let reach = extent + DVec2::splat(4.0);
        let origin = m.translation;
        if !((origin + reach).cmpge(lo).all() && (origin - reach).cmple(hi).all()) {
            i += 1;
            continue;
        }
        let selected = input.selected.contains(&(i as u32));
        if half == Vec2::ZERO {
            if selected || shapeless < SHAPELESS_LIMIT {
                shapeless += 1;
                out.draw.push(i as u32);
            }
        } else if selected || extent.max_element() >= input.tiny {
            out.draw.push(i as u32);
        } else {
            out.density.splat(
                origin,
                extent,
                4.0 * extent.x * extent.y,
                input.extents.color[i],
            );
        }
        i += 1;
    }
}

/// The line from node `i`'s parent to it, when links are on, there is room, and it is longer
/// than 4 px and crosses the view. `origin`: the node's screen origin, when known.
fn link(input: &PlanInput, i: usize, origin: Option<DVec2>, out: &mut FramePlan) {
    if !input.links || out.links.len() >= LINK_LIMIT {
        return;
    }
    let Some(p) = input.scene.parent_index_at(i) else {
        return;
    };
    let (pw, w) = (input.scene.world_at(p), input.scene.world_at(i));
    if !pw.translation.is_finite() || !w.translation.is_finite() {
        return;
    }
    let to = |t: Vec2| input.camera.to_screen_f64(input.view, t.as_dvec2());
    let (from, to) = (
        to(pw.translation),
        origin.unwrap_or_else(|| to(w.translation)),
    );
    if (from - to).length_squared() > 16.0
        && let Some((a, b)) = clip_segment(from, to, input.view)
    {
        out.links.push((a, b));
    }
}
