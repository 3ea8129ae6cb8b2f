//! The selection as a set as well as a list: "is this node selected?" is asked per hierarchy
//! row, per drawn node and per figure element, and with everything selected in a big scene a
//! list made each question O(selection) (a figure of a 1M-node scene with all selected would
//! have compared 6·10¹⁰ ids). The set is built on first use after a change; every place that
//! changes the selection calls [`Editor::selection_changed`].

use crate::editor::session::Editor;
use crate::model::scene::NodeId;
use rustc_hash::FxHashSet;
use std::cell::RefCell;

/// Selections up to this size are searched as a list (cheaper than hashing).
const LIST_MAX: usize = 16;

/// The set, with the selection version it was built at, and the scene structure version the
/// selection was last pruned at.
#[derive(Default)]
pub struct SelectionCache {
    version: u64,
    set: RefCell<Option<(u64, FxHashSet<NodeId>)>>,
    pruned_at: Option<u64>,
}

impl Editor {
    /// True when `id` is selected (O(1) for big selections).
    pub fn is_selected(&self, id: NodeId) -> bool {
        if self.selection.len() <= LIST_MAX {
            return self.selection.contains(&id);
        }
        let cache = &self.selection_cache;
        let mut set = cache.set.borrow_mut();
        match &*set {
            Some((version, set)) if *version == cache.version => set.contains(&id),
            _ => {
                let built: FxHashSet<NodeId> = self.selection.iter().copied().collect();
                let found = built.contains(&id);
                *set = Some((cache.version, built));
                found
            }
        }
    }

    /// A number that changes whenever the selection does (views key caches on it).
    pub fn selection_version(&self) -> u64 {
        self.selection_cache.version
    }

    /// The selection list changed: the set is rebuilt when next asked.
    pub(super) fn selection_changed(&mut self) {
        self.selection_cache.version = self.selection_cache.version.wrapping_add(1);
    }

    /// Drop selected nodes that no longer exist; only looks when the tree changed since the
    /// last look (a million selected ids are not checked every frame).
    pub(super) fn prune_selection(&mut self) {
        let structure = self.doc.scene().structure_version();
        if self.selection_cache.pruned_at == Some(structure) {
            return;
        }
        self.selection_cache.pruned_at = Some(structure);
        let before = self.selection.len();
        let scene = self.doc.scene();
        self.selection.retain(|id| scene.contains(*id));
        if self.selection.len() != before {
            self.selection_changed();
        }
    }
}
