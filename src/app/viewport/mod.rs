//! The 2D viewport: every node drawn through its world matrix (shear and mirrors shown as they
//! are), a grid and world axes, click to select, drag to move, pan and zoom, and the shear
//! overlay. The camera is view state, not part of the scene, and is not undoable.
//!
//! This file is the top of the viewport: it imports its parts, and no part imports it. What
//! they share is below them: `state.rs` (the kept state and the frame), `screen.rs` (egui ↔
//! editor screen types), `layer.rs` (the kept node layer), `textures.rs`, `density.rs`.

mod culling;
mod density;
mod draw;
mod input;
mod layer;
mod nodes;
mod overlays;
mod painted;
mod prim_shapes;
mod probes;
mod progressive;
mod screen;
mod slide;
mod state;
mod textures;

use crate::app::frame::FrameContext;
use crate::editor::session::command::{Command, SettingCommand, ViewCommand, ViewOption};
use crate::editor::session::drop_rules::DropPreview;
use crate::editor::view::handles::Tool;
use crate::editor::view::palette;
use crate::model::scene::NodeId;
use crate::model::scene::name::node_label;
use draw::{draw_ghosts, draw_grid, draw_shear_overlay, outline_node};
use egui::{Rect, Sense, Stroke};
use input::{handle_tools, interact, navigate};
use nodes::draw_nodes;
use painted::{GridKey, ShearKey};
pub(crate) use prim_shapes::c32;
use screen::p2;
pub(crate) use screen::sr;
use state::Frame;
pub use state::ViewportState;

impl ViewportState {
    /// Draw the viewport and handle its input, sending what it asks for. `preview` is a
    /// hierarchy drag in progress: its ghosts show where the dragged nodes would end up with
    /// each setting; `highlight`, the inspector's matrix-chain factor under the pointer. The
    /// canvas is named in `keyboard` as where the keyboard lands (and as ringing itself).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        fx: &FrameContext,
        preview: Option<&DropPreview>,
        highlight: Option<NodeId>,
    ) {
        toolbar(ui, fx);
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        crate::app::a11y::viewport(ui, &response, fx);
        let keyboard = (fx.wiring.primary, fx.wiring.ring);
        crate::app::keyboard::viewport_canvas(ui.ctx(), keyboard, &response);
        let rect = response.rect;
        self.last_rect = rect;
        let view_note = look_from(fx, self, rect);
        keep_subject_in_view(ui, fx, self, rect);
        self.framing.fit(&mut self.camera, fx.scene, sr(rect));
        let frame = Frame {
            ui,
            response: &response,
            rect,
            fx,
        };
        navigate(&frame, self);
        paint_scene(&frame, &painter, self, preview, highlight);
        paint_flash_and_notes(&frame, &painter, self);
        culling::paint_culling(&frame, &painter, self);
        let readings = &fx.probe_readings;
        overlays::paint_overlays(&frame, &painter, self, readings);
        if let Some(note) = view_note {
            let at = rect.left_bottom() + egui::vec2(8.0, -24.0);
            let font = egui::FontId::proportional(12.0);
            let color = c32(palette::VIEW_NOTE);
            draw::label(&painter, at, egui::Align2::LEFT_BOTTOM, note, &font, color);
        }
        let probes_took_pointer = probes::probe_input(&frame, self, readings);
        handle_tools(&frame, &painter, self);
        let predicting = input::predict_click(&frame, self);
        if self.handle_drag.is_none() && !probes_took_pointer && !predicting {
            interact(&frame, self);
        }
    }
}

/// Point the camera at the space the editor looks from: the world, or a node's space (through
/// the inverse of its world matrix, so its axes are the screen's). Switching spaces keeps the
/// world point at the centre; while the same node moves, the view follows it. Returns why the
/// chosen node cannot be looked from, when its world matrix is singular.
fn look_from(fx: &FrameContext, state: &mut ViewportState, rect: Rect) -> Option<String> {
    let (node, view, why_not) = fx.view_node.clone();
    let switched = node != state.viewing;
    state.viewing = node;
    // The selection stays where it was on screen (or comes to the centre).
    let scene = fx.scene;
    let anchor = fx
        .primary
        .and_then(|id| scene.world(id).ok())
        .map(|m| m.translation.as_dvec2());
    state.camera.look_from(view, switched, anchor, sr(rect));
    why_not
}

/// A lesson's step keeps the nodes it names in view: after a change to the scene (once the
/// pointer is up, never mid-drag) that took one out of the viewport, they are framed again.
/// Panning or zooming away by hand is left alone.
fn keep_subject_in_view(ui: &egui::Ui, fx: &FrameContext, state: &mut ViewportState, rect: Rect) {
    let Some(run) = fx.lesson else {
        return;
    };
    let now = (
        fx.doc.revision(),
        fx.view_node.0,
        ui.input(|i| i.pointer.any_down()),
    );
    let (camera, scene) = (state.camera, fx.scene);
    let subject = || fx.lesson_framed(run);
    state
        .framing
        .keep_in_view((camera, sr(rect)), scene, now, subject);
}

/// The background, grid, nodes, shear overlay, drag ghosts, and the highlighted and hovered
/// outlines.
fn paint_scene(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
    preview: Option<&DropPreview>,
    highlight: Option<NodeId>,
) {
    let Frame { ui, rect, fx, .. } = *frame;
    let scene = fx.scene;
    painter.rect_filled(
        rect,
        0.0,
        prim_shapes::c32(crate::editor::view::palette::BACKGROUND),
    );
    let view = GridKey {
        camera: state.camera,
        rect,
        scale: ui.ctx().pixels_per_point(),
    };
    draw_grid(painter, view, &mut state.layer.grid);
    draw_nodes(ui.ctx(), painter, rect, fx, state);
    if fx.view.shows(ViewOption::Shear) {
        let key = ShearKey::new(view, scene, &state.shear_candidates);
        draw_shear_overlay(painter, scene, key, &mut state.layer.shear);
    } else {
        state.layer.shear.clear();
    }
    if let Some(preview) = preview {
        draw_ghosts(painter, rect, state.camera, scene, preview);
    }
    // The matrix-chain factor under the pointer in the inspector, and the node under the pointer.
    if let Some(id) = highlight {
        outline_node(
            painter,
            rect,
            state.camera,
            scene,
            id,
            Stroke::new(3.0, c32(palette::DROP_TARGET)),
        );
    }
    if let Some(id) = state.hovered.filter(|id| !fx.is_selected(*id)) {
        outline_node(
            painter,
            rect,
            state.camera,
            scene,
            id,
            Stroke::new(1.5, c32(palette::HOVER)),
        );
    }
}

/// The recomputed-matrices flash and the precision note.
fn paint_flash_and_notes(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let rect = frame.rect;
    draw_flash(frame, painter, state);
    if let Some(note) = state.camera.precision_note() {
        let at = rect.left_top() + egui::vec2(8.0, 8.0);
        let font = egui::FontId::proportional(12.0);
        let color = c32(palette::VIEW_NOTE);
        draw::label(painter, at, egui::Align2::LEFT_TOP, note, &font, color);
    }
}

/// The viewport's toolbar: handle tool and orientation (the same commands as W / E / R / X).
fn toolbar(ui: &mut egui::Ui, fx: &FrameContext) {
    use crate::editor::view::handles::Orientation;
    ui.horizontal_wrapped(|ui| {
        for (tool, text) in [
            (Tool::Move, "Move (W)"),
            (Tool::Rotate, "Rotate (E)"),
            (Tool::Scale, "Scale (R)"),
        ] {
            if ui.selectable_label(fx.tool == tool, text).clicked() {
                fx.send(Command::Setting(SettingCommand::SetTool(tool)));
            }
        }
        ui.separator();
        let local = fx.orientation == Orientation::Local;
        if ui
            .selectable_label(local, "Local")
            .on_hover_text("Handles follow the node's own world axes (X switches)")
            .clicked()
        {
            fx.send(Command::Setting(SettingCommand::SetOrientation(
                Orientation::Local,
            )));
        }
        if ui
            .selectable_label(!local, "World")
            .on_hover_text(
                "Handles follow the world's x and y; scaling a rotated node along them shears it",
            )
            .clicked()
        {
            fx.send(Command::Setting(SettingCommand::SetOrientation(
                Orientation::World,
            )));
        }
        ui.separator();
        space_menu(ui, fx);
        ui.separator();
        // Kept whole: on a narrow toolbar the hint moves to the next row instead of breaking.
        let hint = egui::RichText::new("Ctrl snaps: grid, 15°, 0.1").weak();
        ui.add(egui::Label::new(hint).wrap_mode(egui::TextWrapMode::Extend));
    });
}

/// "View from: …": the world, the selection's parent, the selection, or any node (the first
/// few hundred listed; the palette and 1 / 2 / 3 reach the rest).
fn space_menu(ui: &mut egui::Ui, fx: &FrameContext) {
    use crate::editor::session::command::ViewSpace;
    let scene = fx.scene;
    let name = |id: NodeId| {
        scene
            .node(id)
            .map_or("?".to_string(), |d| node_label(&d.name, id))
    };
    let current = match fx.view_space {
        ViewSpace::World => "world".to_string(),
        ViewSpace::ParentOfSelection => "selection's parent".to_string(),
        ViewSpace::Selection => "selection".to_string(),
        ViewSpace::Node(id) => name(id),
    };
    egui::ComboBox::from_id_salt("view-space")
        .selected_text(format!("View from: {current}"))
        .show_ui(ui, |ui| {
            for (space, text) in [
                (ViewSpace::World, "world (1)".to_string()),
                (
                    ViewSpace::ParentOfSelection,
                    "selection's parent (2)".to_string(),
                ),
                (ViewSpace::Selection, "selection (3)".to_string()),
            ] {
                if ui.selectable_label(fx.view_space == space, text).clicked() {
                    fx.send(Command::View(ViewCommand::SetViewSpace(space)));
                }
            }
            ui.separator();
            for i in 0..scene.len().min(300) {
                let id = scene.id_at(i);
                let space = ViewSpace::Node(id);
                if ui
                    .selectable_label(fx.view_space == space, name(id))
                    .clicked()
                {
                    fx.send(Command::View(ViewCommand::SetViewSpace(space)));
                }
            }
        })
        .response
        .on_hover_text(
            "Look at the scene from a node: its axes become the screen's, the grid is its grid",
        );
}

/// How long recomputed nodes stay lit (seconds).
const FLASH_SECONDS: f64 = 0.4;
/// Lit nodes drawn at most.
const FLASH_LIMIT: usize = 20_000;

/// With "Flash recomputed world matrices" on: light up the nodes the last update recomputed.
fn draw_flash(frame: &Frame, painter: &egui::Painter, state: &mut ViewportState) {
    let Frame { ui, rect, fx, .. } = *frame;
    let scene = fx.scene;
    if !fx.view.shows(ViewOption::Recomputed) {
        state.flash = None;
        return;
    }
    let now = ui.input(|i| i.time);
    if scene.last_recomputed() > 0 {
        state.flash = Some((scene.last_recomputed_ranges().to_vec(), now));
    }
    let Some((ranges, since)) = &state.flash else {
        return;
    };
    let age = now - since;
    if age > FLASH_SECONDS {
        state.flash = None;
        return;
    }
    let alpha = (200.0 * (1.0 - age / FLASH_SECONDS)) as u8;
    let color = c32(palette::FLASH.alpha(alpha));
    let indices = ranges
        .iter()
        .flat_map(|&(a, b)| a as usize..(b as usize).min(scene.len()));
    for i in indices.take(FLASH_LIMIT) {
        let p = p2(state
            .camera
            .to_screen(sr(rect), scene.world_at(i).translation));
        if rect.contains(p) {
            painter.circle_filled(p, 5.0, color);
        }
    }
    ui.ctx().request_repaint();
}
