//! What the file says about instances, found at save: expanded nodes are not written; an
//! instance root's line names its source and carries its overrides (each expanded node
//! compared with its source node, the fields loaded as overrides kept, then the dangling
//! ones verbatim); a node added under an expanded node names its parent as (instance, chain).

use super::overrides::{FieldSet, Override};
use crate::model::scene::types::{Entry, Instances};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;

/// How one node's line is written.
pub(crate) enum Line<'a> {
    /// Not written: it comes from a source.
    Skip,
    /// Written, with these instance fields.
    Write(Fields<'a>),
}

/// A written line's instance fields.
#[derive(Default)]
pub(crate) struct Fields<'a> {
    /// `parent: Some(root), inside: chain` in place of the real parent.
    pub(crate) inside: Option<(NodeId, &'a [u32])>,
    /// `index: n`: its place among its parent's children, when a source node comes after it.
    pub(crate) index: Option<u32>,
    /// `instance: path, overrides: [...]`.
    pub(crate) instance: Option<(&'a str, Vec<Override>)>,
}

/// The line of the node at pre-order index `i`, for a scene with an instance table
/// (`indexes`: [`sibling_indexes`], found once for the whole save).
pub(crate) fn line<'a>(
    scene: &'a Scene,
    table: &'a Instances,
    indexes: &FxHashMap<NodeId, u32>,
    i: usize,
) -> Line<'a> {
    let id = scene.id_at(i);
    if table.origins.contains_key(&id) {
        return Line::Skip;
    }
    let parent = scene.parent_index_at(i).map(|p| scene.id_at(p));
    let inside = parent.and_then(|p| match table.origin(p) {
        Some(o) => table.chain_of(o).map(|c| (o.root, c)),
        None => table.pending(id).filter(|(root, _)| *root == p),
    });
    let instance = table
        .entry(id)
        .map(|entry| (entry.path.as_str(), overrides_of(scene, entry, i)));
    Line::Write(Fields {
        inside,
        index: indexes.get(&id).copied(),
        instance,
    })
}

/// The sibling index each of the scene's own nodes is written with, in one pass over the
/// scene: a node added under an instance root or an expanded node that has one of the
/// source's nodes after it (the loader puts the source's nodes first); and a node that keeps
/// the index its file gave it while it could not be placed (its `inside` node gone, or its
/// instance a placeholder) and it is still under the parent it had. Empty: the file needs no
/// format 5.
pub(crate) fn sibling_indexes(scene: &Scene, table: &Instances) -> FxHashMap<NodeId, u32> {
    let mut out = FxHashMap::default();
    let mut parents: Vec<usize> = Vec::new();
    for i in 0..scene.len() {
        let id = scene.id_at(i);
        if table.origins.contains_key(&id) {
            continue;
        }
        let Some(p) = scene.parent_index_at(i) else {
            continue;
        };
        let parent = scene.id_at(p);
        if let Some(&(then, index)) = table.kept_index.get(&id)
            && then == parent
        {
            out.insert(id, index);
        } else if table.origin(parent).is_some() || table.entry(parent).is_some() {
            parents.push(p);
        }
    }
    parents.sort_unstable();
    parents.dedup();
    for p in parents {
        let children: Vec<usize> = scene.child_indices(Some(p)).collect();
        let from_source = |c: usize| table.origins.contains_key(&scene.id_at(c));
        let Some(last) = children.iter().rposition(|&c| from_source(c)) else {
            continue;
        };
        for (k, &c) in children[..last].iter().enumerate() {
            let id = scene.id_at(c);
            let pending_here = table
                .pending(id)
                .is_some_and(|(root, _)| root == scene.id_at(p));
            if !from_source(c) && !pending_here && !out.contains_key(&id) {
                out.insert(id, k as u32);
            }
        }
    }
    out
}

/// The overrides of the instance rooted at index `i`: the root's look, then each expanded
/// node that does not show its source's shared data, in pre-order, then the dangling ones as
/// loaded.
pub(crate) fn overrides_of(scene: &Scene, entry: &Entry, i: usize) -> Vec<Override> {
    let mut out = Vec::new();
    if let Ok(source) = &entry.source {
        let table = scene.instances();
        let sticky = |chain: &[u32]| entry.sticky.get(chain).copied().unwrap_or_default();
        let chain = &source.chains[0];
        let root = Override::diff(
            chain.clone(),
            source.scene.data_at(0),
            scene.data_at(i),
            sticky(chain),
            FieldSet::ROOT,
        );
        out.extend(root);
        for k in i + 1..i + scene.subtree_len_at(i) {
            let Some(o) = table.and_then(|t| t.origin(scene.id_at(k))) else {
                continue;
            };
            if o.root != entry.root {
                continue;
            }
            let j = o.index as usize;
            let chain = &source.chains[j];
            // A node that shows its source's data overrides nothing (posed or not: a pose of
            // an instance is played from its source's tracks, not written as its own).
            if scene.is_shared_at(k) && !entry.sticky.contains_key(chain) {
                continue;
            }
            let diff = Override::diff(
                chain.clone(),
                source.scene.data_at(j),
                scene.data_at(k),
                sticky(chain),
                u16::MAX,
            );
            out.extend(diff);
        }
    }
    out.extend(entry.dangling.iter().cloned());
    out
}

/// Which fields of each node differ from its source or were loaded as overrides (instance
/// roots: their look), by node id: what `graft print` and the inspector mark.
pub fn overridden(scene: &Scene) -> rustc_hash::FxHashMap<NodeId, FieldSet> {
    let mut out = rustc_hash::FxHashMap::default();
    let Some(table) = scene.instances() else {
        return out;
    };
    for entry in table.entries() {
        let (Ok(i), Ok(source)) = (scene.index(entry.root), &entry.source) else {
            continue;
        };
        let by_chain: rustc_hash::FxHashMap<&[u32], FieldSet> = overrides_of(scene, entry, i)
            .iter()
            .filter(|o| source.index_of(&o.node).is_some())
            .map(|o| {
                (
                    &source.chains[source.index_of(&o.node).unwrap_or(0)][..],
                    o.fields(),
                )
            })
            .collect();
        for k in i..i + scene.subtree_len_at(i) {
            let id = scene.id_at(k);
            let j = match table.origin(id) {
                Some(o) if o.root == entry.root => o.index as usize,
                None if k == i => 0,
                _ => continue,
            };
            if let Some(f) = by_chain.get(&source.chains[j][..]) {
                out.insert(id, *f);
            }
        }
    }
    out
}
