//! Point probes in the viewport: dropping one with a click while "Place probes" is on, and
//! dragging a pin (the pins are painted with the other overlays, `overlays.rs`).

use super::screen::{sr, v2};
use super::state::{Frame, ViewportState};
use crate::editor::session::command::{Command, HistoryCommand, ProbeCommand};
use crate::editor::session::probes::{ProbeReading, probe_at};

/// Grab a pin where a drag starts, move the grabbed pin, and drop a probe with a click while
/// placing probes; true when the pointer belongs to the probes this frame (a pin is dragged,
/// or a click dropped one), so the scene ignores it.
pub(super) fn probe_input(
    frame: &Frame,
    state: &mut ViewportState,
    readings: &[ProbeReading],
) -> bool {
    let Frame {
        ui,
        response,
        rect,
        fx,
    } = *frame;
    let (camera, view) = (state.camera, sr(rect));
    if response.drag_started_by(egui::PointerButton::Primary)
        && let Some(press) = ui.input(|i| i.pointer.press_origin())
    {
        state.probe_drag = probe_at(readings, camera, view, v2(press));
    }
    if let Some(probe) = state.probe_drag {
        if response.dragged_by(egui::PointerButton::Primary)
            && let Some(p) = response.interact_pointer_pos()
        {
            let world = camera.to_world(view, v2(p));
            frame.fx.send(Command::Probe(ProbeCommand::Move {
                probe,
                world,
                continuous: true,
            }));
        }
        if response.drag_stopped() || !response.dragged() {
            state.probe_drag = None;
            frame.fx.send(Command::History(HistoryCommand::EndGesture));
        }
        return true;
    }
    if fx.probe_mode {
        if response.hovered() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Crosshair);
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let world = camera.to_world(view, v2(p));
            frame.fx.send(Command::Probe(ProbeCommand::Add { world }));
            return true;
        }
    }
    false
}
