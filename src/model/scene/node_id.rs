//! A node's identity, in a file of its own: the crate's error type names it and the scene
//! needs that error, so it sits below both.

use std::fmt;

/// A node's identity: stable for its whole life (undo, selection and files refer to it).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize, serde::Serialize,
)]
pub struct NodeId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}
