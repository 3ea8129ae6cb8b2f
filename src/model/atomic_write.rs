//! Atomic file writes, shared by the scene file, SVG and Godot export.
//!
//! [`atomic_write_with`] guarantees that `PATH` is either left exactly as it was or replaced
//! whole: the new contents go to a hidden temporary file beside the target
//! (`.NAME.tmp-PID` in the same folder), which is flushed and fsynced, then the previous file
//! (if any) is copied to `PATH.bak` ([`backup_path`]), the temporary file is renamed over
//! `PATH`, and the folder is synced (best effort). The new file takes the old file's
//! permissions. On any failure, including a cancel in [`write_with_progress`], the temporary
//! file is removed and `PATH` is untouched.

use crate::error::{Error, Result};
use crate::model::file::CANCELLED;
use crate::model::progress::{Progress, Stage};
use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Bytes written between progress reports and cancel checks.
const CHUNK: usize = 1 << 20;

/// Write `bytes` atomically ([`atomic_write_with`]), reporting [`Stage::Writing`] (bytes
/// written) to `progress`. Cancelled, it stops before the rename: the file is untouched.
pub fn write_with_progress(path: &Path, bytes: &[u8], progress: &Progress) -> Result<()> {
    progress.enter(Stage::Writing, bytes.len() as u64);
    atomic_write_with(path, |file| {
        for (k, chunk) in bytes.chunks(CHUNK).enumerate() {
            if progress.is_cancelled() {
                // The temporary file goes; the file on disk stays as it was.
                return Err(io::Error::new(io::ErrorKind::Interrupted, CANCELLED));
            }
            file.write_all(chunk)?;
            progress.set_done((k * CHUNK + chunk.len()) as u64);
        }
        Ok(())
    })
}

/// `PATH.bak`: where the previous version of a saved file is kept.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

/// Write a file atomically: `write` fills a temporary file in the same folder, which is
/// flushed, synced and renamed over `path`. The previous file is kept as `PATH.bak`. If
/// anything fails, the temporary file is removed and `path` is left exactly as it was.
pub fn atomic_write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = folder_of(path);
    let name = path.file_name().ok_or_else(|| {
        io_err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ))
    })?;
    let tmp = dir.join(temporary_name(name));
    let result = write_and_replace(path, &dir, &tmp, write);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err)
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `.NAME.tmp-PID`: the hidden temporary file beside the target.
fn temporary_name(name: &std::ffi::OsStr) -> OsString {
    let mut tmp_name = OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    tmp_name
}

/// Fill `tmp` with `write`, sync it, back up `path` and rename `tmp` over it; `tmp` is left
/// behind on failure (the caller removes it).
fn write_and_replace(
    path: &Path,
    dir: &Path,
    tmp: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(tmp)?;
    if let Ok(meta) = fs::metadata(path) {
        let _ = file.set_permissions(meta.permissions());
    }
    {
        let mut buffered = io::BufWriter::new(&mut file);
        write(&mut buffered)?;
        buffered.flush()?;
    }
    file.sync_all()?;
    if path.exists() {
        fs::copy(path, backup_path(path))?;
    }
    fs::rename(tmp, path)?;
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
