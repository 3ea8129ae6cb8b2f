//! Propagation benchmarks shared by `graft bench` and the criterion benches: graft's dirty-range
//! update against two baselines built from the same locals in the same run.

use crate::model::generate::{GenShape, generate};
use crate::model::math::Trs;
use crate::model::scene::Scene;
use glam::{Affine2, Vec2};
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// Figures of one `graft bench propagate` run (nanoseconds).
#[derive(Clone, Debug, Serialize)]
pub struct PropagateReport {
    /// Node count.
    pub nodes: usize,
    /// "wide" or "chain".
    pub shape: String,
    /// Threads the full update used (big updates are cut into subtree tasks).
    pub threads: usize,
    /// graft's full update (everything dirty), per node, median of the runs.
    pub full_ns_per_node: f64,
    /// The floor: a plain `world[i] = world[parent[i]] * local[i]` loop over glam arrays.
    pub flat_ns_per_node: f64,
    /// Seed 004's heap-allocated pointer tree with recursive `updateWorldTransform`.
    pub naive_ns_per_node: f64,
    /// The full update run again and again with its arrays still in cache (no eviction
    /// between runs: a frame that updates everything each time), per node, median.
    pub full_warm_ns_per_node: f64,
    /// The flat loop the same way.
    pub flat_warm_ns_per_node: f64,
    /// One leaf edit plus the next update.
    pub leaf_edit_ns: f64,
    /// An update with nothing dirty.
    pub clean_update_ns: f64,
    /// What this machine gives `threads` threads on the flat loop when memory is not the
    /// limit ([`machine_parallel_ratio`]): the best two-thread ratio to read `full / flat`
    /// against (1.0 for one thread; 0.5 would be two real cores).
    pub machine_ratio: f64,
}

/// The floor: one loop over pre-order arrays, no dirty bookkeeping at all.
pub fn flat_update(parents: &[u32], locals: &[Affine2], world: &mut [Affine2]) {
    for i in 0..locals.len() {
        let p = parents[i];
        world[i] = if p == u32::MAX {
            locals[i]
        } else {
            world[p as usize] * locals[i]
        };
    }
}

/// A node of the naive baseline: every node its own heap allocation, children by pointer.
#[allow(clippy::vec_box)] // the boxes are the point: seed 004's pointer tree, one allocation per node
pub struct NaiveNode {
    local: Affine2,
    /// The world matrix computed by the last update.
    pub world: Affine2,
    children: Vec<Box<NaiveNode>>,
}

/// The naive baseline tree (seed 004 §4), built from a scene's locals.
#[allow(clippy::vec_box)]
pub struct NaiveTree {
    roots: Vec<Box<NaiveNode>>,
    deep: bool,
}

impl NaiveTree {
    /// Build the pointer tree from the scene's local matrices (allocated in pre-order).
    pub fn from_scene(scene: &Scene) -> Self {
        let n = scene.len();
        let mut boxes: Vec<Box<NaiveNode>> = (0..n)
            .map(|i| {
                Box::new(NaiveNode {
                    local: scene.local_matrix_at(i),
                    world: Affine2::IDENTITY,
                    children: Vec::new(),
                })
            })
            .collect();
        let mut roots = Vec::new();
        for i in (0..n).rev() {
            let Some(node) = boxes.pop() else { break };
            match scene.parent_index_at(i) {
                Some(p) => boxes[p].children.push(node),
                None => roots.push(node),
            }
        }
        roots.reverse();
        let mut stack: Vec<&mut NaiveNode> = roots.iter_mut().map(|b| &mut **b).collect();
        while let Some(node) = stack.pop() {
            node.children.reverse();
            stack.extend(node.children.iter_mut().map(|b| &mut **b));
        }
        let mut depth = vec![0u32; n];
        for i in 0..n {
            depth[i] = scene.parent_index_at(i).map_or(0, |p| depth[p] + 1);
        }
        let deep = depth.iter().max().copied().unwrap_or(0) > 10_000;
        Self { roots, deep }
    }

    /// Recompute every world matrix: recursive as in the seed, or with an explicit stack for
    /// very deep trees (recursion would overflow the stack).
    pub fn update(&mut self) {
        if self.deep {
            let mut stack: Vec<(&mut NaiveNode, Affine2)> = self
                .roots
                .iter_mut()
                .map(|b| (&mut **b, Affine2::IDENTITY))
                .collect();
            while let Some((node, parent_world)) = stack.pop() {
                let NaiveNode {
                    local,
                    world,
                    children,
                } = node;
                *world = parent_world * *local;
                let w = *world;
                stack.extend(children.iter_mut().map(|c| (&mut **c, w)));
            }
        } else {
            for root in &mut self.roots {
                update_recursive(root, &Affine2::IDENTITY);
            }
        }
    }
}

fn update_recursive(node: &mut NaiveNode, parent_world: &Affine2) {
    node.world = *parent_world * node.local;
    for child in &mut node.children {
        update_recursive(child, &node.world);
    }
}

impl Drop for NaiveTree {
    /// Tear down without recursion (a million-deep chain would overflow the stack).
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.roots);
        while let Some(mut node) = stack.pop() {
            stack.append(&mut node.children);
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Bytes read between two cold runs: more than any last-level cache graft runs on (32 MB here).
const EVICT_BYTES: usize = 128 << 20;

/// Leaves the caches full of clean lines of a buffer of its own, so the next timed run starts
/// from the same state whatever ran before it: the dirty lines an earlier run left (the naive
/// tree dirties the whole cache, graft's update only its world array) are written back here,
/// not during the next measurement.
struct Evictor(Vec<u8>);

impl Evictor {
    fn new() -> Self {
        // Written, not zeroed: zeroed pages may all map to one shared page and evict nothing.
        Self(vec![1u8; EVICT_BYTES])
    }

    /// Read one byte of every 64-byte line.
    fn run(&self) {
        let sum: u64 = self.0.iter().step_by(64).map(|&b| u64::from(b)).sum();
        black_box(sum);
    }
}

/// Measure graft's update, the flat floor and the naive tree on one generated scene.
/// The three are interleaved `rounds` times, the caches emptied of dirty lines before each
/// (`Evictor`), and each figure is the median.
pub fn propagate(shape: GenShape, nodes: usize, rounds: usize, threads: usize) -> PropagateReport {
    crate::model::scene::set_propagation_threads(threads);
    let threads = crate::model::scene::propagation_threads();
    let mut scene = generate(shape, nodes.max(1), 1);
    let n = scene.len();
    scene.update_world();
    let parents = scene.parent_indices().to_vec();
    let locals = scene.local_matrices().to_vec();
    let mut flat_world = vec![Affine2::IDENTITY; n];
    let mut naive = NaiveTree::from_scene(&scene);
    let flat_arrays = (&parents[..], &locals[..]);
    let [full, flat, tree] =
        cold_rounds(&mut scene, flat_arrays, &mut flat_world, &mut naive, rounds);
    let [full_warm, flat_warm] = warm_rounds(&mut scene, flat_arrays, &mut flat_world, rounds);
    PropagateReport {
        nodes: n,
        shape: shape.to_string(),
        threads,
        full_ns_per_node: median(full),
        flat_ns_per_node: median(flat),
        naive_ns_per_node: median(tree),
        full_warm_ns_per_node: median(full_warm),
        flat_warm_ns_per_node: median(flat_warm),
        leaf_edit_ns: leaf_edit_ns(&mut scene, 20_000),
        clean_update_ns: clean_update_ns(&mut scene, 20_000),
        machine_ratio: machine_parallel_ratio(threads),
    }
}

/// The cold rounds: graft's full update, the flat loop over `(parents, locals)` and the naive
/// tree, interleaved, each after an eviction; ns per node of each, in that order.
fn cold_rounds(
    scene: &mut Scene,
    (parents, locals): (&[u32], &[Affine2]),
    flat_world: &mut [Affine2],
    naive: &mut NaiveTree,
    rounds: usize,
) -> [Vec<f64>; 3] {
    let n = scene.len();
    let (mut full, mut flat, mut tree) = (Vec::new(), Vec::new(), Vec::new());
    let evictor = Evictor::new();
    for _ in 0..rounds.max(1) {
        scene.mark_all_dirty();
        evictor.run();
        let t = Instant::now();
        black_box(scene.update_world());
        full.push(t.elapsed().as_nanos() as f64 / n as f64);

        evictor.run();
        let t = Instant::now();
        flat_update(black_box(parents), black_box(locals), flat_world);
        black_box(&flat_world);
        flat.push(t.elapsed().as_nanos() as f64 / n as f64);

        evictor.run();
        let t = Instant::now();
        naive.update();
        black_box(&naive.roots);
        tree.push(t.elapsed().as_nanos() as f64 / n as f64);
    }
    [full, flat, tree]
}

/// The warm rounds: graft's full update and the flat loop, three times each back to back per
/// round; ns per node of each.
fn warm_rounds(
    scene: &mut Scene,
    (parents, locals): (&[u32], &[Affine2]),
    flat_world: &mut [Affine2],
    rounds: usize,
) -> [Vec<f64>; 2] {
    let n = scene.len();
    // Back to back, nothing evicting the arrays in between: cache-resident, as in an app frame
    // that updates everything after the previous frame touched the same arrays.
    let (mut full_warm, mut flat_warm) = (Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        for _ in 0..3 {
            scene.mark_all_dirty();
            let t = Instant::now();
            black_box(scene.update_world());
            full_warm.push(t.elapsed().as_nanos() as f64 / n as f64);
        }
        for _ in 0..3 {
            let t = Instant::now();
            flat_update(black_box(parents), black_box(locals), flat_world);
            black_box(&flat_world);
            flat_warm.push(t.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    [full_warm, flat_warm]
}

/// How much faster `threads` threads do the flat loop when memory is not the limit: each
/// thread updates its own cache-resident copy of a 4,096-node wide scene `REPS / threads`
/// times, all started together, against one thread doing all `REPS`; the median of 7 tries.
/// Perfectly parallel work on real cores gives 1 / threads; cores that share execution units
/// (SMT siblings behind a VM's vCPUs) or slow down when all are busy give more.
pub fn machine_parallel_ratio(threads: usize) -> f64 {
    const REPS: usize = 2048;
    if threads < 2 {
        return 1.0;
    }
    let scene = generate(GenShape::Wide, 4096, 1);
    let parents = scene.parent_indices().to_vec();
    let locals = scene.local_matrices().to_vec();
    let run = |reps: usize| {
        let mut world = vec![Affine2::IDENTITY; locals.len()];
        for _ in 0..reps {
            flat_update(black_box(&parents), black_box(&locals), &mut world);
            black_box(&world);
        }
    };
    let mut ratios = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        run(REPS);
        let one = t.elapsed().as_secs_f64();
        let start = std::sync::Barrier::new(threads);
        let t = std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|| {
                    start.wait();
                    run(REPS / threads);
                });
            }
            start.wait();
            let t = Instant::now();
            run(REPS / threads);
            t
        });
        ratios.push(t.elapsed().as_secs_f64() / one);
    }
    median(ratios)
}

/// Average time of one leaf edit plus the next update.
pub fn leaf_edit_ns(scene: &mut Scene, iterations: usize) -> f64 {
    scene.update_world();
    let leaf_index = (0..scene.len())
        .rev()
        .find(|&i| scene.subtree_len_at(i) == 1)
        .unwrap_or(0);
    let leaf = scene.id_at(leaf_index);
    let t = Instant::now();
    for k in 0..iterations {
        let local = Trs::new(
            Vec2::new(k as f32 * 1e-3, 1.0),
            (k % 360) as f32,
            Vec2::ONE,
            0.0,
        );
        let _ = black_box(scene.set_local(leaf, local));
        black_box(scene.update_world());
    }
    t.elapsed().as_nanos() as f64 / iterations.max(1) as f64
}

/// Average time of an update with nothing dirty.
pub fn clean_update_ns(scene: &mut Scene, iterations: usize) -> f64 {
    scene.update_world();
    let t = Instant::now();
    for _ in 0..iterations {
        black_box(black_box(&mut *scene).update_world());
    }
    t.elapsed().as_nanos() as f64 / iterations.max(1) as f64
}
