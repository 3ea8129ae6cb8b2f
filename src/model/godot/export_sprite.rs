//! A node's look in a Godot export: a sprite's texture, offset, tint and region, and the
//! `scale` factor that makes Godot draw its image at the sprite's graft size (`size × ppu`
//! pixels); a Polygon2D's colour and points (rects and ellipses as polygons).

use super::dialect::{Dialect, color_text};
use super::export_parts::{ExportReport, Look, TextureTable};
use super::tscn_text::num;
use crate::model::scene::{Shape, Sprite};
use glam::Vec2;
use std::fmt::Write as _;
use std::path::Path;

/// The factor a childless sprite's `scale` is multiplied by so that Godot, which draws its
/// image (or region) at its pixel size, draws it `size × ppu` pixels as graft draws it `size`
/// units; 1 when its image is not in the project or its size cannot be read.
pub(super) fn sprite_factor(sprite: &Sprite, tex: &mut TextureTable, ppu: f32) -> Vec2 {
    let file = tex.image_file(&sprite.path);
    if tex.id_of(&file).is_none() {
        return Vec2::ONE;
    }
    let Some(shown) = shown_pixels(sprite, &file) else {
        return Vec2::ONE;
    };
    let f = sprite.size * ppu / shown;
    if f.is_finite() && f.x != 0.0 && f.y != 0.0 {
        f
    } else {
        Vec2::ONE
    }
}

/// The pixel size Godot draws a sprite's image (or its region of it) at, when readable.
fn shown_pixels(sprite: &Sprite, file: &Path) -> Option<Vec2> {
    let image = crate::model::read_limit::image_size(file, crate::model::read_limit::IMAGE).ok()?;
    let image = Vec2::new(image.width as f32, image.height as f32);
    Some(match sprite.region {
        Some([u0, v0, u1, v1]) => Vec2::new((u1 - u0).abs(), (v1 - v0).abs()) * image,
        None => image,
    })
}

/// A Sprite2D's texture, offset, tint and region, and its graft size when its scale carries
/// it (`graft_size` metadata, for the import); notes an image outside the project and a size
/// Godot will draw differently.
pub(super) fn sprite_lines(
    out: &mut String,
    data: &crate::model::scene::NodeData,
    sprite: &Sprite,
    name: &str,
    mut tex: TextureTable,
    look: Look,
    report: &mut ExportReport,
) {
    let file = tex.image_file(&sprite.path);
    let Some(id) = tex.id_of(&file) else {
        report.notes.push(format!(
            "{name}: its image {} is not inside the Godot project folder: no texture written",
            file.display()
        ));
        return;
    };
    let dialect = tex.dialect;
    let _ = writeln!(out, "texture = {}", dialect.texture_ref(id));
    // Godot's offset is in the node's own pixels, before its scale.
    let offset = sprite.offset * look.ppu / look.factor;
    if offset != Vec2::ZERO {
        let _ = writeln!(
            out,
            "offset = {}",
            dialect.vec2(Vec2::new(offset.x, -offset.y))
        );
    }
    if data.color != [255, 255, 255, 255] {
        let _ = writeln!(out, "self_modulate = {}", color_text(data.color, dialect));
    }
    if look.factor != Vec2::ONE {
        let size = dialect.vec2(sprite.size);
        let _ = match dialect {
            Dialect::Godot4 => writeln!(out, "metadata/graft_size = {size}"),
            Dialect::Godot3 => writeln!(out, "__meta__ = {{\n\"graft_size\": {size}\n}}"),
        };
    }
    let Ok(image) = crate::model::read_limit::image_size(&file, crate::model::read_limit::IMAGE)
    else {
        return;
    };
    let image = Vec2::new(image.width as f32, image.height as f32);
    if let Some(uv) = sprite.region {
        region_lines(out, uv, image, dialect);
    }
    let shown = shown_pixels(sprite, &file).unwrap_or(image) * look.factor;
    let size = sprite.size * look.ppu;
    if (shown - size).abs().max_element() > 0.5 {
        report.notes.push(format!(
            "{name}: drawn {}×{} px at {} px per unit, but Godot draws its image at {}×{} px \
             (its scale would scale its children too)",
            size.x, size.y, look.ppu, shown.x, shown.y
        ));
    }
}

/// A sprite's uv region as Godot's pixel `region_rect` of an `image`-sized image, with flips
/// for reversed uvs.
fn region_lines(out: &mut String, [u0, v0, u1, v1]: [f32; 4], image: Vec2, dialect: Dialect) {
    let (lo, hi) = (
        Vec2::new(u0.min(u1), v0.min(v1)),
        Vec2::new(u0.max(u1), v0.max(v1)),
    );
    let _ = writeln!(out, "region_enabled = true");
    let (p, s) = (lo * image, (hi - lo) * image);
    let rect = dialect.call("Rect2", &[num(p.x), num(p.y), num(s.x), num(s.y)]);
    let _ = writeln!(out, "region_rect = {rect}");
    if u1 < u0 {
        let _ = writeln!(out, "flip_h = true");
    }
    if v1 < v0 {
        let _ = writeln!(out, "flip_v = true");
    }
}

/// Segments of an exported ellipse.
const ELLIPSE_SEGMENTS: usize = 24;
/// An ellipse's corners are written to this fraction of its size (they approximate it anyway,
/// and shorter numbers keep big scenes' files small).
const ELLIPSE_PRECISION: f64 = 1e-5;

/// `v` with `decimals` digits after the point, trailing zeros dropped.
fn rounded(v: f32, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" { "0".into() } else { text }
}

/// The polygon a rect or ellipse becomes in Godot.
fn outline_points(shape: &Shape) -> Option<Vec<Vec2>> {
    match shape {
        Shape::Rect { size } => {
            let h = *size * 0.5;
            Some(vec![
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ])
        }
        Shape::Ellipse { size } => Some(
            (0..ELLIPSE_SEGMENTS)
                .map(|k| {
                    let a = k as f64 / ELLIPSE_SEGMENTS as f64 * std::f64::consts::TAU;
                    Vec2::new(
                        (a.cos() * size.x as f64 * 0.5) as f32,
                        (a.sin() * size.y as f64 * 0.5) as f32,
                    )
                })
                .collect(),
        ),
        Shape::Polygon { points } => Some(points.to_vec()),
        _ => None,
    }
}

/// A Sprite2D's texture and placement, or a Polygon2D's points and colour.
pub(super) fn appearance_lines(
    out: &mut String,
    data: &crate::model::scene::NodeData,
    name: &str,
    tex: TextureTable,
    look: Look,
    report: &mut ExportReport,
) {
    match &data.shape {
        Shape::Sprite(sprite) => sprite_lines(out, data, sprite, name, tex, look, report),
        shape => {
            let mut shape = shape.clone();
            super::units::scale_shape(&mut shape, look.ppu);
            polygon_lines(out, &shape, data.color, tex.dialect)
        }
    }
}

/// A Polygon2D's colour and points (rects and ellipses as polygons; an ellipse's rounded to
/// its size); nothing for a shape with no outline.
fn polygon_lines(out: &mut String, shape: &Shape, color: [u8; 4], dialect: Dialect) {
    let Some(points) = outline_points(shape) else {
        return;
    };
    let flat: Vec<String> = match shape {
        Shape::Ellipse { size } => {
            let step = size.abs().max_element() as f64 * ELLIPSE_PRECISION;
            let decimals = (-step.log10()).ceil().clamp(0.0, 12.0) as usize;
            points
                .iter()
                .flat_map(|p| [rounded(p.x, decimals), rounded(-p.y, decimals)])
                .collect()
        }
        _ => points.iter().flat_map(|p| [num(p.x), num(-p.y)]).collect(),
    };
    let _ = writeln!(out, "color = {}", color_text(color, dialect));
    let _ = writeln!(
        out,
        "polygon = {}",
        dialect.call(dialect.points_type(), &flat)
    );
}
