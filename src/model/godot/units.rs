//! A change of units between Godot's pixels and graft's units, shared by the import and the
//! export.

use crate::model::scene::Shape;

/// Multiply a shape's geometry by `k` (a change of units: pixels per graft unit, or back).
pub(super) fn scale_shape(shape: &mut Shape, k: f32) {
    match shape {
        Shape::None => {}
        Shape::Rect { size } | Shape::Ellipse { size } => *size *= k,
        Shape::Polygon { points } => points.iter_mut().for_each(|p| *p *= k),
        Shape::Sprite(sprite) => {
            sprite.size *= k;
            sprite.offset *= k;
        }
    }
}
