//! The `.ron` scene format, versions 1 to 3 (docs/scene-format.md): strict loading, canonical
//! bit-exact saving, and atomic writes that keep the previous version as `NAME.ron.bak`.
//!
//! This module is the format's face: its limits and versions, and the loader and saver, which
//! live beside it (`file_load.rs`: text and files into a scene; `file_node.rs`: one node as the
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

/// The newest format version this graft reads and writes (2: polygons, sprite regions, probes;
/// 3: keyframe tracks and the clip).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this graft reads (version 1 files read exactly as before).
pub const OLDEST_FORMAT_VERSION: u32 = 1;
/// The most corners a polygon may have.
pub const MAX_POLYGON_POINTS: usize = 65_536;
/// The most probes one node may carry.
pub const MAX_PROBES_PER_NODE: usize = 1024;
/// The most nodes a file may hold.
pub const MAX_NODES: usize = 10_000_000;
/// How deeply brackets may nest before the parser gives up (cleanly, without overflowing).
pub(crate) const RECURSION_LIMIT: usize = 64;
/// Bytes read or written between progress reports and cancel checks.
pub(super) const CHUNK: usize = 1 << 20;
/// Nodes parsed between progress reports and cancel checks.
pub(super) const NODES_PER_REPORT: usize = 4096;

/// The message of the error that stops a cancelled parse (never shown: the load says None).
pub(crate) const CANCELLED: &str = "cancelled";
