//! The trails and the two comparison ghosts as primitives: what the viewport paints and a
//! figure writes, from the marks `trails.rs` places, in the palette's colours.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::palette;
use crate::editor::view::primitives::Prim;
use crate::editor::view::trails::{
    LABEL_OFFSET, accumulated_marks, tick_label, trails, world_blend_marks,
};
use crate::model::scene::{NodeId, Scene};
use glam::Vec2;
use std::borrow::Cow;

/// Tick labels' and notes' font size (px).
pub const NOTE_SIZE: f32 = 10.0;
/// A tick label's box height (px), as the trails keep labels apart.
const LABEL_HEIGHT: f32 = 11.0;
/// A text's baseline below the top of its box (px).
const BASELINE: f32 = 9.0;
/// A trail's time tick (px).
const TICK_RADIUS: f32 = 2.5;

/// The selection's trails over the clip: the path of each world origin, its time ticks and
/// the tick labels that do not overlap, measured by `text_width`.
pub fn trail_prims(
    scene: &Scene,
    selection: &[NodeId],
    (camera, rect): (Camera, ScreenRect),
    text_width: &dyn Fn(&str, f32) -> f32,
    out: &mut Vec<Prim<'static>>,
) {
    let widest = tick_label(scene.clip().length);
    let label_size = Vec2::new(text_width(&widest, NOTE_SIZE), LABEL_HEIGHT);
    let color = palette::TRAIL;
    for trail in trails(scene, selection, camera, rect, label_size) {
        out.push(Prim::Path {
            points: Cow::Owned(trail.points),
            width: 1.5,
            color,
            dash: None,
        });
        for tick in trail.ticks {
            out.push(Prim::Circle {
                center: tick.at,
                radius: TICK_RADIUS,
                width: 0.0,
                color,
            });
            if let Some(label) = tick.label {
                out.push(note(tick.at + LABEL_OFFSET, label, color));
            }
        }
    }
}

/// "Composition side by side": each node's accumulated-TRS ghost (dashed), its origin, a line
/// to its true place and how far off it is.
pub fn accumulated_prims(
    scene: &Scene,
    (camera, rect): (Camera, ScreenRect),
    out: &mut Vec<Prim<'static>>,
) {
    let color = palette::GHOST;
    for mark in accumulated_marks(scene, camera, rect) {
        if !mark.outline.is_empty() {
            out.push(Prim::Path {
                points: Cow::Owned(mark.outline),
                width: 1.5,
                color,
                dash: Some((5.0, 4.0)),
            });
        }
        out.push(Prim::Circle {
            center: mark.origin,
            radius: 3.5,
            width: 1.5,
            color,
        });
        if let Some(true_origin) = mark.link {
            out.push(Prim::Line {
                a: mark.origin,
                b: true_origin,
                width: 1.0,
                color,
            });
        }
        if let Some(text) = mark.note {
            out.push(note(mark.origin + Vec2::new(6.0, 4.0), text, color));
        }
    }
}

/// "Interpolated world matrices": where blending each animated node's keyed world matrices
/// puts it at `time` (a dashed outline and its axes).
pub fn blend_prims(
    scene: &Scene,
    time: f32,
    (camera, rect): (Camera, ScreenRect),
    out: &mut Vec<Prim<'static>>,
) {
    let color = palette::BLEND;
    for mark in world_blend_marks(scene, time, camera, rect) {
        if !mark.outline.is_empty() {
            out.push(Prim::Path {
                points: Cow::Owned(mark.outline),
                width: 1.5,
                color,
                dash: Some((4.0, 3.0)),
            });
        }
        for tip in mark.axes {
            out.push(Prim::Line {
                a: mark.origin,
                b: tip,
                width: 1.0,
                color,
            });
        }
    }
}

/// A small note whose box's top left corner is `top_left`.
fn note(top_left: Vec2, text: String, color: palette::Rgba) -> Prim<'static> {
    Prim::Text {
        at: top_left + Vec2::new(0.0, BASELINE),
        size: NOTE_SIZE,
        color,
        text: Cow::Owned(text),
        halo: None,
    }
}
