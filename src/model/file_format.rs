//! The `.ron` format's versions and limits, below the loader and the saver that use them
//! (`model::file` re-exports them as the format's face).

/// The newest format version this graft reads and writes (2: polygons, sprite regions, probes;
/// 3: keyframe tracks and the clip; 4: instances of other scene files; 5: the sibling index of a
/// node added under an instanced node).
pub const FORMAT_VERSION: u32 = 5;
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
