//! How an expanded node is named: its place in its source (a [`Chain`] of ids through nested
//! sources) and its [`Origin`] in this scene (the instance and the index in its source).

use crate::model::scene::NodeId;

/// A node's place in its source: a chain of ids, one per file (`[7]`: node 7 of the source;
/// `[12, 7]`: node 7 of the scene that the source's node 12 instances).
pub type Chain = Box<[u32]>;

/// Where an expanded node came from: the instance (its root's id) and the node's pre-order
/// index in that instance's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The instance root, a node of this scene.
    pub root: NodeId,
    /// The node's index in the source scene (never 0: that is the root itself).
    pub index: u32,
}
