//! The command line's progress bar (indicatif): a long load, save or generation shows on stderr
//! what it is doing and how far it got, read from the same [`Progress`] the window's status bar
//! polls (`editor::session::jobs`). The bar is drawn only when stderr is a terminal
//! (indicatif's stderr target hides itself otherwise, and when `TERM` is unset or `dumb`),
//! only once the work has lasted [`DELAY`] (so short runs print nothing), never on stdout (the
//! command's output), and it is cleared when the work ends. `GRAFT_PROGRESS_DELAY_MS`
//! overrides the delay (tests, and trying the bar on a small file).

use crate::error::Result;
use crate::model::file;
use crate::model::progress::{Progress, Stage, Unit};
use crate::model::scene::Scene;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long work runs before its bar appears.
pub const DELAY: Duration = Duration::from_secs(1);
/// How often a shown bar re-reads the progress.
const TICK: Duration = Duration::from_millis(100);

/// What the bar shows for one reading of the progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarView {
    /// "big.ron: reading 45.1 of 223.1 MB", "big.ron: parsing 412,000 nodes".
    pub message: String,
    /// `(done, total)` when the stage knows its total: the bar is drawn filled that far.
    pub fraction: Option<(u64, u64)>,
}

/// The bar's text and fill for `label` in `stage`, `done` of `total` (0: unknown).
pub fn bar_view(label: &str, stage: Stage, done: u64, total: u64) -> BarView {
    let what = stage.describe();
    let message = match stage.amount(done, total) {
        Some(amount) => format!("{label}: {what} {amount}"),
        None => format!("{label}: {what}"),
    };
    let known = total > 0 && stage.unit() != Unit::None;
    BarView {
        message,
        fraction: known.then(|| (done.min(total), total)),
    }
}

/// The delay before a bar appears: [`DELAY`], or `GRAFT_PROGRESS_DELAY_MS`.
fn delay() -> Duration {
    std::env::var("GRAFT_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(DELAY, Duration::from_millis)
}

/// Run `work` with a progress bar on stderr named `label` (when stderr is a terminal and the
/// work outlasts the delay).
pub fn with_progress<T>(label: &str, work: impl FnOnce(&Progress) -> T) -> T {
    with_progress_on(ProgressDrawTarget::stderr(), delay(), label, work)
}

/// [`with_progress`] drawing on `target` after `delay` (tests draw on a recording terminal).
pub fn with_progress_on<T>(
    target: ProgressDrawTarget,
    delay: Duration,
    label: &str,
    work: impl FnOnce(&Progress) -> T,
) -> T {
    let (progress, started) = (Progress::new(), Instant::now());
    if target.is_hidden() {
        return work(&progress); // not a terminal: no thread, nothing drawn
    }
    let (finished, watch) = channel::<()>();
    let shown = {
        let (progress, label) = (progress.clone(), label.to_string());
        std::thread::Builder::new()
            .name("graft-progress".into())
            .spawn(move || show(target, started, delay, &label, &progress, &watch))
    };
    let result = work(&progress);
    drop(finished); // wakes the bar's thread, which clears the bar and ends
    if let Ok(thread) = shown {
        let _ = thread.join();
    }
    result
}

/// The bar's thread: nothing until `delay` has passed, then the progress every [`TICK`] until
/// the work ends, then the bar cleared.
fn show(
    target: ProgressDrawTarget,
    started: Instant,
    delay: Duration,
    label: &str,
    progress: &Progress,
    finished: &Receiver<()>,
) {
    if finished.recv_timeout(delay) != Err(RecvTimeoutError::Timeout) {
        return; // done before the delay: short runs stay clean
    }
    let styles = [
        "{spinner} {msg} {elapsed}",
        "{spinner} {msg} [{bar:30}] {percent:>3}% {elapsed}",
    ]
    .map(|t| {
        ProgressStyle::with_template(t)
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            .progress_chars("=> ")
    });
    // The clock counts from the work's start, not from when the bar appeared.
    let bar = ProgressBar::with_draw_target(None, target).with_elapsed(started.elapsed());
    let mut with_fill = None;
    loop {
        let view = bar_view(label, progress.stage(), progress.done(), progress.total());
        if with_fill != Some(view.fraction.is_some()) {
            with_fill = Some(view.fraction.is_some());
            bar.set_style(styles[usize::from(view.fraction.is_some())].clone());
        }
        if let Some((done, total)) = view.fraction {
            bar.set_length(total);
            bar.set_position(done);
        }
        bar.set_message(view.message);
        bar.tick();
        if finished.recv_timeout(TICK) != Err(RecvTimeoutError::Timeout) {
            break;
        }
    }
    bar.finish_and_clear();
}

/// A file's name for the bar ("big.ron").
fn label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// [`file::load`] with a progress bar.
pub fn load(path: &Path) -> Result<Scene> {
    with_progress(&label(path), |p| file::load_with_progress(path, p))?
        .ok_or_else(|| crate::Error::Refused("cancelled".into()))
}

/// [`file::save`] with a progress bar.
pub fn save(scene: &Scene, path: &Path) -> Result<()> {
    with_progress(&label(path), |p| file::save_with_progress(scene, path, p))
}

/// [`crate::model::atomic_write::write_with_progress`] of `bytes` with a progress bar;
/// `backup` says whether the previous file is kept as `.bak` (scenes yes, exports no).
pub fn write(path: &Path, bytes: &[u8], backup: crate::model::atomic_write::Backup) -> Result<()> {
    with_progress(&label(path), |p| {
        crate::model::atomic_write::write_with_progress(path, bytes, backup, p)
    })
}

/// A scene file's text and its canonical form, with a progress bar (`graft fmt` compares the
/// two).
pub fn read_and_format(path: &Path) -> Result<(String, String)> {
    let cancelled = || crate::Error::Refused("cancelled".into());
    with_progress(&label(path), |p| {
        let text = file::read_text(path, p)?.ok_or_else(cancelled)?;
        let scene = file::parse_with_progress(&text, path, Some(p))?.ok_or_else(cancelled)?;
        Ok((text, file::to_ron_string_with_progress(&scene, p)))
    })
}

/// Work that reports no numbers of its own (an import), shown as `stage` with a spinner.
pub fn in_stage<T>(path: &Path, stage: Stage, work: impl FnOnce() -> T) -> T {
    with_progress(&label(path), |p| {
        p.enter(stage, 0);
        work()
    })
}

/// `graft generate`: a generated scene saved to `path`, with a progress bar; its node count.
pub fn generate_and_save(
    shape: crate::model::generate::GenShape,
    nodes: usize,
    seed: u64,
    path: &Path,
) -> Result<usize> {
    with_progress(&label(path), |p| {
        let scene = crate::model::generate::generate_with(shape, nodes, seed, p)
            .ok_or_else(|| crate::Error::Refused("cancelled".into()))?;
        file::save_with_progress(&scene, path, p)?;
        Ok(scene.len())
    })
}
