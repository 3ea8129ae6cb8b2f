//! The scene model: nodes with stable ids, stored in pre-order arrays. No egui, no I/O.
//!
//! Every per-node array is indexed by the node's position in a pre-order walk: a parent's
//! index is below its children's, and the subtree of the node at `i` is exactly the range
//! `i .. i + subtree_len[i]`. Structural edits keep that order by moving contiguous ranges;
//! world matrices are updated by one loop over dirty ranges (see `world.rs`).

pub(crate) mod accounting;
pub(crate) mod block;
mod build;
pub(crate) mod bytes;
pub(crate) mod column;
pub mod diagnose;
pub mod edit;
mod edit_op;
mod history;
mod id_index;
#[cfg(any(test, feature = "test-hooks"))]
mod invariants;
pub mod name;
mod node_data;
mod node_id;
mod ops;
mod parallel;
mod sampling;
mod shape;
mod shared;
pub mod sprites;
mod store;
pub(crate) mod types;
mod world;

pub use build::NodeSpec;
pub use node_data::{Color, DEFAULT_COLOR, NodeData};
pub use node_id::NodeId;
pub use ops::{DetachedSubtree, Keep, ReparentUndo};
pub(crate) use parallel::threads_for;
pub use parallel::{
    DEFAULT_PARALLEL_MIN, propagation_threads, set_parallel_threshold, set_propagation_threads,
};
pub use shape::{Shape, Sprite};
pub use store::ChildIndices;
pub use types::Scene;
