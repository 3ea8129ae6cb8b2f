//! An `AnimationPlayer`'s clip read back as graft tracks (the inverse of `anim_export.rs`): the
//! autoplayed animation (else the first), its value tracks (`transitions` 1 linear, 0 step;
//! `interp = 0` steps throughout) and bezier tracks (flat handles a third of the way:
//! ease-in-out; a hold key with a ramp of at most 2/10,000 of its segment: a step) on
//! `position`, `position:x/y`, `rotation`, `rotation_degrees`, `scale`, `scale:x/y` and
//! Godot 4's `skew`, turned to graft's y-up degrees; `length` and `loop` / `loop_mode`. Also
//! the `graft_size` a sprite's scale carried. What graft cannot hold is noted.

use super::report::{Note, NoteKind};
use super::tree::{GNode, Prop, SubResource, Tree};
use super::tscn::Value;
use crate::model::anim::{Channel, ClipSettings, Interp, Key, LoopMode, Track};
use crate::model::scene::{NodeId, NodeSpec, Shape};
use glam::DVec2;

/// What an imported clip gives the scene.
pub(super) struct ReadClip {
    /// The clip's length and loop mode.
    pub clip: ClipSettings,
}

/// A packed array or array of numbers as floats.
fn float_list(v: &Value) -> Option<Vec<f64>> {
    match v {
        Value::Floats { nums, .. } => Some(nums.clone()),
        Value::Call { args, .. } => args.iter().map(Value::as_f64).collect(),
        _ => v.as_array()?.iter().map(Value::as_f64).collect(),
    }
}

/// The sub-resource a property refers to, in the file that wrote it.
fn sub_of<'a>(file: &'a super::tree::SceneFile, value: &Value) -> Option<&'a SubResource> {
    let (_, id) = value.resource_ref()?;
    file.sub.get(&id)
}

/// Read the clip of the first AnimationPlayer, adding its tracks to `specs` (`ids`: the graft
/// id of each tree node, None when not imported).
pub(super) fn read_clip(
    tree: &Tree,
    ids: &[Option<NodeId>],
    specs: &mut [NodeSpec],
    notes: &mut Vec<Note>,
) -> Option<ReadClip> {
    let parents = parent_of(tree);
    let (p, player) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.class.as_deref() == Some("AnimationPlayer"))?;
    let (_name, prop, anim) = chosen_animation(player)?;
    let base = match player.prop("root_node").and_then(|r| r.value.as_str()) {
        Some(path) => walk(tree, &parents, parents[p]?, path)?,
        None => parents[p]?,
    };
    let mut reader = Reader {
        tree,
        parents: &parents,
        ids,
        specs,
        notes,
        place: format!("{}:{}", prop.file.path.display(), prop.line),
    };
    reader.tracks(base, anim);
    let length = anim.prop("length").and_then(Value::as_f64).unwrap_or(1.0) as f32;
    let mode = match anim.prop("loop_mode").and_then(Value::as_i64) {
        Some(1) => LoopMode::Loop,
        Some(2) => LoopMode::PingPong,
        Some(_) => LoopMode::Once,
        None if anim.prop("loop").and_then(Value::as_bool) == Some(true) => LoopMode::Loop,
        None => LoopMode::Once,
    };
    let clip = ClipSettings::new(length, mode).unwrap_or_default();
    Some(ReadClip { clip })
}

/// The player's autoplayed animation, else its first: name, the property naming it, the
/// Animation sub-resource.
fn chosen_animation(player: &GNode) -> Option<(String, &Prop, &SubResource)> {
    let autoplay = player
        .prop("autoplay")
        .and_then(|a| a.value.as_str())
        .unwrap_or("");
    let mut found: Vec<(String, &Prop, &SubResource)> = Vec::new();
    for (key, prop) in &player.props {
        if let Some(name) = key.strip_prefix("anims/") {
            if let Some(anim) = sub_of(&prop.file, &prop.value) {
                found.push((name.to_string(), prop, anim));
            }
        } else if key == "libraries" || key.starts_with("libraries/") {
            library_animations(prop, &mut found);
        }
    }
    let at = found.iter().position(|f| f.0 == autoplay).unwrap_or(0);
    (at < found.len()).then(|| found.swap_remove(at))
}

/// The animations of a Godot 4 `libraries` property (`{"": SubResource(…)}` or `libraries/`).
fn library_animations<'a>(prop: &'a Prop, found: &mut Vec<(String, &'a Prop, &'a SubResource)>) {
    let file = &prop.file;
    let libraries: Vec<&SubResource> = match prop.value.as_dict() {
        Some(entries) => entries
            .iter()
            .filter_map(|(_, v)| sub_of(file, v))
            .collect(),
        None => sub_of(file, &prop.value).into_iter().collect(),
    };
    for lib in libraries {
        let Some(data) = lib.prop("_data").and_then(Value::as_dict) else {
            continue;
        };
        for (k, v) in data {
            if let (Some(name), Some(anim)) = (k.as_str(), sub_of(file, v)) {
                found.push((name.to_string(), prop, anim));
            }
        }
    }
}

/// Each tree node's parent.
fn parent_of(tree: &Tree) -> Vec<Option<usize>> {
    let mut parent = vec![None; tree.nodes.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        for &c in &node.children {
            parent[c] = Some(i);
        }
    }
    parent
}

/// The node at a relative path (`A/B`, `.`, `..`) from `from`.
fn walk(tree: &Tree, parents: &[Option<usize>], from: usize, path: &str) -> Option<usize> {
    let mut at = from;
    for part in path.split('/').filter(|p| !p.is_empty() && *p != ".") {
        at = if part == ".." {
            parents[at]?
        } else {
            *tree.nodes[at]
                .children
                .iter()
                .find(|&&c| tree.nodes[c].name == part)?
        };
    }
    Some(at)
}

/// A graft channel of a Godot property (after the node path's `:`) and the factor from Godot's
/// value to graft's; the Vector2 properties give two.
fn channels_of(property: &str) -> Vec<(Channel, f64, Option<usize>)> {
    let deg = -180.0 / std::f64::consts::PI;
    match property {
        "position:x" => vec![(Channel::PositionX, 1.0, None)],
        "position:y" => vec![(Channel::PositionY, -1.0, None)],
        "position" => vec![
            (Channel::PositionX, 1.0, Some(0)),
            (Channel::PositionY, -1.0, Some(1)),
        ],
        "rotation" => vec![(Channel::Rotation, deg, None)],
        "rotation_degrees" => vec![(Channel::Rotation, -1.0, None)],
        "scale:x" => vec![(Channel::ScaleX, 1.0, None)],
        "scale:y" => vec![(Channel::ScaleY, 1.0, None)],
        "scale" => vec![
            (Channel::ScaleX, 1.0, Some(0)),
            (Channel::ScaleY, 1.0, Some(1)),
        ],
        "skew" => vec![(Channel::Skew, deg, None)],
        _ => Vec::new(),
    }
}

/// The walk over one animation's tracks.
struct Reader<'a> {
    tree: &'a Tree,
    parents: &'a [Option<usize>],
    ids: &'a [Option<NodeId>],
    specs: &'a mut [NodeSpec],
    notes: &'a mut Vec<Note>,
    place: String,
}

impl Reader<'_> {
    fn note(&mut self, kind: NoteKind, message: String) {
        let place = self.place.clone();
        self.notes.push(Note {
            kind,
            place,
            message,
        });
    }

    /// Every `tracks/K/…` of the animation, in order.
    fn tracks(&mut self, base: usize, anim: &SubResource) {
        for k in 0.. {
            let get = |field: &str| anim.prop(&format!("tracks/{k}/{field}"));
            let (Some(kind), Some(path), Some(keys)) = (get("type"), get("path"), get("keys"))
            else {
                break;
            };
            let (kind, path) = (kind.as_str().unwrap_or(""), path.as_str().unwrap_or(""));
            let interp = get("interp").and_then(Value::as_i64).unwrap_or(1);
            if !self.track(base, kind, path, interp, keys) {
                self.note(
                    NoteKind::Skipped,
                    format!(
                        "animation track {k} ({kind} {path}) is not a transform graft animates"
                    ),
                );
            }
        }
    }

    /// One track; false when graft cannot hold it.
    fn track(&mut self, base: usize, kind: &str, path: &str, interp: i64, keys: &Value) -> bool {
        let Some((node_path, property)) = path.split_once(':') else {
            return false;
        };
        let channels = channels_of(property);
        let Some(id) = walk(self.tree, self.parents, base, node_path).and_then(|n| self.ids[n])
        else {
            return false;
        };
        let skewless = property == "skew" && self.tree.nodes[0].origin.0.format <= 2;
        if channels.is_empty() || skewless {
            return false;
        }
        for (channel, factor, part) in channels {
            let read = match kind {
                "value" => self.value_keys(keys, interp, part),
                "bezier" if part.is_none() => {
                    let Some((read, curved)) = bezier_keys(keys) else {
                        return false;
                    };
                    if curved {
                        self.note(
                            NoteKind::Approximated,
                            format!("{path}: bezier handles other than graft's are read as linear"),
                        );
                    }
                    Some(read)
                }
                _ => None,
            };
            let Some(mut read) = read else {
                return false;
            };
            read.iter_mut()
                .for_each(|k| k.value = (k.value as f64 * factor) as f32);
            drop_padding(&mut read);
            let Ok(track) = Track::new(channel, read) else {
                return false;
            };
            let data = &mut self.specs[id.0 as usize - 1].data;
            if data.tracks.iter().any(|t| t.channel == channel) {
                self.note(
                    NoteKind::Skipped,
                    format!("{path}: a second {channel} track"),
                );
                continue;
            }
            data.tracks.push(track);
        }
        true
    }

    /// A value track's keys (component `part` of Vector2 values).
    fn value_keys(&mut self, keys: &Value, interp: i64, part: Option<usize>) -> Option<Vec<Key>> {
        let times = float_list(keys.get("times")?)?;
        let transitions = keys.get("transitions").and_then(float_list);
        let values = keys.get("values")?.as_array()?;
        if values.len() != times.len() {
            return None;
        }
        let mut eased = false;
        let mut out = Vec::with_capacity(times.len());
        for (k, (t, v)) in times.iter().zip(values).enumerate() {
            let value = match part {
                None => v.as_f64()?,
                Some(c) => v.numbers("Vector2")?.get(c).copied()?,
            };
            let tr = transitions.as_ref().and_then(|t| t.get(k)).copied();
            let how = match (interp, tr) {
                (0, _) | (_, Some(0.0)) => Interp::Step,
                (1, None | Some(1.0)) => Interp::Linear,
                _ => {
                    eased = true;
                    Interp::Linear
                }
            };
            out.push(Key::new(*t as f32, value as f32).with(how));
        }
        if eased {
            self.note(
                NoteKind::Approximated,
                "a cubic track or an eased transition is read as linear".into(),
            );
        }
        Some(out)
    }
}

/// A bezier track's keys: flat handles make ease-in-out, a hold key and a short ramp a step,
/// anything else is read as linear (true then, when the handles were not on the line).
fn bezier_keys(keys: &Value) -> Option<(Vec<Key>, bool)> {
    let times = float_list(keys.get("times")?)?;
    let points = float_list(keys.get("points")?)?;
    if points.len() != times.len() * 5 {
        return None;
    }
    let point = |k: usize| &points[k * 5..k * 5 + 5];
    let mut out: Vec<Key> = Vec::with_capacity(times.len());
    let (mut k, mut curved) = (0, false);
    while k < times.len() {
        let (t, v) = (times[k], point(k)[0]);
        let mut key = Key::new(t as f32, v as f32);
        if k + 2 < times.len() && point(k + 1)[0] == v {
            let (t1, t2) = (times[k + 1], times[k + 2]);
            if t2 - t1 <= 2e-4 * (t2 - t) {
                out.push(key.with(Interp::Step));
                k += 2;
                continue;
            }
        }
        if k + 1 < times.len() {
            let (dv, out_y, in_y) = (point(k + 1)[0] - v, point(k)[4], point(k + 1)[2]);
            if out_y == 0.0 && in_y == 0.0 {
                key = key.with(Interp::EaseInOut);
            } else if (out_y - dv / 3.0).abs() > 1e-4 * dv.abs().max(1e-3)
                || (in_y + dv / 3.0).abs() > 1e-4 * dv.abs().max(1e-3)
            {
                curved = true;
            }
        }
        out.push(key);
        k += 1;
    }
    Some((out, curved))
}

/// The key at 0 s the export adds before a later first key (same value) goes again.
fn drop_padding(keys: &mut Vec<Key>) {
    if keys.len() >= 2
        && keys[0].time == 0.0
        && keys[1].time > 0.0
        && keys[0].value == keys[1].value
        && keys[0].interp != Interp::Step
    {
        keys.remove(0);
    }
}

/// The `graft_size` a sprite's exported scale carried (Godot 4 `metadata/graft_size`, Godot 3
/// `__meta__`), when the node has one.
fn graft_size(node: &GNode) -> Option<DVec2> {
    let value = match node.prop("metadata/graft_size") {
        Some(p) => p.value.clone(),
        None => node.prop("__meta__")?.value.get("graft_size")?.clone(),
    };
    let v = value.numbers("Vector2")?;
    (v.len() == 2).then(|| DVec2::new(v[0], v[1]))
}

/// Put back the sizes sprites' scales carried, at `ppu` pixels per unit: the scale (and its
/// tracks) divided by the factor, the sprite its graft size.
pub(super) fn sprite_sizes(tree: &Tree, ids: &[Option<NodeId>], specs: &mut [NodeSpec], ppu: f32) {
    for (n, node) in tree.nodes.iter().enumerate() {
        let (Some(id), Some(size)) = (ids[n], graft_size(node)) else {
            continue;
        };
        let data = &mut specs[id.0 as usize - 1].data;
        let Shape::Sprite(sprite) = &mut data.shape else {
            continue;
        };
        let f = size.as_vec2() * ppu / sprite.size;
        if !f.is_finite() || f.x == 0.0 || f.y == 0.0 {
            continue;
        }
        sprite.size = size.as_vec2() * ppu;
        sprite.offset *= f;
        data.local.scale /= f;
        for track in &mut data.tracks {
            let by = match track.channel {
                Channel::ScaleX => f.x,
                Channel::ScaleY => f.y,
                _ => continue,
            };
            track.keys.iter_mut().for_each(|k| k.value /= by);
        }
    }
}

/// A change of units: positions, shapes and position tracks multiplied by `k`.
pub(super) fn scale_units(specs: &mut [NodeSpec], k: f32) {
    for spec in specs {
        let data = &mut spec.data;
        data.local.position *= k;
        super::units::scale_shape(&mut data.shape, k);
        for track in &mut data.tracks {
            if matches!(track.channel, Channel::PositionX | Channel::PositionY) {
                track.keys.iter_mut().for_each(|key| key.value *= k);
            }
        }
    }
}
