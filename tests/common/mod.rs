//! Helpers shared by the integration tests.
#![allow(dead_code)]

use glam::{Affine2, Vec2};
use graft::{NodeData, NodeId, NodeSpec, Scene, Trs};

/// Seed 004's chain: body (5,0) → arm (0,2) rotated 90° → hand (0,3) → sword (1,0).
pub fn sword_scene() -> Scene {
    let t = |x: f32, y: f32, r: f32| Trs::new(Vec2::new(x, y), r, Vec2::ONE, 0.0);
    let specs = vec![
        spec(1, None, "body", t(5.0, 0.0, 0.0)),
        spec(2, Some(1), "arm", t(0.0, 2.0, 90.0)),
        spec(3, Some(2), "hand", t(0.0, 3.0, 0.0)),
        spec(4, Some(3), "sword", t(1.0, 0.0, 0.0)),
    ];
    Scene::from_specs(specs).expect("valid sword scene")
}

/// A node spec for tests.
pub fn spec(id: u32, parent: Option<u32>, name: &str, local: Trs) -> NodeSpec {
    NodeSpec {
        id: NodeId(id),
        parent: parent.map(NodeId),
        data: NodeData::named(name, local),
    }
}

/// True when every entry of `a` and `b` differs by at most `tol`.
pub fn near(a: &Affine2, b: &Affine2, tol: f32) -> bool {
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .all(|(x, y)| (x - y).abs() <= tol)
}

/// Assert two vectors are within 1e-5 of each other.
#[track_caller]
pub fn assert_vec_near(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-5,
        "expected {expected:?}, got {actual:?}"
    );
}

/// A wide scene: `roots` roots each with a chain of children as given.
pub fn wide_scene(n: u32) -> Scene {
    let mut specs = vec![spec(0, None, "root", Trs::IDENTITY)];
    let fan = (n as f32).sqrt() as u32;
    for i in 1..n {
        let parent = if i <= fan { 0 } else { 1 + (i % fan) };
        let local = Trs::new(
            Vec2::new(i as f32 * 0.01, 1.0),
            (i % 360) as f32,
            Vec2::ONE,
            0.0,
        );
        specs.push(spec(i, Some(parent), "n", local));
    }
    Scene::from_specs(specs).expect("valid wide scene")
}
