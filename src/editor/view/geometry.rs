//! Shape geometry without egui: local outlines (one generator for drawing, ghosts, highlights
//! and framing), screen outlines computed camera-relative in f64 and clipped to the view when
//! they reach far past it, and hit testing through each node's inverse world matrix.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::model::scene::{NodeId, Scene, Shape};
use glam::{Affine2, DAffine2, DVec2, Vec2};

/// Half the width and height of a shape's box (zero for an origin-only node).
pub fn half_size(shape: &Shape) -> Vec2 {
    match shape {
        Shape::None => Vec2::ZERO,
        Shape::Rect { size } | Shape::Ellipse { size } => size.abs() * 0.5,
        Shape::Sprite(s) => s.size.abs() * 0.5 + s.offset.abs(),
        // The box centred on the origin that holds every corner.
        Shape::Polygon { points } => points
            .iter()
            .fold(Vec2::ZERO, |m, p| m.max(p.abs()))
            .min(Vec2::splat(f32::MAX)),
    }
}

/// Even-odd test: true when `p` is inside the polygon through `points` (local space, f64).
pub fn polygon_contains(points: &[Vec2], p: DVec2) -> bool {
    let mut inside = false;
    let n = points.len();
    for k in 0..n {
        let a = points[k].as_dvec2();
        let b = points[(k + n - 1) % n].as_dvec2();
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    inside
}

/// Ellipse segment counts in use, and their unit circles (computed once: no trigonometry per node).
const SEGMENTS: [usize; 7] = [4, 8, 12, 16, 24, 32, 48];
static UNIT_CIRCLES: std::sync::LazyLock<Vec<Vec<Vec2>>> = std::sync::LazyLock::new(|| {
    SEGMENTS
        .iter()
        .map(|&n| {
            (0..n)
                .map(|k| {
                    let a = k as f64 / n as f64 * std::f64::consts::TAU;
                    Vec2::new(a.cos() as f32, a.sin() as f32)
                })
                .collect()
        })
        .collect()
});

/// How many segments an ellipse this many pixels across needs (4 when tiny, 48 at most).
pub fn ellipse_segments(pixel_size: f64) -> usize {
    let wanted = if pixel_size < 4.0 {
        4
    } else {
        (pixel_size / 3.0) as usize
    };
    SEGMENTS
        .iter()
        .copied()
        .find(|&n| n >= wanted)
        .unwrap_or(SEGMENTS[SEGMENTS.len() - 1])
}

/// True when the local point lies inside the shape.
pub fn shape_contains(shape: &Shape, p: DVec2) -> bool {
    let h = half_size(shape).as_dvec2();
    match shape {
        Shape::None => false,
        Shape::Rect { .. } => p.x.abs() <= h.x && p.y.abs() <= h.y,
        Shape::Sprite(s) => {
            let (h, q) = (s.size.abs().as_dvec2() * 0.5, p - s.offset.as_dvec2());
            q.x.abs() <= h.x && q.y.abs() <= h.y
        }
        Shape::Ellipse { .. } => {
            h.x > 0.0 && h.y > 0.0 && (p.x / h.x).powi(2) + (p.y / h.y).powi(2) <= 1.0
        }
        Shape::Polygon { points } => polygon_contains(points, p),
    }
}

/// Half the size, in pixels, of the screen box of a shape with half-size `half` drawn through
/// the local → screen matrix `m`.
pub fn screen_extent(m: &DAffine2, half: Vec2) -> DVec2 {
    let (ax, ay) = (m.matrix2.x_axis, m.matrix2.y_axis);
    let h = half.as_dvec2();
    DVec2::new(
        ax.x.abs() * h.x + ay.x.abs() * h.y,
        ax.y.abs() * h.x + ay.y.abs() * h.y,
    )
}

/// Screen coordinates beyond this distance from the view (pixels) are clipped before they are
/// rounded to f32, so nothing drawn depends on f32 precision far off screen.
const CLIP_MARGIN: f64 = 2048.0;

/// A shape on screen: its outline in f32 pixels (clipped to the view plus a margin when it
/// reaches far outside it) and how big it is on screen.
pub struct ScreenShape {
    /// The outline in pixels (empty for an origin-only node or one fully off screen); convex
    /// unless `triangles` is filled.
    pub outline: Vec<Vec2>,
    /// For polygons: the fill as triangles (indices into `outline`); empty for convex shapes.
    pub triangles: Vec<u32>,
    /// The largest side of its screen box, in pixels.
    pub pixel_size: f64,
    /// False when it was clipped (sprite texture corners no longer match its outline).
    pub whole: bool,
    scratch: Vec<DVec2>,
}

/// Call `f` with each point of a shape's outline in its local space (rects: 4 corners
/// counter-clockwise from bottom-left; ellipses: `segments` points).
fn for_each_local_point(shape: &Shape, segments: usize, mut f: impl FnMut(Vec2)) {
    let h = half_size(shape);
    match shape {
        Shape::None => {}
        Shape::Ellipse { .. } => {
            let k = SEGMENTS
                .iter()
                .position(|&n| n >= segments)
                .unwrap_or(SEGMENTS.len() - 1);
            UNIT_CIRCLES[k].iter().for_each(|u| f(*u * h));
        }
        Shape::Polygon { points } => points.iter().for_each(|p| f(*p)),
        Shape::Rect { .. } => box_corners(h, Vec2::ZERO).into_iter().for_each(f),
        Shape::Sprite(s) => box_corners(s.size.abs() * 0.5, s.offset)
            .into_iter()
            .for_each(f),
    }
}

/// The corners of a box of half-size `h` centred on `c`, counter-clockwise from bottom-left.
fn box_corners(h: Vec2, c: Vec2) -> [Vec2; 4] {
    [
        c + Vec2::new(-h.x, -h.y),
        c + Vec2::new(h.x, -h.y),
        c + Vec2::new(h.x, h.y),
        c + Vec2::new(-h.x, h.y),
    ]
}

impl ScreenShape {
    /// An empty buffer to reuse across nodes.
    pub fn new() -> Self {
        Self {
            outline: Vec::with_capacity(48),
            triangles: Vec::new(),
            pixel_size: 0.0,
            whole: true,
            scratch: Vec::with_capacity(48),
        }
    }

    /// Compute the screen outline of `shape` through the local → screen matrix `m` (whose
    /// translation was computed camera-relative in f64). When the shape's screen box lies within
    /// the view plus the clip margin, its points are transformed in f32 (the numbers are small
    /// there, so nothing is lost); otherwise in f64 and clipped before rounding.
    pub fn compute(&mut self, shape: &Shape, m: &DAffine2, rect: ScreenRect) {
        self.outline_of(shape, m, rect);
        self.triangles.clear();
        if matches!(shape, Shape::Polygon { .. }) && self.outline.len() >= 3 {
            POLYGON_CUTTER.with_borrow_mut(|cutter| {
                cutter.earcut(
                    self.outline.iter().map(|p| [p.x, p.y]),
                    &[] as &[u32],
                    &mut self.triangles,
                )
            });
        }
    }

    fn outline_of(&mut self, shape: &Shape, m: &DAffine2, rect: ScreenRect) {
        let extent = screen_extent(m, half_size(shape));
        self.pixel_size = extent.max_element() * 2.0;
        self.outline.clear();
        let segments = ellipse_segments(self.pixel_size);
        let bounds = rect.expand(CLIP_MARGIN as f32);
        let (lo, hi) = (bounds.min.as_dvec2(), bounds.max.as_dvec2());
        let t = m.translation;
        if (t - extent).cmpge(lo).all() && (t + extent).cmple(hi).all() {
            self.whole = true;
            let f = Affine2::from_mat2_translation(m.matrix2.as_mat2(), t.as_vec2());
            let outline = &mut self.outline;
            for_each_local_point(shape, segments, |p| outline.push(f.transform_point2(p)));
            return;
        }
        self.whole = false;
        self.scratch.clear();
        let scratch = &mut self.scratch;
        for_each_local_point(shape, segments, |p| {
            scratch.push(m.transform_point2(p.as_dvec2()))
        });
        let clipped = clip_convex(&self.scratch, lo, hi);
        self.outline.extend(clipped.into_iter().map(DVec2::as_vec2));
    }
}

thread_local! {
    /// The triangulator's buffers, reused across polygons.
    static POLYGON_CUTTER: std::cell::RefCell<earcut::Earcut<f32>> =
        std::cell::RefCell::new(earcut::Earcut::new());
}

impl Default for ScreenShape {
    fn default() -> Self {
        Self::new()
    }
}

/// Clip a polygon to an axis-aligned box (Sutherland–Hodgman), in f64. Exact for convex
/// polygons; a concave one keeps its filled area (with zero-width seams along the box).
/// Non-finite points give an empty polygon.
pub fn clip_convex(points: &[DVec2], lo: DVec2, hi: DVec2) -> Vec<DVec2> {
    if points.iter().any(|p| !p.is_finite()) {
        return Vec::new();
    }
    let mut poly = points.to_vec();
    for (axis, bound, keep_below) in [
        (0, lo.x, false),
        (0, hi.x, true),
        (1, lo.y, false),
        (1, hi.y, true),
    ] {
        if poly.is_empty() {
            break;
        }
        let inside = |p: &DVec2| {
            let v = if axis == 0 { p.x } else { p.y };
            if keep_below { v <= bound } else { v >= bound }
        };
        let mut next = Vec::with_capacity(poly.len() + 2);
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ia, ib) = (inside(&a), inside(&b));
            if ia {
                next.push(a);
            }
            if ia != ib {
                let (va, vb) = if axis == 0 { (a.x, b.x) } else { (a.y, b.y) };
                let t = (bound - va) / (vb - va);
                next.push(a + (b - a) * t);
            }
        }
        poly = next;
    }
    poly
}

/// Clip a segment to a screen rectangle (Liang–Barsky), in f64; None when it misses it.
pub fn clip_segment(a: DVec2, b: DVec2, rect: ScreenRect) -> Option<(Vec2, Vec2)> {
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    let (lo, hi) = (rect.min.as_dvec2(), rect.max.as_dvec2());
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, a.x - lo.x),
        (d.x, hi.x - a.x),
        (-d.y, a.y - lo.y),
        (d.y, hi.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then(|| ((a + d * t0).as_vec2(), (a + d * t1).as_vec2()))
}

/// A world matrix in f64, or None when it holds a non-finite number (an overflowed product).
pub fn world_f64(world: &Affine2) -> Option<DAffine2> {
    let m = world.as_daffine2();
    (m.matrix2.is_finite() && m.translation.is_finite()).then_some(m)
}

/// The topmost node whose shape contains the world point (tested in f64 through the inverse
/// world matrix, so sheared and mirrored shapes hit exactly at any distance from the origin),
/// or whose origin is within `origin_radius` world units.
pub fn hit_test_world(scene: &Scene, point: DVec2, origin_radius: f64) -> Option<NodeId> {
    (0..scene.len()).rev().find_map(|i| {
        let world = world_f64(&scene.world_at(i))?;
        let det = world.matrix2.determinant();
        let inside = det != 0.0
            && det.is_finite()
            && shape_contains(
                &scene.data_at(i).shape,
                world.inverse().transform_point2(point),
            );
        (inside || world.translation.distance(point) <= origin_radius).then(|| scene.id_at(i))
    })
}

/// The topmost node under a screen point, with origins grabbed within `origin_radius_px` pixels.
pub fn hit_test(
    scene: &Scene,
    camera: Camera,
    rect: ScreenRect,
    pointer: Vec2,
    origin_radius_px: f64,
) -> Option<NodeId> {
    hit_test_world(
        scene,
        camera.to_world(rect, pointer),
        origin_radius_px / camera.zoom,
    )
}

/// The exact world-space box of one node's shape and origin (f64): a rect's four corners, an
/// ellipse's extent along each axis (√((a·m₀₀)² + (b·m₀₁)²) for x). None when not finite.
pub fn node_bounds(world: &Affine2, shape: &Shape) -> Option<(DVec2, DVec2)> {
    let m = world_f64(world)?;
    let h = half_size(shape).as_dvec2();
    let (ax, ay) = (m.matrix2.x_axis * h.x, m.matrix2.y_axis * h.y);
    let extent = match shape {
        Shape::Ellipse { .. } => DVec2::new(ax.x.hypot(ay.x), ax.y.hypot(ay.y)),
        _ => ax.abs() + ay.abs(),
    };
    let (lo, hi) = (m.translation - extent, m.translation + extent);
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

/// The bounding box of some nodes' origins and shapes in world space (f64), for framing.
pub fn world_bounds(scene: &Scene, ids: &[NodeId]) -> Option<(DVec2, DVec2)> {
    let mut lo = DVec2::splat(f64::INFINITY);
    let mut hi = DVec2::splat(f64::NEG_INFINITY);
    for &id in ids {
        let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id)) else {
            continue;
        };
        if let Some((a, b)) = node_bounds(&world, &scene.data_at(i).shape) {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    (lo.x <= hi.x).then_some((lo, hi))
}

/// True when every one of these nodes (its shape and origin) is inside the screen rectangle
/// as the camera shows it (a lesson keeps the nodes a step names in view).
pub fn in_view(camera: Camera, rect: ScreenRect, scene: &Scene, ids: &[NodeId]) -> bool {
    let inside = |p: DVec2| {
        let s = camera.to_screen_f64(rect, p);
        let (lo, hi) = (rect.min.as_dvec2(), rect.max.as_dvec2());
        s.x >= lo.x - 0.5 && s.y >= lo.y - 0.5 && s.x <= hi.x + 0.5 && s.y <= hi.y + 0.5
    };
    ids.iter().all(|&id| {
        let Some((lo, hi)) = world_bounds(scene, &[id]) else {
            return true;
        };
        [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)]
            .into_iter()
            .all(inside)
    })
}
