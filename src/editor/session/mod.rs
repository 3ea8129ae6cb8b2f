//! The editing session without egui: the document, the selection, the clipboard, messages, the
//! file-dialog and unsaved-changes flow, tool and view settings, and [`Editor::apply`], the one
//! place any of it changes.

pub mod announce;
pub mod arrange;
pub mod clipboard;
pub mod command;
pub mod dialogs;
mod disk_compare;
pub mod disk_watch;
pub mod drop_rules;
pub mod edits;
pub mod exports;
mod file_parts;
mod files;
pub mod focus;
pub mod generate;
mod gestures;
mod import_sources;
mod instance_rows;
pub mod instances;
mod intents;
pub mod interchange;
pub mod jobs;
pub mod journal;
pub mod journal_base;
pub mod journal_folder;
pub mod journal_recover;
pub mod journal_scan;
pub mod journal_store;
pub mod lesson;
pub mod lesson_check;
pub mod lesson_command;
pub mod lesson_parts;
mod lesson_play;
pub mod lesson_predict;
mod lesson_prediction;
mod lesson_snapshot;
mod lesson_subject;
mod lesson_truth;
pub mod look;
pub mod messages;
pub mod multi_edit;
pub mod picking;
pub mod probes;
mod purpose;
pub mod record;
pub mod record_check;
mod routes;
pub mod selection;
pub mod settings;
pub mod sprites;
pub mod tick;
pub mod timeline;
pub mod timeline_command;
mod windows;

use crate::editor::lesson::eval::SessionView;
use crate::editor::session::command::{Command, ViewOption, ViewSpace, Window};
use crate::editor::view::handles::{Orientation, Tool};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::{DetachedSubtree, NodeId, Scene};
use rustc_hash::FxHashSet;
use std::path::PathBuf;

pub use files::MAX_RECENT;
pub use messages::Message;
pub use purpose::{DialogPurpose, FileAction, Outcome};
pub use settings::ViewOptions;

/// The editing session: everything a command can change, and nothing egui. A composition of
/// parts, each a struct owning its state behind methods; `routes.rs` hands each part the others
/// it needs, `tick.rs` runs the frame, and the read API here delegates to the parts.
pub struct Editor {
    doc: Document,
    selection: selection::Selection,
    clipboard: clipboard::Clipboard,
    log: messages::MessageLog,
    files: files::FileFlow,
    gestures: gestures::Gestures,
    settings: settings::Settings,
    windows: FxHashSet<Window>,
    /// The last import's or export's report, and the question about an import's Godot scenes.
    interchange: interchange::Interchange,
    figure: crate::editor::view::figure::FigureOptions,
    jobs: jobs::Jobs,
    timeline: timeline::TimelineState,
    probes: probes::Probes,
    journaling: journal::Journaling,
    lessons: lesson::Lessons,
    disk: disk_watch::DiskWatch,
    recorder: record::Recorder,
    /// How many world matrices the last update that did any work recomputed (what the last
    /// change cost): the status bar shows it and lessons' `recomputed` goals read it.
    last_change_recomputed: usize,
}

impl Editor {
    /// A session on this document, nothing selected.
    pub fn new(doc: Document) -> Self {
        Self {
            doc,
            selection: Default::default(),
            clipboard: Default::default(),
            log: Default::default(),
            files: Default::default(),
            gestures: Default::default(),
            settings: Default::default(),
            windows: FxHashSet::default(),
            interchange: Default::default(),
            figure: Default::default(),
            jobs: Default::default(),
            timeline: Default::default(),
            probes: Default::default(),
            journaling: Default::default(),
            lessons: Default::default(),
            disk: Default::default(),
            recorder: Default::default(),
            last_change_recomputed: 0,
        }
    }

    /// True when Export as Godot scene writes instances as plain nodes (the remembered choice).
    pub fn godot_flatten(&self) -> bool {
        self.settings.godot_flatten()
    }

    /// True when Export as Godot scene writes Godot 3 (the remembered choice).
    pub fn godot3_export(&self) -> bool {
        self.settings.godot3_export()
    }

    /// How many Godot pixels one graft unit becomes in Export as Godot scene (remembered).
    pub fn godot_pixels_per_unit(&self) -> u32 {
        self.settings.godot_pixels_per_unit()
    }

    /// The open document.
    pub fn doc(&self) -> &Document {
        &self.doc
    }

    /// True while a continuous edit (a drag, a slider) is open: its next step merges into the
    /// same undo entry, and the viewport keeps its drag layers until it ends.
    pub fn gesture_open(&self) -> bool {
        self.gestures.open.is_some()
    }

    /// Selected nodes; the last one is the primary selection.
    pub fn selection(&self) -> &[NodeId] {
        self.selection.ids()
    }

    /// The selection itself (O(1) `contains` for big selections).
    pub fn selected(&self) -> &selection::Selection {
        &self.selection
    }

    /// True when `id` is selected (O(1) for big selections).
    pub fn is_selected(&self, id: NodeId) -> bool {
        self.selection.contains(id)
    }

    /// A number that changes whenever the selection does (views key caches on it).
    pub fn selection_version(&self) -> u64 {
        self.selection.version()
    }

    /// The primary selection, if it still exists.
    pub fn primary(&self) -> Option<NodeId> {
        self.selection
            .last()
            .filter(|id| self.doc.scene().contains(*id))
    }

    /// Copied subtrees (Ctrl+C).
    pub fn clipboard(&self) -> &[DetachedSubtree] {
        self.clipboard.subtrees()
    }

    /// Status messages, newest last.
    pub fn messages(&self) -> &[Message] {
        self.log.lines()
    }

    /// The newest status message.
    pub fn last_message(&self) -> Option<&Message> {
        self.log.last()
    }

    /// The error shown in the error window, until dismissed.
    pub fn error(&self) -> Option<&str> {
        self.log.error()
    }

    /// Recently opened files, newest first.
    pub fn recent(&self) -> &[PathBuf] {
        self.files.recent()
    }

    /// Replace the recent-files list (restored from the app's storage at start).
    fn set_recent(&mut self, recent: Vec<PathBuf>) {
        self.files.set_recent(recent);
    }

    /// The action waiting for Save / Discard / Cancel.
    pub fn pending_guard(&self) -> Option<&FileAction> {
        self.files.pending_guard()
    }

    /// A typed path is wanted, because no native dialog could be shown.
    pub fn path_prompt(&self) -> Option<&DialogPurpose> {
        self.files.path_prompt()
    }

    /// True when the window should close.
    pub fn quit_requested(&self) -> bool {
        self.files.quit_requested()
    }

    /// True when the window may close (nothing unsaved, or the person said so).
    pub fn may_close(&self) -> bool {
        self.files.allow_close() || !self.doc.is_modified()
    }

    /// The viewport's handle.
    pub fn tool(&self) -> Tool {
        self.settings.tool()
    }

    /// Whether the handles follow the node's axes or the world's.
    pub fn orientation(&self) -> Orientation {
        self.settings.orientation()
    }

    /// Unity's worldPositionStays: reparenting keeps the world transform.
    pub fn keep_world(&self) -> bool {
        self.settings.keep_world()
    }

    /// What a reparent keeps by the toggle (Shift inverts it: `drop_rules::drop_keep`).
    pub fn keep(&self) -> crate::model::scene::Keep {
        crate::model::scene::Keep::world_if(self.settings.keep_world())
    }

    /// What the viewport shows.
    pub fn view(&self) -> &ViewOptions {
        self.settings.view()
    }

    /// The space the viewport looks from, as chosen.
    pub fn view_space(&self) -> ViewSpace {
        self.settings.view_space()
    }

    /// The node whose space the viewport looks from now (None: the world), the world → view
    /// matrix, and why not when the chosen node's world matrix is singular (the view then shows
    /// the world).
    pub fn view_node(&self) -> (Option<NodeId>, glam::DAffine2, Option<String>) {
        self.settings.view_node(self.doc.scene(), self.primary())
    }

    /// The panel that has the keyboard (the lesson panel only while a lesson is open).
    pub fn focused_panel(&self) -> focus::Panel {
        arrange::focused_panel(&self.settings, self.lesson().is_some())
    }

    /// How big the interface is drawn (1.0: 100 %; remembered by the window).
    pub fn ui_scale(&self) -> f32 {
        self.settings.ui_scale()
    }

    /// True when the high-contrast theme is on (View menu; remembered by the window).
    pub fn high_contrast(&self) -> bool {
        self.settings.high_contrast()
    }

    /// The running job, if any, as the UI shows it.
    pub fn job(&self) -> Option<jobs::JobView> {
        self.jobs.view()
    }

    /// Files at least this big open on a worker (tests set 0 to always use one).
    #[doc(hidden)]
    pub fn set_background_bytes(&mut self, bytes: u64) {
        self.jobs.set_background_bytes(bytes);
    }

    /// Scenes with at least this many nodes save on a worker (tests set 0 to always use one).
    #[doc(hidden)]
    pub fn set_background_save_nodes(&mut self, nodes: usize) {
        self.jobs.set_background_save_nodes(nodes);
    }

    /// Worker threads still running, cancelled ones included (tests wait for 0, not sleep; the
    /// `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn workers_running(&self) -> usize {
        self.jobs.workers_running()
    }

    /// The last import or export report.
    pub fn interchange_report(&self) -> Option<&interchange::InterchangeReport> {
        self.interchange.report()
    }

    /// The pending question about an import's instanced Godot scenes (the window shows it);
    /// None while its folder is being picked (the dialog, or the typed path, has the keyboard).
    pub fn sources_question(&self) -> Option<&interchange::SourcesQuestion> {
        if self.files.asking_for_a_path() {
            return None;
        }
        self.interchange.question()
    }

    /// The figure's settings (File > Export figure).
    pub fn figure_options(&self) -> &crate::editor::view::figure::FigureOptions {
        &self.figure
    }

    /// The figure as SVG text, with sprites embedded from the scene's folder.
    pub fn figure_svg(&self) -> String {
        self.figure_spec().svg(self.doc.scene())
    }

    /// The figure apart from the session (with the selection and its sprites' folder).
    pub fn figure_spec(&self) -> exports::FigureSpec {
        let selection = self.selection.ids();
        exports::FigureSpec::of(&self.figure, &self.doc, selection, self.timeline.time())
    }

    /// What the figure depends on, cheap to compare between frames.
    pub fn figure_key(&self) -> u64 {
        let selection = self.selection.ids();
        exports::figure_key(&self.figure, &self.doc, selection, self.timeline.time())
    }

    /// The preview's work: a copy of the scene and the figure's settings, drawn at `scale`
    /// (RGBA, straight alpha) wherever it is run.
    pub fn figure_preview_job(
        &self,
        scale: f32,
    ) -> impl FnOnce() -> Result<(u32, u32, Vec<u8>)> + Send + 'static {
        exports::preview_job(self.figure_spec(), self.doc.scene().clone(), scale)
    }

    /// How many world matrices the last update that did any work recomputed.
    pub fn last_change_recomputed(&self) -> usize {
        self.last_change_recomputed
    }

    /// True when this window is open.
    pub fn is_open(&self, window: Window) -> bool {
        self.windows.contains(&window)
    }

    pub(super) fn info(&mut self, text: impl Into<String>) {
        self.log.info(text.into());
    }

    /// Record a refusal or failure: the status bar and the error window show it.
    pub(super) fn fail(&mut self, error: Error) -> Error {
        self.log.fail(error.to_string());
        error
    }

    /// Carry out one command. A refused or failed command changes nothing, is recorded as a
    /// message (and in the error window) and is returned as the error.
    pub fn apply(&mut self, command: Command) -> Result<Outcome> {
        if !matches!(command, Command::Lesson(_)) {
            // Show me is one undo step: anything else first lets it finish.
            self.finish_show();
        }
        let result = self.dispatch(command);
        self.record_journal();
        result.map_err(|e| self.fail(e))
    }

    /// Carry out `ops` as `apply` carries out a command (Show me finishes first, the journal
    /// records after, a refusal is recorded and returned): for tests that need an edit no
    /// panel sends (the `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn perform_ops(
        &mut self,
        label: impl Into<String>,
        ops: Vec<crate::model::scene::edit::Op>,
        continuous: bool,
    ) -> Result<Outcome> {
        self.finish_show();
        // As a lesson's `Played::Ops` is carried out: one step of the edit part.
        let edit = self.edit_parts().perform(label.into(), ops, continuous);
        let result = edit.map(|()| Outcome::default());
        self.record_journal();
        result.map_err(|e| self.fail(e))
    }
}

/// The read API of the timeline, the probes, the journal, the disk watch, lessons and the
/// recording: each a one-line delegation to its part.
impl Editor {
    /// The timeline's state.
    pub fn timeline(&self) -> &timeline::TimelineState {
        &self.timeline
    }

    /// Advance playback by `dt` seconds and pose the scene; returns how many locals changed.
    pub fn advance(&mut self, dt: f32) -> usize {
        self.timeline.advance(&mut self.doc, dt)
    }

    /// The key selection, with keys that no longer exist (undone, deleted) left out.
    pub fn selected_keys(&self) -> Vec<timeline_command::KeyRef> {
        self.timeline.selected_keys(self.doc.scene())
    }

    /// The probes' readings now, in the primary selection's space.
    pub fn probe_readings(&self) -> Vec<probes::ProbeReading> {
        self.probes.readings(self.doc.scene(), self.primary())
    }

    /// True while a click in the viewport drops a probe.
    pub fn probe_mode(&self) -> bool {
        self.settings.probe_mode()
    }

    /// Journal this session into `dir`: offer the journals no graft holds anymore, report a
    /// panic of the last run, and start this document's journal.
    pub fn start_journal(&mut self, dir: PathBuf) {
        self.journaling.start(&mut self.doc, &mut self.log, dir);
    }

    /// True while this session's changes are journaled.
    pub fn journaling(&self) -> bool {
        self.journaling.writing()
    }

    /// The journal's state for the status bar: off, on, or failing and why.
    pub fn journal_health(&self) -> journal::JournalHealth {
        self.journaling.health()
    }

    /// True while a retry's fresh journal is being written (the stopped one is still kept).
    pub fn journal_retry_pending(&self) -> bool {
        self.journaling.retry_pending()
    }

    /// The setting: journal this session's documents (on unless turned off).
    pub fn journal_wanted(&self) -> bool {
        self.journaling.wanted()
    }

    /// Tests: the journal file itself (to inject a failing disk; the `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn journal_file_for_tests(&mut self) -> Option<&mut journal_store::JournalFile> {
        self.journaling.file_for_tests()
    }

    /// The journal file this session writes, when journaling.
    pub fn journal_path(&self) -> Option<&std::path::Path> {
        self.journaling.path()
    }

    /// Bytes this session's journal holds (0 when not journaling).
    pub fn journal_bytes(&self) -> u64 {
        self.journaling.bytes()
    }

    /// A clean end (the window closes): the journal is deleted, or set aside when the user
    /// chose to discard unsaved changes.
    pub fn end_journal(&mut self) {
        self.journaling.end(&self.doc);
    }

    /// An end without a prompt (SIGTERM, a logout): a clean document's journal goes; an
    /// unsaved one's stays, offered for recovery at the next start.
    pub fn end_on_signal(&mut self) {
        self.journaling.end_on_signal(&self.doc);
    }

    /// The journal waiting for an answer, if any (the prompt shows it before anything else;
    /// not while the unsaved-changes question about it shows).
    pub fn recovery_offer(&self) -> Option<journal::RecoveryOffer> {
        let asking = self.files.pending_guard() == Some(&FileAction::Recover);
        self.journaling.recovery_offer().filter(|_| !asking)
    }

    /// The pending "changed on disk" question, if any (the window shows it as a modal).
    pub fn disk_conflict(&self) -> Option<&disk_watch::Conflict> {
        self.disk.conflict()
    }

    /// True while a big file's bytes are compared with the disk on a worker.
    pub fn comparing_file(&self) -> bool {
        self.disk.comparing()
    }

    /// The recording in progress, if any.
    pub fn recording(&self) -> Option<&record::Recording> {
        self.recorder.recording()
    }

    /// The view as a lesson's set-up states it.
    pub fn view_state(&self) -> crate::editor::lesson::record::ViewState {
        record::view_state(&self.settings, self.selection.ids(), self.timeline.time())
    }

    /// What a lesson line is computed from (`lesson_play.rs`).
    pub(super) fn play_from(&self) -> lesson_play::PlayFrom<'_> {
        let (doc, settings, timeline) = (&self.doc, &self.settings, &self.timeline);
        let lessons = &self.lessons;
        lesson_play::PlayFrom {
            doc,
            settings,
            timeline,
            lessons,
        }
    }

    /// The state a lesson step starts from (what Reset and Back put back).
    pub(super) fn snapshot(&self) -> lesson::Snapshot {
        lesson::Snapshot::of(&self.doc, &self.selection, &self.settings, &self.timeline)
    }

    /// The lesson being followed.
    pub fn lesson(&self) -> Option<&lesson::LessonRun> {
        self.lessons.run()
    }

    /// The learner's progress through lessons.
    pub fn lesson_progress(&self) -> &crate::editor::lesson::progress::CourseProgress {
        self.lessons.progress()
    }

    /// The session restored with the progress a previous run kept (at start-up).
    pub fn with_lesson_progress(
        mut self,
        progress: crate::editor::lesson::progress::CourseProgress,
    ) -> Self {
        self.lessons.set_progress(progress);
        self
    }

    /// The file of a lesson's part (the sample scene `sample`), written into the session's
    /// parts folder when not there yet: what Instance scene… or a drop picks.
    pub fn lesson_part(&self, sample: &str) -> Result<PathBuf> {
        self.lessons.part_file(sample)
    }
}

/// What lessons read of the session (their goals, keeps and framing).
impl SessionView for Editor {
    fn scene(&self) -> &Scene {
        self.doc().scene()
    }
    fn primary(&self) -> Option<NodeId> {
        Editor::primary(self)
    }
    fn selection(&self) -> &[NodeId] {
        Editor::selection(self)
    }
    fn keep_world(&self) -> bool {
        Editor::keep_world(self)
    }
    fn shows(&self, option: ViewOption) -> bool {
        self.view().shows(option)
    }
    fn view_space(&self) -> ViewSpace {
        Editor::view_space(self)
    }
    fn view_node(&self) -> Option<NodeId> {
        Editor::view_node(self).0
    }
    fn time(&self) -> f32 {
        self.timeline().time()
    }
    fn trails(&self) -> bool {
        self.timeline().trails()
    }
    fn playing(&self) -> bool {
        self.timeline().playing()
    }
}
