//! Both cores: a big update cut into subtree tasks on several threads computes exactly the
//! matrices of the single-threaded loop, bit for bit, on wide, random and chain scenes, after
//! random edits (the threshold is lowered so small scenes take the parallel path).

use glam::{Affine2, Vec2};
use graft::model::math::Trs;
use graft::model::scene::{Scene, set_parallel_threshold, set_propagation_threads};
use graft::tools::generate::{GenShape, generate};
use proptest::prelude::*;

/// The plain loop: world[i] = world[parent[i]] · local[i] in pre-order.
fn reference(scene: &Scene) -> Vec<Affine2> {
    let parents = scene.parent_indices();
    let locals = scene.local_matrices();
    let mut world: Vec<Affine2> = Vec::with_capacity(scene.len());
    for (i, local) in locals.iter().enumerate() {
        let w = match parents[i] {
            u32::MAX => *local,
            p => world[p as usize] * *local,
        };
        world.push(w);
    }
    world
}

fn bits(m: &Affine2) -> [u32; 6] {
    m.to_cols_array().map(f32::to_bits)
}

fn assert_exact(scene: &Scene) -> Result<(), TestCaseError> {
    let want = reference(scene);
    for (i, w) in want.iter().enumerate() {
        prop_assert_eq!(bits(&scene.cached_world_at(i)), bits(w), "node at {}", i);
    }
    Ok(())
}

fn shape() -> impl Strategy<Value = GenShape> {
    prop_oneof![
        Just(GenShape::Wide),
        Just(GenShape::Random),
        Just(GenShape::Chain)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn parallel_updates_equal_the_single_threaded_loop_bit_for_bit(
        shape in shape(), n in 1usize..3000, seed in 0u64..1000, threads in 2usize..5,
        edits in proptest::collection::vec((0usize..3000, -5.0..5.0f32, -180.0..180.0f32), 0..20),
    ) {
        set_parallel_threshold(1);
        set_propagation_threads(threads);
        let mut scene = generate(shape, n, seed);
        scene.mark_all_dirty();
        prop_assert_eq!(scene.update_world(), scene.len());
        assert_exact(&scene)?;
        for (k, x, r) in edits {
            let id = scene.id_at(k % scene.len());
            let local = Trs::new(Vec2::new(x, 1.0), r, Vec2::new(1.5, 0.5), 0.0);
            scene.set_local(id, local).unwrap();
        }
        scene.update_world();
        assert_exact(&scene)?;
    }
}

#[test]
fn a_million_node_wide_scene_updates_on_two_threads_exactly() {
    set_parallel_threshold(graft::model::scene::DEFAULT_PARALLEL_MIN);
    set_propagation_threads(2);
    let mut scene = generate(GenShape::Wide, 200_000, 3);
    scene.mark_all_dirty();
    scene.update_world();
    let want = reference(&scene);
    assert!((0..scene.len()).all(|i| bits(&scene.cached_world_at(i)) == bits(&want[i])));
}

#[test]
fn updates_from_several_threads_at_once_share_the_workers_and_stay_exact() {
    // The workers are shared: a background load and the window may both update at once, and
    // each caller must finish its own update whether or not a worker helps it.
    set_parallel_threshold(1);
    set_propagation_threads(2);
    std::thread::scope(|scope| {
        for seed in 0..4u64 {
            scope.spawn(move || {
                let mut scene = generate(GenShape::Random, 20_000, seed);
                for round in 0..15 {
                    let id = scene.id_at((round * 997 + seed as usize) % scene.len());
                    let local = Trs::new(Vec2::new(round as f32, 1.0), 7.0, Vec2::ONE, 0.0);
                    scene.set_local(id, local).unwrap();
                    scene.mark_all_dirty();
                    assert_eq!(scene.update_world(), scene.len());
                    let want = reference(&scene);
                    assert!(
                        (0..scene.len()).all(|i| bits(&scene.cached_world_at(i)) == bits(&want[i])),
                        "seed {seed} round {round}"
                    );
                }
            });
        }
    });
}
