//! Overlays as data: the shear warnings (which nodes, how far off 90°, which ancestor causes
//! it, and what of it is on screen) and the ghosts of a reparent drag. The viewport paints
//! exactly these; the tests check exactly these.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{ScreenShape, world_f64};
use crate::model::math::{shear_metrics, try_inverse};
use crate::model::scene::diagnose::{SHEAR_TOLERANCE_DEGREES, ShearCause};
use crate::model::scene::{Keep, NodeId, Scene};
use glam::{Affine2, DAffine2, DVec2, Vec2};

/// Degrees off with their sign ("+36.9", "-0.5"), one decimal, never "-0.0".
fn signed_angle(degrees: f32) -> String {
    let text = crate::editor::view::numbers::format_angle(degrees as f64, 1, 1);
    if text.starts_with('-') || text == "0.0" {
        text
    } else {
        format!("+{text}")
    }
}

/// One entry of the shear warning overlay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShearMark {
    /// The sheared node.
    pub node: NodeId,
    /// How far its world axes are from 90° (signed, degrees).
    pub degrees_off: f32,
    /// The ancestor whose non-uniform scale (or skew) causes it, if not the node itself.
    pub cause: Option<NodeId>,
}

/// sin²(0.01°), a little under the tolerance so the exact test decides the borderline cases.
const SIN2_TOLERANCE: f32 = 2.9e-8;

/// The shear mark of the node at pre-order index `i`, if its world matrix is sheared. A cheap
/// test comes first (no square roots or trigonometry); the cause (a walk up the ancestors) is
/// looked for only when `with_cause`.
fn mark_at(scene: &Scene, i: usize, with_cause: bool) -> Option<ShearMark> {
    let world = scene.world_at(i);
    if !may_be_sheared(&world) {
        return None;
    }
    let metrics = shear_metrics(&world);
    if !metrics.is_sheared(SHEAR_TOLERANCE_DEGREES) {
        return None;
    }
    let node = scene.id_at(i);
    let cause = if with_cause {
        cause_of(scene, node)
    } else {
        None
    };
    Some(ShearMark {
        node,
        degrees_off: metrics.axis_angle - 90.0,
        cause,
    })
}

/// The ancestor whose non-uniform scale (or skew) shears `node`, if not the node itself.
fn cause_of(scene: &Scene, node: NodeId) -> Option<NodeId> {
    match scene.shear_cause(node) {
        Ok(ShearCause::Ancestor { cause, .. }) => Some(cause),
        _ => None,
    }
}

/// Every node whose world matrix is sheared, with the angle off 90° and the cause.
pub fn shear_overlay(scene: &Scene) -> Vec<ShearMark> {
    (0..scene.len())
        .filter_map(|i| mark_at(scene, i, true))
        .collect()
}

/// Sheared nodes drawn with their outline and axes parallelogram, at most.
pub const SHEAR_MARK_LIMIT: usize = 120;
/// Sheared nodes labelled with their angle, at most.
pub const SHEAR_LABEL_LIMIT: usize = 20;

/// A sheared node as the overlay draws it, in screen pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct ShearMarkOnScreen {
    /// What is sheared and why.
    pub mark: ShearMark,
    /// The node's shape outline (empty for an origin-only node).
    pub outline: Vec<Vec2>,
    /// The image of the local unit square: origin, x, x + y, y.
    pub axes: [Vec2; 4],
    /// "⚠ shear +x.x° off 90°", for the first few big enough to read.
    pub label: Option<String>,
}

/// The shear overlay for one frame: the marks in view, and the causes (with their screen
/// positions) of the labelled ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShearOverlayOnScreen {
    /// The sheared nodes drawn, at most [`SHEAR_MARK_LIMIT`].
    pub marks: Vec<ShearMarkOnScreen>,
    /// Ancestors causing shear below them, and where their origin is on screen.
    pub causes: Vec<(NodeId, Vec2)>,
}

/// The shear overlay for the nodes in view: marks whose unit square reaches the view and is
/// at least 8 px across; labels on those ≥ 30 px, the first [`SHEAR_LABEL_LIMIT`].
pub fn shear_overlay_on_screen(
    scene: &Scene,
    camera: Camera,
    rect: ScreenRect,
) -> ShearOverlayOnScreen {
    shear_overlay_among(scene, camera, rect, 0..scene.len())
}

/// Pixels a node's unit square must span on screen to get a shear mark.
pub const SHEAR_MARK_MIN_PX: f64 = 8.0;

/// The cheap first test of a shear mark, on the world matrix alone: false when its axes are
/// perpendicular within the tolerance (no mark, wherever the camera is); true may still be
/// within [`SHEAR_TOLERANCE_DEGREES`] once measured exactly.
pub fn may_be_sheared(world: &glam::Affine2) -> bool {
    let (c0, c1) = (world.matrix2.x_axis, world.matrix2.y_axis);
    let dot = c0.dot(c1);
    dot * dot > c0.length_squared() * c1.length_squared() * SIN2_TOLERANCE
}

/// False when a node with this local → screen matrix can never get a shear mark: its unit
/// square is under [`SHEAR_MARK_MIN_PX`] on screen or its box misses the view. A drawing pass
/// that already has `m` picks the candidates for [`shear_overlay_among`] almost for free.
pub fn may_get_shear_mark(m: &DAffine2, rect: ScreenRect) -> bool {
    let (a, b) = (m.matrix2.x_axis, m.matrix2.y_axis);
    let lo = m.translation + a.min(DVec2::ZERO) + b.min(DVec2::ZERO);
    let hi = m.translation + a.max(DVec2::ZERO) + b.max(DVec2::ZERO);
    (hi - lo).max_element() >= SHEAR_MARK_MIN_PX
        && hi.cmpge(rect.min.as_dvec2()).all()
        && lo.cmple(rect.max.as_dvec2()).all()
}

/// [`shear_overlay_on_screen`] looking only at these pre-order indices (in order).
pub fn shear_overlay_among(
    scene: &Scene,
    camera: Camera,
    rect: ScreenRect,
    indices: impl IntoIterator<Item = usize>,
) -> ShearOverlayOnScreen {
    let mut out = ShearOverlayOnScreen::default();
    let mut shape = ScreenShape::new();
    for i in indices {
        let m = camera.node_to_screen_f64(rect, &scene.world_at(i));
        if !may_get_shear_mark(&m, rect) {
            continue; // too small or off screen: checked before the (costlier) shear metrics
        }
        let Some(mut mark) = mark_at(scene, i, false) else {
            continue;
        };
        let Some(world) = world_f64(&scene.world_at(i)) else {
            continue;
        };
        let corners = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y].map(|p| m.transform_point2(p));
        let lo = corners.iter().fold(DVec2::INFINITY, |a, p| a.min(*p));
        let hi = corners.iter().fold(DVec2::NEG_INFINITY, |a, p| a.max(*p));
        let on_screen = corners.iter().any(|p| rect.contains(p.as_vec2()));
        let span = (hi - lo).max_element();
        if !on_screen || !span.is_finite() || span < SHEAR_MARK_MIN_PX || !world.matrix2.is_finite()
        {
            continue;
        }
        if out.marks.len() >= SHEAR_MARK_LIMIT {
            break;
        }
        shape.compute(&scene.data_at(i).shape, &m, rect);
        let label = (span >= 30.0 && out.marks.len() < SHEAR_LABEL_LIMIT)
            .then(|| format!("⚠ shear {}° off 90°", signed_angle(mark.degrees_off)));
        if label.is_some() {
            mark.cause = cause_of(scene, mark.node);
        }
        if label.is_some()
            && let Some(cause) = mark.cause
            && !out.causes.iter().any(|(c, _)| *c == cause)
            && let Ok(cw) = scene.world(cause)
        {
            out.causes
                .push((cause, camera.to_screen(rect, cw.translation)));
        }
        out.marks.push(ShearMarkOnScreen {
            mark,
            outline: shape.outline.clone(),
            axes: corners.map(DVec2::as_vec2),
            label,
        });
    }
    out.causes.sort_by_key(|(c, _)| *c);
    out
}

/// How many nodes of a dragged subtree get a ghost (a huge subtree is previewed by its top).
pub const GHOST_LIMIT: usize = 2_000;

/// Where the dragged subtrees would be drawn after a drop under `parent`: (pre-order index,
/// world matrix) for each node. Keeping world leaves them where they are (nothing moves); keeping local
/// puts each root at parentWorld · local and carries its subtree along. Empty when keep-world is
/// impossible (singular parent).
pub fn ghost_worlds(
    scene: &Scene,
    dragged: &[NodeId],
    parent: Option<NodeId>,
    keep: Keep,
) -> Vec<(usize, Affine2)> {
    let parent_world = match parent {
        Some(p) => match scene.world(p) {
            Ok(w) => w,
            Err(_) => return Vec::new(),
        },
        None => Affine2::IDENTITY,
    };
    if keep == Keep::World && try_inverse(&parent_world).is_err() {
        return Vec::new();
    }
    let mut ghosts: Vec<(usize, Affine2)> = Vec::new();
    for &d in dragged {
        let Ok(s) = scene.index(d) else { continue };
        let root = match keep {
            Keep::World => scene.world_at(s),
            Keep::Local => parent_world * scene.local_matrix_at(s),
        };
        let end = s + scene.subtree_len_at(s).min(GHOST_LIMIT);
        let first = ghosts.len();
        ghosts.push((s, root));
        for i in s + 1..end {
            let p = scene.parent_index_at(i).unwrap_or(s);
            let parent_ghost = ghosts[first + (p - s)].1;
            ghosts.push((i, parent_ghost * scene.local_matrix_at(i)));
        }
    }
    ghosts
}

/// Ghosts drawn at most (the first nodes in view).
pub const ACCUMULATED_GHOST_LIMIT: usize = 500;

/// A node as component-wise accumulated TRS would place it, on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct AccumulatedGhost {
    /// The node.
    pub node: NodeId,
    /// Its shape's outline at the accumulated transform (empty for an origin-only node).
    pub outline: Vec<Vec2>,
    /// The accumulated origin on screen.
    pub origin: Vec2,
    /// The true world origin on screen.
    pub true_origin: Vec2,
    /// How far apart the two transforms put the node's unit square, in world units (the
    /// largest distance between corresponding corners).
    pub error: f64,
}

/// Every node's accumulated-TRS ghost whose true or ghost origin is in view (at most
/// [`ACCUMULATED_GHOST_LIMIT`]): where the seed's component-wise accumulation would put it.
pub fn accumulated_ghosts(
    scene: &Scene,
    camera: Camera,
    rect: ScreenRect,
) -> Vec<AccumulatedGhost> {
    let mut out = Vec::new();
    let mut shape = ScreenShape::new();
    for i in 0..scene.len() {
        if out.len() >= ACCUMULATED_GHOST_LIMIT {
            break;
        }
        let id = scene.id_at(i);
        let Ok(acc) = scene.accumulated_world_trs(id) else {
            continue;
        };
        let ghost = acc.to_affine();
        let world = scene.world_at(i);
        if !ghost.is_finite() || !world.is_finite() {
            continue;
        }
        let m = camera.node_to_screen_f64(rect, &ghost);
        let origin = m.translation.as_vec2();
        let true_origin = camera.to_screen(rect, world.translation);
        if !rect.contains(origin) && !rect.contains(true_origin) {
            continue;
        }
        shape.compute(&scene.data_at(i).shape, &m, rect);
        let error = [DVec2::ZERO, DVec2::X, DVec2::Y, DVec2::ONE]
            .iter()
            .map(|p| {
                let a = ghost.as_daffine2().transform_point2(*p);
                let b = world.as_daffine2().transform_point2(*p);
                (a - b).length()
            })
            .fold(0.0, f64::max);
        out.push(AccumulatedGhost {
            node: id,
            outline: shape.outline.clone(),
            origin,
            true_origin,
            error,
        });
    }
    out
}

/// World-blend ghosts drawn at most.
pub const WORLD_BLEND_LIMIT: usize = 200;

/// Where an animated node would be at playback time `t` if its world matrix were blended
/// linearly between its values at the surrounding key times (instead of interpolating the
/// locals and composing): (node, blended world matrix). Nodes at a key time, or before the
/// first / after the last key, have none: there the two agree.
pub fn world_blend_ghosts(scene: &Scene, t: f32) -> Vec<(NodeId, Affine2)> {
    let clip_time = scene.clip().local_time(t);
    let mut out = Vec::new();
    // Only the subtrees of animated nodes move: walk those ranges (pre-order, so a nested
    // animated node's range is already inside its ancestor's).
    let mut indices = Vec::new();
    let mut covered = 0;
    for a in scene.animated_nodes() {
        let Ok(start) = scene.index(a) else { continue };
        let end = start + scene.subtree_len_at(start);
        indices.extend(start.max(covered)..end);
        covered = covered.max(end);
    }
    for i in indices {
        if out.len() >= WORLD_BLEND_LIMIT {
            break;
        }
        let id = scene.id_at(i);
        let times = scene.chain_key_times(id);
        let Some(next) = times.iter().position(|&k| k > clip_time) else {
            continue;
        };
        if next == 0 {
            continue;
        }
        let (t0, t1) = (times[next - 1], times[next]);
        if t0.to_bits() == clip_time.to_bits() {
            continue;
        }
        let worlds = scene.sampled_worlds(id, &[t0, t1]);
        let [w0, w1] = [worlds[0], worlds[1]];
        let u = (clip_time - t0) / (t1 - t0);
        let lerp = |a: Vec2, b: Vec2| a + (b - a) * u;
        let blended = Affine2::from_mat2_translation(
            glam::Mat2::from_cols(
                lerp(w0.matrix2.x_axis, w1.matrix2.x_axis),
                lerp(w0.matrix2.y_axis, w1.matrix2.y_axis),
            ),
            lerp(w0.translation, w1.translation),
        );
        out.push((id, blended));
    }
    out
}
