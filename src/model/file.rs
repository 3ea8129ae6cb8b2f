//! The `.ron` scene format, versions 1 to 3 (docs/scene-format.md): strict loading, canonical
//! bit-exact saving, and atomic writes that keep the previous version as `NAME.ron.bak`.
//!
//! This module is the format's face: its limits and versions, and the loader and saver, which
//! live beside it (`file_format.rs`: the versions and limits; `file_load.rs`: text and files into a scene; `file_node.rs`: one node as the
//! file writes it, checked into the scene's data; `file_version.rs`: which format a scene
//! needs and which a file may use; `file_save.rs`: the canonical text and the atomic save).

pub use super::file_load::{
    load, load_with_progress, parse, parse_with_node_limit, parse_with_progress,
    parse_with_ron_only, read_text, read_text_limited, reads_fast,
};
#[doc(hidden)]
pub use super::file_node::parse_tree_node_bytes;
pub(crate) use super::file_save::{float, pair};
pub use super::file_save::{
    save, save_with_progress, to_ron_string, to_ron_string_with_progress, write_ron,
};
pub use super::file_version::needed_version;

pub(crate) use super::file_format::{CANCELLED, RECURSION_LIMIT};
pub(super) use super::file_format::{CHUNK, NODES_PER_REPORT};
pub use super::file_format::{
    FORMAT_VERSION, MAX_NODES, MAX_POLYGON_POINTS, MAX_PROBES_PER_NODE, OLDEST_FORMAT_VERSION,
};
