//! What one stage of `graft bench instances` prints (`bench_instances.rs` runs the stages,
//! `bench_follow.rs` the follow stages): its measured points and figures, one JSON line.

use super::bench_memory::resident;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One measured point of a stage.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Mark {
    /// What had happened by then.
    pub label: String,
    /// Milliseconds since the stage started.
    pub at_ms: f64,
    /// Resident now, bytes.
    pub rss: Option<u64>,
    /// Resident at most so far, bytes.
    pub peak: Option<u64>,
}

/// What one child process prints (one JSON line).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct InstanceStage {
    /// The stage.
    pub stage: String,
    /// Nodes held at the end.
    pub nodes: usize,
    /// The measured points.
    pub marks: Vec<Mark>,
    /// The timed step, ms (check: the load; window: open to first frame; follow: the follow).
    pub ms: f64,
    /// `follow`: the world update after it, ms.
    pub world_ms: f64,
    /// `check`: the scene's own accounting, bytes by part.
    pub parts: Vec<(String, u64)>,
}

/// The resident memory now, as a point of a stage.
pub(super) fn mark(label: &str, start: Instant) -> Mark {
    let (rss, peak) = resident();
    Mark {
        label: label.into(),
        at_ms: start.elapsed().as_secs_f64() * 1e3,
        rss,
        peak,
    }
}
