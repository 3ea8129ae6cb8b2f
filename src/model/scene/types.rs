//! The scene and its instance table as data: the types that name each other (a scene holds
//! its instance table, whose entries hold their sources, which hold scenes), defined together
//! so that no file imports back. Their methods live beside them: the scene's in `store.rs` and
//! the other files of this folder, the table's in `model/instance/` (an entry's serde too, in
//! `instance/table_edit.rs`).

use super::column::Column;
use super::id_index::IdIndex;
use super::node_id::NodeId;
use crate::model::anim::ClipSettings;
use crate::model::instance::ids::Chain;
use crate::model::instance::origin_map::OriginMap;
use crate::model::instance::overrides::{FieldSet, Override};
use glam::Affine2;
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A tree of 2D transforms with a cached, incrementally updated world matrix per node.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub(super) ids: Vec<NodeId>,
    pub(super) data: Column,
    pub(super) parent: Vec<u32>,
    pub(super) subtree_len: Vec<u32>,
    pub(super) world: Vec<Affine2>,
    pub(super) index_of: IdIndex,
    /// Roots of subtrees whose world matrices are stale (pre-order indices).
    pub(super) dirty_roots: Vec<u32>,
    pub(super) next_id: u32,
    pub(super) last_recomputed: usize,
    /// The pre-order ranges the last update pass recomputed.
    pub(super) last_ranges: Vec<(u32, u32)>,
    /// Whether every node marked changed for that pass was the first node of one of them.
    pub(super) last_only_range_roots: bool,
    /// Changes whenever the tree's shape, order or names change (views cache on it).
    pub(super) version: u64,
    /// Changes whenever a node's probes change.
    pub(super) probes_version: u64,
    /// Changes whenever a node's tracks change.
    pub(super) tracks_version: u64,
    /// Changes whenever a node's shape or colour changes.
    pub(super) appearance_version: u64,
    /// Changes with every update pass that recomputes world matrices.
    pub(super) world_version: u64,
    /// `world_version` before the last such pass.
    pub(super) prev_world_version: u64,
    /// The clip's length and loop mode.
    pub(super) clip: ClipSettings,
    /// Pre-order indices of the nodes with tracks, valid while `(version, tracks_version)`
    /// equals the key it was read at.
    pub(super) animated: AnimatedCache,
    /// The instances of other scene files among the nodes (`model::instance`).
    pub(super) instances: Option<Box<Instances>>,
}

/// The nodes with tracks, and the scene versions they were read at.
#[derive(Clone, Debug, Default)]
pub(super) struct AnimatedCache {
    pub(super) key: (u64, u64),
    pub(super) indices: Vec<u32>,
}

/// A source scene as its instances use it: fully expanded (its own instances included), one
/// root, its sprite paths relative to the folder of the scene that instances it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file, absolute and normalized.
    pub path: PathBuf,
    /// The expanded scene (one root, at index 0).
    pub scene: Scene,
    /// The chain of each node, by pre-order index.
    pub chains: Vec<Chain>,
    /// Each chain's pre-order index.
    pub by_chain: FxHashMap<Chain, u32>,
    /// The files its own instances read, nested ones included (absolute): known when it was
    /// read; for a source a journal gave back (its record keeps its nodes, not its instances),
    /// read from the files on disk the first time it is asked for.
    pub(crate) nested: std::sync::OnceLock<Vec<PathBuf>>,
}

/// One instance written in this scene's file.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The instance root (a node of this scene: its name and transform are its own).
    pub root: NodeId,
    /// The source file as the file writes it (relative to the scene's folder, or absolute).
    pub path: String,
    /// The source, or why it could not be read (the instance is then a placeholder that
    /// keeps its overrides verbatim).
    pub source: std::result::Result<Arc<Source>, String>,
    /// The fields each source node's override set when loaded: kept at save even when equal
    /// to the source, so a later change of the source does not show through.
    pub sticky: FxHashMap<Chain, FieldSet>,
    /// Overrides whose node the source does not have: kept, written back, reported, and
    /// applied again when the node comes back.
    pub dangling: Vec<Override>,
}

/// The instances of a scene: the entries, the origin of each expanded node, and the nodes
/// added under a source node that is not there (kept under the instance root).
#[derive(Clone, Debug, Default)]
pub struct Instances {
    pub(crate) entries: Vec<Entry>,
    pub(crate) by_root: FxHashMap<NodeId, u32>,
    pub(crate) origins: OriginMap,
    /// Added nodes whose `inside` parent is missing: node → (instance root, chain).
    pub(crate) pending: FxHashMap<NodeId, (NodeId, Chain)>,
    /// The sibling index a file gave an added node that could not be placed among the
    /// source's nodes (its `inside` node is gone, or the source could not be read): node →
    /// (its parent then, the index), written back while it stays under that parent.
    pub(crate) kept_index: FxHashMap<NodeId, (NodeId, u32)>,
}
