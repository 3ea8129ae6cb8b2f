//! Instanced nodes sharing their source's data: a source's nodes as a shared part, a node
//! sharing again when it equals its source, and a follow's table edit applied. No file is read
//! here (reading sources is `follow.rs` and `expand.rs`), so the scene and its instance table
//! reach this without reaching the loader.

use super::Source;
use crate::model::scene::{NodeData, NodeId, Scene};
use std::path::Path;
use std::sync::Arc;

/// A source's nodes as a shared part (its root first).
pub(crate) fn part_nodes(source: &Source) -> Arc<[NodeData]> {
    (0..source.scene.len())
        .map(|j| source.scene.data_at(j).clone())
        .collect()
}

/// The node at `i` shares its source's data again if it equals it (after an edit or an undo
/// gave it back its source's values, or when an instance's rows are put in).
pub(crate) fn settle(scene: &mut Scene, i: usize) {
    let Some(table) = scene.instances() else {
        return;
    };
    let Some(o) = table.origin(scene.id_at(i)) else {
        return;
    };
    let Some(source) = (table.entry(o.root)).and_then(|e| e.source.as_ref().ok()) else {
        return;
    };
    let source = Arc::clone(source);
    if o.index as usize >= source.scene.len() {
        return;
    }
    let want = source.scene.data_at(o.index as usize);
    scene.share_if_equal(i, &source.path, o.index, want, || part_nodes(&source));
}

/// Every node of the instance rooted at `root` shares its source's data where it equals it.
pub(crate) fn settle_instance(scene: &mut Scene, root: NodeId) {
    let Ok(i) = scene.index(root) else { return };
    for k in i + 1..i + scene.subtree_len_at(i) {
        settle(scene, k);
    }
}

/// Apply a [`TableEdit::Follow`]: every instance of `key` gets `after`, and the nodes that
/// share the source show its nodes.
pub(crate) fn apply(scene: &mut Scene, key: &Path, after: &Arc<Source>) {
    let table = scene.instance_table_mut();
    for entry in &mut table.entries {
        if entry.source.as_ref().is_ok_and(|s| s.path == key) {
            entry.source = Ok(Arc::clone(after));
        }
    }
    scene.follow_part(key, part_nodes(after));
}
