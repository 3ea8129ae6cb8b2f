//! Recovering a journal another graft left: what the prompt offers (and says about the file
//! on disk, by its bytes), the answers, rebuilding the document, and journals whose recovery
//! stopped graft set aside.

use super::journal_folder;
use super::journal_scan::{self, Orphan};
use super::journal_store::JournalFile;
use super::messages::MessageLog;
use crate::editor::Outcome;
use crate::editor::session::command::Effect;
use crate::error::{Error, Result};
use crate::model::file_stamp::DiskState;
use crate::model::journal::{self, Stop};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A journal being recovered leaves this mark (`NAME.recovering`) until the recovered scene
/// has been drawn; a mark found at start means the recovery itself stopped graft.
pub const RECOVERING: &str = "recovering";

/// The answer to "Recover the unsaved changes …?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryAnswer {
    /// Rebuild the scene and its history from the journal.
    Recover,
    /// Set the journal aside (kept for a week, then deleted).
    Discard,
    /// Leave it; ask again next time.
    Later,
}

/// What the recovery prompt shows.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveryOffer {
    /// The scene's file, or "untitled".
    pub document: String,
    /// Steps of edits in the journal.
    pub edits: usize,
    /// Changes since the last save.
    pub unsaved_changes: usize,
    /// When the journal was last written, as a local clock time.
    pub last_at: String,
    /// The journal's file.
    pub journal: PathBuf,
    /// How many more journals wait after this one.
    pub more: usize,
    /// The scene's file was saved after the journal's last change: recovering would bring
    /// back an older state. When it was saved, as a clock time.
    pub older_than_file: Option<String>,
    /// The file on disk is not the one the journal last knew (its bytes differ, or it is
    /// gone): what the journal says, shown in the prompt; the first save asks before
    /// overwriting it.
    pub file_changed: Option<String>,
}

/// A journal rebuilt into a document, waiting to become the session's.
pub(super) struct Recovered {
    /// The rebuilt document, its history included.
    pub(super) document: crate::model::document::Document,
    /// The journal, resumed: it goes on recording the recovered document.
    file: JournalFile,
    /// How many changes it held.
    changes: usize,
    /// How the journal ended.
    stop: Stop,
}

impl Recovered {
    /// True when the journal names its file relative to the folder its graft ran in (an older
    /// graft's): the first save asks before writing what that name means here.
    pub(super) fn relative_path(&self) -> bool {
        self.document.path().is_some_and(Path::is_relative)
    }
}

/// The journal waiting for an answer (the first of `orphans`), as the prompt shows it.
pub(super) fn offer(orphans: &[Orphan]) -> Option<RecoveryOffer> {
    let orphan = orphans.first()?;
    let summary = &orphan.summary;
    let saved = summary
        .path
        .as_deref()
        .and_then(|p| std::fs::metadata(p).ok())
        .and_then(|m| m.modified().ok())
        .filter(|saved| *saved > orphan.modified);
    Some(RecoveryOffer {
        document: summary.path.clone().unwrap_or_else(|| "untitled".into()),
        edits: summary.edits,
        unsaved_changes: summary.unsaved_changes,
        last_at: local_clock(orphan.modified),
        journal: orphan.path.clone(),
        more: orphans.len() - 1,
        older_than_file: saved.map(local_clock),
        file_changed: orphan_file_note(orphan),
    })
}

/// Refused when no journal is waiting to be recovered.
pub(super) fn any_orphan(orphans: &[Orphan]) -> Result<()> {
    if orphans.is_empty() {
        return Err(Error::Refused(
            "No journal is waiting to be recovered".into(),
        ));
    }
    Ok(())
}

/// The answer to the recovery prompt, carried out on the first of `orphans` (unsaved changes
/// already asked about): set aside or left, or rebuilt into a document, its recovery marked
/// in `recovering` (returned: the caller makes it the session's, then resumes its journal).
pub(super) fn answer(
    orphans: &mut Vec<Orphan>,
    recovering: &mut Option<(PathBuf, u32)>,
    log: &mut MessageLog,
    answer: RecoveryAnswer,
) -> Result<Option<Recovered>> {
    any_orphan(orphans)?;
    let orphan = orphans.remove(0);
    let name = orphan
        .summary
        .path
        .clone()
        .unwrap_or_else(|| "untitled".into());
    match answer {
        RecoveryAnswer::Recover => rebuild(orphan, recovering).map(Some),
        RecoveryAnswer::Discard => {
            let kept = journal_scan::discard(orphan)?;
            log.info(format!(
                "Set aside the unsaved changes to {name} (kept a week as {})",
                kept.display()
            ));
            Ok(None)
        }
        RecoveryAnswer::Later => {
            drop(orphan);
            log.info(format!(
                "The unsaved changes to {name} stay in the journal; graft asks again next time"
            ));
            Ok(None)
        }
    }
}

/// Rebuild the orphan's document and resume its journal; the document in place still has
/// its own journal until the recovered one is resumed.
fn rebuild(orphan: Orphan, recovering: &mut Option<(PathBuf, u32)>) -> Result<Recovered> {
    // If rebuilding or drawing the recovered scene stops graft, the next start finds this
    // mark and sets the journal aside instead of offering it again (no crash loop).
    let mark = orphan.path.with_extension(RECOVERING);
    let _ = std::fs::write(&mark, orphan.path.to_string_lossy().as_bytes());
    *recovering = Some((mark, 0));
    let bytes =
        crate::model::read_limit::read_bounded(&orphan.path, crate::model::read_limit::JOURNAL)
            .map_err(|e| Error::Refused(e.to_string()))?;
    let recovered = journal::recover(&bytes).map_err(|e| {
        Error::Refused(format!(
            "Could not recover {} ({e}); the journal was left in place",
            orphan.path.display()
        ))
    })?;
    let file = JournalFile::resume(orphan.path, orphan.file, &bytes, recovered.whole_bytes)?;
    Ok(Recovered {
        document: recovered.document,
        file,
        changes: recovered.changes,
        stop: recovered.stop,
    })
}

impl Resumed {
    /// The recovered document is the session's now (`doc`): it is listened to again, the
    /// recovery is reported, and the journal to go on writing is returned with what the UI
    /// does.
    pub(super) fn resume(
        self,
        doc: &mut crate::model::document::Document,
        log: &mut MessageLog,
    ) -> (JournalFile, Outcome) {
        let Resumed {
            file,
            changes,
            stop,
        } = self;
        doc.listen(true);
        let tail = match stop {
            Stop::End => String::new(),
            Stop::Cut => "; the last record was cut short and was dropped".into(),
            Stop::Corrupt => "; a damaged record ended the journal there".into(),
        };
        log.info(format!(
            "Recovered {changes} changes to {}{tail}: undo goes back through all of them",
            doc.display_name()
        ));
        let outcome = Outcome {
            effects: vec![Effect::SceneReplaced, Effect::FrameAllNextFrame],
        };
        (file, outcome)
    }
}

/// A recovered journal without its document (which the session took): what resuming needs.
pub(super) struct Resumed {
    file: JournalFile,
    changes: usize,
    stop: Stop,
}

impl Recovered {
    /// The document, and the journal to resume once it is the session's.
    pub(super) fn split(self) -> (crate::model::document::Document, Resumed) {
        let Self {
            document,
            file,
            changes,
            stop,
        } = self;
        let resumed = Resumed {
            file,
            changes,
            stop,
        };
        (document, resumed)
    }
}

/// Journals whose recovery stopped graft last time are set aside (kept a week) with a note,
/// never offered again in a loop.
pub(super) fn set_aside_failed_recoveries(log: &mut MessageLog, dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for mark in entries.flatten().map(|e| e.path()) {
        if mark.extension().is_none_or(|e| e != RECOVERING) {
            continue;
        }
        let journal = mark.with_extension(journal_folder::EXTENSION);
        let aside = mark.with_extension(journal_folder::DISCARDED);
        let _ = std::fs::remove_file(&mark);
        if std::fs::rename(&journal, &aside).is_ok() {
            log.fail(format!(
                "Recovering a journal stopped graft last time, so it was set aside as {} \
                 (kept a week). `graft recover {} -o scene.ron` may still read it.",
                aside.display(),
                aside.display()
            ));
        }
    }
}

/// What the prompt says when the orphan's file on disk is not the one its journal last knew.
fn orphan_file_note(orphan: &Orphan) -> Option<String> {
    let path = orphan.summary.path.as_deref()?;
    match orphan.disk? {
        DiskState::Same => None,
        DiskState::Changed => Some(format!(
            "{path} on disk is not the file this journal was editing: another program changed \
             its contents since. Saving the recovered scene asks before overwriting it."
        )),
        DiskState::Missing => Some(format!(
            "{path} is no longer on disk (deleted or moved): Save writes it again."
        )),
    }
}

/// A time as the local wall clock shows it, `HH:MM:SS` (UTC, marked so, where the local zone
/// is not known).
pub fn local_clock(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    #[cfg(target_os = "linux")]
    {
        let t = secs as libc::time_t;
        // SAFETY: all zeroes is a valid value of this plain C struct.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        // SAFETY: localtime_r reads `t` and writes only into `tm`, both on this stack frame.
        let local = unsafe { libc::localtime_r(&t, &mut tm) };
        if !local.is_null() {
            return format!("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec);
        }
    }
    let day = secs % 86_400;
    format!(
        "{:02}:{:02}:{:02} UTC",
        day / 3600,
        day % 3600 / 60,
        day % 60
    )
}
