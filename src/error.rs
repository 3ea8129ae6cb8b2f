//! The one error type of graft: every refused edit, bad file and failed save ends up here.

use crate::model::scene::NodeId;
use std::path::PathBuf;

/// Everything that can go wrong in graft, phrased for the person who sees it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An id that names no node of the scene.
    #[error("node {0} does not exist")]
    UnknownNode(NodeId),
    /// A node would end up under itself or one of its descendants.
    #[error("cannot put node {node} under {target}: {target} is {relation} of {node}")]
    Cycle {
        /// The node being moved.
        node: NodeId,
        /// The refused new parent.
        target: NodeId,
        /// "the node itself" or "a descendant".
        relation: &'static str,
    },
    /// Keep-world (or a world setter) needs the inverse of a parent whose world matrix is singular.
    #[error(
        "the world matrix of node {0} is singular (determinant ≈ 0): a world transform under it cannot be solved"
    )]
    SingularParent(NodeId),
    /// A sibling index past the end of the sibling list.
    #[error("index {index} is out of range: {parent} has {count} children")]
    IndexOutOfRange {
        /// The requested index.
        index: usize,
        /// How many children there are (the valid range is 0..=count).
        count: usize,
        /// "node N" or "the scene root".
        parent: String,
    },
    /// A NaN or infinite number offered as a transform value.
    #[error("node {node}: {field} is not a finite number")]
    NotFinite {
        /// The node the value was for.
        node: NodeId,
        /// Which field.
        field: &'static str,
    },
    /// Two nodes with one id.
    #[error("node {0}: duplicate id")]
    DuplicateId(NodeId),
    /// A parent id that no node has.
    #[error("node {node}: parent {parent} does not exist")]
    MissingParent {
        /// The child.
        node: NodeId,
        /// The id it names as parent.
        parent: NodeId,
    },
    /// Parent links that loop.
    #[error("node {node}: parent cycle ({path})")]
    ParentCycle {
        /// The smallest id on the loop.
        node: NodeId,
        /// The loop spelled out, e.g. "3 -> 5 -> 3".
        path: String,
    },
    /// A scene file with a syntax or type error at a known place.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What the parser said.
        message: String,
    },
    /// A scene file whose text parses but breaks a rule of the format.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The broken rule.
        #[source]
        source: Box<Error>,
    },
    /// A rule of the file format that is not about one node.
    #[error("{0}")]
    Format(String),
    /// A step, undo or redo failed and taking back its applied part failed too.
    #[error(
        "{error}; taking back the part already done also failed ({rollback}): the scene may be inconsistent, save a copy and reopen it"
    )]
    RollbackFailed {
        /// Why the step, undo or redo failed.
        error: Box<Error>,
        /// Why taking back its applied part failed.
        rollback: Box<Error>,
    },
    /// A command the editor refused, with the reason (nothing changed).
    #[error("{0}")]
    Refused(String),
    /// A failure made on purpose by the test hook `History::inject_faults`.
    #[error("injected failure at edit {0}")]
    Injected(usize),
    /// A file graft does not read: a fifo, socket, device or folder (its open could block, or
    /// its reading never end).
    #[error("{} is not a regular file ({kind})", path.display())]
    NotRegularFile {
        /// The file.
        path: PathBuf,
        /// What it is instead ("a fifo").
        kind: &'static str,
    },
    /// A file larger than graft reads for its kind (the limits: `model::read_limit`).
    #[error(
        "{} is larger than the {} limit for {what}",
        path.display(),
        shown_size(*limit)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
        /// The kind of file ("scene files").
        what: &'static str,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
}

/// Result with graft's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A size as people read it: "4 GiB", "256 MiB", "8 KiB" or "100 bytes".
#[doc(hidden)]
pub fn shown_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
