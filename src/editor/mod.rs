//! The editor layer, without egui: the editing session ([`Editor`]) and its one applier, the
//! command vocabulary and the command table, drop planning, structural edits, file flow, and
//! what the viewport shows and how a pointer maps to the scene (camera, grid, geometry, hit
//! tests, handles, overlays). The egui app draws from these and turns input into commands.

pub mod camera;
pub mod command;
pub mod cull;
pub mod dialogs;
pub mod dnd;
pub mod edits;
pub mod figure;
pub mod figure_plan;
pub mod figures;
mod files;
pub mod frame_plan;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod handles;
pub mod interchange;
pub mod jobs;
pub mod numbers;
pub mod occlusion;
pub mod overlay;
pub mod probes;
pub mod render;
pub mod selection;
pub mod session;
pub mod spaces;
pub mod table;
pub mod timeline;

pub use camera::{Camera, ScreenRect};
pub use command::{Command, Effect};
pub use session::{Editor, Message, Outcome};
