//! Point probes in the viewport: their pins (with a faint line to the origin of the node whose
//! space they live in), dropping one with a click while "Place probes" is on, and dragging a pin.

use super::{Frame, ViewportState, p2, sr, v2};
use crate::editor::session::command::{Command, ProbeCommand};
use crate::editor::session::probes::probe_at;
use egui::{Color32, Stroke};

/// The pins' colour.
const PIN: Color32 = Color32::from_rgb(255, 110, 220);

/// Draw every probe's pin and handle probe input. Returns true when the pointer belongs to the
/// probes this frame (a pin is dragged, or a click dropped one), so the scene ignores it.
pub(super) fn probes(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
    out: &mut Vec<Command>,
) -> bool {
    let Frame {
        ui,
        response,
        rect,
        editor,
    } = *frame;
    let readings = editor.probe_readings();
    let (camera, view) = (state.camera, sr(rect));
    let scene = editor.doc().scene();
    for r in &readings {
        let Some(world) = r.world else { continue };
        let p = camera.to_screen_f64(view, world);
        if !rect.expand(40.0).contains(p2(p.as_vec2())) {
            continue;
        }
        let at = p2(p.as_vec2());
        if let Ok(owner) = scene.world(r.probe.node) {
            let o = camera.to_screen(view, owner.translation);
            if rect.expand(4000.0).contains(p2(o)) {
                let faint = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, 110, 220, 90));
                painter.line_segment([p2(o), at], faint);
            }
        }
        let held = state.probe_drag == Some(r.probe);
        painter.circle_stroke(at, if held { 7.0 } else { 5.5 }, Stroke::new(2.0, PIN));
        painter.line_segment(
            [at - egui::vec2(9.0, 0.0), at + egui::vec2(9.0, 0.0)],
            Stroke::new(1.0, PIN),
        );
        painter.line_segment(
            [at - egui::vec2(0.0, 9.0), at + egui::vec2(0.0, 9.0)],
            Stroke::new(1.0, PIN),
        );
        painter.text(
            at + egui::vec2(9.0, -9.0),
            egui::Align2::LEFT_BOTTOM,
            &r.label,
            egui::FontId::proportional(12.0),
            PIN,
        );
    }
    if response.drag_started_by(egui::PointerButton::Primary)
        && let Some(press) = ui.input(|i| i.pointer.press_origin())
    {
        state.probe_drag = probe_at(&readings, camera, view, v2(press));
    }
    if let Some(probe) = state.probe_drag {
        if response.dragged_by(egui::PointerButton::Primary)
            && let Some(p) = response.interact_pointer_pos()
        {
            let world = camera.to_world(view, v2(p));
            out.push(Command::Probe(ProbeCommand::Move {
                probe,
                world,
                continuous: true,
            }));
        }
        if response.drag_stopped() || !response.dragged() {
            state.probe_drag = None;
            out.push(Command::EndGesture);
        }
        return true;
    }
    if editor.probe_mode() {
        if response.hovered() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Crosshair);
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let world = camera.to_world(view, v2(p));
            out.push(Command::Probe(ProbeCommand::Add { world }));
            return true;
        }
    }
    false
}
