//! The timeline in the session: the current time, playing or not, and the commands that play,
//! scrub, key the selection (K) and move or delete keys. Playback changes only local values
//! (through `Document::set_pose_at`, outside the history, as Godot's AnimationPlayer does);
//! keys are edits, one undo step per gesture.

use crate::editor::session::gestures::Gestures;
use crate::editor::session::purpose::Outcome;
pub use crate::editor::session::timeline_command::{KeyRef, TimelineCommand};
use crate::error::{Error, Result};
use crate::model::anim::{Channel, Key, Track, sample};
use crate::model::document::Document;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};

/// The timeline's state in the session: read through its methods, changed only by
/// [`TimelineCommand`]s (and the node selection, which clears the key selection).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimelineState {
    /// Playback time in seconds.
    pub(super) time: f32,
    /// Playing.
    pub(super) playing: bool,
    /// Draw the selection's world-space trails over the clip.
    pub(super) trails: bool,
    /// Edits of local transforms write keys at the current time.
    pub(super) auto_key: bool,
    /// The selected keys (view state, not undone; cleared when the node selection changes).
    pub(super) keys: Vec<KeyRef>,
}

/// The channels K keys on a node with no tracks yet.
const FIRST_KEYED: [Channel; 5] = [
    Channel::PositionX,
    Channel::PositionY,
    Channel::Rotation,
    Channel::ScaleX,
    Channel::ScaleY,
];

impl TimelineState {
    /// Advance playback by `dt` seconds and pose `doc`; returns how many locals changed.
    pub(super) fn advance(&mut self, doc: &mut Document, dt: f32) -> usize {
        if !self.playing {
            return 0;
        }
        let length = doc.scene().clip().length;
        self.time += dt;
        if doc.scene().clip().mode == crate::model::anim::LoopMode::Once && self.time >= length {
            self.time = length;
            self.playing = false;
        }
        doc.set_pose_at(self.time)
    }

    /// Carry out a timeline command: handed the document (posed, keyed), the gesture counter
    /// (key edits are undo steps) and the node selection (what K keys).
    pub(super) fn handle(
        &mut self,
        command: TimelineCommand,
        doc: &mut Document,
        gestures: &mut Gestures,
        selection: &[NodeId],
    ) -> Result<Outcome> {
        let mut keys = KeyEdit {
            timeline: self,
            doc,
            gestures,
        };
        match command {
            TimelineCommand::Play => keys.timeline.playing = true,
            TimelineCommand::Pause => keys.timeline.playing = false,
            TimelineCommand::TogglePlay => keys.timeline.playing = !keys.timeline.playing,
            TimelineCommand::Stop => {
                keys.timeline.playing = false;
                keys.timeline.time = 0.0;
                keys.doc.set_pose_at(0.0);
            }
            TimelineCommand::SetTime(t) => {
                if !t.is_finite() {
                    return Err(Error::Refused("a time must be a finite number".into()));
                }
                keys.timeline.time = t.max(0.0);
                keys.doc.set_pose_at(keys.timeline.time);
            }
            TimelineCommand::KeySelection => return keys.key_selection(selection),
            TimelineCommand::MoveKeys { node, from, to } => {
                return keys.edit_keys(node, from, Some(to));
            }
            TimelineCommand::DeleteKeys { node, at } => return keys.edit_keys(node, at, None),
            TimelineCommand::SelectKeys(list) => {
                keys.timeline.select_keys(keys.doc.scene(), list)?
            }
            TimelineCommand::ToggleKey(key) => keys.timeline.toggle_key(keys.doc.scene(), key)?,
            TimelineCommand::MoveSelectedKeys { by } => return keys.move_selected_keys(by),
            TimelineCommand::DeleteSelectedKeys => return keys.delete_selected_keys(),
            TimelineCommand::ToggleTrails => keys.timeline.trails = !keys.timeline.trails,
            TimelineCommand::ToggleAutoKey => keys.timeline.auto_key = !keys.timeline.auto_key,
        }
        Ok(Outcome::default())
    }

    /// With auto-key on: the nodes whose local transform these ops change.
    pub(super) fn auto_keyed_nodes(&self, ops: &[Op]) -> Vec<NodeId> {
        if !self.auto_key {
            return Vec::new();
        }
        let mut nodes: Vec<NodeId> = ops
            .iter()
            .filter_map(|op| match op {
                Op::SetLocal { node, .. }
                | Op::SetWorld { node, .. }
                | Op::SetWorldPosition { node, .. } => Some(*node),
                _ => None,
            })
            .collect();
        nodes.dedup();
        nodes
    }

    /// Ops that key these nodes' current locals at the current time.
    pub(super) fn key_ops(&self, scene: &Scene, nodes: &[NodeId]) -> Result<Vec<Op>> {
        let time = self.local_time(scene.clip());
        let mut ops = Vec::new();
        for &node in nodes {
            let data = scene.node(node)?;
            let mut tracks = data.tracks.to_vec();
            if tracks.is_empty() {
                tracks = FIRST_KEYED
                    .iter()
                    .map(|&channel| Track {
                        channel,
                        keys: Vec::new(),
                    })
                    .collect();
            }
            for track in &mut tracks {
                let value = track.channel.get(&data.local);
                track
                    .insert_key(Key::new(time, value))
                    .map_err(|e| Error::Refused(e.to_string()))?;
            }
            ops.push(Op::SetTracks { node, tracks });
        }
        Ok(ops)
    }

    /// The key selection, with keys that no longer exist in `scene` (undone, deleted) left out.
    pub(super) fn selected_keys(&self, scene: &Scene) -> Vec<KeyRef> {
        self.keys
            .iter()
            .filter(|k| key_exists(scene, k))
            .copied()
            .collect()
    }

    fn select_keys(&mut self, scene: &Scene, keys: Vec<KeyRef>) -> Result<()> {
        if let Some(missing) = keys.iter().find(|k| !key_exists(scene, k)) {
            return Err(Error::Refused(format!(
                "node {} has no keys at {} s",
                missing.node, missing.time
            )));
        }
        let mut unique: Vec<KeyRef> = Vec::with_capacity(keys.len());
        for key in keys {
            if !unique.iter().any(|k| k.same(&key)) {
                unique.push(key);
            }
        }
        self.keys = unique;
        Ok(())
    }

    fn toggle_key(&mut self, scene: &Scene, key: KeyRef) -> Result<()> {
        let mut keys = self.selected_keys(scene);
        match keys.iter().position(|k| k.same(&key)) {
            Some(at) => {
                keys.remove(at);
            }
            None => keys.push(key),
        }
        self.select_keys(scene, keys)
    }
}

/// What an edit of keys is handed: the timeline (its time, its key selection), the document
/// the keys live in and the gesture counter the edit is an undo step of.
struct KeyEdit<'a> {
    timeline: &'a mut TimelineState,
    doc: &'a mut Document,
    gestures: &'a mut Gestures,
}

impl KeyEdit<'_> {
    /// Perform ops as one undo step (or part of the open gesture).
    fn perform(&mut self, label: String, ops: Vec<Op>, continuous: bool) -> Result<()> {
        perform(
            self.gestures,
            self.doc,
            self.timeline,
            label,
            ops,
            continuous,
        )
    }

    /// K: a key at the current time for every keyed channel of each selected node (position,
    /// rotation and scale for a node with no tracks yet), with its current local value.
    fn key_selection(&mut self, selection: &[NodeId]) -> Result<Outcome> {
        let ops = self.timeline.key_ops(self.doc.scene(), selection)?;
        if ops.is_empty() {
            return Err(Error::Refused("Select the nodes to key first".into()));
        }
        let time = self.timeline.local_time(self.doc.scene().clip());
        let label = format!("Key {} node(s) at {time:.2} s", ops.len());
        self.perform(label, ops, false).map(|_| Outcome::default())
    }

    /// Move a node's keys at `at` to `to` (a continuous gesture), or delete them (`None`).
    fn edit_keys(&mut self, node: NodeId, at: f32, to: Option<f32>) -> Result<Outcome> {
        if to.is_some_and(|t| !t.is_finite()) {
            return Err(Error::Refused("a time must be a finite number".into()));
        }
        let key = KeyRef::new(node, at);
        let to = to.map(|t| t.max(0.0));
        let retime = move |_: f32| to.unwrap_or(0.0);
        let scene = self.doc.scene();
        let (ops, _) = key_set_ops(scene, &[key], to.is_some().then_some(&retime))?;
        let label = if to.is_some() {
            "Move keys"
        } else {
            "Delete keys"
        };
        self.perform(label.into(), ops, to.is_some())?;
        self.doc.set_pose_at(self.timeline.time);
        Ok(Outcome::default())
    }

    /// Move the whole key selection by `by` seconds (clamped so no key goes before 0 s).
    fn move_selected_keys(&mut self, by: f32) -> Result<Outcome> {
        if !by.is_finite() {
            return Err(Error::Refused("a time must be a finite number".into()));
        }
        let keys = self.timeline.selected_keys(self.doc.scene());
        if keys.is_empty() {
            return Err(Error::Refused("Select keys on the timeline first".into()));
        }
        let earliest = keys.iter().map(|k| k.time).fold(f32::INFINITY, f32::min);
        let by = by.max(-earliest);
        if by == 0.0 {
            return Ok(Outcome::default());
        }
        let retime = |t: f32| (t + by).max(0.0);
        let (ops, moved) = key_set_ops(self.doc.scene(), &keys, Some(&retime))?;
        let label = format!("Move {} key(s)", keys.len());
        self.perform(label, ops, true)?;
        self.timeline.keys = moved;
        self.doc.set_pose_at(self.timeline.time);
        Ok(Outcome::default())
    }

    fn delete_selected_keys(&mut self) -> Result<Outcome> {
        let keys = self.timeline.selected_keys(self.doc.scene());
        if keys.is_empty() {
            return Err(Error::Refused("Select keys on the timeline first".into()));
        }
        let (ops, _) = key_set_ops(self.doc.scene(), &keys, None)?;
        self.perform(format!("Delete {} key(s)", keys.len()), ops, false)?;
        self.timeline.keys.clear();
        self.doc.set_pose_at(self.timeline.time);
        Ok(Outcome::default())
    }
}

/// Ops that move these keys to `retime(time)`, or delete them (`None`), one `SetTracks` per
/// node, and where the moved keys are afterwards. All of a node's selected keys are taken
/// out before any is put back, so keys moving past each other never collide; a key moved
/// onto an unselected key's time replaces it, as keying there would. A track goes when its
/// last key does.
fn key_set_ops(
    scene: &Scene,
    keys: &[KeyRef],
    retime: Option<&dyn Fn(f32) -> f32>,
) -> Result<(Vec<Op>, Vec<KeyRef>)> {
    let mut nodes: Vec<NodeId> = keys.iter().map(|k| k.node).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let mut ops = Vec::with_capacity(nodes.len());
    let mut moved = Vec::with_capacity(keys.len());
    for node in nodes {
        let times: Vec<u32> = keys
            .iter()
            .filter(|k| k.node == node)
            .map(|k| k.time.to_bits())
            .collect();
        let mut tracks = scene.node(node)?.tracks.to_vec();
        let mut found = vec![false; times.len()];
        for track in &mut tracks {
            let mut taken = Vec::new();
            track.keys.retain(
                |k| match times.iter().position(|t| *t == k.time.to_bits()) {
                    Some(i) => {
                        found[i] = true;
                        taken.push(*k);
                        false
                    }
                    None => true,
                },
            );
            let Some(retime) = retime else { continue };
            for key in taken {
                let time = retime(key.time);
                track
                    .insert_key(Key { time, ..key })
                    .map_err(|e| Error::Refused(e.to_string()))?;
            }
        }
        if let Some(i) = found.iter().position(|f| !f) {
            let at = f32::from_bits(times[i]);
            return Err(Error::Refused(format!("no keys at {at} s on node {node}")));
        }
        if let Some(retime) = retime {
            moved.extend(
                times
                    .iter()
                    .map(|t| KeyRef::new(node, retime(f32::from_bits(*t)))),
            );
        }
        tracks.retain(|t| !t.keys.is_empty());
        ops.push(Op::SetTracks { node, tracks });
    }
    Ok((ops, moved))
}

/// Perform ops on `doc` as one undo step, or as part of the open continuous gesture. The
/// gesture's key comes from the gesture counter: panels never make one up. With auto-key on
/// (the timeline's switch), the moved nodes are keyed at the current time in the same step.
pub(super) fn perform(
    gestures: &mut Gestures,
    doc: &mut Document,
    timeline: &TimelineState,
    label: String,
    ops: Vec<Op>,
    continuous: bool,
) -> Result<()> {
    let keyed = timeline.auto_keyed_nodes(&ops);
    if !keyed.is_empty() {
        return perform_and_key(gestures, doc, timeline, (label, ops), continuous, &keyed);
    }
    if !continuous {
        // A refused step leaves the open gesture as it was: it changed nothing.
        doc.perform(label, ops)?;
        gestures.open = None;
        return Ok(());
    }
    let gesture = gestures.continue_or_open();
    doc.perform_gesture(label, ops, gesture)
}

/// With auto-key: perform the ops, then key the moved nodes at the current time, all as
/// one undo step (one gesture, closed at once unless the edit is continuous).
fn perform_and_key(
    gestures: &mut Gestures,
    doc: &mut Document,
    timeline: &TimelineState,
    (label, ops): (String, Vec<Op>),
    continuous: bool,
    nodes: &[NodeId],
) -> Result<()> {
    let gesture = match gestures.open.filter(|_| continuous) {
        Some(g) => g,
        None => gestures.fresh(),
    };
    // The keys need the locals the edit leads to (a world edit is solved through the
    // parent): perform it alone, read the keys, take it back, then perform both as one
    // step, so a drag merges frame by frame as usual.
    doc.perform(label.clone(), ops.clone())?;
    let key_ops = timeline.key_ops(doc.scene(), nodes);
    doc.undo()?;
    let mut all = ops;
    all.extend(key_ops?);
    let keyed = doc.perform_gesture(label, all, gesture);
    if continuous {
        gestures.open = Some(gesture);
    } else {
        gestures.open = None;
        doc.end_gesture();
    }
    keyed
}

/// True when `node` has keys at exactly `key.time`.
fn key_exists(scene: &Scene, key: &KeyRef) -> bool {
    scene.node(key.node).is_ok_and(|d| {
        d.tracks.iter().any(|t| {
            t.keys
                .iter()
                .any(|k| k.time.to_bits() == key.time.to_bits())
        })
    })
}

impl TimelineState {
    /// Playback time in seconds.
    pub fn time(&self) -> f32 {
        self.time
    }

    /// True while playing.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// True when the selection's world-space trails are drawn.
    pub fn trails(&self) -> bool {
        self.trails
    }

    /// True when edits of local transforms write keys at the current time.
    pub fn auto_key(&self) -> bool {
        self.auto_key
    }

    /// The key selection, for the node selection's part to clear (picking nodes clears it).
    pub(super) fn key_selection_mut(&mut self) -> &mut Vec<KeyRef> {
        &mut self.keys
    }

    /// Put playback back as a lesson step's start had it: the time, playing, the trails.
    pub(super) fn set_playback(&mut self, time: f32, playing: bool, trails: bool) {
        (self.time, self.playing, self.trails) = (time, playing, trails);
    }

    /// The current time inside the clip (after looping).
    pub fn local_time(&self, clip: crate::model::anim::ClipSettings) -> f32 {
        clip.local_time(self.time)
    }
}

/// A node's pose at a time, for the inspector and tests.
pub fn pose(
    scene: &crate::model::scene::Scene,
    node: NodeId,
    t: f32,
) -> Option<crate::model::math::Trs> {
    let data = scene.node(node).ok()?;
    Some(sample(data.local, &data.tracks, scene.clip().local_time(t)))
}
