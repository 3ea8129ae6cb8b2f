//! Edits and history: every change to a scene is an [`Op`] performed into an [`Edit`] that knows
//! its exact inverse (`edit_op.rs`); a [`History`] of labelled steps gives undo, redo, jumps and a
//! clean mark (`history.rs`). This module only names them together.

pub use super::edit_op::{Edit, Op, Placement, placement};
pub use super::history::{Change, History, Step};
