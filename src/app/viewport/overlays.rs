//! Every overlay the viewport draws over the scene, as the primitives a figure writes
//! (`editor::view::space_prims`, `overlay_prims`, `prediction_prims`), painted by one painter:
//! the selection's space grids, its trails over the clip (in the animated solar system the
//! moon's trail is the epicycle), the accumulated-TRS and blended-world ghosts, a lesson's
//! prediction next to the result, the probes' pins and the box selection's marquee.

use super::draw::text_width;
use super::prim_shapes::prim_shapes;
use super::screen::{sr, v2};
use super::state::{Frame, ViewportState};
use crate::editor::session::command::ViewOption;
use crate::editor::session::probes::ProbeReading;
use crate::editor::view::overlay_prims::{accumulated_prims, blend_prims, trail_prims};
use crate::editor::view::prediction_prims::prediction_prims;
use crate::editor::view::primitives::Prim;
use crate::editor::view::space_prims::{Pin, ShownSpaces, marquee_prims, probe_prims, space_prims};

/// Paint the overlays the View menu, the timeline, a lesson and the probes turn on, and the
/// marquee while a box selection is dragged; kept for tests while recording.
pub(super) fn paint_overlays(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
    readings: &[ProbeReading],
) {
    let fx = frame.fx;
    let (scene, view) = (fx.scene, (state.camera, sr(frame.rect)));
    let width = text_width(painter.ctx());
    let mut prims = Vec::new();
    let shown = ShownSpaces {
        parent: fx.view.shows(ViewOption::ParentGrid),
        own: fx.view.shows(ViewOption::LocalGrid),
    };
    space_prims(scene, fx.primary, shown, (view, &width), &mut prims);
    if fx.timeline.trails() {
        trail_prims(scene, fx.selected_ids(), view, &width, &mut prims);
    }
    if fx.view.shows(ViewOption::AccumulatedGhosts) {
        accumulated_prims(scene, view, &mut prims);
    }
    if fx.view.shows(ViewOption::WorldBlendGhosts) {
        blend_prims(scene, fx.timeline.time(), view, &mut prims);
    }
    if let Some(mark) = fx.lesson.and_then(|r| r.prediction_mark(scene)) {
        prediction_prims(&mark, view, &mut prims);
    }
    probe_prims(scene, &pins(readings, state), view, &mut prims);
    if let Some(start) = state.box_start
        && let Some(now) = frame.ui.ctx().pointer_latest_pos()
    {
        marquee_prims(v2(start), v2(now), &mut prims);
    }
    paint(painter, &prims);
    if state.layer.recording {
        state.layer.overlays = prims;
    }
}

/// The probes' readings as pins (the one being dragged held).
fn pins(readings: &[ProbeReading], state: &ViewportState) -> Vec<Pin> {
    (readings.iter())
        .map(|r| Pin {
            label: r.label.clone(),
            world: r.world,
            owner: r.probe.node,
            held: state.probe_drag == Some(r.probe),
        })
        .collect()
}

/// The primitives as egui shapes, added to the painter at once.
fn paint(painter: &egui::Painter, prims: &[Prim]) {
    let mut shapes = Vec::new();
    for prim in prims {
        prim_shapes(painter.ctx(), prim, &mut shapes);
    }
    painter.extend(shapes);
}
