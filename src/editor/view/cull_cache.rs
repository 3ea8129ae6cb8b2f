//! What drawing a big scene needs to skip work: each node's shape half size and colour in
//! compact arrays (so a drawing pass never reads the full node data of a node it does not
//! draw), and each subtree's world-space bounding box (so a pass skips a whole subtree that
//! is off screen in one step). Both are caches keyed on the scene's versions; the bounds
//! follow an update pass that recomputed a few ranges by recomputing those ranges and growing
//! their ancestors' boxes (still correct, maybe loose), and are recomputed tight after a big
//! change.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::half_size;
use crate::model::scene::{Scene, Shape};
use glam::{Affine2, DAffine2, DVec2, Vec2};

/// Per-node half sizes and colours, in pre-order, for the scene version they were read at.
#[derive(Clone, Debug, Default)]
pub struct Extents {
    key: Option<(u64, u64)>,
    /// The shape's local half size (zero for a node with no shape).
    pub half: Vec<Vec2>,
    /// The node's fill colour.
    pub color: Vec<[u8; 4]>,
    /// An opaque rectangle or ellipse (it hides what lies under it).
    pub solid: Vec<bool>,
}

impl Extents {
    /// Bring the cache up to date with the scene (a pass over the nodes only after a change).
    /// Returns true when it was rebuilt.
    pub fn refresh(&mut self, scene: &Scene) -> bool {
        let key = scene.appearance_version();
        if self.key == Some(key) && self.half.len() == scene.len() {
            return false;
        }
        self.half.clear();
        self.color.clear();
        self.solid.clear();
        self.half.reserve_exact(scene.len());
        self.color.reserve_exact(scene.len());
        self.solid.reserve_exact(scene.len());
        for i in 0..scene.len() {
            let data = scene.data_at(i);
            self.half.push(half_size(&data.shape));
            self.color.push(data.color);
            self.solid.push(
                data.color[3] == 255
                    && matches!(data.shape, Shape::Rect { .. } | Shape::Ellipse { .. }),
            );
        }
        self.key = Some(key);
        true
    }
}

/// An axis-aligned box `[min.x, min.y, max.x, max.y]` in world space (f32; NaN-free).
type Box2 = [f32; 4];

const EMPTY: Box2 = [
    f32::INFINITY,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
];

fn union(a: Box2, b: Box2) -> Box2 {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// The world box of a node: its shape's box and its unit square (what the shear overlay
/// marks), through its world matrix. A non-finite matrix gives an infinite box (never culled).
pub(crate) fn own_box(world: &Affine2, half: Vec2) -> Box2 {
    let (a, b, t) = (
        world.matrix2.x_axis,
        world.matrix2.y_axis,
        world.translation,
    );
    let shape = a.abs() * half.x + b.abs() * half.y;
    let lo = (t - shape).min(t + a.min(Vec2::ZERO) + b.min(Vec2::ZERO));
    let hi = (t + shape).max(t + a.max(Vec2::ZERO) + b.max(Vec2::ZERO));
    if lo.is_finite() && hi.is_finite() {
        [lo.x, lo.y, hi.x, hi.y]
    } else {
        [
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::INFINITY,
            f32::INFINITY,
        ]
    }
}

/// Two (area, mean colour) pairs as one.
fn merge((a0, c0): (f32, [u8; 4]), (a1, c1): (f32, [u8; 4])) -> (f32, [u8; 4]) {
    let area = a0 + a1;
    if area.is_nan() || area <= 0.0 || area.is_infinite() {
        return (a0.max(a1).max(0.0), if a1 > a0 { c1 } else { c0 });
    }
    let (w0, w1) = (a0 / area, a1 / area);
    let color = std::array::from_fn(|k| (c0[k] as f32 * w0 + c1[k] as f32 * w1).round() as u8);
    (area, color)
}

/// Subtrees smaller than this are not worth a box test of their own.
pub const CULL_MIN_SUBTREE: usize = 8;

/// Each subtree's world bounding box, and the area its shapes cover in the world and their
/// area-weighted mean colour (so a subtree smaller than a pixel or two on screen can be drawn
/// as one splat), in pre-order.
#[derive(Clone, Debug, Default)]
pub struct SubtreeBounds {
    /// The scene's (appearance key, world version) the boxes were computed at.
    key: Option<((u64, u64), u64)>,
    boxes: Vec<Box2>,
    /// World area of the subtree's shape boxes.
    area: Vec<f32>,
    /// Their area-weighted mean colour.
    color: Vec<[u8; 4]>,
    /// Full recomputations so far (tests and benches read it).
    pub full_passes: usize,
    /// False while most of the scene keeps moving (the boxes are then stale and unused).
    valid: bool,
}

impl SubtreeBounds {
    /// Bring the boxes up to date with the scene's world matrices (which must be current).
    pub fn refresh(&mut self, scene: &Scene, extents: &Extents) {
        let appearance = scene.appearance_version();
        let world = scene.world_version();
        let n = scene.len();
        let same_shape = self.key.is_some_and(|(a, _)| a == appearance) && self.boxes.len() == n;
        match self.key {
            Some((_, w)) if same_shape && w == world => {
                if !self.valid {
                    // The big change is over (nothing moved since): now it pays.
                    self.recompute(scene, extents);
                }
            }
            Some((_, w))
                if same_shape
                    && w == scene.previous_world_version()
                    && recomputed(scene) > n / 8 =>
            {
                // Most of the scene moved (a root dragged, a playing animation): the boxes are
                // not used until it stops, instead of being recomputed every frame.
                self.valid = false;
            }
            Some((_, w)) if same_shape && w == scene.previous_world_version() && self.valid => {
                self.follow_last_pass(scene, extents);
            }
            _ => self.recompute(scene, extents),
        }
        self.key = Some((appearance, world));
    }

    /// True when the boxes can be used this frame (see [`SubtreeBounds::refresh`]).
    pub fn is_valid(&self) -> bool {
        self.valid && self.key.is_some()
    }

    /// Every box, bottom-up in one reverse pre-order pass.
    fn recompute(&mut self, scene: &Scene, extents: &Extents) {
        let n = scene.len();
        self.valid = true;
        self.boxes.clear();
        self.boxes.resize(n, EMPTY);
        self.area.clear();
        self.area.resize(n, 0.0);
        self.color.clear();
        self.color.resize(n, [0; 4]);
        self.full_passes += 1;
        self.grow_range(scene, extents, 0, n);
    }

    /// Boxes of the nodes in `start..end` (whole subtrees) from scratch, children into parents;
    /// the range's roots then grow their parents outside the range.
    fn grow_range(&mut self, scene: &Scene, extents: &Extents, start: usize, end: usize) {
        self.boxes[start..end].fill(EMPTY);
        self.area[start..end].fill(0.0);
        let parents = scene.parent_indices();
        for i in (start..end).rev() {
            let world = scene.cached_world_at(i);
            let half = extents.half[i];
            let b = union(self.boxes[i], own_box(&world, half));
            self.boxes[i] = b;
            // Children were merged in already: add this node's own shape.
            let own_area = 4.0 * half.x * half.y * world.matrix2.determinant().abs();
            let own_area = if own_area.is_finite() { own_area } else { 0.0 };
            let (area, color) = merge((self.area[i], self.color[i]), (own_area, extents.color[i]));
            self.area[i] = area;
            self.color[i] = color;
            let p = parents[i];
            if p != u32::MAX && (p as usize) >= start {
                let p = p as usize;
                self.boxes[p] = union(self.boxes[p], b);
                let merged = merge((self.area[p], self.color[p]), (area, color));
                (self.area[p], self.color[p]) = merged;
            }
        }
    }

    /// After one update pass over a few ranges: recompute those subtrees, then grow every
    /// ancestor's box by them (an ancestor keeps what it held before: loose but correct).
    fn follow_last_pass(&mut self, scene: &Scene, extents: &Extents) {
        for &(start, end) in scene.last_recomputed_ranges() {
            let (start, end) = (start as usize, end as usize);
            self.grow_range(scene, extents, start, end);
            let grown = self.boxes[start];
            let mut at = scene.parent_index_at(start);
            while let Some(p) = at {
                self.boxes[p] = union(self.boxes[p], grown);
                at = scene.parent_index_at(p);
            }
        }
    }

    /// True when the subtree at `i` may show in the view (its box, through `to_screen` (the
    /// camera's world → screen map, [`world_to_screen`]), touches the view grown by `margin`
    /// pixels).
    #[inline]
    pub fn may_show(&self, i: usize, to_screen: &DAffine2, rect: ScreenRect, margin: f64) -> bool {
        let [x0, y0, x1, y1] = self.boxes[i];
        if !(x0 <= x1 && y0 <= y1) {
            return false; // empty
        }
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return true;
        }
        let center = DVec2::new((x0 as f64 + x1 as f64) * 0.5, (y0 as f64 + y1 as f64) * 0.5);
        let half = DVec2::new((x1 as f64 - x0 as f64) * 0.5, (y1 as f64 - y0 as f64) * 0.5);
        let c = to_screen.transform_point2(center);
        let (a, b) = (
            to_screen.matrix2.x_axis.abs(),
            to_screen.matrix2.y_axis.abs(),
        );
        let extent = a * half.x + b * half.y + DVec2::splat(margin);
        let (lo, hi) = (rect.min.as_dvec2(), rect.max.as_dvec2());
        (c + extent).cmpge(lo).all() && (c - extent).cmple(hi).all()
    }

    /// The subtree at `i` on screen, when it is smaller than `tiny` pixels (half-extent) on
    /// both axes: its centre, half-extent, covered screen area and mean colour, to draw it as
    /// one splat.
    #[inline]
    pub fn tiny_on_screen(
        &self,
        i: usize,
        to_screen: &DAffine2,
        tiny: f64,
    ) -> Option<(DVec2, DVec2, f64, [u8; 4])> {
        let [x0, y0, x1, y1] = self.boxes[i];
        let half = DVec2::new((x1 as f64 - x0 as f64) * 0.5, (y1 as f64 - y0 as f64) * 0.5);
        let (a, b) = (
            to_screen.matrix2.x_axis.abs(),
            to_screen.matrix2.y_axis.abs(),
        );
        let extent = a * half.x + b * half.y;
        if !(extent.x < tiny && extent.y < tiny) {
            return None; // big, or not finite
        }
        let center = DVec2::new((x0 as f64 + x1 as f64) * 0.5, (y0 as f64 + y1 as f64) * 0.5);
        let area = self.area[i] as f64 * to_screen.matrix2.determinant().abs();
        Some((
            to_screen.transform_point2(center),
            extent,
            area,
            self.color[i],
        ))
    }

    /// The box of the subtree at `i` (tests).
    pub fn subtree_box(&self, i: usize) -> Option<[f32; 4]> {
        self.boxes.get(i).copied()
    }
}

/// The camera's world → screen map (f64), for [`SubtreeBounds::may_show`].
pub fn world_to_screen(camera: Camera, rect: ScreenRect) -> DAffine2 {
    camera.node_to_screen_f64(rect, &Affine2::IDENTITY)
}

/// How many matrices the scene's last update pass recomputed.
fn recomputed(scene: &Scene) -> usize {
    scene
        .last_recomputed_ranges()
        .iter()
        .map(|&(a, b)| (b - a) as usize)
        .sum()
}
