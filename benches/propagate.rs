//! World-matrix propagation at 1M nodes: graft's dirty-range update against the flat floor and
//! the naive pointer tree, built from the same locals. Compare the three lines of each group.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Affine2, Vec2};
use graft::model::math::Trs;
use graft::tools::bench::{NaiveTree, flat_update};
use graft::tools::generate::{GenShape, generate};
use std::hint::black_box;
use std::time::Duration;

const NODES: usize = 1_000_000;

fn propagation(c: &mut Criterion) {
    for shape in [GenShape::Wide, GenShape::Chain] {
        let mut scene = generate(shape, NODES, 1);
        scene.update_world();
        let parents = scene.parent_indices().to_vec();
        let locals = scene.local_matrices().to_vec();
        let mut world = vec![Affine2::IDENTITY; locals.len()];
        let mut naive = NaiveTree::from_scene(&scene);
        let mut group = c.benchmark_group(format!("propagate_1m_{shape}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3));
        group.bench_function("graft_full_update", |b| {
            b.iter(|| {
                scene.mark_all_dirty();
                black_box(scene.update_world())
            })
        });
        group.bench_function("flat_floor", |b| {
            b.iter(|| flat_update(black_box(&parents), black_box(&locals), &mut world))
        });
        group.bench_function("naive_pointer_tree", |b| b.iter(|| naive.update()));
        let leaf = scene.id_at(scene.len() - 1);
        let mut k = 0u32;
        group.bench_function("leaf_edit_plus_update", |b| {
            b.iter(|| {
                k = k.wrapping_add(1);
                let local = Trs::new(Vec2::new(k as f32 * 1e-3, 1.0), 0.0, Vec2::ONE, 0.0);
                let _ = scene.set_local(leaf, local);
                black_box(scene.update_world())
            })
        });
        group.bench_function("clean_update", |b| {
            b.iter(|| black_box(scene.update_world()))
        });
        group.finish();
    }
}

criterion_group!(benches, propagation);
criterion_main!(benches);
