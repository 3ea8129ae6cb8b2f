//! A lesson's prediction next to the result, as primitives the viewport paints and a figure
//! writes: a dashed ghost where the learner predicted, an arrow to the true place (or, for an
//! angle, a dashed ray, the true ray and an arc between them) and how far off it was.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::overlay_prims::NOTE_SIZE;
use crate::editor::view::palette;
use crate::editor::view::primitives::Prim;
use glam::Vec2;
use std::borrow::Cow;

/// A prediction and the result, in world units.
#[derive(Clone, Debug, PartialEq)]
pub enum PredictionMark {
    /// A predicted point and the true one.
    Point {
        /// Where the learner predicted.
        predicted: Vec2,
        /// Where it is.
        truth: Vec2,
        /// How far off, as text.
        note: String,
    },
    /// A predicted direction and the true one from an origin (degrees, counter-clockwise).
    Angle {
        /// Where both rays start.
        origin: Vec2,
        /// The predicted direction.
        predicted: f32,
        /// The true direction.
        truth: f32,
        /// How far off, as text.
        note: String,
    },
}

/// The ghost's radius and a ray's length (px).
const GHOST_RADIUS: f32 = 9.0;
const RAY: f32 = 110.0;

/// The mark's primitives (screen pixels).
pub fn prediction_prims(
    mark: &PredictionMark,
    (camera, rect): (Camera, ScreenRect),
    out: &mut Vec<Prim<'static>>,
) {
    match mark {
        PredictionMark::Point {
            predicted,
            truth,
            note,
        } => {
            let (p, t) = (
                camera.to_screen(rect, *predicted),
                camera.to_screen(rect, *truth),
            );
            point_prims(p, t, note, out);
        }
        PredictionMark::Angle {
            origin,
            predicted,
            truth,
            note,
        } => angle_prims(
            camera.to_screen(rect, *origin),
            (*predicted, *truth),
            note,
            out,
        ),
    }
}

/// A dashed ghost with a cross at `p`, an arrow to the true place `t` and the note.
fn point_prims(p: Vec2, t: Vec2, note: &str, out: &mut Vec<Prim<'static>>) {
    let color = palette::PREDICTION;
    out.push(Prim::Path {
        points: Cow::Owned(circle(p, GHOST_RADIUS)),
        width: 2.0,
        color,
        dash: Some((4.0, 3.0)),
    });
    cross(p, color, out);
    if p.distance(t) > GHOST_RADIUS + 4.0 {
        arrow(p + (t - p).normalize() * GHOST_RADIUS, t, color, out);
    }
    out.push(Prim::Circle {
        center: t,
        radius: 5.0,
        width: 2.0,
        color: palette::DOT,
    });
    label((p + t) * 0.5 + Vec2::new(8.0, -8.0), note, out);
}

/// From `o`: the predicted direction dashed, the true one as an arrow, an arc between them.
fn angle_prims(o: Vec2, (predicted, truth): (f32, f32), note: &str, out: &mut Vec<Prim<'static>>) {
    let color = palette::PREDICTION;
    // Screen y points down: a counter-clockwise world angle turns the other way.
    let dir = |deg: f32| {
        let r = deg.to_radians();
        Vec2::new(r.cos(), -r.sin())
    };
    out.push(Prim::Path {
        points: Cow::Owned(vec![o, o + dir(predicted) * RAY]),
        width: 2.0,
        color,
        dash: Some((6.0, 4.0)),
    });
    arrow(o, o + dir(truth) * RAY, palette::DOT, out);
    let arc: Vec<Vec2> = (0..=24)
        .map(|k| o + dir(predicted + (truth - predicted) * k as f32 / 24.0) * (RAY * 0.6))
        .collect();
    out.push(Prim::Path {
        points: Cow::Owned(arc),
        width: 1.5,
        color,
        dash: None,
    });
    label(o + dir(predicted) * RAY + Vec2::new(6.0, 0.0), note, out);
}

/// A closed polyline approximating a circle.
fn circle(c: Vec2, r: f32) -> Vec<Vec2> {
    (0..=24)
        .map(|k| {
            let a = k as f32 / 24.0 * std::f32::consts::TAU;
            c + Vec2::new(a.cos(), a.sin()) * r
        })
        .collect()
}

fn cross(p: Vec2, color: palette::Rgba, out: &mut Vec<Prim<'static>>) {
    for d in [Vec2::new(4.0, 4.0), Vec2::new(4.0, -4.0)] {
        out.push(Prim::Line {
            a: p - d,
            b: p + d,
            width: 1.5,
            color,
        });
    }
}

/// A line from `a` to `b` with a head at `b`.
fn arrow(a: Vec2, b: Vec2, color: palette::Rgba, out: &mut Vec<Prim<'static>>) {
    out.push(Prim::Line {
        a,
        b,
        width: 2.0,
        color,
    });
    let back = (a - b).normalize_or_zero() * 10.0;
    for turn in [0.45f32, -0.45] {
        let (s, c) = turn.sin_cos();
        let side = Vec2::new(back.x * c - back.y * s, back.x * s + back.y * c);
        out.push(Prim::Line {
            a: b,
            b: b + side,
            width: 2.0,
            color,
        });
    }
}

/// The note on a plate, its box's top left at `at`.
fn label(at: Vec2, text: &str, out: &mut Vec<Prim<'static>>) {
    let width = text.chars().count() as f32 * NOTE_SIZE * 0.6 + 6.0;
    out.push(Prim::Plate {
        min: at,
        max: at + Vec2::new(width, NOTE_SIZE + 5.0),
        color: palette::NOTE_PLATE,
    });
    out.push(Prim::Text {
        at: at + Vec2::new(3.0, NOTE_SIZE + 1.0),
        size: NOTE_SIZE,
        color: palette::PREDICTION,
        text: Cow::Owned(text.to_string()),
        halo: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> (Camera, ScreenRect) {
        let rect = ScreenRect {
            min: Vec2::ZERO,
            max: Vec2::new(400.0, 300.0),
        };
        (Camera::new(glam::DVec2::ZERO, 50.0), rect)
    }

    fn lines_and_paths(prims: &[Prim]) -> (usize, usize) {
        let lines = prims
            .iter()
            .filter(|p| matches!(p, Prim::Line { .. }))
            .count();
        let paths = prims
            .iter()
            .filter(|p| matches!(p, Prim::Path { .. }))
            .count();
        (lines, paths)
    }

    #[test]
    fn a_point_prediction_is_a_dashed_ghost_an_arrow_to_the_truth_and_the_distance() {
        let mark = |predicted: Vec2| PredictionMark::Point {
            predicted,
            truth: Vec2::new(1.0, 3.0),
            note: "1.41 off".into(),
        };
        let mut far = Vec::new();
        prediction_prims(&mark(Vec2::new(2.0, 4.0)), view(), &mut far);
        // The ghost's dashed circle, its cross (2 lines), the arrow (3 lines), the ring, the note.
        assert_eq!(lines_and_paths(&far), (5, 1));
        assert!(
            far.iter()
                .any(|p| matches!(p, Prim::Path { dash: Some(_), .. }))
        );
        assert!(
            far.iter()
                .any(|p| matches!(p, Prim::Text { text, .. } if text == "1.41 off"))
        );
        // The arrow ends on the true place.
        let truth = view().0.to_screen(view().1, Vec2::new(1.0, 3.0));
        assert!(
            far.iter()
                .any(|p| matches!(p, Prim::Line { b, .. } if b.distance(truth) < 1e-3))
        );
        // A prediction on the truth has no arrow: the ghost on the ring.
        let mut on = Vec::new();
        prediction_prims(&mark(Vec2::new(1.0, 3.0)), view(), &mut on);
        assert_eq!(lines_and_paths(&on), (2, 1));
    }

    #[test]
    fn an_angle_prediction_is_two_rays_and_the_arc_between() {
        let mark = PredictionMark::Angle {
            origin: Vec2::ZERO,
            predicted: 90.0,
            truth: 0.0,
            note: "90° off".into(),
        };
        let mut prims = Vec::new();
        prediction_prims(&mark, view(), &mut prims);
        // The predicted ray (dashed path), the arc (path), the true ray's arrow (3 lines).
        assert_eq!(lines_and_paths(&prims), (3, 2));
        let o = view().0.to_screen(view().1, Vec2::ZERO);
        // 90° points up on screen (y down), the truth to the right.
        let up = prims.iter().any(|p| {
            matches!(p, Prim::Path { points, dash: Some(_), .. } if (points[1] - o).y < -RAY + 1.0)
        });
        assert!(up, "the predicted ray points up");
    }
}
