//! The instance table as edits see it: an instance's rows ([`Registration`]: its entry, its
//! nodes' origins, its pending added nodes) taken out and put in by a [`TableEdit`], so
//! instancing, making local, reverting and following a changed source are undo steps that the
//! crash journal records exactly (a source travels as its nodes, not re-read from disk). The
//! types and their serde; what they do to a scene is in `mod.rs` and `share.rs`.

use super::ids::Chain;
use super::overrides::{FieldSet, Override};
use crate::model::scene::types::{Entry, Source};
use crate::model::scene::{DetachedSubtree, NodeData, NodeId};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// One instance's rows in the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    /// The entry (root, source path, source, sticky fields, dangling overrides).
    #[serde(with = "entry_serde")]
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
    /// Every instance of the source file `key` follows it from `before` to `after`, whose
    /// nodes are in the same places (only their data changed): the nodes that share the
    /// source show it at once; value ops beside it change the nodes of their own.
    Follow {
        /// An instance root of that file (the node the edit is about).
        root: NodeId,
        /// The source file, absolute.
        key: PathBuf,
        /// The source before.
        #[serde(with = "source_serde")]
        before: std::result::Result<Arc<Source>, String>,
        /// The source after.
        #[serde(with = "source_serde")]
        after: std::result::Result<Arc<Source>, String>,
    },
    /// Every instance of a [`Reshaping`] follows its source, which gained, lost or moved
    /// nodes: their nodes rebuilt in one pass (`reshape.rs`); value ops beside it give the
    /// nodes their overrides. Journal format 5 (written as a struct variant with the same
    /// fields in the same order: postcard writes the same bytes).
    Reshape(Reshaping),
    /// A [`TableEdit::Reshape`] of instances some of which have nodes added under their
    /// source nodes: those subtrees carried along in the same pass, each put where its
    /// [`Carry`] says (one per row, in order). Journal format 6.
    ReshapeCarrying(Reshaping, Vec<Carry>),
    /// The kept sibling indexes (`Instances::kept_index`: node, its parent then, the index) of
    /// the added and waiting nodes of the instance rooted at `root`, replaced (a general follow
    /// read them again). Journal format 6.
    Kept {
        /// The instance root.
        root: NodeId,
        /// The entries before (sorted by node).
        before: Vec<(NodeId, NodeId, u32)>,
        /// The entries after (sorted by node).
        after: Vec<(NodeId, NodeId, u32)>,
    },
}

/// The instances of one source file that follow it from `before` to `after` in one pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reshaping {
    /// An instance root of that file (the node the edit is about).
    pub root: NodeId,
    /// The source file, absolute.
    pub key: PathBuf,
    /// The source before.
    #[serde(with = "source_serde")]
    pub before: std::result::Result<Arc<Source>, String>,
    /// The source after.
    #[serde(with = "source_serde")]
    pub after: std::result::Result<Arc<Source>, String>,
    /// Each instance's ids, own data and entry fields, before and after.
    pub rows: Vec<Row>,
}

impl Reshaping {
    /// The reshape the other way round (undo).
    pub(crate) fn inverse(&self) -> Reshaping {
        Reshaping {
            root: self.root,
            key: self.key.clone(),
            before: self.after.clone(),
            after: self.before.clone(),
            rows: self.rows.iter().map(Row::inverse).collect(),
        }
    }
}

/// Where an instance's added subtrees are (one side of a [`Carry`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Placing {
    /// Each added subtree's root, by id.
    pub placed: Vec<Placed>,
    /// The added nodes kept under the instance root because their parent is not in this
    /// side's source, with that parent's chain (sorted by id).
    pub pending: Vec<(NodeId, Chain)>,
    /// The sibling index the file gave each waiting node, with the parent it had then
    /// (`Instances::kept_index`: written back while it waits there; sorted by id).
    pub kept: Vec<(NodeId, NodeId, u32)>,
}

/// Where one added subtree's root is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    /// The node.
    pub node: NodeId,
    /// Its parent (the instance root or one of its source nodes).
    pub parent: NodeId,
    /// Its index among that parent's children.
    pub index: u32,
}

/// One instance's added subtrees in a [`TableEdit::ReshapeCarrying`], before and after.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Carry {
    /// Before.
    pub before: Placing,
    /// After.
    pub after: Placing,
}

impl Carry {
    /// The carry the other way round (undo).
    pub(crate) fn inverse(&self) -> Carry {
        Carry {
            before: self.after.clone(),
            after: self.before.clone(),
        }
    }
}

/// One side (before or after) of an instance in a [`TableEdit::Reshape`](TableEdit::Reshape): what its nodes and
/// entry have that the other side's source cannot give.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// The ids of the nodes only this side's source has, in its pre-order.
    pub ids: Vec<NodeId>,
    /// Those of them with data of their own (an override made it theirs), and the data.
    pub own: Vec<(NodeId, NodeData)>,
    /// The entry's sticky fields, by chain (sorted).
    pub sticky: Vec<(Chain, FieldSet)>,
    /// The entry's dangling overrides.
    pub dangling: Vec<Override>,
}

/// One instance of a [`TableEdit::Reshape`](TableEdit::Reshape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The instance root.
    pub root: NodeId,
    /// Its side before.
    pub before: Side,
    /// Its side after.
    pub after: Side,
}

impl Row {
    /// The row the other way round (undo).
    pub(crate) fn inverse(&self) -> Row {
        Row {
            root: self.root,
            before: self.after.clone(),
            after: self.before.clone(),
        }
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

/// Serde for an entry's source: its nodes, or why it could not be read.
pub(crate) mod source_serde {
    // Absolute paths: an inline module's `super` is this file.
    use crate::model::instance::table_edit::SourceRecord;
    use crate::model::scene::types::Source;
    use crate::model::scene::{DetachedSubtree, Scene};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

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
                nested: std::sync::OnceLock::new(),
            }))
        }))
    }
}

/// Serde for an entry, as it was written when [`Entry`] derived it: a struct `Entry` with its
/// fields in order, the source as its nodes ([`source_serde`]).
mod entry_serde {
    use crate::model::instance::ids::Chain;
    use crate::model::instance::overrides::{FieldSet, Override};
    use crate::model::instance::table_edit::source_serde;
    use crate::model::scene::types::{Entry, Source};
    use rustc_hash::FxHashMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    type Field = std::result::Result<Arc<Source>, String>;

    /// The entry's fields, borrowed for writing.
    #[derive(Serialize)]
    #[serde(rename = "Entry")]
    struct Written<'a> {
        root: crate::model::scene::NodeId,
        path: &'a str,
        #[serde(serialize_with = "source_ref")]
        source: &'a Field,
        sticky: &'a FxHashMap<Chain, FieldSet>,
        dangling: &'a [Override],
    }

    /// The entry's fields as read.
    #[derive(Deserialize)]
    #[serde(rename = "Entry")]
    struct Read {
        root: crate::model::scene::NodeId,
        path: String,
        #[serde(with = "source_serde")]
        source: Field,
        sticky: FxHashMap<Chain, FieldSet>,
        dangling: Vec<Override>,
    }

    fn source_ref<S: Serializer>(field: &&Field, s: S) -> std::result::Result<S::Ok, S::Error> {
        source_serde::serialize(field, s)
    }

    /// Write the entry.
    pub fn serialize<S: Serializer>(e: &Entry, s: S) -> std::result::Result<S::Ok, S::Error> {
        let written = Written {
            root: e.root,
            path: &e.path,
            source: &e.source,
            sticky: &e.sticky,
            dangling: &e.dangling,
        };
        written.serialize(s)
    }

    /// Read the entry back.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Entry, D::Error> {
        let r = Read::deserialize(d)?;
        Ok(Entry {
            root: r.root,
            path: r.path,
            source: r.source,
            sticky: r.sticky,
            dangling: r.dangling,
        })
    }
}

/// A format-5 journal's reshape records read as before: the struct variant it was written
/// as and the newtype variant that replaced it are the same bytes.
#[cfg(test)]
mod format5 {
    // Absolute paths: an inline module's `super` is this file.
    use crate::model::instance::table_edit::{Reshaping, Row, Side, TableEdit, source_serde};
    use crate::model::scene::NodeId;
    use crate::model::scene::types::Source;
    use serde::Serialize;
    use std::path::PathBuf;
    use std::sync::Arc;

    type Field = std::result::Result<Arc<Source>, String>;

    /// The table edit as format 5 declared it (the variants before `Reshape` only counted).
    #[derive(Serialize)]
    #[allow(dead_code)]
    enum Written {
        Swap,
        Sticky,
        Follow,
        Reshape {
            root: NodeId,
            key: PathBuf,
            #[serde(with = "source_serde")]
            before: Field,
            #[serde(with = "source_serde")]
            after: Field,
            rows: Vec<Row>,
        },
    }

    #[test]
    fn a_format_5_reshape_record_reads_as_the_same_edit() {
        let rows = vec![Row {
            root: NodeId(4),
            before: Side {
                ids: vec![NodeId(9), NodeId(12)],
                ..Side::default()
            },
            after: Side::default(),
        }];
        let old = Written::Reshape {
            root: NodeId(4),
            key: PathBuf::from("/parts/wheel.ron"),
            before: Err("unreadable".into()),
            after: Err("missing".into()),
            rows: rows.clone(),
        };
        let new = TableEdit::Reshape(Reshaping {
            root: NodeId(4),
            key: PathBuf::from("/parts/wheel.ron"),
            before: Err("unreadable".into()),
            after: Err("missing".into()),
            rows,
        });
        let bytes = postcard::to_stdvec(&old).expect("old bytes");
        assert_eq!(bytes, postcard::to_stdvec(&new).expect("new bytes"));
        let read: TableEdit = postcard::from_bytes(&bytes).expect("read back");
        assert_eq!(read, new);
    }
}
