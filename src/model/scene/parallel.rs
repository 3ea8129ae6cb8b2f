//! Both cores for big updates: the dirty ranges of an update pass are cut at subtree boundaries
//! into tasks whose parents are already computed, the tasks are grouped into contiguous runs of
//! about equal size, and each run is recomputed on its own thread (scoped threads writing
//! disjoint slices of the world array). Small updates stay on one thread; a deep chain, which
//! cannot be cut, runs exactly the single-threaded loop.

use super::{NO_PARENT, Scene};
use glam::Affine2;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads used for big updates (0: as many as the machine has).
static THREADS: AtomicUsize = AtomicUsize::new(0);
/// Updates recomputing fewer matrices than this stay on one thread.
static PARALLEL_MIN: AtomicUsize = AtomicUsize::new(DEFAULT_PARALLEL_MIN);

/// The default threshold: below it, starting threads costs more than it saves (measured with
/// `graft bench propagate --threads 2` on a 2-core machine; see ARCHITECTURE.md).
pub const DEFAULT_PARALLEL_MIN: usize = 32_768;

/// How far a task is followed down a single-child chain looking for a place to cut.
const DESCEND_LIMIT: usize = 64;

/// Use `n` threads for big updates (1: never parallel; 0: as many as the machine has).
pub fn set_propagation_threads(n: usize) {
    THREADS.store(n, Ordering::Relaxed);
}

/// The number of threads big updates use.
pub fn propagation_threads() -> usize {
    match THREADS.load(Ordering::Relaxed) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Updates smaller than `n` matrices stay on one thread (tests lower it to exercise the
/// parallel path on small scenes).
#[doc(hidden)]
pub fn set_parallel_threshold(n: usize) {
    PARALLEL_MIN.store(n, Ordering::Relaxed);
}

/// A run of whole subtrees `[start, end)` whose root's parent world matrix is known (None for
/// a root of the scene, whose world is its local exactly as the single-threaded loop has it).
#[derive(Clone, Copy)]
struct Task {
    start: usize,
    end: usize,
    parent_world: Option<Affine2>,
}

/// parentWorld · local, or local for a root (bit for bit what `recompute_range` computes).
fn under(parent_world: Option<Affine2>, local: Affine2) -> Affine2 {
    parent_world.map_or(local, |p| p * local)
}

impl Scene {
    /// Recompute these disjoint, sorted dirty ranges (each a whole subtree whose parent is
    /// clean), on several threads when they are big enough.
    pub(super) fn recompute_ranges(&mut self, ranges: &[(usize, usize)]) {
        let total: usize = ranges.iter().map(|(a, b)| b - a).sum();
        let threads = propagation_threads();
        if threads < 2 || total < PARALLEL_MIN.load(Ordering::Relaxed) {
            for &(start, end) in ranges {
                self.recompute_range(start, end);
            }
            return;
        }
        let mut tasks = Vec::new();
        for &(start, end) in ranges {
            let parent_world = self.parent_world_of(start);
            tasks.push(Task {
                start,
                end,
                parent_world,
            });
        }
        self.cut_tasks(&mut tasks, total.div_ceil(threads));
        self.run_tasks(&tasks, threads);
    }

    /// The world matrix of the parent of the node at `i` (None for a root).
    fn parent_world_of(&self, i: usize) -> Option<Affine2> {
        match self.parent[i] {
            NO_PARENT => None,
            p => Some(self.world[p as usize]),
        }
    }

    /// Cut tasks bigger than `share` into their children's subtrees (computing the nodes above
    /// the cut here), so the threads get comparable work. A task that is a chain for
    /// `DESCEND_LIMIT` levels stays whole.
    fn cut_tasks(&mut self, tasks: &mut Vec<Task>, share: usize) {
        for _ in 0..64 {
            let Some(k) = (0..tasks.len())
                .filter(|&k| tasks[k].end - tasks[k].start > share)
                .max_by_key(|&k| tasks[k].end - tasks[k].start)
            else {
                break;
            };
            let Some(children) = self.cut(tasks[k]) else {
                break;
            };
            tasks.splice(k..=k, children);
        }
    }

    /// The children subtrees of the first node of `task` that has two or more children,
    /// computing the single-child chain above it; None when there is none nearby.
    fn cut(&mut self, task: Task) -> Option<Vec<Task>> {
        let mut n = task.start;
        let mut chain = Vec::new();
        for _ in 0..DESCEND_LIMIT {
            let end = n + self.subtree_len[n] as usize;
            chain.push(n);
            if end == n + 1 {
                return None; // a leaf: nothing to cut
            }
            let first = n + 1;
            if first + self.subtree_len[first] as usize == end {
                n = first; // one child: follow the chain
                continue;
            }
            // Compute the chain down to n, then hand out n's children.
            let mut parent_world = task.parent_world;
            for &c in &chain {
                let w = under(parent_world, self.local_mat[c]);
                self.world[c] = w;
                parent_world = Some(w);
            }
            let mut out = Vec::new();
            let mut c = first;
            while c < end {
                let len = self.subtree_len[c] as usize;
                out.push(Task {
                    start: c,
                    end: c + len,
                    parent_world,
                });
                c += len;
            }
            return Some(out);
        }
        None
    }

    /// Run the tasks (sorted, disjoint) in `threads` contiguous groups of about equal size.
    fn run_tasks(&mut self, tasks: &[Task], threads: usize) {
        let total: usize = tasks.iter().map(|t| t.end - t.start).sum();
        let share = total.div_ceil(threads).max(1);
        let mut groups: Vec<&[Task]> = Vec::new();
        let (mut from, mut size) = (0, 0);
        for (k, t) in tasks.iter().enumerate() {
            size += t.end - t.start;
            if size >= share && groups.len() + 1 < threads {
                groups.push(&tasks[from..=k]);
                (from, size) = (k + 1, 0);
            }
        }
        if from < tasks.len() {
            groups.push(&tasks[from..]);
        }
        let (parents, locals) = (&self.parent, &self.local_mat);
        let mut rest: &mut [Affine2] = &mut self.world;
        let mut offset = 0;
        let last_group = groups.len().saturating_sub(1);
        std::thread::scope(|scope| {
            for (g, group) in groups.into_iter().enumerate() {
                let (Some(first), Some(last)) = (group.first(), group.last()) else {
                    continue;
                };
                let (_, tail) = std::mem::take(&mut rest).split_at_mut(first.start - offset);
                let (mine, tail) = tail.split_at_mut(last.end - first.start);
                let base = first.start;
                (rest, offset) = (tail, last.end);
                let mut work = move || {
                    for t in group {
                        mine[t.start - base] = under(t.parent_world, locals[t.start]);
                        for i in t.start + 1..t.end {
                            // Inside a task every parent lies in the task, before its child.
                            let p = parents[i] as usize;
                            mine[i - base] = mine[p - base] * locals[i];
                        }
                    }
                };
                // The calling thread takes the last group itself: one thread fewer to start
                // and wake (on this VM a sleeping vCPU can take a while to get going).
                if g == last_group {
                    work();
                } else {
                    scope.spawn(work);
                }
            }
        });
    }
}
