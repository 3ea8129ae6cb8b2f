//! Multi-edit masks: which of a transform's six components (position x / y, rotation, scale
//! x / y, skew) an inspector edit changed, applied to each selected node while keeping its other
//! components; which components differ across a selection; locked-ratio scale. Pure functions,
//! no widgets: the inspector panel sends what was typed ([`crate::editor::session::command::PanelCommand::SetTransform`])
//! and the session plans the edit with these.

use crate::model::math::Trs;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};
use glam::Vec2;

/// Which of the six numbers differ (bit for bit) between two transforms.
pub fn changed_components(before: &Trs, after: &Trs) -> [bool; 6] {
    let (a, b) = (before.components(), after.components());
    std::array::from_fn(|k| a[k].to_bits() != b[k].to_bits())
}

/// `base` with the numbers marked in `mask` taken from `from`.
pub fn replace_components(base: &Trs, from: &Trs, mask: [bool; 6]) -> Trs {
    let (mut v, f) = (base.components(), from.components());
    for k in 0..6 {
        if mask[k] {
            v[k] = f[k];
        }
    }
    Trs::new(Vec2::new(v[0], v[1]), v[2], Vec2::new(v[3], v[4]), v[5])
}

/// Which of the six numbers are not the same (bit for bit) across the selection, as read by
/// `of` (nodes gone from the scene, or that `of` cannot read, are left out).
pub fn mixed_components(
    scene: &Scene,
    selection: &[NodeId],
    of: impl Fn(NodeId) -> Option<Trs>,
) -> [bool; 6] {
    let values: Vec<[f32; 6]> = selection
        .iter()
        .filter(|n| scene.contains(**n))
        .filter_map(|&n| of(n))
        .map(|t| t.components())
        .collect();
    std::array::from_fn(|k| {
        values
            .windows(2)
            .any(|w| w[0][k].to_bits() != w[1][k].to_bits())
    })
}

/// Which local components differ across the selection.
pub fn mixed_local(scene: &Scene, selection: &[NodeId]) -> [bool; 6] {
    mixed_components(scene, selection, |n| scene.node(n).ok().map(|d| d.local))
}

/// Which world components differ across the selection.
pub fn mixed_world(scene: &Scene, selection: &[NodeId]) -> [bool; 6] {
    mixed_components(scene, selection, |n| scene.world_trs(n).ok())
}

/// Keep the x:y ratio of scale when one of them was edited (x wins when both were; a zero
/// component has no ratio to keep, so the other is left as typed).
pub fn lock_ratio(before: Vec2, after: &mut Vec2) {
    if after.x != before.x && before.x != 0.0 {
        after.y = before.y * after.x / before.x;
    } else if after.y != before.y && before.y != 0.0 {
        after.x = before.x * after.y / before.y;
    }
}

/// The selected nodes an edit applies to: those still in the scene, in selection order.
pub fn targets(scene: &Scene, selection: &[NodeId]) -> Vec<NodeId> {
    selection
        .iter()
        .copied()
        .filter(|n| scene.contains(*n))
        .collect()
}

/// Set the edited local transform `local` on the primary node (whose local was `before`); on
/// the other targets only the numbers that were edited. The undo label and the ops.
pub fn local_edit(
    scene: &Scene,
    primary: NodeId,
    before: &Trs,
    targets: &[NodeId],
    local: Trs,
) -> (String, Vec<Op>) {
    let mask = changed_components(before, &local);
    let ops = targets
        .iter()
        .filter_map(|&n| {
            let own = scene.node(n).ok()?.local;
            let local = if n == primary {
                local
            } else {
                replace_components(&own, &local, mask)
            };
            Some(Op::SetLocal { node: n, local })
        })
        .collect();
    let label = if targets.len() > 1 {
        format!("Edit {} nodes", targets.len())
    } else {
        format!("Edit {}", scene.label(primary))
    };
    (label, ops)
}

/// Set the edited world transform `world` (just the position when only it changed) on the
/// primary node (whose world was `before`); on the other targets only the numbers that were
/// edited, each keeping its own world values for the rest. The undo label and the ops.
pub fn world_edit(
    scene: &Scene,
    primary: NodeId,
    before: &Trs,
    targets: &[NodeId],
    world: Trs,
) -> (String, Vec<Op>) {
    let mask = changed_components(before, &world);
    let only_position = mask[2..].iter().all(|m| !m);
    let ops = targets
        .iter()
        .filter_map(|&n| {
            let own = scene.world_trs(n).ok()?;
            let wanted = if n == primary {
                world
            } else {
                replace_components(&own, &world, mask)
            };
            Some(if only_position {
                Op::SetWorldPosition {
                    node: n,
                    position: wanted.position,
                }
            } else {
                Op::SetWorld {
                    node: n,
                    world: wanted,
                }
            })
        })
        .collect();
    let label = if targets.len() > 1 {
        format!("Move {} nodes in world space", targets.len())
    } else {
        format!("Move {} in world space", scene.label(primary))
    };
    (label, ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scene::NodeData;

    fn trs(x: f32, y: f32, rotation: f32, sx: f32, sy: f32, skew: f32) -> Trs {
        Trs::new(Vec2::new(x, y), rotation, Vec2::new(sx, sy), skew)
    }

    /// Three roots with different transforms; the last is the primary.
    fn three_roots() -> (Scene, Vec<NodeId>) {
        let mut scene = Scene::new();
        let ids = [
            trs(1.0, 2.0, 10.0, 1.0, 2.0, 0.0),
            trs(3.0, 4.0, 20.0, 2.0, 1.0, 5.0),
            trs(5.0, 6.0, 30.0, 3.0, 3.0, 0.0),
        ]
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let data = NodeData::named(format!("n{k}"), *t);
            scene.add_node(None, None, data).expect("a root is added")
        })
        .collect();
        scene.update_world();
        (scene, ids)
    }

    /// Three nodes whose world differs from their local: a root and two children of a
    /// parent at (5, 0) turned 90° and scaled by 2.
    fn three_placed() -> (Scene, Vec<NodeId>) {
        let mut scene = Scene::new();
        let parent = NodeData::named("parent", trs(5.0, 0.0, 90.0, 2.0, 2.0, 0.0));
        let parent = scene.add_node(None, None, parent).expect("parent");
        let placed = [
            (None, trs(1.0, 2.0, 10.0, 1.0, 2.0, 0.0)),
            (Some(parent), trs(3.0, 4.0, 20.0, 2.0, 1.0, 5.0)),
            (Some(parent), trs(-1.0, 0.5, 30.0, 3.0, 3.0, 0.0)),
        ];
        let ids = placed
            .iter()
            .enumerate()
            .map(|(k, (under, t))| {
                let data = NodeData::named(format!("n{k}"), *t);
                scene.add_node(*under, None, data).expect("a node is added")
            })
            .collect();
        scene.update_world();
        (scene, ids)
    }

    fn performed(edit: (String, Vec<Op>)) -> (String, Vec<Op>) {
        edit
    }

    #[test]
    fn changed_components_compares_bits() {
        let a = trs(1.0, 0.0, 0.0, 1.0, 1.0, 0.0);
        let b = trs(1.0, -0.0, 0.0, 2.0, 1.0, 0.0);
        assert_eq!(
            changed_components(&a, &b),
            [false, true, false, true, false, false]
        );
        assert_eq!(changed_components(&a, &a), [false; 6]);
    }

    #[test]
    fn replace_components_takes_only_the_masked_numbers() {
        let base = trs(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
        let from = trs(10.0, 20.0, 30.0, 40.0, 50.0, 60.0);
        let mask = [true, false, false, false, true, true];
        assert_eq!(
            replace_components(&base, &from, mask),
            trs(10.0, 2.0, 3.0, 4.0, 50.0, 60.0)
        );
        assert_eq!(replace_components(&base, &from, [false; 6]), base);
    }

    #[test]
    fn editing_x_on_three_nodes_changes_only_their_x() {
        let (scene, ids) = three_roots();
        let primary = ids[2];
        let before = scene.node(primary).expect("primary").local;
        let mut after = before;
        after.position.x = 9.0;
        let (label, ops) = performed(local_edit(&scene, primary, &before, &ids, after));
        assert_eq!(label, "Edit 3 nodes");
        assert_eq!(ops.len(), 3);
        for (op, &id) in ops.iter().zip(&ids) {
            let own = scene.node(id).expect("node").local;
            let mut wanted = own;
            wanted.position.x = 9.0;
            assert_eq!(
                *op,
                Op::SetLocal {
                    node: id,
                    local: wanted
                }
            );
        }
    }

    #[test]
    fn a_lone_local_edit_is_named_after_the_node_and_skips_gone_targets() {
        let (scene, ids) = three_roots();
        let before = scene.node(ids[0]).expect("node").local;
        let after = trs(0.0, 0.0, 45.0, 1.0, 1.0, 0.0);
        let (label, ops) = performed(local_edit(&scene, ids[0], &before, &ids[..1], after));
        assert_eq!(label, "Edit n0");
        assert_eq!(
            ops,
            vec![Op::SetLocal {
                node: ids[0],
                local: after
            }]
        );
        // A target that is not in the scene gets no op.
        let gone = vec![ids[0], NodeId(999)];
        let (_, ops) = performed(local_edit(&scene, ids[0], &before, &gone, after));
        assert_eq!(ops.len(), 1);
    }

    #[test]
    fn a_world_edit_keeps_each_nodes_other_world_components() {
        let (scene, ids) = three_placed();
        let primary = ids[2];
        let before = scene.world_trs(primary).expect("world");
        let mut after = before;
        after.rotation = 77.0;
        // Under the parent, world and local differ: the edit must keep the world values.
        let local = scene.node(ids[1]).expect("node").local;
        assert_ne!(
            scene.world_trs(ids[1]).expect("world").position,
            local.position
        );
        let (label, ops) = performed(world_edit(&scene, primary, &before, &ids, after));
        assert_eq!(label, "Move 3 nodes in world space");
        for (op, &id) in ops.iter().zip(&ids) {
            let own = scene.world_trs(id).expect("world");
            let Op::SetWorld { node, world } = op else {
                panic!("a rotation edit sets the whole world transform: {op:?}");
            };
            assert_eq!(*node, id);
            assert_eq!(world.rotation, 77.0);
            assert_eq!(world.position, own.position);
            assert_eq!(world.scale, own.scale);
            assert_eq!(world.skew.to_bits(), own.skew.to_bits());
        }
    }

    #[test]
    fn a_world_position_edit_sets_only_world_positions() {
        let (scene, ids) = three_placed();
        let primary = ids[0];
        let before = scene.world_trs(primary).expect("world");
        let mut after = before;
        after.position.y = -4.0;
        let (label, ops) = performed(world_edit(&scene, primary, &before, &ids[..1], after));
        assert_eq!(label, "Move n0 in world space");
        assert_eq!(
            ops,
            vec![Op::SetWorldPosition {
                node: primary,
                position: after.position
            }]
        );
        let (_, ops) = performed(world_edit(&scene, primary, &before, &ids, after));
        for (op, &id) in ops.iter().zip(&ids) {
            let own = scene.world_trs(id).expect("world");
            assert_eq!(
                *op,
                Op::SetWorldPosition {
                    node: id,
                    position: Vec2::new(own.position.x, -4.0)
                }
            );
        }
    }

    #[test]
    fn mixed_flags_mark_the_components_that_differ() {
        let (scene, ids) = three_roots();
        // Positions, rotations and scales all differ; skew is 0, 5, 0.
        assert_eq!(mixed_local(&scene, &ids), [true; 6]);
        assert_eq!(
            mixed_local(&scene, &[ids[0], ids[2]]),
            [true, true, true, true, true, false]
        );
        // One node, or one node plus a gone one, differs from nothing.
        assert_eq!(mixed_local(&scene, &ids[..1]), [false; 6]);
        assert_eq!(mixed_world(&scene, &[ids[1], NodeId(999)]), [false; 6]);
        assert_eq!(mixed_world(&scene, &[]), [false; 6]);
        // Roots: world equals local.
        assert_eq!(mixed_world(&scene, &ids), mixed_local(&scene, &ids));
    }

    #[test]
    fn lock_ratio_keeps_the_ratio_and_leaves_a_zero_component_alone() {
        let mut after = Vec2::new(4.0, 1.0);
        lock_ratio(Vec2::new(2.0, 1.0), &mut after);
        assert_eq!(after, Vec2::new(4.0, 2.0));
        let mut after = Vec2::new(2.0, 3.0);
        lock_ratio(Vec2::new(2.0, 1.0), &mut after);
        assert_eq!(after, Vec2::new(6.0, 3.0));
        // x was 0: no ratio from it; y was not edited, so nothing changes.
        let mut after = Vec2::new(5.0, 1.0);
        lock_ratio(Vec2::new(0.0, 1.0), &mut after);
        assert_eq!(after, Vec2::new(5.0, 1.0));
        // x was 0 and y edited: x follows y's ratio, 0 · 3 = 0.
        let mut after = Vec2::new(0.0, 3.0);
        lock_ratio(Vec2::new(0.0, 1.0), &mut after);
        assert_eq!(after, Vec2::new(0.0, 3.0));
        // Both zero: left as typed.
        let mut after = Vec2::new(2.0, 3.0);
        lock_ratio(Vec2::ZERO, &mut after);
        assert_eq!(after, Vec2::new(2.0, 3.0));
    }

    #[test]
    fn targets_keep_selection_order_and_drop_gone_nodes() {
        let (scene, ids) = three_roots();
        let selection = vec![ids[2], NodeId(999), ids[0]];
        assert_eq!(targets(&scene, &selection), vec![ids[2], ids[0]]);
    }
}
