//! Where crash journals live and what they are called: the folder, the extensions, a fresh
//! name per session, a journal's path as recorded (absolute, canonical) and opening one under
//! its exclusive lock. A leaf: the writer (`journal_store`) and the scan (`journal_scan`)
//! both build on it.

use crate::error::{Error, Result};
use crate::model::atomic_write::kill_point;
use crate::model::file_stamp;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The journal file extension.
pub const EXTENSION: &str = "journal";
/// A discarded journal's extension; such files are deleted after [`KEEP_DISCARDED`].
pub const DISCARDED: &str = "discarded";
/// How long a discarded journal is kept.
pub const KEEP_DISCARDED: Duration = Duration::from_secs(7 * 24 * 3600);

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

/// A document's path as a journal records it: absolute and canonical (a journal read from
/// another folder, or a file reached through a link, names the same file).
pub fn path_text(path: Option<&Path>) -> Option<String> {
    path.map(|p| file_stamp::canonical(p).to_string_lossy().into_owned())
}

/// A fresh journal name: time, process and a random part, so two windows never pick one.
pub(super) fn fresh_name() -> String {
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
pub(super) fn open_locked(path: &Path, create: bool) -> Result<File> {
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

/// Write `bytes` as the whole of `path`, atomically (a locked temporary file, synced, renamed
/// over it); the returned file holds the lock.
pub(super) fn write_locked(path: &Path, bytes: &[u8], stage: &str) -> Result<File> {
    let fail = |e: std::io::Error| Error::Refused(format!("{}: {e}", path.display()));
    let temporary = path.with_extension("tmp");
    let _ = std::fs::remove_file(&temporary);
    let mut file = open_locked(&temporary, true)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_data())
        .and_then(|()| {
            kill_point(&format!("{stage}-synced"));
            std::fs::rename(&temporary, path)
        });
    if let Err(e) = written {
        // A full disk or a read-only folder leaves nothing behind.
        drop(file);
        let _ = std::fs::remove_file(&temporary);
        return Err(fail(e));
    }
    kill_point(stage);
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all();
    }
    Ok(file)
}
