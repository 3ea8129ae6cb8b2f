//! The scene's clip as Godot's `AnimationPlayer` with one `Animation` (Godot 4 and Godot 3
//! text): one track per node and channel (`A/B:position:x`, `:position:y`, `:rotation`,
//! `:scale:x`, `:scale:y`, Godot 4's `:skew`), values in Godot's terms (y down, radians, pixels).
//!
//! A channel whose keys are linear or step is a value track (`interp = 1`, per-key
//! `transitions` 1 or 0: Godot's `ease(c, 0)` holds the key). Ease-in-out is graft's smoothstep,
//! which no `transitions` curve is, so a channel with such a key is a bezier track: handles at a
//! third of the segment, flat for ease-in-out (exactly smoothstep), on the line for linear; a
//! step there becomes a hold key and a ramp over the last 1/10,000 of its segment (reported).
//! A track whose first key is after 0 s gets a key at 0 s with its value (graft holds the first
//! value; Godot leaves a once-clip's property alone before the first key). `loop_wrap` is off:
//! after its last key a track holds, as graft's do.

use super::dialect::Dialect;
use super::tscn_text::num;
use crate::model::anim::{Channel, ClipSettings, Interp, Key, LoopMode, Track};
use glam::Vec2;
use std::fmt::Write as _;

/// The animation's name in the player.
pub const CLIP_NAME: &str = "clip";

/// The fraction of a segment a step next to ease-in-out keys ramps over.
const STEP_RAMP: f64 = 1e-4;

/// One animated node as the exporter sees it.
pub(super) struct NodeAnim<'a> {
    /// Its path below the scene's root (`A/B`).
    pub path: &'a str,
    /// Its tracks (graft units).
    pub tracks: &'a [Track],
    /// Pixels per graft unit.
    pub ppu: f32,
    /// The factor its `scale` was multiplied by (a sprite drawn at its graft size).
    pub scale_factor: Vec2,
    /// Godot 3 and a skewed node: playing rebuilds its transform without the skew.
    pub loses_skew: bool,
}

/// The written animation: its `[sub_resource]` sections and the player node, and what could
/// not be carried.
pub(super) struct AnimText {
    /// The sections to write before the nodes.
    pub resources: String,
    /// How many `[sub_resource]` sections `resources` holds.
    pub resource_count: usize,
    /// The `AnimationPlayer` node section (a child of the root).
    pub player: String,
}

/// A track's path and its values in Godot's terms, or None when Godot 3 has no such property.
fn godot_channel(
    channel: Channel,
    node: &NodeAnim,
    dialect: Dialect,
) -> Option<(&'static str, f64)> {
    let (ppu, f) = (node.ppu as f64, node.scale_factor.as_dvec2());
    Some(match channel {
        Channel::PositionX => ("position:x", ppu),
        Channel::PositionY => ("position:y", -ppu),
        Channel::Rotation => ("rotation", -std::f64::consts::PI / 180.0),
        Channel::ScaleX => ("scale:x", f.x),
        Channel::ScaleY => ("scale:y", f.y),
        Channel::Skew if dialect == Dialect::Godot4 => ("skew", -std::f64::consts::PI / 180.0),
        Channel::Skew => return None,
    })
}

/// The clip's `AnimationPlayer`, or None when no node has a keyed track. Notes go to `notes`.
pub(super) fn animation(
    clip: ClipSettings,
    nodes: &[NodeAnim],
    dialect: Dialect,
    notes: &mut Vec<String>,
) -> Option<AnimText> {
    let mut tracks = String::new();
    let mut count = 0;
    let length = clip.length;
    for node in nodes {
        if node.loses_skew {
            notes.push(format!(
                "{}: its skew is dropped while the clip plays (Godot 3 rebuilds an animated \
                 node's transform from position, rotation and scale)",
                node.path
            ));
        }
        for track in node.tracks.iter().filter(|t| !t.keys.is_empty()) {
            let Some((property, factor)) = godot_channel(track.channel, node, dialect) else {
                notes.push(format!(
                    "{}: its {} track is not carried (Godot 3's Node2D has no skew)",
                    node.path, track.channel
                ));
                continue;
            };
            let path = format!("{}:{property}", node.path);
            if track_text(&mut tracks, count, &path, track, (factor, length), dialect) {
                notes.push(format!(
                    "{}: its {} track mixes steps with ease-in-out: each step ramps over the \
                     last 1/10000 of its segment",
                    node.path, track.channel
                ));
            }
            count += 1;
        }
    }
    if count == 0 {
        return None;
    }
    let loop_line = loop_line(clip.mode, dialect, notes);
    let mode = clip.mode.name();
    notes.push(format!(
        "clip: {count} tracks as the AnimationPlayer's \"{CLIP_NAME}\" ({:?} s, {mode})",
        clip.length
    ));
    Some(sections(clip, &loop_line, &tracks, dialect))
}

/// The loop property's line, noting a mode Godot 3 lacks.
fn loop_line(mode: LoopMode, dialect: Dialect, notes: &mut Vec<String>) -> String {
    match (dialect, mode) {
        (Dialect::Godot4, LoopMode::Once) => String::new(),
        (Dialect::Godot4, LoopMode::Loop) => "loop_mode = 1\n".into(),
        (Dialect::Godot4, LoopMode::PingPong) => "loop_mode = 2\n".into(),
        (Dialect::Godot3, LoopMode::Once) => String::new(),
        (Dialect::Godot3, LoopMode::Loop) => "loop = true\n".into(),
        (Dialect::Godot3, LoopMode::PingPong) => {
            notes.push(
                "clip: Godot 3 has no ping-pong: written as a loop (it plays forwards only)".into(),
            );
            "loop = true\n".into()
        }
    }
}

/// The Animation (and Godot 4's AnimationLibrary) sections and the player node.
fn sections(clip: ClipSettings, loop_line: &str, tracks: &str, dialect: Dialect) -> AnimText {
    let head = |id: &str| format!("\n[sub_resource type=\"Animation\" id={id}]\n");
    let body = format!(
        "resource_name = \"{CLIP_NAME}\"\nlength = {}\n{loop_line}{tracks}",
        num(clip.length)
    );
    match dialect {
        Dialect::Godot3 => AnimText {
            resources: format!("{}{body}", head("1")),
            resource_count: 1,
            player: format!(
                "\n[node name=\"AnimationPlayer\" type=\"AnimationPlayer\" parent=\".\"]\n\
                 autoplay = \"{CLIP_NAME}\"\nanims/{CLIP_NAME} = SubResource( 1 )\n"
            ),
        },
        Dialect::Godot4 => AnimText {
            resources: format!(
                "{}{body}\n[sub_resource type=\"AnimationLibrary\" id=\"AnimationLibrary_graft\"]\n\
                 _data = {{\n&\"{CLIP_NAME}\": SubResource(\"Animation_graft\")\n}}\n",
                head("\"Animation_graft\"")
            ),
            resource_count: 2,
            player: format!(
                "\n[node name=\"AnimationPlayer\" type=\"AnimationPlayer\" parent=\".\"]\n\
                 libraries = {{\n\"\": SubResource(\"AnimationLibrary_graft\")\n}}\n\
                 autoplay = \"{CLIP_NAME}\"\n"
            ),
        },
    }
}

/// A key in Godot's terms: time, value, interpolation to the next, and for a segment cut at
/// the clip's end its bezier control values (the two inner points).
type GKey = (f32, f64, Interp, Option<[f64; 2]>);

/// A segment's bezier control values (y0, y1, y2, y3) with x at thirds.
fn controls(v0: f64, v1: f64, interp: Interp) -> [f64; 4] {
    match interp {
        Interp::EaseInOut => [v0, v0, v1, v1],
        _ => [v0, v0 + (v1 - v0) / 3.0, v1 - (v1 - v0) / 3.0, v1],
    }
}

/// The keys with values in Godot's terms: a key at 0 s first when the track starts later,
/// and none past the clip's end (Godot ignores them; graft heads for them): a segment that
/// crosses the end is cut there (de Casteljau, so the part that plays is exact).
fn godot_keys(track: &Track, factor: f64, length: f32) -> Vec<GKey> {
    let mut keys: Vec<GKey> = track
        .keys
        .iter()
        .map(|k: &Key| {
            let v = ((k.value as f64 * factor) as f32 + 0.0) as f64;
            (k.time, v, k.interp, None)
        })
        .collect();
    if let Some(&(t, v, _, _)) = keys.first()
        && t > 0.0
    {
        keys.insert(0, (0.0, v, Interp::Linear, None));
    }
    let Some(cut) = keys.iter().position(|k| k.0 > length) else {
        return keys;
    };
    let (a, b) = (keys[cut - 1], keys[cut]);
    keys.truncate(cut);
    if a.0 == length {
        return keys;
    }
    let u = (length as f64 - a.0 as f64) / (b.0 as f64 - a.0 as f64);
    let [y0, y1, y2, y3] = controls(a.1, b.1, a.2);
    let lerp = |p: f64, q: f64| p + (q - p) * u;
    let (p01, p12, p23) = (lerp(y0, y1), lerp(y1, y2), lerp(y2, y3));
    let (p012, p123) = (lerp(p01, p12), lerp(p12, p23));
    let end = match a.2 {
        Interp::Step => a.1,
        _ => ((lerp(p012, p123) as f32) + 0.0) as f64,
    };
    if a.2 == Interp::EaseInOut {
        keys[cut - 1].3 = Some([p01, p012]);
    }
    keys.push((length, end, Interp::Linear, None));
    keys
}

/// `tracks/K/…` lines of one track; true when steps had to become ramps.
fn track_text(
    out: &mut String,
    k: usize,
    path: &str,
    track: &Track,
    (factor, length): (f64, f32),
    dialect: Dialect,
) -> bool {
    let keys = godot_keys(track, factor, length);
    let eases = keys[..keys.len() - 1]
        .iter()
        .any(|k| k.2 == Interp::EaseInOut);
    let kind = if eases { "bezier" } else { "value" };
    let _ = write!(
        out,
        "tracks/{k}/type = \"{kind}\"\ntracks/{k}/path = NodePath(\"{path}\")\n\
         tracks/{k}/interp = 1\ntracks/{k}/loop_wrap = false\ntracks/{k}/imported = false\n\
         tracks/{k}/enabled = true\ntracks/{k}/keys = {{\n"
    );
    let ramps = if eases {
        bezier_keys(out, &keys, dialect)
    } else {
        value_keys(out, &keys, dialect);
        false
    };
    out.push_str("}\n");
    ramps
}

/// A packed float array in this dialect.
fn floats(dialect: Dialect, values: impl Iterator<Item = f64>) -> String {
    let name = match dialect {
        Dialect::Godot4 => "PackedFloat32Array",
        Dialect::Godot3 => "PoolRealArray",
    };
    let args: Vec<String> = values.map(|v| num(v as f32)).collect();
    dialect.call(name, &args)
}

/// A value track's dictionary: times, transitions (1 linear, 0 step), values.
fn value_keys(out: &mut String, keys: &[GKey], dialect: Dialect) {
    let times = floats(dialect, keys.iter().map(|k| k.0 as f64));
    let transitions = floats(
        dialect,
        keys.iter()
            .map(|k| if k.2 == Interp::Step { 0.0 } else { 1.0 }),
    );
    let values: Vec<String> = keys.iter().map(|k| num(k.1 as f32)).collect();
    let values = match dialect {
        Dialect::Godot4 => format!("[{}]", values.join(", ")),
        Dialect::Godot3 => format!("[ {} ]", values.join(", ")),
    };
    let _ = write!(
        out,
        "\"times\": {times},\n\"transitions\": {transitions},\n\"update\": 0,\n\"values\": {values}\n"
    );
}

/// One bezier key: time, value, in handle, out handle (offsets in seconds and value).
type BezierKey = (f64, f64, [f64; 2], [f64; 2]);

/// The bezier keys of graft keys: handles a third of the way, flat for ease-in-out, on the
/// line for linear; a step as a hold key just before the next key. True when a step was seen.
fn bezier_points(keys: &[GKey]) -> (Vec<BezierKey>, bool) {
    let mut out: Vec<BezierKey> = vec![(keys[0].0 as f64, keys[0].1, [0.0; 2], [0.0; 2])];
    let mut ramps = false;
    for w in keys.windows(2) {
        let ((ta, va, interp, cut), (tb, vb, _, _)) = (w[0], w[1]);
        let (ta, tb) = (ta as f64, tb as f64);
        let segment = |out: &mut Vec<BezierKey>, t: f64, v: f64, how: Interp| {
            let last = out.last_mut().expect("a first key");
            let dt = t - last.0;
            let [y0, y1, y2, _] = controls(last.1, v, how);
            let [y1, y2] = cut.filter(|_| how == interp).unwrap_or([y1, y2]);
            last.3 = [dt / 3.0, y1 - y0];
            out.push((t, v, [-dt / 3.0, y2 - v], [0.0; 2]));
        };
        match interp {
            Interp::Step => {
                ramps = true;
                let hold = (tb - (tb - ta) * STEP_RAMP) as f32 as f64;
                if hold > ta && hold < tb {
                    segment(&mut out, hold, va, Interp::Linear);
                }
                segment(&mut out, tb, vb, Interp::Linear);
            }
            how => segment(&mut out, tb, vb, how),
        }
    }
    (out, ramps)
}

/// A bezier track's dictionary: points (value, in x, in y, out x, out y per key) and times.
fn bezier_keys(out: &mut String, keys: &[GKey], dialect: Dialect) -> bool {
    let (points, ramps) = bezier_points(keys);
    let times = floats(dialect, points.iter().map(|p| p.0));
    let flat = points
        .iter()
        .flat_map(|&(_, v, i, o)| [v, i[0], i[1], o[0], o[1]]);
    let values = floats(dialect, flat);
    if dialect == Dialect::Godot4 {
        let modes = vec!["0"; points.len()].join(", ");
        let _ = writeln!(out, "\"handle_modes\": PackedInt32Array({modes}),");
    }
    let _ = write!(out, "\"points\": {values},\n\"times\": {times}\n");
    ramps
}
