//! Painting coordinate spaces: the selection's own grid and its parent's, as
//! `crate::editor::view::spaces::local_grid` computes them.

use super::prim_shapes::c32;
use super::screen::{p2, sr};
use super::state::Frame;
use crate::editor::session::command::ViewOption;
use crate::editor::view::palette;
use crate::editor::view::spaces::{LocalGrid, local_grid};
use egui::{Color32, Stroke};
use glam::{Affine2, Vec2};

/// The local grid of the primary selection (cyan) and of its parent (magenta), when shown.
pub(super) fn paint_spaces(
    frame: &Frame,
    painter: &egui::Painter,
    camera: crate::editor::view::camera::Camera,
) {
    let editor = frame.editor;
    let scene = editor.doc().scene();
    let Some(id) = editor.primary() else {
        return;
    };
    let view = editor.view();
    if view.shows(ViewOption::ParentGrid) {
        let parent = scene.parent(id).ok().flatten();
        let world = parent
            .and_then(|p| scene.world(p).ok())
            .unwrap_or(Affine2::IDENTITY);
        let name = parent
            .and_then(|p| scene.node(p).ok())
            .map_or("world".to_string(), |d| d.name.to_string());
        let grid = local_grid(camera, sr(frame.rect), &world);
        paint_grid(painter, &grid, c32(palette::PARENT_GRID), &name);
    }
    if view.shows(ViewOption::LocalGrid)
        && let (Ok(world), Ok(data)) = (scene.world(id), scene.node(id))
    {
        let grid = local_grid(camera, sr(frame.rect), &world);
        paint_grid(painter, &grid, c32(palette::LOCAL_GRID), &data.name);
    }
}

/// One space's grid: faint unit lines, its two axes, tick labels, the unit square filled
/// faintly and named; or a note where a singular space has no grid.
fn paint_grid(painter: &egui::Painter, grid: &LocalGrid, color: Color32, name: &str) {
    let font = egui::FontId::proportional(10.0);
    match grid {
        LocalGrid::Singular { origin } => {
            let text = format!("{name}: singular (a zero scale): no grid");
            super::draw::label(
                painter,
                p2(*origin) + egui::vec2(8.0, 8.0),
                egui::Align2::LEFT_TOP,
                text,
                &font,
                color,
            );
        }
        LocalGrid::Lines {
            lines,
            axes,
            ticks,
            unit_square,
            step,
        } => {
            let faint = color.gamma_multiply(0.35);
            if unit_square.len() > 2 {
                painter.add(egui::Shape::convex_polygon(
                    unit_square.iter().map(|p| p2(*p)).collect(),
                    color.gamma_multiply(0.12),
                    Stroke::new(1.0, faint),
                ));
            }
            for (a, b, _) in lines.iter().flatten() {
                painter.line_segment([p2(*a), p2(*b)], Stroke::new(1.0, faint));
            }
            for (a, b) in axes.iter().flatten() {
                painter.line_segment([p2(*a), p2(*b)], Stroke::new(2.0, color));
            }
            let corner = unit_square.first().copied();
            paint_labels(painter, ticks, corner, *step, &font, color, name);
        }
    }
}

/// A grid's tick labels, and its space's name by the unit square's first corner.
fn paint_labels(
    painter: &egui::Painter,
    ticks: &[(Vec2, String)],
    corner: Option<Vec2>,
    step: f64,
    font: &egui::FontId,
    color: Color32,
    name: &str,
) {
    for (at, text) in ticks {
        painter.text(
            p2(*at) + egui::vec2(3.0, 2.0),
            egui::Align2::LEFT_TOP,
            text,
            font.clone(),
            color,
        );
    }
    if let Some(corner) = corner {
        let text = if step == 1.0 {
            format!("{name}'s space")
        } else {
            format!("{name}'s space (lines every {step})")
        };
        painter.text(
            p2(corner) + egui::vec2(4.0, -14.0),
            egui::Align2::LEFT_BOTTOM,
            text,
            font.clone(),
            color,
        );
    }
}
