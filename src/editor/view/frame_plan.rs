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

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::cull_cache::{CULL_MIN_SUBTREE, Extents, SubtreeBounds, world_to_screen};
use crate::editor::view::geometry::{clip_segment, screen_extent};
use crate::editor::view::overlay::{may_be_sheared, may_get_shear_mark};
use crate::model::scene::{NodeId, Scene};
use glam::{DVec2, Vec2};
use rustc_hash::FxHashSet;
use std::sync::Mutex;

pub use crate::editor::view::density_grid::DensityGrid;

/// Screen cell size of the density grid, in pixels.
pub const CELL: f64 = 3.0;
/// Cell size of the coarse grid that takes the bigger splats (up to 16 px across), so one
/// splat never touches more than a few cells.
pub const COARSE_CELL: f64 = 8.0;
/// Splats at least this big (half-extent, px) go to the coarse grid.
const COARSE_FROM: f64 = 2.0;
/// Parent-child link lines drawn at most.
pub const LINK_LIMIT: usize = 3_000;
/// Shapeless nodes (drawn as origin dots only while detailed) kept at most per range.
pub const SHAPELESS_LIMIT: usize = 1_500;
/// Scenes smaller than this are planned on one thread.
pub const PARALLEL_MIN_NODES: usize = 50_000;
/// Pieces of the node range per thread (taken in turn by whichever thread is free).
const PIECES_PER_THREAD: usize = 4;
/// Pixels around the view a subtree's box must reach to be visited.
const CULL_MARGIN: f64 = 24.0;

/// What a frame draws.
#[derive(Clone, Debug, Default)]
pub struct FramePlan {
    /// Nodes to draw as shapes (or origin dots), in pre-order.
    pub draw: Vec<u32>,
    /// For each of `draw`: where it is on screen (centre x, y and half-extent x, y, px) and
    /// the radius of a circle its shape surely covers when it is opaque (0 when it hides
    /// nothing), for `editor::view::occlusion`.
    pub screen: Vec<[f32; 5]>,
    /// Parent-child link lines (screen, clipped to the view), the first [`LINK_LIMIT`].
    pub links: Vec<(Vec2, Vec2)>,
    /// Nodes that may get a shear mark, in pre-order.
    pub shear: Vec<u32>,
    /// What was splatted (the smallest nodes, 2 px cells).
    pub density: DensityGrid,
    /// The bigger splats (8 px cells).
    pub coarse: DensityGrid,
    /// The other threads' grid buffers, kept for the next frame.
    spare: Vec<Vec<[f32; 4]>>,
}

impl FramePlan {
    /// Splat into the fine grid, or the coarse one when the box is big.
    #[inline]
    fn splat(&mut self, p: DVec2, extent: DVec2, area: f64, color: [u8; 4]) {
        if extent.max_element() < COARSE_FROM {
            self.density.splat(p, extent, area, color);
        } else {
            self.coarse.splat(p, extent, area, color);
        }
    }

    /// Move out the lists a piece of the scene added (its density stays in the grids).
    fn take_piece(&mut self) -> Piece {
        (
            std::mem::take(&mut self.draw),
            std::mem::take(&mut self.screen),
            std::mem::take(&mut self.links),
            std::mem::take(&mut self.shear),
        )
    }

    /// Append a piece's lists (pieces in pre-order; links up to [`LINK_LIMIT`]).
    fn append_piece(&mut self, (draw, screen, links, shear): Piece) {
        self.draw.extend(draw);
        self.screen.extend(screen);
        let room = LINK_LIMIT.saturating_sub(self.links.len());
        self.links.extend(links.into_iter().take(room));
        self.shear.extend(shear);
    }

    /// Nodes (or tiny subtrees) splatted.
    pub fn splatted(&self) -> usize {
        self.density.count + self.coarse.count
    }
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
    /// Pre-order ranges left out (sorted, whole subtrees; their ancestors must be in
    /// `protected`): the part of a frame that is planned apart because it keeps moving.
    pub skip: &'a [(u32, u32)],
}

/// Plan a frame on up to `threads` threads, reusing `reuse`'s buffers.
pub fn plan(input: &PlanInput, threads: usize, reuse: FramePlan) -> FramePlan {
    let n = input.scene.len();
    let threads = if n < PARALLEL_MIN_NODES {
        1
    } else {
        threads.clamp(1, 8)
    };
    let spare = reuse.spare;
    let mut first = FramePlan {
        density: DensityGrid::over(input.view, CELL, reuse.density.sums),
        coarse: DensityGrid::over(input.view, COARSE_CELL, reuse.coarse.sums),
        draw: reuse.draw,
        screen: reuse.screen,
        links: reuse.links,
        shear: reuse.shear,
        spare: Vec::new(),
    };
    first.draw.clear();
    first.screen.clear();
    first.links.clear();
    first.shear.clear();
    if threads == 1 {
        plan_range(input, 0, n, &mut first);
        first.spare = spare;
        return first;
    }
    plan_parallel(input, threads, first, spare)
}

/// [`plan`] on `threads` threads (at least 2), `first` being this thread's plan.
fn plan_parallel(
    input: &PlanInput,
    threads: usize,
    first: FramePlan,
    mut spare: Vec<Vec<[f32; 4]>>,
) -> FramePlan {
    let n = input.scene.len();
    // More pieces than threads, taken in turn: the deep end of a pre-order array can hold
    // far more tiny nodes than the front, so equal halves would leave one core waiting. Each
    // thread splats into its own grids (one pair a thread, not a piece: zeroing and adding
    // grids per piece was a tenth of a frame); each piece's lists are kept apart, in order.
    let pieces = threads * PIECES_PER_THREAD;
    let share = n.div_ceil(pieces);
    let slots: Vec<FramePlan> = (1..threads)
        .map(|_| FramePlan {
            density: DensityGrid::over(input.view, CELL, spare.pop().unwrap_or_default()),
            coarse: DensityGrid::over(input.view, COARSE_CELL, spare.pop().unwrap_or_default()),
            ..FramePlan::default()
        })
        .collect();
    let done: Vec<Mutex<Option<Piece>>> = (0..pieces).map(|_| Mutex::new(None)).collect();
    // Participant 0 (this thread) splats into `first`, worker t into `slots[t - 1]`.
    let first_slot = Mutex::new(first);
    let other_slots: Vec<Mutex<FramePlan>> = slots.into_iter().map(Mutex::new).collect();
    let work = |participant: usize, k: usize| {
        let slot = match participant {
            0 => Some(&first_slot),
            t => other_slots.get(t - 1),
        };
        let (Some(Ok(mut slot)), Some(cell)) = (slot.map(Mutex::lock), done.get(k)) else {
            return;
        };
        plan_range(
            input,
            (k * share).min(n),
            ((k + 1) * share).min(n),
            &mut slot,
        );
        let piece = slot.take_piece();
        if let Ok(mut cell) = cell.lock() {
            *cell = Some(piece);
        }
    };
    crate::model::pool::run_pieces(pieces, threads, &work);
    let mut first = first_slot.into_inner().unwrap_or_default();
    first.spare = spare;
    for slot in other_slots
        .into_iter()
        .filter_map(|slot| slot.into_inner().ok())
    {
        first.density.absorb(&slot.density);
        first.coarse.absorb(&slot.coarse);
        first.spare.push(slot.density.sums);
        first.spare.push(slot.coarse.sums);
    }
    for piece in done
        .into_iter()
        .filter_map(|cell| cell.into_inner().ok().flatten())
    {
        first.append_piece(piece);
    }
    first
}

/// A plan made a few pieces at a time over several frames, so that a frame never waits for a
/// whole million-node plan: [`PlanJob::advance`] plans pieces (one per thread at a time) until
/// a time budget is spent; [`PlanJob::finish`] merges them in pre-order. The result is what
/// [`plan`] makes from the same input (the input must not change in between: the caller
/// drops the job when the scene or the view it plans changes).
#[derive(Debug, Default)]
pub struct PlanJob {
    n: usize,
    pieces: usize,
    /// Pieces planned so far.
    finished: usize,
    /// Per piece, once planned: its kept nodes, links and shear candidates (density goes to
    /// the slots).
    done: Vec<Option<Piece>>,
    /// Per thread: the density grids it splatted into.
    slots: Vec<FramePlan>,
}

/// One planned piece of a [`PlanJob`]: kept nodes, their screen boxes, links, shear candidates.
type Piece = (Vec<u32>, Vec<[f32; 5]>, Vec<(Vec2, Vec2)>, Vec<u32>);

/// Nodes per piece of a [`PlanJob`].
const JOB_PIECE: usize = 16_384;

impl PlanJob {
    /// A job over the `input`'s scene.
    pub fn new(input: &PlanInput) -> Self {
        let n = input.scene.len();
        let pieces = n.div_ceil(JOB_PIECE).max(1);
        Self {
            n,
            pieces,
            finished: 0,
            done: (0..pieces).map(|_| None).collect(),
            slots: Vec::new(),
        }
    }

    /// How much of the scene is planned, 0 to 1.
    pub fn progress(&self) -> f64 {
        self.finished as f64 / self.pieces as f64
    }

    /// Plan pieces on up to `threads` threads until every piece is planned or `budget` has
    /// passed (the first piece of each thread always runs). True when every piece is planned.
    pub fn advance(
        &mut self,
        input: &PlanInput,
        threads: usize,
        budget: std::time::Duration,
    ) -> bool {
        let threads = threads.clamp(1, 8);
        while self.slots.len() < threads {
            self.slots.push(FramePlan {
                density: DensityGrid::over(input.view, CELL, Vec::new()),
                coarse: DensityGrid::over(input.view, COARSE_CELL, Vec::new()),
                ..FramePlan::default()
            });
        }
        let start = std::time::Instant::now();
        let todo: Vec<usize> = (0..self.pieces)
            .filter(|&k| self.done[k].is_none())
            .collect();
        let cells: Vec<Mutex<Option<Piece>>> = todo.iter().map(|_| Mutex::new(None)).collect();
        let slots: Vec<Mutex<FramePlan>> = self.slots.drain(..).map(Mutex::new).collect();
        let (n, pieces) = (self.n, self.pieces);
        let work = |participant: usize, j: usize| {
            if j >= threads && start.elapsed() >= budget {
                return; // left for the next call
            }
            let (Some(&k), Some(cell), Some(Ok(mut slot))) = (
                todo.get(j),
                cells.get(j),
                slots.get(participant).map(Mutex::lock),
            ) else {
                return;
            };
            plan_range(input, k * n / pieces, (k + 1) * n / pieces, &mut slot);
            let piece = slot.take_piece();
            if let Ok(mut cell) = cell.lock() {
                *cell = Some(piece);
            }
        };
        crate::model::pool::run_pieces(todo.len(), threads, &work);
        self.slots = slots
            .into_iter()
            .filter_map(|s| s.into_inner().ok())
            .collect();
        for (k, cell) in todo.into_iter().zip(cells) {
            if let Ok(Some(piece)) = cell.into_inner() {
                self.done[k] = Some(piece);
                self.finished += 1;
            }
        }
        self.finished >= self.pieces
    }

    /// The merged plan (call once [`PlanJob::advance`] returned true).
    pub fn finish(self) -> FramePlan {
        let mut slots = self.slots.into_iter();
        let mut out = slots.next().unwrap_or_default();
        for slot in slots {
            out.density.absorb(&slot.density);
            out.coarse.absorb(&slot.coarse);
        }
        for piece in self.done.into_iter().flatten() {
            out.append_piece(piece);
        }
        out
    }
}

/// Plan only the nodes in `ranges` (sorted, whole subtrees), on this thread and without a
/// density grid: what a frame draws of the nodes that keep moving while the rest of its
/// plan is kept (`input.tiny` should be 0: nothing is splatted).
pub fn plan_ranges(input: &PlanInput, ranges: &[(u32, u32)]) -> FramePlan {
    let mut out = FramePlan::default();
    for &(a, b) in ranges {
        plan_range(
            input,
            a as usize,
            (b as usize).min(input.scene.len()),
            &mut out,
        );
    }
    out
}

/// Plan the nodes `a..b` into `out`: skipped ranges jumped over, whole subtrees culled or
/// splatted where their bounds allow, every other node planned on its own.
fn plan_range(input: &PlanInput, a: usize, b: usize, out: &mut FramePlan) {
    let to_screen = world_to_screen(input.camera, input.view);
    let mut next_skip = input.skip.partition_point(|&(_, end)| end as usize <= a);
    let mut shapeless = 0usize;
    let mut i = a;
    while i < b {
        i = past_skipped(input.skip, &mut next_skip, i);
        if i >= b {
            break;
        }
        i = match whole_subtree(input, i, b, &to_screen, out) {
            Some(next) => next,
            None => {
                plan_node(input, i, &mut shapeless, out);
                i + 1
            }
        };
    }
}

/// `i`, or the end of the skipped range it falls in (`next` walks the sorted ranges along).
#[inline]
fn past_skipped(skip: &[(u32, u32)], next: &mut usize, mut i: usize) -> usize {
    while let Some(&(start, end)) = skip.get(*next) {
        if i >= end as usize {
            *next += 1;
        } else if i >= start as usize {
            i = end as usize;
            *next += 1;
        } else {
            break;
        }
    }
    i
}

/// When the subtree at `i` (inside `..b`, big enough to have bounds) is off screen or tiny
/// on it, leave it out or splat it whole, and return the index after it.
#[inline]
fn whole_subtree(
    input: &PlanInput,
    i: usize,
    b: usize,
    to_screen: &glam::DAffine2,
    out: &mut FramePlan,
) -> Option<usize> {
    if !input.bounds.is_valid() {
        return None;
    }
    let len = input.scene.subtree_len_at(i);
    if len < CULL_MIN_SUBTREE || i + len > b {
        return None;
    }
    if !input.bounds.may_show(i, to_screen, input.view, CULL_MARGIN) {
        return Some(i + len);
    }
    if input.protected.contains(&(i as u32)) {
        return None;
    }
    let (at, extent, area, color) = input.bounds.tiny_on_screen(i, to_screen, input.tiny)?;
    out.splat(at, extent, area, color);
    Some(i + len)
}

/// Plan node `i` alone: a shear candidate, then drawn (with its screen box and link),
/// splatted when tiny, or left out when off screen; shapeless nodes past
/// [`SHAPELESS_LIMIT`] are left out unless selected.
#[inline]
fn plan_node(input: &PlanInput, i: usize, shapeless: &mut usize, out: &mut FramePlan) {
    let world = input.scene.world_at(i);
    if !world.is_finite() {
        return; // an overflowed world matrix: nothing to draw
    }
    let m = input.camera.node_to_screen_f64(input.view, &world);
    // Only nodes whose world can carry a mark (its axes not perpendicular): the overlay
    // looks at every candidate each frame.
    if input.shear && may_be_sheared(&world) && may_get_shear_mark(&m, input.view) {
        out.shear.push(i as u32);
    }
    let half = input.extents.half[i];
    let extent = screen_extent(&m, half);
    let reach = extent + DVec2::splat(4.0);
    let origin = m.translation;
    let (lo, hi) = (input.view.min.as_dvec2(), input.view.max.as_dvec2());
    if !((origin + reach).cmpge(lo).all() && (origin - reach).cmple(hi).all()) {
        return;
    }
    let selected = input.selected.contains(&(i as u32));
    if half == Vec2::ZERO {
        if selected || *shapeless < SHAPELESS_LIMIT {
            *shapeless += 1;
            out.draw.push(i as u32);
            out.screen
                .push([origin.x as f32, origin.y as f32, 0.0, 0.0, 0.0]);
            link(input, i, origin, out);
        }
    } else if selected || extent.max_element() >= input.tiny {
        out.draw.push(i as u32);
        let cover = if input.extents.solid[i] {
            inscribed_radius(&m, half)
        } else {
            0.0
        };
        out.screen.push([
            origin.x as f32,
            origin.y as f32,
            extent.x as f32,
            extent.y as f32,
            cover as f32,
        ]);
        link(input, i, origin, out);
    } else {
        let area = 4.0 * extent.x * extent.y;
        out.splat(origin, extent, area, input.extents.color[i]);
    }
}

/// The radius of a circle inside a shape's screen image (conjugate half-axes a, b): at least
/// |det(a, b)| / (|a| + |b|).
#[inline]
fn inscribed_radius(m: &glam::DAffine2, half: Vec2) -> f64 {
    let a = m.matrix2.x_axis * half.x as f64;
    let b = m.matrix2.y_axis * half.y as f64;
    a.perp_dot(b).abs() / (a.length() + b.length()).max(f64::MIN_POSITIVE)
}

/// The line from node `i`'s parent to it (a drawn node: a splatted one's link is not worth a
/// line), when links are on, there is room, and it is longer than 4 px and crosses the view.
/// `origin`: the node's screen origin.
fn link(input: &PlanInput, i: usize, origin: DVec2, out: &mut FramePlan) {
    if !input.links || out.links.len() >= LINK_LIMIT {
        return;
    }
    let Some(p) = input.scene.parent_index_at(i) else {
        return;
    };
    let pw = input.scene.world_at(p);
    if !pw.translation.is_finite() {
        return;
    }
    let from = (input.camera).to_screen_f64(input.view, pw.translation.as_dvec2());
    let to = origin;
    if (from - to).length_squared() > 16.0
        && let Some((a, b)) = clip_segment(from, to, input.view)
    {
        out.links.push((a, b));
    }
}

/// Selected nodes the plan always draws (and never splats with their ancestors), the primary
/// and the most recently added first: with everything selected in a big scene, guaranteeing
/// every selected node would defeat the level of detail (a million shapes a frame).
pub const ALWAYS_DRAWN_SELECTED: usize = 2_000;

/// The pre-order indices of the last [`ALWAYS_DRAWN_SELECTED`] selected nodes and each of
/// their ancestors (subtrees that are never splatted whole), and of those selected nodes alone.
pub fn selection_indices(scene: &Scene, selection: &[NodeId]) -> (FxHashSet<u32>, FxHashSet<u32>) {
    let mut protected = FxHashSet::default();
    let mut selected = FxHashSet::default();
    let recent = &selection[selection.len().saturating_sub(ALWAYS_DRAWN_SELECTED)..];
    for &id in recent {
        let mut at = scene.index(id).ok();
        if let Some(i) = at {
            selected.insert(i as u32);
        }
        while let Some(i) = at {
            if !protected.insert(i as u32) {
                break; // the rest of the path is in already
            }
            at = scene.parent_index_at(i);
        }
    }
    (protected, selected)
}
