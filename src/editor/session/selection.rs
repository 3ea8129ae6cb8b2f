//! The selection as a set as well as a list: "is this node selected?" is asked per hierarchy
//! row, per drawn node and per figure element, and with everything selected in a big scene a
//! list made each question O(selection) (a figure of a 1M-node scene with all selected would
//! have compared 6·10¹⁰ ids). The set is built on first use after a change; every change goes
//! through a method here, which bumps the version views key their caches on.

use crate::editor::session::command::SelectionCommand;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::timeline_command::KeyRef;
use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashSet;
use std::cell::RefCell;

/// Selections up to this size are searched as a list (cheaper than hashing).
const LIST_MAX: usize = 16;

/// The selected nodes, in the order they were picked (the last is the primary), with a set
/// for big selections and the scene structure version they were last pruned at.
#[derive(Default)]
pub struct Selection {
    ids: Vec<NodeId>,
    version: u64,
    set: RefCell<Option<(u64, FxHashSet<NodeId>)>>,
    pruned_at: Option<u64>,
}

impl Selection {
    /// The selected nodes; the last one is the primary selection.
    pub fn ids(&self) -> &[NodeId] {
        &self.ids
    }

    /// The last picked node (it may have been deleted since: see [`Selection::prune`]).
    pub fn last(&self) -> Option<NodeId> {
        self.ids.last().copied()
    }

    /// True when `id` is selected (O(1) for big selections).
    pub fn contains(&self, id: NodeId) -> bool {
        if self.ids.len() <= LIST_MAX {
            return self.ids.contains(&id);
        }
        let mut set = self.set.borrow_mut();
        match &*set {
            Some((version, set)) if *version == self.version => set.contains(&id),
            _ => {
                let built: FxHashSet<NodeId> = self.ids.iter().copied().collect();
                let found = built.contains(&id);
                *set = Some((self.version, built));
                found
            }
        }
    }

    /// A number that changes whenever the selection does.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Replace the selection; true when it changed.
    pub fn set(&mut self, ids: Vec<NodeId>) -> bool {
        let changed = ids != self.ids;
        self.ids = ids;
        self.changed();
        changed
    }

    /// Select nothing.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.changed();
    }

    /// Add `id` (the new primary) or take it out when it was selected; an unknown node is
    /// refused.
    pub fn toggle(&mut self, id: NodeId, scene: &Scene) -> Result<()> {
        match self.ids.iter().position(|s| *s == id) {
            Some(at) => {
                self.ids.remove(at);
            }
            None if scene.contains(id) => self.ids.push(id),
            None => return Err(Error::UnknownNode(id)),
        }
        self.changed();
        Ok(())
    }

    /// Drop selected nodes that no longer exist; only looks when the tree changed since the
    /// last look (a million selected ids are not checked every frame).
    pub fn prune(&mut self, scene: &Scene) {
        let structure = scene.structure_version();
        if self.pruned_at == Some(structure) {
            return;
        }
        self.pruned_at = Some(structure);
        let before = self.ids.len();
        self.ids.retain(|id| scene.contains(*id));
        if self.ids.len() != before {
            self.changed();
        }
    }

    fn changed(&mut self) {
        self.version = self.version.wrapping_add(1);
    }
}

/// Select, select all, Ctrl-toggle: handed the selection, the timeline's key selection (picking
/// nodes clears the keys) and the scene to check ids against.
pub(super) fn handle(
    selection: &mut Selection,
    keys: &mut Vec<KeyRef>,
    scene: &Scene,
    command: SelectionCommand,
) -> Result<Outcome> {
    let changed = match command {
        SelectionCommand::Select(ids) => match ids.iter().find(|id| !scene.contains(**id)) {
            Some(&missing) => Err(Error::UnknownNode(missing)),
            None => Ok(selection.set(ids)),
        },
        SelectionCommand::SelectAll => Ok(selection.set(scene.ids().to_vec())),
        SelectionCommand::ToggleSelect(id) => selection.toggle(id, scene).map(|()| true),
    };
    if matches!(changed, Ok(true)) {
        keys.clear();
    }
    changed.map(|_| Outcome::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::math::Trs;
    use crate::model::scene::NodeData;

    #[test]
    fn a_big_selection_answers_through_its_set_and_follows_changes() {
        let mut scene = Scene::new();
        let ids: Vec<NodeId> = (0..40)
            .map(|i| scene.add_node(None, None, NodeData::named(format!("n{i}"), Trs::default())))
            .collect::<Result<_>>()
            .expect("adds");
        let mut selection = Selection::default();
        assert!(selection.set(ids[..30].to_vec()));
        assert!(selection.contains(ids[29]) && !selection.contains(ids[30]));
        let version = selection.version();
        selection.toggle(ids[35], &scene).expect("exists");
        assert!(selection.contains(ids[35]) && selection.version() != version);
        selection.toggle(ids[0], &scene).expect("exists");
        assert!(!selection.contains(ids[0]));
        assert_eq!(selection.last(), Some(ids[35]));
        scene.remove_subtree(ids[35]).expect("removes");
        selection.prune(&scene);
        assert!(!selection.contains(ids[35]));
        assert_eq!(selection.ids().len(), 29);
        assert!(selection.toggle(ids[35], &scene).is_err());
    }
}
