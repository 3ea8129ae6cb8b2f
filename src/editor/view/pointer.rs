//! What pointer gestures in the viewport mean, without egui: the nodes a rubber band picks,
//! and the ops a drag of the selection asks for (with Ctrl snapping to the grid). The viewport
//! only turns pointer input into these calls and their results into commands.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::handles::snap64;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};
use glam::{DVec2, Vec2};

/// The selection a rubber band from `a` to `b` (screen points) gives: the nodes whose origins
/// lie inside it, added after `existing` (kept when extending with Ctrl / Shift), each once.
pub fn box_pick(
    scene: &Scene,
    (camera, rect): (Camera, ScreenRect),
    (a, b): (Vec2, Vec2),
    existing: &[NodeId],
) -> Vec<NodeId> {
    let (lo, hi) = (a.min(b), a.max(b));
    let mut picked = existing.to_vec();
    let mut seen: rustc_hash::FxHashSet<NodeId> = picked.iter().copied().collect();
    for i in 0..scene.len() {
        let p = camera.to_screen(rect, scene.world_at(i).translation);
        let inside = p.cmpge(lo).all() && p.cmple(hi).all();
        if inside && seen.insert(scene.id_at(i)) {
            picked.push(scene.id_at(i));
        }
    }
    picked
}

/// A drag of the selection: where the pointer went down (world) and where each moved node's
/// world origin was then.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveDrag {
    /// The pointer's world position when the drag began.
    pub start_pointer: DVec2,
    /// The topmost dragged nodes and their world positions at the start.
    pub starts: Vec<(NodeId, Vec2)>,
}

impl MoveDrag {
    /// The pointer's motion from the start; with `snap`, the first node's world position lands
    /// on the grid of this step and the others keep their offsets.
    pub fn delta(&self, pointer: DVec2, snap: Option<f64>) -> DVec2 {
        let delta = pointer - self.start_pointer;
        match (snap, self.starts.first()) {
            (Some(step), Some(&(_, first))) => {
                let target = first.as_dvec2() + delta;
                DVec2::new(snap64(target.x, step), snap64(target.y, step)) - first.as_dvec2()
            }
            _ => delta,
        }
    }

    /// The ops that move every dragged node by `delta` (in f64 from the start: exact far away).
    pub fn ops(&self, delta: DVec2) -> Vec<Op> {
        self.starts
            .iter()
            .map(|&(node, start)| Op::SetWorldPosition {
                node,
                position: (start.as_dvec2() + delta).as_vec2(),
            })
            .collect()
    }

    /// "Move <name>" for one node, "Move N nodes" for several.
    pub fn label(&self, scene: &Scene) -> String {
        match self.starts.as_slice() {
            [(id, _)] => format!("Move {}", scene.label(*id)),
            many => format!("Move {} nodes", many.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::math::Trs;
    use crate::model::scene::NodeData;

    fn two_nodes() -> (Scene, NodeId, NodeId) {
        let mut scene = Scene::new();
        let at = |x: f32| Trs::new(Vec2::new(x, 0.0), 0.0, Vec2::ONE, 0.0);
        let a = scene
            .add_node(None, None, NodeData::named("a", at(0.0)))
            .expect("a");
        let b = scene
            .add_node(None, None, NodeData::named("b", at(10.0)))
            .expect("b");
        scene.update_world();
        (scene, a, b)
    }

    #[test]
    fn a_band_picks_the_origins_inside_it_after_the_kept_selection() {
        let (scene, a, b) = two_nodes();
        let rect = ScreenRect {
            min: Vec2::ZERO,
            max: Vec2::new(200.0, 100.0),
        };
        let camera = Camera::default();
        let pa = camera.to_screen(rect, Vec2::ZERO);
        let band = (pa - Vec2::splat(3.0), pa + Vec2::splat(3.0));
        assert_eq!(box_pick(&scene, (camera, rect), band, &[]), vec![a]);
        // Drawn the other way round, and extending a selection that already has `a`.
        let reversed = (band.1, band.0);
        assert_eq!(
            box_pick(&scene, (camera, rect), reversed, &[b, a]),
            vec![b, a]
        );
    }

    #[test]
    fn a_snapped_drag_puts_the_first_node_on_the_grid_and_keeps_offsets() {
        let (scene, a, b) = two_nodes();
        let drag = MoveDrag {
            start_pointer: DVec2::new(0.3, 0.0),
            starts: vec![(a, Vec2::new(0.2, 0.0)), (b, Vec2::new(10.0, 0.0))],
        };
        let free = drag.delta(DVec2::new(1.0, 0.4), None);
        assert!((free - DVec2::new(0.7, 0.4)).length() < 1e-12);
        let snapped = drag.delta(DVec2::new(1.0, 0.4), Some(1.0));
        // The first node (at 0.2 as an f32) lands exactly on the grid line x = 1, y = 0.
        let landed = Vec2::new(0.2, 0.0).as_dvec2() + snapped;
        assert_eq!(landed, DVec2::new(1.0, 0.0), "{snapped}");
        let ops = drag.ops(snapped);
        assert_eq!(ops.len(), 2);
        assert_eq!(drag.label(&scene), "Move 2 nodes");
        let one = MoveDrag {
            starts: vec![(a, Vec2::ZERO)],
            ..drag
        };
        assert_eq!(one.label(&scene), "Move a");
    }
}
