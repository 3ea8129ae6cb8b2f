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
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    journal::frame(&Record::BaseFile {
        path: path.to_string_lossy().into_owned(),
        len,
        crc,
        next_id,
    })
}

/// The document's own file as its journal's base: when it was opened (or saved) and not
/// edited since, and the file on disk is still what graft read. The record, and the file.
pub fn own_file_base(document: &Document) -> Option<(Vec<u8>, PathBuf)> {
    if !document.history().is_empty() || document.disk_state() != Some(DiskState::Same) {
        return None;
    }
    let stamp = document.stamp()?;
    let path = std::path::absolute(document.path()?).ok()?;
    let record = base_file_record(
        &path,
        stamp.len(),
        stamp.crc(),
        document.scene().next_id().0,
    );
    Some((record.ok()?, path))
}

/// Copy `source` to `base` (through a temporary name, synced), checking that the copy has
/// the size and CRC-32 the journal expects; the record naming the copy.
pub fn copy_base(source: &Path, base: &Path, len: u64, crc: u32, next_id: u32) -> Result<Vec<u8>> {
    let fail = |e: io::Error| Error::Refused(format!("{}: {e}", base.display()));
    let temporary = base.with_extension("base-tmp");
    // A fifo or device swapped in for the scene would block or never end the copy.
    crate::model::read_limit::check_regular(source, crate::model::read_limit::SCENE)?;
    let copied = std::fs::copy(source, &temporary)
        .map_err(fail)
        .and_then(|_| {
            let file = std::fs::File::open(&temporary).map_err(fail)?;
            file.sync_all().map_err(fail)?;
            let text = crate::model::journal::read_base_file(&temporary, len, crc);
            text.map(drop)
        });
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    std::fs::rename(&temporary, base).map_err(fail)?;
    base_file_record(base, len, crc, next_id)
}

/// Stream `scene`'s canonical text into `base` (through a temporary name, synced), never as
/// one string; the record naming it.
pub fn write_base(scene: &Scene, base: &Path) -> Result<Vec<u8>> {
    let fail = |e: io::Error| Error::Refused(format!("{}: {e}", base.display()));
    let temporary = base.with_extension("base-tmp");
    let written = (|| {
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
        Ok((len, crc)) => base_file_record(base, len, crc, scene.next_id().0),
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
    let base = journal::frame(&Record::Base {
        ron: crate::model::file::to_ron_string(scene),
        next_id: scene.next_id().0,
    })?;
    start.extend_from_slice(&base);
    start.extend_from_slice(history);
    let file = super::journal_store::write_locked(path, &start)?;
    Ok((file, base, start.len() as u64))
}

/// The scene a document's history starts from (the scene itself when nothing was done yet),
/// and that history as framed records: what a journal begun now must hold to rebuild the
/// document, unsaved changes included.
pub(super) fn origin_and_history(document: &Document) -> Result<(Cow<'_, Scene>, Vec<u8>)> {
    if document.history().is_empty() {
        return Ok((Cow::Borrowed(document.scene()), Vec::new()));
    }
    Ok((
        Cow::Owned(document.origin_scene()?),
        history_frames(document)?,
    ))
}

/// The document's history as framed change records (empty when it has none).
pub(super) fn history_frames(document: &Document) -> Result<Vec<u8>> {
    let mut framed = Vec::new();
    for change in document.history().as_changes() {
        framed.extend(journal::frame(&Record::Change(change))?);
    }
    Ok(framed)
}
