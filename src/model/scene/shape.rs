//! How a node is drawn: [`Shape`], and the [`Sprite`] it boxes so that every node's shape
//! stays 16 bytes (the sprite's fields are 64).

use glam::Vec2;
use thin_vec::ThinVec;

/// How a node is drawn, in its local space, centred on its origin.
#[derive(Clone, Debug, PartialEq, Default, serde::Deserialize, serde::Serialize)]
pub enum Shape {
    /// Only the origin marker.
    #[default]
    None,
    /// An axis-aligned rectangle of this size.
    Rect {
        /// Width and height.
        size: Vec2,
    },
    /// An ellipse inside a box of this size.
    Ellipse {
        /// Width and height.
        size: Vec2,
    },
    /// An image from `assets/` stretched over a box (boxed: few nodes are sprites).
    Sprite(Box<Sprite>),
    /// A polygon through these local points (any simple polygon, convex or not).
    Polygon {
        /// The corners, in order (a thin vector: one pointer in the shape).
        points: ThinVec<Vec2>,
    },
}

/// An image from `assets/` stretched over a box of `size`, centred on `offset`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Sprite {
    /// The image path, relative to the scene file.
    pub path: String,
    /// Width and height.
    pub size: Vec2,
    /// The part of the image shown, as fractions of its width and height
    /// `[u_min, v_min, u_max, v_max]` (v grows down the image; reversed = flipped).
    /// `None` = the whole image.
    pub region: Option<[f32; 4]>,
    /// Where the image's centre is in the node's space (Godot's `offset`, or the shift of
    /// an image that is not centred); zero = centred on the origin.
    pub offset: Vec2,
}

impl Sprite {
    /// The whole image at `path` over a box of `size`, centred on the origin.
    pub fn new(path: impl Into<String>, size: Vec2) -> Self {
        Self {
            path: path.into(),
            size,
            region: None,
            offset: Vec2::ZERO,
        }
    }
}

impl From<Sprite> for Shape {
    fn from(sprite: Sprite) -> Self {
        Shape::Sprite(Box::new(sprite))
    }
}

impl Shape {
    /// A sprite of the whole image at `path` over a box of `size`, centred on the origin.
    pub fn sprite(path: impl Into<String>, size: Vec2) -> Self {
        Sprite::new(path, size).into()
    }

    /// A polygon through these local points.
    pub fn polygon(points: impl Into<ThinVec<Vec2>>) -> Self {
        Shape::Polygon {
            points: points.into(),
        }
    }

    /// True when every number of the shape is finite.
    pub fn is_finite(&self) -> bool {
        match self {
            Shape::None => true,
            Shape::Rect { size } | Shape::Ellipse { size } => size.is_finite(),
            Shape::Sprite(sprite) => {
                sprite.size.is_finite()
                    && sprite.offset.is_finite()
                    && (sprite.region).is_none_or(|r| r.iter().all(|v| v.is_finite()))
            }
            Shape::Polygon { points } => points.iter().all(|p| p.is_finite()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::NodeData;
    use super::*;
    use std::mem::size_of;

    /// Per-node memory at 1M nodes (issue 14): a regression here costs megabytes.
    #[test]
    fn node_data_and_shape_stay_small() {
        let (shape, node) = (size_of::<Shape>(), size_of::<NodeData>());
        assert!(shape <= 24, "Shape is {shape} B");
        assert!(node <= 96, "NodeData is {node} B");
    }

    #[test]
    fn empty_lists_and_short_names_allocate_nothing() {
        let data = NodeData::named(
            "a node name of 24 bytes!",
            crate::model::math::Trs::IDENTITY,
        );
        assert!(!data.name.is_heap_allocated());
        assert_eq!(data.probes.capacity(), 0);
        assert_eq!(data.tracks.capacity(), 0);
    }
}
