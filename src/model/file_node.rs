//! One node as the `.ron` file writes it ([`FileNode`], [`FileShape`]), and its conversion into
//! the scene's [`NodeData`] with every number checked.

use crate::error::{Error, Result};
use crate::model::anim::Track;
use crate::model::file::{MAX_POLYGON_POINTS, MAX_PROBES_PER_NODE};
use crate::model::math::Trs;
use crate::model::scene::{DEFAULT_COLOR, NodeData, NodeId, Scene, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A node of the file's node list, as parsed (fields left out take their defaults).
#[derive(Deserialize)]
#[serde(rename = "Node", deny_unknown_fields)]
pub(super) struct FileNode {
    pub(super) id: u32,
    #[serde(default)]
    pub(super) name: compact_str::CompactString,
    #[serde(default)]
    pub(super) parent: Option<u32>,
    #[serde(default)]
    pub(super) position: (f32, f32),
    #[serde(default)]
    pub(super) rotation: f32,
    #[serde(default = "unit_scale")]
    pub(super) scale: (f32, f32),
    #[serde(default)]
    pub(super) skew: f32,
    #[serde(default)]
    pub(super) shape: FileShape,
    #[serde(default = "default_color")]
    pub(super) color: (u8, u8, u8, u8),
    #[serde(default)]
    pub(super) probes: Vec<(f32, f32)>,
    #[serde(default)]
    pub(super) tracks: Vec<Track>,
}

impl FileNode {
    /// Node `id` with every other field at the default a file leaves out.
    pub(super) fn with_id(id: u32) -> Self {
        Self {
            id,
            name: Default::default(),
            parent: None,
            position: (0.0, 0.0),
            rotation: 0.0,
            scale: unit_scale(),
            skew: 0.0,
            shape: FileShape::None,
            color: default_color(),
            probes: Vec::new(),
            tracks: Vec::new(),
        }
    }
}

/// Scale (1, 1): the default of a scale left out of the file.
pub(super) fn unit_scale() -> (f32, f32) {
    (1.0, 1.0)
}

fn default_color() -> (u8, u8, u8, u8) {
    let [r, g, b, a] = DEFAULT_COLOR;
    (r, g, b, a)
}

/// A node's shape as the file writes it.
#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) enum FileShape {
    #[default]
    None,
    Rect {
        size: (f32, f32),
    },
    Ellipse {
        size: (f32, f32),
    },
    Sprite {
        path: String,
        #[serde(default = "unit_scale")]
        size: (f32, f32),
        #[serde(default = "full_region")]
        region: (f32, f32, f32, f32),
        #[serde(default)]
        offset: (f32, f32),
    },
    Polygon {
        points: Vec<(f32, f32)>,
    },
}

/// The whole image: a sprite region that is left out of the file.
const FULL_REGION: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// [`FULL_REGION`] as the file writes it.
pub(super) fn full_region() -> (f32, f32, f32, f32) {
    let [a, b, c, d] = FULL_REGION;
    (a, b, c, d)
}

/// Bytes of one node of the parse tree (`FileNode`, the list serde builds before the scene's
/// arrays), for `graft bench memory`.
#[doc(hidden)]
pub fn parse_tree_node_bytes() -> usize {
    std::mem::size_of::<FileNode>()
}

fn size_of(size: (f32, f32), id: u32) -> Result<Vec2> {
    let v = Vec2::new(size.0, size.1);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::NotFinite {
            node: NodeId(id),
            field: "shape size",
        })
    }
}

/// Points from the file, refused when any is not finite.
fn points_of(points: &[(f32, f32)], id: u32, field: &'static str) -> Result<Vec<Vec2>> {
    let out: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    if out.iter().all(|p| p.is_finite()) {
        Ok(out)
    } else {
        Err(Error::NotFinite {
            node: NodeId(id),
            field,
        })
    }
}

impl FileNode {
    /// The node's id, parent and data, every number checked.
    pub(super) fn into_parts(self) -> Result<(NodeId, Option<NodeId>, NodeData)> {
        let shape = self.shape.into_shape(self.id)?;
        if self.probes.len() > MAX_PROBES_PER_NODE {
            return Err(Error::Format(format!(
                "node {}: {} probes (at most {MAX_PROBES_PER_NODE})",
                self.id,
                self.probes.len()
            )));
        }
        let probes = points_of(&self.probes, self.id, "probe")?;
        Scene::check_tracks(NodeId(self.id), &self.tracks)?;
        let (r, g, b, a) = self.color;
        Ok((
            NodeId(self.id),
            self.parent.map(NodeId),
            NodeData {
                name: self.name,
                local: Trs::new(
                    Vec2::new(self.position.0, self.position.1),
                    self.rotation,
                    Vec2::new(self.scale.0, self.scale.1),
                    self.skew,
                ),
                shape,
                color: [r, g, b, a],
                probes: probes.into(),
                tracks: self.tracks.into(),
            },
        ))
    }
}

impl FileShape {
    /// The shape of node `id`, every number checked.
    fn into_shape(self, id: u32) -> Result<Shape> {
        Ok(match self {
            FileShape::None => Shape::None,
            FileShape::Rect { size } => Shape::Rect {
                size: size_of(size, id)?,
            },
            FileShape::Ellipse { size } => Shape::Ellipse {
                size: size_of(size, id)?,
            },
            FileShape::Sprite {
                path,
                size,
                region,
                offset,
            } => sprite_of(path, size, region, offset, id)?,
            FileShape::Polygon { points } => {
                if points.len() > MAX_POLYGON_POINTS {
                    return Err(Error::Format(format!(
                        "node {id}: a polygon has {} points (at most {MAX_POLYGON_POINTS})",
                        points.len()
                    )));
                }
                Shape::Polygon {
                    points: points_of(&points, id, "polygon point")?.into(),
                }
            }
        })
    }
}

/// A sprite from the file, refused when its region, size or offset is not finite (a full
/// region is stored as none).
fn sprite_of(
    path: String,
    size: (f32, f32),
    region: (f32, f32, f32, f32),
    offset: (f32, f32),
    id: u32,
) -> Result<Shape> {
    let r = [region.0, region.1, region.2, region.3];
    if !r.iter().all(|v| v.is_finite()) {
        return Err(Error::NotFinite {
            node: NodeId(id),
            field: "sprite region",
        });
    }
    Ok(Shape::Sprite(Box::new(crate::model::scene::Sprite {
        path,
        size: size_of(size, id)?,
        region: (r != FULL_REGION).then_some(r),
        offset: size_of(offset, id)?,
    })))
}
