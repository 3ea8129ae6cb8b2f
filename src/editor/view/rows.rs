//! The hierarchy's rows as data, without egui: which rows are visible (collapsed subtrees and
//! the name filter), how far a row at some depth is indented in a panel of some width, which
//! segments of the selected node's path the breadcrumb shows, and where to scroll so that a row
//! is in view. The panel (`app::hierarchy`) only asks these and draws.

use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashSet;

/// One visible row: pre-order index and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Pre-order index in the scene.
    pub index: usize,
    /// Depth (roots are 0).
    pub depth: usize,
}

/// The hierarchy's name filter: a node matches when its name contains the filter text
/// (trimmed), ignoring case. An ASCII filter on an ASCII name is matched without allocating
/// (typing in the filter of a 1M-node scene used to lowercase a million names a keystroke).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameFilter {
    /// The filter text, trimmed and lower case.
    lower: String,
}

impl NameFilter {
    /// The filter for what was typed in the field.
    pub fn new(text: &str) -> Self {
        Self {
            lower: text.trim().to_lowercase(),
        }
    }

    /// True when nothing (or only spaces) was typed: every row is shown.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// True when `name` contains the filter, ignoring case.
    pub fn matches(&self, name: &str) -> bool {
        let filter = self.lower.as_str();
        if !filter.is_ascii() || !name.is_ascii() {
            return name.to_lowercase().contains(filter);
        }
        let (name, filter) = (name.as_bytes(), filter.as_bytes());
        match filter.first() {
            None => true,
            Some(&first) => name
                .windows(filter.len())
                .any(|w| w[0].eq_ignore_ascii_case(&first) && w.eq_ignore_ascii_case(filter)),
        }
    }

    /// Per pre-order index, whether the node is shown: it matches or one of its descendants
    /// does (ancestors of a match stay visible so that it keeps its place in the tree). `None`
    /// when the filter is empty (everything is shown). One pass each way, no recursion.
    pub fn kept(&self, scene: &Scene) -> Option<Vec<bool>> {
        if self.is_empty() {
            return None;
        }
        let n = scene.len();
        let mut keep: Vec<bool> = (0..n)
            .map(|i| self.matches(&scene.data_at(i).name))
            .collect();
        // Children come after their parent in pre-order: walking backwards marks every
        // ancestor of a kept node before the ancestor itself is visited.
        for i in (0..n).rev() {
            if keep[i]
                && let Some(p) = scene.parent_index_at(i)
            {
                keep[p] = true;
            }
        }
        Some(keep)
    }
}

/// The rows to show: pre-order, skipping collapsed subtrees, and with a filter only matching
/// nodes and their ancestors (while filtering, matches under collapsed nodes are shown too).
/// One pass over the scene, no recursion.
pub fn visible_rows(scene: &Scene, collapsed: &FxHashSet<NodeId>, filter: &str) -> Vec<Row> {
    let n = scene.len();
    let keep = NameFilter::new(filter).kept(scene);
    let mut rows = Vec::new();
    let mut depth_stack: Vec<usize> = Vec::new(); // end index of each open ancestor
    let mut i = 0;
    while i < n {
        while depth_stack.last().is_some_and(|&end| i >= end) {
            depth_stack.pop();
        }
        let len = scene.subtree_len_at(i);
        if keep.as_ref().is_some_and(|k| !k[i]) {
            i += len;
            continue;
        }
        rows.push(Row {
            index: i,
            depth: depth_stack.len(),
        });
        if keep.is_none() && len > 1 && collapsed.contains(&scene.id_at(i)) {
            i += len;
        } else {
            depth_stack.push(i + len);
            i += 1;
        }
    }
    rows
}

/// How rows are indented: a full step per level while there is room, then steps that shrink
/// so that a row at any depth keeps `name_room` for its name inside the panel.
///
/// Levels up to [`Indent::full_levels`] (which use at most half of the room indentation may
/// take) move right by `step` each, as they always did. Deeper levels continue with the same
/// slope and then ever smaller steps (each `q` times the previous one), approaching but never
/// passing the panel's right edge minus the name's room. The offset depends only on the depth
/// and the width, so rows do not move when other rows are expanded or selected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Indent {
    /// The indentation of one level while there is room.
    pub step: f32,
    /// Space before a root row's content.
    pub lead: f32,
    /// What a row draws between its indentation and its name (expand arrow and icon).
    pub before_name: f32,
    /// Room a row's name always keeps (longer names are elided).
    pub name_room: f32,
}

impl Indent {
    /// How much indentation a row may take in a panel of this width.
    pub fn budget(&self, width: f32) -> f32 {
        (width - self.lead - self.before_name - self.name_room).max(0.0)
    }

    /// The deepest level that is still indented by full steps.
    pub fn full_levels(&self, width: f32) -> usize {
        if self.step <= 0.0 {
            return 0;
        }
        (self.budget(width) / (2.0 * self.step)).floor() as usize
    }

    /// Where the content of a row at `depth` starts, from the row's left edge.
    pub fn offset(&self, depth: usize, width: f32) -> f32 {
        self.lead + self.indentation(depth, width)
    }

    /// The indentation alone (without the lead): `depth · step` up to the knee, then a
    /// geometric tail whose first step is `step` and whose sum is what is left of the budget.
    fn indentation(&self, depth: usize, width: f32) -> f32 {
        let budget = self.budget(width);
        let knee = self.full_levels(width);
        let straight = knee as f32 * self.step;
        if depth <= knee {
            return depth as f32 * self.step;
        }
        let rest = budget - straight;
        if rest <= 0.0 {
            return straight.min(budget);
        }
        let q = (1.0 - self.step / rest).max(0.0);
        let beyond = i32::try_from(depth - knee).unwrap_or(i32::MAX);
        straight + rest * (1.0 - q.powi(beyond))
    }

    /// The largest name width that fits in a row of this width at `depth`.
    pub fn name_width(&self, depth: usize, width: f32) -> f32 {
        (width - self.offset(depth, width) - self.before_name).max(0.0)
    }
}

/// Which segments of a path (root first, the selected node last) a one-line breadcrumb shows:
/// the root, then "…" when segments are left out, then the segments from `from` to the end.
/// The nearest ancestors are the ones kept, since they say most about where the node is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crumbs {
    /// The root is shown first (when it is not already part of the tail).
    pub root: bool,
    /// A "…" stands for the segments left out (it selects `from - 1`, the nearest of them).
    pub more: bool,
    /// The first segment of the tail.
    pub from: usize,
}

/// Fit a path of `n` segments into `avail` points. `width(i)` is segment `i`'s width, `sep` a
/// separator's and `more` the "…"'s. The last segment is always shown; `width` is only asked
/// for the segments that are tried (a deep path costs what fits, not its depth).
pub fn fit_crumbs(
    n: usize,
    width: impl Fn(usize) -> f32,
    avail: f32,
    sep: f32,
    more: f32,
) -> Crumbs {
    let all = Crumbs {
        root: false,
        more: false,
        from: 0,
    };
    if n <= 1 {
        return all;
    }
    // The tail that fits in `room`, from the end towards the root.
    let tail = |room: f32, stop: usize| {
        let mut used = width(n - 1);
        let mut from = n - 1;
        while from > stop && used + sep + width(from - 1) <= room {
            used += sep + width(from - 1);
            from -= 1;
        }
        from
    };
    if tail(avail, 0) == 0 {
        return all;
    }
    let root = width(0) + sep;
    let with_root = avail - root - more - sep;
    if with_root >= width(n - 1) {
        return Crumbs {
            root: true,
            more: true,
            from: tail(with_root, 1).max(2),
        };
    }
    Crumbs {
        root: false,
        more: true,
        from: tail(avail - more - sep, 1),
    }
}

/// A scrolled list of equally high rows, as the panel last showed it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ListView {
    /// How many rows the list has.
    pub rows: usize,
    /// From one row's top to the next one's.
    pub pitch: f32,
    /// The spacing included in `pitch` (there is none after the last row).
    pub gap: f32,
    /// The current scroll offset.
    pub offset: f32,
    /// The height of the visible part.
    pub height: f32,
}

impl ListView {
    /// The largest offset the list can be scrolled to.
    pub fn max_offset(&self) -> f32 {
        (self.rows as f32 * self.pitch - self.gap - self.height).max(0.0)
    }

    /// The offset that shows row `index`: `None` when it is already fully in view. A row just
    /// past an edge (the next one with the arrow keys) scrolls the list only as far as needed;
    /// a row far away (selected in the viewport, the breadcrumb) is put in the middle, since
    /// what is around it matters too. Always within the scrollable range (scrolling past the
    /// end would spring back and move the rows under the pointer).
    pub fn scroll_to(&self, index: usize) -> Option<f32> {
        let top = index as f32 * self.pitch;
        let bottom = top + self.pitch - self.gap;
        let (start, end) = (self.offset, self.offset + self.height);
        let y = if top >= start && bottom <= end {
            return None;
        } else if top < start && top >= start - self.height {
            top
        } else if bottom > end && bottom <= end + self.height {
            bottom - self.height
        } else {
            (top + bottom - self.height) / 2.0
        };
        Some(y.clamp(0.0, self.max_offset()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::math::Trs;
    use crate::model::scene::{NodeData, NodeSpec};

    /// `(name, parent index)` per node, in pre-order.
    fn scene(nodes: &[(&str, Option<u32>)]) -> Scene {
        let specs = nodes
            .iter()
            .enumerate()
            .map(|(k, &(name, parent))| NodeSpec {
                id: NodeId(k as u32 + 1),
                parent: parent.map(|p| NodeId(p + 1)),
                data: NodeData::named(name, Trs::IDENTITY),
            })
            .collect();
        Scene::from_specs(specs).unwrap()
    }

    /// body → arm → hand → sword, and body → scabbard.
    fn sword() -> Scene {
        scene(&[
            ("body", None),
            ("arm", Some(0)),
            ("hand", Some(1)),
            ("sword", Some(2)),
            ("scabbard", Some(0)),
        ])
    }

    fn names(scene: &Scene, rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|r| scene.data_at(r.index).name.to_string())
            .collect()
    }

    const PANEL: Indent = Indent {
        step: 14.0,
        lead: 4.0,
        before_name: 38.0,
        name_room: 80.0,
    };

    #[test]
    fn rows_filter_ignores_case_and_surrounding_spaces() {
        let f = NameFilter::new("  SwO ");
        assert!(f.matches("sword") && f.matches("Broadsword") && f.matches("SWORD"));
        assert!(!f.matches("swrd") && !f.matches("sw"));
        assert!(NameFilter::new("").matches("anything") && NameFilter::new("  ").is_empty());
        // Outside ASCII it lowercases both sides.
        assert!(NameFilter::new("ÄRM").matches("Linker ärmel"));
        assert!(NameFilter::new("arm").matches("Ärmel arm"));
        assert!(!NameFilter::new("Ä").matches("arm"));
    }

    #[test]
    fn rows_filter_keeps_matches_and_their_ancestors() {
        let s = sword();
        let shown = |filter| names(&s, &visible_rows(&s, &Default::default(), filter));
        assert_eq!(shown("SWO"), ["body", "arm", "hand", "sword"]);
        assert_eq!(shown("scab"), ["body", "scabbard"]);
        assert_eq!(shown("ar"), ["body", "arm", "scabbard"]);
        assert_eq!(shown(""), ["body", "arm", "hand", "sword", "scabbard"]);
        assert!(shown("nothing").is_empty());
        assert_eq!(NameFilter::new("").kept(&s), None);
        assert_eq!(
            NameFilter::new("hand").kept(&s),
            Some(vec![true, true, true, false, false])
        );
    }

    #[test]
    fn rows_skip_collapsed_subtrees_unless_filtering() {
        let s = sword();
        let collapsed: FxHashSet<NodeId> = [NodeId(2)].into_iter().collect(); // the arm
        let rows = visible_rows(&s, &collapsed, "");
        assert_eq!(names(&s, &rows), ["body", "arm", "scabbard"]);
        assert_eq!(
            rows.iter().map(|r| r.depth).collect::<Vec<_>>(),
            [0, 1, 1],
            "depths"
        );
        assert_eq!(
            names(&s, &visible_rows(&s, &collapsed, "sword")),
            ["body", "arm", "hand", "sword"],
            "a match under a collapsed node is shown"
        );
    }

    #[test]
    fn rows_filter_a_deep_chain_without_recursion() {
        let n = 100_000u32;
        let nodes: Vec<(String, Option<u32>)> = (0..n)
            .map(|k| (format!("node{}", k + 1), k.checked_sub(1)))
            .collect();
        let refs: Vec<(&str, Option<u32>)> = nodes.iter().map(|(s, p)| (s.as_str(), *p)).collect();
        let s = scene(&refs);
        let rows = visible_rows(&s, &Default::default(), "NODE100000");
        assert_eq!(rows.len(), n as usize, "the match keeps its whole chain");
        assert_eq!(rows.last().unwrap().depth, n as usize - 1);
    }

    #[test]
    fn rows_indent_by_full_steps_while_there_is_room() {
        // A 250-point panel: the usual shallow trees are indented as before (4 + 14 per level).
        let knee = PANEL.full_levels(250.0);
        assert!(knee >= 4, "knee {knee}");
        for depth in 0..=knee {
            assert_eq!(PANEL.offset(depth, 250.0), 4.0 + 14.0 * depth as f32);
        }
        // A wider panel keeps full steps deeper.
        assert!(PANEL.full_levels(600.0) > 2 * knee);
    }

    #[test]
    fn rows_indent_never_takes_the_room_of_the_name() {
        for width in [120.0, 180.0, 250.0, 400.0, 600.0] {
            let mut last = 0.0;
            for depth in (0..300).chain([1_000, 100_000, usize::MAX]) {
                let x = PANEL.offset(depth, width);
                assert!(
                    x >= last,
                    "deeper is never left of shallower ({width}, {depth})"
                );
                if width >= 4.0 + 38.0 + 80.0 {
                    let room = PANEL.name_width(depth, width);
                    assert!(room >= 80.0 - 1e-3, "{width} {depth}: {room}");
                }
                last = x;
            }
        }
        // Narrower than the minimum: no indentation at all, never negative.
        assert_eq!(PANEL.offset(50, 100.0), 4.0);
        assert_eq!(PANEL.name_width(50, 10.0), 0.0);
    }

    #[test]
    fn rows_indent_past_the_knee_keeps_the_slope_then_shrinks() {
        let width = 250.0;
        let knee = PANEL.full_levels(width);
        let step = |d: usize| PANEL.offset(d + 1, width) - PANEL.offset(d, width);
        assert!((step(knee) - 14.0).abs() < 1e-3, "no kink at the knee");
        for d in knee..knee + 30 {
            assert!(step(d + 1) < step(d), "steps shrink past the knee ({d})");
            assert!(step(d) > 0.0, "and deeper rows still move right ({d})");
        }
        // 40 levels (real rigs) all keep their names inside a 250-point panel.
        assert!(PANEL.offset(40, width) + 38.0 + 80.0 <= width);
    }

    #[test]
    fn rows_breadcrumb_fits_all_or_keeps_root_and_nearest() {
        let w = |_: usize| 40.0;
        // 5 segments of 40 with 4 separators of 10 take 240.
        let all = Crumbs {
            root: false,
            more: false,
            from: 0,
        };
        assert_eq!(fit_crumbs(5, w, 240.0, 10.0, 12.0), all);
        assert_eq!(fit_crumbs(1, w, 10.0, 10.0, 12.0), all);
        // Less room: the root, "…" (12 + 10) and as many of the nearest as fit.
        let c = fit_crumbs(200, w, 240.0, 10.0, 12.0);
        assert_eq!(
            c,
            Crumbs {
                root: true,
                more: true,
                from: 197
            }
        );
        // Used: root 40+10, … 12+10, then 3 segments (40 + 2·(10+40)) = 212 ≤ 240.
        // Too narrow for the root: only "…" and the last segment.
        let c = fit_crumbs(200, w, 70.0, 10.0, 12.0);
        assert_eq!(
            c,
            Crumbs {
                root: false,
                more: true,
                from: 199
            }
        );
        // Only the segments that are tried are measured.
        let asked = std::cell::Cell::new(0);
        let counting = |_: usize| {
            asked.set(asked.get() + 1);
            40.0
        };
        fit_crumbs(1_000_000, counting, 240.0, 10.0, 12.0);
        assert!(asked.get() < 40, "asked {}", asked.get());
    }

    #[test]
    fn rows_scroll_only_when_the_row_is_out_of_view() {
        // 200 rows 20 apart (18 high and a gap of 2), a 200-point view at the top.
        let view = ListView {
            rows: 200,
            pitch: 20.0,
            gap: 2.0,
            offset: 0.0,
            height: 200.0,
        };
        assert_eq!(view.max_offset(), 3798.0);
        assert_eq!(view.scroll_to(3), None);
        assert_eq!(view.scroll_to(9), None, "the last full row");
        assert_eq!(
            view.scroll_to(10),
            Some(18.0),
            "just below: only as far as needed"
        );
        assert_eq!(view.scroll_to(19), Some(198.0));
        assert_eq!(view.scroll_to(50), Some(909.0), "far below: centred");
        assert_eq!(view.scroll_to(199), Some(3798.0), "never past the end");
        let scrolled = ListView {
            offset: 1000.0,
            ..view
        };
        assert_eq!(scrolled.scroll_to(49), Some(980.0), "just above");
        assert_eq!(scrolled.scroll_to(5), Some(9.0), "far above: centred");
        assert_eq!(scrolled.scroll_to(1), Some(0.0), "never above the top");
        assert_eq!(scrolled.scroll_to(50), None);
        let short = ListView { rows: 3, ..view };
        assert_eq!(short.max_offset(), 0.0);
    }
}
