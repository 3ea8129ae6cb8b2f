//! The node layer of the viewport: every node through its world matrix, as the frame plan
//! (`editor::view::frame_plan`, every core) sorted them — shapes for the kept nodes (fills batched
//! into one mesh), the density images for the splatted ones, parent links. The layer is built
//! as a list of egui shapes and kept: a frame whose inputs (scene versions, camera, viewport,
//! level of detail, selection, view options) are those of the last one paints the same list
//! again without planning or building anything (an idle or hovering frame on a million nodes).

mod body;

use super::density::Density;
use super::{ViewportState, p2, sr};
use crate::editor::session::Editor;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{DrawList, Show};
pub(super) use crate::editor::view::frame_plan::selection_indices;
use crate::editor::view::frame_plan::{PlanInput, plan};
use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::occlusion::{OCCLUSION_FROM, visible_nodes};
use crate::model::scene::Scene;
use body::{NodePass, draw_node};
use egui::{Color32, Pos2, Rect, Stroke};
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
        draw_composed(ctx, painter, rect, editor, state, (&key, ranges), &mut out);
    } else {
        draw_whole(ctx, painter, rect, editor, state, &key, &mut out);
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
    painter: &egui::Painter,
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
        build(ctx, painter, rect, editor, state, &skip, &mut shapes);
        let shear = state.shear_candidates.clone();
        state.layer.base = Some(Base {
            key: key.clone(),
            skip,
            shapes,
            shear,
        });
    }
    if let Some(base) = &state.layer.base {
        out.extend(base.shapes.iter().cloned());
        state.shear_candidates.clone_from(&base.shear);
    }
    draw_moving(ctx, painter, rect, editor, state, ranges, out);
    state.layer.moved_only += usize::from(covered);
    state.layer.composed = true;
    state.layer.anchors = None;
}

/// The whole layer planned and drawn into `out`, the level of detail adapted to it, and the
/// anchors a later slide is measured from.
fn draw_whole(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
    key: &LayerKey,
    out: &mut Vec<egui::Shape>,
) {
    state.layer.base = None;
    let view_changed = !state.layer.key.as_ref().is_some_and(|k| k.same_view(key));
    build(ctx, painter, rect, editor, state, &[], out);
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
    let mut plan = plan(&input, threads, std::mem::take(&mut density.plan));
    // Over the shape budget (a scene just opened, a zoom out): planned again coarser before
    // anything is drawn, so no frame's mesh (nor the GPU buffers sized to it) is ever giant.
    while density.raise_for(plan.draw.len()) {
        input.tiny = density.tiny;
        plan = crate::editor::view::frame_plan::plan(&input, threads, plan);
    }
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
    let line = |(a, b): &(_, _)| egui::Shape::line_segment([p2(*a), p2(*b)], link);
    out.extend(plan.links.iter().map(line));
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
    let view = (state.camera, sr(rect));
    let list = viewport_draw_list(editor, kept, view, plan.draw.len(), &state.layer.list);
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

/// The viewport's draw list for the kept nodes: the one policy figures use too (names keep
/// the places they had in the `previous` frame where they can).
pub fn viewport_draw_list(
    editor: &Editor,
    kept: impl Iterator<Item = usize>,
    view: (Camera, ScreenRect),
    planned: usize,
    previous: &DrawList,
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
    DrawList::build_after(
        previous,
        scene,
        kept,
        view,
        show,
        &|id| editor.is_selected(id),
        planned,
    )
}

/// Names last, so no shape covers them; each over a halo of the background's colour (the
/// text drawn first at the eight 1 px offsets), readable over any fill, as in figures.
fn push_names(painter: &egui::Painter, names: Vec<(Pos2, &str)>, out: &mut Vec<egui::Shape>) {
    let font = egui::FontId::proportional(12.0);
    let color = Color32::from_gray(230);
    let halo = Color32::from_gray(28);
    for (origin, name) in names {
        let galley = painter.layout_no_wrap(name.to_owned(), font.clone(), color);
        // The draw list placed the name's baseline start; the galley's bottom-left sits there.
        let at = egui::Align2::LEFT_BOTTOM.anchor_size(origin, galley.size());
        for (dx, dy) in HALO_OFFSETS {
            let pos = at.min + egui::vec2(dx, dy);
            out.push(egui::Shape::galley_with_override_text_color(
                pos,
                galley.clone(),
                halo,
            ));
        }
        out.push(egui::Shape::galley(at.min, galley, color));
    }
}

/// Where a name's halo copies are drawn, around the name.
const HALO_OFFSETS: [(f32, f32); 8] = [
    (-1.0, -1.0),
    (0.0, -1.0),
    (1.0, -1.0),
    (-1.0, 0.0),
    (1.0, 0.0),
    (-1.0, 1.0),
    (0.0, 1.0),
    (1.0, 1.0),
];
