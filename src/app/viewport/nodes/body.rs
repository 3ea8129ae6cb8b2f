//! One node's body as egui shapes: its fill (batched into one mesh) or sprite.

use crate::app::frame::FrameContext;
use crate::app::viewport::prim_shapes::{c32, closed_shape};
use crate::app::viewport::screen::p2;
use crate::app::viewport::textures::Textures;
use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::palette;
use crate::model::scene::{NodeData, Shape};
use egui::{Color32, Pos2, Stroke};
use glam::{DAffine2, DVec2, Vec2};

/// What one frame of node drawing needs besides the node itself.
pub(super) struct NodePass<'a> {
    /// For sprite textures.
    pub(super) ctx: &'a egui::Context,
    /// The scene and what to show.
    pub(super) fx: &'a FrameContext<'a>,
    /// The fills batched so far.
    pub(super) fill: egui::Mesh,
    /// The layer's shapes so far, in painting order.
    pub(super) out: Vec<egui::Shape>,
    /// The biggest fill mesh's vertices and indices so far.
    pub(super) fill_size: (usize, usize),
}

impl NodePass<'_> {
    /// Add the batched fills gathered so far to the layer.
    pub(super) fn flush(&mut self) {
        if !self.fill.is_empty() {
            let fill = std::mem::take(&mut self.fill);
            self.fill_size.0 = self.fill_size.0.max(fill.vertices.len());
            self.fill_size.1 = self.fill_size.1.max(fill.indices.len());
            self.out.push(fill.into());
        }
    }
}

fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// Add a convex polygon (screen space) to a batched mesh as a triangle fan.
fn fan(mesh: &mut egui::Mesh, points: &[Vec2], color: Color32) {
    let base = mesh.vertices.len() as u32;
    for p in points {
        mesh.colored_vertex(p2(*p), color);
    }
    for k in 1..points.len().saturating_sub(1) as u32 {
        mesh.add_triangle(base, base + k, base + k + 1);
    }
}

/// A sprite's image over its (possibly clipped) outline: each point's texture coordinate comes
/// from its local position, so a clipped sprite still shows the right part of the image.
fn textured_fan(
    texture: egui::TextureId,
    outline: &[Vec2],
    to_screen: &DAffine2,
    (half, offset, region): (Vec2, Vec2, Option<[f32; 4]>),
    tint: Color32,
) -> egui::Mesh {
    let mut mesh = egui::Mesh::with_texture(texture);
    let inverse = to_screen.inverse();
    let half = half.as_dvec2().max(DVec2::splat(f64::MIN_POSITIVE));
    let [u0, v0, u1, v1] = region.unwrap_or([0.0, 0.0, 1.0, 1.0]);
    for p in outline {
        let l = inverse.transform_point2(p.as_dvec2()) - offset.as_dvec2();
        let (s, t) = (l.x / (2.0 * half.x) + 0.5, 0.5 - l.y / (2.0 * half.y));
        let uv = Pos2::new(
            (u0 as f64 + s * (u1 - u0) as f64) as f32,
            (v0 as f64 + t * (v1 - v0) as f64) as f32,
        );
        mesh.vertices.push(egui::epaint::Vertex {
            pos: p2(*p),
            uv,
            color: tint,
        });
    }
    for k in 1..outline.len().saturating_sub(1) as u32 {
        mesh.add_triangle(0, k, k + 1);
    }
    mesh
}

/// Node `i`'s body: its fill (batched) or sprite (its marks are primitives of their own),
/// through its local → screen matrix `m` with its `shape` on screen.
pub(super) fn draw_node(
    pass: &mut NodePass,
    (i, m, shape): (usize, &DAffine2, &ScreenShape),
    textures: &mut Textures,
) {
    let data = pass.fx.scene.data_at(i);
    draw_body(pass, (data, m, shape), textures);
}

/// The node's body: a sprite's image (or a red crossed box when it is missing), or its fill added
/// to the batched mesh.
fn draw_body(
    pass: &mut NodePass,
    (data, m, shape): (&NodeData, &DAffine2, &ScreenShape),
    textures: &mut Textures,
) {
    match &data.shape {
        Shape::Sprite(sprite) => {
            let crate::model::scene::Sprite {
                path,
                region,
                size,
                offset,
            } = &**sprite;
            pass.flush();
            match textures.texture(pass.ctx, pass.fx.doc, path) {
                Some(texture) => {
                    let image = (size.abs() * 0.5, *offset, *region);
                    let tint = color32(data.color);
                    let outline = &shape.outline;
                    let mesh = textured_fan(texture, outline, m, image, tint);
                    pass.out.push(mesh.into());
                }
                None if shape.outline.len() > 2 => {
                    // A missing image: a red crossed box, so the node is still visible.
                    let red = Stroke::new(1.0, c32(palette::MISSING));
                    let o = &shape.outline;
                    pass.out.extend(closed_shape(o, red));
                    pass.out.push(egui::Shape::line_segment(
                        [p2(o[0]), p2(o[o.len() / 2])],
                        red,
                    ));
                }
                None => {}
            }
        }
        Shape::Rect { .. } | Shape::Ellipse { .. } => {
            // An affine image of a convex shape is convex, sheared or mirrored: a fan is exact.
            fan(&mut pass.fill, &shape.outline, color32(data.color));
        }
        Shape::Polygon { .. } => {
            // Any simple polygon: the triangles the editor layer cut it into.
            let (fill, color) = (&mut pass.fill, color32(data.color));
            let base = fill.vertices.len() as u32;
            for p in &shape.outline {
                fill.colored_vertex(p2(*p), color);
            }
            for t in shape.triangles.chunks_exact(3) {
                fill.add_triangle(base + t[0], base + t[1], base + t[2]);
            }
        }
        Shape::None => {}
    }
}
