//! Format versions: which version a scene needs when saved ([`needed_version`]), and which
//! features a file's stated version may hold when loaded (a version 1 file reads exactly as
//! before; anything newer in it is refused, naming the node and the version it needs).

use crate::error::{Error, Result};
use crate::model::anim::ClipSettings;
use crate::model::file::{FORMAT_VERSION, OLDEST_FORMAT_VERSION};
use crate::model::file_node::{FileNode, FileShape, full_region};
use crate::model::scene::{Scene, Shape};
use glam::Vec2;

impl FileNode {
    /// The first thing in this node that format `format` cannot hold, with the version it needs.
    fn feature_above(&self, format: u32) -> Option<(u32, &'static str)> {
        if format < 5 && self.index.is_some() {
            return Some((5, "sibling indexes of added nodes"));
        }
        if format < 4 && self.has_instance_fields() {
            return Some((4, "instances"));
        }
        if format < 3 && !self.tracks.is_empty() {
            return Some((3, "tracks"));
        }
        if format >= 2 {
            return None;
        }
        self.version_2_feature().map(|f| (2, f))
    }

    /// The first thing in this node that format 1 cannot hold.
    fn version_2_feature(&self) -> Option<&'static str> {
        if !self.probes.is_empty() {
            return Some("probes");
        }
        match &self.shape {
            FileShape::Polygon { .. } => Some("Polygon shapes"),
            FileShape::Sprite { region, .. } if *region != full_region() => Some("sprite regions"),
            FileShape::Sprite { offset, .. } if *offset != (0.0, 0.0) => Some("sprite offsets"),
            _ => None,
        }
    }
}

/// The first nodes, as they are parsed, that an older format cannot hold.
#[derive(Default)]
pub(super) struct VersionNeeds {
    /// For formats 1 to 4: the first node that format cannot hold, the version it needs,
    /// and why.
    first_above: [Option<(u32, u32, &'static str)>; 4],
}

impl VersionNeeds {
    /// Note what format a parsed node needs.
    pub(super) fn note(&mut self, node: &FileNode) {
        for (k, slot) in self.first_above.iter_mut().enumerate() {
            if slot.is_none()
                && let Some((version, feature)) = node.feature_above(k as u32 + 1)
            {
                *slot = Some((node.id, version, feature));
            }
        }
    }

    /// The first node that format `format` cannot hold: its id, the version and the feature.
    fn needs_above(&self, format: u32) -> Option<(u32, u32, &'static str)> {
        let k = (format.max(1) - 1) as usize;
        self.first_above.get(k).copied().flatten()
    }
}

/// The file's format version, refused when it is missing, not one this graft reads, or too
/// old for the clip or for a node (the node list's `needs`).
pub(super) fn check_format(
    format: Option<u32>,
    clip: &ClipSettings,
    needs: &VersionNeeds,
) -> Result<u32> {
    let format = match format {
        None => {
            return Err(Error::Format(format!(
                "`format` is missing (this graft reads `format: {FORMAT_VERSION}`)"
            )));
        }
        Some(v @ OLDEST_FORMAT_VERSION..=FORMAT_VERSION) => v,
        Some(other) => {
            return Err(Error::Format(format!(
                "format {other} is not supported (this graft reads formats \
                 {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION}; a newer graft wrote this file?)"
            )));
        }
    };
    if format < 3 && !clip.is_default() {
        return Err(Error::Format(format!(
            "the clip needs `format: 3` (this file says `format: {format}`)"
        )));
    }
    if let Some((node, version, feature)) = needs.needs_above(format) {
        return Err(Error::Format(format!(
            "node {node}: {feature} need `format: {version}` (this file says `format: {format}`)"
        )));
    }
    Ok(format)
}

/// The lowest format version that holds everything in the scene (5 with a node added before
/// an instanced node's own children, 4 with instances; 3 with tracks or a clip that
/// is not the default; else 1 unless it uses polygons, sprite regions or offsets, or probes), so
/// files that need nothing new stay readable by older grafts.
pub fn needed_version(scene: &Scene) -> u32 {
    if let Some(table) = scene.instances().filter(|t| t.in_use(scene)) {
        return if !crate::model::instance::save::sibling_indexes(scene, table).is_empty() {
            5
        } else {
            4
        };
    }
    if !scene.clip().is_default() || (0..scene.len()).any(|i| !scene.data_at(i).tracks.is_empty()) {
        return 3;
    }
    let needs_2 = (0..scene.len()).any(|i| {
        let data = scene.data_at(i);
        !data.probes.is_empty()
            || match &data.shape {
                Shape::Polygon { .. } => true,
                Shape::Sprite(sprite) => {
                    sprite.region.is_some() || !is_vec_bits(sprite.offset, Vec2::ZERO)
                }
                _ => false,
            }
    });
    if needs_2 { 2 } else { 1 }
}

/// True when the number has the bits of `default` (so `-0.0` is not `0.0`).
pub(super) fn is_bits(v: f32, default: f32) -> bool {
    v.to_bits() == default.to_bits()
}

/// True when both numbers have the bits of `default`'s (so `-0.0` is not `0.0`).
pub(super) fn is_vec_bits(v: Vec2, default: Vec2) -> bool {
    is_bits(v.x, default.x) && is_bits(v.y, default.y)
}
