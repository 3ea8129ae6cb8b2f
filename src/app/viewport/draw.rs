//! Viewport drawing: grid and axes, nodes through their world matrices, drag ghosts and the
//! shear warning overlay.

use super::geometry::{Camera, local_outline};
use super::{ViewportState, resolve_sprite};
use crate::app::hierarchy::{DropPreview, drop_parent};
use crate::document::Document;
use crate::math::{shear_metrics, try_inverse};
use crate::scene::diagnose::{SHEAR_TOLERANCE_DEGREES, ShearCause};
use crate::scene::{NodeId, Scene, Shape};
use egui::{Color32, Pos2, Rect, Stroke};
use glam::{Affine2, Vec2};

fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// How many nodes of a dragged subtree get a ghost (a huge subtree is previewed by its top).
const GHOST_LIMIT: usize = 2_000;

/// Where the dragged subtrees would be drawn after a drop under `parent`: (pre-order index,
/// world matrix) for each node. Keep-world leaves them where they are (nothing moves); keep-local
/// puts each root at parentWorld · local and carries its subtree along. Empty when keep-world is
/// impossible (singular parent).
pub fn ghost_worlds(
    scene: &Scene,
    dragged: &[NodeId],
    parent: Option<NodeId>,
    keep_world: bool,
) -> Vec<(usize, Affine2)> {
    let parent_world = match parent {
        Some(p) => match scene.world(p) {
            Ok(w) => w,
            Err(_) => return Vec::new(),
        },
        None => Affine2::IDENTITY,
    };
    if keep_world && try_inverse(&parent_world).is_err() {
        return Vec::new();
    }
    let mut ghosts: Vec<(usize, Affine2)> = Vec::new();
    for &d in dragged {
        let Ok(s) = scene.index(d) else { continue };
        let root = if keep_world {
            scene.world_at(s)
        } else {
            parent_world * scene.local_matrix_at(s)
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

pub(super) fn draw_ghosts(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    preview: &DropPreview,
) {
    if !preview.allowed {
        return;
    }
    let parent = drop_parent(scene, preview.zone);
    for (keep_world, alpha) in [(preview.keep_world, 200u8), (!preview.keep_world, 70u8)] {
        let color = if keep_world {
            Color32::from_rgba_unmultiplied(120, 200, 255, alpha)
        } else {
            Color32::from_rgba_unmultiplied(255, 160, 90, alpha)
        };
        for (i, world) in ghost_worlds(scene, &preview.dragged, parent, keep_world) {
            let outline: Vec<Pos2> = local_outline(&scene.data_at(i).shape)
                .into_iter()
                .map(|p| camera.to_screen(rect, world.transform_point2(p)))
                .collect();
            let origin = camera.to_screen(rect, world.translation);
            if outline.len() > 2 {
                painter.add(egui::Shape::closed_line(outline, Stroke::new(2.0, color)));
            }
            painter.circle_stroke(origin, 4.0, Stroke::new(1.5, color));
            if !keep_world && preview.dragged.contains(&scene.id_at(i)) {
                let from = camera.to_screen(rect, scene.world_at(i).translation);
                painter.arrow(from, origin - from, Stroke::new(1.0, color));
            }
        }
    }
}

/// The grid step: 1, 2 or 5 × 10^k world units, at least ~40 px apart (moves snap to it).
pub fn grid_step(camera: &Camera) -> f32 {
    let raw = 40.0 / camera.zoom;
    let magnitude = 10f32.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

pub(super) fn draw_grid(painter: &egui::Painter, rect: Rect, camera: &Camera) {
    let step = grid_step(camera);
    let lo = camera.to_world(rect, rect.left_bottom());
    let hi = camera.to_world(rect, rect.right_top());
    let grid = Stroke::new(1.0, Color32::from_gray(45));
    let text = Color32::from_gray(110);
    let mut x = (lo.x / step).floor() * step;
    while x <= hi.x {
        let s = camera.to_screen(rect, Vec2::new(x, 0.0)).x;
        painter.line_segment(
            [Pos2::new(s, rect.top()), Pos2::new(s, rect.bottom())],
            grid,
        );
        painter.text(
            Pos2::new(s + 2.0, rect.bottom() - 2.0),
            egui::Align2::LEFT_BOTTOM,
            format!("{}", (x * 1e4).round() / 1e4),
            egui::FontId::proportional(10.0),
            text,
        );
        x += step;
    }
    let mut y = (lo.y / step).floor() * step;
    while y <= hi.y {
        let s = camera.to_screen(rect, Vec2::new(0.0, y)).y;
        painter.line_segment(
            [Pos2::new(rect.left(), s), Pos2::new(rect.right(), s)],
            grid,
        );
        painter.text(
            Pos2::new(rect.left() + 2.0, s - 2.0),
            egui::Align2::LEFT_BOTTOM,
            format!("{}", (y * 1e4).round() / 1e4),
            egui::FontId::proportional(10.0),
            text,
        );
        y += step;
    }
    let origin = camera.to_screen(rect, Vec2::ZERO);
    painter.line_segment(
        [
            Pos2::new(rect.left(), origin.y),
            Pos2::new(rect.right(), origin.y),
        ],
        Stroke::new(1.5, Color32::from_rgb(120, 60, 60)),
    );
    painter.line_segment(
        [
            Pos2::new(origin.x, rect.top()),
            Pos2::new(origin.x, rect.bottom()),
        ],
        Stroke::new(1.5, Color32::from_rgb(60, 120, 60)),
    );
}

/// Half the width and height of a shape's box (zero for an origin-only node).
fn half_size(shape: &Shape) -> Vec2 {
    match shape {
        Shape::None => Vec2::ZERO,
        Shape::Rect { size } | Shape::Ellipse { size } | Shape::Sprite { size, .. } => {
            size.abs() * 0.5
        }
    }
}

/// Ellipse segment counts in use, and their unit circles (computed once: no trigonometry per node).
const SEGMENTS: [usize; 7] = [4, 8, 12, 16, 24, 32, 48];
static UNIT_CIRCLES: std::sync::LazyLock<Vec<Vec<Vec2>>> = std::sync::LazyLock::new(|| {
    SEGMENTS
        .iter()
        .map(|&n| {
            (0..n)
                .map(|k| {
                    let a = k as f32 / n as f32 * std::f32::consts::TAU;
                    Vec2::new(a.cos(), a.sin())
                })
                .collect()
        })
        .collect()
});

/// The shape's outline in screen space, into `out`. `to_screen` is the node's local → screen
/// matrix; an ellipse gets as many segments as its size on screen needs (4 when tiny).
fn screen_outline(out: &mut Vec<Pos2>, shape: &Shape, to_screen: &Affine2, pixel_size: f32) {
    out.clear();
    let h = half_size(shape);
    let put = |p: Vec2| {
        let s = to_screen.transform_point2(p);
        Pos2::new(s.x, s.y)
    };
    match shape {
        Shape::None => {}
        Shape::Ellipse { .. } => {
            let wanted = if pixel_size < 4.0 {
                4
            } else {
                (pixel_size / 3.0) as usize
            };
            let k = SEGMENTS
                .iter()
                .position(|&n| n >= wanted)
                .unwrap_or(SEGMENTS.len() - 1);
            out.extend(UNIT_CIRCLES[k].iter().map(|u| put(*u * h)));
        }
        Shape::Rect { .. } | Shape::Sprite { .. } => {
            let corners = [
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ];
            out.extend(corners.iter().map(|p| put(*p)));
        }
    }
}

/// Add a convex polygon (screen space) to a batched mesh as a triangle fan.
fn fan(mesh: &mut egui::Mesh, points: &[Pos2], color: Color32) {
    let base = mesh.vertices.len() as u32;
    for p in points {
        mesh.colored_vertex(*p, color);
    }
    for k in 1..points.len().saturating_sub(1) as u32 {
        mesh.add_triangle(base, base + k, base + k + 1);
    }
}

/// Nodes drawn with outlines, axes and origins, at most; past this only fills are drawn.
const DETAIL_LIMIT: usize = 1_500;
/// Parent-child link lines drawn at most.
const LINK_LIMIT: usize = 3_000;

/// Draw every node through its world matrix. Fills are batched into one mesh (flushed before any
/// outline so the stacking order stays right); nodes too small on screen get no outline, axes,
/// origin or name, and everything off screen is skipped.
pub(super) fn draw_nodes(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    doc: &Document,
    selection: &[NodeId],
    state: &mut ViewportState,
) {
    let scene = &doc.scene;
    let camera = state.camera;
    let to_screen = |p: Vec2| camera.to_screen(rect, p);
    let mut names: Vec<(Pos2, &str)> = Vec::new();
    let mut fill = egui::Mesh::default();
    fill.reserve_vertices(scene.len().min(200_000) * 4);
    fill.reserve_triangles(scene.len().min(200_000) * 2);
    // World → screen as one matrix (y flipped), so each outline point is one affine transform.
    let screen_matrix = camera.screen_matrix(rect);
    let mut outline: Vec<Pos2> = Vec::with_capacity(48);
    let (mut detailed, mut links) = (0usize, 0usize);
    let link_stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(200, 200, 200, 60));
    for i in 0..scene.len() {
        let world = scene.world_at(i);
        let data = scene.data_at(i);
        let origin = to_screen(world.translation);
        if state.show_links
            && links < LINK_LIMIT
            && let Some(p) = scene.parent_index_at(i)
        {
            let from = to_screen(scene.world_at(p).translation);
            if (from - origin).length_sq() > 16.0
                && Rect::from_two_pos(from, origin).intersects(rect)
            {
                painter.line_segment([from, origin], link_stroke);
                links += 1;
            }
        }
        // Screen-space bounding box of the shape, straight from the world matrix: cull early.
        let half = half_size(&data.shape);
        let (ax, ay) = (
            world.matrix2.x_axis * camera.zoom,
            world.matrix2.y_axis * camera.zoom,
        );
        let extent = Vec2::new(
            ax.x.abs() * half.x + ay.x.abs() * half.y,
            ax.y.abs() * half.x + ay.y.abs() * half.y,
        );
        if !Rect::from_center_size(origin, egui::vec2(extent.x * 2.0, extent.y * 2.0))
            .expand(4.0)
            .intersects(rect)
        {
            continue;
        }
        let pixel_size = extent.max_element() * 2.0;
        let id = scene.id_at(i);
        let selected = selection.contains(&id);
        let detail = selected
            || (detailed < DETAIL_LIMIT && (pixel_size > 8.0 || data.shape == Shape::None));
        screen_outline(
            &mut outline,
            &data.shape,
            &(screen_matrix * world),
            pixel_size,
        );
        match &data.shape {
            Shape::Sprite { path, .. } => {
                flush(painter, &mut fill);
                match state.texture(ctx, &resolve_sprite(doc, path)) {
                    Some(texture) => {
                        let mut mesh = egui::Mesh::with_texture(texture);
                        let uvs = [
                            Pos2::new(0.0, 1.0),
                            Pos2::new(1.0, 1.0),
                            Pos2::new(1.0, 0.0),
                            Pos2::new(0.0, 0.0),
                        ];
                        for (p, uv) in outline.iter().zip(uvs) {
                            mesh.vertices.push(egui::epaint::Vertex {
                                pos: *p,
                                uv,
                                color: color32(data.color),
                            });
                        }
                        mesh.add_triangle(0, 1, 2);
                        mesh.add_triangle(0, 2, 3);
                        painter.add(mesh);
                    }
                    None => {
                        // A missing image: a red crossed box, so the node is still visible.
                        painter.add(egui::Shape::closed_line(
                            outline.clone(),
                            Stroke::new(1.0, Color32::RED),
                        ));
                        painter
                            .line_segment([outline[0], outline[2]], Stroke::new(1.0, Color32::RED));
                    }
                }
            }
            Shape::Rect { .. } | Shape::Ellipse { .. } => {
                // An affine image of a convex shape is convex, sheared or mirrored: a fan is exact.
                fan(&mut fill, &outline, color32(data.color));
            }
            Shape::None => {}
        }
        if !detail {
            continue;
        }
        detailed += 1;
        flush(painter, &mut fill);
        if outline.len() > 2 {
            let stroke = if selected {
                Stroke::new(2.5, Color32::from_rgb(255, 210, 60))
            } else {
                Stroke::new(1.0, Color32::from_gray(20))
            };
            if selected || !matches!(data.shape, Shape::Sprite { .. }) {
                painter.add(egui::Shape::closed_line(outline.clone(), stroke));
            }
        }
        // The primary selection shows its axes as the handles instead.
        let primary = selection.last() == Some(&id);
        if state.show_axes
            && !primary
            && (selected || pixel_size > 16.0 || data.shape == Shape::None)
        {
            let x_axis = to_screen(world.transform_point2(Vec2::X));
            let y_axis = to_screen(world.transform_point2(Vec2::Y));
            painter.arrow(
                origin,
                x_axis - origin,
                Stroke::new(1.5, Color32::from_rgb(230, 80, 80)),
            );
            painter.arrow(
                origin,
                y_axis - origin,
                Stroke::new(1.5, Color32::from_rgb(80, 200, 80)),
            );
        }
        painter.circle_filled(origin, if selected { 4.0 } else { 2.5 }, Color32::WHITE);
        if state.show_names
            && names.len() < MAX_NAMES
            && (selected || pixel_size > 20.0 || data.shape == Shape::None)
        {
            names.push((origin, data.name.as_str()));
        }
    }
    flush(painter, &mut fill);
    // Names last, so no shape covers them.
    for (origin, name) in names {
        let font = egui::FontId::proportional(12.0);
        painter.text(
            origin + egui::vec2(6.0, -6.0),
            egui::Align2::LEFT_BOTTOM,
            name,
            font,
            Color32::from_gray(230),
        );
    }
}

/// Paint the batched fills gathered so far.
fn flush(painter: &egui::Painter, fill: &mut egui::Mesh) {
    if !fill.is_empty() {
        painter.add(std::mem::take(fill));
    }
}

/// More names than this on screen are unreadable anyway; skip the rest.
const MAX_NAMES: usize = 500;

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

/// Every node whose world matrix is sheared, with the angle off 90° and the cause.
pub fn shear_overlay(scene: &Scene) -> Vec<ShearMark> {
    (0..scene.len())
        .filter_map(|i| {
            let metrics = shear_metrics(&scene.world_at(i));
            if !metrics.is_sheared(SHEAR_TOLERANCE_DEGREES) {
                return None;
            }
            let node = scene.id_at(i);
            let cause = match scene.shear_cause(node) {
                Ok(ShearCause::Ancestor { cause, .. }) => Some(cause),
                _ => None,
            };
            Some(ShearMark {
                node,
                degrees_off: metrics.axis_angle - 90.0,
                cause,
            })
        })
        .collect()
}

/// sin²(0.01°), a little under the tolerance so the exact test decides the borderline cases.
const SIN2_TOLERANCE: f32 = 2.9e-8;

/// Sheared nodes labelled with their angle (and their cause marked), at most.
const SHEAR_LABEL_LIMIT: usize = 20;

/// Sheared nodes drawn with their outline, axes parallelogram and label, at most.
const SHEAR_MARK_LIMIT: usize = 120;

/// The shear warning overlay for the nodes on screen: outline, world-axes parallelogram and the
/// angle off 90°; the parents that cause it get a ring and a note. Off-screen nodes cost only
/// their shear test, and at most `SHEAR_MARK_LIMIT` are drawn.
pub(super) fn draw_shear_overlay(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
) {
    let warn = Color32::from_rgb(255, 140, 0);
    let font = egui::FontId::proportional(12.0);
    let mut causes = Vec::new();
    let mut drawn = 0;
    for i in 0..scene.len() {
        let world = scene.world_at(i);
        // Cheap test first (no square roots or trig): |cos(angle between axes)| > sin(tolerance).
        let (c0, c1) = (world.matrix2.x_axis, world.matrix2.y_axis);
        let dot = c0.dot(c1);
        if dot * dot <= c0.length_squared() * c1.length_squared() * SIN2_TOLERANCE {
            continue;
        }
        let metrics = shear_metrics(&world);
        if !metrics.is_sheared(SHEAR_TOLERANCE_DEGREES) {
            continue;
        }
        let corners: Vec<Pos2> = [Vec2::ZERO, Vec2::X, Vec2::X + Vec2::Y, Vec2::Y]
            .iter()
            .map(|p| camera.to_screen(rect, world.transform_point2(*p)))
            .collect();
        if !corners.iter().any(|p| rect.contains(*p)) {
            continue;
        }
        // Too small to see the skew: leave it out rather than cover the view in warnings.
        let span = corners
            .iter()
            .fold(Rect::NOTHING, |r, p| r.union(Rect::from_min_max(*p, *p)))
            .size()
            .max_elem();
        if span < 8.0 {
            continue;
        }
        drawn += 1;
        if drawn > SHEAR_MARK_LIMIT {
            break;
        }
        let outline: Vec<Pos2> = local_outline(&scene.data_at(i).shape)
            .into_iter()
            .map(|p| camera.to_screen(rect, world.transform_point2(p)))
            .collect();
        if outline.len() > 2 {
            painter.add(egui::Shape::closed_line(outline, Stroke::new(2.5, warn)));
        }
        let origin = corners[0];
        painter.add(egui::Shape::closed_line(corners, Stroke::new(1.5, warn)));
        if span < 30.0 || drawn > SHEAR_LABEL_LIMIT {
            continue;
        }
        let text = format!("⚠ shear {:+.1}° off 90°", metrics.axis_angle - 90.0);
        label(
            painter,
            origin + egui::vec2(6.0, 6.0),
            egui::Align2::LEFT_TOP,
            text,
            &font,
            warn,
        );
        if let Ok(ShearCause::Ancestor { cause, .. }) = scene.shear_cause(scene.id_at(i)) {
            causes.push(cause);
        }
    }
    causes.sort();
    causes.dedup();
    for cause in causes {
        let Ok(world) = scene.world(cause) else {
            continue;
        };
        let at = camera.to_screen(rect, world.translation);
        painter.circle_stroke(at, 9.0, Stroke::new(2.0, warn));
        let note = "non-uniform scale: causes shear below";
        label(
            painter,
            at + egui::vec2(12.0, 12.0),
            egui::Align2::LEFT_TOP,
            note.to_string(),
            &font,
            warn,
        );
    }
}

/// Text on a dark plate, so it stays readable over any shape.
fn label(
    painter: &egui::Painter,
    at: Pos2,
    align: egui::Align2,
    text: String,
    font: &egui::FontId,
    color: Color32,
) {
    let galley = painter.layout_no_wrap(text, font.clone(), color);
    let rect = align.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, Color32::from_black_alpha(170));
    painter.galley(rect.min, galley, color);
}
