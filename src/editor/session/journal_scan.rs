//! The journal folder seen from outside a session: the scan that finds journals whose graft
//! is gone (offered for recovery), the ones a running graft holds, and setting one aside.

use super::journal_base::{BASE_EXTENSION, BASE_TMP_EXTENSION, base_path_of};
use super::journal_folder::{DISCARDED, EXTENSION, KEEP_DISCARDED, open_locked};
use crate::error::{Error, Result};
use crate::model::file_stamp::DiskState;
use crate::model::journal::{self, Summary};
use crate::model::read_limit;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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
    /// How the file on disk compares, by its bytes, with what the journal last knew of it
    /// ([`file_state`]; None until asked, or when the journal does not know).
    pub disk: Option<DiskState>,
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
    adopt_cut_starts(dir);
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
            Some(BASE_EXTENSION | BASE_TMP_EXTENSION) => purge_lone_base(&path),
            _ => {}
        }
    }
    found.orphans.sort_by_key(|o| std::cmp::Reverse(o.modified));
    found
}

/// A journal written anew and cut short before its rename (`NAME.tmp`, nobody holding it):
/// beside its journal it is only a copy of what the journal holds (records go to both while
/// it is written), so it goes; alone (a journal's first start), it is the only record of the
/// work, so it becomes the journal when it holds a start to replay from.
fn adopt_cut_starts(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.extension().is_none_or(|e| e != "tmp") || open_locked(&path, false).is_err() {
            continue;
        }
        let journal_path = path.with_extension(EXTENSION);
        let whole = !journal_path.exists()
            && read_limit::read_bounded(&path, read_limit::JOURNAL)
                .ok()
                .is_some_and(|b| journal::summarize(&b).is_ok());
        if !whole || std::fs::rename(&path, &journal_path).is_err() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Sort one journal into the scan.
fn look_at(path: PathBuf, found: &mut Scan) {
    let file = match open_locked(&path, false) {
        Ok(file) => file,
        Err(_) => {
            let document = read_limit::read_bounded(&path, read_limit::JOURNAL)
                .ok()
                .and_then(|b| journal::summarize(&b).ok())
                .and_then(|s| s.path);
            found.live.push(LiveJournal { path, document });
            return;
        }
    };
    let summary = read_limit::read_bounded(&path, read_limit::JOURNAL)
        .map_err(|e| e.to_string())
        .and_then(|b| journal::summarize(&b).map_err(|e| e.to_string()));
    match summary {
        Ok(summary) if summary.unsaved_changes == 0 => {
            drop(file);
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(base_path_of(&path));
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
                disk: None,
            });
        }
        Err(why) => found.unreadable.push((path, why)),
    }
}

/// How the file a journal was for compares with what the journal last knew of it, by its
/// bytes (streamed): None when the journal does not know (untitled, an older graft's).
pub fn file_state(summary: &Summary) -> Option<DiskState> {
    let path = summary.path.as_deref()?;
    Some(summary.stamp?.stamp().by_contents(Path::new(path)))
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
        let _ = std::fs::remove_file(base_path_of(path));
    }
}

/// Delete a base file whose journal is gone (a start cut short), once it is a day old (a
/// younger one may belong to a journal another graft is writing right now).
fn purge_lone_base(path: &Path) {
    let has_journal = [EXTENSION, DISCARDED]
        .iter()
        .any(|ext| path.with_extension(ext).exists());
    let old = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > Duration::from_secs(24 * 3600));
    if !has_journal && old {
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

/// True when a running graft journals the document at `document` (canonical), or the same
/// file by its (device, inode) `id` (a hard link, a symlink's target); `skip`: journals this
/// process holds: its own and the orphans it is offering.
pub fn held_elsewhere(dir: &Path, skip: &[&Path], document: &str, id: Option<(u64, u64)>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let same = |s: &Summary| {
        s.path.as_deref() == Some(document)
            || id.is_some() && s.stamp.map(|st| (st.dev, st.ino)) == id
    };
    entries.flatten().map(|e| e.path()).any(|path| {
        !skip.contains(&path.as_path())
            && path.extension().is_some_and(|e| e == EXTENSION)
            && open_locked(&path, false).is_err()
            && read_limit::read_bounded(&path, read_limit::JOURNAL)
                .ok()
                .and_then(|b| journal::summarize(&b).ok())
                .is_some_and(|s| same(&s))
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
