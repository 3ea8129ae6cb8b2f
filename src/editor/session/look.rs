//! A node's look as the inspector edits it, without egui: the shape kinds it offers and what a
//! switch of kind gives (the size is kept; a polygon starts as the box's corners).

use crate::model::scene::Shape;
use glam::Vec2;

/// The kinds of shape the inspector offers, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    /// Only the origin marker.
    None,
    /// A rectangle.
    Rect,
    /// An ellipse.
    Ellipse,
    /// An image.
    Sprite,
    /// A polygon.
    Polygon,
}

impl ShapeKind {
    /// Every kind, in the inspector's order.
    pub const ALL: [ShapeKind; 5] = [
        ShapeKind::None,
        ShapeKind::Rect,
        ShapeKind::Ellipse,
        ShapeKind::Sprite,
        ShapeKind::Polygon,
    ];

    /// The kind of a shape.
    pub fn of(shape: &Shape) -> Self {
        match shape {
            Shape::None => ShapeKind::None,
            Shape::Rect { .. } => ShapeKind::Rect,
            Shape::Ellipse { .. } => ShapeKind::Ellipse,
            Shape::Sprite(_) => ShapeKind::Sprite,
            Shape::Polygon { .. } => ShapeKind::Polygon,
        }
    }

    /// The kind's name in the inspector.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::None => "none",
            ShapeKind::Rect => "rect",
            ShapeKind::Ellipse => "ellipse",
            ShapeKind::Sprite => "sprite",
            ShapeKind::Polygon => "polygon",
        }
    }
}

/// The width and height a shape takes (a unit square for none).
fn size_of(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Rect { size } | Shape::Ellipse { size } => *size,
        Shape::Sprite(sprite) => sprite.size,
        Shape::Polygon { .. } => crate::editor::view::geometry::half_size(shape) * 2.0,
        Shape::None => Vec2::ONE,
    }
}

/// `shape` switched to `kind`, keeping its size: a polygon starts as the corners of the box, a
/// sprite as the sample image. The same kind gives the shape back as it is.
pub fn switch_kind(shape: &Shape, kind: ShapeKind) -> Shape {
    if ShapeKind::of(shape) == kind {
        return shape.clone();
    }
    let size = size_of(shape);
    let h = size * 0.5;
    match kind {
        ShapeKind::None => Shape::None,
        ShapeKind::Rect => Shape::Rect { size },
        ShapeKind::Ellipse => Shape::Ellipse { size },
        ShapeKind::Sprite => Shape::sprite("../assets/fish.png", size),
        ShapeKind::Polygon => Shape::Polygon {
            points: thin_vec::thin_vec![
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ],
        },
    }
}
