//! A moved view of a big scene without a frozen window. Planning a million nodes takes tens of
//! milliseconds, more than a frame while the view pans or zooms. From
//! [`PROGRESSIVE_MIN`] nodes, a frame whose camera moved (and nothing else) plans a few pieces
//! of the new view within [`BUDGET`] (`editor::view::frame_plan::PlanJob`) and shows the last
//! finished layer moved and scaled to the current camera; when the plan is finished it
//! becomes the layer, and the next plan starts from wherever the camera is then. So the view
//! follows the pointer at once and the detail catches up a few frames later; what was off
//! screen in the last finished layer shows once its plan is done.

use super::layer::{LayerKey, Pending};
use super::nodes::paint::draw_built;
use super::screen::sr;
use super::state::ViewportState;
use crate::app::frame::FrameContext;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::Camera;
use crate::editor::view::frame_plan::{FramePlan, PlanInput, PlanJob, selection_indices};
use egui::Rect;
use egui::emath::TSTransform;
use std::time::Duration;

/// Scenes from this size plan a moved view over several frames (the size from which a drag of
/// the whole scene slides the kept layer, too).
pub(super) const PROGRESSIVE_MIN: usize = crate::editor::view::slide::SLIDE_MIN;
/// Planning time one frame may spend.
const BUDGET: Duration = Duration::from_millis(6);

/// Draw this frame's node layer when only the camera moved over a big scene (see the
/// module's comment); false when the frame is not one of those.
pub(super) fn draw(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
    key: &LayerKey,
) -> bool {
    let scene = fx.scene;
    let layer = &state.layer;
    let applies = scene.len() >= PROGRESSIVE_MIN
        && !layer.composed
        && layer
            .key
            .as_ref()
            .is_some_and(|kept| kept.same_but_camera(key));
    if !applies {
        state.layer.pending = None;
        return false;
    }
    if let Some((camera, plan)) = advance(rect, fx, state) {
        if state.density.raise_for(plan.draw.len()) {
            ctx.request_repaint(); // over the shape budget: planned again, coarser
        } else {
            keep_plan(ctx, (rect, fx, state), key, camera, plan);
        }
    }
    paint_kept(ctx, painter, rect, state);
    true
}

/// Plan a few more pieces of the moved view within [`BUDGET`] (starting a plan for the
/// current camera when none is pending); the finished plan and its camera once it is done.
fn advance(
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
) -> Option<(Camera, FramePlan)> {
    let scene = fx.scene;
    let camera = state
        .layer
        .pending
        .as_ref()
        .map_or(state.camera, |p| p.camera);
    let mut extents = std::mem::take(&mut state.extents);
    extents.refresh(scene);
    let mut bounds = std::mem::take(&mut state.bounds);
    bounds.refresh(scene, &extents);
    let (protected, selected) = selection_indices(scene, fx.selected_ids());
    let view = fx.view;
    let input = PlanInput {
        scene,
        extents: &extents,
        bounds: &bounds,
        camera,
        view: sr(rect),
        tiny: state.density.tiny,
        protected: &protected,
        selected: &selected,
        links: view.shows(ViewOption::Links),
        shear: view.shows(ViewOption::Shear),
        skip: &[],
    };
    let mut pending = state.layer.pending.take().unwrap_or_else(|| Pending {
        camera,
        job: PlanJob::new(&input),
    });
    let threads = crate::model::scene::propagation_threads();
    let done = pending.job.advance(&input, threads, BUDGET);
    state.extents = extents;
    state.bounds = bounds;
    if done {
        return Some((pending.camera, pending.job.finish()));
    }
    state.layer.pending = Some(pending);
    None
}

/// Draw a finished plan (through the camera it was planned for) as the kept layer.
fn keep_plan(
    ctx: &egui::Context,
    (rect, fx, state): (Rect, &FrameContext, &mut ViewportState),
    key: &LayerKey,
    camera: Camera,
    plan: FramePlan,
) {
    let density = std::mem::take(&mut state.density);
    let mut shapes = std::mem::take(&mut state.layer.shapes);
    shapes.clear();
    let current = state.camera;
    state.camera = camera; // the plan's camera, to draw it
    draw_built(ctx, rect, fx, state, density, plan, &mut shapes);
    state.camera = current;
    state.layer.shapes = shapes;
    let mut kept = key.clone();
    kept.camera = camera;
    state.layer.key = Some(kept);
}

/// Paint the kept layer, moved and scaled to the current camera when it was planned for
/// another (and then repaint until the plan for this camera is drawn).
fn paint_kept(ctx: &egui::Context, painter: &egui::Painter, rect: Rect, state: &ViewportState) {
    let kept = state.layer.key.as_ref().map_or(state.camera, |k| k.camera);
    if kept == state.camera {
        painter.extend(state.layer.shapes.iter().cloned());
    } else {
        let moved = moved_view(kept, state.camera, rect);
        painter.extend(state.layer.shapes.iter().cloned().map(|mut shape| {
            shape.transform(moved);
            shape
        }));
        ctx.request_repaint(); // until the plan for this camera is drawn
    }
}

/// The screen map from what camera `from` shows to what `to` shows (the same view of the
/// world, another centre and zoom): a scale about the viewport's centre and a shift.
pub(super) fn moved_view(from: Camera, to: Camera, rect: Rect) -> TSTransform {
    let view = sr(rect);
    let center = view.center().as_dvec2();
    let world = from.to_world(view, center.as_vec2());
    let there = to.to_screen_f64(view, world);
    let scaling = (to.zoom / from.zoom) as f32;
    let shift = there - center * (to.zoom / from.zoom);
    TSTransform::new(egui::vec2(shift.x as f32, shift.y as f32), scaling)
}
