//! Recovering a journal another graft left: what the prompt offers (and says about the file
//! on disk, by its bytes), the answers, rebuilding the document, and journals whose recovery
//! stopped graft set aside.

use super::journal::{RECOVERING, local_clock};
use super::journal_folder;
use super::journal_scan::{self, Orphan};
use super::journal_store::JournalFile;
use super::{Editor, FileAction};
use crate::editor::Outcome;
use crate::editor::session::command::Effect;
use crate::error::{Error, Result};
use crate::model::file_stamp::DiskState;
use crate::model::journal::{self, Stop};
use std::path::{Path, PathBuf};

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

impl Editor {
    /// The journal waiting for an answer, if any (the prompt shows it before anything else).
    pub fn recovery_offer(&self) -> Option<RecoveryOffer> {
        if self.files.pending_guard() == Some(&FileAction::Recover) {
            // The unsaved-changes question about it is showing.
            return None;
        }
        let orphan = self.journaling.orphans.first()?;
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
            more: self.journaling.orphans.len() - 1,
            older_than_file: saved.map(local_clock),
            file_changed: orphan_file_note(orphan),
        })
    }

    /// The answer to the recovery prompt.
    pub(super) fn answer_recovery(&mut self, answer: RecoveryAnswer) -> Result<Outcome> {
        if self.journaling.orphans.is_empty() {
            return Err(Error::Refused(
                "No journal is waiting to be recovered".into(),
            ));
        }
        if answer == RecoveryAnswer::Recover {
            // The recovered scene replaces this one: unsaved work (a scene recovered before)
            // is asked about first.
            return self.request(FileAction::Recover);
        }
        self.answer_recovery_now(answer)
    }

    /// The answer to the recovery prompt, carried out (unsaved changes already asked about).
    pub(super) fn answer_recovery_now(&mut self, answer: RecoveryAnswer) -> Result<Outcome> {
        if self.journaling.orphans.is_empty() {
            return Err(Error::Refused(
                "No journal is waiting to be recovered".into(),
            ));
        }
        let older = self
            .recovery_offer()
            .is_some_and(|o| o.older_than_file.is_some() || o.file_changed.is_some());
        let orphan = self.journaling.orphans.remove(0);
        let name = orphan
            .summary
            .path
            .clone()
            .unwrap_or_else(|| "untitled".into());
        match answer {
            RecoveryAnswer::Recover => self.recover(orphan, older),
            RecoveryAnswer::Discard => {
                let kept = journal_scan::discard(orphan)?;
                self.info(format!(
                    "Set aside the unsaved changes to {name} (kept a week as {})",
                    kept.display()
                ));
                Ok(Outcome::default())
            }
            RecoveryAnswer::Later => {
                drop(orphan);
                self.info(format!(
                    "The unsaved changes to {name} stay in the journal; graft asks again next time"
                ));
                Ok(Outcome::default())
            }
        }
    }

    /// Rebuild the orphan's document, make it the session's, and go on writing its journal.
    fn recover(&mut self, orphan: Orphan, older: bool) -> Result<Outcome> {
        // If rebuilding or drawing the recovered scene stops graft, the next start finds this
        // mark and sets the journal aside instead of offering it again (no crash loop).
        let mark = orphan.path.with_extension(RECOVERING);
        let _ = std::fs::write(&mark, orphan.path.to_string_lossy().as_bytes());
        self.journaling.recovering = Some((mark, 0));
        let bytes =
            crate::model::read_limit::read_bounded(&orphan.path, crate::model::read_limit::JOURNAL)
                .map_err(|e| Error::Refused(e.to_string()))?;
        let recovered = journal::recover(&bytes).map_err(|e| {
            Error::Refused(format!(
                "Could not recover {} ({e}); the journal was left in place",
                orphan.path.display()
            ))
        })?;
        let resumed = JournalFile::resume(orphan.path, orphan.file, &bytes, recovered.whole_bytes)?;
        self.finish_files(self.doc.is_modified());
        self.journaling.problem = None;
        // A journal of an older graft may name its file relative to the folder it ran in:
        // the first save asks before writing what that name means here.
        let relative = recovered.document.path().is_some_and(Path::is_relative);
        self.swap_document(recovered.document);
        self.recovered_older_than_file(older || relative);
        self.doc.listen(true);
        self.journaling.file = Some(resumed);
        let tail = match recovered.stop {
            Stop::End => String::new(),
            Stop::Cut => "; the last record was cut short and was dropped".into(),
            Stop::Corrupt => "; a damaged record ended the journal there".into(),
        };
        self.info(format!(
            "Recovered {} changes to {}{tail}: undo goes back through all of them",
            recovered.changes,
            self.doc.display_name()
        ));
        Ok(Outcome {
            effects: vec![Effect::SceneReplaced, Effect::FrameAllNextFrame],
        })
    }

    /// Journals whose recovery stopped graft last time are set aside (kept a week) with a
    /// note, never offered again in a loop.
    pub(super) fn set_aside_failed_recoveries(&mut self, dir: &Path) {
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
                self.log.fail(format!(
                    "Recovering a journal stopped graft last time, so it was set aside as {} \
                     (kept a week). `graft recover {} -o scene.ron` may still read it.",
                    aside.display(),
                    aside.display()
                ));
            }
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
