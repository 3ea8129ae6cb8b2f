//! How imported Godot nodes look in graft: Sprite2D textures (size from the image file's
//! header, frames, regions, flips, centring and offset), Polygon2D and CollisionPolygon2D as
//! polygons, CollisionShape2D's rectangles, circles and capsules, ColorRect and TextureRect. All
//! in Godot's pixels (1 unit = 1 px), y flipped.

use super::classes::Kind;
use super::report::{Note, NoteKind};
use super::tree::{GNode, Loader, Prop, SubResource};
use super::tscn::Value;
use crate::model::scene::{Color, DEFAULT_COLOR, Shape, Sprite};
use glam::{DVec2, Vec2};
use std::path::PathBuf;
use thin_vec::{ThinVec, thin_vec};

/// Collision shapes are drawn in Godot's debug colour: translucent cyan.
const COLLISION_COLOR: Color = [60, 160, 220, 110];
/// A sprite whose image cannot be read is drawn as a box this many pixels wide.
const MISSING_IMAGE_PX: f32 = 32.0;
/// Segments per half circle of a capsule.
const CAPSULE_SEGMENTS: usize = 12;

/// A `Color(r, g, b, a)` as 8-bit RGBA.
fn color_of(value: &Value) -> Option<Color> {
    let v = value.numbers("Color")?;
    let byte = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    match v.as_slice() {
        [r, g, b, a] => Some([byte(*r), byte(*g), byte(*b), byte(*a)]),
        [r, g, b] => Some([byte(*r), byte(*g), byte(*b), 255]),
        _ => None,
    }
}

/// Points of a `PackedVector2Array` (Godot 4) or `PoolVector2Array` (Godot 3), in graft's y-up
/// space, moved by `offset` (Godot's y-down).
fn points_of(value: &Value, offset: DVec2) -> Option<ThinVec<Vec2>> {
    let v = value
        .numbers("PackedVector2Array")
        .or_else(|| value.numbers("PoolVector2Array"))?;
    Some(
        v.chunks_exact(2)
            .map(|p| Vec2::new((p[0] + offset.x) as f32, flip((p[1] + offset.y) as f32)))
            .collect(),
    )
}

/// The sub-resource a property refers to (`SubResource("id")`) in its own file.
fn sub_resource(prop: &Prop) -> Option<&SubResource> {
    let (_, id) = prop.value.resource_ref()?;
    prop.file.sub.get(&id)
}

/// A number property of a sub-resource.
fn sub_num(section: &SubResource, key: &str) -> Option<f64> {
    section.prop(key).and_then(Value::as_f64)
}

/// What a node looks like, and its colour; notes what could not be shown.
pub fn appearance(
    node: &GNode,
    kind: Kind,
    loader: &Loader,
    notes: &mut Vec<Note>,
) -> (Shape, Color) {
    let mut note = |kind: NoteKind, message: String| {
        notes.push(Note {
            kind,
            place: node.place(),
            message,
        })
    };
    let class = node.class.as_deref().unwrap_or("");
    match class {
        "Sprite2D" | "Sprite" => sprite(node, loader, &mut note),
        "Polygon2D" => polygon_2d(node),
        "CollisionPolygon2D" => collision_polygon(node),
        "CollisionShape2D" => (collision_shape(node, &mut note), COLLISION_COLOR),
        "ColorRect" => color_rect(node),
        "TextureRect" => texture_rect(node, loader),
        _ if kind == Kind::Control => (Shape::None, DEFAULT_COLOR),
        _ => (Shape::None, DEFAULT_COLOR),
    }
}

/// A node's own `color` property.
fn own_color(node: &GNode) -> Option<Color> {
    node.prop("color").and_then(|p| color_of(&p.value))
}

/// A number property of a node.
fn num_prop(node: &GNode, key: &str) -> Option<f64> {
    node.prop(key).and_then(|p| p.value.as_f64())
}

/// A bool property of a node, false when absent.
fn flag_prop(node: &GNode, key: &str) -> bool {
    node.prop(key)
        .and_then(|p| p.value.as_bool())
        .unwrap_or(false)
}

/// Polygon2D: its polygon moved by `offset`, in its colour (white by default).
fn polygon_2d(node: &GNode) -> (Shape, Color) {
    let offset = vec2_prop(node, "offset").unwrap_or(DVec2::ZERO);
    match node
        .prop("polygon")
        .and_then(|p| points_of(&p.value, offset))
    {
        Some(points) if points.len() >= 3 => (
            Shape::Polygon { points },
            own_color(node).unwrap_or([255, 255, 255, 255]),
        ),
        _ => (Shape::None, DEFAULT_COLOR),
    }
}

/// CollisionPolygon2D: its polygon, in the collision colour.
fn collision_polygon(node: &GNode) -> (Shape, Color) {
    match node
        .prop("polygon")
        .and_then(|p| points_of(&p.value, DVec2::ZERO))
    {
        Some(points) if points.len() >= 3 => (Shape::Polygon { points }, COLLISION_COLOR),
        _ => (Shape::None, DEFAULT_COLOR),
    }
}

/// ColorRect: a box of its size from its top-left corner, in its colour (white by default).
fn color_rect(node: &GNode) -> (Shape, Color) {
    match control_size(node) {
        Some(size) => (
            top_left_box(size),
            own_color(node).unwrap_or([255, 255, 255, 255]),
        ),
        None => (Shape::None, DEFAULT_COLOR),
    }
}

/// TextureRect: its texture stretched over its size, from its top-left corner.
fn texture_rect(node: &GNode, loader: &Loader) -> (Shape, Color) {
    match (texture(node, loader), control_size(node)) {
        (Some(Texture { path, .. }), Some(size)) => (
            Shape::from(Sprite {
                path: path.display().to_string(),
                size: size.as_vec2(),
                region: None,
                offset: Vec2::new(size.x as f32 * 0.5, flip(size.y as f32 * 0.5)),
            }),
            [255, 255, 255, 255],
        ),
        _ => (Shape::None, DEFAULT_COLOR),
    }
}

/// A Control's size: its `size`, or its offsets' span when its anchors do not stretch it.
fn control_size(node: &GNode) -> Option<DVec2> {
    if let Some(size) = vec2_prop(node, "size").or_else(|| vec2_prop(node, "rect_size")) {
        return Some(size);
    }
    let num = |k: &str| node.prop(k).and_then(|p| p.value.as_f64());
    let w = num("offset_right").or(num("margin_right"))?
        - num("offset_left").or(num("margin_left")).unwrap_or(0.0);
    let h = num("offset_bottom").or(num("margin_bottom"))?
        - num("offset_top").or(num("margin_top")).unwrap_or(0.0);
    (w > 0.0 && h > 0.0).then_some(DVec2::new(w, h))
}

/// A box whose top-left corner is the origin (a Control's rect), y flipped.
fn top_left_box(size: DVec2) -> Shape {
    let (w, h) = (size.x as f32, size.y as f32);
    Shape::Polygon {
        points: thin_vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, flip(h)),
            Vec2::new(w, flip(h)),
            Vec2::new(w, 0.0),
        ],
    }
}

/// A texture: its image file, the image's pixel size when its header can be read, and for an
/// `AtlasTexture` the part of the image it is (x, y, w, h in pixels).
struct Texture {
    path: PathBuf,
    size: Option<DVec2>,
    atlas: Option<[f64; 4]>,
}

/// The texture a `texture` property names (an image file, or an `AtlasTexture` sub-resource
/// over one).
fn texture(node: &GNode, loader: &Loader) -> Option<Texture> {
    let prop = node.prop("texture")?;
    let (path, atlas) = match prop.value.resource_ref()? {
        (super::tscn::ResourceKind::Ext, id) => {
            let ext = prop.file.ext.get(&id)?;
            (ext.path.clone()?, None)
        }
        (super::tscn::ResourceKind::Sub, id) => {
            let sub = prop.file.sub.get(&id)?;
            let (_, aid) = sub.prop("atlas")?.resource_ref()?;
            let ext = prop.file.ext.get(&aid)?;
            let region = sub
                .prop("region")
                .and_then(|r| r.numbers("Rect2"))
                .and_then(|r| <[f64; 4]>::try_from(r.as_slice()).ok())
                .filter(|r| r[2] > 0.0 && r[3] > 0.0);
            (loader.resolve(&prop.file.path, &ext.written)?, region)
        }
    };
    let size = crate::model::read_limit::image_size(&path, crate::model::read_limit::IMAGE)
        .ok()
        .map(|s| DVec2::new(s.width as f64, s.height as f64));
    Some(Texture { path, size, atlas })
}

/// Sprite2D: the image's size (or its region's), divided into frames; the part shown as a
/// region (flipped when flip_h / flip_v); centred or with its top-left at the origin, moved by
/// `offset`.
fn sprite(
    node: &GNode,
    loader: &Loader,
    note: &mut impl FnMut(NoteKind, String),
) -> (Shape, Color) {
    let tint = node
        .prop("self_modulate")
        .and_then(|p| color_of(&p.value))
        .unwrap_or([255, 255, 255, 255]);
    let Some(Texture {
        path,
        size: image,
        atlas,
    }) = texture(node, loader)
    else {
        if node.prop("texture").is_some() {
            note(
                NoteKind::Missing,
                format!(
                    "Sprite2D \"{}\": its texture is not a file graft can locate",
                    node.name
                ),
            );
        }
        return (Shape::None, DEFAULT_COLOR);
    };
    let region_rect = flag_prop(node, "region_enabled")
        .then(|| node.prop("region_rect")?.value.numbers("Rect2"))
        .flatten()
        .filter(|r| r.len() == 4);
    let image = match image {
        Some(size) => size,
        None => guessed_image_size(&path, atlas, region_rect.as_deref(), note),
    };
    let [x, y, w, h] = shown_frame(node, image, atlas, region_rect.as_deref());
    let region = frame_region(node, [x, y, w, h], image);
    let mut centre = vec2_prop(node, "offset").unwrap_or(DVec2::ZERO);
    if !node
        .prop("centered")
        .and_then(|p| p.value.as_bool())
        .unwrap_or(true)
    {
        centre += DVec2::new(w, h) * 0.5;
    }
    let shape = Shape::from(Sprite {
        path: path.display().to_string(),
        size: Vec2::new(w as f32, h as f32),
        region,
        offset: Vec2::new(centre.x as f32, flip(centre.y as f32)),
    });
    (shape, tint)
}

/// The size an unreadable image is taken to have (noted): the atlas region's extent, else the
/// sprite's region's size, else a small box.
fn guessed_image_size(
    path: &std::path::Path,
    atlas: Option<[f64; 4]>,
    region_rect: Option<&[f64]>,
    note: &mut impl FnMut(NoteKind, String),
) -> DVec2 {
    if let Some(a) = atlas {
        note(
            NoteKind::Missing,
            format!(
                "cannot read the size of the image {} (missing, or not an image): its atlas regions are drawn without it",
                path.display()
            ),
        );
        return DVec2::new(a[0] + a[2], a[1] + a[3]);
    }
    let shown = region_rect.map_or(MISSING_IMAGE_PX as f64, |r| r[2]);
    note(
        NoteKind::Missing,
        format!(
            "cannot read the size of the image {} (missing, or not an image): its sprites are drawn as {shown} px boxes",
            path.display()
        ),
    );
    match region_rect {
        Some(r) => DVec2::new(r[2], r[3]),
        None => DVec2::splat(MISSING_IMAGE_PX as f64),
    }
}

/// The shown rect `[x, y, w, h]` in pixels: the texture (an atlas region, or the whole image),
/// or the sprite's region of it; then one frame of that (`hframes`, `vframes`, `frame` or
/// `frame_coords`). `region_rect` has 4 numbers.
fn shown_frame(
    node: &GNode,
    image: DVec2,
    atlas: Option<[f64; 4]>,
    region_rect: Option<&[f64]>,
) -> [f64; 4] {
    let [ax, ay, aw, ah] = atlas.unwrap_or([0.0, 0.0, image.x, image.y]);
    let (x, y, w, h) = match region_rect {
        Some(r) => (ax + r[0], ay + r[1], r[2], r[3]),
        None => (ax, ay, aw, ah),
    };
    let hframes = num_prop(node, "hframes").unwrap_or(1.0).max(1.0);
    let vframes = num_prop(node, "vframes").unwrap_or(1.0).max(1.0);
    let frame = num_prop(node, "frame").unwrap_or(0.0).max(0.0);
    let (col, row) = match vec2_prop(node, "frame_coords") {
        Some(c) => (c.x, c.y),
        None => (frame % hframes, (frame / hframes).floor()),
    };
    let (w, h) = (w / hframes, h / vframes);
    [x + col * w, y + row * h, w, h]
}

/// The shown rect as a sprite's uv region (flipped by `flip_h` / `flip_v`), or None when it is
/// the whole image (or not finite).
fn frame_region(node: &GNode, [x, y, w, h]: [f64; 4], image: DVec2) -> Option<[f32; 4]> {
    let mut uv = [
        x / image.x,
        y / image.y,
        (x + w) / image.x,
        (y + h) / image.y,
    ];
    if flag_prop(node, "flip_h") {
        uv.swap(0, 2);
    }
    if flag_prop(node, "flip_v") {
        uv.swap(1, 3);
    }
    let uv = uv.map(|v| v as f32);
    (uv != [0.0, 0.0, 1.0, 1.0] && uv.iter().all(|v| v.is_finite())).then_some(uv)
}

/// CollisionShape2D: rectangles and circles exactly, capsules as polygons, convex polygons as
/// polygons; other shapes (segments, boundaries, concave) are noted and not drawn.
fn collision_shape(node: &GNode, note: &mut impl FnMut(NoteKind, String)) -> Shape {
    let Some(section) = node.prop("shape").and_then(sub_resource) else {
        return Shape::None;
    };
    let godot3 = node.prop("shape").is_some_and(|p| p.file.format <= 2);
    let vec2 = |k: &str| {
        let v = section.prop(k)?.numbers("Vector2")?;
        (v.len() == 2).then(|| DVec2::new(v[0], v[1]))
    };
    match section.kind.as_str() {
        "RectangleShape2D" => {
            let size = vec2("size").or_else(|| vec2("extents").map(|e| e * 2.0));
            let size = size.unwrap_or(DVec2::splat(20.0));
            Shape::Rect {
                size: size.as_vec2(),
            }
        }
        "CircleShape2D" => {
            let r = sub_num(section, "radius").unwrap_or(10.0);
            Shape::Ellipse {
                size: Vec2::splat((2.0 * r) as f32),
            }
        }
        "CapsuleShape2D" => {
            let r = sub_num(section, "radius").unwrap_or(10.0);
            let height = sub_num(section, "height").unwrap_or(if godot3 { 20.0 } else { 30.0 });
            // Godot 4's height is the whole capsule's; Godot 3's is the part between the caps.
            let middle = if godot3 {
                height
            } else {
                (height - 2.0 * r).max(0.0)
            };
            capsule(r, middle)
        }
        "ConvexPolygonShape2D" => match section
            .prop("points")
            .and_then(|v| points_of(v, DVec2::ZERO))
        {
            Some(points) if points.len() >= 3 => Shape::Polygon { points },
            _ => Shape::None,
        },
        other => {
            note(
                NoteKind::Skipped,
                format!(
                    "{other} of \"{}\" is not drawn (graft draws areas, not lines)",
                    node.name
                ),
            );
            Shape::None
        }
    }
}

/// A vertical capsule: two half circles of radius `r` joined by straight sides `middle` long.
fn capsule(r: f64, middle: f64) -> Shape {
    let mut points = ThinVec::with_capacity(2 * CAPSULE_SEGMENTS + 2);
    for (centre_y, from) in [(middle * 0.5, 0.0), (-middle * 0.5, std::f64::consts::PI)] {
        for k in 0..=CAPSULE_SEGMENTS {
            let a = from + std::f64::consts::PI * k as f64 / CAPSULE_SEGMENTS as f64;
            points.push(Vec2::new(
                (r * a.cos()) as f32,
                (centre_y + r * a.sin()) as f32,
            ));
        }
    }
    Shape::Polygon { points }
}

/// `Vector2(x, y)` (or Godot 3's `Vector2( x, y )`) of a property.
pub(super) fn vec2_prop(node: &GNode, key: &str) -> Option<DVec2> {
    vec2_of(&node.prop(key)?.value)
}

/// A `Vector2(x, y)` value.
pub(super) fn vec2_of(value: &Value) -> Option<DVec2> {
    match value.numbers("Vector2")?.as_slice() {
        [x, y] => Some(DVec2::new(*x, *y)),
        _ => None,
    }
}

/// −v, but +0 for zero (so an unrotated node is written `rotation: 0.0`, not `-0.0`).
pub(super) fn flip(v: f32) -> f32 {
    0.0 - v
}
