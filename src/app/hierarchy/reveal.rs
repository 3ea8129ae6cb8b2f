//! Bringing rows into view on request (a lesson's **Show the gesture** on a row that is folded
//! under a collapsed parent or scrolled away): their parents are expanded and the list scrolls
//! so they show, as it does for the selection.

use super::state::HierarchyState;
use crate::editor::view::rows::ListView;
use crate::editor::view::rows::Row;
use crate::model::scene::{NodeId, Scene};

impl HierarchyState {
    /// Show these nodes' rows: every ancestor expanded now, the list scrolled at the next
    /// frame so that they are in view (as far as they fit together).
    pub fn reveal(&mut self, scene: &Scene, ids: &[NodeId]) {
        for &id in ids {
            let mut parent = scene.parent(id).ok().flatten();
            while let Some(p) = parent {
                self.set_collapsed(p, false);
                parent = scene.parent(p).ok().flatten();
            }
        }
        self.revealing = ids.to_vec();
    }

    /// Open the collapsed parents of `id` so its row shows; false when none was collapsed
    /// or a filter is on (the filter decides what shows then, folds ignored, and they are
    /// kept for when it is cleared).
    pub(super) fn unfold(&mut self, scene: &Scene, id: NodeId) -> bool {
        if !self.filter.trim().is_empty() {
            return false;
        }
        let mut opened = false;
        let mut parent = scene.parent(id).ok().flatten();
        while let Some(p) = parent {
            if self.is_collapsed(p) {
                self.set_collapsed(p, false);
                opened = true;
            }
            parent = scene.parent(p).ok().flatten();
        }
        opened
    }
}

/// The offset that shows the rows asked for by [`HierarchyState::reveal`] (the first one when
/// they do not fit together), if one is out of view.
pub(super) fn jump(
    scene: &Scene,
    rows: &[Row],
    state: &mut HierarchyState,
    view: ListView,
) -> Option<f32> {
    let ids = std::mem::take(&mut state.revealing);
    let at = |id: NodeId| {
        let index = scene.index(id).ok()?;
        rows.binary_search_by_key(&index, |r| r.index).ok() // rows are in pre-order
    };
    let positions: Vec<usize> = ids.into_iter().filter_map(at).collect();
    let (first, last) = (*positions.iter().min()?, *positions.iter().max()?);
    let shows = |k: usize| view.scroll_to(k).is_none();
    if shows(first) && shows(last) {
        return None;
    }
    let top = first as f32 * view.pitch;
    let bottom = (last + 1) as f32 * view.pitch - view.gap;
    let centred = (top + bottom - view.height) / 2.0;
    Some(centred.min(top).clamp(0.0, view.max_offset()))
}
