//! A flip that stays a flip: taking a node out of a mirrored parent with keep-world gives the
//! same world matrix, written in the form whose rotation is nearest the node's previous one
//! (x negative or y negative: both are the matrix). Godot and graft used to answer rotation
//! 150°, scale (1, −1) for a sprite at 30° under a parent with scale (−1, 1); a person means
//! −30°, scale (−1, 1).

use glam::Vec2;
use graft::model::math::{Trs, normalize_degrees};
use graft::model::scene::Keep;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene};
use proptest::prelude::*;

fn two(parent: Trs, child: Trs) -> Scene {
    Scene::from_specs(vec![
        NodeSpec {
            id: NodeId(1),
            parent: None,
            data: NodeData::named("player", parent),
        },
        NodeSpec {
            id: NodeId(2),
            parent: Some(NodeId(1)),
            data: NodeData::named("sprite", child),
        },
    ])
    .unwrap()
}

fn unparent(scene: &mut Scene) -> Trs {
    Op::Reparent {
        node: NodeId(2),
        parent: None,
        index: None,
        keep: Keep::World,
    }
    .perform(scene)
    .unwrap();
    scene.update_world();
    scene.node(NodeId(2)).unwrap().local
}

#[test]
fn the_issue_example_reads_as_meant() {
    let parent = Trs {
        scale: Vec2::new(-1.0, 1.0),
        ..Trs::default()
    };
    let child = Trs {
        position: Vec2::new(2.0, 1.0),
        rotation: 30.0,
        ..Trs::default()
    };
    let mut scene = two(parent, child);
    let local = unparent(&mut scene);
    assert_eq!(local.position, Vec2::new(-2.0, 1.0));
    assert!((local.rotation - -30.0).abs() < 1e-4, "{local:?}");
    assert!(
        (local.scale - Vec2::new(-1.0, 1.0)).abs().max_element() < 1e-6,
        "{local:?}"
    );
}

fn angle() -> impl Strategy<Value = f32> {
    -180.0f32..180.0
}

fn scale() -> impl Strategy<Value = f32> {
    prop_oneof![0.3f32..3.0, -3.0f32..-0.3]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn keep_world_out_of_a_mirror_keeps_the_matrix_and_the_nearest_rotation(
        (pr, psx, psy) in (angle(), scale(), scale()),
        (cr, csx, csy, cx, cy) in (angle(), scale(), scale(), -5.0f32..5.0, -5.0f32..5.0),
    ) {
        let parent = Trs { rotation: pr, scale: Vec2::new(psx, psy), ..Trs::default() };
        let child = Trs { position: Vec2::new(cx, cy), rotation: cr, scale: Vec2::new(csx, csy), skew: 0.0 };
        let mut scene = two(parent, child);
        scene.update_world();
        let before = scene.world_at(1);
        let local = unparent(&mut scene);
        let after = scene.world_at(1);
        let size = before.to_cols_array().iter().fold(1.0f32, |m, v| m.max(v.abs()));
        for (a, b) in before.to_cols_array().iter().zip(after.to_cols_array()) {
            prop_assert!((a - b).abs() <= 2e-5 * size, "world {before:?} -> {after:?}");
        }
        // The other form of the same matrix: rotation + 180°, both scales negated.
        let mirrored = (local.scale.x < 0.0) != (local.scale.y < 0.0);
        if mirrored {
            let chosen = normalize_degrees((local.rotation - cr) as f64).abs();
            let other = normalize_degrees((local.rotation + 180.0 - cr) as f64).abs();
            prop_assert!(chosen <= other + 1e-3, "rotation {} (from {cr}): the other form is nearer ({chosen} vs {other})", local.rotation);
        }
    }
}
