//! Keyframe animation, the model half: which number of a local transform a track drives
//! ([`Channel`]), keys and how to go from one to the next ([`Interp`]), tracks and their
//! sampling, the clip's length and loop mode ([`ClipSettings`]). No egui, no scene: tracks live
//! on their node (`NodeData::tracks`), the clip on the scene (`Scene::clip`), and playing writes
//! sampled locals into the scene without the history (`Scene::set_pose_at`).
//!
//! Sampling is *by value*: a rotation keyed 0° → 720° turns twice; nothing takes the shortest
//! path. Before the first key a track holds the first value, after the last key the last one,
//! so a node whose first key is at 0 s shows at 0 s exactly what its first key says.

use crate::model::math::Trs;
use serde::Deserialize;
use std::fmt;

/// The number of a node's local transform that a track drives.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize,
)]
pub enum Channel {
    /// `position.x`.
    PositionX,
    /// `position.y`.
    PositionY,
    /// `rotation`, degrees.
    Rotation,
    /// `scale.x`.
    ScaleX,
    /// `scale.y`.
    ScaleY,
    /// `skew`, degrees.
    Skew,
}

impl Channel {
    /// Every channel, in the order the inspector lists a transform's numbers.
    pub const ALL: [Channel; 6] = [
        Channel::PositionX,
        Channel::PositionY,
        Channel::Rotation,
        Channel::ScaleX,
        Channel::ScaleY,
        Channel::Skew,
    ];

    /// The name the scene file uses (`PositionX`, `Rotation`, …).
    pub fn name(self) -> &'static str {
        match self {
            Channel::PositionX => "PositionX",
            Channel::PositionY => "PositionY",
            Channel::Rotation => "Rotation",
            Channel::ScaleX => "ScaleX",
            Channel::ScaleY => "ScaleY",
            Channel::Skew => "Skew",
        }
    }

    /// A label for people (`position x`, `rotation`, …).
    pub fn label(self) -> &'static str {
        match self {
            Channel::PositionX => "position x",
            Channel::PositionY => "position y",
            Channel::Rotation => "rotation",
            Channel::ScaleX => "scale x",
            Channel::ScaleY => "scale y",
            Channel::Skew => "skew",
        }
    }

    /// This channel's number in a transform.
    pub fn get(self, t: &Trs) -> f32 {
        match self {
            Channel::PositionX => t.position.x,
            Channel::PositionY => t.position.y,
            Channel::Rotation => t.rotation,
            Channel::ScaleX => t.scale.x,
            Channel::ScaleY => t.scale.y,
            Channel::Skew => t.skew,
        }
    }

    /// Set this channel's number in a transform (the others stay as they are).
    pub fn set(self, t: &mut Trs, value: f32) {
        match self {
            Channel::PositionX => t.position.x = value,
            Channel::PositionY => t.position.y = value,
            Channel::Rotation => t.rotation = value,
            Channel::ScaleX => t.scale.x = value,
            Channel::ScaleY => t.scale.y = value,
            Channel::Skew => t.skew = value,
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How a track goes from one key to the next (set on the earlier key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Deserialize, serde::Serialize)]
pub enum Interp {
    /// A straight line between the two values.
    #[default]
    Linear,
    /// Slow out, slow in: smoothstep 3u² − 2u³ of the segment's fraction u.
    EaseInOut,
    /// Hold this key's value until the next key's time.
    Step,
}

impl Interp {
    /// Every interpolation, as a menu lists them.
    pub const ALL: [Interp; 3] = [Interp::Linear, Interp::EaseInOut, Interp::Step];

    /// The name the scene file uses.
    pub fn name(self) -> &'static str {
        match self {
            Interp::Linear => "Linear",
            Interp::EaseInOut => "EaseInOut",
            Interp::Step => "Step",
        }
    }

    /// How far from this key's value to the next key's (0 … 1) at fraction `u` (0 … 1) of the
    /// way between their times.
    pub fn weight(self, u: f64) -> f64 {
        match self {
            Interp::Linear => u,
            Interp::EaseInOut => u * u * (3.0 - 2.0 * u),
            Interp::Step => 0.0,
        }
    }
}

/// One key: at `time` (seconds of clip time) the channel is `value`; `interp` says how to go
/// from here to the next key. Displayed (and read) in the scene file's form,
/// `(time: 2.0, value: 360.0, interp: Step)`, `interp` left out when linear.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename = "Key", deny_unknown_fields)]
pub struct Key {
    /// Clip time, seconds.
    pub time: f32,
    /// The channel's value at that time (degrees for rotation and skew).
    pub value: f32,
    /// How to go from this key to the next.
    #[serde(default)]
    pub interp: Interp,
}

impl fmt::Display for Key {
    /// Floats in their shortest round-trip form, so the text reads back bit-exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(time: {:?}, value: {:?}", self.time, self.value)?;
        if self.interp != Interp::Linear {
            write!(f, ", interp: {}", self.interp.name())?;
        }
        f.write_str(")")
    }
}

impl Key {
    /// A key with linear interpolation to the next.
    pub fn new(time: f32, value: f32) -> Self {
        Self {
            time,
            value,
            interp: Interp::Linear,
        }
    }

    /// The same key with another interpolation.
    pub fn with(self, interp: Interp) -> Self {
        Self { interp, ..self }
    }
}

/// The most keys one track may hold.
pub const MAX_KEYS_PER_TRACK: usize = 65_536;

/// Why a track (or a node's list of tracks) is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum TrackError {
    /// A key's time or value is NaN or infinite.
    NotFinite {
        /// The track's channel.
        channel: Channel,
        /// The key's index.
        key: usize,
    },
    /// A key's time is not after the previous key's.
    Unsorted {
        /// The track's channel.
        channel: Channel,
        /// The key's index.
        key: usize,
        /// Its time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// More than [`MAX_KEYS_PER_TRACK`] keys.
    TooManyKeys {
        /// The track's channel.
        channel: Channel,
        /// How many.
        count: usize,
    },
    /// Two tracks of one node drive the same channel.
    DuplicateChannel(Channel),
}

impl fmt::Display for TrackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrackError::NotFinite { channel, key } => {
                write!(f, "{channel} track: key {key} is not a finite number")
            }
            TrackError::Unsorted {
                channel,
                key,
                time,
                previous,
            } => write!(
                f,
                "{channel} track: key times must increase (key {key} at {time:?} s is not after \
                 {previous:?} s)"
            ),
            TrackError::TooManyKeys { channel, count } => write!(
                f,
                "{channel} track: {count} keys (at most {MAX_KEYS_PER_TRACK})"
            ),
            TrackError::DuplicateChannel(channel) => {
                write!(f, "two tracks drive {channel} (one track per channel)")
            }
        }
    }
}

impl std::error::Error for TrackError {}

/// The keys of one channel, sorted by time, times unique, every number finite. Displayed (and
/// read, then checked) in the scene file's form `(channel: Rotation, keys: [(time: 0.0, …), …])`.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename = "Track", deny_unknown_fields)]
pub struct Track {
    /// What the track drives.
    pub channel: Channel,
    /// The keys, in increasing time.
    pub keys: Vec<Key>,
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(channel: {}, keys: [", self.channel.name())?;
        for (k, key) in self.keys.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            write!(f, "{sep}{key}")?;
        }
        f.write_str("])")
    }
}

impl Track {
    /// A track, refused when a number is NaN or infinite or the times do not increase.
    pub fn new(channel: Channel, keys: Vec<Key>) -> Result<Self, TrackError> {
        let track = Self { channel, keys };
        track.check()?;
        Ok(track)
    }

    /// Check the rules: finite numbers, strictly increasing times, at most
    /// [`MAX_KEYS_PER_TRACK`] keys.
    pub fn check(&self) -> Result<(), TrackError> {
        let channel = self.channel;
        if self.keys.len() > MAX_KEYS_PER_TRACK {
            return Err(TrackError::TooManyKeys {
                channel,
                count: self.keys.len(),
            });
        }
        for (k, key) in self.keys.iter().enumerate() {
            if !key.time.is_finite() || !key.value.is_finite() {
                return Err(TrackError::NotFinite { channel, key: k });
            }
            if let Some(prev) = k.checked_sub(1).map(|p| self.keys[p].time)
                && key.time <= prev
            {
                return Err(TrackError::Unsorted {
                    channel,
                    key: k,
                    time: key.time,
                    previous: prev,
                });
            }
        }
        Ok(())
    }

    /// The channel's value at clip time `t`: the first value before the first key, the last
    /// after the last, in between interpolated by value as the earlier key says. `None` for a
    /// track without keys. Exactly a key's value at its time.
    pub fn value_at(&self, t: f32) -> Option<f32> {
        let first = self.keys.first()?;
        let last = self.keys.last()?;
        if t.is_nan() || t <= first.time {
            return Some(first.value);
        }
        if t >= last.time {
            return Some(last.value);
        }
        // first.time < t < last.time: some key at or before t, and one after it.
        let j = self.keys.partition_point(|k| k.time <= t);
        let (a, b) = (self.keys[j - 1], self.keys[j]);
        let u = (t as f64 - a.time as f64) / (b.time as f64 - a.time as f64);
        let w = a.interp.weight(u.clamp(0.0, 1.0));
        let (va, vb) = (a.value as f64, b.value as f64);
        let v = va + (vb - va) * w;
        Some((v as f32).clamp(a.value.min(b.value), a.value.max(b.value)))
    }

    /// The index of the key at exactly this time, if any.
    pub fn key_at(&self, time: f32) -> Option<usize> {
        self.keys.binary_search_by(|k| k.time.total_cmp(&time)).ok()
    }

    /// Put a key in, replacing one at the same time; returns its index. The track is unchanged
    /// when the key is refused (NaN or infinite, or the track already full).
    pub fn insert_key(&mut self, key: Key) -> Result<usize, TrackError> {
        let channel = self.channel;
        if !key.time.is_finite() || !key.value.is_finite() {
            let key = self.keys.len();
            return Err(TrackError::NotFinite { channel, key });
        }
        let at = self.keys.partition_point(|k| k.time < key.time);
        if self.keys.get(at).is_some_and(|k| k.time == key.time) {
            self.keys[at] = key;
        } else if self.keys.len() >= MAX_KEYS_PER_TRACK {
            return Err(TrackError::TooManyKeys {
                channel,
                count: self.keys.len() + 1,
            });
        } else {
            self.keys.insert(at, key);
        }
        Ok(at)
    }

    /// The time of the first and the last key (`None` without keys).
    pub fn time_range(&self) -> Option<(f32, f32)> {
        Some((self.keys.first()?.time, self.keys.last()?.time))
    }
}

/// True when some track has a key (playing can change the node that carries them).
pub fn is_keyed(tracks: &[Track]) -> bool {
    tracks.iter().any(|t| !t.keys.is_empty())
}

/// Check a node's tracks: each one valid, and at most one per channel.
pub fn check_tracks(tracks: &[Track]) -> Result<(), TrackError> {
    for (k, track) in tracks.iter().enumerate() {
        track.check()?;
        if tracks[..k].iter().any(|o| o.channel == track.channel) {
            return Err(TrackError::DuplicateChannel(track.channel));
        }
    }
    Ok(())
}

/// The local transform at clip time `t`: `base` with every channel that has a keyed track
/// replaced by the track's value (the others keep `base`'s numbers, bit for bit).
pub fn sample(base: Trs, tracks: &[Track], t: f32) -> Trs {
    let mut out = base;
    for track in tracks {
        if let Some(v) = track.value_at(t) {
            track.channel.set(&mut out, v);
        }
    }
    out
}

/// What happens when playback passes the clip's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Deserialize, serde::Serialize)]
pub enum LoopMode {
    /// Play once and hold the end.
    Once,
    /// Start again from 0.
    #[default]
    Loop,
    /// Play backwards to 0, then forwards again.
    PingPong,
}

impl LoopMode {
    /// Every mode, as a menu lists them.
    pub const ALL: [LoopMode; 3] = [LoopMode::Once, LoopMode::Loop, LoopMode::PingPong];

    /// The name the scene file uses.
    pub fn name(self) -> &'static str {
        match self {
            LoopMode::Once => "Once",
            LoopMode::Loop => "Loop",
            LoopMode::PingPong => "PingPong",
        }
    }
}

/// The scene's clip: how long it is and how playback time maps onto it. Displayed (and read,
/// then checked; a missing field takes its default) as `(length: 4.0, mode: Loop)`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename = "Clip", default, deny_unknown_fields)]
pub struct ClipSettings {
    /// Seconds; finite and above zero.
    pub length: f32,
    /// What happens past the end.
    pub mode: LoopMode,
}

impl Default for ClipSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for ClipSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(length: {:?}, mode: {})", self.length, self.mode.name())
    }
}

impl ClipSettings {
    /// Two seconds, looping.
    pub const DEFAULT: ClipSettings = ClipSettings {
        length: 2.0,
        mode: LoopMode::Loop,
    };

    /// A clip, refused unless the length is a finite number of seconds above zero.
    pub fn new(length: f32, mode: LoopMode) -> Result<Self, String> {
        let clip = Self { length, mode };
        clip.check()?;
        Ok(clip)
    }

    /// The rule: the length is finite and above zero.
    pub fn check(&self) -> Result<(), String> {
        if self.length.is_finite() && self.length > 0.0 {
            Ok(())
        } else {
            Err(format!(
                "the clip length must be a number of seconds above zero (not {:?})",
                self.length
            ))
        }
    }

    /// True when these are the default settings, bit for bit (the file leaves them out).
    pub fn is_default(&self) -> bool {
        self.length.to_bits() == Self::DEFAULT.length.to_bits() && self.mode == Self::DEFAULT.mode
    }

    /// Clip time (0 … length) at playback time `t` (seconds since playing started at 0):
    /// `Once` holds 0 before and the end after; `Loop` starts again at every multiple of the
    /// length (the end itself is 0 again); `PingPong` plays forwards then backwards. Inside
    /// the clip's first pass the time is `t` itself, exactly. NaN gives 0.
    pub fn local_time(&self, t: f32) -> f32 {
        if t.is_nan() {
            return 0.0;
        }
        let len = self.length as f64;
        let t64 = t as f64;
        let local = match self.mode {
            LoopMode::Once => t64.clamp(0.0, len),
            LoopMode::Loop => {
                let r = t64.rem_euclid(len);
                if r >= len { 0.0 } else { r }
            }
            LoopMode::PingPong => {
                let u = t64.rem_euclid(2.0 * len);
                if u > len { 2.0 * len - u } else { u }
            }
        };
        if local.is_nan() {
            return 0.0; // an infinite t that loops
        }
        // + 0.0 turns −0.0 into 0.0; the clamp guards the last rounding step.
        ((local as f32) + 0.0).clamp(0.0, self.length)
    }
}

/// The distinct times of the keys of these tracks, sorted (one diamond per time in the
/// timeline; the points where a chain's world matrix is exactly as keyed).
pub fn key_times<'a>(tracks: impl IntoIterator<Item = &'a Track>) -> Vec<f32> {
    let mut times: Vec<f32> = tracks
        .into_iter()
        .flat_map(|t| t.keys.iter().map(|k| k.time))
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| a.to_bits() == b.to_bits());
    times
}
