//! The style cascade: fill, stroke, colour and opacity from attributes, `style` and CSS,
//! inherited down the groups; paints, gradients averaged to one colour, and the graft colour
//! a shape is drawn in.

use super::importer::{Importer, href, is_svg};
use super::path;
use crate::model::scene::Color;
use glam::DVec2;
use path::{Rgba, declared};
use roxmltree::Node;
use std::str::FromStr;
use svgtypes::PaintFallback;

pub(super) const BLACK: Rgba = path::rgba(0, 0, 0, 255);
const GREY: Rgba = path::rgba(128, 128, 128, 255);
/// Alpha of a shape whose `fill` is `none` (drawn in its stroke colour).
const OUTLINE_ALPHA: f64 = 64.0;

/// A fill or stroke as it inherits (`currentColor` is resolved where it is used).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Paint {
    None,
    Color(Rgba),
    CurrentColor,
}

/// The inherited properties the import needs.
#[derive(Clone, Copy)]
pub(super) struct Style {
    pub(super) fill: Paint,
    pub(super) stroke: Paint,
    pub(super) fill_opacity: f64,
    pub(super) color: Rgba,
    /// `opacity` multiplied down the groups.
    pub(super) opacity: f64,
    /// The nearest viewport's size, for percentages.
    pub(super) viewport: DVec2,
}

impl<'a, 'i> Importer<'a, 'i> {
    /// The inherited properties after this element's own declarations.
    pub(super) fn cascade(&mut self, node: Node<'a, 'i>, parent: &Style) -> Style {
        let css = self.css;
        let rules = css.matching(node);
        let get =
            |name| declared(node, &rules, name).filter(|v| !matches!(*v, "inherit" | "unset"));
        let mut style = *parent;
        if let Some(v) = get("color") {
            style.color = Rgba::from_str(v).unwrap_or(parent.color);
        }
        if let Some(v) = get("fill") {
            style.fill = self.paint(node, v, parent.fill, true);
        }
        if let Some(v) = get("stroke") {
            style.stroke = self.paint(node, v, parent.stroke, false);
        }
        if let Some(v) = get("fill-opacity").and_then(path::opacity) {
            style.fill_opacity = v;
        }
        style.opacity *= get("opacity").and_then(path::opacity).unwrap_or(1.0);
        if get("display") == Some("none") || get("visibility").is_some_and(|v| v != "visible") {
            self.note(
                node,
                "hidden in the drawing (display, visibility): imported shown",
            );
        }
        for effect in ["clip-path", "mask", "filter"] {
            if get(effect).is_some_and(|v| v != "none") {
                self.note(node, format!("{effect} is not imported"));
            }
        }
        style
    }

    /// A `fill` (notes on) or `stroke` value.
    fn paint(&mut self, node: Node, value: &str, parent: Paint, fill: bool) -> Paint {
        let (paint, note) = match svgtypes::Paint::from_str(value) {
            Ok(svgtypes::Paint::None) => (Paint::None, None),
            Ok(svgtypes::Paint::Inherit) => (parent, None),
            Ok(svgtypes::Paint::CurrentColor) => (Paint::CurrentColor, None),
            Ok(svgtypes::Paint::Color(c)) => (Paint::Color(c), None),
            Ok(svgtypes::Paint::FuncIRI(id, fallback)) => match (self.gradient(id), fallback) {
                (Some(c), _) => (
                    Paint::Color(c),
                    Some("a gradient is drawn in the average of its stops"),
                ),
                (None, Some(PaintFallback::Color(c))) => (Paint::Color(c), None),
                (None, Some(PaintFallback::None)) => (Paint::None, None),
                (None, Some(PaintFallback::CurrentColor)) => (Paint::CurrentColor, None),
                (None, None) => (
                    Paint::Color(GREY),
                    Some("a pattern (or a missing paint) is grey"),
                ),
            },
            Ok(_) => (
                Paint::Color(GREY),
                Some("context-fill / context-stroke is drawn grey"),
            ),
            Err(_) => (parent, Some("an unreadable fill is inherited instead")),
        };
        if let Some(message) = note.filter(|_| fill) {
            self.note(node, message);
        }
        paint
    }

    /// The average colour of a gradient's stops (its own, or those of the one it links to).
    fn gradient(&self, id: &str) -> Option<Rgba> {
        let mut gradient = *self.ids.get(id)?;
        for _ in 0..8 {
            if !matches!(
                gradient.tag_name().name(),
                "linearGradient" | "radialGradient"
            ) {
                return None;
            }
            let stops = gradient
                .children()
                .filter(|c| is_svg(*c) && c.tag_name().name() == "stop");
            let stops = stops.map(|stop| {
                let rules = self.css.matching(stop);
                let get = |name| declared(stop, &rules, name);
                let c = get("stop-color")
                    .and_then(|v| Rgba::from_str(v).ok())
                    .unwrap_or(BLACK);
                (
                    c,
                    get("stop-opacity").and_then(path::opacity).unwrap_or(1.0),
                )
            });
            if let Some(average) = path::average(stops) {
                return Some(average);
            }
            gradient = *self.ids.get(href(gradient)?.strip_prefix('#')?)?;
        }
        None
    }

    /// The graft colour of a shape: fill × fill-opacity × the groups' opacity.
    pub(super) fn fill_color(&mut self, node: Node, style: &Style) -> Color {
        let resolve = |p: Paint| match p {
            Paint::Color(c) => Some(c),
            Paint::CurrentColor => Some(style.color),
            Paint::None => None,
        };
        let (c, alpha) = match resolve(style.fill) {
            Some(c) => (c, c.alpha as f64 * style.fill_opacity * style.opacity),
            None => {
                self.note(
                    node,
                    "fill=\"none\" is drawn translucent in its stroke colour",
                );
                (
                    resolve(style.stroke).unwrap_or(GREY),
                    OUTLINE_ALPHA * style.opacity,
                )
            }
        };
        [
            c.red,
            c.green,
            c.blue,
            alpha.round().clamp(0.0, 255.0) as u8,
        ]
    }
}
