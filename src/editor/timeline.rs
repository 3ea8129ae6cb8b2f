//! The timeline in the session: the current time, playing or not, and the commands that play,
//! scrub, key the selection (K) and move or delete keys. Playback changes only local values
//! (through `Document::set_pose_at`, outside the history, as Godot's AnimationPlayer does);
//! keys are edits, one undo step per gesture.

use super::session::{Editor, Outcome};
use crate::error::{Error, Result};
use crate::model::anim::{Channel, Key, Track, sample};
use crate::scene::NodeId;
use crate::scene::edit::Op;

/// What the timeline can be asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineCommand {
    /// Play from the current time.
    Play,
    /// Stop where it is.
    Pause,
    /// Play or pause.
    TogglePlay,
    /// Pause and go back to 0 s.
    Stop,
    /// Go to this time (scrub).
    SetTime(f32),
    /// Key the selected nodes' current locals at the current time.
    KeySelection,
    /// Move a node's keys at time `from` (every channel keyed there) to time `to` (part of a
    /// drag: one undo step until EndGesture).
    MoveKeys {
        /// The node.
        node: NodeId,
        /// The keys' time now.
        from: f32,
        /// Their new time.
        to: f32,
    },
    /// Delete a node's keys at this time (a track goes when its last key does).
    DeleteKeys {
        /// The node.
        node: NodeId,
        /// The keys' time.
        at: f32,
    },
    /// Turn world-space trails of the selection on or off.
    ToggleTrails,
    /// Turn auto-key on or off: an edit of a node's local transform writes keys at the
    /// current time.
    ToggleAutoKey,
}

/// The timeline's state in the session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimelineState {
    /// Playback time in seconds.
    pub time: f32,
    /// Playing.
    pub playing: bool,
    /// Draw the selection's world-space trails over the clip.
    pub trails: bool,
    /// Edits of local transforms write keys at the current time.
    pub auto_key: bool,
}

/// The channels K keys on a node with no tracks yet.
const FIRST_KEYED: [Channel; 5] = [
    Channel::PositionX,
    Channel::PositionY,
    Channel::Rotation,
    Channel::ScaleX,
    Channel::ScaleY,
];

impl Editor {
    /// The timeline's state.
    pub fn timeline(&self) -> &TimelineState {
        &self.timeline
    }

    /// Advance playback by `dt` seconds and pose the scene; returns how many locals changed.
    pub fn advance(&mut self, dt: f32) -> usize {
        if !self.timeline.playing {
            return 0;
        }
        let length = self.doc.scene().clip().length;
        self.timeline.time += dt;
        if self.doc.scene().clip().mode == crate::model::anim::LoopMode::Once
            && self.timeline.time >= length
        {
            self.timeline.time = length;
            self.timeline.playing = false;
        }
        self.doc.set_pose_at(self.timeline.time)
    }

    /// Carry out a timeline command.
    pub(super) fn timeline_command(&mut self, command: TimelineCommand) -> Result<Outcome> {
        match command {
            TimelineCommand::Play => self.timeline.playing = true,
            TimelineCommand::Pause => self.timeline.playing = false,
            TimelineCommand::TogglePlay => self.timeline.playing = !self.timeline.playing,
            TimelineCommand::Stop => {
                self.timeline.playing = false;
                self.timeline.time = 0.0;
                self.doc.set_pose_at(0.0);
            }
            TimelineCommand::SetTime(t) => {
                if !t.is_finite() {
                    return Err(Error::Refused("a time must be a finite number".into()));
                }
                self.timeline.time = t.max(0.0);
                self.doc.set_pose_at(self.timeline.time);
            }
            TimelineCommand::KeySelection => return self.key_selection(),
            TimelineCommand::MoveKeys { node, from, to } => {
                return self.edit_keys(node, from, Some(to));
            }
            TimelineCommand::DeleteKeys { node, at } => return self.edit_keys(node, at, None),
            TimelineCommand::ToggleTrails => self.timeline.trails = !self.timeline.trails,
            TimelineCommand::ToggleAutoKey => self.timeline.auto_key = !self.timeline.auto_key,
        }
        Ok(Outcome::default())
    }

    /// K: a key at the current time for every keyed channel of each selected node (position,
    /// rotation and scale for a node with no tracks yet), with its current local value.
    fn key_selection(&mut self) -> Result<Outcome> {
        let ops = self.key_ops(&self.selection.clone())?;
        if ops.is_empty() {
            return Err(Error::Refused("Select the nodes to key first".into()));
        }
        let time = self.timeline.local_time(self.doc.scene().clip());
        let label = format!("Key {} node(s) at {time:.2} s", ops.len());
        self.perform(label, ops, false).map(|_| Outcome::default())
    }

    /// With auto-key on: the nodes whose local transform these ops change.
    pub(super) fn auto_keyed_nodes(&self, ops: &[Op]) -> Vec<NodeId> {
        if !self.timeline.auto_key {
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
    pub(super) fn key_ops(&self, nodes: &[NodeId]) -> Result<Vec<Op>> {
        let time = self.timeline.local_time(self.doc.scene().clip());
        let scene = self.doc.scene();
        let mut ops = Vec::new();
        for &node in nodes {
            let data = scene.node(node)?;
            let mut tracks = data.tracks.clone();
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

    /// Move a node's keys at `at` to `to` (a continuous gesture), or delete them (`None`).
    fn edit_keys(&mut self, node: NodeId, at: f32, to: Option<f32>) -> Result<Outcome> {
        if to.is_some_and(|t| !t.is_finite()) {
            return Err(Error::Refused("a time must be a finite number".into()));
        }
        let scene = self.doc.scene();
        let mut tracks = scene.node(node)?.tracks.clone();
        let mut found = false;
        for track in &mut tracks {
            let Some(i) = track
                .keys
                .iter()
                .position(|k| k.time.to_bits() == at.to_bits())
            else {
                continue;
            };
            found = true;
            let key = track.keys.remove(i);
            if let Some(to) = to {
                // Moving onto another key's time replaces it, as keying there would.
                track
                    .insert_key(Key {
                        time: to.max(0.0),
                        ..key
                    })
                    .map_err(|e| Error::Refused(e.to_string()))?;
            }
        }
        if !found {
            return Err(Error::Refused(format!("no keys at {at} s on that node")));
        }
        tracks.retain(|t| !t.keys.is_empty());
        let label = if to.is_some() {
            "Move keys"
        } else {
            "Delete keys"
        };
        let op = Op::SetTracks { node, tracks };
        self.perform(label.into(), vec![op], to.is_some())?;
        self.doc.set_pose_at(self.timeline.time);
        Ok(Outcome::default())
    }
}

impl TimelineState {
    /// The current time inside the clip (after looping).
    pub fn local_time(&self, clip: crate::model::anim::ClipSettings) -> f32 {
        clip.local_time(self.time)
    }
}

/// A node's pose at a time, for the inspector and tests.
pub fn pose(scene: &crate::scene::Scene, node: NodeId, t: f32) -> Option<crate::math::Trs> {
    let data = scene.node(node).ok()?;
    Some(sample(data.local, &data.tracks, scene.clip().local_time(t)))
}
