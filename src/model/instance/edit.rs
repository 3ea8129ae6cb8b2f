//! Changing instances: instance a scene file under a node, make an instance local (its nodes
//! become the scene's own, overrides applied), and reload the sources (each expanded node
//! keeps its id, every override kept).

use super::expand::{Resolver, Reuse, absolute};
use super::ids::Origin;
use super::overrides::Override;
use crate::error::{Error, Result};
use crate::model::file_load::load_source;
use crate::model::math::Trs;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::types::{Entry, Instances, Source};
use crate::model::scene::{DetachedSubtree, NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An instance made ready to insert: its nodes as a detached subtree, and what the table
/// learns about them once they are in ([`Prepared::register`]).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The root and the source's nodes below it, with ids the scene does not use.
    pub subtree: DetachedSubtree,
    entry: Entry,
}

/// Make an instance of the scene file `source` (relative to the folder of `host`, the file
/// the scene is saved as, or absolute) to go under `parent`. Refused when the source cannot
/// be read or has other than one root, or when it leads back to `host` (the cycle named).
pub fn prepare(
    scene: &Scene,
    host: &Path,
    source: &str,
    parent: Option<NodeId>,
) -> Result<Prepared> {
    let folder = folder_of(host);
    let abs = absolute(&folder.join(source));
    let raw = Resolver::within(&[host], load_source)
        .source(&abs)?
        .map_err(|why| Error::Refused(format!("cannot instance {source}: {why}")))?;
    let mut copy = Source::clone(&raw);
    copy.scene.rebase_sprites(&folder_of(&raw.path), &folder);
    let src = Arc::new(copy);
    let mut root = src.scene.data_at(0).clone();
    root.local = Trs::IDENTITY;
    if root.name.is_empty() {
        let stem = abs.file_stem().map(|s| s.to_string_lossy().into_owned());
        root.name = stem.unwrap_or_default().into();
    }
    let p = parent.map(|id| scene.index(id)).transpose()?;
    let n = src.scene.len();
    let mut subtree = DetachedSubtree {
        parent,
        index: scene.child_indices(p).count(),
        ids: (0..n as u32).map(NodeId).collect(),
        data: Vec::with_capacity(n),
        parents: Vec::with_capacity(n),
    };
    subtree.data.push(root);
    subtree.parents.push(u32::MAX);
    for j in 1..n {
        subtree.data.push(src.scene.data_at(j).clone());
        let parent = src.scene.parent_index_at(j).unwrap_or(0);
        subtree.parents.push(parent as u32);
    }
    scene.renumber_fresh(std::slice::from_mut(&mut subtree));
    let entry = Entry {
        root: subtree.ids[0],
        path: source.to_string(),
        source: Ok(src),
        sticky: FxHashMap::default(),
        dangling: Vec::new(),
    };
    Ok(Prepared { subtree, entry })
}

impl Prepared {
    /// The subtree to insert and the table rows it needs once it is in.
    pub fn into_parts(self) -> (DetachedSubtree, super::table_edit::Registration) {
        let origins = (self.subtree.ids.iter().enumerate().skip(1))
            .map(|(j, id)| (*id, j as u32))
            .collect();
        let reg = super::table_edit::Registration {
            entry: self.entry,
            origins,
            pending: Vec::new(),
        };
        (self.subtree, reg)
    }

    /// The instance's root id.
    pub fn root(&self) -> NodeId {
        self.subtree.ids[0]
    }

    /// Record the instance in `scene`'s table (after its subtree was inserted; ids are never
    /// given out twice, so it stays true through undo and redo).
    pub fn register(self, scene: &mut Scene) {
        let root = self.root();
        let table = scene.instance_table_mut();
        for (j, id) in self.subtree.ids.iter().enumerate().skip(1) {
            let index = j as u32;
            table.origins.insert(*id, Origin { root, index });
        }
        table.push(self.entry);
    }
}

/// Instance `source` under `parent` in `scene` (saved as `host`): [`prepare`], insert,
/// [`Prepared::register`]. Returns the instance root's id.
pub fn add_instance(
    scene: &mut Scene,
    host: &Path,
    source: &str,
    parent: Option<NodeId>,
) -> Result<NodeId> {
    let prepared = prepare(scene, host, source, parent)?;
    let root = prepared.root();
    let last = prepared
        .subtree
        .ids
        .iter()
        .map(|id| id.0)
        .max()
        .unwrap_or(0);
    scene.insert_subtree(prepared.subtree.clone())?;
    scene.reserve_ids_below(NodeId(last.saturating_add(1)));
    prepared.register(scene);
    Ok(root)
}

/// Make the instance rooted at `root` local: its nodes become the scene's own, as they are
/// (overrides applied; nested instances flattened too). Returns the overrides that named no
/// node of the source (they have nothing to apply to; the caller reports them).
pub fn make_local(scene: &mut Scene, root: NodeId) -> Result<Vec<Override>> {
    let i = scene.index(root)?;
    if scene.instance_entry(root).is_none() {
        let why = match scene.origin(root) {
            Some(o) => format!("node {root} is inside instance {}: make that local", o.root),
            None => format!("node {root} is not an instance"),
        };
        return Err(Error::Refused(why));
    }
    let ids: Vec<NodeId> = (i..i + scene.subtree_len_at(i))
        .map(|k| scene.id_at(k))
        .collect();
    let table = scene.instance_table_mut();
    let entry = table.remove(root);
    for id in ids {
        if table.origins.get(&id).is_some_and(|o| o.root == root) {
            table.origins.remove(&id);
        }
    }
    table.pending.retain(|_, (r, _)| *r != root);
    scene.unshare_subtree(root);
    Ok(entry.map(|e| e.dangling).unwrap_or_default())
}

/// The scene re-read with its sources as they are on disk now: every override kept, each
/// expanded node keeping its id while its source still has it (so the selection and the
/// history still name it), nodes added under source nodes placed again. `host` is the file
/// the scene is saved as (its sources are relative to it).
pub fn reload(scene: &Scene, host: &Path) -> Result<Scene> {
    let mut reuse = Reuse {
        ids: FxHashMap::default(),
        next: scene.next_id().0,
    };
    if let Some(table) = scene.instances() {
        for (id, o) in table.origins.iter() {
            if let Some(chain) = table.chain_of(o) {
                reuse.ids.insert((o.root, chain.into()), id);
            }
        }
    }
    let text = crate::model::file::to_ron_string(scene);
    let mut resolver = Resolver::new(load_source);
    resolver.reuse = Some(reuse);
    let mut fresh = crate::model::file_load::parse_with_resolver(&text, host, &mut resolver)?;
    fresh.reserve_ids_below(scene.next_id());
    Ok(fresh)
}

impl Instances {
    /// Every source file the scene's instances read, nested ones included (absolute), each
    /// once: what a disk watch watches.
    pub fn source_files(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let mut seen: Vec<*const Source> = Vec::new();
        for source in self.entries.iter().filter_map(|e| e.source.as_ref().ok()) {
            if seen.contains(&Arc::as_ptr(source)) {
                continue;
            }
            seen.push(Arc::as_ptr(source));
            for path in std::iter::once(&source.path).chain(source.nested_files()) {
                if !out.contains(path) {
                    out.push(path.clone());
                }
            }
        }
        out
    }
}

/// The data of the node at `chain` of an instance's source (its look, for a root), as the
/// source has it now: what "Revert to source" would give back.
pub fn source_data<'a>(entry: &'a Entry, chain: &[u32]) -> Option<&'a NodeData> {
    let source = entry.source.as_ref().ok()?;
    Some(source.scene.data_at(source.index_of(chain)?))
}

/// Refuse ops that would take a node that belongs to a source out of its place (delete it,
/// move or reorder it): the file cannot say so, and the source decides where it is. Nodes
/// added under source nodes, and instance roots, move freely.
pub fn check_ops(scene: &Scene, ops: &[crate::model::scene::edit::Op]) -> Result<()> {
    use crate::model::scene::edit::Op;
    for op in ops {
        let (node, what) = match op {
            Op::Remove { node } => (*node, "deleted"),
            Op::Reparent { node, .. } => (*node, "moved"),
            _ => continue,
        };
        if let Some(o) = scene.origin(node) {
            let path = scene
                .instance_entry(o.root)
                .map_or(String::new(), |e| format!(" of {}", e.path));
            return Err(Error::Refused(format!(
                "node {node} belongs to instance {}{path}: it cannot be {what} (Make local first)",
                o.root
            )));
        }
    }
    Ok(())
}
