#![warn(missing_docs)]
//! graft: a 2D scene-graph editor. This library is the model (math, scene, files, CLI helpers);
//! the egui application lives in `app` and only there.

#[cfg(feature = "editor")]
pub mod app;
pub mod bench;
pub mod cli;
pub mod document;
pub mod editor;
pub mod error;
pub mod file;
pub mod generate;
pub mod math;
pub mod scene;

pub use error::{Error, Result};
pub use math::Trs;
pub use scene::{NodeData, NodeId, NodeSpec, Scene, Shape};
