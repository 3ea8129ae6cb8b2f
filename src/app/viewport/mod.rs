//! The 2D viewport: every node drawn through its world matrix (shear and mirrors shown as they
//! are), a grid and world axes, click to select, drag to move, pan and zoom, and the shear
//! overlay. The camera is view state, not part of the scene, and is not undoable.

mod draw;

use crate::document::Document;
use crate::editor::camera::{Camera, ScreenRect};
use crate::editor::command::{Command, ViewOption};
use crate::editor::dnd::DropPreview;
use crate::editor::geometry::{hit_test, world_bounds};
use crate::editor::grid::grid_step;
use crate::editor::handles::{self, HandleDrag, Tool};
use crate::editor::session::Editor;
use crate::scene::NodeId;
use crate::scene::edit::Op;
use draw::{draw_ghosts, draw_grid, draw_handles, draw_nodes, draw_shear_overlay, outline_node};
use egui::{Color32, Pos2, Rect, Sense, Stroke};
use glam::{DVec2, Vec2};

/// An egui rectangle as the editor layer's screen rectangle.
pub(crate) fn sr(r: Rect) -> ScreenRect {
    ScreenRect {
        min: v2(r.min),
        max: v2(r.max),
    }
}

/// A screen point from the editor layer as an egui position.
pub(crate) fn p2(v: Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// An egui position as a glam vector.
pub(crate) fn v2(p: Pos2) -> Vec2 {
    Vec2::new(p.x, p.y)
}
use super::embedded_sprite;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// An in-progress move of the selection with the pointer.
#[derive(Clone, Debug)]
struct MoveDrag {
    start_pointer: DVec2,
    starts: Vec<(NodeId, Vec2)>,
}

/// The viewport's camera and interaction state (what to show is the editor's [`ViewOption`]s).
pub struct ViewportState {
    /// The camera.
    pub camera: Camera,
    /// Where the viewport was on screen last frame (for world ↔ screen outside the frame).
    pub last_rect: Rect,
    /// The node under the pointer.
    pub hovered: Option<NodeId>,
    /// The world point under the pointer (f64), for the status bar.
    pub pointer_world: Option<DVec2>,
    hover_probe: Option<Pos2>,
    flash: Option<(Vec<(u32, u32)>, f64)>,
    box_start: Option<Pos2>,
    handle_drag: Option<HandleDrag>,
    frame_pending: bool,
    frame_request: Option<Vec<NodeId>>,
    drag: Option<MoveDrag>,
    textures: HashMap<String, Option<egui::TextureHandle>>,
}

impl Default for ViewportState {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            last_rect: Rect::NOTHING,
            hovered: None,
            pointer_world: None,
            hover_probe: None,
            flash: None,
            box_start: None,
            handle_drag: None,
            frame_pending: true,
            frame_request: None,
            drag: None,
            textures: HashMap::new(),
        }
    }
}

impl ViewportState {
    /// Frame these nodes on the next frame (when the viewport's size is known).
    pub fn frame(&mut self, ids: &[NodeId]) {
        self.frame_request = Some(ids.to_vec());
    }

    /// Frame the whole scene on the next frame.
    pub fn frame_on_next_frame(&mut self) {
        self.frame_pending = true;
    }

    /// Drop the cached sprite textures (another scene was loaded).
    pub fn forget_textures(&mut self) {
        self.textures.clear();
    }

    /// The texture of a sprite: the built-in scene's embedded image, or the file next to the
    /// scene; None (drawn as a red crossed box) when it cannot be read.
    fn texture(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        path: &str,
    ) -> Option<egui::TextureId> {
        let key = match embedded_sprite(doc, path) {
            Some(_) => format!("embedded:{path}"),
            None => resolve_sprite(doc, path).display().to_string(),
        };
        let entry = self.textures.entry(key.clone()).or_insert_with(|| {
            let image = match embedded_sprite(doc, path) {
                Some(bytes) => image::load_from_memory(bytes).ok()?,
                None => image::open(resolve_sprite(doc, path)).ok()?,
            };
            let image = image.to_rgba8();
            let size = [image.width() as usize, image.height() as usize];
            let color = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
            Some(ctx.load_texture(key, color, egui::TextureOptions::LINEAR))
        });
        entry.as_ref().map(|t| t.id())
    }
}

/// Where a sprite's image is: relative to the scene file's folder (or the working folder for
/// an untitled scene).
pub(super) fn resolve_sprite(doc: &Document, path: &str) -> PathBuf {
    doc.path()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from(path), |dir| dir.join(path))
}

/// Draw the viewport and handle its input. `preview` is a hierarchy drag in progress: its
/// ghosts show where the dragged nodes would end up with each setting.
pub fn ui(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut ViewportState,
    preview: Option<&DropPreview>,
    highlight: Option<NodeId>,
) -> Vec<Command> {
    let mut out = Vec::new();
    let doc = editor.doc();
    let scene = doc.scene();
    let selection = editor.selection();
    toolbar(ui, editor, &mut out);
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let rect = response.rect;
    state.last_rect = rect;
    if state.frame_pending {
        state.frame_pending = false;
        state.frame_request = Some(scene.ids().to_vec());
    }
    if let Some(ids) = state.frame_request.take()
        && let Some((lo, hi)) = world_bounds(scene, &ids)
    {
        state.camera.fit(sr(rect), lo, hi);
    }
    navigate(ui, &response, rect, state);
    painter.rect_filled(rect, 0.0, Color32::from_gray(28));
    draw_grid(&painter, rect, state.camera);
    draw_nodes(ui.ctx(), &painter, rect, editor, state);
    if editor.view().shows(ViewOption::Shear) {
        draw_shear_overlay(&painter, rect, state.camera, scene);
    }
    if let Some(preview) = preview {
        draw_ghosts(&painter, rect, state.camera, scene, preview);
    }
    // The matrix-chain factor under the pointer in the inspector, and the node under the pointer.
    if let Some(id) = highlight {
        outline_node(
            &painter,
            rect,
            state.camera,
            scene,
            id,
            Stroke::new(3.0, Color32::from_rgb(80, 220, 255)),
        );
    }
    if let Some(id) = state.hovered.filter(|id| !selection.contains(id)) {
        outline_node(
            &painter,
            rect,
            state.camera,
            scene,
            id,
            Stroke::new(1.5, Color32::from_white_alpha(180)),
        );
    }
    draw_flash(ui, &painter, rect, editor, state);
    if let Some(start) = state.box_start
        && let Some(now) = ui.ctx().pointer_latest_pos()
    {
        let band = Rect::from_two_pos(start, now);
        painter.rect_filled(
            band,
            0.0,
            Color32::from_rgba_unmultiplied(120, 170, 255, 30),
        );
        painter.rect_stroke(
            band,
            0.0,
            Stroke::new(1.0, Color32::from_rgb(120, 170, 255)),
            egui::StrokeKind::Inside,
        );
    }
    if let Some(note) = state.camera.precision_note() {
        let at = rect.left_top() + egui::vec2(8.0, 8.0);
        let font = egui::FontId::proportional(12.0);
        let color = Color32::from_rgb(255, 200, 90);
        draw::label(&painter, at, egui::Align2::LEFT_TOP, note, &font, color);
    }
    let frame = Frame {
        ui,
        response: &response,
        rect,
        editor,
    };
    handle_tools(&frame, &painter, state, &mut out);
    if state.handle_drag.is_none() {
        interact(&frame, state, &mut out);
    }
    out
}

/// What the viewport's input handlers read this frame.
struct Frame<'a> {
    ui: &'a egui::Ui,
    response: &'a egui::Response,
    rect: Rect,
    editor: &'a Editor,
}

/// The viewport's toolbar: handle tool and orientation (the same commands as W / E / R / X).
fn toolbar(ui: &mut egui::Ui, editor: &Editor, out: &mut Vec<Command>) {
    use crate::editor::handles::Orientation;
    ui.horizontal(|ui| {
        for (tool, text) in [
            (Tool::Move, "Move (W)"),
            (Tool::Rotate, "Rotate (E)"),
            (Tool::Scale, "Scale (R)"),
        ] {
            if ui.selectable_label(editor.tool() == tool, text).clicked() {
                out.push(Command::SetTool(tool));
            }
        }
        ui.separator();
        let local = editor.orientation() == Orientation::Local;
        if ui
            .selectable_label(local, "Local")
            .on_hover_text("Handles follow the node's own world axes (X switches)")
            .clicked()
        {
            out.push(Command::SetOrientation(Orientation::Local));
        }
        if ui
            .selectable_label(!local, "World")
            .on_hover_text(
                "Handles follow the world's x and y; scaling a rotated node along them shears it",
            )
            .clicked()
        {
            out.push(Command::SetOrientation(Orientation::World));
        }
        ui.separator();
        ui.weak("Ctrl snaps: grid, 15°, 0.1");
    });
}

/// The move / rotate / scale handles of the primary selection: W / E / R keys, drawing, and
/// dragging them (one undo step per drag).
fn handle_tools(
    frame: &Frame,
    painter: &egui::Painter,
    state: &mut ViewportState,
    out: &mut Vec<Command>,
) {
    let Frame {
        ui,
        response,
        rect,
        editor,
    } = *frame;
    let scene = editor.doc().scene();
    let tool = editor.tool();
    let Some(&node) = editor.selection().last() else {
        state.handle_drag = None;
        return;
    };
    let (Ok(world), Ok(data)) = (scene.world(node), scene.node(node)) else {
        return;
    };
    let axes = handles::handle_axes(&world, editor.orientation());
    let hover = response
        .hover_pos()
        .and_then(|p| handles::pick(tool, state.camera, sr(rect), &world, axes, v2(p)));
    let hot = state.handle_drag.as_ref().map(|d| d.part).or(hover);
    draw_handles(painter, tool, state.camera, rect, &world, axes, hot);
    if response.drag_started_by(egui::PointerButton::Primary)
        && let Some(press) = ui.input(|i| i.pointer.press_origin())
        && let Some(part) = handles::pick(tool, state.camera, sr(rect), &world, axes, v2(press))
    {
        state.handle_drag = Some(HandleDrag {
            part,
            node,
            start_pointer: state.camera.to_world(sr(rect), v2(press)),
            start_world: world,
            start_local: data.local,
            axes,
            orientation: editor.orientation(),
        });
    }
    let Some(drag) = &state.handle_drag else {
        return;
    };
    if response.dragged_by(egui::PointerButton::Primary)
        && let Some(p) = response.interact_pointer_pos()
    {
        let snapping = ui.input(|i| i.modifiers.command);
        let pointer = state.camera.to_world(sr(rect), v2(p));
        if pointer != drag.start_pointer
            && let Some(op) =
                handles::drag_op(tool, drag, pointer, snapping, grid_step(state.camera.zoom))
        {
            let verb = match tool {
                Tool::Move => "Move",
                Tool::Rotate => "Rotate",
                Tool::Scale => "Scale",
            };
            out.push(Command::Perform {
                label: format!("{verb} {}", data.name),
                ops: vec![op],
                continuous: true,
            });
        }
    }
    if response.drag_stopped() || !response.dragged() {
        state.handle_drag = None;
        out.push(Command::EndGesture);
    }
}

/// How long recomputed nodes stay lit (seconds).
const FLASH_SECONDS: f64 = 0.4;
/// Lit nodes drawn at most.
const FLASH_LIMIT: usize = 20_000;

/// With "Flash recomputed world matrices" on: light up the nodes the last update recomputed.
fn draw_flash(
    ui: &egui::Ui,
    painter: &egui::Painter,
    rect: Rect,
    editor: &Editor,
    state: &mut ViewportState,
) {
    let scene = editor.doc().scene();
    if !editor.view().shows(ViewOption::Recomputed) {
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
    let color = Color32::from_rgba_unmultiplied(90, 255, 200, alpha);
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

fn navigate(ui: &egui::Ui, response: &egui::Response, rect: Rect, state: &mut ViewportState) {
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    let panning = response.dragged_by(egui::PointerButton::Middle)
        || (space && response.dragged_by(egui::PointerButton::Primary));
    if panning {
        state
            .camera
            .pan_pixels(sr(rect), v2(response.drag_delta().to_pos2()));
    }
    if response.hovered() {
        let (scroll, zoom, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta.y,
                i.zoom_delta(),
                i.pointer.hover_pos(),
            )
        });
        let factor = zoom as f64 * (scroll as f64 * 0.002).exp();
        if factor != 1.0
            && let Some(p) = pointer
        {
            state.camera.zoom_around(sr(rect), v2(p), factor);
        }
    }
    // The limits depend on where the view is (f32 precision there) and on its size.
    state.camera.clamp_zoom(sr(rect));
}

fn interact(frame: &Frame, state: &mut ViewportState, out: &mut Vec<Command>) {
    let Frame {
        ui,
        response,
        rect,
        editor,
    } = *frame;
    let scene = editor.doc().scene();
    let selection = editor.selection();
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    let modifiers = ui.input(|i| i.modifiers);
    let radius = 6.0; // pixels around an origin that grab it
    let view = sr(rect);
    // Hover: hit-test only when the pointer moved (a test is a pass over every node).
    let pointer = response.hover_pos();
    state.pointer_world = pointer.map(|p| state.camera.to_world(view, v2(p)));
    if pointer != state.hover_probe {
        state.hover_probe = pointer;
        state.hovered = pointer.and_then(|p| hit_test(scene, state.camera, view, v2(p), radius));
    }
    if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        let hit = hit_test(scene, state.camera, view, v2(p), radius);
        match hit {
            Some(id) if modifiers.command || modifiers.shift => out.push(Command::ToggleSelect(id)),
            Some(id) => out.push(Command::Select(vec![id])),
            None if !(modifiers.command || modifiers.shift) => {
                out.push(Command::Select(Vec::new()))
            }
            None => {}
        }
    }
    // egui reports a drag once the pointer has moved a few pixels: measure from where the
    // button went down, so the node follows the pointer exactly.
    if response.drag_started_by(egui::PointerButton::Primary)
        && !space
        && let Some(p) = ui
            .input(|i| i.pointer.press_origin())
            .or(response.interact_pointer_pos())
    {
        let world_p = state.camera.to_world(view, v2(p));
        let hit = hit_test(scene, state.camera, view, v2(p), radius);
        let moving: Vec<NodeId> = match hit {
            Some(id) if selection.contains(&id) => selection.to_vec(),
            Some(id) => {
                out.push(Command::Select(vec![id]));
                vec![id]
            }
            None => {
                state.box_start = Some(p); // empty space: rubber-band selection
                Vec::new()
            }
        };
        // Move only the topmost selected nodes: children follow their parents.
        let roots = scene.topmost(&moving);
        if !roots.is_empty() {
            state.drag = Some(MoveDrag {
                start_pointer: world_p,
                starts: roots
                    .iter()
                    .filter_map(|&id| scene.world(id).ok().map(|w| (id, w.translation)))
                    .collect(),
            });
        }
    }
    if let Some(start) = state.box_start
        && (response.drag_stopped() || !response.dragged())
    {
        state.box_start = None;
        if let Some(end) = response
            .interact_pointer_pos()
            .or(ui.ctx().pointer_latest_pos())
        {
            let band = Rect::from_two_pos(start, end);
            let mut picked: Vec<NodeId> = if modifiers.command || modifiers.shift {
                selection.to_vec()
            } else {
                Vec::new()
            };
            let mut seen: rustc_hash::FxHashSet<NodeId> = picked.iter().copied().collect();
            for i in 0..scene.len() {
                let id = scene.id_at(i);
                if band.contains(p2(state
                    .camera
                    .to_screen(view, scene.world_at(i).translation)))
                    && seen.insert(id)
                {
                    picked.push(id);
                }
            }
            out.push(Command::Select(picked));
        }
    }
    if let Some(drag) = &state.drag {
        if response.dragged_by(egui::PointerButton::Primary)
            && let Some(p) = response.interact_pointer_pos()
        {
            // Measured in f64 from where the button went down: exact far from the origin.
            let mut delta = state.camera.to_world(view, v2(p)) - drag.start_pointer;
            // Ctrl snaps the first node's world position to the grid; the others keep their offsets.
            if modifiers.command
                && let Some(&(_, first)) = drag.starts.first()
            {
                let step = grid_step(state.camera.zoom);
                let target = first.as_dvec2() + delta;
                let snapped = DVec2::new(
                    handles::snap64(target.x, step),
                    handles::snap64(target.y, step),
                );
                delta = snapped - first.as_dvec2();
            }
            let ops: Vec<Op> = drag
                .starts
                .iter()
                .map(|&(node, start)| Op::SetWorldPosition {
                    node,
                    position: (start.as_dvec2() + delta).as_vec2(),
                })
                .collect();
            let label = match drag.starts.as_slice() {
                [(id, _)] => format!(
                    "Move {}",
                    scene.node(*id).map(|d| d.name.as_str()).unwrap_or("node")
                ),
                many => format!("Move {} nodes", many.len()),
            };
            if delta != DVec2::ZERO {
                out.push(Command::Perform {
                    label,
                    ops,
                    continuous: true,
                });
            }
        }
        if response.drag_stopped() || !response.dragged() {
            state.drag = None;
            out.push(Command::EndGesture);
        }
    }
}
