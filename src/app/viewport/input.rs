//! Viewport input: pan and zoom, the move / rotate / scale handles, hover, click and box
//! selection, and dragging the selection with the pointer. What a click, a band or a drag start
//! selects is [`crate::editor::session::picking`]'s; what a drag does to the scene is the
//! session's (the panel sends where the pointer is: `DragHandle`, `MoveSelection`).

use super::draw::draw_handles;
use super::screen::{sr, v2};
use super::state::{Frame, ViewportState};
use crate::editor::session::command::{Command, HistoryCommand, PanelCommand};
use crate::editor::session::picking::{band_selection, viewport_click, viewport_drag};
use crate::editor::view::camera::{Camera, wheel_zoom};
use crate::editor::view::geometry::hit_test;
use crate::editor::view::grid::grid_step;
use crate::editor::view::handles::{self, HandleDrag, Part};
use crate::model::scene::NodeData;
use crate::model::scene::NodeId;
use egui::Pos2;
use glam::{Affine2, Vec2};

/// Pixels around an origin that grab it.
const GRAB_RADIUS_PX: f64 = 6.0;

/// Pan (middle drag, or Space + drag) and zoom (wheel, pinch) around the pointer.
pub(super) fn navigate(frame: &Frame, state: &mut ViewportState) {
    let Frame {
        ui, response, rect, ..
    } = *frame;
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    let panning = response.dragged_by(egui::PointerButton::Middle)
        || (space && response.dragged_by(egui::PointerButton::Primary));
    if panning {
        state
            .camera
            .pan_pixels(sr(rect), v2(response.drag_delta().to_pos2()));
        state.framing.moved();
    }
    if response.hovered() {
        let (scroll, zoom, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta.y,
                i.zoom_delta(),
                i.pointer.hover_pos(),
            )
        });
        let factor = wheel_zoom(zoom, scroll);
        if factor != 1.0
            && let Some(p) = pointer
        {
            state.camera.zoom_around(sr(rect), v2(p), factor);
            state.framing.moved();
        }
    }
    // The limits depend on where the view is (f32 precision there) and on its size.
    state.camera.clamp_zoom(sr(rect));
}

/// The primary selection, as its handles see it this frame.
struct HandleTarget<'a> {
    node: NodeId,
    data: &'a NodeData,
    world: Affine2,
    axes: (Vec2, Vec2),
}

impl HandleTarget<'_> {
    /// The handle part at a screen point, if any.
    fn pick(&self, frame: &Frame, camera: Camera, at: Pos2) -> Option<Part> {
        let tool = frame.fx.tool;
        handles::pick(tool, camera, sr(frame.rect), &self.world, self.axes, v2(at))
    }
}

/// The move / rotate / scale handles of the primary selection: W / E / R keys, drawing, and
/// dragging them (one undo step per drag).
pub(super) fn handle_tools(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let Frame { response, fx, .. } = *frame;
    let scene = fx.scene;
    let Some(&node) = fx.selected_ids().last() else {
        state.handle_drag = None;
        return;
    };
    let (Ok(world), Ok(data)) = (scene.world(node), scene.node(node)) else {
        return;
    };
    let target = HandleTarget {
        node,
        data,
        world,
        axes: handles::handle_axes(&world, fx.orientation),
    };
    let hover = response
        .hover_pos()
        .and_then(|p| target.pick(frame, state.camera, p));
    let hot = state.handle_drag.as_ref().map(|d| d.part).or(hover);
    let (tool, axes) = (fx.tool, target.axes);
    draw_handles(painter, tool, state.camera, frame.rect, &world, axes, hot);
    start_handle_drag(frame, state, &target);
    let Some(drag) = &state.handle_drag else {
        return;
    };
    drag_handle(frame, state.camera, drag);
    if response.drag_stopped() || !response.dragged() {
        state.handle_drag = None;
        frame.fx.send(Command::History(HistoryCommand::EndGesture));
    }
}

/// A primary drag that began on a handle part grabs it.
fn start_handle_drag(frame: &Frame, state: &mut ViewportState, target: &HandleTarget) {
    if frame.response.drag_started_by(egui::PointerButton::Primary)
        && state.probe_drag.is_none()
        && let Some(press) = frame.ui.input(|i| i.pointer.press_origin())
        && let Some(part) = target.pick(frame, state.camera, press)
    {
        state.handle_drag = Some(HandleDrag {
            part,
            node: target.node,
            start_pointer: state.camera.to_world(sr(frame.rect), v2(press)),
            start_world: target.world,
            start_local: target.data.local,
            axes: target.axes,
            orientation: frame.fx.orientation,
        });
    }
}

/// While a handle is dragged: where the pointer is (the session turns it into the tool's edit).
fn drag_handle(frame: &Frame, camera: Camera, drag: &HandleDrag) {
    let Frame {
        ui, response, rect, ..
    } = *frame;
    if response.dragged_by(egui::PointerButton::Primary)
        && let Some(p) = response.interact_pointer_pos()
    {
        frame.fx.send(Command::Panel(PanelCommand::DragHandle {
            drag: Box::new(drag.clone()),
            pointer: camera.to_world(sr(rect), v2(p)),
            snap: ui.input(|i| i.modifiers.command),
            grid_step: grid_step(camera.zoom),
        }));
    }
}

/// Pointer input on the scene itself (no handle grabbed): hover, click to select, drag to move
/// or to box-select.
pub(super) fn interact(frame: &Frame, state: &mut ViewportState) {
    hover(frame, state);
    click_select(frame, state.camera);
    start_drag(frame, state);
    box_select(frame, state);
    drag_selection(frame, state);
}

/// True when Ctrl / Cmd or Shift is held: clicks and boxes add to the selection.
fn extending(frame: &Frame) -> bool {
    let modifiers = frame.ui.input(|i| i.modifiers);
    modifiers.command || modifiers.shift
}

/// The world point and node under the pointer. Hit-tests only when the pointer moved (a test is
/// a pass over every node).
fn hover(frame: &Frame, state: &mut ViewportState) {
    let scene = frame.fx.scene;
    let view = sr(frame.rect);
    let pointer = frame.response.hover_pos();
    state.pointer_world = pointer.map(|p| state.camera.to_world(view, v2(p)));
    if pointer != state.hover_probe {
        state.hover_probe = pointer;
        state.hovered =
            pointer.and_then(|p| hit_test(scene, state.camera, view, v2(p), GRAB_RADIUS_PX));
    }
}

/// A click selects the node under it (Ctrl / Shift toggles it); on empty space it clears the
/// selection unless Ctrl / Shift is held ([`viewport_click`]).
fn click_select(frame: &Frame, camera: Camera) {
    let scene = frame.fx.scene;
    if frame.response.clicked()
        && let Some(p) = frame.response.interact_pointer_pos()
    {
        let hit = hit_test(scene, camera, sr(frame.rect), v2(p), GRAB_RADIUS_PX);
        frame.fx.send_all(viewport_click(hit, extending(frame)));
    }
}

/// A primary drag (without Space) on a node starts moving the selection (selecting the node
/// first when it was not selected); on empty space it starts a rubber band ([`viewport_drag`]).
fn start_drag(frame: &Frame, state: &mut ViewportState) {
    let Frame {
        ui,
        response,
        rect,
        fx,
    } = *frame;
    let scene = fx.scene;
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    // egui reports a drag once the pointer has moved a few pixels: measure from where the
    // button went down, so the node follows the pointer exactly.
    if response.drag_started_by(egui::PointerButton::Primary)
        && !space
        && let Some(p) = ui
            .input(|i| i.pointer.press_origin())
            .or(response.interact_pointer_pos())
    {
        let view = sr(rect);
        let world_p = state.camera.to_world(view, v2(p));
        let hit = hit_test(scene, state.camera, view, v2(p), GRAB_RADIUS_PX);
        let selected = |id| fx.is_selected(id);
        let start = viewport_drag(scene, fx.selected_ids(), selected, hit, world_p);
        frame.fx.send_all(start.select);
        if start.band {
            state.box_start = Some(p);
        }
        if start.drag.is_some() {
            state.drag = start.drag.map(std::sync::Arc::new);
        }
    }
}

/// When a rubber band is released: select the nodes whose origins are inside it (added to the
/// selection with Ctrl / Shift).
fn box_select(frame: &Frame, state: &mut ViewportState) {
    let Frame {
        ui,
        response,
        rect,
        fx,
    } = *frame;
    let scene = fx.scene;
    let Some(start) = state.box_start else {
        return;
    };
    let released = response.drag_stopped() || !response.dragged();
    if !released {
        return;
    }
    state.box_start = None;
    let Some(end) = response
        .interact_pointer_pos()
        .or(ui.ctx().pointer_latest_pos())
    else {
        return;
    };
    let band = (v2(start), v2(end));
    let view = (state.camera, sr(rect));
    frame.fx.send(band_selection(
        scene,
        view,
        band,
        fx.selected_ids(),
        extending(frame),
    ));
}

/// While the selection is dragged: move every dragged node by the pointer's motion, as one
/// continuous step; end the step on release.
fn drag_selection(frame: &Frame, state: &mut ViewportState) {
    let Frame {
        ui, response, rect, ..
    } = *frame;
    let Some(drag) = &state.drag else {
        return;
    };
    if response.dragged_by(egui::PointerButton::Primary)
        && let Some(p) = response.interact_pointer_pos()
    {
        // Measured in f64 from where the button went down: exact far from the origin.
        let snap = ui
            .input(|i| i.modifiers.command)
            .then(|| grid_step(state.camera.zoom));
        frame.fx.send(Command::Panel(PanelCommand::MoveSelection {
            drag: drag.clone(),
            pointer: state.camera.to_world(sr(rect), v2(p)),
            snap,
        }));
    }
    if response.drag_stopped() || !response.dragged() {
        state.drag = None;
        frame.fx.send(Command::History(HistoryCommand::EndGesture));
    }
}

/// While a lesson waits for a prediction by click: a crosshair, and a click commits the world
/// point under it, rounded to a tenth of the grid's step (the grid's step with Ctrl, as Ctrl
/// snaps a drag). True while it takes the pointer.
pub(super) fn predict_click(frame: &Frame, state: &ViewportState) -> bool {
    use crate::editor::session::lesson::LessonCommand;
    use crate::editor::session::lesson_predict::PredictInput;
    let waiting = (frame.fx.lesson).is_some_and(|r| r.predicting_by_click());
    if !waiting {
        return false;
    }
    if frame.response.hovered() {
        frame.ui.ctx().set_cursor_icon(egui::CursorIcon::Crosshair);
    }
    if frame.response.clicked()
        && let Some(p) = frame.response.interact_pointer_pos()
    {
        let grid = grid_step(state.camera.zoom);
        let snap = frame.ui.input(|i| i.modifiers.command);
        frame.fx.send(Command::Lesson(LessonCommand::Predict(
            PredictInput::Click {
                at: state.camera.to_world(sr(frame.rect), v2(p)),
                step: if snap { grid } else { grid / 10.0 },
            },
        )));
    }
    true
}
