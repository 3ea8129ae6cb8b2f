//! What the hierarchy panel remembers between frames: the collapsed nodes, the rows cache,
//! renaming, the filter, the drag's preview, scrolling. Its parts read and write it; it
//! imports none of them but the breadcrumb's cache.

use super::crumbs::PathCache;
use crate::editor::session::drop_rules::DropPreview;
use crate::editor::view::rows::{Row, visible_rows};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashSet;

/// What the hierarchy remembers between frames.
#[derive(Default)]
pub struct HierarchyState {
    /// Nodes whose children are hidden.
    pub(super) collapsed: FxHashSet<NodeId>,
    /// The rows of the last frame, and what they were computed from.
    pub(super) rows_cache: Option<RowsCache>,
    /// Bumped when `collapsed` changes (the rows cache's key).
    pub(super) collapsed_version: u64,
    /// The node being renamed and the text typed so far.
    pub renaming: Option<(NodeId, String)>,
    /// The rename field takes focus at the next frame.
    pub(super) focus_rename: bool,
    /// Only nodes whose name contains this (and their ancestors) are shown.
    pub filter: String,
    /// The row Shift+click extends from.
    pub(super) anchor: Option<NodeId>,
    /// Where the current drag would drop (for the indicator and the viewport's ghost).
    pub preview: Option<DropPreview>,
    /// The primary selection the list last scrolled for (it scrolls again when that changes).
    pub(super) followed: Option<NodeId>,
    /// The list's vertical scroll offset last frame.
    pub(super) scroll_y: f32,
    /// The breadcrumb's path and what it was computed from.
    pub(super) path: PathCache,
    /// Rows to bring into view at the next frame ([`HierarchyState::reveal`]).
    pub(super) revealing: Vec<NodeId>,
    /// A scene file dropped from the file manager landed on a row this frame (it is
    /// instanced there rather than opened).
    pub took_file_drop: bool,
    /// This frame: the row the keyboard lands on (the primary selection's, else the first).
    pub(super) primary_row: Option<egui::Id>,
    /// This frame: another row than that one has the keyboard.
    pub(super) stray_focus: bool,
    /// The filter field (it says how many nodes match).
    pub(super) filter_field: Option<egui::Id>,
}

/// Visible rows and the inputs they were computed from.
pub(super) struct RowsCache {
    pub(super) scene_version: u64,
    pub(super) collapsed_version: u64,
    pub(super) filter: String,
    pub(super) rows: Vec<Row>,
    /// How many rows match the filter by their own name (not as an ancestor of a match).
    pub(super) matches: usize,
}

impl HierarchyState {
    /// Show or hide a node's children.
    pub fn set_collapsed(&mut self, id: NodeId, collapsed: bool) {
        let changed = if collapsed {
            self.collapsed.insert(id)
        } else {
            self.collapsed.remove(&id)
        };
        if changed {
            self.collapsed_version += 1;
        }
    }

    /// True when a node's children are hidden.
    pub fn is_collapsed(&self, id: NodeId) -> bool {
        self.collapsed.contains(&id)
    }

    /// The visible rows, recomputed only when the tree, the collapsed set or the filter changed:
    /// an ordinary frame costs nothing per hidden or off-screen row. Returns the rows and what
    /// they were computed from (hand both back to [`Self::keep_rows`]).
    pub(super) fn take_rows(&mut self, scene: &Scene) -> RowsCache {
        match self.rows_cache.take() {
            Some(c)
                if c.scene_version == scene.structure_version()
                    && c.collapsed_version == self.collapsed_version
                    && c.filter == self.filter =>
            {
                c
            }
            _ => {
                let rows = visible_rows(scene, &self.collapsed, &self.filter);
                let filter = crate::editor::view::rows::NameFilter::new(&self.filter);
                let matching = |r: &&Row| filter.matches(&scene.data_at(r.index).name);
                let matches = if filter.is_empty() {
                    rows.len()
                } else {
                    rows.iter().filter(matching).count()
                };
                RowsCache {
                    scene_version: scene.structure_version(),
                    collapsed_version: self.collapsed_version,
                    filter: self.filter.clone(),
                    rows,
                    matches,
                }
            }
        }
    }

    /// Keep the rows [`Self::take_rows`] gave for the next frame.
    pub(super) fn keep_rows(&mut self, rows: RowsCache) {
        self.rows_cache = Some(rows);
    }

    /// Begin renaming a node in place (F2).
    pub fn start_rename(&mut self, id: NodeId, scene: &Scene) {
        let name = scene
            .node(id)
            .map(|d| d.name.to_string())
            .unwrap_or_default();
        self.renaming = Some((id, name));
        self.focus_rename = true;
    }
}
