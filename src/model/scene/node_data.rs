//! A node's own data (everything except where it sits in the tree) and its colour: the leaf
//! the scene's columns, the loader and the instance table all build on.

use crate::model::anim::Track;
use crate::model::math::Trs;
use compact_str::CompactString;
use glam::Vec2;
use thin_vec::ThinVec;

use super::shape::Shape;

/// An RGBA colour, 8 bits per channel.
pub type Color = [u8; 4];

/// The default colour of a node: a soft grey-blue.
pub const DEFAULT_COLOR: Color = [160, 170, 190, 255];

/// Everything about a node except where it sits in the tree.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct NodeData {
    /// Shown in the hierarchy; need not be unique (up to 24 bytes stored inline).
    pub name: CompactString,
    /// The local transform.
    pub local: Trs,
    /// How the node is drawn.
    pub shape: Shape,
    /// Fill colour.
    pub color: Color,
    /// Point probes pinned in this node's local space (they move with it).
    pub probes: ThinVec<Vec2>,
    /// Keyframe tracks driving this node's local transform, at most one per channel.
    pub tracks: ThinVec<Track>,
}

impl Default for NodeData {
    fn default() -> Self {
        Self {
            name: CompactString::default(),
            local: Trs::IDENTITY,
            shape: Shape::None,
            color: DEFAULT_COLOR,
            probes: ThinVec::new(),
            tracks: ThinVec::new(),
        }
    }
}

impl NodeData {
    /// A node with a name and a local transform, not drawn.
    pub fn named(name: impl Into<CompactString>, local: Trs) -> Self {
        Self {
            name: name.into(),
            local,
            ..Self::default()
        }
    }
}
