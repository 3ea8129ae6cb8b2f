//! The session's clipboard: copied subtrees (Ctrl+C / Ctrl+V / Ctrl+D work on these).

use crate::model::scene::DetachedSubtree;

/// Copied subtrees, each with its world placement kept so a paste lands where the copy was.
#[derive(Default)]
pub struct Clipboard {
    subtrees: Vec<DetachedSubtree>,
}

impl Clipboard {
    /// What was copied last.
    pub fn subtrees(&self) -> &[DetachedSubtree] {
        &self.subtrees
    }

    /// True when nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.subtrees.is_empty()
    }

    /// Replace what was copied.
    pub fn set(&mut self, subtrees: Vec<DetachedSubtree>) {
        self.subtrees = subtrees;
    }
}
