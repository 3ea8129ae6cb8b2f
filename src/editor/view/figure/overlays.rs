//! The figure's trails and ghosts (composition and world-blend): the marks `editor/view/trails.rs` places for the
//! viewport, written as SVG.

use super::{colors, text};
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::model::scene::{NodeId, Scene};
use crate::model::svg::export::coord;
use glam::{DVec2, Vec2};
use std::fmt::Write as _;

/// The selection's trails over the clip: the path of each world origin, its time ticks and the
/// tick labels that do not overlap (the viewport's rule, `editor/view/trails.rs`).
pub(super) fn trails_layer(
    out: &mut String,
    scene: &Scene,
    selection: &[NodeId],
    (camera, rect): (Camera, ScreenRect),
) {
    use crate::editor::view::trails::{LABEL_OFFSET, trails};
    let widest = crate::editor::view::trails::tick_label(scene.clip().length);
    // Measured with the figure's font, as the viewport measures it with egui's.
    let label_size = Vec2::new(super::font::text_width(&widest, 10.0), 11.0);
    for trail in trails(scene, selection, camera, rect, label_size) {
        let points: Vec<String> = trail
            .points
            .iter()
            .map(|p| format!("{},{}", coord(p.x as f64), coord(p.y as f64)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" {} stroke-width=\"1.5\"/>",
            points.join(" "),
            super::paint("stroke", colors::TRAIL)
        );
        for tick in &trail.ticks {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"2\" {}/>",
                coord(tick.at.x as f64),
                coord(tick.at.y as f64),
                super::paint("fill", colors::TRAIL)
            );
            if let Some(label) = &tick.label {
                let at = (tick.at + LABEL_OFFSET).as_dvec2() + DVec2::new(0.0, 9.0);
                text(out, at, 10.0, colors::TRAIL, label);
            }
        }
    }
}

/// The accumulated-TRS ghosts as the viewport draws them: a dashed outline, the ghost's origin,
/// a line to the true one and how far off it is.
pub(super) fn ghosts_layer(out: &mut String, scene: &Scene, (camera, rect): (Camera, ScreenRect)) {
    let pt = |p: Vec2| format!("{},{}", coord(p.x as f64), coord(p.y as f64));
    for mark in crate::editor::view::trails::accumulated_marks(scene, camera, rect) {
        if !mark.outline.is_empty() {
            let points: Vec<String> = mark.outline.iter().map(|p| pt(*p)).collect();
            let _ = writeln!(
                out,
                "<polyline points=\"{}\" fill=\"none\" {} stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>",
                points.join(" "),
                super::paint("stroke", colors::GHOST)
            );
        }
        let o = mark.origin;
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"none\" {} stroke-width=\"1.5\"/>",
            coord(o.x as f64),
            coord(o.y as f64),
            super::paint("stroke", colors::GHOST)
        );
        if let Some(t) = mark.link {
            let _ = writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {} stroke-width=\"1\"/>",
                coord(o.x as f64),
                coord(o.y as f64),
                coord(t.x as f64),
                coord(t.y as f64),
                super::paint("stroke", colors::GHOST)
            );
        }
        if let Some(note) = &mark.note {
            text(
                out,
                (o + Vec2::new(6.0, 14.0)).as_dvec2(),
                10.0,
                colors::GHOST,
                note,
            );
        }
    }
}

/// Where blending each animated node's keyed world matrices would put it at `time` (the
/// viewport's "Interpolated world matrices" ghosts): a dashed outline and its axes.
pub(super) fn blend_ghosts_layer(
    out: &mut String,
    scene: &Scene,
    time: f32,
    (camera, rect): (Camera, ScreenRect),
) {
    let pt = |p: Vec2| format!("{},{}", coord(p.x as f64), coord(p.y as f64));
    for mark in crate::editor::view::trails::world_blend_marks(scene, time, camera, rect) {
        if !mark.outline.is_empty() {
            let points: Vec<String> = mark.outline.iter().map(|p| pt(*p)).collect();
            let _ = writeln!(
                out,
                "<polyline points=\"{}\" fill=\"none\" {} stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
                points.join(" "),
                super::paint("stroke", colors::BLEND)
            );
        }
        for tip in mark.axes {
            let _ = writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {} stroke-width=\"1\"/>",
                coord(mark.origin.x as f64),
                coord(mark.origin.y as f64),
                coord(tip.x as f64),
                coord(tip.y as f64),
                super::paint("stroke", colors::BLEND)
            );
        }
    }
}
