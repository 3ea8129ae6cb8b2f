//! What a frame of the scene view is drawn with, as data: lines, outlines, circles, plates,
//! text, node bodies and the density images, in painting order, in screen pixels, coloured from
//! the one palette. The viewport paints these with egui, a figure writes them as SVG; the grid
//! (labels kept apart by their measured widths), the node layer (from the draw list) and the
//! shear overlay (with the ring on each cause) are built here once for both.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{ScreenShape, clip_segment};
use crate::editor::view::grid::grid;
use crate::editor::view::overlay::ShearOverlayOnScreen;
use crate::editor::view::palette::{self, Rgba};
use glam::{DAffine2, DVec2, Vec2};
use std::borrow::Cow;

/// The width in pixels of a text at a font size, measured with the font that draws it (egui's
/// in the viewport, the embedded font's advances in a figure).
pub type TextWidth<'a> = &'a dyn Fn(&str, f32) -> f32;

/// One thing drawn. A node layer's primitives borrow their outlines and names from what they
/// are drawn from (`Prim<'a>`, handed to a sink that paints each at once); a kept one owns
/// them ([`Prim::into_owned`]: figures, the grid, the overlay, a recording viewport).
#[derive(Clone, Debug, PartialEq)]
pub enum Prim<'a> {
    /// A straight line.
    Line {
        /// One end.
        a: Vec2,
        /// The other end.
        b: Vec2,
        /// Stroke width (px).
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A closed outline: stroked `width` px wide, or filled (convex) when `width` is 0.
    Polygon {
        /// The corners.
        points: Cow<'a, [Vec2]>,
        /// Stroke width (px), 0 for a filled area.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// An open line through points, solid or dashed (`dash`: dash and gap lengths, px).
    Path {
        /// The points, in order.
        points: Cow<'a, [Vec2]>,
        /// Stroke width (px).
        width: f32,
        /// Colour.
        color: Rgba,
        /// Dash and gap lengths (px), or none for a solid line.
        dash: Option<(f32, f32)>,
    },
    /// A circle: stroked `width` px wide, or filled when `width` is 0.
    Circle {
        /// Centre.
        center: Vec2,
        /// Radius (px).
        radius: f32,
        /// Stroke width, 0 for a filled disc.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A filled rectangle with rounded corners (the plate under a note).
    Plate {
        /// Top left.
        min: Vec2,
        /// Bottom right.
        max: Vec2,
        /// Fill.
        color: Rgba,
    },
    /// Text whose baseline starts at `at`, over a halo of `halo`'s colour when it has one.
    Text {
        /// Baseline start.
        at: Vec2,
        /// Font size (px).
        size: f32,
        /// Colour.
        color: Rgba,
        /// The text.
        text: Cow<'a, str>,
        /// The halo's colour (names), or none.
        halo: Option<Rgba>,
    },
    /// Node `index`'s body (fill or sprite) through its local → screen matrix.
    Body {
        /// Pre-order index.
        index: u32,
        /// Its matrix and shape on screen, when the node layer computed them (a kept body has
        /// none).
        placed: Option<Placed<'a>>,
    },
    /// The plan's density image: the coarse grid or the fine one.
    Density {
        /// The coarse grid (bigger splats).
        coarse: bool,
    },
}

/// Where the node layer put a body on screen: its local → screen matrix and its shape there,
/// computed once for the body and its outline. Derived data: two placements are equal (a
/// primitive is the same whatever was cached with it).
#[derive(Clone, Copy)]
pub struct Placed<'a> {
    /// Local → screen.
    pub to_screen: &'a DAffine2,
    /// Its shape on screen.
    pub shape: &'a ScreenShape,
}

impl PartialEq for Placed<'_> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Placed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Placed")
    }
}

impl Prim<'_> {
    /// The same primitive owning its points and text (a body loses its placement).
    pub fn into_owned(self) -> Prim<'static> {
        match self {
            Prim::Line { a, b, width, color } => Prim::Line { a, b, width, color },
            Prim::Polygon {
                points,
                width,
                color,
            } => Prim::Polygon {
                points: Cow::Owned(points.into_owned()),
                width,
                color,
            },
            Prim::Path {
                points,
                width,
                color,
                dash,
            } => Prim::Path {
                points: Cow::Owned(points.into_owned()),
                width,
                color,
                dash,
            },
            Prim::Circle {
                center,
                radius,
                width,
                color,
            } => Prim::Circle {
                center,
                radius,
                width,
                color,
            },
            Prim::Plate { min, max, color } => Prim::Plate { min, max, color },
            Prim::Text {
                at,
                size,
                color,
                text,
                halo,
            } => Prim::Text {
                at,
                size,
                color,
                text: Cow::Owned(text.into_owned()),
                halo,
            },
            Prim::Body { index, .. } => Prim::Body {
                index,
                placed: None,
            },
            Prim::Density { coarse } => Prim::Density { coarse },
        }
    }

    /// The same primitive moved by `by` on screen.
    pub fn shifted(&self, by: Vec2) -> Prim<'static> {
        let mut p = self.clone().into_owned();
        match &mut p {
            Prim::Line { a, b, .. } => (*a, *b) = (*a + by, *b + by),
            Prim::Polygon { points, .. } | Prim::Path { points, .. } => {
                points.to_mut().iter_mut().for_each(|q| *q += by)
            }
            Prim::Circle { center, .. } => *center += by,
            Prim::Plate { min, max, .. } => (*min, *max) = (*min + by, *max + by),
            Prim::Text { at, .. } => *at += by,
            Prim::Body { .. } | Prim::Density { .. } => {}
        }
        p
    }

    /// Its points on screen (ends, corners, centre, baseline start).
    fn points(&self) -> Vec<Vec2> {
        match self {
            Prim::Line { a, b, .. } | Prim::Plate { min: a, max: b, .. } => vec![*a, *b],
            Prim::Polygon { points, .. } | Prim::Path { points, .. } => points.to_vec(),
            Prim::Circle { center: p, .. } | Prim::Text { at: p, .. } => vec![*p],
            Prim::Body { .. } | Prim::Density { .. } => Vec::new(),
        }
    }

    /// True when `other` is this primitive with every point within `tolerance` px.
    pub fn near(&self, other: &Prim, tolerance: f32) -> bool {
        let (a, b) = (self.points(), other.points());
        let apart = |p: &Vec2, q: &Vec2| (*p - *q).abs().max_element() > tolerance;
        if a.len() != b.len() || a.iter().zip(&b).any(|(p, q)| apart(p, q)) {
            return false;
        }
        // Equal once moved onto each other's first point (only their geometry may differ).
        let by = b.first().map_or(Vec2::ZERO, |q| *q - a[0]);
        match (self.shifted(by), other) {
            (
                Prim::Polygon { width, color, .. },
                Prim::Polygon {
                    width: w, color: c, ..
                },
            )
            | (
                Prim::Line { width, color, .. },
                Prim::Line {
                    width: w, color: c, ..
                },
            ) => (width, color) == (*w, *c),
            (
                Prim::Path {
                    width, color, dash, ..
                },
                Prim::Path {
                    width: w,
                    color: c,
                    dash: d,
                    ..
                },
            ) => (width, color, dash) == (*w, *c, *d),
            (Prim::Plate { color, .. }, Prim::Plate { color: c, .. }) => color == *c,
            (moved, other) => moved == *other,
        }
    }
}

/// Grid label font size (px).
pub const GRID_LABEL_SIZE: f32 = 10.0;
/// Room the y labels' column takes at the left (the x labels start right of it).
const LABEL_COLUMN: f32 = 48.0;
/// Room the x labels' row takes at the bottom (the y labels stop above it).
const LABEL_ROW: f32 = 14.0;
/// Pixels between two x labels, at least.
const LABEL_GAP: f32 = 6.0;
/// Note font size (px): the shear angle and its cause.
pub const NOTE_SIZE: f32 = 12.0;
/// The note on an ancestor that causes shear below it.
pub const CAUSE_NOTE: &str = "non-uniform scale: causes shear below";

/// The grid lines, their labels (an x label is left out where it would touch the one before;
/// the y labels sit in a column at the left, the x labels along the bottom, each skipping the
/// corner the other uses) and the world axes.
pub fn grid_prims(
    camera: Camera,
    rect: ScreenRect,
    text_width: TextWidth,
    out: &mut Vec<Prim<'static>>,
) {
    let g = grid(camera, rect);
    let (left, right, top, bottom) = (rect.min.x, rect.max.x, rect.min.y, rect.max.y);
    let line = |a: Vec2, b: Vec2, width: f32, color: Rgba| Prim::Line { a, b, width, color };
    let label = |at: Vec2, text: &str| Prim::Text {
        at,
        size: GRID_LABEL_SIZE,
        color: palette::GRID_TEXT,
        text: Cow::Owned(text.to_string()),
        halo: None,
    };
    let mut free_from = left + LABEL_COLUMN;
    for l in &g.vertical {
        let (a, b) = (Vec2::new(l.screen, top), Vec2::new(l.screen, bottom));
        out.push(line(a, b, 1.0, palette::GRID));
        if l.screen > free_from {
            out.push(label(Vec2::new(l.screen + 2.0, bottom - 2.0), &l.label));
            free_from = l.screen + 2.0 + text_width(&l.label, GRID_LABEL_SIZE) + LABEL_GAP;
        }
    }
    for l in &g.horizontal {
        let (a, b) = (Vec2::new(left, l.screen), Vec2::new(right, l.screen));
        out.push(line(a, b, 1.0, palette::GRID));
        if l.screen < bottom - LABEL_ROW {
            out.push(label(Vec2::new(left + 2.0, l.screen - 2.0), &l.label));
        }
    }
    if let Some(y) = g.x_axis {
        let (a, b) = (Vec2::new(left, y), Vec2::new(right, y));
        out.push(line(a, b, 1.5, palette::X_AXIS));
    }
    if let Some(x) = g.y_axis {
        let (a, b) = (Vec2::new(x, top), Vec2::new(x, bottom));
        out.push(line(a, b, 1.5, palette::Y_AXIS));
    }
}

/// A note on a dark plate, its baseline starting at `at`, moved as little as it takes to keep
/// the plate inside `rect` (a note is never cut at the view's edge).
fn note(
    at: Vec2,
    text: &str,
    color: Rgba,
    (rect, text_width): (ScreenRect, TextWidth),
    out: &mut Vec<Prim<'static>>,
) {
    let w = text_width(text, NOTE_SIZE);
    let (up, down) = (0.9 * NOTE_SIZE, 0.3 * NOTE_SIZE);
    let (above, below) = (Vec2::new(2.0, up + 2.0), Vec2::new(w + 2.0, down + 2.0));
    let at = inside(at, above, below, rect);
    out.push(Prim::Plate {
        min: at - above,
        max: at + below,
        color: palette::NOTE_PLATE,
    });
    out.push(Prim::Text {
        at,
        size: NOTE_SIZE,
        color,
        text: Cow::Owned(text.to_string()),
        halo: None,
    });
}

/// `at` moved so that the box from `at - above` to `at + below` lies inside `rect`; a box wider
/// or taller than `rect` keeps its left or top edge on it.
fn inside(at: Vec2, above: Vec2, below: Vec2, rect: ScreenRect) -> Vec2 {
    let fit = |v: f32, lo: f32, hi: f32| v.min(hi).max(lo);
    Vec2::new(
        fit(at.x, rect.min.x + above.x, rect.max.x - below.x),
        fit(at.y, rect.min.y + above.y, rect.max.y - below.y),
    )
}

/// The shear overlay: each mark's outline and unit parallelogram, its angle on a plate; each
/// cause in view ringed, with its note.
pub fn shear_prims(
    overlay: &ShearOverlayOnScreen,
    rect: ScreenRect,
    text_width: TextWidth,
    out: &mut Vec<Prim<'static>>,
) {
    let warn = palette::SHEAR;
    for mark in &overlay.marks {
        if mark.outline.len() > 2 {
            let points = Cow::Owned(mark.outline.clone());
            out.push(Prim::Polygon {
                points,
                width: 2.5,
                color: warn,
            });
        }
        out.push(Prim::Polygon {
            points: Cow::Owned(mark.axes.to_vec()),
            width: 1.5,
            color: warn,
        });
        if let Some(text) = &mark.label {
            // The warning sign is an emoji glyph a figure's renderer does not find: left out
            // of both, so both measure and draw the same text.
            let text = text.trim_start_matches("⚠ ");
            let at = mark.axes[0] + Vec2::new(6.0, 6.0 + 0.9 * NOTE_SIZE);
            note(at, text, warn, (rect, text_width), out);
        }
    }
    let near = rect.expand(20.0);
    for &(_, at) in &overlay.causes {
        if !near.contains(at) {
            continue;
        }
        out.push(Prim::Circle {
            center: at,
            radius: 9.0,
            width: 2.0,
            color: warn,
        });
        let at = at + Vec2::new(12.0, 12.0 + 0.9 * NOTE_SIZE);
        note(at, CAUSE_NOTE, warn, (rect, text_width), out);
    }
}

/// An arrow from `from` to `to` (a tip a quarter of its length, egui's arrow); one reaching
/// far past the view is its clipped line without a tip.
pub fn arrow_prims(
    rect: ScreenRect,
    (from, to): (DVec2, DVec2),
    width: f32,
    color: Rgba,
    out: &mut Vec<Prim<'static>>,
) {
    for (a, b) in arrow_lines(rect, (from, to)) {
        out.push(Prim::Line { a, b, width, color });
    }
}

/// The lines of an arrow from `from` to `to` (see [`arrow_prims`]): none, one or three.
pub fn arrow_lines(
    rect: ScreenRect,
    (from, to): (DVec2, DVec2),
) -> impl Iterator<Item = (Vec2, Vec2)> {
    let near = |p: DVec2| (p - rect.center().as_dvec2()).abs().max_element() < 1e5;
    let mut lines = [None; 3];
    if !(near(from) && near(to)) {
        lines[0] = clip_segment(from, to, rect.expand(4.0));
    } else {
        let (origin, tip) = (from.as_vec2(), to.as_vec2());
        let v = tip - origin;
        let (length, dir) = (v.length() * 0.25, v.normalize_or_zero());
        let turn = std::f32::consts::TAU / 10.0;
        let barb = |angle: f32| (tip, tip - length * Vec2::from_angle(angle).rotate(dir));
        lines = [Some((origin, tip)), Some(barb(turn)), Some(barb(-turn))];
    }
    lines.into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect() -> ScreenRect {
        ScreenRect {
            min: Vec2::ZERO,
            max: Vec2::new(400.0, 300.0),
        }
    }

    #[test]
    fn x_labels_are_kept_apart_by_their_measured_width() {
        // Lines 40 px apart: narrow labels all show, wide ones only where they fit.
        let camera = Camera {
            zoom: 40.0,
            ..Camera::default()
        };
        let starts = |width: f32| -> Vec<f32> {
            let mut out = Vec::new();
            grid_prims(camera, rect(), &|_, _| width, &mut out);
            let bottom = rect().max.y - 2.0;
            out.iter()
                .filter_map(|p| match p {
                    Prim::Text { at, .. } if at.y == bottom => Some(at.x),
                    _ => None,
                })
                .collect()
        };
        let (narrow, wide) = (starts(10.0), starts(70.0));
        assert!(
            narrow.len() >= 6 && wide.len() < narrow.len(),
            "{narrow:?} {wide:?}"
        );
        for pair in wide.windows(2) {
            assert!(pair[1] - pair[0] >= 70.0 + LABEL_GAP, "{wide:?}");
        }
    }

    #[test]
    fn a_cause_in_view_gets_a_ring_and_a_note_on_a_plate() {
        let overlay = ShearOverlayOnScreen {
            marks: Vec::new(),
            causes: vec![
                (crate::model::scene::NodeId(1), Vec2::new(100.0, 100.0)),
                (crate::model::scene::NodeId(2), Vec2::new(900.0, 100.0)),
            ],
        };
        let mut out = Vec::new();
        shear_prims(&overlay, rect(), &|t, _| t.len() as f32 * 5.0, &mut out);
        let rings = out
            .iter()
            .filter(|p| matches!(p, Prim::Circle { .. }))
            .count();
        assert_eq!(rings, 1, "only the cause in view");
        let plate = out.iter().find_map(|p| match p {
            Prim::Plate { min, max, .. } => Some(max.x - min.x),
            _ => None,
        });
        assert_eq!(plate, Some(CAUSE_NOTE.len() as f32 * 5.0 + 4.0));
    }

    #[test]
    fn notes_near_the_edges_stay_whole_inside_the_view() {
        // A cause at each corner's edge: its note's plate lies inside the view, and its text
        // starts where the plate does.
        let corners = [
            Vec2::new(395.0, 150.0),
            Vec2::new(200.0, 298.0),
            Vec2::new(399.0, 299.0),
        ];
        for (k, &at) in corners.iter().enumerate() {
            let overlay = ShearOverlayOnScreen {
                marks: Vec::new(),
                causes: vec![(crate::model::scene::NodeId(k as u32 + 1), at)],
            };
            let mut out = Vec::new();
            shear_prims(&overlay, rect(), &|t, _| t.len() as f32 * 5.0, &mut out);
            let (min, max) = out
                .iter()
                .find_map(|p| match p {
                    Prim::Plate { min, max, .. } => Some((*min, *max)),
                    _ => None,
                })
                .expect("a note");
            let r = rect();
            assert!(
                min.x >= r.min.x && min.y >= r.min.y && max.x <= r.max.x && max.y <= r.max.y,
                "the note at {at} is cut: {min}..{max}"
            );
        }
    }
}
