//! What a reshape of many instances is made of (`shared.rs`, `model/instance/share.rs`):
//! blocks of new nodes, generic over the node data so that this file names no other file of the circle and the
//! instance table reaches it without joining the scene's import circle.

use super::node_id::NodeId;

/// Where a node of a reshaped column gets its data (`Column::reshape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// The old node at this pre-order index, its data as it is.
    Old(u32),
    /// Node `j` of the reshaped part.
    Shared(u32),
    /// Data of its own (an index into the own data given).
    Own(u32),
}

/// Where a node of a reshaped instance gets its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    /// The node at pre-order index `old` now: its own data as it is, or — when it shares the
    /// part — node `j` of the new part.
    Kept {
        /// Its pre-order index before.
        old: u32,
        /// Its index in the new part.
        j: u32,
    },
    /// Node `j` of the new part, shared.
    Part(u32),
    /// Data of its own: the block's `own[k]`.
    Own(u32),
    /// The node at pre-order index `old` now, its data as it is: a node added under the
    /// instance's source nodes, carried along (`model/instance/carry.rs`).
    Carried {
        /// Its pre-order index before.
        old: u32,
    },
}

/// One new node below a reshaped instance's root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockNode {
    /// Its id (one of the block's old nodes' or one no node uses).
    pub(crate) id: NodeId,
    /// Its parent: 0 the root, `k` the block's node `k - 1`.
    pub(crate) parent: u32,
    /// Its data.
    pub(crate) fill: Fill,
}

/// An instance whose nodes below its root are replaced (the root stays as it is).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Block<D> {
    /// The root's pre-order index.
    pub(crate) root: usize,
    /// The new nodes below it, in pre-order.
    pub(crate) nodes: Vec<BlockNode>,
    /// The data of its nodes that have their own ([`Fill::Own`]).
    pub(crate) own: Vec<D>,
}
