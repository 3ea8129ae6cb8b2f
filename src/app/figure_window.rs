//! File > Export figure: the figure's size, scale, layers, caption and view, a live preview
//! rendered from the same SVG the export writes, and Save (SVG or PNG by the name picked).

use crate::app::frame::FrameContext;
use crate::editor::session::command::{Command, FileCommand, ViewCommand, Window, WindowCommand};
use crate::editor::view::camera::Camera;
use crate::editor::view::figure::FigureOptions;
use std::sync::mpsc::{Receiver, TryRecvError};

/// Preview width in pixels.
const PREVIEW_WIDTH: f32 = 360.0;
/// How often the preview is redrawn while something changes (seconds).
const PREVIEW_EVERY: f64 = 0.3;

/// A preview drawn on a worker: width, height and straight-alpha RGBA, or why not.
type Rendered = crate::Result<(u32, u32, Vec<u8>)>;

/// The preview's texture and what it shows.
#[derive(Default)]
pub struct FigureWindowState {
    texture: Option<egui::TextureHandle>,
    /// The figure key the texture shows.
    shown: Option<u64>,
    /// A preview being drawn on a worker, for this key.
    rendering: Option<(u64, Receiver<Rendered>)>,
    drawn_at: f64,
    /// Use the viewport's camera instead of framing the whole scene.
    pub current_view: bool,
    error: Option<String>,
}

/// The viewport's camera, zoomed so the figure shows what the viewport shows.
fn view_camera(camera: Camera, viewport: egui::Rect, size: (u32, u32)) -> Camera {
    let k = (size.0 as f64 / viewport.width().max(1.0) as f64)
        .min(size.1 as f64 / viewport.height().max(1.0) as f64);
    Camera {
        zoom: camera.zoom * k,
        ..camera
    }
}

/// Draw the window; what it asks for is sent.
pub fn show(
    ctx: &egui::Context,
    fx: &FrameContext,
    state: &mut FigureWindowState,
    viewport: (Camera, egui::Rect),
) {
    let out = fx.wiring.sender;
    let mut open = true;
    let mut options = fx.figure_options.clone();
    egui::Window::new("Export figure")
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            settings(ui, &mut options, state);
            options.camera = state
                .current_view
                .then(|| view_camera(viewport.0, viewport.1, options.size));
            if options != *fx.figure_options {
                out.send(Command::View(ViewCommand::SetFigure(Box::new(
                    options.clone(),
                ))));
            }
            ui.separator();
            preview(ui, fx, state);
            ui.horizontal(|ui| {
                if ui
                    .button("Save…")
                    .on_hover_text("Pick a .png or .svg name: the PNG is drawn from the same SVG")
                    .clicked()
                {
                    out.send(Command::File(FileCommand::SaveFigure));
                }
                ui.weak(format!(
                    "{}×{} px PNG",
                    (options.size.0 as f32 * options.scale).round(),
                    (options.size.1 as f32 * options.scale).round()
                ));
            });
        });
    if !open {
        out.send(Command::Window(WindowCommand::Close(Window::Figure)));
    }
}

/// Size, scale, view, layers and caption.
fn settings(ui: &mut egui::Ui, o: &mut FigureOptions, state: &mut FigureWindowState) {
    egui::Grid::new("figure-settings")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("size");
            ui.horizontal(|ui| {
                ui.add(
                    egui::DragValue::new(&mut o.size.0)
                        .range(16..=8192)
                        .suffix(" px"),
                );
                ui.label("×");
                ui.add(
                    egui::DragValue::new(&mut o.size.1)
                        .range(16..=8192)
                        .suffix(" px"),
                );
            });
            ui.end_row();
            ui.label("scale");
            ui.add(
                egui::DragValue::new(&mut o.scale)
                    .range(0.25..=8.0)
                    .speed(0.05),
            )
            .on_hover_text("Device pixels per pixel in the PNG (2 for sharp slides)");
            ui.end_row();
            ui.label("view");
            ui.horizontal(|ui| {
                ui.radio_value(&mut state.current_view, false, "whole scene");
                ui.radio_value(&mut state.current_view, true, "as in the viewport");
            });
            ui.end_row();
        });
    ui.horizontal_wrapped(|ui| {
        let l = &mut o.layers;
        ui.checkbox(&mut l.grid, "grid");
        ui.checkbox(&mut l.axes, "axes");
        ui.checkbox(&mut l.links, "links");
        ui.checkbox(&mut l.names, "names");
        ui.checkbox(&mut l.shear, "shear overlay");
        ui.checkbox(&mut l.selection, "selection");
        ui.checkbox(&mut l.trails, "trails");
        ui.checkbox(&mut l.ghosts, "composition ghosts");
    });
    ui.checkbox(&mut o.caption, "caption: the selection's matrix chain");
}

/// The figure rendered small on a worker thread, redrawn (at most every 0.3 s) when what it
/// depends on changed; the last preview stays up while the next one is drawn.
fn preview(ui: &mut egui::Ui, fx: &FrameContext, state: &mut FigureWindowState) {
    let now = ui.input(|i| i.time);
    receive_preview(ui.ctx(), state);
    let key = fx.figure_key();
    let due = state.shown.is_none() || now - state.drawn_at >= PREVIEW_EVERY;
    if state.rendering.is_none() && state.shown != Some(key) && due {
        start_preview(ui.ctx(), fx, state, key);
        state.drawn_at = now;
    }
    // The status row and the image keep their place while a preview is drawn, so the buttons
    // below do not move under the pointer when it arrives.
    let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(
        row,
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_size(row);
            if state.rendering.is_some() {
                ui.spinner();
                ui.weak("drawing the preview…");
            }
        },
    );
    if let Some(error) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    match &state.texture {
        Some(texture) => {
            ui.image((texture.id(), texture.size_vec2()));
        }
        None => {
            let (w, h) = fx.figure_options.size;
            let scale = (PREVIEW_WIDTH / w.max(1) as f32).min(1.0);
            ui.allocate_space(egui::vec2(w as f32, h as f32) * scale);
        }
    }
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_secs_f64(PREVIEW_EVERY));
}

/// Take the preview the worker finished, if it did: as the texture shown, or its error.
fn receive_preview(ctx: &egui::Context, state: &mut FigureWindowState) {
    let Some((key, receiver)) = &state.rendering else {
        return;
    };
    let result = match receiver.try_recv() {
        Ok(result) => result,
        Err(TryRecvError::Empty) => return,
        Err(TryRecvError::Disconnected) => {
            state.rendering = None;
            return;
        }
    };
    state.shown = Some(*key);
    state.rendering = None;
    match result {
        Ok((w, h, rgba)) => {
            let size = [w as usize, h as usize];
            let image = egui::ColorImage::from_rgba_unmultiplied(size, &rgba);
            let options = egui::TextureOptions::LINEAR;
            state.texture = Some(ctx.load_texture("figure-preview", image, options));
            state.error = None;
        }
        Err(e) => state.error = Some(e.to_string()),
    }
}

/// Start drawing the preview of the figure `key` on a worker, which wakes the window when done.
fn start_preview(ctx: &egui::Context, fx: &FrameContext, state: &mut FigureWindowState, key: u64) {
    let (w, _) = fx.figure_options.size;
    let scale = (PREVIEW_WIDTH / w.max(1) as f32).min(1.0);
    let job = fx.figure_preview_job(scale);
    let (tx, rx) = std::sync::mpsc::channel();
    let ctx = ctx.clone();
    let started = std::thread::Builder::new()
        .name("graft-figure-preview".into())
        .spawn(move || {
            let _ = tx.send(job());
            ctx.request_repaint();
        });
    match started {
        Ok(_) => state.rendering = Some((key, rx)),
        Err(e) => state.error = Some(format!("cannot start a worker: {e}")),
    }
}
