//! The document's file on disk, watched: a save never overwrites what another program or
//! another graft window wrote since graft read the file (it asks: Overwrite / Save As… /
//! Reload), and a change on disk is noticed while the window is open and offered for reload.

use crate::editor::session::disk_compare::Comparing;
use crate::editor::session::messages::MessageLog;
pub use crate::editor::session::purpose::ConflictAnswer;
use crate::editor::session::purpose::FileAction;
use crate::model::document::Document;
use crate::model::file_stamp::{ALWAYS_COMPARE_BYTES, DiskKey, DiskState, FileStamp, disk_key};
use std::time::Instant;

/// How often the file is looked at (a `stat`; its bytes only when its time changed).
pub const WATCH_FILE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Why the "changed on disk" prompt shows.
#[derive(Clone, Debug, PartialEq)]
pub enum ConflictReason {
    /// A save was asked for (and `then` waits for it: quit, open…).
    Saving,
    /// The window noticed the change by itself.
    Noticed,
}

/// A pending "the file changed on disk" question.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// Why it is asked.
    pub reason: ConflictReason,
    /// What waits for the save, if a save was asked for.
    pub then: Option<FileAction>,
}

/// What the files part does after the answer to the "changed on disk" question.
#[derive(Debug, PartialEq)]
pub(super) enum AfterConflict {
    /// Nothing (cancelled, or no question was pending).
    Nothing,
    /// Show Save As, then go on with the waiting action.
    SaveAs(Option<FileAction>),
    /// Load the file as it is on disk now.
    Reload,
    /// Save over the file (taken as known now), then go on with the waiting action.
    Overwrite(Option<FileAction>),
}

/// The watch's state.
#[derive(Default)]
pub struct DiskWatch {
    conflict: Option<Conflict>,
    next_look: Option<Instant>,
    /// The disk's state the user already answered about: not asked again for it.
    answered: Option<DiskKey>,
    /// The file was found missing (said once).
    missing_said: bool,
    /// The document came back from a journal older than its file: the first save asks.
    older_than_file: bool,
    /// The files the scene's instances read, as they were when last looked at.
    sources: Vec<(std::path::PathBuf, Option<DiskKey>)>,
    /// A big file's bytes being compared on a worker after a `stat` showed a write.
    comparing: Option<Comparing>,
}

impl DiskWatch {
    /// The pending "changed on disk" question, if any (the window shows it as a modal).
    pub(super) fn conflict(&self) -> Option<&Conflict> {
        self.conflict.as_ref()
    }

    /// True while a big file's bytes are compared with the disk on a worker.
    pub(super) fn comparing(&self) -> bool {
        self.comparing.is_some()
    }

    /// Before a save to the document's own file: true when it may go on; otherwise the
    /// question is asked (with `then` waiting) and nothing is written.
    pub(super) fn may_overwrite(
        &mut self,
        doc: &Document,
        log: &mut MessageLog,
        target: &std::path::Path,
        then: Option<FileAction>,
    ) -> bool {
        if doc.path() != Some(target) {
            return true;
        }
        // A small file's bytes are compared whatever its times say; a big one's when a
        // `stat` shows any write (its status-change time moves even if its time is put back),
        // by the watch's worker when it has looked already.
        let state = match doc.stamp().copied() {
            Some(stamp) if stamp.len() <= ALWAYS_COMPARE_BYTES => Some(stamp.by_contents(target)),
            Some(stamp) if !stamp.untouched(target) => Some(self.compare_now(&stamp, target)),
            _ => doc.disk_state(),
        };
        if !self.older_than_file && state != Some(DiskState::Changed) {
            return true;
        }
        self.conflict = Some(Conflict {
            reason: ConflictReason::Saving,
            then,
        });
        log.fail(format!(
            "{} changed on disk since graft read it: not saved yet (Overwrite, Save As… or Reload)",
            doc.display_name()
        ));
        false
    }

    /// A big file compared with `stamp` for a save: the worker's answer when it is for the file
    /// as it is now (waited for if still running), else read here.
    fn compare_now(&mut self, stamp: &FileStamp, target: &std::path::Path) -> DiskState {
        match self.comparing.take() {
            Some(comparing) if disk_key(target) == Some(comparing.key()) => {
                stamp.against(target, comparing.wait())
            }
            _ => stamp.on_disk(target),
        }
    }

    /// A save asked for before `action` did not happen (the file changed on disk): the
    /// action waits for the answer to that question.
    pub(super) fn wait_for_save(&mut self, action: FileAction) {
        if let Some(conflict) = self.conflict.as_mut() {
            conflict.then = Some(action);
        }
    }

    /// The document was recovered from a journal: when its file was saved after the
    /// journal's last change, the first save asks before overwriting it.
    pub(super) fn recovered_older_than_file(&mut self, older: bool) {
        self.older_than_file = older;
    }

    /// The answer to the "changed on disk" question.
    pub(super) fn answer(
        &mut self,
        doc: &mut Document,
        log: &mut MessageLog,
        answer: ConflictAnswer,
    ) -> AfterConflict {
        let Some(conflict) = self.conflict.take() else {
            return AfterConflict::Nothing;
        };
        self.answered = doc.path().and_then(disk_key);
        if answer != ConflictAnswer::Cancel {
            self.older_than_file = false;
        }
        match answer {
            ConflictAnswer::Cancel => {
                log.info("Nothing was saved or reloaded; a save asks again");
                AfterConflict::Nothing
            }
            ConflictAnswer::SaveAs => AfterConflict::SaveAs(conflict.then),
            ConflictAnswer::Reload => AfterConflict::Reload,
            ConflictAnswer::Overwrite => {
                // The user has seen the other version: take the file as it is now as known.
                let path = doc.path().map(std::path::Path::to_path_buf);
                let stamp = path.and_then(|p| crate::model::file_stamp::FileStamp::read(&p).ok());
                doc.set_stamp(stamp);
                AfterConflict::Overwrite(conflict.then)
            }
        }
    }

    /// Once every [`WATCH_FILE_EVERY`]: has the document's file changed on disk? A change
    /// not answered yet asks "Reload?"; a touch with the same bytes is taken quietly.
    pub(super) fn watch_file(
        &mut self,
        doc: &mut Document,
        log: &mut MessageLog,
        job_running: bool,
    ) {
        self.note_sources(doc);
        self.take_compared(doc, log);
        let now = Instant::now();
        // A running job may be graft's own save writing the file: its new stamp arrives with
        // the job's result, so the file is looked at after that.
        if self.next_look.is_some_and(|t| now < t) || self.conflict.is_some() || job_running {
            return;
        }
        self.next_look = Some(now + WATCH_FILE_EVERY);
        self.watch_sources(doc, log);
        let Some(path) = doc.path().map(std::path::Path::to_path_buf) else {
            return;
        };
        let Some(stamp) = doc.stamp().copied() else {
            return;
        };
        let key = disk_key(&path);
        if key.is_some() && stamp.untouched(&path) {
            self.missing_said = false;
            return;
        }
        if key.is_some() && key == self.answered {
            return;
        }
        if let Some(key) = key.filter(|k| stamp.len() > ALWAYS_COMPARE_BYTES && k.0 == stamp.len())
        {
            // A big file's bytes are read on a worker; its answer is taken when it is there.
            if self.comparing.as_ref().map(Comparing::key) != Some(key) {
                self.comparing = Some(Comparing::start(&path, key));
            }
            return;
        }
        let state = stamp.on_disk(&path);
        // The file is read again only for the same bytes (a changed file is not read at all).
        self.take_disk_state(doc, log, &path, state, || FileStamp::read(&path).ok());
    }

    /// Every frame: a big file's comparison, when its worker is done and the file has not been
    /// written since it started, is taken as the watch takes a small file's.
    fn take_compared(&mut self, doc: &mut Document, log: &mut MessageLog) {
        let Some(found) = self.comparing.as_ref().and_then(Comparing::ready) else {
            return;
        };
        let key = self.comparing.take().map(|c| c.key());
        let Some(path) = doc.path().map(std::path::Path::to_path_buf) else {
            return;
        };
        let Some(stamp) = doc.stamp().copied() else {
            return;
        };
        if key.is_none() || disk_key(&path) != key || self.conflict.is_some() {
            return; // written since: the next look compares again
        }
        let restamped = found
            .zip(key)
            .and_then(|(f, k)| FileStamp::at_key(&path, k, f.1));
        self.take_disk_state(doc, log, &path, stamp.against(&path, found), || restamped);
    }

    /// What the watch does with the file's state: the same bytes are taken quietly (as
    /// `restamped`), a missing file is said once, a change asks "Reload?".
    fn take_disk_state(
        &mut self,
        doc: &mut Document,
        log: &mut MessageLog,
        path: &std::path::Path,
        state: DiskState,
        restamped: impl FnOnce() -> Option<FileStamp>,
    ) {
        match state {
            DiskState::Same => {
                if let Some(stamp) = restamped() {
                    doc.set_stamp(Some(stamp));
                }
            }
            DiskState::Missing if !self.missing_said => {
                self.missing_said = true;
                log.fail(format!(
                    "{} was deleted or moved on disk: Save writes it again",
                    path.display()
                ));
            }
            DiskState::Missing => {}
            DiskState::Changed => {
                self.conflict = Some(Conflict {
                    reason: ConflictReason::Noticed,
                    then: None,
                });
            }
        }
    }

    /// Every frame: a file the scene's instances newly read takes its disk state now (as it was
    /// read: a save by another program right after instancing is still seen as a change); a
    /// file still read keeps the state it had; one no longer read is dropped.
    fn note_sources(&mut self, doc: &Document) {
        let scene = doc.scene();
        let files = scene
            .instances()
            .filter(|t| t.in_use(scene))
            .map(|t| t.source_files())
            .unwrap_or_default();
        let same = files.len() == self.sources.len()
            && files.iter().zip(&self.sources).all(|(a, b)| *a == b.0);
        if same {
            return;
        }
        let old = std::mem::take(&mut self.sources);
        self.sources = (files.into_iter())
            .map(|p| {
                let known = old.iter().find(|(q, _)| *q == p).map(|(_, k)| *k);
                let key = known.unwrap_or_else(|| disk_key(&p));
                (p, key)
            })
            .collect();
    }

    /// Has a file the scene's instances read changed on disk (saved by graft in another
    /// window or by any other program)? Then its instances are read again, every override
    /// kept, as one undo step.
    fn watch_sources(&mut self, doc: &mut Document, log: &mut MessageLog) {
        self.note_sources(doc);
        let now: Vec<_> = (self.sources.iter()).map(|(p, _)| disk_key(p)).collect();
        let changed: Vec<String> = (self.sources.iter().zip(&now))
            .filter(|((_, was), is)| was != *is)
            .map(|((p, _), _)| p.display().to_string())
            .collect();
        if changed.is_empty() {
            return;
        }
        match doc.reload_instances(&follow_label(&changed)) {
            Ok(_) => {
                // What the reload read is what is known now.
                self.sources.clear();
                self.note_sources(doc);
                log.info(format!(
                    "{} changed on disk: its instances follow",
                    changed.join(", ")
                ));
            }
            Err(e) => {
                for (file, key) in self.sources.iter_mut().zip(now) {
                    file.1 = key; // said once, not again every look
                }
                log.fail(format!(
                    "{} changed on disk, not read: {e}",
                    changed.join(", ")
                ));
            }
        }
    }
}

/// The undo label of following changed sources: "Follow wheel.ron, arm.ron".
fn follow_label(changed: &[String]) -> String {
    let names: Vec<String> = (changed.iter())
        .map(|p| {
            let p = std::path::Path::new(p);
            p.file_name().map_or(p.display().to_string(), |n| {
                n.to_string_lossy().into_owned()
            })
        })
        .collect();
    format!("Follow {}", names.join(", "))
}
