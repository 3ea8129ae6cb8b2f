//! Overrides: the fields of one source node an instance changes, applied when the instance is
//! expanded and found again at save by comparing the node with its source (floats by bits).

use super::ids::Chain;
use crate::model::anim::Track;
use crate::model::math::Trs;
use crate::model::scene::{Color, NodeData, Shape};
use compact_str::CompactString;
use glam::Vec2;

/// Which fields of a node an override sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FieldSet(pub u16);

impl FieldSet {
    /// The name.
    pub const NAME: u16 = 1;
    /// The position.
    pub const POSITION: u16 = 2;
    /// The rotation.
    pub const ROTATION: u16 = 4;
    /// The scale.
    pub const SCALE: u16 = 8;
    /// The skew.
    pub const SKEW: u16 = 16;
    /// The shape (a sprite included).
    pub const SHAPE: u16 = 32;
    /// The colour.
    pub const COLOR: u16 = 64;
    /// The probes.
    pub const PROBES: u16 = 128;
    /// The animation tracks.
    pub const TRACKS: u16 = 256;
    /// What an instance root's override may set: its name and transform are its own.
    pub const ROOT: u16 = Self::SHAPE | Self::COLOR | Self::PROBES | Self::TRACKS;

    /// True when `bit` is in the set.
    pub fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }
}

/// The fields of one source node that an instance sets; `None` follows the source.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Override {
    /// The source node: its chain of ids.
    pub node: Chain,
    /// The name.
    pub name: Option<CompactString>,
    /// The local position.
    pub position: Option<Vec2>,
    /// The local rotation (degrees).
    pub rotation: Option<f32>,
    /// The local scale.
    pub scale: Option<Vec2>,
    /// The local skew (degrees).
    pub skew: Option<f32>,
    /// The shape.
    pub shape: Option<Shape>,
    /// The colour.
    pub color: Option<Color>,
    /// The probes.
    pub probes: Option<Vec<Vec2>>,
    /// The tracks.
    pub tracks: Option<Vec<Track>>,
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

fn same_vec(a: Vec2, b: Vec2) -> bool {
    same(a.x, b.x) && same(a.y, b.y)
}

impl Override {
    /// The fields it sets.
    pub fn fields(&self) -> FieldSet {
        let bits = [
            (self.name.is_some(), FieldSet::NAME),
            (self.position.is_some(), FieldSet::POSITION),
            (self.rotation.is_some(), FieldSet::ROTATION),
            (self.scale.is_some(), FieldSet::SCALE),
            (self.skew.is_some(), FieldSet::SKEW),
            (self.shape.is_some(), FieldSet::SHAPE),
            (self.color.is_some(), FieldSet::COLOR),
            (self.probes.is_some(), FieldSet::PROBES),
            (self.tracks.is_some(), FieldSet::TRACKS),
        ];
        FieldSet(bits.iter().filter(|(on, _)| *on).map(|(_, b)| b).sum())
    }

    /// True when it sets nothing.
    pub fn is_empty(&self) -> bool {
        self.fields().0 == 0
    }

    /// Set the fields it holds on `data`.
    pub fn apply(&self, data: &mut NodeData) {
        if let Some(name) = &self.name {
            data.name = name.clone();
        }
        let l = data.local;
        data.local = Trs::new(
            self.position.unwrap_or(l.position),
            self.rotation.unwrap_or(l.rotation),
            self.scale.unwrap_or(l.scale),
            self.skew.unwrap_or(l.skew),
        );
        if let Some(shape) = &self.shape {
            data.shape = shape.clone();
        }
        if let Some(color) = self.color {
            data.color = color;
        }
        if let Some(probes) = &self.probes {
            data.probes = probes.clone().into();
        }
        if let Some(tracks) = &self.tracks {
            data.tracks = tracks.clone().into();
        }
    }

    /// The override that turns `base` into `now`: every field that differs (floats by
    /// bits) or that `sticky` keeps, limited to `allowed`. None when it sets nothing.
    pub fn diff(
        node: Chain,
        base: &NodeData,
        now: &NodeData,
        sticky: FieldSet,
        allowed: u16,
    ) -> Option<Override> {
        let on = |bit: u16, differs: bool| allowed & bit != 0 && (differs || sticky.has(bit));
        let (b, n) = (&base.local, &now.local);
        let o = Override {
            node,
            name: on(FieldSet::NAME, base.name != now.name).then(|| now.name.clone()),
            position: on(FieldSet::POSITION, !same_vec(b.position, n.position))
                .then_some(n.position),
            rotation: on(FieldSet::ROTATION, !same(b.rotation, n.rotation)).then_some(n.rotation),
            scale: on(FieldSet::SCALE, !same_vec(b.scale, n.scale)).then_some(n.scale),
            skew: on(FieldSet::SKEW, !same(b.skew, n.skew)).then_some(n.skew),
            shape: on(FieldSet::SHAPE, base.shape != now.shape).then(|| now.shape.clone()),
            color: on(FieldSet::COLOR, base.color != now.color).then_some(now.color),
            probes: on(FieldSet::PROBES, base.probes != now.probes).then(|| now.probes.to_vec()),
            tracks: on(FieldSet::TRACKS, base.tracks != now.tracks).then(|| now.tracks.to_vec()),
        };
        (!o.is_empty()).then_some(o)
    }

    /// The chain as a person reads it: `7`, or `12/7` for a node of a nested instance.
    pub fn node_text(chain: &[u32]) -> String {
        let parts: Vec<String> = chain.iter().map(u32::to_string).collect();
        parts.join("/")
    }
}

impl FieldSet {
    /// The fields' names as the file writes them.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [(u16, &str); 9] = [
            (FieldSet::NAME, "name"),
            (FieldSet::POSITION, "position"),
            (FieldSet::ROTATION, "rotation"),
            (FieldSet::SCALE, "scale"),
            (FieldSet::SKEW, "skew"),
            (FieldSet::SHAPE, "shape"),
            (FieldSet::COLOR, "color"),
            (FieldSet::PROBES, "probes"),
            (FieldSet::TRACKS, "tracks"),
        ];
        NAMES
            .iter()
            .filter(|(b, _)| self.has(*b))
            .map(|(_, n)| *n)
            .collect()
    }
}
