//! The node layer of the viewport: every node through its world matrix, as the frame plan
//! (`editor::view::frame_plan`, every core) sorted them — shapes for the kept nodes (fills batched
//! into one mesh), the density images for the splatted ones, parent links. The layer is built
//! as a list of egui shapes and kept: a frame whose inputs (scene versions, camera, viewport,
//! level of detail, selection, view options) are those of the last one paints the same list
//! again without planning or building anything (an idle or hovering frame on a million nodes).

mod body;

use super::density::Density;
use super::draw::{prim_shapes, text_width};
use super::{ViewportState, sr};
use crate::editor::session::Editor;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::detail::{SHAPE_BUDGET, plan_within};
use crate::editor::view::draw_list::{Ask, DrawList, Show};
pub(super) use crate::editor::view::frame_plan::selection_indices;
use crate::editor::view::frame_plan::{FramePlan, PlanInput};
use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::node_layer::node_layer;
use crate::editor::view::primitives::Prim;
use crate::model::scene::Scene;
use body::{NodePass, draw_node};
use egui::Rect;
use glam::Vec2;

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
    /// The boxes of its names (the moving subtrees' names keep clear of them).
    names: Vec<[f64; 4]>,
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
    pub(super) anchors: Option<Vec<crate::editor::view::slide::Anchor>>,
    /// Frames that painted the kept layer slid by the whole scene's move.
    pub slid: usize,
    /// The draw list of the last layer drawn (tests compare it with a figure's).
    pub list: DrawList,
    /// The primitives of the last layer drawn, and the grid's and the shear overlay's of the
    /// last frame (tests compare them with a figure's).
    pub(super) prims: Vec<Prim>,
    /// The grid's primitives, last frame.
    pub(super) grid: Vec<Prim>,
    /// The shear overlay's primitives, last frame.
    pub(super) shear: Vec<Prim>,
    /// The world version and screen shift of the last slid frame.
    pub(super) slid_shift: Option<(u64, Vec2)>,
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
    let key = layer_key(editor, state, rect);
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
    if super::slide::paint_slid(scene, painter, &mut state.layer, &key, rect, held) {
        return;
    }
    let mut out = std::mem::take(&mut state.layer.shapes);
    out.clear();
    if let Some(ranges) = moving_ranges(scene, &state.layer, &key) {
        draw_composed(ctx, rect, editor, state, (&key, ranges), &mut out);
    } else {
        draw_whole(ctx, rect, editor, state, &key, &mut out);
    }
    painter.extend(out.iter().cloned());
    let layer = &mut state.layer;
    layer.shapes = out;
    layer.world_seen = key.world;
    layer.key = Some(key);
}

/// What this frame's node layer is drawn from.
fn layer_key(editor: &Editor, state: &ViewportState, rect: Rect) -> LayerKey {
    let scene = editor.doc().scene();
    let view = editor.view();
    LayerKey {
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
    }
}

/// A drag of a few subtrees: a kept base layer without them (planned again unless it already
/// leaves out every moving range), then the moving subtrees drawn over it, into `out`.
fn draw_composed(
    ctx: &egui::Context,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    (key, ranges): (&LayerKey, &[(u32, u32)]),
    out: &mut Vec<egui::Shape>,
) {
    let covered = state
        .layer
        .base
        .as_ref()
        .is_some_and(|base| base.key.same_but_world(key) && covers(&base.skip, ranges));
    if !covered {
        let skip = ranges.to_vec();
        let mut shapes = Vec::new();
        build(ctx, rect, editor, state, &skip, &mut shapes);
        let shear = state.shear_candidates.clone();
        let names = state.layer.list.name_boxes();
        state.layer.base = Some(Base {
            key: key.clone(),
            skip,
            shapes,
            shear,
            names,
        });
    }
    if let Some(base) = &state.layer.base {
        out.extend(base.shapes.iter().cloned());
        state.shear_candidates.clone_from(&base.shear);
    }
    draw_moving(ctx, rect, editor, state, ranges, out);
    state.layer.moved_only += usize::from(covered);
    state.layer.composed = true;
    state.layer.anchors = None;
}

/// The whole layer planned and drawn into `out`, the level of detail adapted to it, and the
/// anchors a later slide is measured from.
fn draw_whole(
    ctx: &egui::Context,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    key: &LayerKey,
    out: &mut Vec<egui::Shape>,
) {
    state.layer.base = None;
    let view_changed = !state.layer.key.as_ref().is_some_and(|k| k.same_view(key));
    build(ctx, rect, editor, state, &[], out);
    let drawn = state.density.plan.draw.len();
    state.density.adapt(drawn, view_changed);
    state.layer.composed = false;
    state.layer.anchors = super::slide::anchors(editor.doc().scene());
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
    let mut input = PlanInput {
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
    // Over the shape budget (a scene just opened, a zoom out): planned again coarser before
    // anything is drawn, so no frame's mesh (nor the GPU buffers sized to it) is ever giant.
    let reuse = std::mem::take(&mut density.plan);
    let plan = plan_within(&mut input, SHAPE_BUDGET, threads, reuse);
    density.tiny = input.tiny;
    state.extents = extents;
    state.bounds = bounds;
    draw_built(ctx, rect, editor, state, density, plan, out);
}

/// Draw a finished plan into `out` (through `state.camera`, which must be the camera it was
/// planned for); the plan, the density images and the shear candidates go into `state`.
pub(super) fn draw_built(
    ctx: &egui::Context,
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
    let images = density.images(ctx, rect);
    let fill_size = state.layer.fill_size;
    let planned = (&density.plan, Some(images), &[][..]);
    state.layer.fill_size = draw_plan(ctx, rect, editor, state, planned, fill_size, out);
    state.shear_candidates.clear();
    state
        .shear_candidates
        .extend(density.plan.shear.iter().map(|&i| i as usize));
    state.density = density;
    state.layer.built += 1;
}

/// Draw the moving subtrees (every node as itself, nothing splatted) into `out`.
fn draw_moving(
    ctx: &egui::Context,
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
    let no_bounds = crate::editor::view::cull_cache::SubtreeBounds::default();
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
    // The kept layer's names are drawn too: the moving subtrees' names keep clear of them.
    let taken = (state.layer.base.as_ref()).map_or(Vec::new(), |b| b.names.clone());
    draw_plan(ctx, rect, editor, state, (&plan, None, &taken), (0, 0), out);
}

/// A plan's density images, the coarse grid's and the fine one's (None for an empty grid).
type DensityImages = [Option<egui::Shape>; 2];

/// The plan's primitives (`primitives::node_prims`: the density images, links, kept nodes'
/// bodies and marks, names last) as shapes; returns the biggest fill mesh's size. `images`
/// are the plan's density images (None: the plan has none); the names keep clear of `taken`.
fn draw_plan(
    ctx: &egui::Context,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    (plan, images, taken): (&FramePlan, Option<DensityImages>, &[[f64; 4]]),
    (vertices, indices): (usize, usize),
    out: &mut Vec<egui::Shape>,
) -> (usize, usize) {
    let view = (state.camera, sr(rect));
    let (list, prims) = layer_of(ctx, (plan, images.is_some(), taken), view, editor, state);
    let mut fill = egui::Mesh::default();
    fill.reserve_triangles(indices / 3);
    fill.reserve_vertices(vertices);
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
    let images = images.unwrap_or_default();
    for prim in &prims {
        match prim {
            Prim::Body { index } => draw_node(&mut pass, *index as usize, state),
            Prim::Density { coarse } => {
                pass.flush();
                pass.out.extend(images[usize::from(!coarse)].clone());
            }
            other => {
                pass.flush();
                prim_shapes(ctx, other, &mut pass.out);
            }
        }
    }
    pass.flush();
    *out = pass.out;
    state.layer.list = list;
    state.layer.prims = prims;
    pass.fill_size
}

/// The plan's node layer as the viewport shows it (`editor::view::node_layer`, as figures
/// draw it): names measured with egui's font, kept where the last frame had them where they can
/// be and clear of `taken`; the primary selection's axes left to its handles.
fn layer_of(
    ctx: &egui::Context,
    (plan, density, taken): (&FramePlan, bool, &[[f64; 4]]),
    view: (Camera, ScreenRect),
    editor: &Editor,
    state: &ViewportState,
) -> (DrawList, Vec<Prim>) {
    let width = text_width(ctx);
    let ask = Ask {
        is_selected: &|id| editor.is_selected(id),
        text_width: &width,
        taken,
    };
    let scene = editor.doc().scene();
    let previous = &state.layer.list;
    node_layer(
        scene,
        plan,
        view,
        (viewport_show(editor), &ask),
        previous,
        density,
    )
}

/// What the viewport shows of the nodes, from the view options.
fn viewport_show(editor: &Editor) -> Show {
    let options = editor.view();
    Show {
        axes: options.shows(ViewOption::Axes),
        names: options.shows(ViewOption::Names),
        selection: true,
        // The primary selection shows its axes as the handles instead.
        handles_on: editor.selection().last().copied(),
    }
}

impl ViewportState {
    /// What the last frame painted of the scene, as primitives: the grid, the node layer last
    /// drawn (with the offset of the viewport on screen) and the shear overlay (tests compare
    /// them with a figure's).
    pub fn primitives(&self) -> Vec<Prim> {
        let layer = &self.layer;
        [&layer.grid, &layer.prims, &layer.shear]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }
}
