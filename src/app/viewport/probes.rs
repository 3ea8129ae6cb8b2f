//! Point probes in the viewport: their pins (with a faint line to the origin of the node whose
//! space they live in), dropping one with a click while "Place probes" is on, and dragging a pin.

use super::prim_shapes::c32;
use super::screen::{p2, sr, v2};
use super::state::{Frame, ViewportState};
use crate::editor::session::command::{Command, ProbeCommand};
use crate::editor::session::probes::{ProbeReading, probe_at};
use crate::editor::view::palette;
use egui::{Color32, Stroke};

/// The pins' colour.
/// Probe pins.
fn pin() -> Color32 {
    c32(palette::PROBE)
}

/// Draw every probe's pin and handle probe input. Returns true when the pointer belongs to the
/// probes this frame (a pin is dragged, or a click dropped one), so the scene ignores it.
pub(super) fn probes(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
    out: &mut Vec<Command>,
) -> bool {
    let readings = frame.editor.probe_readings();
    paint_pins(frame, painter, state, &readings);
    probe_input(frame, state, &readings, out)
}

/// Every probe's pin in view: a ring and a cross (bigger while dragged), its label, and a
/// faint line to the origin of the node whose space it lives in.
fn paint_pins(
    frame: &Frame,
    painter: &egui::Painter,
    state: &ViewportState,
    readings: &[ProbeReading],
) {
    let rect = frame.rect;
    let (camera, view) = (state.camera, sr(rect));
    let scene = frame.editor.doc().scene();
    for r in readings {
        let Some(world) = r.world else { continue };
        let p = camera.to_screen_f64(view, world);
        if !rect.expand(40.0).contains(p2(p.as_vec2())) {
            continue;
        }
        let at = p2(p.as_vec2());
        if let Ok(owner) = scene.world(r.probe.node) {
            let o = camera.to_screen(view, owner.translation);
            if rect.expand(4000.0).contains(p2(o)) {
                let faint = Stroke::new(1.0, c32(palette::PROBE.alpha(90)));
                painter.line_segment([p2(o), at], faint);
            }
        }
        let held = state.probe_drag == Some(r.probe);
        paint_pin(painter, at, held, &r.label);
    }
}

/// One pin at `at`: a ring (bigger while `held`), a cross, and its label.
fn paint_pin(painter: &egui::Painter, at: egui::Pos2, held: bool, label: &str) {
    painter.circle_stroke(at, if held { 7.0 } else { 5.5 }, Stroke::new(2.0, pin()));
    painter.line_segment(
        [at - egui::vec2(9.0, 0.0), at + egui::vec2(9.0, 0.0)],
        Stroke::new(1.0, pin()),
    );
    painter.line_segment(
        [at - egui::vec2(0.0, 9.0), at + egui::vec2(0.0, 9.0)],
        Stroke::new(1.0, pin()),
    );
    painter.text(
        at + egui::vec2(9.0, -9.0),
        egui::Align2::LEFT_BOTTOM,
        label,
        egui::FontId::proportional(12.0),
        pin(),
    );
}

/// Grab a pin where a drag starts, move the grabbed pin, and drop a probe with a click while
/// placing probes; true when the pointer belongs to the probes this frame.
fn probe_input(
    frame: &Frame,
    state: &mut ViewportState,
    readings: &[ProbeReading],
    out: &mut Vec<Command>,
) -> bool {
    let Frame {
        ui,
        response,
        rect,
        editor,
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
