//! The frame's primitives (`editor::view::primitives`) written as SVG: what the viewport paints
//! with egui, a figure writes element for element.

use super::big::density_images;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::palette::Rgba;
use crate::editor::view::primitives::Prim;
use crate::model::scene::{Scene, Shape};
use crate::model::svg::export::{coord, shape_element};
use crate::model::svg::xml::xml;
use glam::Vec2;
use std::fmt::Write as _;

/// An SVG paint attribute (`fill` or `stroke`) of `color`, with its opacity when it has one.
pub(super) fn paint(attr: &str, color: Rgba) -> String {
    if color.a() == 255 {
        format!("{attr}=\"{}\"", color.hex())
    } else {
        format!(
            "{attr}=\"{}\" {attr}-opacity=\"{}\"",
            color.hex(),
            coord(color.opacity())
        )
    }
}

/// The font stack a figure's text asks for (the fonts the app ships; `png.rs` loads them).
pub(super) const FONTS: &str = "Ubuntu, Noto Emoji, sans-serif";
/// Width (px) of the halo stroke under names (half of it shows around each letter).
const HALO_PX: f64 = 3.0;

/// An outline as the `points` of an SVG polygon or polyline.
fn points(outline: &[Vec2]) -> String {
    let pts: Vec<String> = outline
        .iter()
        .map(|p| format!("{},{}", coord(p.x as f64), coord(p.y as f64)))
        .collect();
    pts.join(" ")
}

/// What writing the primitives needs besides them.
pub(super) struct Writer<'a> {
    /// The scene the bodies are of.
    pub scene: &'a Scene,
    /// The camera and the rectangle drawn in.
    pub view: (Camera, ScreenRect),
    /// The plan, whose density images the `Density` primitives are.
    pub plan: Option<&'a FramePlan>,
    /// A sprite's image as an `href`.
    pub image_href: &'a dyn Fn(&str) -> Option<String>,
}

impl Writer<'_> {
    /// Write every primitive, in order.
    pub fn write(&self, out: &mut String, prims: &[Prim]) {
        for prim in prims {
            self.write_one(out, prim);
        }
    }

    fn write_one(&self, out: &mut String, prim: &Prim) {
        let _ = match prim {
            Prim::Line { a, b, width, color } => writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {} stroke-width=\"{}\"/>",
                coord(a.x as f64),
                coord(a.y as f64),
                coord(b.x as f64),
                coord(b.y as f64),
                paint("stroke", *color),
                coord(*width as f64)
            ),
            Prim::Polygon {
                points: p,
                width,
                color,
            } => polygon(out, p, *width, *color),
            Prim::Path {
                points: p,
                width,
                color,
                dash,
            } => polyline(out, p, (*width, *color), *dash),
            Prim::Circle {
                center,
                radius,
                width,
                color,
            } => circle(out, *center, *radius, (*width, *color)),
            Prim::Plate { min, max, color } => plate(out, *min, *max, *color),
            Prim::Text {
                at,
                size,
                color,
                text,
                halo,
            } => text_element(out, (*at, *size), (*color, *halo), text),
            Prim::Body { index, .. } => {
                self.body(out, *index as usize);
                Ok(())
            }
            Prim::Density { coarse } => {
                if let Some(plan) = self.plan {
                    density_images(out, plan, self.view.1, *coarse);
                }
                Ok(())
            }
        };
    }

    /// Node `i`'s shape element through its local → screen matrix.
    fn body(&self, out: &mut String, i: usize) {
        let (camera, rect) = self.view;
        let m = camera.node_to_screen_f64(rect, &self.scene.world_at(i));
        let data = self.scene.data_at(i);
        let href = match &data.shape {
            Shape::Sprite(sprite) => (self.image_href)(&sprite.path),
            _ => None,
        };
        if let Some(element) = shape_element(&data.shape, data.color, href.as_deref()) {
            let [a, b, c, d] = m.matrix2.to_cols_array();
            let (e, f) = (m.translation.x, m.translation.y);
            let _ = writeln!(
                out,
                "<g transform=\"matrix({} {} {} {} {} {})\">{element}</g>",
                coord(a),
                coord(b),
                coord(c),
                coord(d),
                coord(e),
                coord(f)
            );
        }
    }
}

/// A closed outline stroked `width` px wide, or a filled area when `width` is 0.
fn polygon(out: &mut String, p: &[Vec2], width: f32, color: Rgba) -> std::fmt::Result {
    if width == 0.0 {
        return writeln!(
            out,
            "<polygon points=\"{}\" {}/>",
            points(p),
            paint("fill", color)
        );
    }
    writeln!(
        out,
        "<polygon points=\"{}\" fill=\"none\" {} stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
        points(p),
        paint("stroke", color),
        coord(width as f64)
    )
}

/// A circle: stroked `width` px wide, or filled when `width` is 0.
fn circle(
    out: &mut String,
    center: Vec2,
    radius: f32,
    (width, color): (f32, Rgba),
) -> std::fmt::Result {
    let paint = if width > 0.0 {
        format!(
            "fill=\"none\" {} stroke-width=\"{}\"",
            paint("stroke", color),
            coord(width as f64)
        )
    } else {
        paint("fill", color)
    };
    writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {paint}/>",
        coord(center.x as f64),
        coord(center.y as f64),
        coord(radius as f64)
    )
}

/// Text whose baseline starts at `at`, over a halo (a stroke painted under the letters:
/// `paint-order="stroke"`, which resvg honours) when it has one.
fn text_element(
    out: &mut String,
    (at, size): (Vec2, f32),
    (color, halo): (Rgba, Option<Rgba>),
    text: &str,
) -> std::fmt::Result {
    let halo = halo.map_or(String::new(), |h| {
        format!(
            " {} stroke-width=\"{HALO_PX}\" stroke-linejoin=\"round\" paint-order=\"stroke\"",
            paint("stroke", h)
        )
    });
    writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-family=\"{FONTS}\" font-size=\"{}\" {}{halo}>{}</text>",
        coord(at.x as f64),
        coord(at.y as f64),
        coord(size as f64),
        paint("fill", color),
        xml(text)
    )
}

/// An open line through `p`, dashed (dash, gap) or solid.
fn polyline(
    out: &mut String,
    p: &[Vec2],
    (width, color): (f32, Rgba),
    dash: Option<(f32, f32)>,
) -> std::fmt::Result {
    let dasharray = dash.map_or(String::new(), |(d, g)| {
        format!(
            " stroke-dasharray=\"{} {}\"",
            coord(d as f64),
            coord(g as f64)
        )
    });
    writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" {} stroke-width=\"{}\"{dasharray}/>",
        points(p),
        paint("stroke", color),
        coord(width as f64)
    )
}

/// A filled rectangle with rounded corners (the plate under a note).
fn plate(out: &mut String, min: Vec2, max: Vec2, color: Rgba) -> std::fmt::Result {
    writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" {}/>",
        coord(min.x as f64),
        coord(min.y as f64),
        coord((max.x - min.x) as f64),
        coord((max.y - min.y) as f64),
        paint("fill", color)
    )
}
