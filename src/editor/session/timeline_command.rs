//! What the timeline can be asked to do, and the key diamonds it names: the words the timeline
//! commands carry, with no session state.

use crate::model::scene::NodeId;

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
    /// Select these keys (replacing the key selection; an empty list clears it).
    SelectKeys(Vec<KeyRef>),
    /// Add a key to the key selection, or take it out.
    ToggleKey(KeyRef),
    /// Move every selected key by `by` seconds (part of a drag: one undo step until
    /// EndGesture). The whole selection moves together and never before 0 s.
    MoveSelectedKeys {
        /// Seconds to add to each selected key's time.
        by: f32,
    },
    /// Delete every selected key (Del while keys are selected).
    DeleteSelectedKeys,
    /// Turn world-space trails of the selection on or off.
    ToggleTrails,
    /// Turn auto-key on or off: an edit of a node's local transform writes keys at the
    /// current time.
    ToggleAutoKey,
}

/// One diamond on the timeline: a node's keys (on every channel) at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyRef {
    /// The node.
    pub node: NodeId,
    /// The keys' time in seconds.
    pub time: f32,
}

impl KeyRef {
    /// The keys of `node` at `time`.
    pub fn new(node: NodeId, time: f32) -> Self {
        Self { node, time }
    }

    pub(super) fn same(&self, other: &KeyRef) -> bool {
        self.node == other.node && self.time.to_bits() == other.time.to_bits()
    }
}
