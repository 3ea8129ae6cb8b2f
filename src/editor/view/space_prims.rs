//! The space grids (the selection's own and its parent's), the probes' pins and the marquee as
//! primitives: what the viewport paints and a figure writes, in the palette's colours.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::palette::{self, Rgba};
use crate::editor::view::primitives::{Prim, TextWidth};
use crate::editor::view::spaces::{LocalGrid, local_grid, to_world};
use crate::model::scene::name::node_label;
use crate::model::scene::{NodeId, Scene};
use glam::{Affine2, DVec2, Vec2};
use std::borrow::Cow;

/// A space grid's labels' font size (px).
const GRID_NOTE_SIZE: f32 = 10.0;
/// A probe's label's font size (px).
const PIN_LABEL_SIZE: f32 = 12.0;
/// A space's unit lines and its unit square's edge: its colour at this alpha.
const FAINT: u8 = 89;
/// The unit square's fill: its colour at this alpha.
const FILL: u8 = 31;
/// The line from a pin to its node's origin: the pin's colour at this alpha.
const PIN_LINE: u8 = 90;
/// The marquee's fill: its colour at this alpha.
const MARQUEE_FILL: u8 = 30;

/// Which spaces' grids are shown, for the primary selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShownSpaces {
    /// The parent's space (the world for a root).
    pub parent: bool,
    /// The node's own space.
    pub own: bool,
}

/// The grids of `primary`'s parent's space and of its own, as `shown` asks.
pub fn space_prims(
    scene: &Scene,
    primary: Option<NodeId>,
    shown: ShownSpaces,
    (view, text_width): ((Camera, ScreenRect), TextWidth),
    out: &mut Vec<Prim<'static>>,
) {
    let Some(id) = primary.filter(|id| scene.contains(*id)) else {
        return;
    };
    if shown.parent {
        let parent = scene.parent(id).ok().flatten();
        let world = parent.and_then(|p| scene.world(p).ok());
        let name = parent
            .and_then(|p| Some((p, scene.node(p).ok()?)))
            .map_or("world".to_string(), |(p, d)| node_label(&d.name, p));
        let grid = local_grid(view.0, view.1, &world.unwrap_or(Affine2::IDENTITY));
        grid_prims(&grid, palette::PARENT_GRID, &name, text_width, out);
    }
    if shown.own
        && let (Ok(world), Ok(data)) = (scene.world(id), scene.node(id))
    {
        let grid = local_grid(view.0, view.1, &world);
        let name = node_label(&data.name, id);
        grid_prims(&grid, palette::LOCAL_GRID, &name, text_width, out);
    }
}

/// One space's grid: the unit square filled faintly, faint unit lines, its two axes, tick
/// labels and its name; or a note where a singular space has no grid.
fn grid_prims(
    grid: &LocalGrid,
    color: Rgba,
    name: &str,
    text_width: TextWidth,
    out: &mut Vec<Prim<'static>>,
) {
    let (unit_square, lines, axes, ticks, step) = match grid {
        LocalGrid::Singular { origin } => {
            let text = format!("{name}: singular (a zero scale): no grid");
            let top_left = *origin + Vec2::new(8.0, 8.0);
            let width = text_width(&text, GRID_NOTE_SIZE);
            out.push(Prim::Plate {
                min: top_left - Vec2::splat(2.0),
                max: top_left + Vec2::new(width + 2.0, 13.0),
                color: palette::NOTE_PLATE,
            });
            out.push(text_prim(top_left + Vec2::new(0.0, 9.0), text, color));
            return;
        }
        LocalGrid::Lines {
            lines,
            axes,
            ticks,
            unit_square,
            step,
        } => (unit_square, lines, axes, ticks, *step),
    };
    let faint = color.alpha(FAINT);
    if unit_square.len() > 2 {
        out.push(polygon(unit_square, 0.0, color.alpha(FILL)));
        out.push(polygon(unit_square, 1.0, faint));
    }
    let line = |(a, b): (Vec2, Vec2), width, color| Prim::Line { a, b, width, color };
    out.extend((lines.iter().flatten()).map(|&(a, b, _)| line((a, b), 1.0, faint)));
    out.extend(axes.iter().flatten().map(|&ends| line(ends, 2.0, color)));
    for (at, text) in ticks {
        out.push(text_prim(*at + Vec2::new(3.0, 11.0), text.clone(), color));
    }
    if let Some(corner) = unit_square.first() {
        let text = if step == 1.0 {
            format!("{name}'s space")
        } else {
            format!("{name}'s space (lines every {step})")
        };
        out.push(text_prim(*corner + Vec2::new(4.0, -17.0), text, color));
    }
}

/// A probe's pin to draw: its label, where it is in the world (none when its node's world
/// matrix is not finite), the node whose space it lives in, and whether it is being dragged.
#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    /// "P1", "P2", … in pre-order of their nodes.
    pub label: String,
    /// Where it is in the world.
    pub world: Option<DVec2>,
    /// The node that carries it.
    pub owner: NodeId,
    /// Drawn bigger while dragged.
    pub held: bool,
}

/// Every probe of the scene as a pin, labelled as the inspector reads them (none held).
pub fn scene_pins(scene: &Scene) -> Vec<Pin> {
    let mut pins = Vec::new();
    for owner in scene.probe_owners() {
        let Ok(data) = scene.node(owner) else {
            continue;
        };
        let m = to_world(scene, Some(owner)).ok();
        for local in &data.probes {
            pins.push(Pin {
                label: format!("P{}", pins.len() + 1),
                world: m.map(|m| m.transform_point2(local.as_dvec2())),
                owner,
                held: false,
            });
        }
    }
    pins
}

/// Every pin in view: a faint line to the origin of its node, a ring (bigger while held), a
/// cross, and its label.
pub fn probe_prims(
    scene: &Scene,
    pins: &[Pin],
    (camera, rect): (Camera, ScreenRect),
    out: &mut Vec<Prim<'static>>,
) {
    let color = palette::PROBE;
    for pin in pins {
        let Some(world) = pin.world else { continue };
        let at = camera.to_screen_f64(rect, world).as_vec2();
        if !near(rect, at, 40.0) {
            continue;
        }
        if let Ok(owner) = scene.world(pin.owner) {
            let o = camera.to_screen(rect, owner.translation);
            if near(rect, o, 4000.0) {
                let faint = color.alpha(PIN_LINE);
                out.push(Prim::Line {
                    a: o,
                    b: at,
                    width: 1.0,
                    color: faint,
                });
            }
        }
        let radius = if pin.held { 7.0 } else { 5.5 };
        out.push(Prim::Circle {
            center: at,
            radius,
            width: 2.0,
            color,
        });
        for d in [Vec2::X, Vec2::Y] {
            let (a, b) = (at - 9.0 * d, at + 9.0 * d);
            out.push(Prim::Line {
                a,
                b,
                width: 1.0,
                color,
            });
        }
        let text = pin.label.clone();
        out.push(Prim::Text {
            at: at + Vec2::new(9.0, -12.0),
            size: PIN_LABEL_SIZE,
            color,
            text: Cow::Owned(text),
            halo: None,
        });
    }
}

/// The rubber band of a box selection between two corners: filled faintly, outlined.
pub fn marquee_prims(a: Vec2, b: Vec2, out: &mut Vec<Prim<'static>>) {
    let (min, max) = (a.min(b), a.max(b));
    let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    out.push(polygon(&corners, 0.0, palette::MARQUEE.alpha(MARQUEE_FILL)));
    out.push(polygon(&corners, 1.0, palette::MARQUEE));
}

/// True when `p` is within `margin` px of the view.
fn near(rect: ScreenRect, p: Vec2, margin: f32) -> bool {
    let (min, max) = (rect.min - margin, rect.max + margin);
    p.cmpge(min).all() && p.cmple(max).all()
}

/// A closed outline, stroked `width` px wide or filled when `width` is 0.
fn polygon(points: &[Vec2], width: f32, color: Rgba) -> Prim<'static> {
    Prim::Polygon {
        points: Cow::Owned(points.to_vec()),
        width,
        color,
    }
}

/// A grid's label: size 10, its baseline start at `at`.
fn text_prim(at: Vec2, text: String, color: Rgba) -> Prim<'static> {
    Prim::Text {
        at,
        size: GRID_NOTE_SIZE,
        color,
        text: Cow::Owned(text),
        halo: None,
    }
}
