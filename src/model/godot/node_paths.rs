//! The paths an exported `.tscn` names its nodes by (`Main/Ball1/Extra`): each name made valid
//! and unique among its siblings, as Godot requires.

use super::tscn_text::valid_name;
use rustc_hash::FxHashMap;

/// Each exported node's path below the root, and the names each parent's children already use.
pub(super) struct NodePaths {
    /// By node index, in scene order.
    pub(super) paths: Vec<String>,
    /// By parent index (None for the root's children).
    taken: FxHashMap<Option<usize>, FxHashMap<String, ()>>,
}

impl NodePaths {
    /// Room for `n` nodes.
    pub(super) fn with_capacity(n: usize) -> Self {
        Self {
            paths: Vec::with_capacity(n),
            taken: FxHashMap::default(),
        }
    }

    /// Add the next node (nodes come parents first): its name made valid and unique among its
    /// siblings, and its parent's path (`.` for the root).
    pub(super) fn add(&mut self, parent: Option<usize>, wanted: &str) -> (String, String) {
        let siblings = self.taken.entry(parent).or_default();
        let base = valid_name(wanted);
        let mut name = base.clone();
        let mut k = 2;
        while siblings.contains_key(&name) {
            name = format!("{base}{k}");
            k += 1;
        }
        siblings.insert(name.clone(), ());
        let parent_path = parent.map_or(".".to_string(), |p| self.paths[p].clone());
        self.paths.push(if parent_path == "." {
            name.clone()
        } else {
            format!("{parent_path}/{name}")
        });
        (name, parent_path)
    }
}
