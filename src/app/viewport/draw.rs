//! Viewport painting: the frame's primitives (`editor::view::primitives`: the grid, the node
//! layer's marks and names, the shear overlay, the same a figure writes) as egui shapes, and the
//! viewport's own drag ghosts and handles. Colours come from `editor::view::palette`.

use super::painted::{GridKey, Painted, ShearKey};
use super::prim_shapes::{c32, closed_shape, prim_shapes};
use super::screen::{p2, sr};
use crate::editor::session::drop_rules::{DropPreview, DropVerdict};
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{ScreenShape, world_f64};
use crate::editor::view::handles::{HANDLE_PX, Part, Tool};
use crate::editor::view::overlay::{ghost_worlds, shear_overlay_among};
use crate::editor::view::palette::{self, Rgba};
use crate::editor::view::primitives::{Prim, arrow_prims, grid_prims, shear_prims};
use crate::model::scene::{Keep, NodeId, Scene};
use egui::{Color32, Pos2, Rect, Stroke};
use glam::{Affine2, DVec2, Vec2};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// The width of `text` at `size` px in egui's proportional font: what names, labels and notes
/// are measured with, so that what is kept apart is what egui draws. Widths are remembered
/// (per size and scale): a frame that plans a thousand names again — a drag, playback — looks
/// each up instead of laying it out (a layout is a lock, an allocation and a galley lookup).
pub(super) fn text_width(ctx: &egui::Context) -> impl Fn(&str, f32) -> f32 + '_ {
    let cache = ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Arc<Mutex<TextWidths>>>(egui::Id::unique("graft-text-widths"))
            .clone()
    });
    let scale = ctx.pixels_per_point();
    move |text, size| {
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.width(text, size, scale, |text, size| {
            let font = egui::FontId::proportional(size);
            ctx.fonts_mut(|f| f.layout_no_wrap(text.to_owned(), font, Color32::WHITE))
                .size()
                .x
        })
    }
}

/// Measured text widths by size, for one UI scale; dropped whole when the scale changes or it
/// holds too many.
#[derive(Default)]
struct TextWidths {
    scale: f32,
    by_size: FxHashMap<u32, FxHashMap<String, f32>>,
    count: usize,
}

impl TextWidths {
    /// The most widths kept: a frame measures names until 500 are placed (`NAME_LIMIT`), so
    /// this keeps many frames' worth while panning a million-node scene stays near 1 MB.
    const MOST: usize = 20_000;

    fn width(
        &mut self,
        text: &str,
        size: f32,
        scale: f32,
        measure: impl Fn(&str, f32) -> f32,
    ) -> f32 {
        if self.scale != scale || self.count >= Self::MOST {
            *self = Self {
                scale,
                ..Self::default()
            };
        }
        let widths = self.by_size.entry(size.to_bits()).or_default();
        if let Some(&w) = widths.get(text) {
            return w;
        }
        let w = measure(text, size);
        widths.insert(text.to_owned(), w);
        self.count += 1;
        w
    }
}

/// Paint primitives (none of them bodies or density images).
fn paint_prims(painter: &egui::Painter, prims: &[Prim]) {
    let mut shapes = Vec::with_capacity(prims.len());
    for prim in prims {
        prim_shapes(painter.ctx(), prim, &mut shapes);
    }
    painter.extend(shapes);
}

fn arrow(painter: &egui::Painter, rect: ScreenRect, from: DVec2, to: DVec2, stroke: Stroke) {
    let mut prims = Vec::new();
    let [r, g, b, a] = stroke.color.to_srgba_unmultiplied();
    arrow_prims(
        rect,
        (from, to),
        stroke.width,
        Rgba([r, g, b, a]),
        &mut prims,
    );
    paint_prims(painter, &prims);
}

fn closed(painter: &egui::Painter, outline: &[Vec2], stroke: Stroke) {
    if let Some(shape) = closed_shape(outline, stroke) {
        painter.add(shape);
    }
}

/// The grid, its labels (kept apart by their measured widths, as in figures) and the world
/// axes, into `grid` (made again only when the camera, viewport or scale changed).
pub(super) fn draw_grid(painter: &egui::Painter, view: GridKey, grid: &mut Painted<GridKey>) {
    grid.paint(painter, view, |_, prims| {
        grid_prims(
            view.camera,
            sr(view.rect),
            &text_width(painter.ctx()),
            prims,
        );
    });
}

/// Outline one node (its shape) and ring its origin.
pub(super) fn outline_node(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    id: NodeId,
    stroke: Stroke,
) {
    let (Ok(i), Ok(world)) = (scene.index(id), scene.world(id)) else {
        return;
    };
    if world_f64(&world).is_none() {
        return;
    }
    let m = camera.node_to_screen_f64(sr(rect), &world);
    let mut shape = ScreenShape::new();
    shape.compute(&scene.data_at(i).shape, &m, sr(rect));
    closed(painter, &shape.outline, stroke);
    if rect.expand(20.0).contains(p2(m.translation.as_vec2())) {
        painter.circle_stroke(p2(m.translation.as_vec2()), 8.0, stroke);
    }
}

/// The ghosts of a hierarchy drag: where the dragged nodes land with the chosen setting (bright)
/// and with the other (faint), with arrows for the nodes that would jump.
pub(super) fn draw_ghosts(
    painter: &egui::Painter,
    rect: Rect,
    camera: Camera,
    scene: &Scene,
    preview: &DropPreview,
) {
    let DropVerdict::Allowed { parent, .. } = preview.verdict else {
        return;
    };
    let view = sr(rect);
    let mut shape = ScreenShape::new();
    for (keep, alpha) in [(preview.keep, 200u8), (preview.keep.other(), 70u8)] {
        let color = if keep == preview.keep {
            c32(palette::DROP_CHOSEN.alpha(alpha))
        } else {
            c32(palette::DROP_OTHER.alpha(alpha))
        };
        for (i, world) in ghost_worlds(scene, &preview.dragged, parent, keep) {
            if world_f64(&world).is_none() {
                continue;
            }
            let m = camera.node_to_screen_f64(view, &world);
            shape.compute(&scene.data_at(i).shape, &m, view);
            closed(painter, &shape.outline, Stroke::new(2.0, color));
            let origin = m.translation;
            if rect.expand(10.0).contains(p2(origin.as_vec2())) {
                painter.circle_stroke(p2(origin.as_vec2()), 4.0, Stroke::new(1.5, color));
            }
            if keep == Keep::Local && preview.dragged.contains(&scene.id_at(i)) {
                let from = camera.to_screen_f64(view, scene.world_at(i).translation.as_dvec2());
                arrow(painter, view, from, origin, Stroke::new(1.0, color));
            }
        }
    }
}

/// The shear warning overlay for the nodes on screen (the marks `crate::editor::view::overlay`
/// computes, drawn as `primitives::shear_prims` has them, as figures do): outline, world-axes
/// parallelogram and the angle off 90°; the parents that cause it get a ring and a note. Only
/// the candidates the drawing pass found big enough on screen are looked at; into `shear`
/// (made again only when its key changed).
pub(super) fn draw_shear_overlay(
    painter: &egui::Painter,
    scene: &Scene,
    key: ShearKey,
    shear: &mut Painted<ShearKey>,
) {
    shear.paint(painter, key, |key, prims| {
        let (camera, rect) = (key.view.camera, sr(key.view.rect));
        let candidates = key.candidates.iter().copied();
        let overlay = shear_overlay_among(scene, camera, rect, candidates);
        shear_prims(&overlay, rect, &text_width(painter.ctx()), prims);
    });
}

/// Text on a dark plate, so it stays readable over any shape.
pub(super) fn label(
    painter: &egui::Painter,
    at: Pos2,
    align: egui::Align2,
    text: String,
    font: &egui::FontId,
    color: Color32,
) {
    let galley = painter.layout_no_wrap(text, font.clone(), color);
    let rect = align.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, c32(palette::NOTE_PLATE));
    painter.galley(rect.min, galley, color);
}

/// Draw the handles of `tool` for a node with this world matrix.
pub(super) fn draw_handles(
    painter: &egui::Painter,
    tool: Tool,
    camera: Camera,
    rect: Rect,
    world: &Affine2,
    axes: (Vec2, Vec2),
    hot: Option<Part>,
) {
    let origin = p2(camera.to_screen(sr(rect), world.translation));
    if !rect.expand(HANDLE_PX).contains(origin) {
        return;
    }
    let width = |part: Part| if hot == Some(part) { 3.5 } else { 2.0 };
    let (red, green) = (c32(palette::HANDLE_X), c32(palette::HANDLE_Y));
    let blue = c32(palette::HANDLE_CENTER);
    let dir = |axis: Vec2| {
        let d = camera.dir_to_screen(axis);
        egui::vec2(d.x, d.y) * HANDLE_PX
    };
    if tool != Tool::Rotate {
        // The centre square: free move, or uniform scale.
        let square = Rect::from_center_size(origin, egui::vec2(12.0, 12.0));
        let stroke = Stroke::new(width(Part::Center), blue);
        painter.rect_stroke(square, 0.0, stroke, egui::StrokeKind::Middle);
    }
    match tool {
        Tool::Move => {
            painter.arrow(origin, dir(axes.0), Stroke::new(width(Part::AxisX), red));
            painter.arrow(origin, dir(axes.1), Stroke::new(width(Part::AxisY), green));
        }
        Tool::Rotate => {
            painter.circle_stroke(origin, HANDLE_PX, Stroke::new(width(Part::Ring), blue));
        }
        Tool::Scale => {
            for (axis, part, color) in [(axes.0, Part::AxisX, red), (axes.1, Part::AxisY, green)] {
                let end = origin + dir(axis);
                painter.line_segment([origin, end], Stroke::new(width(part), color));
                let square = Rect::from_center_size(end, egui::vec2(10.0, 10.0));
                painter.rect_filled(square, 0.0, color);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TextWidths;
    use std::cell::Cell;

    #[test]
    fn a_width_is_measured_once_per_text_size_and_scale_and_the_cache_stays_bounded() {
        let calls = Cell::new(0);
        let measure = |text: &str, size: f32| {
            calls.set(calls.get() + 1);
            text.len() as f32 * size
        };
        let mut widths = TextWidths::default();
        assert_eq!(widths.width("sword", 10.0, 1.0, measure), 50.0);
        assert_eq!(widths.width("sword", 10.0, 1.0, measure), 50.0);
        assert_eq!(calls.get(), 1, "the second is remembered");
        widths.width("sword", 12.0, 1.0, measure);
        widths.width("sword", 10.0, 1.5, measure);
        assert_eq!(
            calls.get(),
            3,
            "another size and another scale are measured"
        );
        for k in 0..TextWidths::MOST + 10 {
            widths.width(&k.to_string(), 10.0, 1.5, measure);
        }
        assert!(widths.count <= TextWidths::MOST, "{}", widths.count);
    }
}
