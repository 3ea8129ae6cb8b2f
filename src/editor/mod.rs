//! The editor layer, without egui, in two rooms and a table:
//! - [`session`]: the editing session ([`Editor`]), every user action as a [`Command`] with its
//!   one applier, the selection, clipboard, files and background jobs, the timeline, probes;
//! - [`view`]: what the screen shows, as data: camera, culling, frame plan, occlusion,
//!   geometry and hit tests, handles, grids, overlays, spaces, figures;
//! - [`table`]: the command table behind menus, shortcuts, Help and the palette;
//! - [`vocabulary`]: the menus' titles and every command's name, label and menu, as data
//!   lessons may read (the table attaches the commands);
//! - [`gesture_table`]: every mouse gesture and panel key that is not a command.
//!
//! The egui app draws from these and turns input into commands.

pub mod gesture_table;
pub mod lesson;
pub mod session;
pub mod table;
pub mod view;
pub mod vocabulary;

pub use session::command::{Command, Effect};
pub use session::{Editor, Message, Outcome};
