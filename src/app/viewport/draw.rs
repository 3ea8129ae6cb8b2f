//! Viewport painting: the grid and world axes, nodes through their world matrices, drag ghosts,
//! the shear overlay and handles. What to draw and where comes from `crate::editor` (computed
//! camera-relative in f64); this file only turns it into egui shapes.

use super::{ViewportState, p2, sr};
use crate::editor::camera::{Camera, ScreenRect};
use crate::editor::command::ViewOption;
use crate::editor::dnd::{DropPreview, drop_parent};
use crate::editor::frame_plan::{PlanInput, plan};
use crate::editor::geometry::{ScreenShape, clip_segment, world_f64};
use crate::editor::grid::grid;
use crate::editor::handles::{HANDLE_PX, Part, Tool};
use crate::editor::overlay::{ghost_worlds, shear_overlay_among};
use crate::editor::session::Editor;
use crate::scene::{NodeData, NodeId, Scene, Shape};
use egui::{Color32, Pos2, Rect, Stroke};
use glam::{Affine2, DAffine2, DVec2, Vec2};
use rustc_hash::FxHashSet;

fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// A line between two screen points given in f64, clipped to the view first.
fn segment(painter: &egui::Painter, rect: ScreenRect, a: DVec2, b: DVec2, stroke: Stroke) {
    if let Some((a, b)) = clip_segment(a, b, rect.expand(4.0)) {
        painter.line_segment([p2(a), p2(b)], stroke);
    }
}

/// An arrow from `from` to `to` (screen, f64); one that reaches far past the view is drawn as
/// its clipped line without a tip.
fn arrow(painter: &egui::Painter, rect: ScreenRect, from: DVec2, to: DVec2, stroke: Stroke) {
    let near = |p: DVec2| (p - rect.center().as_dvec2()).abs().max_element() < 1e5;
    if near(from) && near(to) {
        let (a, b) = (p2(from.as_vec2()), p2(to.as_vec2()));
        painter.arrow(a, b - a, stroke);
    } else {
        segment(painter, rect, from, to, stroke);
    }
}

/// A closed outline, when it has an area.
fn closed(painter: &egui::Painter, outline: &[Vec2], stroke: Stroke) {
    if outline.len() > 2 {
        painter.add(egui::Shape::closed_line(
            outline.iter().map(|p| p2(*p)).collect(),
            stroke,
        ));
    }
}

/// The grid, its labels (kept apart at the corner) and the world axes.
pub(super) fn draw_grid(painter: &egui::Painter, rect: Rect, camera: Camera) {
    let g = grid(camera, sr(rect));
    let line = Stroke::new(1.0, Color32::from_gray(45));
    let text = Color32::from_gray(110);
    let font = egui::FontId::proportional(10.0);
    // The y labels sit in a column at the left, the x labels along the bottom: each skips the
    // corner the other uses.
    let (label_column, label_row) = (48.0, 14.0);
    for l in &g.vertical {
        painter.line_segment(
            [
                Pos2::new(l.screen, rect.top()),
                Pos2::new(l.screen, rect.bottom()),
            ],
            line,
        );
        if l.screen > rect.left() + label_column {
            let at = Pos2::new(l.screen + 2.0, rect.bottom() - 2.0);
            painter.text(at, egui::Align2::LEFT_BOTTOM, &l.label, font.clone(), text);
        }
    }
    for l in &g.horizontal {
        painter.line_segment(
            [
                Pos2::new(rect.left(), l.screen),
                Pos2::new(rect.right(), l.screen),
            ],
            line,
        );
        if l.screen < rect.bottom() - label_row {
            let at = Pos2::new(rect.left() + 2.0, l.screen - 2.0);
            painter.text(at, egui::Align2::LEFT_BOTTOM, &l.label, font.clone(), text);
        }
    }
    if let Some(y) = g.x_axis {
        let stroke = Stroke::new(1.5, Color32::from_rgb(120, 60, 60));
        painter.line_segment(
            [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)],
            stroke,
        );
    }
    if let Some(x) = g.y_axis {
        let stroke = Stroke::new(1.5, Color32::from_rgb(60, 120, 60));
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            stroke,
        );
    }
}

/// Outline one node (its shape) and ring its origin.
pub(super) fn outline_node(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    id: NodeId,
    stroke: Stroke,
) {
    let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id)) else {
        return;
    };
    if world_f64(&world).is_none() {
        return;
    }
    let m = camera.node_to_screen_f64(sr(rect), &world);
    let mut shape = ScreenShape::new();
    shape.compute(&scene.data_at(i).shape, &m, sr(rect));
    closed(painter, &shape.outline, stroke);
    if rect.expand(20.0).contains(p2(m.translation.as_vec2())) {
        painter.circle_stroke(p2(m.translation.as_vec2()), 8.0, stroke);
    }
}

/// The ghosts of a hierarchy drag: where the dragged nodes land with the chosen setting (bright)
/// and with the other (faint), with arrows for the nodes that would jump.
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
    let view = sr(rect);
    let parent = drop_parent(scene, preview.zone);
    let mut shape = ScreenShape::new();
    for (keep_world, alpha) in [(preview.keep_world, 200u8), (!preview.keep_world, 70u8)] {
        let color = if keep_world {
            Color32::from_rgba_unmultiplied(120, 200, 255, alpha)
        } else {
            Color32::from_rgba_unmultiplied(255, 160, 90, alpha)
        };
        for (i, world) in ghost_worlds(scene, &preview.dragged, parent, keep_world) {
            if world_f64(&world).is_none() {
                continue;
            }
            let m = camera.node_to_screen_f64(view, &world);
            shape.compute(&scene.data_at(i).shape, &m, view);
            closed(painter, &shape.outline, Stroke::new(2.0, color));
            let origin = m.translation;
            if rect.expand(10.0).contains(p2(origin.as_vec2())) {
                painter.circle_stroke(p2(origin.as_vec2()), 4.0, Stroke::new(1.5, color));
            }
            if !keep_world && preview.dragged.contains(&scene.id_at(i)) {
                let from = camera.to_screen_f64(view, scene.world_at(i).translation.as_dvec2());
                arrow(painter, view, from, origin, Stroke::new(1.0, color));
            }
        }
    }
}

/// Add a convex polygon (screen space) to a batched mesh as a triangle fan.
fn fan(mesh: &mut egui::Mesh, points: &[Vec2], color: Color32) {
    let base = mesh.vertices.len() as u32;
    for p in points {
        mesh.colored_vertex(p2(*p), color);
    }
    for k in 1..points.len().saturating_sub(1) as u32 {
        mesh.add_triangle(base, base + k, base + k + 1);
    }
}

/// A sprite's image over its (possibly clipped) outline: each point's texture coordinate comes
/// from its local position, so a clipped sprite still shows the right part of the image.
fn textured_fan(
    texture: egui::TextureId,
    outline: &[Vec2],
    to_screen: &DAffine2,
    (half, offset, region): (Vec2, Vec2, Option<[f32; 4]>),
    tint: Color32,
) -> egui::Mesh {
    let mut mesh = egui::Mesh::with_texture(texture);
    let inverse = to_screen.inverse();
    let half = half.as_dvec2().max(DVec2::splat(f64::MIN_POSITIVE));
    let [u0, v0, u1, v1] = region.unwrap_or([0.0, 0.0, 1.0, 1.0]);
    for p in outline {
        let l = inverse.transform_point2(p.as_dvec2()) - offset.as_dvec2();
        let (s, t) = (l.x / (2.0 * half.x) + 0.5, 0.5 - l.y / (2.0 * half.y));
        let uv = Pos2::new(
            (u0 as f64 + s * (u1 - u0) as f64) as f32,
            (v0 as f64 + t * (v1 - v0) as f64) as f32,
        );
        mesh.vertices.push(egui::epaint::Vertex {
            pos: p2(*p),
            uv,
            color: tint,
        });
    }
    for k in 1..outline.len().saturating_sub(1) as u32 {
        mesh.add_triangle(0, k, k + 1);
    }
    mesh
}

/// Nodes drawn with outlines, axes and origins, at most; past this only fills are drawn.
const DETAIL_LIMIT: usize = 1_500;
/// More names than this on screen are unreadable anyway; skip the rest.
const MAX_NAMES: usize = 500;

/// What one frame of node drawing needs besides the node itself.
struct NodePass<'a> {
    ctx: &'a egui::Context,
    painter: &'a egui::Painter,
    editor: &'a Editor,
    camera: Camera,
    view: ScreenRect,
    rect: Rect,
    selection: &'a [NodeId],
    fill: egui::Mesh,
    shape: ScreenShape,
    detailed: usize,
    names: Vec<(Pos2, &'a str)>,
    /// The selection as a set, when it is too big to search.
    selected: Option<rustc_hash::FxHashSet<NodeId>>,
}

impl NodePass<'_> {
    fn is_selected(&self, id: NodeId) -> bool {
        match &self.selected {
            Some(set) => set.contains(&id),
            None => self.selection.contains(&id),
        }
    }

    /// Paint the batched fills gathered so far.
    fn flush(&mut self) {
        if !self.fill.is_empty() {
            self.painter.add(std::mem::take(&mut self.fill));
        }
    }
}

/// Draw every node through its world matrix. Which nodes are drawn as shapes, splatted into
/// the density image or skipped comes from `editor::frame_plan` (every core); fills are
/// batched into one mesh (flushed before any outline so the stacking order stays right);
/// nodes too small on screen get no outline, axes, origin or name.
pub(super) fn draw_nodes(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
) {
    let scene = editor.doc().scene();
    let selection = editor.selection();
    let mut extents = std::mem::take(&mut state.extents);
    extents.refresh(scene);
    let mut bounds = std::mem::take(&mut state.bounds);
    bounds.refresh(scene, &extents);
    let mut density = std::mem::take(&mut state.density);
    let (protected, selected) = selection_indices(scene, selection);
    let input = PlanInput {
        scene,
        extents: &extents,
        bounds: &bounds,
        camera: state.camera,
        view: sr(rect),
        tiny: density.tiny,
        protected: &protected,
        selected: &selected,
        links: editor.view().shows(ViewOption::Links),
        shear: editor.view().shows(ViewOption::Shear),
    };
    let threads = crate::scene::propagation_threads();
    let plan = plan(&input, threads, std::mem::take(&mut density.plan));
    let link = Stroke::new(1.0, Color32::from_rgba_unmultiplied(200, 200, 200, 60));
    for (a, b) in &plan.links {
        painter.line_segment([p2(*a), p2(*b)], link);
    }
    let mut pass = NodePass {
        ctx,
        painter,
        editor,
        camera: state.camera,
        view: sr(rect),
        rect,
        selection,
        fill: egui::Mesh::default(),
        shape: ScreenShape::new(),
        detailed: 0,
        names: Vec::new(),
        selected: (selection.len() > 8).then(|| selection.iter().copied().collect()),
    };
    for &i in &plan.draw {
        draw_node(&mut pass, i as usize, state);
    }
    pass.flush();
    density.plan = plan;
    density.paint(ctx, painter, rect);
    density.adapt(density.plan.draw.len());
    state.shear_candidates.clear();
    state
        .shear_candidates
        .extend(density.plan.shear.iter().map(|&i| i as usize));
    state.extents = extents;
    state.bounds = bounds;
    state.density = density;
    // Names last, so no shape covers them.
    for (origin, name) in pass.names {
        let font = egui::FontId::proportional(12.0);
        let at = origin + egui::vec2(6.0, -6.0);
        painter.text(
            at,
            egui::Align2::LEFT_BOTTOM,
            name,
            font,
            Color32::from_gray(230),
        );
    }
}

/// One node the plan kept: its fill (batched) or sprite, and, when big enough or selected, its
/// outline, axes, origin and name.
fn draw_node<'a>(pass: &mut NodePass<'a>, i: usize, state: &mut ViewportState) {
    let scene: &'a Scene = pass.editor.doc().scene();
    let world = scene.world_at(i);
    let m = pass.camera.node_to_screen_f64(pass.view, &world);
    let id = scene.id_at(i);
    let data = scene.data_at(i);
    let selected = pass.is_selected(id);
    if data.shape == Shape::None && !selected && pass.detailed >= DETAIL_LIMIT {
        return; // only an origin dot, and enough of those are drawn
    }
    pass.shape.compute(&data.shape, &m, pass.view);
    let detail = selected
        || (pass.detailed < DETAIL_LIMIT
            && (pass.shape.pixel_size > 8.0 || data.shape == Shape::None));
    draw_body(pass, data, &m, state);
    if !detail {
        return;
    }
    pass.detailed += 1;
    pass.flush();
    draw_detail(pass, data, id, &m, selected);
}

/// The pre-order indices of every selected node and each of their ancestors (subtrees that
/// are never splatted whole), and of the selected nodes alone.
fn selection_indices(scene: &Scene, selection: &[NodeId]) -> (FxHashSet<u32>, FxHashSet<u32>) {
    let mut protected = FxHashSet::default();
    let mut selected = FxHashSet::default();
    for &id in selection {
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

/// The node's body: a sprite's image (or a red crossed box when it is missing), or its fill added
/// to the batched mesh.
fn draw_body(pass: &mut NodePass, data: &NodeData, m: &DAffine2, state: &mut ViewportState) {
    match &data.shape {
        Shape::Sprite(sprite) => {
            let crate::scene::Sprite {
                path,
                region,
                size,
                offset,
            } = &**sprite;
            pass.flush();
            match state.texture(pass.ctx, pass.editor.doc(), path) {
                Some(texture) => {
                    let image = (size.abs() * 0.5, *offset, *region);
                    let tint = color32(data.color);
                    let outline = &pass.shape.outline;
                    let mesh = textured_fan(texture, outline, m, image, tint);
                    pass.painter.add(mesh);
                }
                None if pass.shape.outline.len() > 2 => {
                    // A missing image: a red crossed box, so the node is still visible.
                    let red = Stroke::new(1.0, Color32::RED);
                    closed(pass.painter, &pass.shape.outline, red);
                    let o = &pass.shape.outline;
                    pass.painter
                        .line_segment([p2(o[0]), p2(o[o.len() / 2])], red);
                }
                None => {}
            }
        }
        Shape::Rect { .. } | Shape::Ellipse { .. } => {
            // An affine image of a convex shape is convex, sheared or mirrored: a fan is exact.
            fan(&mut pass.fill, &pass.shape.outline, color32(data.color));
        }
        Shape::Polygon { .. } => {
            // Any simple polygon: the triangles the editor layer cut it into.
            let (fill, color) = (&mut pass.fill, color32(data.color));
            let base = fill.vertices.len() as u32;
            for p in &pass.shape.outline {
                fill.colored_vertex(p2(*p), color);
            }
            for t in pass.shape.triangles.chunks_exact(3) {
                fill.add_triangle(base + t[0], base + t[1], base + t[2]);
            }
        }
        Shape::None => {}
    }
}

/// A detailed node's outline, axes (unless it shows handles), origin dot and name.
fn draw_detail<'a>(
    pass: &mut NodePass<'a>,
    data: &'a NodeData,
    id: NodeId,
    m: &DAffine2,
    selected: bool,
) {
    let view = pass.editor.view();
    let pixel_size = pass.shape.pixel_size;
    let origin = m.translation;
    if selected || !matches!(data.shape, Shape::Sprite { .. }) {
        let stroke = if selected {
            Stroke::new(2.5, Color32::from_rgb(255, 210, 60))
        } else {
            Stroke::new(1.0, Color32::from_gray(20))
        };
        closed(pass.painter, &pass.shape.outline, stroke);
    }
    let in_view = pass.rect.expand(40.0).contains(p2(origin.as_vec2()));
    // The primary selection shows its axes as the handles instead.
    let primary = pass.selection.last() == Some(&id);
    if view.shows(ViewOption::Axes)
        && !primary
        && (selected || pixel_size > 16.0 || data.shape == Shape::None)
    {
        draw_axes(pass, m);
    }
    if in_view {
        let dot = p2(origin.as_vec2());
        pass.painter
            .circle_filled(dot, if selected { 4.0 } else { 2.5 }, Color32::WHITE);
        if view.shows(ViewOption::Names)
            && pass.names.len() < MAX_NAMES
            && (selected || pixel_size > 20.0 || data.shape == Shape::None)
        {
            pass.names.push((dot, data.name.as_str()));
        }
    }
}

/// A node's own x (red) and y (green) axes as arrows from its origin.
fn draw_axes(pass: &NodePass, m: &DAffine2) {
    let origin = m.translation;
    let x = m.transform_point2(DVec2::X);
    let y = m.transform_point2(DVec2::Y);
    arrow(
        pass.painter,
        pass.view,
        origin,
        x,
        Stroke::new(1.5, Color32::from_rgb(230, 80, 80)),
    );
    arrow(
        pass.painter,
        pass.view,
        origin,
        y,
        Stroke::new(1.5, Color32::from_rgb(80, 200, 80)),
    );
}

/// The shear warning overlay for the nodes on screen (the marks `crate::editor::overlay`
/// computes): outline, world-axes parallelogram and the angle off 90°; the parents that cause
/// it get a ring and a note.
/// Only the nodes the drawing pass found big enough on screen are looked at.
pub(super) fn draw_shear_overlay(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    candidates: &[usize],
) {
    let warn = Color32::from_rgb(255, 140, 0);
    let font = egui::FontId::proportional(12.0);
    let candidates = candidates.iter().copied();
    let overlay = shear_overlay_among(scene, camera, sr(rect), candidates);
    for mark in &overlay.marks {
        closed(painter, &mark.outline, Stroke::new(2.5, warn));
        closed(painter, &mark.axes, Stroke::new(1.5, warn));
        if let Some(text) = &mark.label {
            let at = p2(mark.axes[0]) + egui::vec2(6.0, 6.0);
            label(
                painter,
                at,
                egui::Align2::LEFT_TOP,
                text.clone(),
                &font,
                warn,
            );
        }
    }
    for (_, at) in &overlay.causes {
        let at = p2(*at);
        if !rect.expand(20.0).contains(at) {
            continue;
        }
        painter.circle_stroke(at, 9.0, Stroke::new(2.0, warn));
        let note = "non-uniform scale: causes shear below";
        let at = at + egui::vec2(12.0, 12.0);
        label(
            painter,
            at,
            egui::Align2::LEFT_TOP,
            note.to_string(),
            &font,
            warn,
        );
    }
}

/// Text on a dark plate, so it stays readable over any shape.
pub(super) fn label(
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

/// Draw the handles of `tool` for a node with this world matrix.
pub(super) fn draw_handles(
    painter: &egui::Painter,
    tool: Tool,
    camera: Camera,
    rect: Rect,
    world: &Affine2,
    axes: (Vec2, Vec2),
    hot: Option<Part>,
) {
    let origin = p2(camera.to_screen(sr(rect), world.translation));
    if !rect.expand(HANDLE_PX).contains(origin) {
        return;
    }
    let width = |part: Part| if hot == Some(part) { 3.5 } else { 2.0 };
    let red = Color32::from_rgb(240, 80, 80);
    let green = Color32::from_rgb(90, 220, 90);
    let blue = Color32::from_rgb(90, 160, 255);
    let dir = |axis: Vec2| {
        let d = camera.dir_to_screen(axis);
        egui::vec2(d.x, d.y) * HANDLE_PX
    };
    if tool != Tool::Rotate {
        // The centre square: free move, or uniform scale.
        let square = Rect::from_center_size(origin, egui::vec2(12.0, 12.0));
        let stroke = Stroke::new(width(Part::Center), blue);
        painter.rect_stroke(square, 0.0, stroke, egui::StrokeKind::Middle);
    }
    match tool {
        Tool::Move => {
            painter.arrow(origin, dir(axes.0), Stroke::new(width(Part::AxisX), red));
            painter.arrow(origin, dir(axes.1), Stroke::new(width(Part::AxisY), green));
        }
        Tool::Rotate => {
            painter.circle_stroke(origin, HANDLE_PX, Stroke::new(width(Part::Ring), blue));
        }
        Tool::Scale => {
            for (axis, part, color) in [(axes.0, Part::AxisX, red), (axes.1, Part::AxisY, green)] {
                let end = origin + dir(axis);
                painter.line_segment([origin, end], Stroke::new(width(part), color));
                let square = Rect::from_center_size(end, egui::vec2(10.0, 10.0));
                painter.rect_filled(square, 0.0, color);
            }
        }
    }
}
