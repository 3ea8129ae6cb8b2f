//! The Scene's read API over its pre-order arrays, its versions and its clip (the struct is in
//! `types.rs`; the edits, the building, the world matrices and the rest are `impl Scene` blocks
//! in the files beside it).

use super::name;
use super::node_data::{Color, NodeData};
use super::node_id::NodeId;
use super::shape::Shape;
use super::types::{Instances, Scene};
use crate::error::{Error, Result};
use crate::model::anim::{self, ClipSettings, Track, TrackError};
use crate::model::math::Trs;
use compact_str::CompactString;
use glam::{Affine2, Vec2};

/// Marks "no parent" in the parent-index array.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Source of scene versions: unique across all scenes, so a cache never confuses two scenes.
pub(super) static NEXT_VERSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl PartialEq for Scene {
    /// Two scenes are equal when they hold the same nodes, data and order and the same clip
    /// (caches aside).
    fn eq(&self, other: &Self) -> bool {
        self.ids == other.ids
            && self.parent == other.parent
            && self.data == other.data
            && self.subtree_len == other.subtree_len
            && self.clip == other.clip
    }
}

impl Scene {
    /// An empty scene.
    pub fn new() -> Self {
        Self::default()
    }

    /// A number that changes whenever nodes are added, removed, moved or renamed: views that
    /// derive something from the tree's shape (the hierarchy's rows) recompute only then.
    pub fn structure_version(&self) -> u64 {
        self.version
    }

    /// A key that changes whenever any node is added, removed, moved or renamed, or changes
    /// shape or colour: views that cache per-node drawing data recompute only then.
    pub fn appearance_version(&self) -> (u64, u64) {
        (self.version, self.appearance_version)
    }

    /// A number that changes with every update pass that recomputes any world matrix (the
    /// ranges it recomputed are [`Scene::last_recomputed_ranges`]).
    pub fn world_version(&self) -> u64 {
        self.world_version
    }

    /// The [`Scene::world_version`] before the last pass that recomputed anything: a cache
    /// read at this version is one pass behind, and that pass recomputed exactly
    /// [`Scene::last_recomputed_ranges`].
    pub fn previous_world_version(&self) -> u64 {
        self.prev_world_version
    }

    pub(crate) fn bump_version(&mut self) {
        self.version = NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the scene has no nodes.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// True when a node with this id exists.
    pub fn contains(&self, id: NodeId) -> bool {
        self.index_of.contains_key(&id)
    }

    /// The pre-order index of a node, or [`Error::UnknownNode`].
    pub fn index(&self, id: NodeId) -> Result<usize> {
        self.index_of
            .get(&id)
            .map(|&i| i as usize)
            .ok_or(Error::UnknownNode(id))
    }

    /// The id that the next [`Scene::add_node`] will use.
    pub fn next_id(&self) -> NodeId {
        NodeId(self.next_id)
    }

    /// Make ids below `id` count as used (a recovered scene gives out the ids its session
    /// would have).
    pub fn reserve_ids_below(&mut self, id: NodeId) {
        self.next_id = self.next_id.max(id.0);
    }

    /// The id of the node at pre-order index `i`.
    pub fn id_at(&self, i: usize) -> NodeId {
        self.ids[i]
    }

    /// All ids in pre-order.
    pub fn ids(&self) -> &[NodeId] {
        &self.ids
    }

    /// The data of the node at pre-order index `i`.
    pub fn data_at(&self, i: usize) -> &NodeData {
        self.data.get(i)
    }

    /// The data (name, local, shape, colour) of a node.
    pub fn node(&self, id: NodeId) -> Result<&NodeData> {
        Ok(self.data.get(self.index(id)?))
    }

    /// How a node is named to a person: [`name::node_label`] ("unnamed node 7" when it has
    /// no name), or "node 7" when the scene holds no such node.
    pub fn label(&self, id: NodeId) -> String {
        self.node(id)
            .map_or_else(|_| format!("node {id}"), |d| name::node_label(&d.name, id))
    }

    /// The pre-order index of the parent of the node at `i`, if any.
    pub fn parent_index_at(&self, i: usize) -> Option<usize> {
        let p = self.parent[i];
        (p != NO_PARENT).then_some(p as usize)
    }

    /// The parent of a node (None for a root).
    pub fn parent(&self, id: NodeId) -> Result<Option<NodeId>> {
        Ok(self.parent_index_at(self.index(id)?).map(|p| self.ids[p]))
    }

    /// The size of the subtree at index `i`, the node included.
    pub fn subtree_len_at(&self, i: usize) -> usize {
        self.subtree_len[i] as usize
    }

    /// The local matrix of the node at `i` (kept in step with its [`Trs`]).
    pub fn local_matrix_at(&self, i: usize) -> Affine2 {
        self.data.local(i)
    }

    /// Parent indices in pre-order (`u32::MAX` for roots): the layout the update loop walks.
    /// Not a library API: for the benches and tests that check the layout.
    #[doc(hidden)]
    pub fn parent_indices(&self) -> &[u32] {
        &self.parent
    }

    /// Local matrices in pre-order (a copy: instanced nodes share theirs).
    pub fn local_matrices(&self) -> Vec<Affine2> {
        (self.data.dense_locals()).map_or_else(
            || (0..self.len()).map(|i| self.data.local(i)).collect(),
            <[Affine2]>::to_vec,
        )
    }

    /// Pre-order indices of the children of `parent` (roots for `None`), in sibling order.
    pub fn child_indices(&self, parent: Option<usize>) -> ChildIndices<'_> {
        let (next, end) = match parent {
            Some(p) => (p + 1, p + self.subtree_len_at(p)),
            None => (0, self.len()),
        };
        ChildIndices {
            subtree_len: &self.subtree_len,
            next,
            end,
        }
    }

    /// The children of a node (roots for `None`), in sibling order.
    pub fn children(&self, parent: Option<NodeId>) -> Result<Vec<NodeId>> {
        let p = parent.map(|id| self.index(id)).transpose()?;
        Ok(self.child_indices(p).map(|i| self.ids[i]).collect())
    }

    /// The position of a node among its siblings.
    pub fn sibling_index(&self, id: NodeId) -> Result<usize> {
        let i = self.index(id)?;
        let position = self
            .child_indices(self.parent_index_at(i))
            .position(|c| c == i);
        Ok(position.unwrap_or(0))
    }

    /// Depth of the node at `i` (roots are 0). Walks up: O(depth).
    pub fn depth_at(&self, i: usize) -> usize {
        let mut depth = 0;
        let mut at = i;
        while let Some(p) = self.parent_index_at(at) {
            depth += 1;
            at = p;
        }
        depth
    }

    /// True when `ancestor` is `node` or lies above it.
    pub fn is_ancestor_or_self(&self, ancestor: NodeId, node: NodeId) -> Result<bool> {
        let a = self.index(ancestor)?;
        let n = self.index(node)?;
        Ok(a <= n && n < a + self.subtree_len_at(a))
    }

    /// The given nodes without those whose ancestor is also given, in pre-order (what a move,
    /// copy or delete of a selection acts on). Unknown ids are dropped.
    pub fn topmost(&self, ids: &[NodeId]) -> Vec<NodeId> {
        // In pre-order a subtree is the range [i, i + len): after sorting, a node is topmost
        // unless it lies in the range of the last topmost one (O(k log k); it was O(k² · depth),
        // half an hour for "select all, delete" on a million nodes).
        let mut indices: Vec<usize> = ids.iter().filter_map(|id| self.index(*id).ok()).collect();
        indices.sort_unstable();
        let mut roots = Vec::new();
        let mut covered_end = 0;
        for i in indices {
            if i >= covered_end {
                roots.push(self.ids[i]);
                covered_end = i + self.subtree_len_at(i);
            }
        }
        roots
    }

    /// Pre-order indices from the root down to `i` (both included).
    pub fn path_indices(&self, i: usize) -> Vec<usize> {
        let mut path = vec![i];
        let mut at = i;
        while let Some(p) = self.parent_index_at(at) {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// Rename a node; returns the old name.
    pub fn rename(&mut self, id: NodeId, name: impl Into<String>) -> Result<String> {
        let name = name.into();
        name::check_name(&name)?;
        let i = self.index(id)?;
        self.bump_version();
        let name = CompactString::from(name);
        let old = std::mem::replace(&mut self.data.get_mut(i).name, name).into_string();
        self.settle_at(i);
        Ok(old)
    }

    /// Change how a node is drawn; returns the old shape and colour.
    pub fn set_appearance(
        &mut self,
        id: NodeId,
        shape: Shape,
        color: Color,
    ) -> Result<(Shape, Color)> {
        let i = self.index(id)?;
        if !shape.is_finite() {
            return Err(Error::NotFinite {
                node: id,
                field: "shape",
            });
        }
        self.appearance_version = NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let data = self.data.get_mut(i);
        let old = (std::mem::replace(&mut data.shape, shape), data.color);
        data.color = color;
        self.settle_at(i);
        Ok(old)
    }

    /// Replace a node's probes (local points; all finite). Returns the old list.
    pub fn set_probes(&mut self, id: NodeId, probes: Vec<Vec2>) -> Result<Vec<Vec2>> {
        let i = self.index(id)?;
        if probes.iter().any(|p| !p.is_finite()) {
            return Err(Error::NotFinite {
                node: id,
                field: "probe",
            });
        }
        self.probes_version = NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let old = std::mem::replace(&mut self.data.get_mut(i).probes, probes.into()).into();
        self.settle_at(i);
        Ok(old)
    }

    /// Changes whenever any node's probes, or the tree, change (a probe list caches on it).
    pub fn probes_version(&self) -> (u64, u64) {
        (self.version, self.probes_version)
    }

    /// The nodes that carry probes, in pre-order (a pass over every node).
    pub fn probe_owners(&self) -> Vec<NodeId> {
        (0..self.len())
            .filter(|&i| !self.data.get(i).probes.is_empty())
            .map(|i| self.ids[i])
            .collect()
    }

    /// Set a node's local transform; marks its subtree dirty. Returns the old transform.
    pub fn set_local(&mut self, id: NodeId, local: Trs) -> Result<Trs> {
        let i = self.index(id)?;
        if let Some(field) = local.first_non_finite() {
            return Err(Error::NotFinite { node: id, field });
        }
        let old = self.set_local_at(i, local);
        self.settle_at(i);
        Ok(old)
    }

    pub(crate) fn set_local_at(&mut self, i: usize, local: Trs) -> Trs {
        self.data.set_local(i, local.to_affine());
        self.mark_dirty(i);
        std::mem::replace(&mut self.data.get_mut(i).local, local)
    }

    /// The instance table (None when the scene instances nothing).
    pub(crate) fn instance_table(&self) -> Option<&Instances> {
        self.instances.as_deref()
    }

    /// The instance table, made when missing; the structure version changes (rows mark
    /// instances).
    pub(crate) fn instance_table_mut(&mut self) -> &mut Instances {
        self.bump_version();
        self.instances.get_or_insert_with(Box::default)
    }

    /// Replace the instance table.
    pub(crate) fn set_instance_table(&mut self, table: Option<Box<Instances>>) {
        self.bump_version();
        self.instances = table;
    }

    /// The clip's length and loop mode.
    pub fn clip(&self) -> ClipSettings {
        self.clip
    }

    /// Set the clip's length and loop mode (refused unless the length is a finite number of
    /// seconds above zero). Returns the old settings.
    pub fn set_clip(&mut self, settings: ClipSettings) -> Result<ClipSettings> {
        settings.check().map_err(Error::Format)?;
        Ok(std::mem::replace(&mut self.clip, settings))
    }

    /// Check tracks meant for node `id`: each valid, one per channel (the error names the node).
    pub fn check_tracks(id: NodeId, tracks: &[Track]) -> Result<()> {
        anim::check_tracks(tracks).map_err(|e| track_error(id, e))
    }

    /// Replace a node's tracks (see [`Scene::check_tracks`]). Returns the old list.
    pub fn set_tracks(&mut self, id: NodeId, tracks: Vec<Track>) -> Result<Vec<Track>> {
        let i = self.index(id)?;
        Self::check_tracks(id, &tracks)?;
        let current = self.animated.key == (self.version, self.tracks_version);
        self.tracks_version = NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let old = std::mem::replace(&mut self.data.get_mut(i).tracks, tracks.into()).into();
        if current {
            // Keep the list of animated nodes current instead of walking every node again.
            let list = &mut self.animated.indices;
            match (has_keys(self.data.get(i)), list.binary_search(&(i as u32))) {
                (true, Err(at)) => list.insert(at, i as u32),
                (false, Ok(at)) => {
                    list.remove(at);
                }
                _ => {}
            }
            self.animated.key = (self.version, self.tracks_version);
        }
        self.settle_at(i);
        Ok(old)
    }

    /// Changes whenever any node's tracks, or the tree, change (a track list caches on it).
    pub fn tracks_version(&self) -> (u64, u64) {
        (self.version, self.tracks_version)
    }

    /// The nodes whose tracks have keys, in pre-order: from the cached list when it is
    /// current (after [`Scene::set_pose_at`] or [`Scene::refresh_animated`]), else one pass.
    pub fn animated_nodes(&self) -> Vec<NodeId> {
        if self.animated.key == (self.version, self.tracks_version) {
            return self
                .animated
                .indices
                .iter()
                .map(|&i| self.ids[i as usize])
                .collect();
        }
        (0..self.len())
            .filter(|&i| has_keys(self.data.get(i)))
            .map(|i| self.ids[i])
            .collect()
    }

    /// Bring the list of animated nodes up to date: one pass over every node after the tree or
    /// a node's tracks changed, nothing otherwise.
    pub fn refresh_animated(&mut self) {
        let key = (self.version, self.tracks_version);
        if self.animated.key != key {
            self.animated.indices = (0..self.len())
                .filter(|&i| has_keys(self.data.get(i)))
                .map(|i| i as u32)
                .collect();
            self.animated.key = key;
        }
    }

    /// Play: write the pose at playback time `t` (mapped onto the clip by its loop mode) into
    /// the locals of the nodes with tracks (only their keyed channels), marking those nodes
    /// dirty so the next update recomputes only their subtrees. Not an edit: the history does
    /// not see it (as Godot's AnimationPlayer writes properties), and a save afterwards saves
    /// the pose. An instanced node that shows its source's data is posed in the shared part,
    /// once for every instance (a pose is not an override). Walks only the animated nodes
    /// (their list is cached on the scene's versions). Returns how many locals changed (bit
    /// for bit).
    pub fn set_pose_at(&mut self, t: f32) -> usize {
        self.refresh_animated();
        let clip_time = self.clip.local_time(t);
        let indices = std::mem::take(&mut self.animated.indices);
        let mut parts = PosedParts::default();
        let mut changed = 0;
        for &i in &indices {
            let i = i as usize;
            let moved = match self.data.shared_at(i) {
                Some((k, j)) => self.pose_shared(&mut parts, i, (k, j), clip_time),
                None => {
                    let data = self.data.get(i);
                    let local = anim::sample(data.local, &data.tracks, clip_time);
                    let moved = !same_bits(&local, &data.local);
                    if moved {
                        self.set_local_at(i, local);
                    }
                    moved
                }
            };
            if moved {
                self.mark_dirty(i);
                changed += 1;
            }
        }
        self.animated.indices = indices;
        changed
    }

    /// Pose node `j` of shared part `k`, which the node at `i` shows, once per call of
    /// [`Scene::set_pose_at`]: whether it moved (the same for every instance that shows it).
    fn pose_shared(&mut self, parts: &mut PosedParts, i: usize, kj: (u32, u32), t: f32) -> bool {
        let (k, j) = (kj.0 as usize, kj.1 as usize);
        if parts.0.len() <= k {
            parts.0.resize_with(k + 1, Vec::new);
        }
        if parts.0[k].is_empty() {
            parts.0[k] = vec![Posed::Not; self.data.part_len(k as u32)];
        }
        match parts.0[k][j] {
            Posed::Moved => return true,
            Posed::Still => return false,
            Posed::Not => {}
        }
        let data = self.data.get(i);
        let local = anim::sample(data.local, &data.tracks, t);
        let moved = !same_bits(&local, &data.local);
        if moved {
            self.data.pose_part(kj.0, kj.1, local);
        }
        parts.0[k][j] = if moved { Posed::Moved } else { Posed::Still };
        moved
    }
}

/// Which nodes of which shared parts one pose has sampled (by part, then node).
#[derive(Default)]
struct PosedParts(Vec<Vec<Posed>>);

/// A shared part's node in one pose: not sampled yet, sampled and unchanged, or moved.
#[derive(Clone, Copy)]
enum Posed {
    Not,
    Still,
    Moved,
}

/// True when two locals are the same bit for bit.
pub(super) fn same_bits(a: &Trs, b: &Trs) -> bool {
    a.components().map(f32::to_bits) == b.components().map(f32::to_bits)
}

/// True when a node has a track with at least one key (playing can change it).
pub(super) fn has_keys(data: &NodeData) -> bool {
    anim::is_keyed(&data.tracks)
}

/// A refused list of tracks as graft's error, naming the node.
pub(super) fn track_error(node: NodeId, e: TrackError) -> Error {
    match e {
        TrackError::NotFinite { .. } => Error::NotFinite {
            node,
            field: "animation key",
        },
        other => Error::Format(format!("node {node}: {other}")),
    }
}

/// Iterator over the pre-order indices of one node's children.
pub struct ChildIndices<'a> {
    subtree_len: &'a [u32],
    next: usize,
    end: usize,
}

impl Iterator for ChildIndices<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += self.subtree_len[i] as usize;
        Some(i)
    }
}
