//! The journal files on disk: where they live, the writer a session holds (locked for as long
//! as the session runs, so a second graft never shares or clobbers it), the flusher that makes
//! every write durable within a second, and the scan that finds journals whose owner is gone.
//!
//! Every change is written (`write(2)`) as soon as `Editor::apply` returns, so a crash, a
//! panic or a `kill -9` of graft loses nothing: the bytes are in the kernel. A thread calls
//! `fdatasync` at most once a second after a write, so a power cut loses at most the last
//! second, and the window never waits for the disk.

use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::journal::{self, Begin, Record, Summary};
use crate::model::scene::Scene;
use std::fs::{File, OpenOptions};
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The journal file extension.
pub const EXTENSION: &str = "journal";
/// A discarded journal's extension; such files are deleted after [`KEEP_DISCARDED`].
pub const DISCARDED: &str = "discarded";
/// How long a discarded journal is kept.
pub const KEEP_DISCARDED: Duration = Duration::from_secs(7 * 24 * 3600);
/// The longest a written change waits for `fdatasync`.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
/// A journal is compacted when it grows past this and past 4 times its last compacted size.
pub const COMPACT_AT: u64 = 8 << 20;

/// Where journals live: `GRAFT_JOURNAL_DIR`, else the user's data directory
/// (`$XDG_DATA_HOME/graft/journal`, `~/.local/share/graft/journal` on Linux;
/// `%APPDATA%\graft\journal` on Windows; `~/Library/Application Support/graft/journal` on
/// macOS).
pub fn journal_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GRAFT_JOURNAL_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let home = || {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    };
    let data = if cfg!(windows) {
        std::env::var_os("APPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        home().map(|h| h.join("Library/Application Support"))
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".local/share")))
    }?;
    Some(data.join("graft").join("journal"))
}

/// Seconds since 1970 now.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A document's path as a journal records it.
fn path_text(path: Option<&Path>) -> Option<String> {
    path.map(|p| p.to_string_lossy().into_owned())
}

/// A fresh journal name: time, process and a random part, so two windows never pick one.
fn fresh_name() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{nanos:x}-{}-{:08x}.{EXTENSION}",
        std::process::id(),
        fastrand::u32(..)
    )
}

/// Open `path` for appending and take its exclusive lock, or say who holds it.
fn open_locked(path: &Path, create: bool) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(create)
        .open(path)
        .map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::Refused(format!(
            "{} is in use by another graft",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::Refused(format!(
            "{}: cannot lock: {e}",
            path.display()
        ))),
    }
}

/// The flusher's side: the file (swapped on compaction) and whether it has unsynced bytes.
struct Shared {
    /// None once the journal was dropped: the lock goes with the last handle at once.
    file: Mutex<Option<File>>,
    dirty: AtomicBool,
    stop: AtomicBool,
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
                        .file
                        .lock()
                        .ok()
                        .and_then(|f| f.as_ref().and_then(|f| f.try_clone().ok()));
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

/// Write `bytes` as the whole of `path`, atomically (a locked temporary file, synced, renamed
/// over it); the returned file holds the lock.
fn write_locked(path: &Path, bytes: &[u8]) -> Result<File> {
    let fail = |e: std::io::Error| Error::Refused(format!("{}: {e}", path.display()));
    let temporary = path.with_extension("tmp");
    let _ = std::fs::remove_file(&temporary);
    let mut file = open_locked(&temporary, true)?;
    file.write_all(bytes)
        .and_then(|()| file.sync_data())
        .map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)?;
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all();
    }
    Ok(file)
}

/// A session's journal, open and locked.
pub struct JournalFile {
    path: PathBuf,
    shared: Arc<Shared>,
    flusher: Option<std::thread::JoinHandle<()>>,
    begin: Begin,
    /// The framed Base record (the scene the history starts from), kept for compaction.
    base: Vec<u8>,
    /// The document's path as last recorded.
    recorded_path: Option<String>,
    bytes: u64,
    compacted_bytes: u64,
    /// A big scene's start being written on a thread, and what was recorded meanwhile.
    pending: Option<Pending>,
}

/// A journal's start written on a thread, and the records that wait for it.
struct Pending {
    thread: std::thread::JoinHandle<Result<(File, Vec<u8>, u64)>>,
    buffer: Vec<u8>,
}

/// Scenes from this many nodes have their base written on a thread (a 100k-node scene's .ron
/// text takes ~0.2 s to make and write).
pub const BACKGROUND_START_NODES: usize = 20_000;

/// Write a journal's start (`start`: header and Begin) and `scene` as its base; the locked
/// file, the framed base (kept for compaction) and the length.
fn write_start(path: &Path, mut start: Vec<u8>, scene: &Scene) -> Result<(File, Vec<u8>, u64)> {
    let base = journal::frame(&Record::Base {
        ron: crate::model::file::to_ron_string(scene),
        next_id: scene.next_id().0,
    })?;
    start.extend_from_slice(&base);
    let file = write_locked(path, &start)?;
    Ok((file, base, start.len() as u64))
}

impl JournalFile {
    /// A new journal in `dir` for `document`: header, Begin and Base written and synced.
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
            let (file, base, len) = write_start(&path, start, document.scene())?;
            return Ok(Self::adopt(
                path,
                Some(file),
                begin,
                base,
                recorded_path,
                len,
            ));
        }
        // A big scene: its base is written on a thread; changes wait in memory until then.
        let scene = document.scene().clone();
        let target = path.clone();
        let thread = std::thread::Builder::new()
            .name("graft-journal-start".into())
            .spawn(move || write_start(&target, start, &scene))
            .map_err(|e| Error::Refused(format!("cannot start the journal's writer: {e}")))?;
        let mut this = Self::adopt(path, None, begin, Vec::new(), recorded_path, 0);
        this.pending = Some(Pending {
            thread,
            buffer: Vec::new(),
        });
        Ok(this)
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
        let base = bytes[base_start..frames.offset()].to_vec();
        let recorded_path = journal::summarize(&bytes[..whole])?.path;
        let mut file = file;
        file.set_len(whole as u64)
            .and_then(|()| file.seek(std::io::SeekFrom::Start(whole as u64)))
            .map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
        let mut this = Self::adopt(path, Some(file), begin, base, recorded_path, whole as u64);
        this.compacted_bytes = whole as u64;
        Ok(this)
    }

    fn adopt(
        path: PathBuf,
        file: Option<File>,
        begin: Begin,
        base: Vec<u8>,
        recorded_path: Option<String>,
        bytes: u64,
    ) -> Self {
        let shared = Arc::new(Shared {
            file: Mutex::new(file),
            dirty: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let flusher = start_flusher(&shared);
        Self {
            path,
            flusher,
            shared,
            begin,
            base,
            recorded_path,
            bytes,
            compacted_bytes: bytes,
            pending: None,
        }
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
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
        // Called every frame: compare the path without allocating; it changes only on Save As.
        let moved = document.path().map(|p| p.to_string_lossy()).as_deref()
            != self.recorded_path.as_deref();
        if changes.is_empty() && !moved {
            return Ok(());
        }
        let mut out = Vec::new();
        if moved {
            let path = path_text(document.path());
            out.extend(journal::frame(&Record::Path(path.clone()))?);
            self.recorded_path = path;
        }
        for change in changes {
            out.extend(journal::frame(&Record::Change(change))?);
        }
        self.append(&out)?;
        if self.bytes > COMPACT_AT && self.bytes > 4 * self.compacted_bytes {
            self.compact(document)?;
        }
        Ok(())
    }

    /// Once a big scene's start is on disk (or at once, with `wait`), adopt its file and write
    /// what waited for it.
    fn finish_start(&mut self, wait: bool) -> Result<()> {
        let ready = self
            .pending
            .as_ref()
            .is_some_and(|p| wait || p.thread.is_finished());
        if !ready {
            return Ok(());
        }
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        let (file, base, len) = pending
            .thread
            .join()
            .map_err(|_| Error::Refused("the journal's writer stopped".into()))??;
        if let Ok(mut held) = self.shared.file.lock() {
            *held = Some(file);
        }
        self.base = base;
        self.bytes = len;
        self.compacted_bytes = len;
        self.append(&pending.buffer)
    }

    fn append(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(pending) = &mut self.pending {
            pending.buffer.extend_from_slice(bytes);
            self.bytes += bytes.len() as u64;
            return Ok(());
        }
        let mut held = self
            .shared
            .file
            .lock()
            .map_err(|_| Error::Refused("the journal's lock was poisoned".into()))?;
        let file = held
            .as_mut()
            .ok_or_else(|| Error::Refused("the journal is closed".into()))?;
        file.write_all(bytes)
            .map_err(|e| Error::Refused(format!("{}: cannot write: {e}", self.path.display())))?;
        if self.shared.stop.load(Ordering::Acquire) {
            let _ = file.sync_data();
        } else {
            self.shared.dirty.store(true, Ordering::Release);
        }
        drop(held);
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Rewrite the journal as the shortest one that rebuilds `document` (a drag's frames merged
    /// into its one step), through a locked temporary file renamed over the journal.
    pub fn compact(&mut self, document: &Document) -> Result<()> {
        self.finish_start(true)?;
        let bytes = journal::compacted(&self.begin, &self.base, document)?;
        let file = write_locked(&self.path, &bytes)?;
        if let Ok(mut held) = self.shared.file.lock() {
            *held = Some(file);
        }
        self.bytes = bytes.len() as u64;
        self.recorded_path = path_text(document.path());
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
        }
    }
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
        if let Ok(mut held) = self.shared.file.lock()
            && let Some(file) = held.take()
        {
            let _ = file.sync_data();
        }
    }
}

/// A journal whose owner is gone, held locked while the user decides.
pub struct Orphan {
    /// Its file.
    pub path: PathBuf,
    /// The open file, holding the lock.
    pub file: File,
    /// What it holds.
    pub summary: Summary,
    /// When it was last written.
    pub modified: SystemTime,
}

/// A journal some live graft holds (its lock is taken).
pub struct LiveJournal {
    /// Its file.
    pub path: PathBuf,
    /// The document it journals (None: untitled).
    pub document: Option<String>,
}

/// What a scan of the journal folder found.
#[derive(Default)]
pub struct Scan {
    /// Journals with unsaved work and no owner, newest first.
    pub orphans: Vec<Orphan>,
    /// Journals held by running grafts.
    pub live: Vec<LiveJournal>,
    /// Journals that cannot be read (a newer graft's, or damaged at the start), with why.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// Look through `dir`: take every journal no graft holds; delete those with nothing unsaved
/// and discarded ones past [`KEEP_DISCARDED`]; `skip` is the caller's own journal.
pub fn scan(dir: &Path, skip: Option<&Path>) -> Scan {
    let mut found = Scan::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if Some(path.as_path()) == skip {
            continue;
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some(EXTENSION) => look_at(path, &mut found),
            Some(DISCARDED) => purge_if_old(&path),
            // A compaction cut short: nobody holds it, so it is only a partial copy.
            Some("tmp") if open_locked(&path, false).is_ok() => {
                let _ = std::fs::remove_file(&path);
            }
            _ => {}
        }
    }
    found.orphans.sort_by_key(|o| std::cmp::Reverse(o.modified));
    found
}

/// Sort one journal into the scan.
fn look_at(path: PathBuf, found: &mut Scan) {
    let file = match open_locked(&path, false) {
        Ok(file) => file,
        Err(_) => {
            let document = std::fs::read(&path)
                .ok()
                .and_then(|b| journal::summarize(&b).ok())
                .and_then(|s| s.path);
            found.live.push(LiveJournal { path, document });
            return;
        }
    };
    let summary = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| journal::summarize(&b).map_err(|e| e.to_string()));
    match summary {
        Ok(summary) if summary.unsaved_changes == 0 => {
            drop(file);
            let _ = std::fs::remove_file(&path);
        }
        Ok(summary) => {
            let modified = file
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            found.orphans.push(Orphan {
                path,
                file,
                summary,
                modified,
            });
        }
        Err(why) => found.unreadable.push((path, why)),
    }
}

/// Delete a discarded journal older than [`KEEP_DISCARDED`].
fn purge_if_old(path: &Path) {
    let old = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > KEEP_DISCARDED);
    if old {
        let _ = std::fs::remove_file(path);
    }
}

/// Set a journal aside as discarded (kept for [`KEEP_DISCARDED`], then deleted).
pub fn discard(orphan: Orphan) -> Result<PathBuf> {
    let target = orphan.path.with_extension(DISCARDED);
    std::fs::rename(&orphan.path, &target)
        .map_err(|e| Error::Refused(format!("{}: {e}", orphan.path.display())))?;
    Ok(target)
}

/// True when a running graft journals the document at `document` (`skip`: journals this
/// process holds: its own and the orphans it is offering).
pub fn held_elsewhere(dir: &Path, skip: &[&Path], document: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().map(|e| e.path()).any(|path| {
        !skip.contains(&path.as_path())
            && path.extension().is_some_and(|e| e == EXTENSION)
            && open_locked(&path, false).is_err()
            && std::fs::read(&path)
                .ok()
                .and_then(|b| journal::summarize(&b).ok())
                .is_some_and(|s| s.path.as_deref() == Some(document))
    })
}

/// True when a running graft holds the journal at `path` (its lock is taken).
pub fn is_held(path: &Path) -> bool {
    matches!(
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map(|f| f.try_lock()),
        Ok(Err(std::fs::TryLockError::WouldBlock))
    )
}
