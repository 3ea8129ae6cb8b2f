//! World-space trails and the two comparison ghosts, painted as `editor::view::trails` places
//! them: for the selected nodes, the path of their world origin over the clip with time ticks
//! (in the animated solar system the moon's trail is the epicycle); each node's
//! accumulated-TRS ghost; each animated node's blended-world-matrix ghost; a lesson's
//! prediction next to the result.

use super::draw::text_width;
use super::prim_shapes::prim_shapes;
use super::screen::sr;
use super::state::{Frame, ViewportState};
use crate::editor::session::command::ViewOption;
use crate::editor::view::overlay_prims::{accumulated_prims, blend_prims, trail_prims};
use crate::editor::view::prediction_prims::prediction_prims;

/// Paint the trails of the selection (when trails are on) and the comparison ghosts the View
/// menu turns on, as the primitives a figure writes; kept for tests while recording.
pub(super) fn paint_trails_and_ghosts(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
) {
    let editor = frame.editor;
    let (scene, view) = (editor.doc().scene(), (state.camera, sr(frame.rect)));
    let mut prims = Vec::new();
    if editor.timeline().trails() {
        let width = text_width(painter.ctx());
        trail_prims(scene, editor.selection(), view, &width, &mut prims);
    }
    if editor.view().shows(ViewOption::AccumulatedGhosts) {
        accumulated_prims(scene, view, &mut prims);
    }
    if editor.view().shows(ViewOption::WorldBlendGhosts) {
        blend_prims(scene, editor.timeline().time(), view, &mut prims);
    }
    if let Some(mark) = editor.lesson().and_then(|r| r.prediction_mark(scene)) {
        prediction_prims(&mark, view, &mut prims);
    }
    let mut shapes = Vec::new();
    for prim in &prims {
        prim_shapes(painter.ctx(), prim, &mut shapes);
    }
    painter.extend(shapes);
    if state.layer.recording {
        state.layer.overlays = prims;
    }
}
