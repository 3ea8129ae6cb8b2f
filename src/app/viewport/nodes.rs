//! The node layer of the viewport: every node through its world matrix, as the frame plan
//! (`editor::view::frame_plan`, every core) sorted them — shapes for the kept nodes (fills batched
//! into one mesh), the density images for the splatted ones, parent links. The layer is built
//! as a list of egui shapes and kept (`layer.rs`): a frame whose inputs (scene versions, camera,
//! viewport, level of detail, selection, view options) are those of the last one paints the same
//! list again without planning or building anything (an idle or hovering frame on a million
//! nodes). A moved view of a big scene is `progressive.rs`'s, a slid one `slide.rs`'s; a
//! finished plan is painted by `nodes/paint.rs`.

mod body;
pub(super) mod paint;

use super::density::Density;
use super::layer::{Base, LayerKey, NodeLayer};
use super::screen::sr;
use super::state::ViewportState;
use super::{progressive, slide};
use crate::app::frame::FrameContext;
use crate::editor::session::command::ViewOption;
use crate::editor::view::detail::{SHAPE_BUDGET, plan_within};
use crate::editor::view::frame_plan::{PlanInput, plan_ranges, selection_indices};
use crate::model::scene::Scene;
use egui::Rect;
use paint::{draw_built, draw_plan};

/// Moving nodes (those the last update recomputed) planned apart at most; more, and the whole
/// layer is planned anew.
const MOVING_MAX: usize = 20_000;
/// Scenes smaller than this are always planned whole (it is cheap).
const MOVING_MIN_SCENE: usize = 20_000;

/// Draw every node through its world matrix (see the module's comment), or paint the last
/// frame's layer again when nothing it depends on changed, or, while only a few subtrees move
/// (a drag), a kept layer without them plus those subtrees.
pub(super) fn draw_nodes(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
) {
    let scene = fx.scene;
    let key = LayerKey::new(fx, state.camera, rect, state.density.tiny);
    let layer = &mut state.layer;
    // A composed drag frame is exact but for stacking; while the drag is held, an unchanged
    // frame (egui repaints without a move) paints it again rather than planning everything.
    let held = fx.gesture_open;
    if layer.key.as_ref() == Some(&key) && (!layer.composed || held) {
        layer.reused += 1;
        painter.extend(layer.shapes.iter().cloned());
        return;
    }
    if progressive::draw(ctx, painter, rect, fx, state, &key) {
        return;
    }
    if slide::paint_slid(scene, painter, &mut state.layer, &key, rect, held) {
        return;
    }
    let mut out = std::mem::take(&mut state.layer.shapes);
    out.clear();
    if let Some(ranges) = moving_ranges(scene, &state.layer, &key) {
        draw_composed(ctx, rect, fx, state, (&key, ranges), &mut out);
    } else {
        draw_whole(ctx, rect, fx, state, &key, &mut out);
    }
    painter.extend(out.iter().cloned());
    let layer = &mut state.layer;
    layer.shapes = out;
    layer.world_seen = key.world;
    layer.key = Some(key);
}

/// A drag of a few subtrees: a kept base layer without them (planned again unless it already
/// leaves out every moving range), then the moving subtrees drawn over it, into `out`.
fn draw_composed(
    ctx: &egui::Context,
    rect: Rect,
    fx: &FrameContext,
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
        build(ctx, rect, fx, state, &skip, &mut shapes);
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
    draw_moving(ctx, rect, fx, state, ranges, out);
    state.layer.moved_only += usize::from(covered);
    state.layer.composed = true;
    state.layer.anchors = None;
}

/// The whole layer planned and drawn into `out`, the level of detail adapted to it, and the
/// anchors a later slide is measured from.
fn draw_whole(
    ctx: &egui::Context,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
    key: &LayerKey,
    out: &mut Vec<egui::Shape>,
) {
    state.layer.base = None;
    let view_changed = !state.layer.key.as_ref().is_some_and(|k| k.same_view(key));
    build(ctx, rect, fx, state, &[], out);
    let drawn = state.density.plan.draw.len();
    state.density.adapt(drawn, view_changed);
    state.layer.composed = false;
    state.layer.anchors = slide::anchors(fx.scene);
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
    fx: &FrameContext,
    state: &mut ViewportState,
    skip: &[(u32, u32)],
    out: &mut Vec<egui::Shape>,
) {
    let scene = fx.scene;
    let view = fx.view;
    let mut extents = std::mem::take(&mut state.extents);
    extents.refresh(scene);
    let mut bounds = std::mem::take(&mut state.bounds);
    bounds.refresh(scene, &extents);
    let mut density: Density = std::mem::take(&mut state.density);
    let (mut protected, selected) = selection_indices(scene, fx.selected_ids());
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
    draw_built(ctx, rect, fx, state, density, plan, out);
}

/// Draw the moving subtrees (every node as itself, nothing splatted) into `out`.
fn draw_moving(
    ctx: &egui::Context,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
    ranges: &[(u32, u32)],
    out: &mut Vec<egui::Shape>,
) {
    let scene = fx.scene;
    let view = fx.view;
    state.extents.refresh(scene);
    let (protected, selected) = selection_indices(scene, fx.selected_ids());
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
    let plan = plan_ranges(&input, ranges);
    state
        .shear_candidates
        .extend(plan.shear.iter().map(|&i| i as usize));
    // The kept layer's names are drawn too: the moving subtrees' names keep clear of them.
    let taken = (state.layer.base.as_ref()).map_or(Vec::new(), |b| b.names.clone());
    draw_plan(ctx, rect, fx, state, (&plan, None, &taken), (0, 0), out);
}
