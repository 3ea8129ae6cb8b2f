//! Bounds and culling made visible: the subtree boxes View ▸ Subtree bounds draws, and what
//! culling against a "camera" rectangle does (View ▸ Culling rectangle): which subtrees are
//! skipped whole after one box test, how many nodes are tested and how many drawn. The same
//! rule as the viewport's own culling ([`CULL_MIN_SUBTREE`], the subtree boxes of
//! [`SubtreeBounds`]), on a rectangle the learner drags.

use crate::editor::view::cull_cache::{CULL_MIN_SUBTREE, Extents, SubtreeBounds, own_box};
use crate::model::scene::Scene;

/// An axis-aligned world rectangle `[min.x, min.y, max.x, max.y]`.
pub type WorldRect = [f64; 4];

/// What culling against a rectangle did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CullingReport {
    /// Box tests made (a skipped subtree costs one).
    pub tested: usize,
    /// Nodes whose own box touches the rectangle: drawn.
    pub drawn: usize,
    /// Subtrees skipped whole: (pre-order index of the root, nodes in it).
    pub skipped: Vec<(usize, usize)>,
}

impl CullingReport {
    /// Nodes never looked at one by one.
    pub fn skipped_nodes(&self) -> usize {
        self.skipped.iter().map(|&(_, n)| n).sum()
    }
}

fn touches(b: [f32; 4], r: WorldRect) -> bool {
    let finite = b.iter().all(|v| v.is_finite());
    if !(b[0] <= b[2] && b[1] <= b[3]) {
        return false; // an empty box: nothing to draw
    }
    !finite
        || (f64::from(b[2]) >= r[0]
            && f64::from(b[0]) <= r[2]
            && f64::from(b[3]) >= r[1]
            && f64::from(b[1]) <= r[3])
}

/// Cull the scene against `rect` as the viewport culls against the view: a subtree of at least
/// [`CULL_MIN_SUBTREE`] nodes whose box misses the rectangle is skipped after one test; every
/// other node is tested on its own box. `bounds` and `extents` must be current.
pub fn cull_against(
    scene: &Scene,
    bounds: &SubtreeBounds,
    extents: &Extents,
    rect: WorldRect,
) -> CullingReport {
    let mut report = CullingReport::default();
    let n = scene.len().min(extents.half.len());
    let mut i = 0;
    while i < n {
        let len = scene.subtree_len_at(i).max(1);
        report.tested += 1;
        let whole = bounds.is_valid() && len >= CULL_MIN_SUBTREE;
        if whole && bounds.subtree_box(i).is_some_and(|b| !touches(b, rect)) {
            report.skipped.push((i, len));
            i += len;
            continue;
        }
        if touches(own_box(&scene.cached_world_at(i), extents.half[i]), rect) {
            report.drawn += 1;
        }
        i += 1;
    }
    report
}

/// The boxes View ▸ Subtree bounds draws: (pre-order index, depth, box) of every node with
/// children whose box is finite, at most `limit` of them in pre-order.
pub fn subtree_boxes(
    scene: &Scene,
    bounds: &SubtreeBounds,
    limit: usize,
) -> Vec<(usize, usize, [f32; 4])> {
    if !bounds.is_valid() {
        return Vec::new();
    }
    (0..scene.len())
        .filter(|&i| scene.subtree_len_at(i) > 1)
        .filter_map(|i| {
            let b = bounds.subtree_box(i)?;
            (b.iter().all(|v| v.is_finite()) && b[0] <= b[2]).then(|| (i, scene.depth_at(i), b))
        })
        .take(limit)
        .collect()
}

/// The culling rectangle a learner starts with: the middle half of what the view shows.
pub fn default_rect(view_lo: glam::DVec2, view_hi: glam::DVec2) -> WorldRect {
    let (c, h) = ((view_lo + view_hi) * 0.5, (view_hi - view_lo).abs() * 0.25);
    [c.x - h.x, c.y - h.y, c.x + h.x, c.y + h.y]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::file;
    use std::path::Path;

    fn groves() -> Scene {
        // Two roots of nine nodes each (the root and eight children), 8 apart.
        let mut text = String::from("(format: 1, nodes: [\n");
        for (g, (x, first)) in [(-4.0, 1), (4.0, 10)].into_iter().enumerate() {
            text += &format!(
                "(id: {first}, name: \"g{g}\", position: ({x:.1}, 0.0), shape: Rect(size: (0.6, 0.6))),\n"
            );
            for k in 1..9 {
                let (cx, cy) = ((k % 3) as f32 - 1.0, (k / 3) as f32 - 1.0);
                text += &format!(
                    "(id: {}, name: \"g{g}c{k}\", parent: Some({first}), position: ({cx:.1}, {cy:.1}), shape: Ellipse(size: (0.5, 0.5))),\n",
                    first + k
                );
            }
        }
        text += "])";
        let mut scene = file::parse(&text, Path::new("groves.ron")).expect("groves");
        scene.update_world();
        scene
    }

    fn current(scene: &Scene) -> (SubtreeBounds, Extents) {
        let mut extents = Extents::default();
        extents.refresh(scene);
        let mut bounds = SubtreeBounds::default();
        bounds.refresh(scene, &extents);
        (bounds, extents)
    }

    #[test]
    fn a_subtree_out_of_the_rectangle_costs_one_test() {
        let scene = groves();
        let (bounds, extents) = current(&scene);
        let everything = cull_against(&scene, &bounds, &extents, [-10.0, -10.0, 10.0, 10.0]);
        assert_eq!((everything.tested, everything.drawn), (18, 18));
        assert!(everything.skipped.is_empty());
        let left_only = cull_against(&scene, &bounds, &extents, [-6.0, -3.0, -2.0, 3.0]);
        assert_eq!(
            left_only.skipped,
            vec![(9, 9)],
            "the right grove is skipped whole"
        );
        assert_eq!((left_only.tested, left_only.drawn), (10, 9));
        assert_eq!(left_only.skipped_nodes(), 9);
        let nothing = cull_against(&scene, &bounds, &extents, [100.0, 100.0, 101.0, 101.0]);
        assert_eq!((nothing.tested, nothing.drawn), (2, 0));
    }

    #[test]
    fn boxes_are_drawn_for_nodes_with_children() {
        let scene = groves();
        let (bounds, _) = current(&scene);
        let boxes = subtree_boxes(&scene, &bounds, 100);
        assert_eq!(boxes.iter().map(|b| b.0).collect::<Vec<_>>(), vec![0, 9]);
        let [x0, _, x1, _] = boxes[0].2;
        assert!(
            x0 <= -5.25 && x1 >= -2.75,
            "the left grove's box holds its children: {x0} {x1}"
        );
    }
}
