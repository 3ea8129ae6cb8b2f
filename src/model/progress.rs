//! How far long work (loading, saving, generating a big scene) got, shared between the thread
//! doing it and whoever shows it: the window's status bar polls it every frame
//! (`editor::session::jobs`), the command line's progress bar every 100 ms (`tools::progress`). The
//! worker only stores numbers and never waits for the display; the display may cancel.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What long work is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading a file's bytes (`done` of `total` bytes).
    Reading,
    /// Parsing the text (`done` nodes read so far, of about `total`: how often `id:` occurs).
    Parsing,
    /// Checking the nodes and laying out the scene's arrays.
    Building,
    /// Computing every world matrix.
    Propagating,
    /// Generating a scene.
    Generating,
    /// Writing a scene's text (`done` of `total` nodes).
    Formatting,
    /// Writing a file (`done` of `total` bytes).
    Writing,
    /// Drawing an animation's frames (`done` of `total` frames).
    Drawing,
}

/// What a stage's `done` and `total` count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes.
    Bytes,
    /// Nodes.
    Nodes,
    /// Nothing: the stage cannot tell how far it got.
    None,
    /// Frames of an animation.
    Frames,
}

impl Stage {
    const ALL: [Stage; 8] = [
        Stage::Reading,
        Stage::Parsing,
        Stage::Building,
        Stage::Propagating,
        Stage::Generating,
        Stage::Formatting,
        Stage::Writing,
        Stage::Drawing,
    ];

    fn from_u8(v: u8) -> Stage {
        Stage::ALL
            .get(usize::from(v))
            .copied()
            .unwrap_or(Stage::Reading)
    }

    /// "reading", "parsing", "building the scene", "computing world matrices", "generating",
    /// "formatting", "writing".
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Reading => "reading",
            Stage::Parsing => "parsing",
            Stage::Building => "building the scene",
            Stage::Propagating => "computing world matrices",
            Stage::Generating => "generating",
            Stage::Formatting => "formatting",
            Stage::Writing => "writing",
            Stage::Drawing => "drawing frames",
        }
    }

    /// What `done` and `total` count in this stage.
    /// How far the stage got, for people: "45.1 of 223.1 MB", "412,000 of 1,000,000 nodes",
    /// "412,000 nodes"; None when it cannot tell.
    pub fn amount(self, done: u64, total: u64) -> Option<String> {
        match self.unit() {
            Unit::Bytes if total > 0 => Some(format!(
                "{:.1} of {:.1} MB",
                done.min(total) as f64 / 1e6,
                total as f64 / 1e6
            )),
            Unit::Nodes if total > 0 => Some(format!(
                "{} of {} nodes",
                grouped(done.min(total)),
                grouped(total)
            )),
            Unit::Nodes if done > 0 => Some(format!("{} nodes", grouped(done))),
            Unit::Frames if total > 0 => Some(format!("{} of {} frames", done.min(total), total)),
            _ => None,
        }
    }

    /// What the stage counts in.
    pub fn unit(self) -> Unit {
        match self {
            Stage::Reading | Stage::Writing => Unit::Bytes,
            Stage::Parsing | Stage::Formatting | Stage::Generating => Unit::Nodes,
            Stage::Building | Stage::Propagating => Unit::None,
            Stage::Drawing => Unit::Frames,
        }
    }
}

#[derive(Debug, Default)]
struct Shared {
    stage: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
    cancel: AtomicBool,
    /// When each stage was entered, in order (for benchmarks: where the time went).
    entered: Mutex<Vec<(Stage, Instant)>>,
}

/// A handle on one piece of work's progress; clones share it.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Shared>);

impl Progress {
    /// Fresh progress: reading, nothing done, not cancelled.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Enter `stage` with `total` units to do (0 when unknown); `done` starts at 0.
    pub fn enter(&self, stage: Stage, total: u64) {
        self.0.done.store(0, Ordering::Relaxed);
        self.0.total.store(total, Ordering::Relaxed);
        self.0.stage.store(stage as u8, Ordering::Relaxed);
        if let Ok(mut entered) = self.0.entered.lock() {
            entered.push((stage, Instant::now()));
        }
    }

    /// Set the current stage's total (when it becomes known midway).
    pub fn set_total(&self, total: u64) {
        self.0.total.store(total, Ordering::Relaxed);
    }

    /// Set how much of the current stage is done.
    pub fn set_done(&self, done: u64) {
        self.0.done.store(done, Ordering::Relaxed);
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        Stage::from_u8(self.0.stage.load(Ordering::Relaxed))
    }

    /// How much of the current stage is done.
    pub fn done(&self) -> u64 {
        self.0.done.load(Ordering::Relaxed)
    }

    /// The current stage's total; 0 when it cannot tell.
    pub fn total(&self) -> u64 {
        self.0.total.load(Ordering::Relaxed)
    }

    /// Ask the work to stop at its next check.
    pub fn cancel(&self) {
        self.0.cancel.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancel.load(Ordering::Relaxed)
    }

    /// How long each stage entered so far lasted, in order (the last one until now).
    pub fn stage_times(&self) -> Vec<(Stage, Duration)> {
        let now = Instant::now();
        let Ok(entered) = self.0.entered.lock() else {
            return Vec::new();
        };
        entered
            .iter()
            .enumerate()
            .map(|(k, &(stage, at))| {
                let end = entered.get(k + 1).map_or(now, |&(_, next)| next);
                (stage, end.duration_since(at))
            })
            .collect()
    }
}

/// 1234567 → "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
