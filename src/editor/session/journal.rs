//! The session's crash journal: every history change written as `apply` returns, recovery of
//! journals whose graft did not close cleanly, and the warning when a file is already open in
//! another graft. Off until [`Editor::start_journal`] (the window turns it on; tests and the
//! command line keep it off unless they ask).

use super::Editor;
use super::journal_store::{self, JournalFile, Orphan};
use crate::editor::Outcome;
use crate::editor::session::command::Effect;
use crate::error::{Error, Result};
use crate::model::journal::{self, Stop};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The file a panic writes into the journal folder, shown on the next start.
pub const PANIC_FILE: &str = "last-panic.txt";
/// Scenes with more nodes are not journaled (writing their base scene would stall the window);
/// the user is told so.
pub const MAX_JOURNALED_NODES: usize = 2_000_000;

/// The journal part of a session.
#[derive(Default)]
pub struct Journaling {
    /// The user wants a journal (the setting); `file` may still be None (a huge scene, an
    /// unwritable folder).
    wanted: bool,
    dir: Option<PathBuf>,
    file: Option<JournalFile>,
    orphans: Vec<Orphan>,
}

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
}

impl Editor {
    /// Journal this session into `dir`: offer the journals no graft holds anymore, report a
    /// panic of the last run, and start this document's journal.
    pub fn start_journal(&mut self, dir: PathBuf) {
        self.report_last_panic(&dir);
        let scan = journal_store::scan(&dir, None);
        for (path, why) in scan.unreadable {
            self.info(format!(
                "A journal graft cannot read was left in place: {} ({why})",
                path.display()
            ));
        }
        self.journaling.orphans = scan.orphans;
        self.journaling.dir = Some(dir);
        self.journaling.wanted = true;
        self.warn_if_open_elsewhere();
        self.begin_journal();
    }

    /// True while this session's changes are journaled.
    pub fn journaling(&self) -> bool {
        self.journaling.file.is_some()
    }

    /// The setting: journal this session's documents (on unless turned off).
    pub fn journal_wanted(&self) -> bool {
        self.journaling.wanted
    }

    /// Turn journaling off (the journal goes, or is set aside with unsaved changes) or on
    /// again (a journal begins for the document as it is now).
    pub(super) fn toggle_journal(&mut self) -> Outcome {
        if self.journaling.wanted {
            self.journaling.wanted = false;
            if let Some(file) = self.journaling.file.take() {
                file.finish(self.doc.is_modified());
            }
            self.doc.listen(false);
            self.info("The crash journal is off: unsaved changes live only in memory");
            return Outcome::default();
        }
        self.journaling.wanted = true;
        self.journaling.dir = self
            .journaling
            .dir
            .take()
            .or_else(journal_store::journal_dir);
        self.begin_journal();
        if let Some(path) = self.journal_path() {
            let text = format!("The crash journal is on: {}", path.display());
            self.info(text);
        }
        Outcome::default()
    }

    /// The journal file this session writes, when journaling.
    pub fn journal_path(&self) -> Option<&Path> {
        self.journaling.file.as_ref().map(JournalFile::path)
    }

    /// Bytes this session's journal holds (0 when not journaling).
    pub fn journal_bytes(&self) -> u64 {
        self.journaling.file.as_ref().map_or(0, JournalFile::len)
    }

    /// The journal waiting for an answer, if any (the prompt shows it before anything else).
    pub fn recovery_offer(&self) -> Option<RecoveryOffer> {
        let orphan = self.journaling.orphans.first()?;
        let summary = &orphan.summary;
        Some(RecoveryOffer {
            document: summary.path.clone().unwrap_or_else(|| "untitled".into()),
            edits: summary.edits,
            unsaved_changes: summary.unsaved_changes,
            last_at: local_clock(orphan.modified),
            journal: orphan.path.clone(),
            more: self.journaling.orphans.len() - 1,
        })
    }

    /// A clean end (the window closes): the journal is deleted, or set aside when the user
    /// chose to discard unsaved changes.
    pub fn end_journal(&mut self) {
        if let Some(file) = self.journaling.file.take() {
            file.finish(self.doc.is_modified());
        }
        self.journaling.orphans.clear();
    }

    /// Write what the last command changed (called after every command and tick).
    pub(super) fn record_journal(&mut self) {
        let Some(file) = self.journaling.file.as_mut() else {
            return;
        };
        if let Err(e) = file.record(&mut self.doc) {
            self.journaling.file = None;
            self.doc.listen(false);
            self.log.fail(format!(
                "The journal stopped ({e}): changes from now on are only in memory until saved"
            ));
        }
    }

    /// The document was replaced: end its journal and begin one for the new document.
    pub(super) fn journal_replaced(&mut self, old_unsaved: bool) {
        if let Some(file) = self.journaling.file.take() {
            file.finish(old_unsaved);
        }
        if self.journaling.wanted {
            self.warn_if_open_elsewhere();
            self.begin_journal();
        }
    }

    fn begin_journal(&mut self) {
        let Some(dir) = self
            .journaling
            .dir
            .clone()
            .filter(|_| self.journaling.wanted)
        else {
            return;
        };
        if self.doc.scene().len() > MAX_JOURNALED_NODES {
            self.info(format!(
                "This scene has {} nodes, more than the journal takes ({MAX_JOURNALED_NODES}): \
                 save often, a crash would lose its unsaved changes",
                self.doc.scene().len()
            ));
            return;
        }
        match JournalFile::create(&dir, &self.doc) {
            Ok(file) => {
                self.doc.take_changes();
                self.doc.listen(true);
                self.journaling.file = Some(file);
            }
            Err(e) => self.info(format!(
                "Could not start the journal in {} ({e}): unsaved changes are not protected",
                dir.display()
            )),
        }
    }

    /// The answer to the recovery prompt.
    pub(super) fn answer_recovery(&mut self, answer: RecoveryAnswer) -> Result<Outcome> {
        if self.journaling.orphans.is_empty() {
            return Err(Error::Refused(
                "No journal is waiting to be recovered".into(),
            ));
        }
        let orphan = self.journaling.orphans.remove(0);
        let name = orphan
            .summary
            .path
            .clone()
            .unwrap_or_else(|| "untitled".into());
        match answer {
            RecoveryAnswer::Recover => self.recover(orphan),
            RecoveryAnswer::Discard => {
                let kept = journal_store::discard(orphan)?;
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
    fn recover(&mut self, orphan: Orphan) -> Result<Outcome> {
        let bytes = std::fs::read(&orphan.path)
            .map_err(|e| Error::Refused(format!("{}: {e}", orphan.path.display())))?;
        let recovered = journal::recover(&bytes).map_err(|e| {
            Error::Refused(format!(
                "Could not recover {} ({e}); the journal was left in place",
                orphan.path.display()
            ))
        })?;
        let resumed = JournalFile::resume(orphan.path, orphan.file, &bytes, recovered.whole_bytes)?;
        if let Some(file) = self.journaling.file.take() {
            file.finish(self.doc.is_modified());
        }
        self.swap_document(recovered.document);
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

    /// Tell the user when the document's file is journaled by another running graft.
    fn warn_if_open_elsewhere(&mut self) {
        let (Some(dir), Some(path)) = (self.journaling.dir.as_deref(), self.doc.path()) else {
            return;
        };
        let mut ours: Vec<&Path> = self
            .journaling
            .orphans
            .iter()
            .map(|o| o.path.as_path())
            .collect();
        ours.extend(self.journaling.file.as_ref().map(JournalFile::path));
        let path = path.to_string_lossy();
        if journal_store::held_elsewhere(dir, &ours, &path) {
            self.log.fail(format!(
                "{path} is also open in another graft window: saving in both would overwrite \
                 one with the other"
            ));
        }
    }

    /// Show the panic the last run wrote, once.
    fn report_last_panic(&mut self, dir: &Path) {
        let file = dir.join(PANIC_FILE);
        let Ok(text) = std::fs::read_to_string(&file) else {
            return;
        };
        let _ = std::fs::rename(&file, dir.join("last-panic.seen.txt"));
        self.log.fail(format!(
            "graft stopped on an internal error last time:\n{}\nIts journal is in {}.",
            text.trim(),
            dir.display()
        ));
    }
}

/// Write a panic's message where the next start finds it (called from the panic hook).
pub fn write_panic_report(dir: &Path, message: &str, journal: Option<&Path>) {
    let journal = journal.map_or("none".to_string(), |p| p.display().to_string());
    let text = format!("{message}\njournal: {journal}\n");
    let _ = std::fs::create_dir_all(dir);
    // Plain writes: a panic hook should do as little as it can (no backup, no rename dance).
    let _ = std::fs::write(dir.join(PANIC_FILE), text);
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
        // SAFETY: localtime_r writes only into `tm`, which lives on this stack frame.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        if !unsafe { libc::localtime_r(&t, &mut tm) }.is_null() {
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
