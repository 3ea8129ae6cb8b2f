#![warn(missing_docs)]
//! graft: a 2D scene-graph editor, in three layers and a toolbox:
//! - [`model`]: transforms, the scene, edits and history, the document, the `.ron` format (no
//!   egui, no I/O policy);
//! - [`editor`]: the editing session, every user action as a [`editor::Command`] with its one
//!   applier, the command table, and what the viewport shows (no egui);
//! - `app` (feature `editor`): the egui window, which draws the editor and returns commands;
//! - [`tools`]: the headless command line, generators and benchmarks.

#[cfg(feature = "editor")]
pub mod app;
pub mod editor;
pub mod error;
pub mod model;
pub mod tools;

pub use error::{Error, Result};
