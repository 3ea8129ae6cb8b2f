//! The questions a panel may ask the session beyond what [`FrameContext`] holds: answered
//! only when asked (a window that is closed asks nothing), each a read the session offers.

use super::FrameContext;
use crate::editor::session::announce::Announcer;
use crate::editor::session::command::Window;
use crate::editor::session::disk_watch::Conflict;
use crate::editor::session::interchange::{InterchangeReport, SourcesQuestion};
use crate::editor::session::journal::{JournalHealth, RecoveryOffer};
use crate::editor::session::lesson::LessonRun;
use crate::editor::table::{CommandSpec, palette_matches};
use crate::editor::view::framing::Framed;

impl<'a> FrameContext<'a> {
    /// True when `window` is open.
    pub fn is_open(&self, window: Window) -> bool {
        self.editor.is_open(window)
    }

    /// True when the command table's entry may run now.
    pub fn enabled(&self, spec: &CommandSpec) -> bool {
        (spec.enabled)(self.editor)
    }

    /// Whether a toggle's entry is checked now (None: not a toggle).
    pub fn checked(&self, spec: &CommandSpec) -> Option<bool> {
        spec.checked.map(|checked| checked(self.editor))
    }

    /// The palette's enabled commands matching `query`, best first.
    pub fn palette_matches(&self, query: &str) -> Vec<&'static CommandSpec> {
        palette_matches(self.editor, query)
    }

    /// The lesson step's nodes and points, as the viewport frames them.
    pub fn lesson_framed(&self, run: &LessonRun) -> Framed {
        run.framed(self.editor)
    }

    /// For each keep of the lesson's step: what changed, when it no longer holds.
    pub fn keep_changes(&self, run: &LessonRun) -> Vec<Option<String>> {
        run.keep_changes(self.editor)
    }

    /// What `announcer` says about the session now (what changed since it last looked).
    pub fn announcement(&self, announcer: &mut Announcer) -> String {
        announcer.observe(self.editor).to_owned()
    }

    /// Journals left by a graft that did not close cleanly, offered for recovery.
    pub fn recovery_offer(&self) -> Option<RecoveryOffer> {
        self.editor.recovery_offer()
    }

    /// The open file changed on disk while it has unsaved changes.
    pub fn disk_conflict(&self) -> Option<&'a Conflict> {
        self.editor.disk_conflict()
    }

    /// The import's question about the instanced scenes it found.
    pub fn sources_question(&self) -> Option<&'a SourcesQuestion> {
        self.editor.sources_question()
    }

    /// The last import's or export's report.
    pub fn interchange_report(&self) -> Option<&'a InterchangeReport> {
        self.editor.interchange_report()
    }

    /// Whether the crash journal is written.
    pub fn journal_health(&self) -> JournalHealth {
        self.editor.journal_health()
    }

    /// How many world matrices the last change recomputed.
    pub fn last_change_recomputed(&self) -> usize {
        self.editor.last_change_recomputed()
    }

    /// What the figure depends on, cheap to compare between frames.
    pub fn figure_key(&self) -> u64 {
        self.editor.figure_key()
    }

    /// The figure's preview rendered at `scale`, as work for a worker thread.
    pub fn figure_preview_job(
        &self,
        scale: f32,
    ) -> impl FnOnce() -> crate::error::Result<(u32, u32, Vec<u8>)> + Send + 'static {
        self.editor.figure_preview_job(scale)
    }
}
