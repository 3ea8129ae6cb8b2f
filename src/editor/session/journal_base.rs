//! A big scene's journal holds no copy of the scene: its base is a `.ron` file named by a
//! [`Record::BaseFile`] (path, size, CRC-32). Opened from a file and not edited, that file is
//! the scene's own (nothing is copied: opening a 1M-node scene writes a few hundred bytes).
//! Once the first edit is journaled the file is copied beside the journal (`NAME.base`, by
//! the kernel, on a thread), so another program rewriting or deleting it cannot take the base
//! away; an untitled or already edited big scene has its base streamed there from the scene.
//! Also here: a journal's start (header, Begin, base, the history so far) as written.

use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_stamp::DiskState;
use crate::model::journal::{self, Record};
use crate::model::scene::Scene;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The base file beside a journal: `NAME.base`.
pub fn base_path_of(journal: &Path) -> PathBuf {
    journal.with_extension(BASE_EXTENSION)
}

/// The extension of a journal's base file.
pub const BASE_EXTENSION: &str = "base";

/// The framed record naming a base file.
pub fn base_file_record(path: &Path, len: u64, crc: u32, next_id: u32) -> Result<Vec<u8>> {
    let path = crate::model::file_stamp::canonical(path);
    journal::frame(&Record::BaseFile {
        path: path.to_string_lossy().into_owned(),
        len,
        crc,
        next_id,
    })
}

/// The framed [`Record::Sources`] that follows a base whose scene has instances: their
/// sources as the scene holds them (empty when it has none).
pub fn sources_frame(scene: &Scene) -> Result<Vec<u8>> {
    match crate::model::instance::snapshot::Snapshot::of(scene) {
        Some(snapshot) => journal::frame(&Record::Sources(Box::new(snapshot))),
        None => Ok(Vec::new()),
    }
}

/// The document's own file as its journal's base: when it was opened (or saved) and not
/// edited since, and the file on disk is still what graft read. The record (its sources'
/// record after it), and the file.
pub fn own_file_base(document: &Document) -> Option<(Vec<u8>, PathBuf)> {
    if !document.history().is_empty() || document.disk_state() != Some(DiskState::Same) {
        return None;
    }
    let stamp = document.stamp()?;
    let path = crate::model::file_stamp::canonical(document.path()?);
    let record = base_file_record(
        &path,
        stamp.len(),
        stamp.crc(),
        document.scene().next_id().0,
    );
    let mut record = record.ok()?;
    record.extend(sources_frame(document.scene()).ok()?);
    Some((record, path))
}

/// Copy `source` to `base` (through `NAME.base-tmp`, by the kernel), checking that the copy
/// has the size and CRC-32 the journal expects (streamed, never held); the record naming the
/// copy. Not synced here: [`sync_later`] makes it durable without holding the window.
pub fn copy_base(source: &Path, base: &Path, len: u64, crc: u32, next_id: u32) -> Result<Vec<u8>> {
    let fail = |e: io::Error| Error::Refused(format!("{}: {e}", base.display()));
    let temporary = base.with_extension(BASE_TMP_EXTENSION);
    // A fifo or device swapped in for the scene would block or never end the copy.
    crate::model::read_limit::check_regular(source, crate::model::read_limit::SCENE)?;
    let copied = full_for_tests()
        .and_then(|()| std::fs::copy(source, &temporary))
        .and_then(|_| {
            crate::model::atomic_write::kill_point("journal-base-copied");
            crate::model::file_stamp::len_and_crc(&temporary)
        })
        .map_err(fail)
        .and_then(|found| {
            if found == (len, crc) {
                return Ok(());
            }
            Err(Error::Refused(format!(
                "the scene this journal starts from, {}, changed since graft read it \
                 (it is {} bytes; graft read {len} bytes with another checksum)",
                source.display(),
                found.0
            )))
        });
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    std::fs::rename(&temporary, base).map_err(fail)?;
    crate::model::atomic_write::kill_point("journal-base-installed");
    base_file_record(base, len, crc, next_id)
}

/// Sync `file` to the disk on a thread of its own (a copied base: a power cut right after the
/// first edit is the only thing it guards against, and the window should not wait for it).
pub fn sync_later(file: PathBuf) {
    let _ = std::thread::Builder::new()
        .name("graft-journal-base-sync".into())
        .spawn(move || {
            if let Ok(f) = File::open(&file) {
                let _ = f.sync_all();
            }
        });
}

/// The extension of a base file being written.
pub const BASE_TMP_EXTENSION: &str = "base-tmp";

/// Tests: base files (copied or streamed) fail as on a full disk while this is set (the
/// `test-hooks` feature).
#[cfg(any(test, feature = "test-hooks"))]
static FULL_FOR_TESTS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tests: make every base file written from now on fail with "no space left on device" (as
/// on a journal folder too small for a big scene's base), or stop doing so.
#[cfg(any(test, feature = "test-hooks"))]
pub fn set_full_for_tests(full: bool) {
    FULL_FOR_TESTS.store(full, std::sync::atomic::Ordering::SeqCst);
}

/// The injected full disk of `set_full_for_tests`, as an error (never without the hooks).
fn full_for_tests() -> io::Result<()> {
    #[cfg(any(test, feature = "test-hooks"))]
    if FULL_FOR_TESTS.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(io::Error::from_raw_os_error(28));
    }
    Ok(())
}

/// Stream `scene`'s canonical text into `base` (through a temporary name, synced), never as
/// one string; the record naming it.
pub fn write_base(scene: &Scene, base: &Path) -> Result<Vec<u8>> {
    let fail = |e: io::Error| Error::Refused(format!("{}: {e}", base.display()));
    let temporary = base.with_extension(BASE_TMP_EXTENSION);
    let written = (|| {
        full_for_tests()?;
        let file = std::fs::File::create(&temporary)?;
        let mut sink = Checked {
            inner: io::BufWriter::with_capacity(1 << 20, &file),
            len: 0,
            crc: crc32fast::Hasher::new(),
        };
        crate::model::file::write_ron(scene, &mut sink, None)?;
        sink.inner.flush()?;
        let Checked { inner, len, crc } = sink;
        drop(inner);
        let crc = crc.finalize();
        file.sync_all()?;
        std::fs::rename(&temporary, base)?;
        Ok((len, crc))
    })();
    match written {
        Ok((len, crc)) => {
            let mut record = base_file_record(base, len, crc, scene.next_id().0)?;
            record.extend(sources_frame(scene)?);
            Ok(record)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            Err(fail(e))
        }
    }
}

/// A writer that counts and checksums what passes through.
struct Checked<W: Write> {
    inner: W,
    len: u64,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Write a journal's start (`start`: header and Begin), `scene` as its base and `history`
/// (the document's changes so far, framed); the locked file, the framed base (kept for
/// compaction) and the length.
pub(super) fn write_start(
    path: &Path,
    mut start: Vec<u8>,
    scene: &Scene,
    history: &[u8],
) -> Result<(File, Vec<u8>, u64)> {
    let mut base = journal::frame(&Record::Base {
        ron: crate::model::file::to_ron_string(scene),
        next_id: scene.next_id().0,
    })?;
    base.extend(sources_frame(scene)?);
    start.extend_from_slice(&base);
    start.extend_from_slice(history);
    let file = super::journal_folder::write_locked(path, &start, "journal-start")?;
    Ok((file, base, start.len() as u64))
}

/// The scene a document's history starts from (the scene itself when nothing was done yet),
/// and that history as framed records: what a journal begun now must hold to rebuild the
/// document, unsaved changes included.
pub(super) fn origin_and_history(document: &Document) -> Result<(Cow<'_, Scene>, Vec<u8>)> {
    if document.history().is_empty() {
        return Ok((Cow::Borrowed(document.scene()), history_frames(document)?));
    }
    Ok((
        Cow::Owned(document.origin_scene()?),
        history_frames(document)?,
    ))
}

/// The document's file's stamp (when it has one) and its history, as framed records.
pub(super) fn history_frames(document: &Document) -> Result<Vec<u8>> {
    let mut framed = Vec::new();
    if let Some(stamp) = document.stamp() {
        framed.extend(journal::frame(&Record::Stamp(journal::FileId::of(stamp)))?);
    }
    for change in document.history().as_changes() {
        framed.extend(journal::frame(&Record::Change(change))?);
    }
    Ok(framed)
}
