//! Scenes inside scenes: a node may be an instance of another scene file, whose nodes are
//! expanded below it when the scene loads (docs/scene-format.md#instances).
//!
//! The [`Scene`] holds the expanded nodes, so the world update, drawing, picking and every
//! edit work on them unchanged. Beside them it keeps an [`Instances`] table: per instance its
//! source (shared by every instance of one file), the overrides as loaded, and per expanded
//! node its [`Origin`] (the instance and the node's place in the source), keyed by the node's
//! id so no structural edit has to maintain it. On save the overrides are found by comparing
//! each expanded node with its source node, keyed by the source's stable ids (never names or
//! paths); nodes added under expanded nodes are written with their parent addressed the same
//! way (`overrides.rs`, `save.rs`). `expand.rs` reads the sources (cycles refused with the
//! chain named), `edit.rs` instances a file, makes an instance local and reloads sources,
//! `check.rs` reports what does not resolve at `FILE:LINE:COL`.

pub(crate) mod carry;
pub mod check;
pub mod edit;
pub(crate) mod expand;
pub(crate) mod follow;
pub(crate) mod ids;
pub(crate) mod origin_map;
pub(crate) mod overrides;
pub mod plan;
pub(crate) mod reshape;
pub mod save;
pub mod share;
pub mod snapshot;
mod table_edit;
mod values;

pub use crate::model::scene::types::{Entry, Instances, Source};
pub use ids::{Chain, Origin};
pub use overrides::{FieldSet, Override};
pub use table_edit::{Registration, Reshaping, TableEdit};

use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;
use std::sync::Arc;

impl Source {
    /// A source from its expanded scene (`abs`: its file): every node's chain and the index
    /// of each chain.
    pub(crate) fn from_scene(scene: Scene, abs: &std::path::Path) -> Source {
        let table = scene.instances();
        let nested = table.map(|t| t.source_files()).unwrap_or_default();
        let chains: Vec<Chain> = (0..scene.len())
            .map(|j| {
                let id = scene.id_at(j);
                match table.and_then(|t| Some((t.origin(id)?, t))) {
                    Some((o, t)) => {
                        let mut chain = vec![o.root.0];
                        chain.extend_from_slice(t.chain_of(o).unwrap_or(&[]));
                        chain.into_boxed_slice()
                    }
                    None => Box::new([id.0]),
                }
            })
            .collect();
        let by_chain = chains
            .iter()
            .enumerate()
            .map(|(j, c)| (c.clone(), j as u32))
            .collect();
        Source {
            path: abs.to_path_buf(),
            scene,
            chains,
            by_chain,
            nested: nested.into(),
        }
    }

    /// The pre-order index of the node a chain names, if the source has it.
    pub fn index_of(&self, chain: &[u32]) -> Option<usize> {
        self.by_chain.get(chain).map(|&i| i as usize)
    }
}

impl Instances {
    /// The instance whose root is `root`.
    pub fn entry(&self, root: NodeId) -> Option<&Entry> {
        self.by_root.get(&root).map(|&k| &self.entries[k as usize])
    }

    /// Every instance written in the file, in the order they were made.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Where an expanded node came from (None: a node of this scene's own).
    pub fn origin(&self, id: NodeId) -> Option<Origin> {
        self.origins.get(&id)
    }

    /// The chain an expanded node has in its instance's source.
    pub fn chain_of(&self, origin: Origin) -> Option<&[u32]> {
        let source = self.entry(origin.root)?.source.as_ref().ok()?;
        source.chains.get(origin.index as usize).map(|c| &**c)
    }

    /// An added node kept under its instance root because its parent is not in the source:
    /// the root and the parent's chain.
    pub fn pending(&self, id: NodeId) -> Option<(NodeId, &[u32])> {
        self.pending.get(&id).map(|(r, c)| (*r, &**c))
    }

    /// True when any instance root is in `scene` (the file then needs format 4).
    pub fn in_use(&self, scene: &Scene) -> bool {
        self.entries.iter().any(|e| scene.contains(e.root))
    }

    /// Add an entry (replacing one with the same root).
    pub(crate) fn push(&mut self, entry: Entry) {
        if let Some(&k) = self.by_root.get(&entry.root) {
            self.entries[k as usize] = entry;
            return;
        }
        self.by_root.insert(entry.root, self.entries.len() as u32);
        self.entries.push(entry);
    }

    /// Take the entry of `root` out (its nodes' origins stay until dropped by the caller).
    pub(crate) fn remove(&mut self, root: NodeId) -> Option<Entry> {
        let k = self.by_root.remove(&root)? as usize;
        let entry = self.entries.remove(k);
        for slot in self.by_root.values_mut() {
            if *slot as usize > k {
                *slot -= 1;
            }
        }
        Some(entry)
    }

    /// Give every path the table holds to `map` (the source paths, the sources' sprite
    /// paths, the dangling overrides' sprites), as a scene's sprite paths are rebased; each
    /// shared source is mapped once. Returns how many entry paths changed.
    pub(crate) fn map_paths(&mut self, map: &mut dyn FnMut(&str) -> Option<String>) -> usize {
        let mut changed = 0;
        let mut mapped: FxHashMap<*const Source, Arc<Source>> = FxHashMap::default();
        for entry in &mut self.entries {
            if let Some(path) = map(&entry.path) {
                entry.path = path;
                changed += 1;
            }
            for o in &mut entry.dangling {
                if let Some(shape) = &mut o.shape {
                    crate::model::scene::sprites::map_shape(shape, &mut |p| map(p));
                }
            }
            if let Ok(source) = &mut entry.source {
                let key = Arc::as_ptr(source);
                let new = mapped.entry(key).or_insert_with(|| {
                    let mut copy = Source::clone(source);
                    copy.scene.map_sprite_paths(|p| map(p));
                    Arc::new(copy)
                });
                *source = Arc::clone(new);
            }
        }
        changed
    }
}

impl Scene {
    /// The scene's instances, if it has any.
    pub fn instances(&self) -> Option<&Instances> {
        self.instance_table()
    }

    /// The instance whose root is `id`, if it is one.
    pub fn instance_entry(&self, id: NodeId) -> Option<&Entry> {
        self.instances()?.entry(id)
    }

    /// Where a node came from when it was expanded from a source (None: the scene's own).
    pub fn origin(&self, id: NodeId) -> Option<Origin> {
        self.instances()?.origin(id)
    }
}

impl Registration {
    /// The rows of the instance rooted at `root` as the scene holds them now.
    pub fn of(scene: &Scene, root: NodeId) -> Option<Registration> {
        let table = scene.instances()?;
        let entry = table.entry(root)?.clone();
        let origins = match scene.index(root) {
            Ok(i) => (i + 1..i + scene.subtree_len_at(i))
                .filter_map(|k| {
                    let id = scene.id_at(k);
                    table
                        .origin(id)
                        .filter(|o| o.root == root)
                        .map(|o| (id, o.index))
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        let mut pending: Vec<(NodeId, Chain)> = table
            .pending
            .iter()
            .filter(|(_, (r, _))| *r == root)
            .map(|(id, (_, c))| (*id, c.clone()))
            .collect();
        pending.sort_by_key(|(id, _)| *id);
        Some(Registration {
            entry,
            origins,
            pending,
        })
    }
}

impl TableEdit {
    /// The instance root it is about.
    pub fn root(&self) -> NodeId {
        match self {
            TableEdit::Swap { root, .. }
            | TableEdit::Sticky { root, .. }
            | TableEdit::Follow { root, .. }
            | TableEdit::Reshape(Reshaping { root, .. })
            | TableEdit::ReshapeCarrying(Reshaping { root, .. }, _)
            | TableEdit::Kept { root, .. } => *root,
        }
    }

    /// Make the change (redo).
    pub fn apply(&self, scene: &mut Scene) -> Result<()> {
        match self {
            TableEdit::Swap {
                root,
                before,
                after,
            } => {
                if before.is_some() {
                    take_out(scene.instance_table_mut(), *root);
                    // Its nodes are no instance's now: they stop following the source.
                    scene.unshare_subtree(*root);
                }
                if let Some(reg) = after {
                    put_in(scene.instance_table_mut(), reg);
                    share::settle_instance(scene, *root);
                }
                Ok(())
            }
            TableEdit::Sticky {
                root, chain, after, ..
            } => {
                let missing = || Error::Refused(format!("node {root} is not an instance"));
                let entry = scene
                    .instance_table_mut()
                    .entry_mut(*root)
                    .ok_or_else(missing)?;
                if after.0 == 0 {
                    entry.sticky.remove(chain);
                } else {
                    entry.sticky.insert(chain.clone(), *after);
                }
                scene.bump_version();
                Ok(())
            }
            TableEdit::Follow { key, after, .. } => {
                let after = after.as_ref().map_err(|e| Error::Refused(e.clone()))?;
                share::apply(scene, key, after);
                Ok(())
            }
            TableEdit::Reshape(r) => share::apply_reshape(scene, r, &[]),
            TableEdit::ReshapeCarrying(r, carried) => share::apply_reshape(scene, r, carried),
            TableEdit::Kept { before, after, .. } => {
                let table = scene.instance_table_mut();
                table.take_kept(before);
                table.put_kept(after);
                Ok(())
            }
        }
    }

    /// The edit that takes it back.
    pub fn inverse(&self) -> TableEdit {
        let mut back = self.clone();
        match &mut back {
            TableEdit::Swap { before, after, .. } => std::mem::swap(before, after),
            TableEdit::Sticky { before, after, .. } => std::mem::swap(before, after),
            TableEdit::Follow { before, after, .. } => std::mem::swap(before, after),
            TableEdit::Kept { before, after, .. } => std::mem::swap(before, after),
            TableEdit::Reshape(r) => *r = r.inverse(),
            TableEdit::ReshapeCarrying(r, carried) => {
                *r = r.inverse();
                *carried = carried.iter().map(table_edit::Carry::inverse).collect();
            }
        }
        back
    }

    /// Give the source paths and sprite paths it holds to `map` (Save As into another
    /// folder); how many changed.
    pub fn map_paths(&mut self, map: &mut dyn FnMut(&str) -> Option<String>) -> usize {
        if let TableEdit::Follow { before, after, .. }
        | TableEdit::Reshape(Reshaping { before, after, .. })
        | TableEdit::ReshapeCarrying(Reshaping { before, after, .. }, _) = self
        {
            let mut changed = 0;
            for source in [before, after].into_iter().filter_map(|s| s.as_mut().ok()) {
                let mut copy = Source::clone(source);
                let n = copy.scene.map_sprite_paths(&mut *map);
                if n > 0 {
                    *source = Arc::new(copy);
                    changed += n;
                }
            }
            return changed;
        }
        let TableEdit::Swap { before, after, .. } = self else {
            return 0;
        };
        let mut changed = 0;
        for reg in [before, after].into_iter().flatten() {
            let mut table = Instances::default();
            table.push(reg.entry.clone());
            changed += table.map_paths(map);
            if let Some(entry) = table.entries.pop() {
                reg.entry = entry;
            }
        }
        changed
    }
}

/// Take the rows of the instance rooted at `root` out of the table.
fn take_out(table: &mut Instances, root: NodeId) {
    table.remove(root);
    table.origins.retain(|_, o| o.root != root);
    table.pending.retain(|_, (r, _)| *r != root);
}

/// Put an instance's rows in the table.
pub(crate) fn put_in(table: &mut Instances, reg: &Registration) {
    let root = reg.entry.root;
    for &(id, index) in &reg.origins {
        table.origins.insert(id, Origin { root, index });
    }
    for (id, chain) in &reg.pending {
        table.pending.insert(*id, (root, chain.clone()));
    }
    table.push(reg.entry.clone());
}

impl Instances {
    /// Forget the kept indexes `entries` (node, parent then, index), each only while the
    /// table still holds it so.
    pub(crate) fn take_kept(&mut self, entries: &[(NodeId, NodeId, u32)]) {
        for (id, parent, index) in entries {
            if self.kept_index.get(id) == Some(&(*parent, *index)) {
                self.kept_index.remove(id);
            }
        }
    }

    /// Keep the indexes `entries` (node, parent then, index).
    pub(crate) fn put_kept(&mut self, entries: &[(NodeId, NodeId, u32)]) {
        for &(id, parent, index) in entries {
            self.kept_index.insert(id, (parent, index));
        }
    }

    /// The entry of `root`, to change.
    pub(crate) fn entry_mut(&mut self, root: NodeId) -> Option<&mut Entry> {
        let k = *self.by_root.get(&root)? as usize;
        self.entries.get_mut(k)
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Self) -> bool {
        let nodes = |s: &Source| s.scene.copy_subtree(s.scene.id_at(0)).ok();
        self.path == other.path
            && self.chains == other.chains
            && self.scene.len() == other.scene.len()
            && nodes(self) == nodes(other)
    }
}
