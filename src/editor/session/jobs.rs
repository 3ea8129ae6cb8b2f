//! Long work off the UI thread: opening (or importing) a big file runs on a worker that reports
//! what it is doing (reading, parsing and building, propagating) and how far it got, and can be
//! cancelled. The current scene stays usable; the new one swaps in with one step when it is
//! ready, or, if the current scene was edited meanwhile, after the unsaved-changes prompt.
//! Cancelling (or a bad file) leaves everything as it was.

use crate::editor::session::{Editor, FileAction, Outcome};
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

impl Editor {
    /// The running job, if any, as the UI shows it.
    pub fn job(&self) -> Option<JobView> {
        let job = self.jobs.job.as_ref()?;
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
        self.jobs.background_bytes = bytes;
    }

    /// Scenes with at least this many nodes save on a worker (tests set 0 to always use one).
    #[doc(hidden)]
    pub fn set_background_save_nodes(&mut self, nodes: usize) {
        self.jobs.background_save_nodes = nodes;
    }

    /// How many worker threads this session started are still running, cancelled ones
    /// included (a cancelled job is forgotten at once, its thread returns later). Tests wait
    /// for 0 instead of sleeping before they check what a cancelled worker left behind.
    #[doc(hidden)]
    pub fn workers_running(&self) -> usize {
        self.jobs.workers.load(Ordering::SeqCst)
    }

    /// True when opening `path` should run on a worker.
    pub(super) fn opens_in_background(&self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.len() >= self.jobs.background_bytes)
    }

    /// Start opening `path` on a worker.
    pub(super) fn start_open_job(&mut self, path: PathBuf) -> Result<Outcome> {
        let name = file_name(&path);
        let first = (Stage::Reading, 0);
        self.start_job(
            format!("Opening {name}"),
            "graft-load",
            first,
            move |progress| {
                load(&path, progress)
                    .transpose()
                    .map(|r| r.map(|l| Finished::Loaded(Box::new(l))))
            },
        )?;
        self.info(format!(
            "Opening {name} in the background (Esc or Cancel stops it)"
        ));
        Ok(Outcome::default())
    }

    /// Run `work` on a worker thread with fresh progress, shown under `title` and starting in
    /// `first` (a stage and its total, so the first frame already says what is happening).
    /// `work` returns None when it saw the progress cancelled (nothing is sent: the UI has
    /// forgotten the job).
    pub(super) fn start_job(
        &mut self,
        title: String,
        thread: &str,
        first: (Stage, u64),
        work: impl FnOnce(&Progress) -> Option<Result<Finished>> + Send + 'static,
    ) -> Result<()> {
        if let Some(job) = &self.jobs.job {
            return Err(Error::Refused(format!(
                "{} is still running: wait for it or cancel it",
                job.title
            )));
        }
        let progress = Progress::new();
        progress.enter(first.0, first.1);
        let (tx, rx) = channel();
        let mine = progress.clone();
        self.jobs.workers.fetch_add(1, Ordering::SeqCst);
        let running = Running(self.jobs.workers.clone());
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
        self.jobs.job = Some(Job {
            title,
            progress,
            result: rx,
            started_at: (self.doc.history().labels().0.len(), self.doc.is_modified()),
        });
        Ok(())
    }

    /// Ask the running job to stop; the current scene stays as it is.
    pub(super) fn cancel_job(&mut self) -> Outcome {
        if let Some(job) = self.jobs.job.take() {
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
        let Some(job) = &self.jobs.job else {
            return Ok(Outcome::default());
        };
        let result = match job.result.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return Ok(Outcome::default()),
            Err(TryRecvError::Disconnected) => {
                Err(Error::Refused("the loading worker stopped".into()))
            }
        };
        let Some(job) = self.jobs.job.take() else {
            return Ok(Outcome::default());
        };
        let loaded = match result {
            Ok(Finished::Loaded(loaded)) => *loaded,
            Ok(Finished::Saved {
                path,
                revision,
                stamp,
            }) => return Ok(self.saved(&path, revision, stamp)),
            Ok(Finished::Exported(done)) => return Ok(self.exported(*done)),
            Err(e) => return Err(self.fail(e)),
        };
        let now = (self.doc.history().labels().0.len(), self.doc.is_modified());
        if now != job.started_at && self.doc.is_modified() {
            // Edited while loading: ask before the edits go.
            self.jobs.loaded = Some(loaded);
            self.files.ask_before(FileAction::SwapLoaded);
            return Ok(Outcome::default());
        }
        Ok(self.swap_in(loaded))
    }

    /// Replace the document with a loaded one, in one step.
    pub(super) fn swap_in(&mut self, loaded: Loaded) -> Outcome {
        let Loaded {
            path,
            doc,
            report,
            said,
        } = loaded;
        let mut outcome = self.replace_document(doc);
        if let Some(report) = report {
            let notes = report.lines.len().saturating_sub(1);
            self.report = Some(report);
            if notes > 0 {
                self.windows
                    .insert(crate::editor::session::command::Window::ImportReport);
            }
        } else if let Some(path) = path {
            self.remember(path);
        }
        self.info(said);
        let _ = self.warn_missing_images();
        self.warn_instance_problems();
        give_back_freed_memory();
        outcome
            .effects
            .push(crate::editor::session::command::Effect::FrameAllNextFrame);
        outcome
    }

    /// Save a copy of the scene to `path` on a worker (a big scene: formatting and writing
    /// take seconds); the document is marked saved when it is done, if nothing changed since.
    pub(super) fn start_save_job(&mut self, path: PathBuf) -> Result<Outcome> {
        let mut scene = self.doc.scene().clone();
        // Save As into another folder: the copy names the same images from there (the
        // document follows when the save is done, in `saved`).
        let to = crate::model::scene::sprites::folder_of(&path);
        match self.doc.sprite_folder() {
            Some(from) => _ = scene.rebase_sprites(&from, &to),
            None => _ = scene.relative_sprites(&to), // untitled: as `Document::save_to`
        }
        let revision = self.doc.revision();
        let name = file_name(&path);
        let first = (Stage::Formatting, scene.len() as u64);
        self.start_job(
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
        self.info(format!("Saving {name} in the background"));
        Ok(Outcome::default())
    }

    /// A background save finished.
    fn saved(
        &mut self,
        path: &Path,
        revision: u64,
        stamp: Option<crate::model::file_stamp::FileStamp>,
    ) -> Outcome {
        let folder_before = self.doc.sprite_folder();
        let clean = self.doc.saved_as(path, revision, stamp);
        self.journal_saved();
        self.remember(path.to_path_buf());
        if clean {
            self.info(format!("Saved {}", path.display()));
        } else {
            self.info(format!(
                "Saved {} as it was when the save began; the edits made since are not saved yet",
                path.display()
            ));
        }
        self.warn_images_after_move(folder_before, path);
        give_back_freed_memory();
        Outcome::default()
    }

    /// The answer to the prompt about a loaded scene: swap it in, or drop it.
    pub(super) fn take_loaded(&mut self) -> Outcome {
        match self.jobs.loaded.take() {
            Some(loaded) => self.swap_in(loaded),
            None => Outcome::default(),
        }
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
fn give_back_freed_memory() {
    // SAFETY: mi_collect only walks and frees mimalloc's own free lists; it may be called
    // at any time from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
