//! The editor layer, without egui: what the viewport shows and how a pointer maps to the scene
//! (camera, grid, shape geometry, hit tests), and numbers formatted for people. The egui app
//! draws from these and turns input into edits.

pub mod camera;
pub mod geometry;
pub mod grid;
pub mod handles;
pub mod numbers;
pub mod overlay;

pub use camera::{Camera, ScreenRect};
