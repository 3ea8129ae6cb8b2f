//! The instance table as edits see it: an instance's rows ([`Registration`]: its entry, its
//! nodes' origins, its pending added nodes) taken out and put in by a [`TableEdit`], so
//! instancing, making local, reverting and following a changed source are undo steps that the
//! crash journal records exactly (a source travels as its nodes, not re-read from disk).

use super::{Chain, Entry, FieldSet, Instances, Origin, Source};
use crate::error::{Error, Result};
use crate::model::scene::{DetachedSubtree, NodeId, Scene};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::PathBuf;
use std::sync::Arc;

/// One instance's rows in the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    /// The entry (root, source path, source, sticky fields, dangling overrides).
    pub entry: Entry,
    /// Each expanded node and its index in the source.
    pub origins: Vec<(NodeId, u32)>,
    /// Added nodes whose `inside` parent the source lacks, with that parent's chain.
    pub pending: Vec<(NodeId, Chain)>,
}

/// A change of the instance table (the scene's nodes change by the edits beside it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TableEdit {
    /// The rows of the instance rooted at `root` replaced (None: none).
    Swap {
        /// The instance root.
        root: NodeId,
        /// Its rows before.
        before: Option<Box<Registration>>,
        /// Its rows after.
        after: Option<Box<Registration>>,
    },
    /// The fields an override keeps on one source node, changed (Revert to source).
    Sticky {
        /// The instance root.
        root: NodeId,
        /// The source node.
        chain: Chain,
        /// The fields before.
        before: FieldSet,
        /// The fields after.
        after: FieldSet,
    },
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
            TableEdit::Swap { root, .. } | TableEdit::Sticky { root, .. } => *root,
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
                let table = scene.instance_table_mut();
                if before.is_some() {
                    take_out(table, *root);
                }
                if let Some(reg) = after {
                    put_in(table, reg);
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
        }
    }

    /// The edit that takes it back.
    pub fn inverse(&self) -> TableEdit {
        match self.clone() {
            TableEdit::Swap {
                root,
                before,
                after,
            } => TableEdit::Swap {
                root,
                before: after,
                after: before,
            },
            TableEdit::Sticky {
                root,
                chain,
                before,
                after,
            } => TableEdit::Sticky {
                root,
                chain,
                before: after,
                after: before,
            },
        }
    }

    /// Give the source paths and sprite paths it holds to `map` (Save As into another
    /// folder); how many changed.
    pub fn map_paths(&mut self, map: &mut dyn FnMut(&str) -> Option<String>) -> usize {
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
pub(super) fn put_in(table: &mut Instances, reg: &Registration) {
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
    /// The entry of `root`, to change.
    pub(crate) fn entry_mut(&mut self, root: NodeId) -> Option<&mut Entry> {
        let k = *self.by_root.get(&root)? as usize;
        self.entries.get_mut(k)
    }
}

/// A source as the journal writes it: its file, its nodes and their chains (its own
/// instance table is not kept: its nodes are already expanded).
#[derive(Serialize, Deserialize)]
struct SourceRecord {
    path: PathBuf,
    nodes: DetachedSubtree,
    chains: Vec<Chain>,
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

/// Serde for an entry's source: its nodes, or why it could not be read.
pub(crate) mod source_serde {
    use super::*;

    type Field = std::result::Result<Arc<Source>, String>;

    /// Write the source as its nodes.
    pub fn serialize<S: Serializer>(field: &Field, s: S) -> std::result::Result<S::Ok, S::Error> {
        let record = field.as_ref().map_err(Clone::clone).and_then(|src| {
            let nodes = src
                .scene
                .copy_subtree(src.scene.id_at(0))
                .map_err(|e| e.to_string())?;
            Ok(SourceRecord {
                path: src.path.clone(),
                nodes,
                chains: src.chains.clone(),
            })
        });
        record.serialize(s)
    }

    /// Read the source back from its nodes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Field, D::Error> {
        let record = std::result::Result::<SourceRecord, String>::deserialize(d)?;
        Ok(record.and_then(|r| {
            let mut scene = Scene::new();
            scene
                .insert_subtree(DetachedSubtree {
                    parent: None,
                    index: 0,
                    ..r.nodes
                })
                .map_err(|e| e.to_string())?;
            let by_chain = r
                .chains
                .iter()
                .enumerate()
                .map(|(j, c)| (c.clone(), j as u32))
                .collect();
            Ok(Arc::new(Source {
                path: r.path,
                scene,
                chains: r.chains,
                by_chain,
            }))
        }))
    }
}
