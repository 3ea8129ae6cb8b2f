//! The session's crash journal: every history change written as `apply` returns, recovery of
//! journals whose graft did not close cleanly, and the warning when a file is already open in
//! another graft. Off until [`crate::editor::session::Editor::start_journal`] (the window turns it on; tests and the
//! command line keep it off unless they ask).

use super::journal_folder;
use super::journal_recover::{self, Recovered, Resumed};
use super::journal_scan::{self, Orphan};
use super::journal_store::JournalFile;
use super::messages::MessageLog;
use crate::editor::Outcome;
use crate::error::{Error, Result};
use crate::model::document::Document;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The file a panic writes into the journal folder, shown on the next start.
pub const PANIC_FILE: &str = "last-panic.txt";
/// Scenes with more nodes are not journaled (writing their base scene would stall the window);
/// the user is told so.
pub const MAX_JOURNALED_NODES: usize = 2_000_000;

/// How often a journal that cannot be written is tried again.
pub const RETRY_EVERY: Duration = Duration::from_secs(5);
/// How often the journal folder is looked at for journals a graft that ended left behind.
pub const RESCAN_EVERY: Duration = Duration::from_secs(10);
/// The journal part of a session.
#[derive(Default)]
pub struct Journaling {
    /// The user wants a journal (the setting); `file` may still be None (a huge scene, an
    /// unwritable folder).
    pub(super) wanted: bool,
    pub(super) dir: Option<PathBuf>,
    /// The journal; kept (locked) when it stopped, until a retry or a save replaces it.
    pub(super) file: Option<JournalFile>,
    pub(super) orphans: Vec<Orphan>,
    /// Why the wanted journal is not being written (it could not start, or stopped).
    pub(super) problem: Option<String>,
    /// When to try again.
    pub(super) next_retry: Option<Instant>,
    /// When to look at the journal folder again for left-behind journals.
    pub(super) next_scan: Option<Instant>,
    /// The mark of a recovery in progress, removed once the recovered scene was drawn.
    pub(super) recovering: Option<(PathBuf, u32)>,
    /// True while a retry runs (its failure is not announced again).
    pub(super) retrying: bool,
    /// A retry's fresh journal is being written (`file`); until it is whole on disk the
    /// journal that stopped is kept here (it may be the only one holding unsaved work) and
    /// the status bar still says the journal is not written.
    pub(super) settling: bool,
    /// The journal that stopped, kept while a retry's fresh one settles.
    pub(super) stale: Option<JournalFile>,
}

/// The journal's state, as the status bar shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalHealth {
    /// Turned off (the setting, or `--no-journal`).
    Off,
    /// Every change is written as it happens.
    On,
    /// Wanted but not written: why (graft retries every [`RETRY_EVERY`]).
    Failing(String),
}

pub use super::journal_recover::{RecoveryAnswer, RecoveryOffer};

impl Journaling {
    /// Journal this session into `dir`: offer the journals no graft holds anymore, report a
    /// panic of the last run, and start this document's journal.
    pub(super) fn start(&mut self, doc: &mut Document, log: &mut MessageLog, dir: PathBuf) {
        report_last_panic(log, &dir);
        journal_recover::set_aside_failed_recoveries(log, &dir);
        let scan = journal_scan::scan(&dir, None);
        for (path, why) in scan.unreadable {
            log.info(format!(
                "A journal graft cannot read was left in place: {} ({why})",
                path.display()
            ));
        }
        self.orphans = scan.orphans;
        for orphan in &mut self.orphans {
            orphan.disk = journal_scan::file_state(&orphan.summary);
        }
        self.dir = Some(dir);
        self.wanted = true;
        self.warn_if_open_elsewhere(doc, log);
        self.begin(doc, log);
    }

    /// True while this session's changes are journaled.
    pub(super) fn writing(&self) -> bool {
        self.file.is_some() && self.problem.is_none()
    }

    /// The journal's state for the status bar: off, on, or failing and why.
    pub(super) fn health(&self) -> JournalHealth {
        match (&self.problem, self.wanted) {
            (_, false) => JournalHealth::Off,
            (Some(why), true) => JournalHealth::Failing(why.clone()),
            (None, true) if self.file.is_some() => JournalHealth::On,
            // A scene too big to journal: said once when it opened.
            (None, true) => JournalHealth::Off,
        }
    }

    /// True while a retry's fresh journal is being written (the stopped one is still kept).
    pub(super) fn retry_pending(&self) -> bool {
        self.settling
    }

    /// The setting: journal this session's documents (on unless turned off).
    pub(super) fn wanted(&self) -> bool {
        self.wanted
    }

    /// Turn journaling off (the journal goes, or is set aside with unsaved changes) or on
    /// again (a journal begins for the document as it is now).
    pub(super) fn toggle(&mut self, doc: &mut Document, log: &mut MessageLog) -> Outcome {
        if self.wanted {
            self.wanted = false;
            self.finish_files(doc.is_modified());
            self.problem = None;
            doc.listen(false);
            log.info("The crash journal is off: unsaved changes live only in memory");
            return Outcome::default();
        }
        self.wanted = true;
        self.dir = self.dir.take().or_else(journal_folder::journal_dir);
        self.begin(doc, log);
        if let Some(path) = self.path() {
            let text = format!("The crash journal is on: {}", path.display());
            log.info(text);
        }
        Outcome::default()
    }

    /// The journal waiting for an answer, if any.
    pub(super) fn recovery_offer(&self) -> Option<RecoveryOffer> {
        journal_recover::offer(&self.orphans)
    }

    /// Refused when no journal is waiting to be recovered.
    pub(super) fn any_orphan(&self) -> Result<()> {
        journal_recover::any_orphan(&self.orphans)
    }

    /// The answer to the recovery prompt, carried out on the journal (unsaved changes already
    /// asked about): set aside or left, or rebuilt into a document (returned: the caller makes
    /// it the session's and then hands it back to [`Journaling::resume`]).
    pub(super) fn answer_now(
        &mut self,
        log: &mut MessageLog,
        answer: RecoveryAnswer,
    ) -> Result<Option<Recovered>> {
        journal_recover::answer(&mut self.orphans, &mut self.recovering, log, answer)
    }

    /// The document in place is about to be replaced by a recovered one: its journal ends.
    pub(super) fn before_recovered(&mut self, unsaved: bool) {
        self.finish_files(unsaved);
        self.problem = None;
    }

    /// The recovered document is the session's now (`doc`): go on writing its journal.
    pub(super) fn resume(
        &mut self,
        doc: &mut Document,
        log: &mut MessageLog,
        recovered: Resumed,
    ) -> Outcome {
        let (file, outcome) = recovered.resume(doc, log);
        self.file = Some(file);
        outcome
    }

    /// Tests: the journal file itself (to inject a failing disk; the `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub(super) fn file_for_tests(&mut self) -> Option<&mut JournalFile> {
        self.file.as_mut()
    }

    /// The journal file this session writes, when journaling.
    pub(super) fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(JournalFile::path)
    }

    /// Bytes this session's journal holds (0 when not journaling).
    pub(super) fn bytes(&self) -> u64 {
        self.file.as_ref().map_or(0, JournalFile::len)
    }

    /// A clean end (the window closes): the journal is deleted, or set aside when the user
    /// chose to discard unsaved changes.
    pub(super) fn end(&mut self, doc: &Document) {
        self.finish_files(doc.is_modified());
        self.orphans.clear();
        self.clear_recovering_mark();
    }

    /// An end without a prompt (SIGTERM, a logout): a clean document's journal goes; an
    /// unsaved one's stays, offered for recovery at the next start.
    pub(super) fn end_on_signal(&mut self, doc: &Document) {
        if doc.is_modified() {
            self.stale = None;
            self.file = None;
        } else {
            self.finish_files(false);
        }
        self.clear_recovering_mark();
    }

    /// End the journal and the stopped one a retry keeps (deleted, or set aside as discarded
    /// when `unsaved`).
    pub(super) fn finish_files(&mut self, unsaved: bool) {
        self.settling = false;
        for file in [self.stale.take(), self.file.take()].into_iter().flatten() {
            file.finish(unsaved);
        }
    }

    /// Write what the last command changed (called after every command and tick).
    pub(super) fn record(&mut self, doc: &mut Document, log: &mut MessageLog) {
        self.count_after_recovery();
        if self.problem.is_some() && !self.settling {
            return;
        }
        let Some(file) = self.file.as_mut() else {
            return;
        };
        if let Err(e) = file.record(doc) {
            if self.settling {
                self.fresh_journal_failed(doc, log, e);
                return;
            }
            // Kept (locked): a save deletes it, a retry replaces it, a clean end removes it.
            doc.listen(false);
            self.failed(log, format!("the journal stopped: {e}"));
            return;
        }
        if self.settling {
            self.settle_retry(doc, log);
        }
    }

    /// A retry's fresh journal: once it is whole on disk, the stopped one goes and the journal
    /// is said to be written again. True then.
    fn settle_retry(&mut self, doc: &mut Document, log: &mut MessageLog) -> bool {
        let Some(file) = self.file.as_mut() else {
            return false;
        };
        match file.started() {
            Ok(false) => false,
            Ok(true) => {
                self.settling = false;
                self.problem = None;
                if let Some(stale) = self.stale.take() {
                    stale.finish(false);
                }
                log.info("The crash journal is written again");
                true
            }
            Err(e) => {
                self.fresh_journal_failed(doc, log, e);
                false
            }
        }
    }

    /// A retry's fresh journal could not be written: it goes, the stopped one stays.
    fn fresh_journal_failed(&mut self, doc: &mut Document, log: &mut MessageLog, e: Error) {
        self.settling = false;
        if let Some(fresh) = self.file.take() {
            fresh.finish(false);
        }
        self.file = self.stale.take();
        doc.listen(false);
        self.retrying = true;
        self.failed(log, format!("the journal stopped: {e}"));
        self.retrying = false;
    }

    /// The journal cannot be written: say so (the status bar keeps saying it) and retry.
    fn failed(&mut self, log: &mut MessageLog, why: String) {
        self.next_retry = Some(Instant::now() + RETRY_EVERY);
        if self.retrying {
            // Said once when it first failed; the status bar keeps saying it.
            self.problem = Some(why);
            return;
        }
        log.fail(format!(
            "The crash journal is not being written ({why}): changes are only in memory until \
             saved. graft tries again every {} s (File > Retry the crash journal)",
            RETRY_EVERY.as_secs()
        ));
        self.problem = Some(why);
    }

    /// Try again to write the journal: a fresh journal holding the document and its whole
    /// history replaces the one that stopped, once it is whole on disk (the stopped one is kept
    /// until then). True when it is written again.
    pub(super) fn retry(&mut self, doc: &mut Document, log: &mut MessageLog) -> bool {
        if !self.wanted || self.problem.is_none() {
            return self.writing();
        }
        if self.settling {
            return self.settle_retry(doc, log);
        }
        let stale = self.file.take();
        self.retrying = true;
        self.begin(doc, log);
        self.retrying = false;
        if self.file.is_none() {
            self.file = stale;
            return false;
        }
        self.stale = stale;
        self.settling = true;
        self.settle_retry(doc, log)
    }

    /// The document was saved: a journal that stopped holds nothing the file does not, so
    /// it goes at once (it would otherwise be offered, older than the file, after a crash).
    /// A save into another folder rebased the sprite paths of the scene and its history
    /// (not a step the journal records): the journal begins again from the document as it is.
    pub(super) fn saved(&mut self, doc: &mut Document, log: &mut MessageLog) {
        if self.problem.is_some() && !doc.is_modified() {
            self.finish_files(false);
            self.retry(doc, log);
            return;
        }
        let moved = self
            .file
            .as_ref()
            .is_some_and(|f| f.began_in_other_folder(doc.path()));
        if moved && let Some(old) = self.file.take() {
            self.begin(doc, log);
            old.finish(false);
        }
    }

    /// The journal's part of a frame: retry a failing journal, look for journals another
    /// graft left behind, and lift the recovery mark once a recovered scene was drawn.
    pub(super) fn tick(&mut self, doc: &mut Document, log: &mut MessageLog) {
        let now = Instant::now();
        if self.problem.is_some() && self.next_retry.is_none_or(|t| now >= t) {
            self.next_retry = Some(now + RETRY_EVERY);
            self.retry(doc, log);
        }
        if self.dir.is_some() && self.next_scan.is_none_or(|t| now >= t) {
            self.next_scan = Some(now + RESCAN_EVERY);
            self.rescan_orphans();
        }
    }

    /// Count a frame or a command since a recovery: once the recovered scene has been drawn
    /// (the third count: the recovery's own command, then a frame, then the next), lift the
    /// mark that would set the journal aside.
    fn count_after_recovery(&mut self) {
        if let Some((_, seen)) = &mut self.recovering {
            *seen += 1;
            if *seen > 2 {
                self.clear_recovering_mark();
            }
        }
    }

    /// Offer journals whose graft ended since this one started (a window killed while this
    /// one runs), without asking again about the ones already offered.
    fn rescan_orphans(&mut self) {
        let Some(dir) = self.dir.clone() else {
            return;
        };
        let own = self.path().map(Path::to_path_buf);
        let scan = journal_scan::scan(&dir, own.as_deref());
        for mut orphan in scan.orphans {
            if !self.orphans.iter().any(|o| o.path == orphan.path) {
                orphan.disk = journal_scan::file_state(&orphan.summary);
                self.orphans.push(orphan);
            }
        }
    }

    /// The document was replaced: end its journal and begin one for the new document.
    pub(super) fn replaced(&mut self, doc: &mut Document, log: &mut MessageLog, old_unsaved: bool) {
        self.finish_files(old_unsaved);
        self.problem = None;
        if self.wanted {
            self.warn_if_open_elsewhere(doc, log);
            self.begin(doc, log);
        }
    }

    fn begin(&mut self, doc: &mut Document, log: &mut MessageLog) {
        let Some(dir) = self.dir.clone().filter(|_| self.wanted) else {
            return;
        };
        if doc.scene().len() > MAX_JOURNALED_NODES {
            log.info(format!(
                "This scene has {} nodes, more than the journal takes ({MAX_JOURNALED_NODES}): \
                 save often, a crash would lose its unsaved changes",
                doc.scene().len()
            ));
            return;
        }
        match JournalFile::create(&dir, doc) {
            Ok(file) => {
                doc.take_changes();
                doc.listen(true);
                self.file = Some(file);
            }
            Err(e) => self.failed(log, format!("could not start it in {}: {e}", dir.display())),
        }
    }

    /// Lift the recovery mark: the recovered scene was drawn (or the session ends cleanly).
    pub(super) fn clear_recovering_mark(&mut self) {
        if let Some((mark, _)) = self.recovering.take() {
            let _ = std::fs::remove_file(mark);
        }
    }

    /// Tell the user when the document's file is journaled by another running graft.
    fn warn_if_open_elsewhere(&self, doc: &Document, log: &mut MessageLog) {
        let (Some(dir), Some(path)) = (self.dir.as_deref(), doc.path()) else {
            return;
        };
        let mut ours: Vec<&Path> = self.orphans.iter().map(|o| o.path.as_path()).collect();
        ours.extend(self.file.as_ref().map(JournalFile::path));
        let canonical = journal_folder::path_text(Some(path)).unwrap_or_default();
        let id = doc.stamp().map(|s| s.id()).filter(|&id| id != (0, 0));
        if journal_scan::held_elsewhere(dir, &ours, &canonical, id) {
            let path = path.to_string_lossy();
            log.fail(format!(
                "{path} is also open in another graft window: saving in both would overwrite \
                 one with the other"
            ));
        }
    }
}

/// Show the panic the last run wrote, once.
fn report_last_panic(log: &mut MessageLog, dir: &Path) {
    let file = dir.join(PANIC_FILE);
    let report = crate::model::read_limit::PANIC_REPORT;
    let Ok(text) = crate::model::read_limit::read_text_bounded(&file, report) else {
        return;
    };
    let _ = std::fs::rename(&file, dir.join("last-panic.seen.txt"));
    log.fail(format!(
        "graft stopped on an internal error last time:\n{}\nIts journal is in {}.",
        text.trim(),
        dir.display()
    ));
}

/// Write a panic's message where the next start finds it (called from the panic hook).
pub fn write_panic_report(dir: &Path, message: &str, journal: Option<&Path>) {
    let journal = journal.map_or("none".to_string(), |p| p.display().to_string());
    let text = format!("{message}\njournal: {journal}\n");
    let _ = std::fs::create_dir_all(dir);
    // Plain writes: a panic hook should do as little as it can (no backup, no rename dance).
    let _ = std::fs::write(dir.join(PANIC_FILE), text);
}
