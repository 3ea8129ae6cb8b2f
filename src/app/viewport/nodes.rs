//! The node layer of the viewport: every node through its world matrix, as the frame plan
//! (`editor::frame_plan`, every core) sorted them — shapes for the kept nodes (fills batched
//! into one mesh), the density images for the splatted ones, parent links. The layer is built
//! as a list of egui shapes and kept: a frame whose inputs (scene versions, camera, viewport,
//! level of detail, selection, view options) are those of the last one paints the same list
//! again without planning or building anything (an idle or hovering frame on a million nodes).

use super::density::Density;
use super::draw::{arrow_shapes, closed_shape};
use super::{ViewportState, p2, sr};
use crate::editor::session::Editor;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{
    AXIS_WIDTH, DOT_RADIUS, DrawList, Entry, Marks, OUTLINE_WIDTH, Outline, Show,
};
pub(super) use crate::editor::view::frame_plan::selection_indices;
use crate::editor::view::frame_plan::{PlanInput, plan};
use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::occlusion::{OCCLUSION_FROM, visible_nodes};
use crate::model::scene::{NodeData, Scene, Shape};
use egui::{Color32, Pos2, Rect, Stroke};
use glam::{DAffine2, DVec2, Vec2};

fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
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

/// Everything the node layer is drawn from; equal keys draw equal layers.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LayerKey {
    /// Structure and appearance versions of the scene, and its size.
    scene: (u64, u64, usize),
    /// The scene's world version.
    pub(super) world: u64,
    /// The camera it was drawn through.
    pub(super) camera: Camera,
    rect: Rect,
    /// The splat threshold (its bits).
    pub(super) tiny: u64,
    /// The selection's version (a million selected ids are not copied every frame).
    selection: u64,
    /// Links, shear candidates, axes, names.
    options: [bool; 4],
}

impl LayerKey {
    /// Equal apart from the camera's centre and zoom.
    pub(super) fn same_but_camera(&self, other: &LayerKey) -> bool {
        self.scene == other.scene
            && self.world == other.world
            && self.camera.view == other.camera.view
            && self.rect == other.rect
            && self.tiny == other.tiny
            && self.selection == other.selection
            && self.options == other.options
    }

    /// Equal apart from the world matrices and the level of detail.
    pub(super) fn same_view(&self, other: &LayerKey) -> bool {
        self.scene == other.scene
            && self.camera == other.camera
            && self.rect == other.rect
            && self.selection == other.selection
            && self.options == other.options
    }

    /// Equal apart from the world matrices: a layer planned for one can be moved or composed
    /// onto the other.
    pub(super) fn same_but_world(&self, other: &LayerKey) -> bool {
        self.same_view(other) && self.tiny == other.tiny
    }
}

/// Moving nodes (those the last update recomputed) planned apart at most; more, and the whole
/// layer is planned anew.
const MOVING_MAX: usize = 20_000;
/// Scenes smaller than this are always planned whole (it is cheap).
const MOVING_MIN_SCENE: usize = 20_000;

/// A layer drawn without some moving subtrees, kept while only they move (a drag).
struct Base {
    key: LayerKey,
    /// The subtrees left out (pre-order ranges, sorted).
    skip: Vec<(u32, u32)>,
    shapes: Vec<egui::Shape>,
    shear: Vec<usize>,
}

/// The last node layer drawn, and what it was drawn from.
#[derive(Default)]
pub(super) struct NodeLayer {
    pub(super) key: Option<LayerKey>,
    pub(super) shapes: Vec<egui::Shape>,
    /// The world version the last frame saw.
    pub(super) world_seen: u64,
    /// A plan of a moved view being made over several frames (big scenes).
    pub(super) pending: Option<super::progressive::Pending>,
    /// The last frame was a kept base with the moving subtrees drawn over it (their stacking
    /// may differ from pre-order, so an unchanged frame after it draws the layer anew).
    pub(super) composed: bool,
    base: Option<Base>,
    /// Vertices and indices of the biggest fill mesh last time (to reserve them at once).
    fill_size: (usize, usize),
    /// Layers planned whole (tests and benches read them).
    pub built: usize,
    /// Frames that painted the kept layer again.
    pub reused: usize,
    /// Frames that drew only the moving subtrees over a kept base.
    pub moved_only: usize,
    /// The top-level nodes' world matrices when the kept layer was planned whole (big scenes
    /// only; see `slide.rs`).
    pub(super) anchors: Option<Vec<(u32, glam::Affine2)>>,
    /// Frames that painted the kept layer slid by the whole scene's move.
    pub slid: usize,
    /// The draw list of the last layer drawn (tests compare it with a figure's).
    pub list: DrawList,
    /// The world version and screen shift of the last slid frame.
    pub(super) slid_shift: Option<(u64, egui::Vec2)>,
}

/// What one frame of node drawing needs besides the node itself.
struct NodePass<'a> {
    ctx: &'a egui::Context,
    editor: &'a Editor,
    camera: Camera,
    view: ScreenRect,
    fill: egui::Mesh,
    /// The layer's shapes so far, in painting order.
    out: Vec<egui::Shape>,
    fill_size: (usize, usize),
    shape: ScreenShape,
}

impl NodePass<'_> {
    /// Add the batched fills gathered so far to the layer.
    fn flush(&mut self) {
        if !self.fill.is_empty() {
            let fill = std::mem::take(&mut self.fill);
            self.fill_size.0 = self.fill_size.0.max(fill.vertices.len());
            self.fill_size.1 = self.fill_size.1.max(fill.indices.len());
            self.out.push(fill.into());
        }
    }
}

/// Draw every node through its world matrix (see the module's comment), or paint the last
/// frame's layer again when nothing it depends on changed, or, while only a few subtrees move
/// (a drag), a kept layer without them plus those subtrees.
pub(super) fn draw_nodes(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
) {
    let scene = editor.doc().scene();
    let view = editor.view();
    let key = LayerKey {
        scene: (
            scene.structure_version(),
            scene.appearance_version().1,
            scene.len(),
        ),
        world: scene.world_version(),
        camera: state.camera,
        rect,
        tiny: state.density.tiny.to_bits(),
        selection: editor.selection_version(),
        options: [
            view.shows(ViewOption::Links),
            view.shows(ViewOption::Shear),
            view.shows(ViewOption::Axes),
            view.shows(ViewOption::Names),
        ],
    };
    let layer = &mut state.layer;
    // A composed drag frame is exact but for stacking; while the drag is held, an unchanged
    // frame (egui repaints without a move) paints it again rather than planning everything.
    let held = editor.gesture_open();
    if layer.key.as_ref() == Some(&key) && (!layer.composed || held) {
        layer.reused += 1;
        painter.extend(layer.shapes.iter().cloned());
        return;
    }
    if super::progressive::draw(ctx, painter, rect, editor, state, &key) {
        return;
    }
    let layer = &mut state.layer;
    if let Some(shift) = super::slide::slid_by(scene, layer, &key, rect, held) {
        // The whole scene slid (its root, or everything, dragged): the kept layer, moved.
        painter.extend(layer.shapes.iter().cloned().map(|mut shape| {
            shape.translate(shift);
            shape
        }));
        layer.world_seen = key.world;
        layer.composed = true; // the first unchanged frame plans the layer exactly again
        layer.slid += 1;
        layer.slid_shift = Some((key.world, shift));
        return;
    }
    layer.slid_shift = None;
    let moving = moving_ranges(scene, layer, &key);
    let mut out = std::mem::take(&mut layer.shapes);
    out.clear();
    if let Some(ranges) = moving {
        let covered = layer
            .base
            .as_ref()
            .is_some_and(|base| base.key.same_but_world(&key) && covers(&base.skip, ranges));
        if !covered {
            let skip = ranges.to_vec();
            let mut shapes = Vec::new();
            build(ctx, painter, rect, editor, state, &skip, &mut shapes);
            let shear = state.shear_candidates.clone();
            state.layer.base = Some(Base {
                key: key.clone(),
                skip,
                shapes,
                shear,
            });
        }
        let ranges = scene.last_recomputed_ranges();
        if let Some(base) = &state.layer.base {
            out.extend(base.shapes.iter().cloned());
            state.shear_candidates.clone_from(&base.shear);
        }
        draw_moving(ctx, painter, rect, editor, state, ranges, &mut out);
        state.layer.moved_only += usize::from(covered);
        state.layer.composed = true;
        state.layer.anchors = None;
    } else {
        state.layer.base = None;
        let view_changed = !state.layer.key.as_ref().is_some_and(|k| k.same_view(&key));
        build(ctx, painter, rect, editor, state, &[], &mut out);
        let drawn = state.density.plan.draw.len();
        state.density.adapt(drawn, view_changed);
        state.layer.composed = false;
        state.layer.anchors = super::slide::anchors(scene);
    }
    painter.extend(out.iter().cloned());
    let layer = &mut state.layer;
    layer.shapes = out;
    layer.world_seen = key.world;
    layer.key = Some(key);
}

/// The subtrees the last update moved, when this frame can keep the rest of the last layer:
/// the scene is big, the world changed by exactly one update since the last frame, few nodes
/// moved, and nothing else about the view changed.
fn moving_ranges<'s>(
    scene: &'s Scene,
    layer: &NodeLayer,
    key: &LayerKey,
) -> Option<&'s [(u32, u32)]> {
    let ranges = scene.last_recomputed_ranges();
    let moved: usize = ranges.iter().map(|&(a, b)| (b - a) as usize).sum();
    let last = layer.key.as_ref()?;
    (scene.len() >= MOVING_MIN_SCENE
        && moved > 0
        && moved <= MOVING_MAX.min(scene.len() / 8)
        && key.world != layer.world_seen
        && scene.previous_world_version() == layer.world_seen
        && last.same_but_world(key))
    .then_some(ranges)
}

/// True when every range lies inside one of `skip`'s (both sorted).
fn covers(skip: &[(u32, u32)], ranges: &[(u32, u32)]) -> bool {
    ranges.iter().all(|&(a, b)| {
        let k = skip.partition_point(|&(_, end)| end <= a);
        skip.get(k)
            .is_some_and(|&(start, end)| start <= a && b <= end)
    })
}

/// Plan the layer (leaving out `skip`) and draw it into `out`; the plan, the level-of-detail
/// state and the shear candidates go into `state`.
fn build(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    skip: &[(u32, u32)],
    out: &mut Vec<egui::Shape>,
) {
    let scene = editor.doc().scene();
    let view = editor.view();
    let mut extents = std::mem::take(&mut state.extents);
    extents.refresh(scene);
    let mut bounds = std::mem::take(&mut state.bounds);
    bounds.refresh(scene, &extents);
    let mut density: Density = std::mem::take(&mut state.density);
    let (mut protected, selected) = selection_indices(scene, editor.selection());
    for &(start, _) in skip {
        // A left-out subtree's ancestors are never splatted whole (that would draw it).
        let mut at = scene.parent_index_at(start as usize);
        while let Some(i) = at {
            if !protected.insert(i as u32) {
                break;
            }
            at = scene.parent_index_at(i);
        }
    }
    let input = PlanInput {
        scene,
        extents: &extents,
        bounds: &bounds,
        camera: state.camera,
        view: sr(rect),
        tiny: density.tiny,
        protected: &protected,
        selected: &selected,
        links: view.shows(ViewOption::Links),
        shear: view.shows(ViewOption::Shear),
        skip,
    };
    let threads = crate::model::scene::propagation_threads();
    let plan = plan(&input, threads, std::mem::take(&mut density.plan));
    state.extents = extents;
    state.bounds = bounds;
    draw_built(ctx, painter, rect, editor, state, density, plan, out);
}

/// Draw a finished plan into `out` (through `state.camera`, which must be the camera it was
/// planned for); the plan, the density images and the shear candidates go into `state`.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_built(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    mut density: Density,
    plan: crate::editor::view::frame_plan::FramePlan,
    out: &mut Vec<egui::Shape>,
) {
    // The density images under the shapes (as in a figure): a sea of sub-pixel nodes averages
    // to grey, which on top hid the shapes bigger than a pixel among them.
    density.plan = plan;
    density.paint(ctx, rect, out);
    let fill_size = state.layer.fill_size;
    let (names, fill_size) = draw_plan(ctx, rect, editor, state, &density.plan, fill_size, out);
    state.layer.fill_size = fill_size;
    state.shear_candidates.clear();
    state
        .shear_candidates
        .extend(density.plan.shear.iter().map(|&i| i as usize));
    state.density = density;
    state.layer.built += 1;
    push_names(painter, names, out);
}

/// Draw the moving subtrees (every node as itself, nothing splatted) into `out`.
fn draw_moving(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    ranges: &[(u32, u32)],
    out: &mut Vec<egui::Shape>,
) {
    let scene = editor.doc().scene();
    let view = editor.view();
    state.extents.refresh(scene);
    let (protected, selected) = selection_indices(scene, editor.selection());
    let no_bounds = crate::editor::view::cull::SubtreeBounds::default();
    let input = PlanInput {
        scene,
        extents: &state.extents,
        bounds: &no_bounds,
        camera: state.camera,
        view: sr(rect),
        tiny: 0.0,
        protected: &protected,
        selected: &selected,
        links: view.shows(ViewOption::Links),
        shear: view.shows(ViewOption::Shear),
        skip: &[],
    };
    let plan = crate::editor::view::frame_plan::plan_ranges(&input, ranges);
    state
        .shear_candidates
        .extend(plan.shear.iter().map(|&i| i as usize));
    let (names, _) = draw_plan(ctx, rect, editor, state, &plan, (0, 0), out);
    push_names(painter, names, out);
}

/// The plan's links and kept nodes as shapes; returns the names to write (after everything
/// else) and the biggest fill mesh's size.
fn draw_plan<'a>(
    ctx: &'a egui::Context,
    rect: Rect,
    editor: &'a Editor,
    state: &mut ViewportState,
    plan: &crate::editor::view::frame_plan::FramePlan,
    (vertices, indices): (usize, usize),
    out: &mut Vec<egui::Shape>,
) -> (Vec<(Pos2, &'a str)>, (usize, usize)) {
    let link = Stroke::new(1.0, Color32::from_rgba_unmultiplied(200, 200, 200, 60));
    out.extend(
        plan.links
            .iter()
            .map(|(a, b)| egui::Shape::line_segment([p2(*a), p2(*b)], link)),
    );
    let mut fill = egui::Mesh::default();
    fill.reserve_triangles(indices / 3);
    fill.reserve_vertices(vertices);
    let selection = editor.selection();
    let mut pass = NodePass {
        ctx,
        editor,
        camera: state.camera,
        view: sr(rect),
        fill,
        out: std::mem::take(out),
        fill_size: (0, 0),
        shape: ScreenShape::new(),
    };
    // Many kept shapes: leave out those wholly under opaque shapes drawn after them.
    let scene = editor.doc().scene();
    let shown = (plan.draw.len() >= OCCLUSION_FROM).then(|| {
        let (_, selected) = selection_indices(scene, selection);
        visible_nodes(sr(rect), &plan.draw, &plan.screen, &selected)
    });
    let kept = plan
        .draw
        .iter()
        .enumerate()
        .filter(|(k, _)| shown.as_ref().is_none_or(|shown| shown[*k]))
        .map(|(_, &i)| i as usize);
    let list = viewport_draw_list(editor, kept, (state.camera, sr(rect)), plan.draw.len());
    for entry in &list.entries {
        draw_node(&mut pass, *entry, state);
    }
    pass.flush();
    *out = pass.out;
    let names = list
        .names
        .iter()
        .map(|n| {
            (
                p2(n.at.as_vec2()),
                scene.data_at(n.index as usize).name.as_str(),
            )
        })
        .collect();
    state.layer.list = list;
    (names, pass.fill_size)
}

/// The viewport's draw list for the kept nodes: the one policy figures use too.
pub fn viewport_draw_list(
    editor: &Editor,
    kept: impl Iterator<Item = usize>,
    view: (Camera, ScreenRect),
    planned: usize,
) -> DrawList {
    let options = editor.view();
    let show = Show {
        axes: options.shows(ViewOption::Axes),
        names: options.shows(ViewOption::Names),
        selection: true,
        // The primary selection shows its axes as the handles instead.
        handles_on: editor.selection().last().copied(),
    };
    let scene = editor.doc().scene();
    DrawList::build(
        scene,
        kept,
        view,
        show,
        &|id| editor.is_selected(id),
        planned,
    )
}

/// Names last, so no shape covers them.
fn push_names(painter: &egui::Painter, names: Vec<(Pos2, &str)>, out: &mut Vec<egui::Shape>) {
    let font = egui::FontId::proportional(12.0);
    let color = Color32::from_gray(230);
    for (origin, name) in names {
        let galley = painter.layout_no_wrap(name.to_owned(), font.clone(), color);
        // The draw list placed the name's baseline start; the galley's bottom-left sits there.
        let at = egui::Align2::LEFT_BOTTOM.anchor_size(origin, galley.size());
        out.push(egui::Shape::galley(at.min, galley, color));
    }
}

/// One node of the draw list: its fill (batched) or sprite, then its marks.
fn draw_node(pass: &mut NodePass, entry: Entry, state: &mut ViewportState) {
    let scene: &Scene = pass.editor.doc().scene();
    let i = entry.index as usize;
    let m = pass
        .camera
        .node_to_screen_f64(pass.view, &scene.world_at(i));
    let data = scene.data_at(i);
    pass.shape.compute(&data.shape, &m, pass.view);
    draw_body(pass, data, &m, state);
    if entry.marks.detail {
        pass.flush();
        draw_marks(pass, &m, entry.marks);
    }
}

/// The node's body: a sprite's image (or a red crossed box when it is missing), or its fill added
/// to the batched mesh.
fn draw_body(pass: &mut NodePass, data: &NodeData, m: &DAffine2, state: &mut ViewportState) {
    match &data.shape {
        Shape::Sprite(sprite) => {
            let crate::model::scene::Sprite {
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
                    pass.out.push(mesh.into());
                }
                None if pass.shape.outline.len() > 2 => {
                    // A missing image: a red crossed box, so the node is still visible.
                    let red = Stroke::new(1.0, Color32::RED);
                    let o = &pass.shape.outline;
                    pass.out.extend(closed_shape(o, red));
                    pass.out.push(egui::Shape::line_segment(
                        [p2(o[0]), p2(o[o.len() / 2])],
                        red,
                    ));
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

/// A detailed node's outline, axes and origin dot, as the draw list marked them.
fn draw_marks(pass: &mut NodePass, m: &DAffine2, marks: Marks) {
    let stroke = match marks.outline {
        Outline::None => None,
        Outline::Plain => Some(Stroke::new(OUTLINE_WIDTH[0], Color32::from_gray(20))),
        Outline::Selected => Some(Stroke::new(
            OUTLINE_WIDTH[1],
            Color32::from_rgb(255, 210, 60),
        )),
    };
    if let Some(stroke) = stroke {
        pass.out.extend(closed_shape(&pass.shape.outline, stroke));
    }
    if marks.axes {
        draw_axes(pass, m);
    }
    if let Some(kind) = marks.dot {
        let dot = p2(m.translation.as_vec2());
        let radius = DOT_RADIUS[kind as usize];
        pass.out
            .push(egui::Shape::circle_filled(dot, radius, Color32::WHITE));
    }
}

/// A node's own x (red) and y (green) axes as arrows from its origin.
fn draw_axes(pass: &mut NodePass, m: &DAffine2) {
    let origin = m.translation;
    let x = m.transform_point2(DVec2::X);
    let y = m.transform_point2(DVec2::Y);
    let red = Stroke::new(AXIS_WIDTH, Color32::from_rgb(230, 80, 80));
    let green = Stroke::new(AXIS_WIDTH, Color32::from_rgb(80, 200, 80));
    arrow_shapes(pass.view, origin, x, red, &mut pass.out);
    arrow_shapes(pass.view, origin, y, green, &mut pass.out);
}
