//! The model: transforms and their exact decomposition, the scene in pre-order arrays with its
//! world cache, edits and the undo history, the document, and the `.ron` file format. No egui,
//! no dialogs, no policy about what a user means.

pub mod anim;
pub mod document;
pub mod file;
pub mod godot;
pub mod math;
pub mod pool;
pub mod progress;
pub mod scene;
pub mod svg;
