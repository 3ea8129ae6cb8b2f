//! Godot scenes in and out: the text scene format (`.tscn` / `.tres`) and its value syntax,
//! the expanded node tree (instances read from disk), the import into a graft scene exact to
//! Godot's transforms, and the export back to a `.tscn` Godot 4 opens.

mod anim_export;
mod anim_import;
pub mod classes;
mod cursor;
mod dialect;
pub mod export;
pub mod export_instance;
mod export_parts;
mod export_sprite;
pub mod import;
pub mod keep;
mod node_paths;
mod report;
mod shapes;
pub mod tree;
pub mod tscn;
mod tscn_text;
mod units;
pub mod variant;

pub use export::to_tscn;
pub use export_parts::ExportReport;
pub use import::{
    Imported, import_file, import_file_keeping, import_file_with, import_text, import_text_with,
};
pub use report::{ImportReport, Note, NoteKind};
