//! What the inspector remembers between frames; its sections read and write it, and it
//! imports none of them.

use crate::model::scene::NodeId;

/// The selection's and the scene's versions.
pub(super) type MixedKey = (u64, u64, (u64, u64), u64);

/// What the inspector remembers between frames.
#[derive(Default)]
pub struct InspectorState {
    /// Keep scale uniform while editing.
    pub lock_scale: bool,
    /// Text pasted in to apply as a transform.
    pub paste_text: String,
    /// The chain factor under the pointer (the viewport highlights it).
    pub hovered_factor: Option<NodeId>,
    /// The name being typed.
    pub(super) name_buffer: String,
    /// The node the name being typed is for.
    pub(super) name_for: Option<NodeId>,
    /// Whether the name field had focus last frame.
    pub(super) name_focused: bool,
    /// Which local and world components differ across the selection, and what they were
    /// computed from (a million selected nodes are not decomposed every frame).
    pub(super) mixed: Option<(MixedKey, [bool; 6], [bool; 6])>,
    /// How wide the local-beside-world grid was when last drawn side by side: a narrower
    /// panel stacks world under local.
    pub(super) side_by_side_width: f32,
    /// The world version seen last frame.
    pub(super) world_seen: u64,
}
