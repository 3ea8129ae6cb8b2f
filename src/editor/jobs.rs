//! Long work off the UI thread: opening (or importing) a big file runs on a worker that reports
//! what it is doing (reading, parsing and building, propagating) and how far it got, and can be
//! cancelled. The current scene stays usable; the new one swaps in with one step when it is
//! ready, or, if the current scene was edited meanwhile, after the unsaved-changes prompt.
//! Cancelling (or a bad file) leaves everything as it was.

use super::session::{Editor, FileAction, Outcome};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::model::progress::Progress;
pub use crate::model::progress::Stage;
use crate::scene::Scene;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Files at least this big are opened on a worker (smaller ones open at once).
pub const DEFAULT_BACKGROUND_BYTES: u64 = 2 * 1024 * 1024;

/// What the UI shows of a running job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    /// "Opening big.ron".
    pub title: String,
    /// The current stage.
    pub stage: Stage,
    /// Done of `total` in the stage's unit ([`Stage::unit`]: bytes while reading, nodes parsed
    /// so far while parsing); 0 when the stage cannot tell.
    pub done: u64,
    /// The stage's total (bytes while reading); 0 when not known.
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
    progress: Progress,
    result: Receiver<Result<Loaded>>,
    /// The history's length and modified flag when the job started: edits made while it ran
    /// must not be lost silently.
    started_at: (usize, bool),
}

/// The worker: read, parse and build, propagate; None when cancelled. A `.ron` goes through
/// [`crate::file::load_with_progress`], as the command line's loads do.
fn load(path: &Path, progress: &Progress) -> Result<Option<Loaded>> {
    let godot = super::interchange::is_godot_scene(path);
    let svg = super::interchange::is_svg(path);
    let (scene, report) = if godot || svg {
        let Some(text) = crate::file::read_text(path, progress)? else {
            return Ok(None);
        };
        progress.enter(Stage::Parsing, 0);
        if godot {
            let imported = crate::model::godot::import_text(&text, path)?;
            let report = super::interchange::report_of(path, &imported.report);
            (imported.scene, Some(report))
        } else {
            let imported = crate::model::svg::import::import_svg_text(&text, path)?;
            let nodes = imported.scene.len();
            let report = super::interchange::svg_report(path, nodes, &imported.notes);
            (imported.scene, Some(report))
        }
    } else {
        match crate::file::load_with_progress(path, progress)? {
            Some(scene) => (scene, None),
            None => return Ok(None),
        }
    };
    let mut scene: Scene = scene;
    if progress.is_cancelled() {
        return Ok(None);
    }
    progress.enter(Stage::Propagating, 0);
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
            stage: job.progress.stage(),
            done: job.progress.done(),
            total: job.progress.total(),
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
        let progress = Progress::new();
        let (tx, rx) = channel();
        let worker = (progress.clone(), path.clone());
        std::thread::Builder::new()
            .name("graft-load".into())
            .spawn(move || {
                let (progress, path) = worker;
                // Cancelled jobs send nothing: the UI has already forgotten them.
                if let Some(result) = load(&path, &progress).transpose() {
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
            progress,
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
            job.progress.cancel();
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
