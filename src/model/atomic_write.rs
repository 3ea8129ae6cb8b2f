//! Atomic file writes, shared by the scene file, SVG and Godot export.
//!
//! [`atomic_write_with`] guarantees that `PATH` is either left exactly as it was or replaced
//! whole, and that `PATH.bak` is always a whole earlier version:
//!
//! 1. the new contents go to a hidden temporary file beside the target (`.NAME.tmp-PID` in
//!    the same folder, so the rename below cannot cross file systems), flushed and fsynced;
//! 2. the previous file becomes the backup through its own temporary name: a hard link
//!    (`.NAME.bak.tmp-PID`, instant, no copy; a fsynced copy where links are not supported)
//!    renamed over `PATH.bak` — a kill leaves the old `.bak` or the new one, never a torn one;
//! 3. the temporary file is renamed over `PATH`, and the folder is synced (best effort).
//!
//! Through a symbolic link, the file it points to is written, in its own folder (the link
//! stays a link); the backup is always a regular file, copied when the file has other names.
//! On any failure, including a cancel in [`write_with_progress`], the temporary files are
//! removed and `PATH` is untouched. Temporary files of a save that was killed (their process
//! is gone) are removed by the next save of the same file. Exports, which are not the user's
//! documents, write without a backup ([`replace_with`]).

use crate::error::{Error, Result};
use crate::model::file::CANCELLED;
use crate::model::progress::{Progress, Stage};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Bytes written between progress reports and cancel checks.
const CHUNK: usize = 1 << 20;

/// Whether the previous version is kept as `PATH.bak`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// Keep it (scene saves).
    Keep,
    /// Do not (exports and figures: the output is derived from a scene).
    None,
}

/// Write `bytes` atomically ([`write_atomically`]), reporting [`Stage::Writing`] (bytes
/// written) to `progress`. Cancelled, it stops before the rename: the file is untouched.
pub fn write_with_progress(
    path: &Path,
    bytes: &[u8],
    backup: Backup,
    progress: &Progress,
) -> Result<()> {
    progress.enter(Stage::Writing, bytes.len() as u64);
    write_atomically(path, backup, |file| {
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

/// Write a file atomically, keeping the previous one as `PATH.bak` (see the module docs).
pub fn atomic_write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    write_atomically(path, Backup::Keep, write)
}

/// Write a file atomically without keeping a backup (exports).
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    write_atomically(path, Backup::None, write)
}

/// Write a file atomically: `write` fills a temporary file in the same folder, which is
/// flushed, synced and renamed over `path`, after the previous file became `PATH.bak` when
/// `backup` says so. If anything fails, the temporary files are removed and `path` is left
/// exactly as it was.
pub fn write_atomically(
    path: &Path,
    backup: Backup,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    // Through a symbolic link, the file it points to is written (in its own folder), and the
    // link stays a link.
    let real = real_target(path);
    let path = real.as_path();
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(io_err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a folder, not a file",
        )));
    }
    let dir = folder_of(path);
    let name = path.file_name().ok_or_else(|| {
        io_err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ))
    })?;
    remove_stale_temporaries(&dir, name);
    let tmp = dir.join(temporary_name(name, ""));
    let bak_tmp = dir.join(temporary_name(name, ".bak"));
    let result = write_and_replace(path, &dir, &tmp, &bak_tmp, backup, write);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        let _ = fs::remove_file(&bak_tmp);
    }
    result.map_err(io_err)
}

/// The file a write to `path` really replaces: `path` itself, or, when it is a symbolic link
/// (to a file that exists or not yet), the file the link leads to.
pub fn real_target(path: &Path) -> PathBuf {
    if !fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return path.to_path_buf();
    }
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    // A dangling link: the path it names, from the link's folder (one level: enough to
    // write it).
    match fs::read_link(path) {
        Ok(to) => folder_of(path).join(to),
        Err(_) => path.to_path_buf(),
    }
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `.NAME{extra}.tmp-PID`: a hidden temporary file beside the target.
fn temporary_name(name: &OsStr, extra: &str) -> OsString {
    let mut tmp_name = OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(extra);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    tmp_name
}

/// Remove `.NAME.tmp-PID` and `.NAME.bak.tmp-PID` files left by saves of this file whose
/// process is gone (a kill mid-save); a live process's temporaries are left alone.
fn remove_stale_temporaries(dir: &Path, name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let name = name.to_string_lossy();
    let prefixes = [format!(".{name}.tmp-"), format!(".{name}.bak.tmp-")];
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let pid = prefixes
            .iter()
            .find_map(|p| file_name.strip_prefix(p.as_str()))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id()
            && !process_alive(pid)
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// True when a process with this id runs (on systems where that cannot be asked: true, so
/// nothing is removed).
fn process_alive(pid: u32) -> bool {
    #[cfg(target_os = "linux")]
    {
        Path::new("/proc").join(pid.to_string()).exists()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        true
    }
}

/// A test hook: `GRAFT_KILL_AT=STAGE` ends the process at once (as `kill -9` would: no
/// clean-up) when a save (or the journal, `journal-…` stages) reaches that stage, so tests can
/// check what a kill leaves.
#[doc(hidden)]
pub fn kill_point(stage: &str) {
    if std::env::var_os("GRAFT_KILL_AT").is_some_and(|s| s == stage) {
        std::process::abort();
    }
}

/// True when the file at `path` has more than one name (hard links).
fn has_other_names(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).is_ok_and(|m| m.nlink() > 1)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Fill `tmp` with `write`, sync it, back up `path` through `bak_tmp` and rename `tmp` over
/// it; temporaries are left behind on failure (the caller removes them).
fn write_and_replace(
    path: &Path,
    dir: &Path,
    tmp: &Path,
    bak_tmp: &Path,
    backup: Backup,
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
    kill_point("written");
    file.sync_all()?;
    kill_point("synced");
    if backup == Backup::Keep && fs::metadata(path).is_ok_and(|m| m.is_file()) {
        keep_backup(path, bak_tmp)?;
    }
    fs::rename(tmp, path)?;
    kill_point("renamed");
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Make `PATH.bak` the current `path`, atomically: a hard link (or a synced copy) under a
/// temporary name, renamed over the backup.
fn keep_backup(path: &Path, bak_tmp: &Path) -> io::Result<()> {
    let _ = fs::remove_file(bak_tmp);
    // A file with other names (hard links) is copied: a linked backup would be one more
    // name of a file that another name still changes.
    if has_other_names(path) || fs::hard_link(path, bak_tmp).is_err() {
        fs::copy(path, bak_tmp)?;
        kill_point("backup-copied");
        fs::File::open(bak_tmp)?.sync_all()?;
    }
    kill_point("backup-linked");
    fs::rename(bak_tmp, backup_path(path))?;
    // When the backup already was this very file (a save killed between its backup and its
    // rename), rename does nothing and leaves both names: the temporary one goes.
    let _ = fs::remove_file(bak_tmp);
    kill_point("backup-renamed");
    Ok(())
}
