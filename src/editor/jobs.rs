//! Long work off the UI thread: opening (or importing) a big file runs on a worker that reports
//! what it is doing (reading, parsing and building, propagating) and how far it got, and can be
//! cancelled. The current scene stays usable; the new one swaps in with one step when it is
//! ready, or, if the current scene was edited meanwhile, after the unsaved-changes prompt.
//! Cancelling (or a bad file) leaves everything as it was.

use super::session::{Editor, FileAction, Outcome};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::scene::Scene;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Files at least this big are opened on a worker (smaller ones open at once).
pub const DEFAULT_BACKGROUND_BYTES: u64 = 2 * 1024 * 1024;
/// Bytes read between progress updates and cancel checks.
const CHUNK: usize = 1 << 20;

/// What a background job is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the file's bytes.
    Reading,
    /// Parsing the text and building the scene's arrays.
    Parsing,
    /// Computing every world matrix.
    Propagating,
}

impl Stage {
    fn from_u8(v: u8) -> Stage {
        match v {
            0 => Stage::Reading,
            1 => Stage::Parsing,
            _ => Stage::Propagating,
        }
    }

    /// "reading", "parsing and building", "computing world matrices".
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Reading => "reading",
            Stage::Parsing => "parsing and building",
            Stage::Propagating => "computing world matrices",
        }
    }
}

/// Progress shared between the worker and the UI.
#[derive(Debug, Default)]
struct Shared {
    stage: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
    cancel: AtomicBool,
}

/// What the UI shows of a running job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    /// "Opening big.ron".
    pub title: String,
    /// The current stage.
    pub stage: Stage,
    /// Bytes done of `total` while reading; 0 of 0 when the stage cannot tell.
    pub done: u64,
    /// The stage's total (bytes while reading).
    pub total: u64,
}

impl JobView {
    /// The fraction done, when the stage can tell.
    pub fn fraction(&self) -> Option<f32> {
        (self.total > 0).then(|| (self.done as f64 / self.total as f64) as f32)
    }
}

/// A scene loaded on a worker, not yet swapped in.
pub(super) struct Loaded {
    path: PathBuf,
    doc: Document,
    report: Option<super::interchange::InterchangeReport>,
}

/// A running job.
pub(super) struct Job {
    title: String,
    shared: Arc<Shared>,
    result: Receiver<Result<Loaded>>,
    /// The history's length and modified flag when the job started: edits made while it ran
    /// must not be lost silently.
    started_at: (usize, bool),
}

/// Read a file in chunks, reporting bytes and stopping when cancelled.
fn read_with_progress(path: &Path, shared: &Shared) -> Result<Option<Vec<u8>>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let total = file.metadata().map_err(io)?.len();
    shared.total.store(total, Ordering::Relaxed);
    let mut bytes = Vec::with_capacity(total as usize);
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if shared.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let n = file.read(&mut chunk).map_err(io)?;
        if n == 0 {
            return Ok(Some(bytes));
        }
        bytes.extend_from_slice(&chunk[..n]);
        shared.done.store(bytes.len() as u64, Ordering::Relaxed);
    }
}

/// The worker: read, parse and build, propagate; None when cancelled.
fn load(path: &Path, shared: &Shared) -> Result<Option<Loaded>> {
    let Some(bytes) = read_with_progress(path, shared)? else {
        return Ok(None);
    };
    shared.stage.store(1, Ordering::Relaxed);
    shared.total.store(0, Ordering::Relaxed);
    let godot = super::interchange::is_godot_scene(path);
    let text = String::from_utf8(bytes).map_err(|e| Error::Invalid {
        path: path.to_path_buf(),
        source: Box::new(Error::Format(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))),
    })?;
    let svg = super::interchange::is_svg(path);
    let (mut scene, report): (Scene, _) = if godot {
        let imported = crate::model::godot::import_text(&text, path)?;
        let report = super::interchange::report_of(path, &imported.report);
        (imported.scene, Some(report))
    } else if svg {
        let imported = crate::model::svg::import::import_svg_text(&text, path)?;
        let nodes = imported.scene.len();
        let report = super::interchange::svg_report(path, nodes, &imported.notes);
        (imported.scene, Some(report))
    } else {
        (crate::file::parse(&text, path)?, None)
    };
    drop(text); // the text is not needed once the arrays are built
    if shared.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    shared.stage.store(2, Ordering::Relaxed);
    scene.update_world();
    let doc = if godot || svg {
        Document::untitled(scene)
    } else {
        Document::opened(scene, path)
    };
    Ok(Some(Loaded {
        path: path.to_path_buf(),
        doc,
        report,
    }))
}

impl Editor {
    /// The running job, if any, as the UI shows it.
    pub fn job(&self) -> Option<JobView> {
        let job = self.job.as_ref()?;
        Some(JobView {
            title: job.title.clone(),
            stage: Stage::from_u8(job.shared.stage.load(Ordering::Relaxed)),
            done: job.shared.done.load(Ordering::Relaxed),
            total: job.shared.total.load(Ordering::Relaxed),
        })
    }

    /// Files at least this big open on a worker (tests set 0 to always use one).
    #[doc(hidden)]
    pub fn set_background_bytes(&mut self, bytes: u64) {
        self.background_bytes = bytes;
    }

    /// True when opening `path` should run on a worker.
    pub(super) fn opens_in_background(&self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.len() >= self.background_bytes)
    }

    /// Start opening `path` on a worker.
    pub(super) fn start_open_job(&mut self, path: PathBuf) -> Result<Outcome> {
        if self.job.is_some() {
            return Err(Error::Refused(
                "Another file is still loading: wait for it or cancel it".into(),
            ));
        }
        let shared = Arc::new(Shared::default());
        let (tx, rx) = channel();
        let worker = (shared.clone(), path.clone());
        std::thread::Builder::new()
            .name("graft-load".into())
            .spawn(move || {
                let (shared, path) = worker;
                // Cancelled jobs send nothing: the UI has already forgotten them.
                if let Some(result) = load(&path, &shared).transpose() {
                    let _ = tx.send(result);
                }
            })
            .map_err(|e| Error::Refused(format!("cannot start a worker: {e}")))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.job = Some(Job {
            title: format!("Opening {name}"),
            shared,
            result: rx,
            started_at: (self.doc.history().labels().0.len(), self.doc.is_modified()),
        });
        self.info(format!(
            "Opening {name} in the background (Esc or Cancel stops it)"
        ));
        Ok(Outcome::default())
    }

    /// Ask the running job to stop; the current scene stays as it is.
    pub(super) fn cancel_job(&mut self) -> Outcome {
        if let Some(job) = self.job.take() {
            job.shared.cancel.store(true, Ordering::Relaxed);
            self.info(format!(
                "Cancelled: {} (nothing changed)",
                job.title.to_lowercase()
            ));
        }
        Outcome::default()
    }

    /// Called every frame: swap in a finished job's scene (or report its error).
    pub fn poll_job(&mut self) -> Result<Outcome> {
        let Some(job) = &self.job else {
            return Ok(Outcome::default());
        };
        let result = match job.result.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return Ok(Outcome::default()),
            Err(TryRecvError::Disconnected) => {
                Err(Error::Refused("the loading worker stopped".into()))
            }
        };
        let Some(job) = self.job.take() else {
            return Ok(Outcome::default());
        };
        let loaded = match result {
            Ok(loaded) => loaded,
            Err(e) => return Err(self.fail(e)),
        };
        let now = (self.doc.history().labels().0.len(), self.doc.is_modified());
        if now != job.started_at && self.doc.is_modified() {
            // Edited while loading: ask before the edits go.
            self.loaded = Some(loaded);
            self.pending_guard = Some(FileAction::SwapLoaded);
            return Ok(Outcome::default());
        }
        Ok(self.swap_in(loaded))
    }

    /// Replace the document with a loaded one, in one step.
    pub(super) fn swap_in(&mut self, loaded: Loaded) -> Outcome {
        let Loaded { path, doc, report } = loaded;
        let godot = report.is_some();
        let mut outcome = self.replace_document(doc);
        if let Some(report) = report {
            let notes = report.lines.len().saturating_sub(1);
            self.report = Some(report);
            if notes > 0 {
                self.windows.insert(super::command::Window::ImportReport);
            }
        } else {
            self.remember(path.clone());
        }
        let verb = if godot { "Imported" } else { "Opened" };
        self.info(format!("{verb} {}", path.display()));
        outcome
            .effects
            .push(super::command::Effect::FrameAllNextFrame);
        outcome
    }

    /// The answer to the prompt about a loaded scene: swap it in, or drop it.
    pub(super) fn take_loaded(&mut self) -> Outcome {
        match self.loaded.take() {
            Some(loaded) => self.swap_in(loaded),
            None => Outcome::default(),
        }
    }
}
