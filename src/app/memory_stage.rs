//! The window's part of `graft bench memory`: the app opening a file as `graft FILE` does,
//! frames run headless ([`super::headless`]) until it is loaded, then idle frames. The binary
//! hands this to `tools::bench_memory` (the tools do not import the app).

use super::headless::{FrameStats, Headless};
use crate::editor::Command;
use crate::editor::session::command::FileCommand;
use crate::model::document::Document;
use crate::model::scene::Scene;
use std::mem::size_of;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long the stage stays idle before its steady figure: past mimalloc's default purge
/// delay (1 s).
const SETTLE: Duration = Duration::from_millis(1500);

/// How long the stage waits for the loading worker.
const LOAD_TIMEOUT: Duration = Duration::from_secs(900);

/// What the window's stage ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowRun {
    /// Frames run.
    pub frames: usize,
    /// Nodes in the opened scene.
    pub nodes: usize,
    /// The last frame's tessellated vertices and indices.
    pub mesh: (usize, usize),
}

/// Open `path` in a headless window: an app on an empty scene (as `graft FILE` starts), two
/// frames, `OpenPath`, frames until the worker's scene is swapped in, four more frames, then
/// idle frames at 10 per second. `mark` is called at each checkpoint (the caller measures).
pub fn open_and_idle(path: &Path, mark: &mut dyn FnMut(&str)) -> Result<WindowRun, String> {
    let mut h = Headless::new(Document::untitled(Scene::new()));
    let mut run = WindowRun::default();
    let frame = |h: &mut Headless, run: &mut WindowRun| -> FrameStats {
        run.frames += 1;
        h.frame()
    };
    frame(&mut h, &mut run);
    frame(&mut h, &mut run);
    mark("window running, empty scene (2 frames)");
    h.app
        .run(Command::File(FileCommand::OpenPath(path.to_path_buf())));
    let start = Instant::now();
    let mut stats = frame(&mut h, &mut run);
    while h.app.editor().job().is_some() && start.elapsed() < LOAD_TIMEOUT {
        std::thread::sleep(Duration::from_millis(10));
        stats = frame(&mut h, &mut run);
    }
    if let Some(error) = h.app.editor().error() {
        return Err(format!("the editor could not open the file: {error}"));
    }
    if h.app.editor().job().is_some() {
        return Err("the loading worker did not finish".into());
    }
    mark("file opened: first frame with the scene");
    for _ in 0..4 {
        stats = frame(&mut h, &mut run);
    }
    mark("four more frames");
    // What stays resident once the allocator has returned what the load freed (mimalloc
    // purges after its delay, on a later allocation): idle frames at 10 per second.
    let idle = Instant::now();
    for (label, until) in [
        ("idle 1.5 s (a frame every 0.1 s)", SETTLE),
        ("idle 3 s (steady)", 2 * SETTLE),
    ] {
        while idle.elapsed() < until {
            std::thread::sleep(Duration::from_millis(100));
            stats = frame(&mut h, &mut run);
        }
        mark(label);
    }
    run.nodes = h.app.scene().len();
    run.mesh = (stats.vertices, stats.indices);
    Ok(run)
}

/// The `size_of` of the window's per-row structures, for the report.
pub fn sizes() -> Vec<(&'static str, usize)> {
    vec![(
        "hierarchy Row (one per visible row)",
        size_of::<super::hierarchy::Row>(),
    )]
}
