//! One node as the `.ron` file writes it ([`FileNode`], [`FileShape`]), and its conversion into
//! the scene's [`NodeData`] with every number checked.

use crate::error::{Error, Result};
use crate::model::anim::Track;
use crate::model::file::{MAX_POLYGON_POINTS, MAX_PROBES_PER_NODE};
use crate::model::instance::Override;
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
    /// *Format 4*: the parent is this node (a chain of source ids) inside instance `parent`.
    #[serde(default, deserialize_with = "some")]
    pub(super) inside: Option<Vec<u32>>,
    /// *Format 5*: its place among the children of the instanced node it was added under.
    #[serde(default, deserialize_with = "some")]
    pub(super) index: Option<u32>,
    /// *Format 4*: this node is an instance of that scene file (relative to the folder).
    #[serde(default, deserialize_with = "some")]
    pub(super) instance: Option<String>,
    /// *Format 4*: the instance's overrides, keyed by source ids.
    #[serde(default)]
    pub(super) overrides: Vec<FileOverride>,
}

/// A value that is written without `Some(…)` but may be left out (`None` when missing).
fn some<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// One override of an instance as the file writes it: the source node's chain of ids and
/// the fields it sets (those left out follow the source).
#[derive(Deserialize)]
#[serde(rename = "Override", deny_unknown_fields)]
pub(super) struct FileOverride {
    node: Vec<u32>,
    #[serde(default, deserialize_with = "some")]
    name: Option<compact_str::CompactString>,
    #[serde(default, deserialize_with = "some")]
    position: Option<(f32, f32)>,
    #[serde(default, deserialize_with = "some")]
    rotation: Option<f32>,
    #[serde(default, deserialize_with = "some")]
    scale: Option<(f32, f32)>,
    #[serde(default, deserialize_with = "some")]
    skew: Option<f32>,
    #[serde(default, deserialize_with = "some")]
    shape: Option<FileShape>,
    #[serde(default, deserialize_with = "some")]
    color: Option<(u8, u8, u8, u8)>,
    #[serde(default, deserialize_with = "some")]
    probes: Option<Vec<(f32, f32)>>,
    #[serde(default, deserialize_with = "some")]
    tracks: Option<Vec<Track>>,
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
            inside: None,
            index: None,
            instance: None,
            overrides: Vec::new(),
        }
    }

    /// True when the node uses an instance field (an instance, its overrides, `inside`,
    /// `index`).
    pub(super) fn has_instance_fields(&self) -> bool {
        self.inside.is_some()
            || self.index.is_some()
            || self.instance.is_some()
            || !self.overrides.is_empty()
    }

    /// Take the node's instance fields out, checked: an instance's line holds only its
    /// name and transform (its look comes from the source, changed by overrides), overrides
    /// only on an instance, `inside` only with a parent, no empty chain.
    pub(super) fn take_instance(&mut self) -> Result<Option<NodeInstance>> {
        if !self.has_instance_fields() {
            return Ok(None);
        }
        let id = self.id;
        let bad = |why: &str| Err(Error::Format(format!("node {id}: {why}")));
        if self.instance.is_some()
            && (!matches!(self.shape, FileShape::None)
                || self.color != default_color()
                || !self.probes.is_empty()
                || !self.tracks.is_empty())
        {
            return bad(
                "an instance takes its shape, color, probes and tracks from its source \
                 (change them in `overrides`)",
            );
        }
        if self.instance.is_none() && !self.overrides.is_empty() {
            return bad("`overrides` need `instance`");
        }
        if self.inside.is_some() && self.parent.is_none() {
            return bad("`inside` needs a `parent` (the instance it is inside)");
        }
        if self.inside.as_ref().is_some_and(Vec::is_empty) {
            return bad("`inside` is empty");
        }
        if self.index.is_some() && self.parent.is_none() {
            return bad("`index` needs a `parent` (the instance it was added under)");
        }
        let overrides = std::mem::take(&mut self.overrides)
            .into_iter()
            .map(|o| o.into_override(id))
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(NodeInstance {
            inside: self.inside.take().map(Vec::into_boxed_slice),
            index: self.index.take(),
            source: self.instance.take(),
            overrides,
        }))
    }
}

/// A node's instance fields, checked: what the loader expands.
#[derive(Clone, Debug)]
pub(crate) struct NodeInstance {
    /// Its parent is this source node inside the instance `parent`.
    pub(crate) inside: Option<Box<[u32]>>,
    /// Its place among its parent's children (a node added before the source's own).
    pub(crate) index: Option<u32>,
    /// The scene file it instances.
    pub(crate) source: Option<String>,
    /// Its overrides, in file order.
    pub(crate) overrides: Vec<Override>,
}

impl FileOverride {
    /// The override, every number checked (errors name the instance `id`).
    fn into_override(self, id: u32) -> Result<Override> {
        if self.node.is_empty() {
            return Err(Error::Format(format!(
                "node {id}: an override's `node` is empty"
            )));
        }
        let vec = |v: (f32, f32)| Vec2::new(v.0, v.1);
        let finite = |ok: bool, field: &'static str| {
            if ok {
                Ok(())
            } else {
                Err(Error::NotFinite {
                    node: NodeId(id),
                    field,
                })
            }
        };
        let position = self.position.map(vec);
        let scale = self.scale.map(vec);
        finite(position.is_none_or(|v| v.is_finite()), "override position")?;
        finite(
            self.rotation.is_none_or(f32::is_finite),
            "override rotation",
        )?;
        finite(scale.is_none_or(|v| v.is_finite()), "override scale")?;
        finite(self.skew.is_none_or(f32::is_finite), "override skew")?;
        let shape = self.shape.map(|s| s.into_shape(id)).transpose()?;
        let probes = match self.probes {
            Some(p) if p.len() > MAX_PROBES_PER_NODE => {
                return Err(Error::Format(format!(
                    "node {id}: an override has too many probes"
                )));
            }
            Some(p) => Some(points_of(&p, id, "override probe")?),
            None => None,
        };
        if let Some(tracks) = &self.tracks {
            Scene::check_tracks(NodeId(id), tracks)?;
        }
        if let Some(name) = &self.name {
            crate::model::scene::name::check_name(name)?;
        }
        Ok(Override {
            node: self.node.into_boxed_slice(),
            name: self.name,
            position,
            rotation: self.rotation,
            scale,
            skew: self.skew,
            shape,
            color: self.color.map(|(r, g, b, a)| [r, g, b, a]),
            probes,
            tracks: self.tracks,
        })
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
