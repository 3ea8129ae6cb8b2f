//! Arcs too large to flatten (found by `cargo fuzz run svg`): svgtypes cuts an arc into
//! cubics held in a buffer handed out from its front, so a huge radius takes minutes or never
//! ends. The path data is read once more, raw, and cut before the first such arc.

use glam::DVec2;
use std::borrow::Cow;
use std::fmt::Write as _;

/// An arc whose ellipse has a larger radius (after SVG's scale-up of radii too small to reach
/// its end point) ends the path like a syntax error. svgtypes cuts an arc into cubics at an
/// absolute tolerance of 0.1, about `(11·r)^(1/6)` of them per turn, all held in a buffer
/// handed out from its front: a radius of 1e41 took minutes, an infinite one never ended. At
/// this radius an arc is at most ~470 cubics.
const MAX_ARC_RADIUS: f64 = 1e15;

/// `d` itself, or (when it has an arc larger than [`MAX_ARC_RADIUS`]) the path data before that
/// arc and why it stops there.
pub(super) fn without_huge_arcs(d: &str) -> (Cow<'_, str>, Option<String>) {
    use svgtypes::{PathParser, PathSegment as Raw};
    let (mut at, mut start) = (DVec2::ZERO, DVec2::ZERO);
    let mut huge = None;
    for (k, segment) in PathParser::from(d).enumerate() {
        // A syntax error is reported by the simplifying parser.
        let Ok(segment) = segment else { break };
        let to = |abs: bool, x: f64, y: f64| {
            if abs {
                DVec2::new(x, y)
            } else {
                at + DVec2::new(x, y)
            }
        };
        at = match segment {
            Raw::MoveTo { abs, x, y } => {
                start = to(abs, x, y);
                start
            }
            Raw::LineTo { abs, x, y }
            | Raw::CurveTo { abs, x, y, .. }
            | Raw::SmoothCurveTo { abs, x, y, .. }
            | Raw::Quadratic { abs, x, y, .. }
            | Raw::SmoothQuadratic { abs, x, y } => to(abs, x, y),
            Raw::HorizontalLineTo { abs, x } => DVec2::new(if abs { x } else { at.x + x }, at.y),
            Raw::VerticalLineTo { abs, y } => DVec2::new(at.x, if abs { y } else { at.y + y }),
            Raw::EllipticalArc {
                abs,
                rx,
                ry,
                x_axis_rotation,
                x,
                y,
                ..
            } => {
                let end = to(abs, x, y);
                let r = arc_radius(at, end, rx, ry, x_axis_rotation);
                if r.is_nan() || r > MAX_ARC_RADIUS {
                    huge = Some((k, format!("an arc of radius {r:e} is too large to flatten")));
                    break;
                }
                end
            }
            Raw::ClosePath { .. } => start,
        };
    }
    let Some((count, why)) = huge else {
        return (Cow::Borrowed(d), None);
    };
    let mut kept = String::new();
    for segment in PathParser::from(d).take(count).flatten() {
        write_segment(&mut kept, segment);
    }
    (Cow::Owned(kept), Some(why))
}

/// The largest radius of the ellipse kurbo makes of an SVG arc (radii too small to reach `to`
/// scaled up, as SVG says); 0 when it is drawn as a line. Not finite when it overflows.
fn arc_radius(from: DVec2, to: DVec2, rx: f64, ry: f64, rotation_degrees: f64) -> f64 {
    let (rx, ry) = (rx.abs(), ry.abs());
    if rx <= 1e-5 || ry <= 1e-5 {
        return 0.0;
    }
    let (sin, cos) = (rotation_degrees.to_radians() % std::f64::consts::TAU).sin_cos();
    let h = (from - to) * 0.5;
    let p = DVec2::new(cos * h.x + sin * h.y, -sin * h.x + cos * h.y);
    let scale_up = (p.x * p.x / (rx * rx) + p.y * p.y / (ry * ry)).sqrt();
    rx.max(ry) * scale_up.max(1.0)
}

/// One path segment as path data (numbers in exponent form, which reads back exactly).
fn write_segment(out: &mut String, segment: svgtypes::PathSegment) {
    use svgtypes::PathSegment as Raw;
    let c = |abs: bool, command: char| {
        if abs {
            command
        } else {
            command.to_ascii_lowercase()
        }
    };
    let _ = match segment {
        Raw::MoveTo { abs, x, y } => write!(out, "{} {x:e} {y:e} ", c(abs, 'M')),
        Raw::LineTo { abs, x, y } => write!(out, "{} {x:e} {y:e} ", c(abs, 'L')),
        Raw::HorizontalLineTo { abs, x } => write!(out, "{} {x:e} ", c(abs, 'H')),
        Raw::VerticalLineTo { abs, y } => write!(out, "{} {y:e} ", c(abs, 'V')),
        Raw::CurveTo {
            abs,
            x1,
            y1,
            x2,
            y2,
            x,
            y,
        } => write!(
            out,
            "{} {x1:e} {y1:e} {x2:e} {y2:e} {x:e} {y:e} ",
            c(abs, 'C')
        ),
        Raw::SmoothCurveTo { abs, x2, y2, x, y } => {
            write!(out, "{} {x2:e} {y2:e} {x:e} {y:e} ", c(abs, 'S'))
        }
        Raw::Quadratic { abs, x1, y1, x, y } => {
            write!(out, "{} {x1:e} {y1:e} {x:e} {y:e} ", c(abs, 'Q'))
        }
        Raw::SmoothQuadratic { abs, x, y } => write!(out, "{} {x:e} {y:e} ", c(abs, 'T')),
        Raw::EllipticalArc {
            abs,
            rx,
            ry,
            x_axis_rotation,
            large_arc,
            sweep,
            x,
            y,
        } => write!(
            out,
            "{} {rx:e} {ry:e} {x_axis_rotation:e} {} {} {x:e} {y:e} ",
            c(abs, 'A'),
            u8::from(large_arc),
            u8::from(sweep)
        ),
        Raw::ClosePath { abs } => write!(out, "{} ", c(abs, 'Z')),
    };
}
