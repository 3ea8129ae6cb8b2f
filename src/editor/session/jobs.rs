//! Long work off the UI thread: opening (or importing) a big file runs on a worker that reports
//! what it is doing (reading, parsing and building, propagating) and how far it got, and can be
//! cancelled. The current scene stays usable; the new one swaps in with one step when it is
//! ready, or, if the current scene was edited meanwhile, after the unsaved-changes prompt.
//! Cancelling (or a bad file) leaves everything as it was. The jobs are the [`Jobs`] part's,
//! handed the document they copy or compare with and the message log; the router swaps in
//! what a finished job hands back.

use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::progress::Progress;
pub use crate::model::progress::Stage;
use crate::model::scene::Scene;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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

/// A scene loaded (or generated) on a worker, not yet swapped in.
pub(super) struct Loaded {
    /// The file it came from (None for a generated scene).
    pub(super) path: Option<PathBuf>,
    pub(super) doc: Document,
    pub(super) report: Option<crate::editor::session::interchange::InterchangeReport>,
    /// What the status line says once it is in: "Opened big.ron".
    pub(super) said: String,
}

/// What a finished job hands back.
pub(super) enum Finished {
    /// A scene, to swap in.
    Loaded(Box<Loaded>),
    /// A scene loaded while the document was edited, held until the unsaved-changes prompt
    /// is answered.
    Held,
    /// A copy of the scene was exported.
    Exported(Box<crate::editor::session::interchange::Exported>),
    /// A copy of the document at `revision` was written to `path`.
    Saved {
        /// Where.
        path: PathBuf,
        /// The document's revision when the save started.
        revision: u64,
        /// The file as written.
        stamp: Option<crate::model::file_stamp::FileStamp>,
    },
}

/// Scenes with at least this many nodes are saved on a worker by Save and Save As.
pub const BACKGROUND_SAVE_NODES: usize = 100_000;

/// A running job.
struct Job {
    title: String,
    progress: Progress,
    result: Receiver<Result<Finished>>,
    /// The history's length and modified flag when the job started: edits made while it ran
    /// must not be lost silently.
    started_at: (usize, bool),
}

/// Background work in the session: the running job, a loaded scene waiting for the
/// unsaved-changes prompt, and the sizes from which opening and saving go to a worker.
pub struct Jobs {
    job: Option<Job>,
    loaded: Option<Loaded>,
    background_bytes: u64,
    background_save_nodes: usize,
    /// Worker threads started here that have not returned yet (cancelled ones included).
    workers: Arc<AtomicUsize>,
}

impl Default for Jobs {
    fn default() -> Self {
        Self {
            job: None,
            loaded: None,
            background_bytes: DEFAULT_BACKGROUND_BYTES,
            background_save_nodes: BACKGROUND_SAVE_NODES,
            workers: Arc::default(),
        }
    }
}

/// Counts one worker as running until its thread's work returns (or panics).
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Jobs {
    /// True while a job runs.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Scenes with at least this many nodes are saved and generated on a worker.
    pub fn save_nodes(&self) -> usize {
        self.background_save_nodes
    }

    /// Forget the loaded scene that waited for the prompt.
    pub fn drop_loaded(&mut self) {
        self.loaded = None;
    }
}

/// The worker: read, parse and build, propagate; None when cancelled. A `.ron` goes through
/// [`crate::model::file::load_with_progress`], as the command line's loads do.
fn load(path: &Path, progress: &Progress) -> Result<Option<Loaded>> {
    let godot = crate::editor::session::interchange::is_godot_scene(path);
    let svg = crate::editor::session::interchange::is_svg(path);
    let mut stamp = None;
    let (scene, report) = if godot || svg {
        use crate::model::read_limit::{SVG, TSCN};
        let limit = if godot { TSCN } else { SVG };
        let Some(text) = crate::model::file::read_text_limited(path, progress, limit)? else {
            return Ok(None);
        };
        progress.enter(Stage::Parsing, 0);
        if godot {
            let imported = crate::model::godot::import_text(&text, path)?;
            let report = crate::editor::session::interchange::report_of(path, &imported.report);
            (imported.scene, Some(report))
        } else {
            let imported = crate::model::svg::import::import_svg_text(&text, path)?;
            let nodes = imported.scene.len();
            let report =
                crate::editor::session::interchange::svg_report(path, nodes, &imported.notes);
            (imported.scene, Some(report))
        }
    } else {
        // Stamped before it is read: a change made meanwhile shows as a change at save.
        stamp = crate::model::file_stamp::FileStamp::read(path).ok();
        match crate::model::file::load_with_progress(path, progress)? {
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
        let mut doc = Document::opened(scene, path);
        doc.set_stamp(stamp);
        doc
    };
    let verb = if report.is_some() {
        "Imported"
    } else {
        "Opened"
    };
    Ok(Some(Loaded {
        path: Some(path.to_path_buf()),
        doc,
        report,
        said: format!("{verb} {}", path.display()),
    }))
}

impl Jobs {
    /// The running job, if any, as the UI shows it.
    pub fn view(&self) -> Option<JobView> {
        let job = self.job.as_ref()?;
        Some(JobView {
            title: job.title.clone(),
            stage: job.progress.stage(),
            done: job.progress.done(),
            total: job.progress.total(),
        })
    }

    /// Files at least this big open on a worker (tests set 0 to always use one).
    pub(super) fn set_background_bytes(&mut self, bytes: u64) {
        self.background_bytes = bytes;
    }

    /// Scenes with at least this many nodes save on a worker (tests set 0 to always use one).
    pub(super) fn set_background_save_nodes(&mut self, nodes: usize) {
        self.background_save_nodes = nodes;
    }

    /// How many worker threads started here are still running, cancelled ones included.
    pub fn workers_running(&self) -> usize {
        self.workers.load(Ordering::SeqCst)
    }

    /// True when opening `path` should run on a worker.
    pub(super) fn opens_in_background(&self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.len() >= self.background_bytes)
    }

    /// True when Save and Save As of `doc` run on a worker (a big scene and no job running).
    pub(super) fn saves_in_background(&self, doc: &Document) -> bool {
        doc.scene().len() >= self.save_nodes() && !self.running()
    }

    /// Start opening `path` on a worker (`doc`, the current document, stays meanwhile).
    pub(super) fn start_open_job(
        &mut self,
        doc: &Document,
        log: &mut MessageLog,
        path: PathBuf,
    ) -> Result<Outcome> {
        let name = file_name(&path);
        let first = (Stage::Reading, 0);
        self.start_job(
            doc,
            format!("Opening {name}"),
            "graft-load",
            first,
            move |progress| {
                load(&path, progress)
                    .transpose()
                    .map(|r| r.map(|l| Finished::Loaded(Box::new(l))))
            },
        )?;
        log.info(format!(
            "Opening {name} in the background (Esc or Cancel stops it)"
        ));
        Ok(Outcome::default())
    }

    /// Run `work` on a worker thread with fresh progress, shown under `title` and starting in
    /// `first` (a stage and its total, so the first frame already says what is happening);
    /// `doc` is the document as the job starts (edits made meanwhile are not lost silently).
    /// `work` returns None when it saw the progress cancelled (nothing is sent: the UI has
    /// forgotten the job).
    pub(super) fn start_job(
        &mut self,
        doc: &Document,
        title: String,
        thread: &str,
        first: (Stage, u64),
        work: impl FnOnce(&Progress) -> Option<Result<Finished>> + Send + 'static,
    ) -> Result<()> {
        if let Some(job) = &self.job {
            return Err(Error::Refused(format!(
                "{} is still running: wait for it or cancel it",
                job.title
            )));
        }
        let progress = Progress::new();
        progress.enter(first.0, first.1);
        let (tx, rx) = channel();
        let mine = progress.clone();
        self.workers.fetch_add(1, Ordering::SeqCst);
        let running = Running(self.workers.clone());
        std::thread::Builder::new()
            .name(thread.into())
            .spawn(move || {
                // Dropped last, after the work and the send.
                let _running = running;
                if let Some(result) = work(&mine) {
                    let _ = tx.send(result);
                }
            })
            .map_err(|e| Error::Refused(format!("cannot start a worker: {e}")))?;
        self.job = Some(Job {
            title,
            progress,
            result: rx,
            started_at: (doc.history().labels().0.len(), doc.is_modified()),
        });
        Ok(())
    }

    /// Ask the running job to stop; the current scene stays as it is.
    pub(super) fn cancel(&mut self, log: &mut MessageLog) -> Outcome {
        if let Some(job) = self.job.take() {
            job.progress.cancel();
            log.info(format!(
                "Cancelled: {} (nothing changed)",
                job.title.to_lowercase()
            ));
        }
        Outcome::default()
    }

    /// Called every frame: what a finished job handed back, if one finished. A loaded scene
    /// while `doc` was edited meanwhile is held ([`Finished::Held`]) until the unsaved-changes
    /// prompt is answered.
    pub(super) fn poll(&mut self, doc: &Document) -> Option<Result<Finished>> {
        let result = match self.job.as_ref()?.result.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => {
                Err(Error::Refused("the loading worker stopped".into()))
            }
        };
        let job = self.job.take()?;
        let loaded = match result {
            Ok(Finished::Loaded(loaded)) => loaded,
            other => return Some(other),
        };
        let now = (doc.history().labels().0.len(), doc.is_modified());
        if now != job.started_at && doc.is_modified() {
            // Edited while loading: ask before the edits go.
            self.loaded = Some(*loaded);
            return Some(Ok(Finished::Held));
        }
        Some(Ok(Finished::Loaded(loaded)))
    }

    /// Save a copy of `doc`'s scene to `path` on a worker (a big scene: formatting and writing
    /// take seconds); the document is marked saved when it is done, if nothing changed since.
    pub(super) fn start_save_job(
        &mut self,
        doc: &Document,
        log: &mut MessageLog,
        path: PathBuf,
    ) -> Result<Outcome> {
        let mut scene = doc.scene().clone();
        // Save As into another folder: the copy names the same images from there (the
        // document follows when the save is done, in `saved`).
        let to = crate::model::scene::sprites::folder_of(&path);
        match doc.sprite_folder() {
            Some(from) => _ = scene.rebase_sprites(&from, &to),
            None => _ = scene.relative_sprites(&to), // untitled: as `Document::save_to`
        }
        let revision = doc.revision();
        let name = file_name(&path);
        let first = (Stage::Formatting, scene.len() as u64);
        self.start_job(
            doc,
            format!("Saving {name}"),
            "graft-save",
            first,
            move |progress| {
                let result = crate::model::file::save_with_progress(&scene, &path, progress);
                drop(scene);
                let stamp = crate::model::file_stamp::FileStamp::read(&path).ok();
                (!progress.is_cancelled()).then(|| {
                    result.map(|()| Finished::Saved {
                        path,
                        revision,
                        stamp,
                    })
                })
            },
        )?;
        log.info(format!("Saving {name} in the background"));
        Ok(Outcome::default())
    }

    /// The loaded scene that waited for the prompt, to swap in.
    pub(super) fn take_loaded(&mut self) -> Option<Loaded> {
        self.loaded.take()
    }
}

/// What a background save that finished says, and the document marked saved (when nothing
/// changed since it began).
pub(super) fn saved_line(
    doc: &mut Document,
    path: &Path,
    revision: u64,
    stamp: Option<crate::model::file_stamp::FileStamp>,
) -> String {
    if doc.saved_as(path, revision, stamp) {
        format!("Saved {}", path.display())
    } else {
        format!(
            "Saved {} as it was when the save began; the edits made since are not saved yet",
            path.display()
        )
    }
}

/// The file name of `path` for messages ("big.ron"), or the whole path when it has none.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Hand the memory freed by a load (the file text, parse buffers, the replaced scene) back to
/// the system at once: mimalloc (the binary's allocator) otherwise keeps it for a while, and
/// after opening a 1M-node file that was ~50 B per node held for nothing. Harmless when
/// mimalloc is not the allocator (its own heap is then empty).
pub(super) fn give_back_freed_memory() {
    // SAFETY: mi_collect only walks and frees mimalloc's own free lists; it may be called
    // at any time from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
