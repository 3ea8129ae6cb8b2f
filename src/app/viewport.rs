//! The 2D viewport: every node drawn through its world matrix (shear and mirrors shown as they
//! are), a grid and world axes, click to select, drag to move, pan and zoom, and the shear
//! overlay. The camera is view state, not part of the scene, and is not undoable.

use super::Intent;
use super::hierarchy::{DropPreview, drop_parent};
use crate::document::Document;
use crate::math::{shear_metrics, try_inverse};
use crate::scene::diagnose::{SHEAR_TOLERANCE_DEGREES, ShearCause};
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene, Shape};
use egui::{Color32, Pos2, Rect, Sense, Stroke};
use glam::{Affine2, Vec2};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A y-up camera: the world point at the viewport's centre and pixels per world unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point shown at the centre.
    pub center: Vec2,
    /// Pixels per world unit.
    pub zoom: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: Vec2::new(3.0, 1.5),
            zoom: 50.0,
        }
    }
}

impl Camera {
    /// World → screen (y flipped: world y grows upwards).
    pub fn to_screen(self, viewport: Rect, p: Vec2) -> Pos2 {
        let d = (p - self.center) * self.zoom;
        Pos2::new(viewport.center().x + d.x, viewport.center().y - d.y)
    }

    /// Screen → world.
    pub fn to_world(self, viewport: Rect, p: Pos2) -> Vec2 {
        let d = p - viewport.center();
        self.center + Vec2::new(d.x, -d.y) / self.zoom
    }

    /// Zoom by `factor` keeping the world point under `anchor` fixed.
    pub fn zoom_around(&mut self, viewport: Rect, anchor: Pos2, factor: f32) {
        let before = self.to_world(viewport, anchor);
        self.zoom = (self.zoom * factor).clamp(1e-3, 1e5);
        let after = self.to_world(viewport, anchor);
        self.center += before - after;
    }

    /// Fit a world-space box into the viewport with a margin.
    pub fn fit(&mut self, viewport: Rect, min: Vec2, max: Vec2) {
        let size = (max - min).max(Vec2::splat(1.0));
        self.center = (min + max) * 0.5;
        self.zoom =
            ((viewport.width() / size.x).min(viewport.height() / size.y) * 0.8).clamp(1e-3, 1e5);
    }
}

/// The outline of a shape in its local space (for drawing and hit testing).
pub fn local_outline(shape: &Shape) -> Vec<Vec2> {
    match shape {
        Shape::None => Vec::new(),
        Shape::Rect { size } | Shape::Sprite { size, .. } => {
            let h = *size * 0.5;
            vec![
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ]
        }
        Shape::Ellipse { size } => (0..32)
            .map(|k| {
                let a = k as f32 / 32.0 * std::f32::consts::TAU;
                Vec2::new(a.cos() * size.x * 0.5, a.sin() * size.y * 0.5)
            })
            .collect(),
    }
}

/// True when the local point lies inside the shape.
pub fn shape_contains(shape: &Shape, p: Vec2) -> bool {
    match shape {
        Shape::None => false,
        Shape::Rect { size } | Shape::Sprite { size, .. } => {
            p.x.abs() <= size.x.abs() * 0.5 && p.y.abs() <= size.y.abs() * 0.5
        }
        Shape::Ellipse { size } => {
            let h = size.abs() * 0.5;
            h.x > 0.0 && h.y > 0.0 && (p.x / h.x).powi(2) + (p.y / h.y).powi(2) <= 1.0
        }
    }
}

/// The topmost node whose shape contains the world point (tested through the inverse world
/// matrix, so sheared and mirrored shapes hit exactly), or whose origin is within `origin_radius`.
pub fn hit_test(scene: &Scene, world_point: Vec2, origin_radius: f32) -> Option<NodeId> {
    (0..scene.len()).rev().find_map(|i| {
        let world = scene.world_at(i);
        let inside = try_inverse(&world).is_ok_and(|inv| {
            shape_contains(&scene.data_at(i).shape, inv.transform_point2(world_point))
        });
        (inside || world.translation.distance(world_point) <= origin_radius).then(|| scene.id_at(i))
    })
}

/// An in-progress move of the selection with the pointer.
#[derive(Clone, Debug)]
struct MoveDrag {
    start_pointer: Vec2,
    starts: Vec<(NodeId, Vec2)>,
    gesture: u64,
}

/// View settings and interaction state of the viewport.
pub struct ViewportState {
    /// The camera.
    pub camera: Camera,
    /// Draw each node's local x/y axes.
    pub show_axes: bool,
    /// Draw parent → child links.
    pub show_links: bool,
    /// Draw names.
    pub show_names: bool,
    /// Outline sheared nodes and label the angle off 90°.
    pub show_shear: bool,
    frame_pending: bool,
    frame_request: Option<Vec<NodeId>>,
    drag: Option<MoveDrag>,
    next_gesture: u64,
    textures: HashMap<PathBuf, Option<egui::TextureHandle>>,
}

impl Default for ViewportState {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            show_axes: true,
            show_links: true,
            show_names: true,
            show_shear: true,
            frame_pending: true,
            frame_request: None,
            drag: None,
            next_gesture: 1 << 40,
            textures: HashMap::new(),
        }
    }
}

impl ViewportState {
    /// Frame these nodes on the next frame (when the viewport's size is known).
    pub fn frame(&mut self, _scene: &Scene, ids: &[NodeId]) {
        self.frame_request = Some(ids.to_vec());
    }

    /// Frame the whole scene on the next frame.
    pub fn frame_on_next_frame(&mut self) {
        self.frame_pending = true;
        self.textures.clear();
    }

    fn texture(&mut self, ctx: &egui::Context, path: &Path) -> Option<egui::TextureId> {
        let entry = self.textures.entry(path.to_path_buf()).or_insert_with(|| {
            let image = image::open(path).ok()?.to_rgba8();
            let size = [image.width() as usize, image.height() as usize];
            let color = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
            Some(ctx.load_texture(
                path.display().to_string(),
                color,
                egui::TextureOptions::LINEAR,
            ))
        });
        entry.as_ref().map(|t| t.id())
    }
}

/// The View menu's toggles.
pub fn view_menu(ui: &mut egui::Ui, state: &mut ViewportState) {
    ui.checkbox(&mut state.show_axes, "Local axes");
    ui.checkbox(&mut state.show_links, "Parent-child links");
    ui.checkbox(&mut state.show_names, "Names");
    ui.checkbox(&mut state.show_shear, "Shear warning overlay");
}

fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// Where a sprite's image is: next to the scene file, or in the sample scenes' folder.
fn resolve_sprite(doc: &Document, path: &str) -> PathBuf {
    let base = doc
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"));
    base.join(path)
}

fn bounds(scene: &Scene, ids: &[NodeId]) -> Option<(Vec2, Vec2)> {
    let mut points = Vec::new();
    for &id in ids {
        let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id)) else {
            continue;
        };
        points.push(world.translation);
        points.extend(
            local_outline(&scene.data_at(i).shape)
                .into_iter()
                .map(|p| world.transform_point2(p)),
        );
    }
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
    )
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

fn draw_ghosts(
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

/// Draw the viewport and handle its input. `preview` is a hierarchy drag in progress: its
/// ghosts show where the dragged nodes would end up with each setting.
pub fn ui(
    ui: &mut egui::Ui,
    doc: &Document,
    selection: &[NodeId],
    state: &mut ViewportState,
    preview: Option<&DropPreview>,
    highlight: Option<NodeId>,
) -> Vec<Intent> {
    let mut out = Vec::new();
    let scene = &doc.scene;
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let rect = response.rect;
    if state.frame_pending {
        state.frame_pending = false;
        state.frame_request = Some(scene.ids().to_vec());
    }
    if let Some(ids) = state.frame_request.take()
        && let Some((lo, hi)) = bounds(scene, &ids)
    {
        state.camera.fit(rect, lo, hi);
    }
    navigate(ui, &response, rect, state);
    painter.rect_filled(rect, 0.0, Color32::from_gray(28));
    draw_grid(&painter, rect, &state.camera);
    draw_nodes(ui.ctx(), &painter, rect, doc, selection, state);
    if state.show_shear {
        draw_shear_overlay(&painter, rect, state.camera, scene);
    }
    if let Some(preview) = preview {
        draw_ghosts(&painter, rect, state.camera, scene, preview);
    }
    if let Some(id) = highlight
        && let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id))
    {
        // The matrix-chain factor under the pointer in the inspector.
        let glow = Stroke::new(3.0, Color32::from_rgb(80, 220, 255));
        let outline: Vec<Pos2> = local_outline(&scene.data_at(i).shape)
            .into_iter()
            .map(|p| state.camera.to_screen(rect, world.transform_point2(p)))
            .collect();
        if outline.len() > 2 {
            painter.add(egui::Shape::closed_line(outline, glow));
        }
        painter.circle_stroke(state.camera.to_screen(rect, world.translation), 8.0, glow);
    }
    interact(ui, &response, rect, scene, selection, state, &mut out);
    out
}

fn navigate(ui: &egui::Ui, response: &egui::Response, rect: Rect, state: &mut ViewportState) {
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    let panning = response.dragged_by(egui::PointerButton::Middle)
        || (space && response.dragged_by(egui::PointerButton::Primary));
    if panning {
        let d = response.drag_delta();
        state.camera.center -= Vec2::new(d.x, -d.y) / state.camera.zoom;
    }
    if response.hovered() {
        let (scroll, zoom, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta.y,
                i.zoom_delta(),
                i.pointer.hover_pos(),
            )
        });
        let factor = zoom * (scroll * 0.002).exp();
        if factor != 1.0
            && let Some(p) = pointer
        {
            state.camera.zoom_around(rect, p, factor);
        }
    }
}

fn draw_grid(painter: &egui::Painter, rect: Rect, camera: &Camera) {
    // A grid step of 1, 2 or 5 × 10^k world units, at least ~40 px apart.
    let raw = 40.0 / camera.zoom;
    let magnitude = 10f32.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
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

fn draw_nodes(
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
    let visible = rect.expand(50.0);
    let mut names: Vec<(Pos2, &str)> = Vec::new();
    for i in 0..scene.len() {
        let world = scene.world_at(i);
        let data = scene.data_at(i);
        let id = scene.id_at(i);
        let selected = selection.contains(&id);
        let origin = to_screen(world.translation);
        if state.show_links
            && let Some(p) = scene.parent_index_at(i)
        {
            let from = to_screen(scene.world_at(p).translation);
            if visible.contains(from) || visible.contains(origin) {
                painter.line_segment(
                    [from, origin],
                    Stroke::new(1.0, Color32::from_rgba_unmultiplied(200, 200, 200, 60)),
                );
            }
        }
        let outline: Vec<Pos2> = local_outline(&data.shape)
            .into_iter()
            .map(|p| to_screen(world.transform_point2(p)))
            .collect();
        let on_screen = outline.iter().any(|p| visible.contains(*p))
            || visible.contains(origin)
            || outline_covers(&outline, rect);
        if !on_screen {
            continue;
        }
        let stroke = if selected {
            Stroke::new(2.5, Color32::from_rgb(255, 210, 60))
        } else {
            Stroke::new(1.0, Color32::from_gray(20))
        };
        match &data.shape {
            Shape::Sprite { path, .. } => {
                let resolved = resolve_sprite(doc, path);
                match state.texture(ctx, &resolved) {
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
                        if selected {
                            painter.add(egui::Shape::closed_line(outline.clone(), stroke));
                        }
                    }
                    None => {
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
                // Sheared or mirrored outlines stay convex: an affine image of a convex shape is convex.
                painter.add(egui::Shape::convex_polygon(
                    outline.clone(),
                    color32(data.color),
                    stroke,
                ));
            }
            Shape::None => {}
        }
        if state.show_axes {
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
        if state.show_names && names.len() < MAX_NAMES {
            names.push((origin, data.name.as_str()));
        }
    }
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

/// More names than this on screen are unreadable anyway; skip the rest.
const MAX_NAMES: usize = 2_000;

/// True when a big shape contains the whole viewport (its outline is off screen on all sides).
fn outline_covers(outline: &[Pos2], rect: Rect) -> bool {
    if outline.is_empty() {
        return false;
    }
    let r = outline
        .iter()
        .fold(Rect::NOTHING, |r, p| r.union(Rect::from_min_max(*p, *p)));
    r.intersects(rect)
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

fn draw_shear_overlay(painter: &egui::Painter, rect: Rect, camera: Camera, scene: &Scene) {
    let warn = Color32::from_rgb(255, 140, 0);
    let font = egui::FontId::proportional(12.0);
    let mut causes = Vec::new();
    for mark in shear_overlay(scene) {
        let Ok(world) = scene.world(mark.node) else {
            continue;
        };
        let corners: Vec<Pos2> = [Vec2::ZERO, Vec2::X, Vec2::X + Vec2::Y, Vec2::Y]
            .iter()
            .map(|p| camera.to_screen(rect, world.transform_point2(*p)))
            .collect();
        if !corners.iter().any(|p| rect.contains(*p)) {
            continue;
        }
        if let Ok(i) = scene.index(mark.node) {
            let outline: Vec<Pos2> = local_outline(&scene.data_at(i).shape)
                .into_iter()
                .map(|p| camera.to_screen(rect, world.transform_point2(p)))
                .collect();
            if outline.len() > 2 {
                painter.add(egui::Shape::closed_line(outline, Stroke::new(2.5, warn)));
            }
        }
        let origin = corners[0];
        painter.add(egui::Shape::closed_line(corners, Stroke::new(1.5, warn)));
        let text = format!("⚠ shear {:+.1}° off 90°", mark.degrees_off);
        painter.text(
            origin + egui::vec2(6.0, 6.0),
            egui::Align2::LEFT_TOP,
            text,
            font.clone(),
            warn,
        );
        causes.extend(mark.cause);
    }
    causes.sort();
    causes.dedup();
    for cause in causes {
        let Ok(world) = scene.world(cause) else {
            continue;
        };
        let at = camera.to_screen(rect, world.translation);
        painter.circle_stroke(at, 9.0, Stroke::new(2.0, warn));
        painter.text(
            at + egui::vec2(10.0, -10.0),
            egui::Align2::LEFT_BOTTOM,
            "non-uniform scale: causes shear below",
            font.clone(),
            warn,
        );
    }
}

fn interact(
    ui: &egui::Ui,
    response: &egui::Response,
    rect: Rect,
    scene: &Scene,
    selection: &[NodeId],
    state: &mut ViewportState,
    out: &mut Vec<Intent>,
) {
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    let modifiers = ui.input(|i| i.modifiers);
    let radius = 6.0 / state.camera.zoom;
    if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        let hit = hit_test(scene, state.camera.to_world(rect, p), radius);
        match hit {
            Some(id) if modifiers.command || modifiers.shift => out.push(Intent::ToggleSelect(id)),
            Some(id) => out.push(Intent::Select(vec![id])),
            None if !(modifiers.command || modifiers.shift) => out.push(Intent::Select(Vec::new())),
            None => {}
        }
    }
    if response.drag_started_by(egui::PointerButton::Primary)
        && !space
        && let Some(p) = response.interact_pointer_pos()
    {
        let world_p = state.camera.to_world(rect, p);
        let hit = hit_test(scene, world_p, radius);
        let moving: Vec<NodeId> = match hit {
            Some(id) if selection.contains(&id) => selection.to_vec(),
            Some(id) => {
                out.push(Intent::Select(vec![id]));
                vec![id]
            }
            None => Vec::new(),
        };
        // Move only the topmost selected nodes: children follow their parents.
        let roots: Vec<NodeId> = moving
            .iter()
            .copied()
            .filter(|&id| {
                !moving
                    .iter()
                    .any(|&o| o != id && scene.is_ancestor_or_self(o, id).unwrap_or(false))
            })
            .collect();
        if !roots.is_empty() {
            state.next_gesture += 1;
            state.drag = Some(MoveDrag {
                start_pointer: world_p,
                starts: roots
                    .iter()
                    .filter_map(|&id| scene.world(id).ok().map(|w| (id, w.translation)))
                    .collect(),
                gesture: state.next_gesture,
            });
        }
    }
    if let Some(drag) = &state.drag {
        if response.dragged_by(egui::PointerButton::Primary)
            && let Some(p) = response.interact_pointer_pos()
        {
            let delta = state.camera.to_world(rect, p) - drag.start_pointer;
            let ops: Vec<Op> = drag
                .starts
                .iter()
                .map(|&(node, start)| Op::SetWorldPosition {
                    node,
                    position: start + delta,
                })
                .collect();
            let label = match drag.starts.as_slice() {
                [(id, _)] => format!(
                    "Move {}",
                    scene.node(*id).map(|d| d.name.as_str()).unwrap_or("node")
                ),
                many => format!("Move {} nodes", many.len()),
            };
            if delta != Vec2::ZERO {
                out.push(Intent::Perform {
                    label,
                    ops,
                    gesture: Some(drag.gesture),
                });
            }
        }
        if response.drag_stopped() || !response.dragged() {
            state.drag = None;
            out.push(Intent::EndGesture);
        }
    }
}
