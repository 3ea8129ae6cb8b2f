//! The editor's frame: the one place, besides [`Editor::apply`], where the session changes by
//! itself. Once per frame the window calls [`Editor::tick`]: it picks up a finished background
//! job, advances playback, and brings the world matrices (and the selection) up to date.

use super::Editor;
use super::lesson_play::action_commands;
use crate::editor::session::purpose::Outcome;
use std::time::Duration;

/// The longest step playback takes in one frame (a stalled frame does not jump the clip).
const MAX_STEP: f32 = 0.1;
/// How often the window should come back while a job runs, to show its progress.
const JOB_POLL: Duration = Duration::from_millis(50);
/// How often the window comes back by itself to look at the file and the journal folder.
pub const WATCH_EVERY: Duration = Duration::from_secs(2);
/// How often the window should come back while Show me plays.
const SHOW_POLL: Duration = Duration::from_millis(50);

/// What one frame's tick did, and when the window should draw again.
#[derive(Debug, Default)]
pub struct Tick {
    /// What a finished job asks of the UI (a document swapped in, say); empty otherwise.
    pub outcome: Outcome,
    /// How many world matrices this frame recomputed.
    pub recomputed: usize,
    /// When to draw the next frame without input: `Some(ZERO)` at once (playing), a delay
    /// while a job runs, `None` when nothing moves by itself.
    pub repaint_after: Option<Duration>,
}

impl Editor {
    /// Recompute the world matrices edited since the last call (once per frame).
    pub fn update_world(&mut self) -> usize {
        let count = self.doc.update_world();
        if count > 0 {
            // Every update counts, including those inside a command (Show me, a step's
            // start), not only the frame's: a goal on the cost of the last change reads it.
            self.last_change_recomputed = count;
            self.lessons.note_recomputed(count);
        }
        // The timeline reads the animated nodes every frame: keep their cached list current.
        self.doc.refresh_animated();
        self.selection.prune(self.doc.scene());
        count
    }

    /// Called every frame: swap in a finished job's scene (or report its error).
    pub fn poll_job(&mut self) -> crate::error::Result<Outcome> {
        self.file_parts().poll_job()
    }

    /// One frame of the session, `dt` seconds after the last: poll the background job (a
    /// failed one is already in the messages), advance playback, update the world.
    pub fn tick(&mut self, dt: f32) -> Tick {
        let mut tick = Tick::default();
        if self.job().is_some() {
            if let Ok(outcome) = self.poll_job() {
                tick.outcome = outcome;
            }
            tick.repaint_after = Some(JOB_POLL);
        }
        if self.timeline().playing() {
            self.advance(dt.clamp(0.0, MAX_STEP));
            tick.repaint_after = Some(Duration::ZERO);
        }
        tick.recomputed = self.update_world();
        if self.lesson_tick(dt) {
            tick.repaint_after = Some(tick.repaint_after.map_or(SHOW_POLL, |d| d.min(SHOW_POLL)));
        }
        self.record_journal();
        self.journaling.tick(&mut self.doc, &mut self.log);
        let job_running = self.job().is_some();
        (self.disk).watch_file(&mut self.doc, &mut self.log, job_running);
        if self.comparing_file() {
            // A big file's bytes are read on a worker: its answer is taken soon after it comes.
            tick.repaint_after = Some(tick.repaint_after.map_or(JOB_POLL, |d| d.min(JOB_POLL)));
        }
        // Come back now and then without input: a failing journal is retried, a journal a
        // killed graft left is offered, a file changed on disk is noticed.
        tick.repaint_after = Some(
            tick.repaint_after
                .map_or(WATCH_EVERY, |d| d.min(WATCH_EVERY)),
        );
        tick
    }

    /// Once per frame: Show me's next action when due, then the goals evaluated and a
    /// completed step remembered. Returns true while Show me still plays.
    fn lesson_tick(&mut self, dt: f32) -> bool {
        let Some(due) = self.lessons.show_due(dt) else {
            return false;
        };
        if due {
            self.show_next_action();
        }
        self.evaluate_goals();
        self.lessons.showing()
    }

    /// Play the rest of Show me at once (another command arrived, or the step changes).
    pub(super) fn finish_show(&mut self) {
        while self.lessons.showing() {
            self.show_next_action();
        }
    }

    /// Play Show me's next action through the session's commands; the last one closes its undo
    /// step.
    fn show_next_action(&mut self) {
        let Some(next) = self.lessons.next_show_action() else {
            return;
        };
        let (bindings, path) = (&next.bindings, &next.path);
        let result = action_commands(&self.play_from(), &next.action, bindings, path, &next.label)
            .and_then(|commands| (commands.into_iter()).try_for_each(|c| self.play(c).map(drop)));
        if let Err(e) = result {
            self.fail(e);
            self.lessons.stop_show();
        }
        if next.last || !self.lessons.showing() {
            self.gestures.open = None;
            self.doc.end_gesture();
        }
        self.update_world();
    }

    /// Evaluate the step's goals now (against the session) and remember the step when all hold.
    pub(super) fn evaluate_goals(&mut self) {
        let Some(run) = self.lessons.run() else {
            return;
        };
        let (goals, keeps) = super::lesson_check::evaluate(self, run);
        self.lessons.note_goals(goals, keeps);
    }

    /// The session restored with the recent-files list a previous run kept (at start-up).
    pub fn with_recent(mut self, recent: Vec<std::path::PathBuf>) -> Self {
        self.set_recent(recent);
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::editor::session::Editor;
    use crate::editor::session::command::Command;
    use crate::editor::session::timeline_command::TimelineCommand;
    use crate::model::document::Document;

    #[test]
    fn a_still_session_asks_for_no_frames() {
        let mut editor = Editor::new(Document::sample());
        let first = editor.tick(0.016);
        assert!(first.recomputed > 0, "the first tick computes the world");
        let second = editor.tick(0.016);
        assert_eq!(second.recomputed, 0);
        // Only the watch on the file and the journal folder brings it back, every 2 s.
        assert_eq!(second.repaint_after, Some(super::WATCH_EVERY));
    }

    #[test]
    fn playing_advances_time_by_at_most_one_step_and_keeps_frames_coming() {
        let mut editor = Editor::new(Document::sample());
        editor
            .apply(Command::Timeline(TimelineCommand::Play))
            .expect("play");
        let before = editor.timeline().time();
        let tick = editor.tick(5.0);
        assert_eq!(tick.repaint_after, Some(std::time::Duration::ZERO));
        let step = editor.timeline().time() - before;
        assert!(step > 0.0 && step <= super::MAX_STEP + 1e-6, "step {step}");
        editor
            .apply(Command::Timeline(TimelineCommand::Pause))
            .expect("pause");
        let t = editor.timeline().time();
        editor.tick(0.5);
        assert_eq!(editor.timeline().time(), t, "paused: time stands still");
    }

    #[test]
    fn with_recent_keeps_the_list() {
        let path = std::path::PathBuf::from("/tmp/a.ron");
        let editor = Editor::new(Document::sample()).with_recent(vec![path.clone()]);
        assert_eq!(editor.recent().first(), Some(&path));
    }
}
