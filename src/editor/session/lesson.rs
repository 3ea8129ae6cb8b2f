//! The session's lesson: the running lesson and its step, goals evaluated every frame, hints,
//! **Show me** played action by action as one undo step, Reset, Back and Next, and the
//! learner's progress. The file format and the goal logic are in `editor/lesson/`.

use crate::editor::lesson::eval::{Bindings, Context};
use crate::editor::lesson::play::{action_commands, bind_step, setup_commands};
use crate::editor::lesson::progress::Progress;
use crate::editor::lesson::{Action, Goal, Lesson, Pos, Step};
use crate::editor::session::command::{Effect, ViewSpace};
use crate::editor::session::settings::ViewOptions;
use crate::editor::session::{Editor, FileAction, Outcome};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::{NodeId, Scene};
use std::collections::VecDeque;

pub use super::lesson_check::walk_lesson;
use std::path::PathBuf;

/// Seconds between two actions of **Show me**, so each one can be seen.
pub const SHOW_STEP_SECONDS: f32 = 0.4;

/// Where a lesson comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonSource {
    /// The built-in course's lesson at this index.
    Builtin(usize),
    /// A lesson file.
    File(PathBuf),
}

/// What can be done with lessons.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonCommand {
    /// Open a lesson (asks about unsaved changes first); a bad file is refused, nothing changes.
    Open(LessonSource),
    /// Close the lesson panel (the scene stays).
    Close,
    /// The next step (when every goal holds).
    Next,
    /// The previous step, from its start.
    Back,
    /// Go to a step, from its start.
    GoTo(usize),
    /// Show the next hint.
    Hint,
    /// Play the step's solution (one undo step).
    ShowMe,
    /// Put the step back as it started.
    Reset,
}

/// The editor state a step starts from (Reset and Back restore it).
#[derive(Clone, Debug)]
pub struct Snapshot {
    scene: Scene,
    selection: Vec<NodeId>,
    keep_world: bool,
    view: ViewOptions,
    view_space: ViewSpace,
    time: f32,
    playing: bool,
    trails: bool,
}

/// A lesson being followed.
#[derive(Debug)]
pub struct LessonRun {
    lesson: Lesson,
    step: usize,
    bindings: Bindings,
    /// How the step started (Reset).
    entry: Option<Snapshot>,
    /// How each step starts for a learner who followed the solutions (Back, GoTo).
    starts: Vec<Snapshot>,
    hints: usize,
    goals: Vec<bool>,
    keeps: Vec<bool>,
    recomputed: usize,
    showing: VecDeque<(Action, Pos)>,
    show_wait: f32,
}

impl LessonRun {
    /// The lesson.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The current step's index.
    pub fn step_index(&self) -> usize {
        self.step
    }

    /// The current step.
    pub fn step(&self) -> &Step {
        &self.lesson.steps[self.step]
    }

    /// The step's goals and keeps with whether each holds now (as of the last frame).
    pub fn checklist(&self) -> Vec<(&Goal, bool)> {
        let step = self.step();
        let goals = step.goals.iter().zip(self.goals.iter().copied());
        goals
            .chain(step.keeps.iter().zip(self.keeps.iter().copied()))
            .collect()
    }

    /// True when every goal and keep of the step holds: Next lights up.
    pub fn step_done(&self) -> bool {
        self.goals.iter().chain(&self.keeps).all(|&ok| ok) && !self.goals.is_empty()
    }

    /// The hints shown so far.
    pub fn hints_shown(&self) -> &[String] {
        &self.step().hints[..self.hints.min(self.step().hints.len())]
    }

    /// True while Show me is playing the solution.
    pub fn showing(&self) -> bool {
        !self.showing.is_empty()
    }

    /// The node a name of the step's text means (None: gone).
    pub fn resolve(&self, scene: &Scene, name: &str) -> Option<NodeId> {
        self.bindings
            .resolve(scene, name)
            .filter(|id| scene.contains(*id))
    }
}

/// The session's lessons: the running one and the learner's progress.
#[derive(Debug, Default)]
pub struct Lessons {
    run: Option<LessonRun>,
    progress: Progress,
}

/// A goal that failed `graft lesson check`.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFailure {
    /// The step's index.
    pub step: usize,
    /// What went wrong, with the goal's place.
    pub message: String,
}

impl Editor {
    /// The lesson being followed.
    pub fn lesson(&self) -> Option<&LessonRun> {
        self.lessons.run.as_ref()
    }

    /// The learner's progress through lessons.
    pub fn lesson_progress(&self) -> &Progress {
        &self.lessons.progress
    }

    /// The session restored with the progress a previous run kept (at start-up).
    pub fn with_lesson_progress(mut self, progress: Progress) -> Self {
        self.lessons.progress = progress;
        self
    }

    pub(super) fn lesson_command(&mut self, command: LessonCommand) -> Result<Outcome> {
        if self.lessons.run.is_none() && !matches!(command, LessonCommand::Open(_)) {
            return Err(Error::Refused(
                "No lesson is open: Help > Lessons… lists them".into(),
            ));
        }
        match command {
            LessonCommand::Open(source) => self.open_lesson(source),
            LessonCommand::Close => {
                self.finish_show();
                self.lessons.run = None;
                self.info("Closed the lesson (the scene stays)");
                Ok(Outcome::default())
            }
            LessonCommand::Next => self.next_step(),
            LessonCommand::Back => self.go_to_step(self.lesson_step().saturating_sub(1)),
            LessonCommand::GoTo(k) => self.go_to_step(k),
            LessonCommand::Hint => {
                if let Some(run) = self.lessons.run.as_mut() {
                    run.hints = (run.hints + 1).min(run.step().hints.len());
                }
                Ok(Outcome::default())
            }
            LessonCommand::ShowMe => Ok(self.start_show()),
            LessonCommand::Reset => self.reset_step(),
        }
    }

    fn lesson_step(&self) -> usize {
        self.lessons.run.as_ref().map_or(0, |r| r.step)
    }

    /// Read, check and (after the unsaved-changes prompt) start a lesson.
    fn open_lesson(&mut self, source: LessonSource) -> Result<Outcome> {
        let lesson = read_lesson(&source)?;
        // Refuse a lesson that cannot be played before anything changes.
        walk_lesson(&lesson)?;
        self.request(FileAction::OpenLesson(Box::new(lesson)))
    }

    /// Start a lesson at the first step not completed yet (the unsaved-changes prompt is done).
    pub(super) fn start_lesson(&mut self, lesson: Lesson) -> Result<Outcome> {
        let (starts, failures) = walk_lesson(&lesson)?;
        if let Some(f) = failures.first() {
            self.log.info(format!(
                "Warning: this lesson fails its own check: {}",
                f.message
            ));
        }
        let first = self
            .lessons
            .progress
            .resume_at(&lesson.id, lesson.steps.len());
        self.info(format!("Lesson: {}", lesson.title));
        self.lessons.run = Some(LessonRun {
            lesson,
            step: 0,
            bindings: Bindings::default(),
            entry: None,
            starts,
            hints: 0,
            goals: Vec::new(),
            keeps: Vec::new(),
            recomputed: 0,
            showing: VecDeque::new(),
            show_wait: 0.0,
        });
        self.enter_step(first, false)
    }

    fn next_step(&mut self) -> Result<Outcome> {
        self.finish_show();
        self.update_world();
        self.evaluate_goals();
        let Some(run) = self.lessons.run.as_ref() else {
            return Ok(Outcome::default());
        };
        if !run.step_done() {
            return Err(Error::Refused(
                "Next is for when every goal of this step holds (Show me plays the solution)"
                    .into(),
            ));
        }
        if run.step + 1 >= run.lesson.steps.len() {
            let title = run.lesson.title.clone();
            self.info(format!("Lesson complete: {title}"));
            return Ok(Outcome::default());
        }
        self.enter_step(run.step + 1, true)
    }

    fn go_to_step(&mut self, k: usize) -> Result<Outcome> {
        let steps = self
            .lessons
            .run
            .as_ref()
            .map_or(0, |r| r.lesson.steps.len());
        if k >= steps {
            return Err(Error::Refused(format!("This lesson has {steps} steps")));
        }
        self.enter_step(k, false)
    }

    /// Enter step `k`: its own scene, or the learner's scene when continuing with Next (if the
    /// step's names still mean nodes there), or the step's canonical start; then its set-up.
    fn enter_step(&mut self, k: usize, continuing: bool) -> Result<Outcome> {
        self.finish_show();
        let Some(mut run) = self.lessons.run.take() else {
            return Ok(Outcome::default());
        };
        let result = self.enter_step_with(&mut run, k, continuing);
        self.lessons.run = Some(run);
        result
    }

    fn enter_step_with(
        &mut self,
        run: &mut LessonRun,
        k: usize,
        continuing: bool,
    ) -> Result<Outcome> {
        let step = &run.lesson.steps[k];
        let path = run.lesson.path.clone();
        let mut outcome = Outcome::default();
        let keeps_scene =
            continuing && step.scene.is_none() && bind_step(self.doc.scene(), step, &path).is_ok();
        if !keeps_scene {
            outcome = self.restore(&run.starts[k]);
        } else {
            self.apply_setup(step, &path)?;
        }
        run.bindings = bind_step(self.doc.scene(), step, &path)?;
        run.step = k;
        run.hints = 0;
        run.entry = Some(self.snapshot());
        run.goals.clear();
        run.keeps.clear();
        outcome.effects.push(match step.setup.frame_all {
            Some(false) => Effect::Frame(self.selection.ids().to_vec()),
            _ if !keeps_scene => Effect::FrameAllNextFrame,
            _ => return Ok(outcome),
        });
        Ok(outcome)
    }

    /// Apply a step's set-up through the normal commands.
    pub(super) fn apply_setup(&mut self, step: &Step, path: &std::path::Path) -> Result<()> {
        self.update_world();
        let bindings = bind_step(self.doc.scene(), step, path)?;
        for command in setup_commands(self, &step.setup, &bindings, path)? {
            self.dispatch(command)?;
        }
        self.update_world();
        Ok(())
    }

    fn reset_step(&mut self) -> Result<Outcome> {
        self.finish_show();
        let entry = self.lessons.run.as_ref().and_then(|r| r.entry.clone());
        let outcome = entry
            .map(|e| self.restore_keeping_lesson(&e))
            .unwrap_or_default();
        self.info("Step reset");
        Ok(outcome)
    }

    fn restore_keeping_lesson(&mut self, snapshot: &Snapshot) -> Outcome {
        let run = self.lessons.run.take();
        let outcome = self.restore(snapshot);
        self.lessons.run = run;
        if let Some(run) = self.lessons.run.as_mut() {
            run.hints = 0;
        }
        outcome
    }

    /// The state a step starts from.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            scene: self.doc.scene().clone(),
            selection: self.selection.ids().to_vec(),
            keep_world: self.settings.keep_world(),
            view: self.settings.view().clone(),
            view_space: self.settings.view_space(),
            time: self.timeline.time,
            playing: self.timeline.playing,
            trails: self.timeline.trails,
        }
    }

    /// Put a snapshot back as a fresh untitled document (the lesson is the caller's).
    fn restore(&mut self, snapshot: &Snapshot) -> Outcome {
        let outcome = self.replace_document(Document::untitled(snapshot.scene.clone()));
        self.selection.set(snapshot.selection.clone());
        self.settings.set_keep_world(snapshot.keep_world);
        self.settings.set_view(snapshot.view.clone());
        self.settings.set_view_space(snapshot.view_space);
        self.timeline.time = snapshot.time;
        self.timeline.playing = snapshot.playing;
        self.timeline.trails = snapshot.trails;
        self.update_world();
        outcome
    }

    fn start_show(&mut self) -> Outcome {
        if let Some(run) = self.lessons.run.as_mut().filter(|r| r.showing.is_empty()) {
            run.showing = run.step().solution.iter().cloned().collect();
            run.show_wait = 0.0;
        }
        Outcome::default()
    }

    /// Play the rest of Show me at once (another command arrived, or the step changes).
    pub(super) fn finish_show(&mut self) {
        while self.lessons.run.as_ref().is_some_and(LessonRun::showing) {
            self.show_next_action();
        }
    }

    /// Play Show me's next action; the last one closes its undo step.
    fn show_next_action(&mut self) {
        let Some(run) = self.lessons.run.as_mut() else {
            return;
        };
        let Some((action, at)) = run.showing.pop_front() else {
            return;
        };
        let last = run.showing.is_empty();
        let (bindings, path) = (run.bindings.clone(), run.lesson.path.clone());
        let label = format!("Show me: {}", run.step().title);
        let result =
            action_commands(self, &action, &bindings, &path, &label).and_then(|commands| {
                commands
                    .into_iter()
                    .try_for_each(|c| self.dispatch(c).map(drop))
            });
        if let Err(e) = result {
            let _ = at;
            self.fail(e);
            if let Some(run) = self.lessons.run.as_mut() {
                run.showing.clear();
            }
        }
        if last
            || self
                .lessons
                .run
                .as_ref()
                .is_some_and(|r| r.showing.is_empty())
        {
            self.gestures.open = None;
            self.doc.end_gesture();
        }
        self.update_world();
    }

    /// Once per frame: Show me's next action when due, then the goals evaluated and a
    /// completed step remembered. Returns true while Show me still plays.
    pub(super) fn lesson_tick(&mut self, dt: f32, recomputed: usize) -> bool {
        let Some(run) = self.lessons.run.as_mut() else {
            return false;
        };
        if recomputed > 0 {
            run.recomputed = recomputed;
        }
        if run.showing() {
            run.show_wait -= dt;
            if run.show_wait <= 0.0 {
                run.show_wait = SHOW_STEP_SECONDS;
                self.show_next_action();
            }
        }
        self.evaluate_goals();
        self.lessons.run.as_ref().is_some_and(LessonRun::showing)
    }

    /// Evaluate the step's goals now and remember the step when all hold.
    pub(super) fn evaluate_goals(&mut self) {
        let Some(run) = self.lessons.run.as_ref() else {
            return;
        };
        let (goals, keeps) = evaluate(self, run);
        let run = self.lessons.run.as_mut().expect("checked above");
        run.goals = goals;
        run.keeps = keeps;
        if run.step_done() {
            let (id, step) = (run.lesson.id.clone(), run.step);
            self.lessons.progress.complete(&id, step);
        }
    }

    /// Forget the lesson (another scene replaced the lesson's).
    pub(super) fn end_lesson(&mut self) {
        self.lessons.run = None;
    }
}

fn evaluate(editor: &Editor, run: &LessonRun) -> (Vec<bool>, Vec<bool>) {
    let context = Context {
        editor,
        bindings: &run.bindings,
        recomputed: run.recomputed,
    };
    let step = run.step();
    let holds = |goals: &[Goal]| goals.iter().map(|g| context.holds(&g.predicate)).collect();
    (holds(&step.goals), holds(&step.keeps))
}

/// A lesson's text from where it comes from, parsed.
pub fn read_lesson(source: &LessonSource) -> Result<Lesson> {
    use crate::editor::lesson::{course, parse};
    match source {
        LessonSource::Builtin(k) => {
            let (file, text) = course::COURSE.get(*k).ok_or_else(|| {
                Error::Refused(format!("the course has {} lessons", course::COURSE.len()))
            })?;
            parse::parse(text, &course::builtin_path(file))
        }
        LessonSource::File(path) => {
            let text = crate::model::read_limit::read_text_bounded(
                path,
                crate::model::read_limit::LESSON,
            )?;
            parse::parse(&text, path)
        }
    }
}
