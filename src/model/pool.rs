//! A small pool of long-lived worker threads for work split into pieces (big world updates,
//! frame plans). The calling thread always works too and never waits for a worker to start:
//! pieces are claimed one at a time from a shared counter, so a worker that wakes late finds
//! fewer (or no) pieces left, and the caller only waits for pieces a worker has already claimed.
//! Starting a thread per update cost 170–300 µs on a 2-vCPU VM (docs/measurements.md);
//! waking a parked worker costs far less, and a late one no longer delays the result.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// Most workers the pool starts, whatever is asked.
const MAX_WORKERS: usize = 15;

/// The work of one call: `(participant, piece)`, participant 0 being the caller.
type Work = dyn Fn(usize, usize) + Sync;

/// One call's shared state. It outlives the call (a late worker may still hold it), so the
/// borrowed work is reached only through `work`, and only after claiming a piece, which cannot
/// happen once the caller has returned (every piece is claimed by then).
struct Job {
    /// The next piece to claim.
    next: AtomicUsize,
    /// Pieces finished.
    finished: AtomicUsize,
    /// Participants so far (the caller is 0).
    joined: AtomicUsize,
    /// How many pieces there are.
    pieces: usize,
    /// Participants allowed, the caller included.
    participants: usize,
    /// Set when a piece panicked on a worker.
    panicked: AtomicBool,
    /// The CPU the caller was on when it offered the job (-1 when unknown).
    caller_cpu: i32,
    /// The caller's work, its lifetime erased (see the type's comment).
    work: *const Work,
}

// SAFETY: `work` points to a `Sync` closure that is only called while the caller waits for
// the pieces it hands out; everything else in `Job` is atomic or immutable.
unsafe impl Send for Job {}
// SAFETY: as above.
unsafe impl Sync for Job {}

impl Job {
    /// Claim and run pieces until none are left.
    fn help(&self, participant: usize) {
        loop {
            let k = self.next.fetch_add(1, Ordering::AcqRel);
            if k >= self.pieces {
                return;
            }
            // SAFETY: piece k is claimed, so the caller is still waiting for it and `work`
            // is alive.
            let work = unsafe { &*self.work };
            if catch_unwind(AssertUnwindSafe(|| work(participant, k))).is_err() {
                self.panicked.store(true, Ordering::Release);
            }
            self.finished.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// The job on offer and a counter that changes with each new one.
#[derive(Default)]
struct Offer {
    epoch: u64,
    job: Option<Arc<Job>>,
}

/// The workers and how a job is offered to them.
#[derive(Default)]
struct Pool {
    offer: Mutex<Offer>,
    wake: Condvar,
    started: Mutex<usize>,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(Pool::default)
}

impl Pool {
    /// Start workers until there are `n` (at most [`MAX_WORKERS`]); false if none could start.
    fn ensure_workers(&'static self, n: usize) -> bool {
        let Ok(mut started) = self.started.lock() else {
            return false;
        };
        while *started < n.min(MAX_WORKERS) {
            let spawned = std::thread::Builder::new()
                .name(format!("graft-worker-{}", *started + 1))
                .spawn(move || self.serve());
            if spawned.is_err() {
                break;
            }
            *started += 1;
        }
        *started > 0
    }

    /// A worker's life: wait for a new offer, help with it, repeat.
    fn serve(&self) {
        let mut seen = 0;
        loop {
            let job = {
                let Ok(mut offer) = self.offer.lock() else {
                    return;
                };
                while offer.epoch == seen {
                    offer = match self.wake.wait(offer) {
                        Ok(offer) => offer,
                        Err(_) => return,
                    };
                }
                seen = offer.epoch;
                offer.job.clone()
            };
            if let Some(job) = job {
                let participant = job.joined.fetch_add(1, Ordering::AcqRel);
                if participant < job.participants {
                    cpu::leave(job.caller_cpu);
                    job.help(participant);
                }
            }
        }
    }

    /// Offer a job to the workers.
    fn offer(&self, job: Arc<Job>) {
        if let Ok(mut offer) = self.offer.lock() {
            offer.epoch += 1;
            offer.job = Some(job);
            self.wake.notify_all();
        }
    }
}

/// Run `work(participant, piece)` once for every piece in `0..pieces`, on the calling thread
/// (participant 0) and up to `threads - 1` pool workers (participants `1..threads`); returns
/// when every piece is done. Pieces may run in any order and on any participant, but one
/// participant runs its pieces one after another (so per-participant scratch needs no lock).
/// With one thread, or one piece, everything runs here in order.
pub fn run_pieces(pieces: usize, threads: usize, work: &(dyn Fn(usize, usize) + Sync)) {
    if threads < 2 || pieces < 2 || !pool().ensure_workers(threads - 1) {
        for k in 0..pieces {
            work(0, k);
        }
        return;
    }
    // SAFETY: only the lifetime is erased; `Job::help` explains why the pointer is never used
    // after this function returns.
    let work: *const Work =
        unsafe { std::mem::transmute::<&(dyn Fn(usize, usize) + Sync), &'static Work>(work) };
    let job = Arc::new(Job {
        next: AtomicUsize::new(0),
        finished: AtomicUsize::new(0),
        joined: AtomicUsize::new(1),
        pieces,
        participants: threads,
        panicked: AtomicBool::new(false),
        caller_cpu: cpu::current(),
        work,
    });
    pool().offer(Arc::clone(&job));
    job.help(0);
    // Every piece is claimed; wait for the ones still running on workers (at most one each).
    let mut spins = 0u32;
    while job.finished.load(Ordering::Acquire) < pieces {
        if spins < 1 << 12 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
    assert!(
        !job.panicked.load(Ordering::Acquire),
        "a piece of parallel work panicked on a worker thread"
    );
}

/// `f` of every item, in order, computed on the calling thread and up to `threads - 1` pool
/// workers (a few pieces each, see [`run_pieces`]); with one thread or few items, here.
pub fn map_in_pieces<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Vec<R> {
    let pieces = (threads * 4).min(items.len());
    if threads < 2 || pieces < 2 {
        return items.iter().map(f).collect();
    }
    let cells: Vec<Mutex<Vec<R>>> = (0..pieces).map(|_| Mutex::new(Vec::new())).collect();
    let work = |_: usize, k: usize| {
        let (a, b) = (k * items.len() / pieces, (k + 1) * items.len() / pieces);
        let out: Vec<R> = items[a..b].iter().map(f).collect();
        if let Some(cell) = cells.get(k) {
            *cell.lock().unwrap_or_else(|e| e.into_inner()) = out;
        }
    };
    run_pieces(pieces, threads, &work);
    (cells.into_iter())
        .flat_map(|c| c.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Keeping a woken worker off the caller's CPU. On a small VM the kernel may wake the worker
/// on the caller's own CPU (the other vCPU looks busy to it while the host has it halted);
/// the worker then preempts the caller and the two take turns on one core: a two-thread
/// update took as long as one thread in half the calls measured (docs/measurements.md).
#[cfg(target_os = "linux")]
mod cpu {
    /// The CPU this thread runs on (-1 when unknown).
    pub fn current() -> i32 {
        // SAFETY: sched_getcpu has no preconditions.
        unsafe { libc::sched_getcpu() }
    }

    /// If this thread is on `cpu`, move it to the process's other CPUs.
    pub fn leave(cpu: i32) {
        if cpu < 0 || current() != cpu {
            return;
        }
        let Ok(cpu) = usize::try_from(cpu) else {
            return;
        };
        // SAFETY: a zeroed cpu_set_t is a valid empty set; the calls get its real size.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let size = std::mem::size_of::<libc::cpu_set_t>();
            // The process's CPUs (the main thread's mask), not this thread's, which an earlier
            // move may have narrowed.
            if libc::sched_getaffinity(libc::getpid(), size, &mut set) != 0 {
                return;
            }
            if cpu >= 8 * size || !libc::CPU_ISSET(cpu, &set) {
                return;
            }
            libc::CPU_CLR(cpu, &mut set);
            if libc::CPU_COUNT(&set) > 0 {
                libc::sched_setaffinity(0, size, &set);
            }
        }
    }
}

/// Elsewhere the scheduler is left to place the workers.
#[cfg(not(target_os = "linux"))]
mod cpu {
    /// Unknown.
    pub fn current() -> i32 {
        -1
    }

    /// Nothing to do.
    pub fn leave(_cpu: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_in_pieces_keeps_every_item_in_order() {
        for (threads, n) in [(1, 1000), (2, 1000), (2, 3), (3, 7), (8, 1001), (2, 0)] {
            let items: Vec<usize> = (0..n).collect();
            let out = map_in_pieces(&items, threads, &|k| k * 3 + 1);
            let want: Vec<usize> = items.iter().map(|k| k * 3 + 1).collect();
            assert_eq!(out, want, "{threads} threads, {n} items");
        }
    }

    #[test]
    fn every_piece_runs_once_and_participants_stay_in_range() {
        for threads in [1, 2, 3, 8] {
            let counts: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
            let bad = AtomicBool::new(false);
            run_pieces(counts.len(), threads, &|participant, k| {
                if participant >= threads {
                    bad.store(true, Ordering::Relaxed);
                }
                counts[k].fetch_add(1, Ordering::Relaxed);
            });
            assert!(!bad.load(Ordering::Relaxed));
            assert!(
                counts.iter().all(|c| c.load(Ordering::Relaxed) == 1),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn a_panicking_piece_panics_the_caller_and_the_pool_still_works() {
        for bad in [0, 7] {
            let result = std::panic::catch_unwind(|| {
                run_pieces(16, 2, &|_, k| {
                    if k == bad {
                        panic!("piece {k} fails");
                    }
                });
            });
            assert!(result.is_err(), "piece {bad}'s panic reaches the caller");
            let sum = AtomicUsize::new(0);
            run_pieces(16, 2, &|_, k| {
                sum.fetch_add(k, Ordering::Relaxed);
            });
            assert_eq!(
                sum.load(Ordering::Relaxed),
                120,
                "the next call runs every piece"
            );
        }
    }

    #[test]
    fn calls_from_several_threads_at_once_all_finish() {
        std::thread::scope(|scope| {
            for t in 0..4 {
                scope.spawn(move || {
                    for round in 0..200 {
                        let sum = AtomicUsize::new(0);
                        run_pieces(16, 2, &|_, k| {
                            sum.fetch_add(k + t + round, Ordering::Relaxed);
                        });
                        assert_eq!(sum.load(Ordering::Relaxed), 120 + 16 * (t + round));
                    }
                });
            }
        });
    }
}
