//! Seed numbers and refusals of the core model (math + scene), exact to 1e-5.

mod common;

use common::*;
use glam::{Affine2, Vec2};
use graft::Error;
use graft::model::math::Trs;
use graft::model::math::{decompose, shear_metrics, try_inverse};
use graft::model::scene::edit::{History, Op};
use graft::model::scene::{Keep, NodeData, NodeId, Scene};

const BODY: NodeId = NodeId(1);
const ARM: NodeId = NodeId(2);
const HAND: NodeId = NodeId(3);
const SWORD: NodeId = NodeId(4);

fn world_pos(scene: &Scene, id: NodeId) -> Vec2 {
    scene.world(id).unwrap().translation
}

#[test]
fn seed_004_world_positions() {
    let mut scene = sword_scene();
    scene.update_world();
    assert_vec_near(world_pos(&scene, BODY), Vec2::new(5.0, 0.0));
    assert_vec_near(world_pos(&scene, ARM), Vec2::new(5.0, 2.0));
    assert_vec_near(world_pos(&scene, HAND), Vec2::new(2.0, 2.0));
    assert_vec_near(world_pos(&scene, SWORD), Vec2::new(2.0, 3.0));
}

#[test]
fn sheathing_with_keep_world_bakes_the_rotation_into_the_local() {
    let mut scene = sword_scene();
    let before = scene.world(SWORD).unwrap();
    let mut history = History::new();
    let sheathe = Op::Reparent {
        node: SWORD,
        parent: Some(BODY),
        index: None,
        keep: Keep::World,
    };
    history
        .perform(&mut scene, "Sheathe", vec![sheathe])
        .unwrap();
    scene.update_world();
    let local = scene.node(SWORD).unwrap().local;
    assert_vec_near(local.position, Vec2::new(-3.0, 3.0));
    assert!(
        (local.rotation - 90.0).abs() < 1e-5,
        "rotation {}",
        local.rotation
    );
    assert_vec_near(local.scale, Vec2::ONE);
    assert!(local.skew.abs() < 1e-5);
    assert_vec_near(world_pos(&scene, SWORD), Vec2::new(2.0, 3.0));
    assert!(near(&scene.world(SWORD).unwrap(), &before, 1e-5));
    assert_eq!(scene.parent(SWORD).unwrap(), Some(BODY));
    assert_eq!(scene.children(Some(BODY)).unwrap(), vec![ARM, SWORD]);
    scene.check_invariants().unwrap();

    history.undo(&mut scene).unwrap();
    assert_eq!(scene, sword_scene());
    // What the scene-level call reports (the CLI prints it).
    let undo = scene
        .reparent(SWORD, Some(BODY), None, Keep::World)
        .unwrap();
    assert_eq!(undo.old_parent, Some(HAND));
    assert_eq!(undo.old_index, 0);
    assert_eq!(undo.old_local.position, Vec2::new(1.0, 0.0));
}

#[test]
fn sheathing_with_keep_local_makes_the_sword_jump() {
    let mut scene = sword_scene();
    scene
        .reparent(SWORD, Some(BODY), None, Keep::Local)
        .unwrap();
    assert_eq!(
        scene.node(SWORD).unwrap().local.position,
        Vec2::new(1.0, 0.0)
    );
    assert_vec_near(world_pos(&scene, SWORD), Vec2::new(6.0, 0.0));
}

#[test]
fn seed_shear_values() {
    let scale = Affine2::from_scale(Vec2::new(2.0, 1.0));
    let rotate = Trs::new(Vec2::ZERO, 45.0, Vec2::ONE, 0.0).to_affine();
    let scale_then_rotate = shear_metrics(&(scale * rotate));
    assert!(
        (scale_then_rotate.dot + 1.5).abs() < 1e-5,
        "{scale_then_rotate:?}"
    );
    assert!(scale_then_rotate.is_sheared(0.01));
    let rotate_then_scale = shear_metrics(&(rotate * scale));
    assert!(rotate_then_scale.dot.abs() < 1e-5, "{rotate_then_scale:?}");
    assert!(!rotate_then_scale.is_sheared(0.01));
    assert!((rotate_then_scale.axis_angle - 90.0).abs() < 1e-4);
    assert_vec_near(rotate_then_scale.lossy_scale, Vec2::new(2.0, 1.0));
    assert!((rotate_then_scale.determinant - 2.0).abs() < 1e-5);
}

#[test]
fn shear_in_a_scene_is_reported_on_the_child_and_accumulated_mode_has_none() {
    let specs = vec![
        spec(
            1,
            None,
            "parent",
            Trs::new(Vec2::ZERO, 0.0, Vec2::new(2.0, 1.0), 0.0),
        ),
        spec(
            2,
            Some(1),
            "child",
            Trs::new(Vec2::new(1.0, 0.0), 45.0, Vec2::ONE, 0.0),
        ),
    ];
    let scene = Scene::from_specs(specs).unwrap();
    let world = scene.world(NodeId(2)).unwrap();
    assert!((shear_metrics(&world).dot + 1.5).abs() < 1e-5);
    // The exact world TRS needs skew to express the shear, and composes back to the matrix.
    let trs = scene.world_trs(NodeId(2)).unwrap();
    assert!(trs.skew.abs() > 1.0, "{trs:?}");
    assert!(near(&trs.to_affine(), &world, 1e-5));
    // Accumulated mode: scale (2,1), rotation 45, position (2,0), never sheared.
    let acc = scene.accumulated_world_trs(NodeId(2)).unwrap();
    assert_vec_near(acc.position, Vec2::new(2.0, 0.0));
    assert_eq!(acc.rotation, 45.0);
    assert_eq!(acc.scale, Vec2::new(2.0, 1.0));
    assert!(!shear_metrics(&acc.to_affine()).is_sheared(0.01));
}

#[test]
fn accumulated_mode_matches_the_product_without_non_uniform_scale() {
    let scene = sword_scene();
    for id in [BODY, ARM, HAND, SWORD] {
        let acc = scene.accumulated_world_trs(id).unwrap().to_affine();
        assert!(near(&acc, &scene.world(id).unwrap(), 1e-5), "{id}");
    }
}

#[test]
fn decompose_keeps_a_flipped_sprite_flipped() {
    let flip = Trs::new(Vec2::new(1.0, 2.0), 30.0, Vec2::new(-1.0, 1.0), 0.0);
    let m = flip.to_affine();
    let plain = decompose(&m);
    assert!(plain.scale.x > 0.0 && plain.scale.y < 0.0, "{plain:?}");
    let like = graft::model::math::decompose_like(&m, &flip);
    assert!(
        (like.scale - flip.scale).abs().max_element() < 1e-5,
        "{like:?}"
    );
    assert!((like.rotation - 30.0).abs() < 1e-4, "{like:?}");
    assert!(near(&like.to_affine(), &m, 1e-5));
}

#[test]
fn inverse_reports_singular_matrices() {
    let zero_scale = Trs::new(Vec2::ONE, 10.0, Vec2::new(0.0, 1.0), 0.0).to_affine();
    assert!(try_inverse(&zero_scale).is_err());
    let parallel_axes = Trs::new(Vec2::ZERO, 0.0, Vec2::ONE, 90.0).to_affine();
    assert!(try_inverse(&parallel_axes).is_err());
    let fine = Trs::new(Vec2::new(3.0, -2.0), 33.0, Vec2::new(2.0, -0.5), 12.0).to_affine();
    let inv = try_inverse(&fine).unwrap();
    assert!(near(&(fine * inv), &Affine2::IDENTITY, 1e-5));
}

#[test]
fn refused_reparents_change_nothing() {
    let mut scene = sword_scene();
    let before = scene.clone();
    let err = scene
        .reparent(ARM, Some(ARM), None, Keep::World)
        .unwrap_err();
    assert!(matches!(err, Error::Cycle { .. }), "{err}");
    assert!(err.to_string().contains("itself"), "{err}");
    let err = scene
        .reparent(ARM, Some(SWORD), None, Keep::World)
        .unwrap_err();
    assert!(err.to_string().contains("descendant"), "{err}");
    let err = scene
        .reparent(NodeId(99), Some(BODY), None, Keep::World)
        .unwrap_err();
    assert_eq!(err.to_string(), "node 99 does not exist");
    let err = scene
        .reparent(SWORD, Some(NodeId(77)), None, Keep::World)
        .unwrap_err();
    assert!(matches!(err, Error::UnknownNode(NodeId(77))));
    let err = scene
        .reparent(SWORD, Some(BODY), Some(5), Keep::World)
        .unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    assert_eq!(scene, before);

    // keep_world under a parent with zero scale: refused; keep_local is fine.
    let flat = scene
        .add_node(
            None,
            None,
            NodeData::named("flat", Trs::new(Vec2::ZERO, 0.0, Vec2::new(0.0, 1.0), 0.0)),
        )
        .unwrap();
    let before = scene.clone();
    let err = scene
        .reparent(SWORD, Some(flat), None, Keep::World)
        .unwrap_err();
    assert!(
        matches!(err, Error::SingularParent(id) if id == flat),
        "{err}"
    );
    assert_eq!(scene, before);
    scene
        .reparent(SWORD, Some(flat), None, Keep::Local)
        .unwrap();
    scene.check_invariants().unwrap();
}

#[test]
fn world_setters_refuse_under_a_singular_parent() {
    let mut scene = sword_scene();
    scene
        .set_local(HAND, Trs::new(Vec2::ZERO, 0.0, Vec2::new(1.0, 0.0), 0.0))
        .unwrap();
    let before = scene.clone();
    assert!(matches!(
        scene.set_world_position(SWORD, Vec2::ONE),
        Err(Error::SingularParent(HAND))
    ));
    assert!(matches!(
        scene.set_world_trs(SWORD, Trs::IDENTITY),
        Err(Error::SingularParent(HAND))
    ));
    assert_eq!(scene, before);
    assert!(matches!(
        scene.set_local(SWORD, Trs::new(Vec2::NAN, 0.0, Vec2::ONE, 0.0)),
        Err(Error::NotFinite { .. })
    ));
}

#[test]
fn world_position_setter_solves_through_a_sheared_parent() {
    let specs = vec![
        spec(
            1,
            None,
            "p",
            Trs::new(Vec2::new(1.0, 1.0), 30.0, Vec2::new(3.0, 0.5), 0.0),
        ),
        spec(
            2,
            Some(1),
            "q",
            Trs::new(Vec2::new(0.5, 2.0), 45.0, Vec2::ONE, 0.0),
        ),
        spec(
            3,
            Some(2),
            "c",
            Trs::new(Vec2::new(1.0, 0.0), 0.0, Vec2::ONE, 0.0),
        ),
    ];
    let mut scene = Scene::from_specs(specs).unwrap();
    let target = Vec2::new(-4.0, 7.5);
    scene.set_world_position(NodeId(3), target).unwrap();
    assert!(
        (scene.world(NodeId(3)).unwrap().translation - target)
            .abs()
            .max_element()
            < 1e-4
    );
    let wanted = Trs::new(Vec2::new(2.0, -1.0), 100.0, Vec2::new(1.5, 2.5), 5.0);
    scene.set_world_trs(NodeId(3), wanted).unwrap();
    let got = scene.world_trs(NodeId(3)).unwrap();
    assert!(
        (got.position - wanted.position).abs().max_element() < 1e-4,
        "{got:?}"
    );
    assert!((got.rotation - wanted.rotation).abs() < 1e-3, "{got:?}");
    assert!(
        (got.scale - wanted.scale).abs().max_element() < 1e-4,
        "{got:?}"
    );
    assert!((got.skew - wanted.skew).abs() < 1e-3, "{got:?}");
}

#[test]
fn leaf_edit_recomputes_one_matrix_and_a_subtree_edit_recomputes_the_subtree() {
    let mut scene = wide_scene(100_000);
    assert_eq!(scene.update_world(), 100_000);
    assert_eq!(scene.update_world(), 0, "nothing dirty: no work");
    let leaf = scene.id_at(scene.len() - 1);
    assert_eq!(scene.subtree_len_at(scene.len() - 1), 1);
    scene
        .set_local(leaf, Trs::from_position(Vec2::new(3.0, 4.0)))
        .unwrap();
    scene
        .set_local(leaf, Trs::from_position(Vec2::new(3.0, 5.0)))
        .unwrap();
    assert_eq!(scene.update_world(), 1);
    assert_eq!(scene.last_recomputed(), 1);
    let sub = scene.id_at(1);
    let k = scene.subtree_len_at(1);
    assert!(k > 100);
    scene
        .set_local(sub, Trs::from_position(Vec2::new(1.0, 1.0)))
        .unwrap();
    scene
        .set_local(leaf, Trs::from_position(Vec2::new(3.0, 6.0)))
        .unwrap();
    let leaf_inside = scene.id_at(2);
    scene.set_local(leaf_inside, Trs::IDENTITY).unwrap();
    assert_eq!(
        scene.update_world(),
        k + 1,
        "subtree of {k} plus the unrelated leaf"
    );
}

#[test]
fn an_update_says_whether_only_the_first_nodes_of_its_ranges_changed() {
    let mut scene = wide_scene(2_000);
    scene.update_world();
    let (root, child, grandchild) = (scene.id_at(0), scene.id_at(1), scene.id_at(2));
    let at = |x: f32| Trs::from_position(Vec2::new(x, 1.0));
    // The root alone, even set twice: the whole scene moved with it.
    scene.set_local(root, at(1.0)).unwrap();
    scene.set_local(root, at(2.0)).unwrap();
    assert_eq!(scene.update_world(), 2_000);
    assert!(scene.last_update_moved_whole_ranges());
    // The root and a node inside it: not a rigid move.
    scene.set_local(root, at(3.0)).unwrap();
    scene.set_local(grandchild, at(4.0)).unwrap();
    scene.update_world();
    assert!(!scene.last_update_moved_whole_ranges());
    // Two separate subtrees, each changed only at its top.
    let other = scene.id_at(1 + scene.subtree_len_at(1));
    scene.set_local(child, at(5.0)).unwrap();
    scene.set_local(other, at(6.0)).unwrap();
    scene.update_world();
    assert_eq!(scene.last_recomputed_ranges().len(), 2);
    assert!(scene.last_update_moved_whole_ranges());
    // Nothing dirty: the last pass that did work is still the one described.
    assert_eq!(scene.update_world(), 0);
    assert!(scene.last_update_moved_whole_ranges());
}

#[test]
fn million_deep_chain_builds_propagates_and_reparents_without_recursion() {
    const N: u32 = 1_000_000;
    let specs = (0..N)
        .map(|i| {
            spec(
                i,
                i.checked_sub(1),
                "",
                Trs::new(Vec2::new(0.0, 1.0), 0.0, Vec2::ONE, 0.0),
            )
        })
        .collect();
    let mut scene = Scene::from_specs(specs).unwrap();
    assert_eq!(scene.update_world(), N as usize);
    assert_vec_near(
        scene.world(NodeId(N - 1)).unwrap().translation,
        Vec2::new(0.0, N as f32),
    );
    assert_eq!(scene.depth_at(scene.len() - 1), N as usize - 1);
    // Move the lower half onto the root, keeping its world transform.
    let mid = NodeId(N / 2);
    let before = scene.world(NodeId(N - 1)).unwrap();
    scene
        .reparent(mid, Some(NodeId(0)), Some(0), Keep::World)
        .unwrap();
    assert_eq!(scene.update_world(), (N / 2) as usize);
    assert!(near(&scene.world(NodeId(N - 1)).unwrap(), &before, 1e-3));
    assert_eq!(
        scene.children(Some(NodeId(0))).unwrap(),
        vec![mid, NodeId(1)]
    );
    scene.check_invariants().unwrap();
    // Remove and restore the deep half.
    let removed = scene.remove_subtree(mid).unwrap();
    assert_eq!(scene.len(), (N / 2) as usize);
    scene.insert_subtree(removed).unwrap();
    scene.check_invariants().unwrap();
}

#[test]
fn add_remove_duplicate_and_reorder_keep_the_tree_consistent() {
    let mut scene = sword_scene();
    let scabbard = scene
        .add_node(
            Some(BODY),
            Some(0),
            NodeData::named("scabbard", Trs::from_position(Vec2::new(-0.5, 0.0))),
        )
        .unwrap();
    assert_eq!(scene.children(Some(BODY)).unwrap(), vec![scabbard, ARM]);
    assert_eq!(scabbard, NodeId(5));
    // Duplicate as the editor does: copy, fresh ids, insert after the original.
    let mut copies = [scene.copy_subtree(ARM).unwrap()];
    scene.renumber_fresh(&mut copies);
    let [mut copy_tree] = copies;
    copy_tree.index += 1;
    let copy = copy_tree.root();
    let mut history = History::new();
    let insert = Op::Insert { subtree: copy_tree };
    history
        .perform(&mut scene, "Duplicate", vec![insert])
        .unwrap();
    assert_eq!(
        scene.children(Some(BODY)).unwrap(),
        vec![scabbard, ARM, copy]
    );
    assert_eq!(scene.len(), 8);
    let copy_kids = scene.children(Some(copy)).unwrap();
    assert_eq!(scene.node(copy_kids[0]).unwrap().name, "hand");
    assert!(near(
        &scene.world(copy).unwrap(),
        &scene.world(ARM).unwrap(),
        0.0
    ));
    let to_front = Op::Reparent {
        node: copy,
        parent: Some(BODY),
        index: Some(0),
        keep: Keep::World,
    };
    history.perform(&mut scene, "Move", vec![to_front]).unwrap();
    assert_eq!(
        scene.children(Some(BODY)).unwrap(),
        vec![copy, scabbard, ARM]
    );
    history.undo(&mut scene).unwrap();
    assert_eq!(
        scene.children(Some(BODY)).unwrap(),
        vec![scabbard, ARM, copy],
        "undo puts it back at index 2"
    );
    history.redo(&mut scene).unwrap();
    scene.check_invariants().unwrap();
    let removed = scene.remove_subtree(copy).unwrap();
    assert_eq!(removed.ids.len(), 3);
    assert!(!scene.contains(copy));
    scene.check_invariants().unwrap();
    scene.insert_subtree(removed).unwrap();
    assert_eq!(
        scene.children(Some(BODY)).unwrap(),
        vec![copy, scabbard, ARM]
    );
    assert!(matches!(
        scene.rename(NodeId(42), "x"),
        Err(Error::UnknownNode(_))
    ));
    assert_eq!(scene.rename(SWORD, "blade").unwrap(), "sword");
    scene.check_invariants().unwrap();
}

#[test]
fn bad_flat_lists_are_refused_with_the_node_named() {
    let t = Trs::IDENTITY;
    let err = Scene::from_specs(vec![spec(1, None, "a", t), spec(1, None, "b", t)]).unwrap_err();
    assert_eq!(err.to_string(), "node 1: duplicate id");
    let err = Scene::from_specs(vec![spec(7, Some(12), "a", t)]).unwrap_err();
    assert_eq!(err.to_string(), "node 7: parent 12 does not exist");
    let err = Scene::from_specs(vec![spec(3, Some(3), "a", t)]).unwrap_err();
    assert_eq!(err.to_string(), "node 3: parent cycle (3 -> 3)");
    let err = Scene::from_specs(vec![
        spec(1, None, "r", t),
        spec(5, Some(3), "a", t),
        spec(3, Some(5), "b", t),
    ])
    .unwrap_err();
    assert_eq!(err.to_string(), "node 3: parent cycle (3 -> 5 -> 3)");
    let err = Scene::from_specs(vec![spec(
        2,
        None,
        "a",
        Trs::new(Vec2::ZERO, f32::INFINITY, Vec2::ONE, 0.0),
    )])
    .unwrap_err();
    assert_eq!(err.to_string(), "node 2: rotation is not a finite number");
    // A parent listed after its child is fine, and sibling order is list order.
    let scene = Scene::from_specs(vec![
        spec(2, Some(1), "late child", t),
        spec(3, Some(1), "second", t),
        spec(1, None, "root", t),
    ])
    .unwrap();
    assert_eq!(
        scene.children(Some(NodeId(1))).unwrap(),
        vec![NodeId(2), NodeId(3)]
    );
}

#[test]
fn malformed_detached_subtrees_are_refused() {
    let mut scene = sword_scene();
    let mut bad = scene.copy_subtree(ARM).unwrap();
    bad.renumber(NodeId(100));
    bad.parents[1] = 2; // a parent after its child
    let before = scene.clone();
    assert!(matches!(
        scene.insert_subtree(bad.clone()),
        Err(Error::Format(_))
    ));
    bad.parents = vec![];
    assert!(scene.insert_subtree(bad).is_err());
    assert_eq!(scene, before);
}

#[test]
fn matrix_chain_ends_in_the_world_matrix_and_shear_names_its_cause() {
    use graft::model::scene::diagnose::ShearCause;
    let scene = sword_scene();
    let chain = scene.matrix_chain(SWORD).unwrap();
    assert_eq!(
        chain.iter().map(|f| f.node).collect::<Vec<_>>(),
        vec![BODY, ARM, HAND, SWORD]
    );
    assert!(near(&chain[3].product, &scene.world(SWORD).unwrap(), 1e-6));
    assert!(near(&chain[1].product, &scene.world(ARM).unwrap(), 1e-6));
    for id in [BODY, ARM, HAND, SWORD] {
        assert_eq!(scene.shear_cause(id).unwrap(), ShearCause::NotSheared);
    }
    // A non-uniformly scaled grandparent above a rotated parent: the grandparent is blamed,
    // even with an unrotated, unscaled node in between.
    let specs = vec![
        spec(
            1,
            None,
            "stretched",
            Trs::new(Vec2::ZERO, 0.0, Vec2::new(2.0, 1.0), 0.0),
        ),
        spec(2, Some(1), "plain", Trs::from_position(Vec2::new(1.0, 0.0))),
        spec(
            3,
            Some(2),
            "rotated",
            Trs::new(Vec2::ZERO, 30.0, Vec2::ONE, 0.0),
        ),
        spec(4, Some(3), "leaf", Trs::from_position(Vec2::ONE)),
        spec(
            5,
            None,
            "skewed",
            Trs::new(Vec2::ZERO, 0.0, Vec2::ONE, 20.0),
        ),
        spec(6, Some(5), "under skew", Trs::IDENTITY),
    ];
    let scene = Scene::from_specs(specs).unwrap();
    assert_eq!(
        scene.shear_cause(NodeId(4)).unwrap(),
        ShearCause::Ancestor {
            cause: NodeId(1),
            by_skew: false
        }
    );
    assert_eq!(
        scene.shear_cause(NodeId(3)).unwrap(),
        ShearCause::Ancestor {
            cause: NodeId(1),
            by_skew: false
        }
    );
    assert_eq!(
        scene.shear_cause(NodeId(2)).unwrap(),
        ShearCause::NotSheared
    );
    assert_eq!(scene.shear_cause(NodeId(5)).unwrap(), ShearCause::OwnSkew);
    assert_eq!(
        scene.shear_cause(NodeId(6)).unwrap(),
        ShearCause::Ancestor {
            cause: NodeId(5),
            by_skew: true
        }
    );
}

#[test]
fn the_last_update_reports_the_ranges_it_recomputed() {
    let mut scene = sword_scene();
    scene.update_world();
    scene.set_local(HAND, Trs::IDENTITY).unwrap();
    scene.set_local(SWORD, Trs::IDENTITY).unwrap(); // inside the hand's range
    assert_eq!(scene.update_world(), 2);
    assert_eq!(scene.last_recomputed_ranges(), &[(2, 4)]);
    assert_eq!(scene.update_world(), 0);
    assert_eq!(
        scene.last_recomputed_ranges(),
        &[(2, 4)],
        "a pass with nothing to do keeps the last ranges"
    );
}
