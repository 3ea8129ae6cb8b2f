//! The journal files on disk: where they live, the writer a session holds (locked for as long
//! as the session runs, so a second graft never shares or clobbers it), the flusher that makes
//! every write durable within a second, and the scan that finds journals whose owner is gone.
//!
//! Every change is written (`write(2)`) as soon as `Editor::apply` returns, so a crash, a
//! panic or a `kill -9` of graft loses nothing: the bytes are in the kernel. A thread calls
//! `fdatasync` at most once a second after a write, so a power cut loses at most the last
//! second, and the window never waits for the disk.

use super::journal_base::{self, base_path_of, copy_base, history_frames, sync_later};
use super::journal_folder::{DISCARDED, fresh_name, now_secs, path_text, write_locked};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_stamp::DiskState;
use crate::model::journal::{self, Begin, FileId, Record};
use std::fs::File;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The longest a written change waits for `fdatasync`.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
/// A journal is compacted when it grows past this and past 4 times its last compacted size.
pub const COMPACT_AT: u64 = 8 << 20;

/// The flusher's side: the file (swapped on compaction) and whether it has unsynced bytes.
pub(super) struct Shared {
    slot: Mutex<Slot>,
    dirty: AtomicBool,
    stop: AtomicBool,
}

/// The journal's file, and the records that wait while a big scene's start is written.
#[derive(Default)]
pub(super) struct Slot {
    /// None once the journal was dropped: the lock goes with the last handle at once.
    pub(super) file: Option<File>,
    /// Some while the journal is written anew on a thread: records appended meanwhile (also
    /// written to the current file, when there is one). The thread writes them after the new
    /// start the moment it is on disk (no frame or event needed).
    waiting: Option<Vec<u8>>,
}

impl Shared {
    fn new(file: Option<File>, waiting: Option<Vec<u8>>) -> Arc<Self> {
        Arc::new(Self {
            slot: Mutex::new(Slot { file, waiting }),
            dirty: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        })
    }

    pub(super) fn slot(&self) -> Result<MutexGuard<'_, Slot>> {
        self.slot
            .lock()
            .map_err(|_| Error::Refused("the journal's lock was poisoned".into()))
    }
}

/// Start the thread that syncs `shared`'s file at most once per [`SYNC_EVERY`] after a write.
fn start_flusher(shared: &Arc<Shared>) -> Option<std::thread::JoinHandle<()>> {
    let theirs = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name("graft-journal-sync".into())
        .spawn(move || {
            while !theirs.stop.load(Ordering::Acquire) {
                std::thread::park_timeout(SYNC_EVERY);
                if theirs.dirty.swap(false, Ordering::AcqRel) {
                    let clone = theirs
                        .slot
                        .lock()
                        .ok()
                        .and_then(|s| s.file.as_ref().and_then(|f| f.try_clone().ok()));
                    if let Some(file) = clone {
                        let _ = file.sync_data();
                    }
                }
            }
        });
    match spawned {
        Ok(handle) => Some(handle),
        Err(_) => {
            // No thread: the writer syncs on every write instead (see `JournalFile::append`).
            shared.stop.store(true, Ordering::Release);
            None
        }
    }
}

/// A session's journal, open and locked.
pub struct JournalFile {
    pub(super) path: PathBuf,
    pub(super) shared: Arc<Shared>,
    flusher: Option<std::thread::JoinHandle<()>>,
    pub(super) begin: Begin,
    /// The framed Base record (the scene the history starts from), kept for compaction.
    pub(super) base: Vec<u8>,
    /// The document's path as last recorded (canonical).
    pub(super) recorded_path: Option<String>,
    /// The document's path as it was when `recorded_path` was made from it.
    raw_path: Option<PathBuf>,
    /// The document's file as last recorded ([`Record::Stamp`]).
    pub(super) recorded_stamp: Option<FileId>,
    pub(super) bytes: u64,
    pub(super) compacted_bytes: u64,
    /// A big scene's start being written on a thread.
    pending: Option<StartThread>,
    /// `bytes` when the pending start began (what was written before it is replaced).
    bytes_before_pending: u64,
    /// The document's own file is the base: copy it before the first change is journaled.
    pub(super) copy_on_edit: Option<CopySource>,
}

/// The thread writing a journal's start: it returns the framed base and the start's length.
type StartThread = std::thread::JoinHandle<Result<(Vec<u8>, u64)>>;

/// The file a journal's base names until the first edit, with what it must still be.
pub(super) struct CopySource {
    pub(super) path: PathBuf,
    pub(super) len: u64,
    pub(super) crc: u32,
    pub(super) next_id: u32,
    /// The framed [`Record::Sources`] of the scene as opened (empty: no instances).
    pub(super) sources: Vec<u8>,
}

/// Scenes from this many nodes have their base written on a thread (a 100k-node scene's .ron
/// text takes ~0.2 s to make and write).
pub const BACKGROUND_START_NODES: usize = 20_000;

impl JournalFile {
    /// A new journal in `dir` for `document`: header, Begin, Base and the history so far,
    /// written and synced (a big scene's on a thread; the records appended meanwhile follow
    /// as soon as it is on disk).
    pub fn create(dir: &Path, document: &Document) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Refused(format!("{}: cannot create: {e}", dir.display())))?;
        let path = dir.join(fresh_name());
        let recorded_path = path_text(document.path());
        let begin = Begin {
            path: recorded_path.clone(),
            started: now_secs(),
            graft: env!("CARGO_PKG_VERSION").to_string(),
        };
        let mut start = journal::header();
        start.extend(journal::frame(&Record::Begin(begin.clone()))?);
        if document.scene().len() < BACKGROUND_START_NODES {
            let (origin, history) = journal_base::origin_and_history(document)?;
            let (file, base, len) = journal_base::write_start(&path, start, &origin, &history)?;
            let shared = Shared::new(Some(file), None);
            let this = Self::adopt(path, shared, begin, base, recorded_path, len);
            return Ok(this.seen(document));
        }
        if let Some((base, source)) = journal_base::own_file_base(document) {
            // Opened and not edited: the journal names the file (a few hundred bytes).
            start.extend_from_slice(&base);
            start.extend(journal_base::history_frames(document)?);
            let file = write_locked(&path, &start, "journal-start")?;
            let shared = Shared::new(Some(file), None);
            let mut this = Self::adopt(path, shared, begin, base, recorded_path, 0).seen(document);
            (this.bytes, this.compacted_bytes) = (start.len() as u64, start.len() as u64);
            this.copy_on_edit = document.stamp().map(|stamp| CopySource {
                path: source,
                len: stamp.len(),
                crc: stamp.crc(),
                next_id: document.scene().next_id().0,
                sources: journal_base::sources_frame(document.scene()).unwrap_or_default(),
            });
            return Ok(this);
        }
        // A big untitled or edited scene: its base is streamed beside the journal on a
        // thread (never one string); changes wait in the slot until then.
        let (origin, history) = journal_base::origin_and_history(document)?;
        let scene = origin.into_owned();
        let shared = Shared::new(None, Some(Vec::new()));
        let mut this =
            Self::adopt(path.clone(), shared, begin, Vec::new(), recorded_path, 0).seen(document);
        this.start_on_thread(start, history, move |base| {
            journal_base::write_base(&scene, base)
        })?;
        Ok(this)
    }

    /// Write the journal anew on a thread: `start` (header and Begin), the base record that
    /// `make_base` returns once the base file is made, and `history`; records appended
    /// meanwhile wait in the slot and follow at once.
    fn start_on_thread(
        &mut self,
        start: Vec<u8>,
        history: Vec<u8>,
        make_base: impl FnOnce(&Path) -> Result<Vec<u8>> + Send + 'static,
    ) -> Result<()> {
        if let Ok(mut slot) = self.shared.slot() {
            slot.waiting.get_or_insert_with(Vec::new);
        }
        let theirs = Arc::clone(&self.shared);
        let target = self.path.clone();
        let thread = std::thread::Builder::new()
            .name("graft-journal-start".into())
            .spawn(move || {
                let base = make_base(&journal_base::base_path_of(&target))?;
                let mut bytes = start;
                bytes.extend_from_slice(&base);
                bytes.extend_from_slice(&history);
                let file = write_locked(&target, &bytes, "journal-start")?;
                adopt_started(&theirs, file, &target).map(|()| (base, bytes.len() as u64))
            })
            .map_err(|e| Error::Refused(format!("cannot start the journal's writer: {e}")))?;
        self.bytes_before_pending = self.bytes;
        self.pending = Some(thread);
        Ok(())
    }

    /// The first change of a scene whose file changed under graft before it: the scene the
    /// history starts from is streamed beside the journal on a thread (the records wait).
    pub(super) fn stream_origin_before_first_change(&mut self, document: &Document) -> Result<()> {
        let mut start = journal::header();
        start.extend(journal::frame(&Record::Begin(self.begin.clone()))?);
        let mut history = Vec::new();
        if self.recorded_path != self.begin.path {
            history.extend(journal::frame(&Record::Path(self.recorded_path.clone()))?);
        }
        history.extend(journal_base::history_frames(document)?);
        let origin = document.origin_scene()?;
        self.start_on_thread(start, history, move |base| {
            journal_base::write_base(&origin, base)
        })
    }

    /// Continue a recovered journal: cut it after its last whole record and append there.
    pub fn resume(path: PathBuf, file: File, bytes: &[u8], whole: usize) -> Result<Self> {
        let mut frames = journal::Frames::new(bytes)?;
        let begin = match frames.next_payload().ok().and_then(journal::decode) {
            Some(Record::Begin(begin)) => begin,
            _ => return Err(Error::Refused("the journal has no beginning".into())),
        };
        let base_start = frames.offset();
        frames
            .next_payload()
            .map_err(|_| Error::Refused("the journal holds no scene".into()))?;
        journal::skip_sources(&mut frames); // the base's sources belong to it
        let base = bytes[base_start..frames.offset()].to_vec();
        let summary = journal::summarize(&bytes[..whole])?;
        let mut file = file;
        file.set_len(whole as u64)
            .and_then(|()| file.seek(std::io::SeekFrom::Start(whole as u64)))
            .map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
        let shared = Shared::new(Some(file), None);
        let mut this = Self::adopt(path, shared, begin, base, summary.path, whole as u64);
        // The recovered document's path and stamp are the journal's own.
        this.raw_path = this.recorded_path.as_deref().map(PathBuf::from);
        this.recorded_stamp = summary.stamp;
        Ok(this)
    }

    fn adopt(
        path: PathBuf,
        shared: Arc<Shared>,
        begin: Begin,
        base: Vec<u8>,
        recorded_path: Option<String>,
        bytes: u64,
    ) -> Self {
        let flusher = start_flusher(&shared);
        Self {
            path,
            flusher,
            shared,
            begin,
            base,
            recorded_path,
            raw_path: None,
            recorded_stamp: None,
            bytes,
            compacted_bytes: bytes,
            pending: None,
            bytes_before_pending: 0,
            copy_on_edit: None,
        }
    }

    /// The journal as written from `document` (its path and its file's stamp recorded).
    fn seen(mut self, document: &Document) -> Self {
        self.raw_path = document.path().map(Path::to_path_buf);
        self.recorded_stamp = document.stamp().map(FileId::of);
        self
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the journal began for a file in another folder than `path`'s (a Save As
    /// into another folder happened since).
    pub fn began_in_other_folder(&self, path: Option<&Path>) -> bool {
        let began = self
            .begin
            .path
            .as_deref()
            .map(Path::new)
            .and_then(Path::parent);
        let now = path_text(path);
        began != now.as_deref().map(Path::new).and_then(Path::parent)
    }

    /// Tests: write from now on into `file` (e.g. `/dev/full`, whose writes fail with "no
    /// space left on device", as a full disk's do; the `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn write_into_for_tests(&mut self, file: File) {
        if let Ok(mut slot) = self.shared.slot() {
            slot.file = Some(file);
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.bytes
    }

    /// True before anything was written (never, once created).
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Append the document's new history changes (and its new path, after a Save As). The
    /// bytes are written at once; the flusher syncs them within [`SYNC_EVERY`].
    pub fn record(&mut self, document: &mut Document) -> Result<()> {
        self.finish_start(false)?;
        let changes = document.take_changes();
        // Called every frame: compare without allocating; the path changes only on Save As,
        // the stamp when the file is read or written.
        let moved = document.path() != self.raw_path.as_deref();
        let stamp = document.stamp().map(FileId::of);
        if changes.is_empty() && !moved && stamp == self.recorded_stamp {
            return Ok(());
        }
        if let (Some(source), Some(stamp)) = (&mut self.copy_on_edit, document.stamp()) {
            // Saved with no step (Ctrl+S on an opened file): the file is still the scene the
            // history starts from, as graft has just written it.
            if path_text(document.path()).as_deref() == Some(&*source.path.to_string_lossy()) {
                (source.len, source.crc) = (stamp.len(), stamp.crc());
            }
        }
        let mut out = Vec::new();
        if moved {
            self.raw_path = document.path().map(Path::to_path_buf);
            let path = path_text(document.path());
            if path != self.recorded_path {
                out.extend(journal::frame(&Record::Path(path.clone()))?);
                self.recorded_path = path;
            }
        }
        if stamp != self.recorded_stamp
            && let Some(id) = stamp
        {
            out.extend(journal::frame(&Record::Stamp(id))?);
        }
        self.recorded_stamp = stamp;
        for change in changes {
            out.extend(journal::frame(&Record::Change(change))?);
        }
        if self.copy_on_edit.is_some() && document.history().has_steps() {
            // The first edit: its base goes beside the journal before a record needs it.
            return self.name_base_with_first_edit(document, &out);
        }
        self.append(&out)?;
        if self.pending.is_none()
            && self.bytes > COMPACT_AT
            && self.bytes > 4 * self.compacted_bytes
        {
            self.compact(document)?;
        }
        Ok(())
    }

    /// True once the journal's start is whole on disk (else the start thread's error).
    pub fn started(&mut self) -> Result<bool> {
        self.finish_start(false)?;
        Ok(self.pending.is_none())
    }

    /// Once a big scene's start is on disk (or at once, with `wait`), take its base for
    /// compaction; an error of the start's thread is returned here.
    fn finish_start(&mut self, wait: bool) -> Result<()> {
        if !self
            .pending
            .as_ref()
            .is_some_and(|p| wait || p.is_finished())
        {
            return Ok(());
        }
        let Some(thread) = self.pending.take() else {
            return Ok(());
        };
        let (base, len) = thread
            .join()
            .map_err(|_| Error::Refused("the journal's writer stopped".into()))??;
        self.base = base;
        self.bytes = len + (self.bytes - self.bytes_before_pending);
        self.compacted_bytes = self.bytes;
        Ok(())
    }

    /// Write `bytes` at the end of the journal (or queue them while the start is written).
    pub(super) fn append(&mut self, bytes: &[u8]) -> Result<()> {
        let mut slot = self.shared.slot()?;
        let rewriting = slot.waiting.is_some();
        if let Some(waiting) = slot.waiting.as_mut() {
            // The journal is being written anew: these follow the new start too.
            waiting.extend_from_slice(bytes);
        }
        let Some(file) = slot.file.as_mut() else {
            if !rewriting {
                return Err(Error::Refused("the journal is closed".into()));
            }
            // No file yet (a big scene's first start): the thread writes them.
            drop(slot);
            self.bytes += bytes.len() as u64;
            return Ok(());
        };
        file.write_all(bytes)
            .map_err(|e| Error::Refused(format!("{}: cannot write: {e}", self.path.display())))?;
        if self.shared.stop.load(Ordering::Acquire) {
            let _ = file.sync_data();
        } else {
            self.shared.dirty.store(true, Ordering::Release);
        }
        drop(slot);
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Rewrite the journal as the shortest one that rebuilds `document` (a drag's frames merged
    /// into its one step), through a locked temporary file renamed over the journal.
    pub fn compact(&mut self, document: &Document) -> Result<()> {
        self.finish_start(true)?;
        let path = path_text(document.path());
        let bytes = journal::compacted(&self.begin, &self.base, path.as_deref(), document)?;
        let file = write_locked(&self.path, &bytes, "journal-compacted")?;
        self.shared.slot()?.file = Some(file);
        self.bytes = bytes.len() as u64;
        self.recorded_path = path;
        self.raw_path = document.path().map(Path::to_path_buf);
        self.recorded_stamp = document.stamp().map(FileId::of);
        self.compacted_bytes = self.bytes;
        Ok(())
    }

    /// A clean end: the journal is deleted, or, when the document still has unsaved changes
    /// the user chose to discard, kept as a discarded journal for [`KEEP_DISCARDED`].
    pub fn finish(mut self, unsaved: bool) {
        let _ = self.finish_start(true);
        let path = self.path.clone();
        drop(self);
        if unsaved {
            let _ = std::fs::rename(&path, path.with_extension(DISCARDED));
        } else {
            let _ = std::fs::remove_file(&path);
            let base = journal_base::base_path_of(&path);
            let _ = std::fs::remove_file(base.with_extension(journal_base::BASE_TMP_EXTENSION));
            let _ = std::fs::remove_file(base);
        }
    }
}

/// The start's thread, once the start is on disk: write the records that waited and hand the
/// file to the writer, under the slot's lock so no record is lost or reordered.
fn adopt_started(shared: &Shared, mut file: File, path: &Path) -> Result<()> {
    let mut slot = shared.slot()?;
    let waiting = slot.waiting.take().unwrap_or_default();
    file.write_all(&waiting)
        .map_err(|e| Error::Refused(format!("{}: cannot write: {e}", path.display())))?;
    slot.file = Some(file);
    shared.dirty.store(true, Ordering::Release);
    Ok(())
}

impl Drop for JournalFile {
    fn drop(&mut self) {
        let _ = self.finish_start(true);
        self.shared.stop.store(true, Ordering::Release);
        if let Some(flusher) = self.flusher.take() {
            // Wait for it: a sync in flight holds a duplicate of the file, and with it the lock.
            flusher.thread().unpark();
            let _ = flusher.join();
        }
        if let Ok(mut slot) = self.shared.slot.lock()
            && let Some(file) = slot.file.take()
        {
            let _ = file.sync_data();
        }
    }
}

impl JournalFile {
    /// The first edit of a scene whose base is its own file (`records`: its framed changes).
    /// The file is copied beside the journal (`NAME.base`) first, and only then is the journal
    /// written anew naming the copy, with the history so far (this edit included), renamed
    /// over the old one: at no moment does a journal on disk hold an edit it could not replay
    /// after the file is rewritten. When the copy cannot be made (a full disk), the records go
    /// to the journal as it is (replayable while the file stays as graft read it) and the
    /// error says why.
    pub(super) fn name_base_with_first_edit(
        &mut self,
        document: &Document,
        records: &[u8],
    ) -> Result<()> {
        let Some(source) = self.copy_on_edit.take() else {
            return self.append(records);
        };
        if document.disk_state() != Some(DiskState::Same) {
            self.append(records)?;
            return self.stream_origin_before_first_change(document);
        }
        let base_path = base_path_of(&self.path);
        let named = copy_base(
            &source.path,
            &base_path,
            source.len,
            source.crc,
            source.next_id,
        )
        .and_then(|mut base| {
            base.extend_from_slice(&source.sources);
            self.rewrite_naming(document, base)
        });
        if let Err(e) = named {
            let _ = std::fs::remove_file(&base_path);
            let _ = self.append(records);
            return Err(e);
        }
        sync_later(base_path);
        Ok(())
    }

    /// Write the journal anew: its start, `base` (the framed base record) and the document's
    /// whole history, through a locked temporary file renamed over it.
    fn rewrite_naming(&mut self, document: &Document, base: Vec<u8>) -> Result<()> {
        let mut bytes = journal::header();
        bytes.extend(journal::frame(&Record::Begin(self.begin.clone()))?);
        bytes.extend_from_slice(&base);
        if self.recorded_path != self.begin.path {
            bytes.extend(journal::frame(&Record::Path(self.recorded_path.clone()))?);
        }
        bytes.extend(history_frames(document)?);
        let file = write_locked(&self.path, &bytes, "journal-named")?;
        self.shared.slot()?.file = Some(file);
        self.recorded_stamp = document.stamp().map(journal::FileId::of);
        self.base = base;
        self.bytes = bytes.len() as u64;
        self.compacted_bytes = self.bytes;
        Ok(())
    }
}
