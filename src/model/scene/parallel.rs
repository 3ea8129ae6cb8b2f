//! Both cores for big updates: the dirty ranges of an update pass are cut at subtree boundaries
//! into tasks whose parents are already computed, the tasks are grouped into contiguous pieces
//! of about equal size (several per thread), and the calling thread and the pool's workers
//! claim pieces until none are left, each writing its own slice of the world array. Small
//! updates stay on one thread; a deep chain, which cannot be cut, runs exactly the
//! single-threaded loop.

use super::store::NO_PARENT;
use super::types::Scene;
use glam::Affine2;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads used for big updates (0: as many as the machine has).
static THREADS: AtomicUsize = AtomicUsize::new(0);
/// Updates recomputing fewer matrices than this stay on one thread.
static PARALLEL_MIN: AtomicUsize = AtomicUsize::new(DEFAULT_PARALLEL_MIN);

/// The default threshold: below it, waking a worker (~50 µs on a 2-vCPU VM) costs about what
/// it saves (measured with `graft bench propagate --threads 1` and `--threads 2` at 40k, 65k and
/// 100k nodes; see docs/measurements.md).
pub const DEFAULT_PARALLEL_MIN: usize = 65_536;

/// Pieces per thread of a big update.
const PIECES_PER_THREAD: usize = 8;

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

/// The threads a pass over `work` nodes may use: 1 below the threshold (see
/// [`set_parallel_threshold`]), else [`propagation_threads`].
pub(crate) fn threads_for(work: usize) -> usize {
    if work < PARALLEL_MIN.load(Ordering::Relaxed) {
        1
    } else {
        propagation_threads()
    }
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
        // Several pieces a thread, so a worker that starts late leaves less for the caller.
        let share = total.div_ceil(threads * PIECES_PER_THREAD);
        self.cut_tasks(&mut tasks, share);
        self.run_tasks(&tasks, threads, share);
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
                let w = under(parent_world, self.data.local(c));
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

    /// Run the tasks (sorted, disjoint) as contiguous pieces of about `share` nodes on the
    /// calling thread and the pool's workers ([`crate::model::pool`]).
    fn run_tasks(&mut self, tasks: &[Task], threads: usize, share: usize) {
        let share = share.max(1);
        let mut pieces: Vec<&[Task]> = Vec::new();
        let (mut from, mut size) = (0, 0);
        for (k, t) in tasks.iter().enumerate() {
            size += t.end - t.start;
            if size >= share {
                pieces.push(&tasks[from..=k]);
                (from, size) = (k + 1, 0);
            }
        }
        if from < tasks.len() {
            pieces.push(&tasks[from..]);
        }
        // Each piece gets its own slice of the world array, taken once by whoever claims it.
        let mut rest: &mut [Affine2] = &mut self.world;
        let mut offset = 0;
        let mut slots = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let (Some(first), Some(last)) = (piece.first(), piece.last()) else {
                continue;
            };
            let (_, tail) = std::mem::take(&mut rest).split_at_mut(first.start - offset);
            let (mine, tail) = tail.split_at_mut(last.end - first.start);
            (rest, offset) = (tail, last.end);
            slots.push(Mutex::new(Some((piece, mine))));
        }
        let (parents, data) = (&self.parent, &self.data);
        let dense = data.dense_locals();
        let work = |_participant: usize, k: usize| {
            let taken = slots.get(k).and_then(|slot| slot.lock().ok()?.take());
            let Some((piece, mine)) = taken else {
                return;
            };
            match dense {
                Some(locals) => run_piece(piece, mine, parents, |i| locals[i]),
                // Instanced nodes share their locals (`column.rs`): read through the references.
                None => run_piece(piece, mine, parents, |i| data.local(i)),
            }
        };
        crate::model::pool::run_pieces(slots.len(), threads, &work);
    }
}

/// One piece's world matrices (its tasks, in order) into `mine`, the world array's slice from
/// the piece's first node; `local` gives a node's local matrix.
fn run_piece(
    piece: &[Task],
    mine: &mut [Affine2],
    parents: &[u32],
    local: impl Fn(usize) -> Affine2,
) {
    let base = piece.first().map_or(0, |t| t.start);
    for t in piece {
        mine[t.start - base] = under(t.parent_world, local(t.start));
        for i in t.start + 1..t.end {
            // Inside a task every parent lies in the task, before its child.
            let p = parents[i] as usize;
            mine[i - base] = mine[p - base] * local(i);
        }
    }
}
