//! What the screen shows, as data and without egui: the camera and the spaces it looks from,
//! culling and the frame plan, occlusion, outlines and hit tests, handles, the grid, overlays,
//! numbers for people, and figures (SVG and PNG) of what the viewport shows.

pub mod camera;
pub mod cull_cache;
pub mod culling_demo;
pub mod density_grid;
pub mod detail;
pub mod draw_list;
pub mod figure;
pub mod frame_plan;
pub mod framing;
pub mod geometry;
pub mod grid;
pub mod handles;
pub mod keys;
pub mod layout;
pub mod node_layer;
pub mod numbers;
pub mod occlusion;
pub mod options;
pub mod overlay;
pub mod overlay_prims;
pub mod palette;
pub mod pointer;
pub mod prediction_prims;
pub mod primitives;
pub mod rows;
pub mod slide;
pub mod space_prims;
pub mod spaces;
pub mod trails;

pub use camera::{Camera, ScreenRect};
