//! The node list as a reader parses it (the fast reader and ron alike): each node checked and
//! split into the scene's columns as soon as it is read.

use crate::error::Error;
use crate::model::file_node::{FileNode, NodeInstance};
use crate::model::file_version::VersionNeeds;
use crate::model::scene::{NodeData, NodeId};

/// The node list as it is parsed: each node is checked and split into the scene's columns as
/// soon as it is read, so the list of parsed nodes is never held (at 1M nodes that list was
/// 176 B per node on top of the text and the columns).
#[derive(Default)]
pub(crate) struct ParsedNodes {
    pub(crate) ids: Vec<NodeId>,
    pub(crate) parents: Vec<Option<NodeId>>,
    pub(crate) data: Vec<NodeData>,
    /// The first nodes that need a newer format than 1 or 2.
    pub(crate) needs: VersionNeeds,
    /// The first rule a node broke (reported after the format checks, as before).
    pub(crate) error: Option<Error>,
    /// The nodes with instance fields: their slot and the fields (none in most files).
    pub(crate) marks: Vec<(u32, NodeInstance)>,
}

impl ParsedNodes {
    /// An empty list with room for `n` nodes in each column.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self {
            ids: Vec::with_capacity(n),
            parents: Vec::with_capacity(n),
            data: Vec::with_capacity(n),
            ..Self::default()
        }
    }

    /// True once a node broke a rule.
    pub(crate) fn has_error(&self) -> bool {
        self.error.is_some()
    }

    /// Take one parsed node: note what format it needs, check it and keep its parts.
    pub(crate) fn push(&mut self, mut node: FileNode) {
        self.needs.note(&node);
        if self.error.is_some() {
            return; // the rest is still parsed (a syntax error further on wins), not kept
        }
        match node.take_instance() {
            Ok(Some(mark)) => self.marks.push((self.ids.len() as u32, mark)),
            Ok(None) => {}
            Err(e) => {
                self.error = Some(e);
                return;
            }
        }
        match node.into_parts() {
            Ok((id, parent, data)) => {
                self.ids.push(id);
                self.parents.push(parent);
                self.data.push(data);
            }
            Err(e) => self.error = Some(e),
        }
    }
}
