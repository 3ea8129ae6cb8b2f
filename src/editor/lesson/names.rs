//! The small types every part of a lesson names: a place in the file, a node's name as
//! written, local or world. A leaf (it imports nothing of the lesson), so the predict and vary
//! parts that `Step` holds do not import the lesson's `mod.rs` back.

/// A place in the lesson file: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
}

/// A node named in a lesson, with where the name was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// The node's name.
    pub text: String,
    /// Where it was written.
    pub at: Pos,
}

/// Which transform of a node: its local numbers or its world ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueSpace {
    /// In its parent's space.
    Local,
    /// In the world.
    World,
}
