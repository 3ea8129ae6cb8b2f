//! The session's lesson: the running lesson and its step, goals evaluated every frame, hints,
//! **Show me** played action by action as one undo step, Reset, Back and Next, and the
//! learner's progress. The file format and the goal logic are in `editor/lesson/`.

use crate::editor::lesson::eval::{Bindings, Context, SessionView};
use crate::editor::lesson::explain::what_changed;
use crate::editor::lesson::parse::cut;
use crate::editor::lesson::progress::CourseProgress;
use crate::editor::lesson::{Action, Goal, Lesson, Pos, Step};
use crate::editor::session::command::ViewSpace;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::settings::ViewOptions;
use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use std::collections::VecDeque;

pub use crate::editor::session::lesson_command::{LessonCommand, LessonSource};
use std::path::PathBuf;

/// Seconds between two actions of **Show me**, so each one can be seen.
pub const SHOW_STEP_SECONDS: f32 = 0.4;

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

/// The editor state a step starts from (Reset and Back restore it).
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub(super) scene: Scene,
    pub(super) selection: Vec<NodeId>,
    pub(super) keep_world: bool,
    pub(super) view: ViewOptions,
    pub(super) view_space: ViewSpace,
    pub(super) time: f32,
    pub(super) playing: bool,
    pub(super) trails: bool,
    /// The step's prediction's answer and wrong answers from this start (walk_lesson).
    pub(super) truth: Option<crate::editor::lesson::predict::Truth>,
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
    pub(super) starts: Vec<Snapshot>,
    /// The step's prediction, if it asks for one.
    pub(super) predicting: super::lesson_prediction::PredictState,
    /// When the step started (the report's time per step).
    pub(super) step_started: std::time::Instant,
    hints: usize,
    goals: Vec<bool>,
    keeps: Vec<bool>,
    recomputed: usize,
    showing: VecDeque<(Action, Pos)>,
    show_wait: f32,
    /// The introduction is shown (before the step's text).
    intro: bool,
    /// When the lesson started, and how long it took once finished.
    started: std::time::Instant,
    finished: Option<std::time::Duration>,
    /// What `graft lesson check` found wrong with this lesson (shown in the panel).
    failures: Vec<CheckFailure>,
}

/// What a finished lesson's summary says.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Steps completed (remembered progress).
    pub done: usize,
    /// Steps in the lesson.
    pub steps: usize,
    /// How long the lesson took.
    pub time: std::time::Duration,
    /// What was learned: the lesson's `about:` (or its title).
    pub learned: String,
    /// The next lesson of the course: its index and title.
    pub next: Option<(usize, String)>,
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

    /// True when every goal and keep of the step holds and a predict step's prediction was
    /// given (or Show me played): Next lights up.
    pub fn step_done(&self) -> bool {
        self.goals_hold() && self.predicted_or_shown()
    }

    /// True when every goal and keep of the step holds.
    pub fn goals_hold(&self) -> bool {
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

    /// True while the lesson's introduction is shown.
    pub fn showing_intro(&self) -> bool {
        self.intro
    }

    /// How long the lesson took, once its last step was finished.
    pub fn finished(&self) -> Option<std::time::Duration> {
        self.finished
    }

    /// What `graft lesson check` found wrong with this lesson.
    pub fn failures(&self) -> &[CheckFailure] {
        &self.failures
    }

    /// The goals' view of `session` with this run's names and counts.
    pub(super) fn context<'a>(&'a self, session: &'a dyn SessionView) -> Context<'a> {
        Context {
            session,
            bindings: &self.bindings,
            recomputed: self.recomputed,
        }
    }

    /// For each keep of the step: what changed, when it no longer holds.
    pub fn keep_changes(&self, session: &dyn SessionView) -> Vec<Option<String>> {
        let context = self.context(session);
        let step = self.step();
        let explain = |k: &Goal| what_changed(&context, &k.predicate, &step.goals);
        step.keeps.iter().map(explain).collect()
    }

    /// The summary of a finished lesson (None before its last step is finished).
    pub fn summary(&self, progress: &CourseProgress) -> Option<Summary> {
        use crate::editor::lesson::course;
        let time = self.finished?;
        let lesson = &self.lesson;
        // The course's titles are parsed once (`course::builtin`), not every frame.
        let next = course::index_of(&lesson.path)
            .map(|k| k + 1)
            .and_then(|k| Some((k, course::builtin(k)?.title.clone())));
        Some(Summary {
            done: progress.count(&lesson.id).min(lesson.steps.len()),
            steps: lesson.steps.len(),
            time,
            learned: if lesson.about.is_empty() {
                lesson.title.clone()
            } else {
                lesson.about.clone()
            },
            next,
        })
    }

    /// The nodes the step's names are bound to.
    pub(super) fn bound_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.bindings.ids()
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
    pub(super) run: Option<LessonRun>,
    pub(super) progress: CourseProgress,
    /// The files of the parts lessons instance.
    pub(super) parts: super::lesson_parts::PartsDir,
}

impl Lessons {
    /// The file of a lesson's part (the sample scene `sample`), written into the parts folder
    /// when not there yet.
    pub(super) fn part_file(&self, sample: &str) -> Result<PathBuf> {
        self.parts.file(sample)
    }

    /// A world update recomputed `count` matrices (count > 0): the running step's `recomputed`.
    pub(super) fn note_recomputed(&mut self, count: usize) {
        if let Some(run) = self.run.as_mut() {
            run.recomputed = count;
        }
    }
}

/// A lesson as one learner plays it (`lesson_check::walk_seeded`): its steps with that learner's numbers, each step's
/// start, and what failed.
#[derive(Debug)]
pub struct Walk {
    /// The lesson with the numbers drawn and the placeholders replaced.
    pub lesson: Lesson,
    /// How each step starts.
    pub starts: Vec<Snapshot>,
    /// Goals, keeps, claims and mistakes that failed.
    pub failures: Vec<CheckFailure>,
}

/// A goal that failed `graft lesson check`.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFailure {
    /// The step's index.
    pub step: usize,
    /// What went wrong, with the goal's place.
    pub message: String,
}

impl LessonRun {
    /// How step `k` starts for a learner who followed the solutions (Back, GoTo).
    pub(super) fn start_of(&self, k: usize) -> &Snapshot {
        &self.starts[k]
    }

    /// How the current step started (Reset puts it back).
    pub(super) fn entry(&self) -> Option<&Snapshot> {
        self.entry.as_ref()
    }

    /// Step `k` was entered: its names bound, its hints, prediction, goals and time afresh,
    /// `entry` kept for Reset.
    pub(super) fn entered(&mut self, k: usize, bindings: Bindings, entry: Snapshot) {
        self.bindings = bindings;
        self.step = k;
        self.hints = 0;
        self.predicting = Default::default();
        self.step_started = std::time::Instant::now();
        self.finished = None;
        self.entry = Some(entry);
        self.goals.clear();
        self.keeps.clear();
    }
}

/// Show me's next action, with what playing it needs.
pub(super) struct ShowAction {
    /// The solution line.
    pub(super) action: Action,
    /// The step's names.
    pub(super) bindings: Bindings,
    /// The lesson's file (errors point into it).
    pub(super) path: PathBuf,
    /// The undo step's label.
    pub(super) label: String,
    /// True for the solution's last action (it closes the undo step).
    pub(super) last: bool,
}

impl Lessons {
    /// The lesson being followed.
    pub(super) fn run(&self) -> Option<&LessonRun> {
        self.run.as_ref()
    }

    /// The learner's progress through lessons.
    pub(super) fn progress(&self) -> &CourseProgress {
        &self.progress
    }

    /// The progress a previous run kept (at start-up).
    pub(super) fn set_progress(&mut self, progress: CourseProgress) {
        self.progress = progress;
    }

    /// The window's start: the learner's seed.
    pub(super) fn draw_seed(&mut self, run: Option<u64>) {
        self.progress.draw_seed(run);
    }

    /// The running lesson, taken out while its step changes the session (put back after).
    pub(super) fn take_run(&mut self) -> Option<LessonRun> {
        self.run.take()
    }

    /// The running lesson put back.
    pub(super) fn put_run(&mut self, run: Option<LessonRun>) {
        self.run = run;
    }

    /// The lesson put back after its step was reset: hints and prediction afresh.
    pub(super) fn restart_step(&mut self, run: Option<LessonRun>) {
        self.run = run;
        if let Some(run) = self.run.as_mut() {
            run.hints = 0;
            run.predicting = Default::default();
        }
    }

    /// Close the lesson panel (the scene stays).
    pub(super) fn close(&mut self, log: &mut MessageLog) -> Outcome {
        self.run = None;
        log.info("Closed the lesson (the scene stays)");
        Outcome::default()
    }

    /// Forget the lesson (another scene replaced the lesson's).
    pub(super) fn end(&mut self) {
        self.run = None;
    }

    /// The current step's index (0 without a lesson).
    pub(super) fn step(&self) -> usize {
        self.run.as_ref().map_or(0, |r| r.step)
    }

    /// Steps in the running lesson (0 without one).
    pub(super) fn steps(&self) -> usize {
        self.run.as_ref().map_or(0, |r| r.lesson.steps.len())
    }

    /// Leave the introduction (a step is picked).
    pub(super) fn leave_intro(&mut self) {
        if let Some(run) = self.run.as_mut() {
            run.intro = false;
        }
    }

    /// Show the introduction again (true) or leave it for the step.
    pub(super) fn show_intro(&mut self, intro: bool) -> Outcome {
        if let Some(run) = self.run.as_mut() {
            run.intro = intro;
            run.finished = None;
        }
        Outcome::default()
    }

    /// Show the next hint.
    pub(super) fn hint(&mut self) -> Outcome {
        if let Some(run) = self.run.as_mut() {
            run.hints = (run.hints + 1).min(run.step().hints.len());
        }
        Outcome::default()
    }

    /// The seed the learner's numbers are drawn with (their `vary:` lines).
    pub(super) fn seed(&self) -> u64 {
        self.progress.seed()
    }

    /// Start a lesson (the unsaved-changes prompt is done): walked and checked, then run from
    /// its first step; returns the first step not completed yet, which the caller enters.
    /// The router walks it (`lesson_check::walk_seeded` with [`Lessons::seed`]).
    pub(super) fn begin_run(&mut self, log: &mut MessageLog, walk: Walk) -> usize {
        let (lesson, starts, failures) = (walk.lesson, walk.starts, walk.failures);
        if let Some(f) = failures.first() {
            log.info(format!(
                "Warning: this lesson fails its own check: {}",
                f.message
            ));
        }
        let intro = !(lesson.intro.is_empty() && lesson.about.is_empty() && failures.is_empty());
        let first = self.progress.resume_at(&lesson.id, lesson.steps.len());
        log.info(format!("Lesson: {}", cut(&lesson.title)));
        self.run = Some(LessonRun {
            lesson,
            step: 0,
            bindings: Bindings::default(),
            entry: None,
            starts,
            predicting: Default::default(),
            step_started: std::time::Instant::now(),
            hints: 0,
            goals: Vec::new(),
            keeps: Vec::new(),
            recomputed: 0,
            showing: VecDeque::new(),
            show_wait: 0.0,
            intro,
            started: std::time::Instant::now(),
            finished: None,
            failures,
        });
        first
    }

    /// Next, once the goals were evaluated: the step to enter, or None (no lesson, or the
    /// last step was finished: the lesson is complete). Refused while a goal does not hold.
    pub(super) fn next_step(&mut self, log: &mut MessageLog) -> Result<Option<usize>> {
        let Some(run) = self.run.as_mut() else {
            return Ok(None);
        };
        if !run.step_done() {
            return Err(Error::Refused(
                "Next is for when every goal of this step holds (Show me plays the solution)"
                    .into(),
            ));
        }
        if run.step + 1 >= run.lesson.steps.len() {
            log.info(format!("Lesson complete: {}", cut(&run.lesson.title)));
            run.finished = Some(run.started.elapsed());
            return Ok(None);
        }
        Ok(Some(run.step + 1))
    }

    /// Show me: queue the step's solution (unless it already plays).
    pub(super) fn start_show(&mut self) -> Outcome {
        if let Some(run) = self.run.as_mut().filter(|r| r.showing.is_empty()) {
            run.showing = run.step().solution.iter().cloned().collect();
            run.show_wait = 0.0;
            run.predicting.shown = true;
            run.predicting.by_click = false;
        }
        Outcome::default()
    }

    /// True while Show me plays.
    pub(super) fn showing(&self) -> bool {
        self.run.as_ref().is_some_and(LessonRun::showing)
    }

    /// Show me's next action, taken off the queue.
    pub(super) fn next_show_action(&mut self) -> Option<ShowAction> {
        let run = self.run.as_mut()?;
        let (action, _at) = run.showing.pop_front()?;
        Some(ShowAction {
            action,
            bindings: run.bindings.clone(),
            path: run.lesson.path.clone(),
            label: format!("Show me: {}", run.step().title),
            last: run.showing.is_empty(),
        })
    }

    /// Show me stops (an action failed).
    pub(super) fn stop_show(&mut self) {
        if let Some(run) = self.run.as_mut() {
            run.showing.clear();
        }
    }

    /// One frame of Show me: None without a lesson, else whether its next action is due now.
    pub(super) fn show_due(&mut self, dt: f32) -> Option<bool> {
        let run = self.run.as_mut()?;
        if !run.showing() {
            return Some(false);
        }
        run.show_wait -= dt;
        if run.show_wait > 0.0 {
            return Some(false);
        }
        run.show_wait = SHOW_STEP_SECONDS;
        Some(true)
    }

    /// The step's goals and keeps as evaluated now; a step done is remembered in the progress.
    pub(super) fn note_goals(&mut self, goals: Vec<bool>, keeps: Vec<bool>) {
        let Some(run) = self.run.as_mut() else {
            return;
        };
        run.goals = goals;
        run.keeps = keeps;
        if run.step_done() {
            let (id, step) = (run.lesson.id.clone(), run.step);
            let record = run.step_record();
            if self.progress.complete(&id, step) {
                self.progress.record(&id, step, record);
            }
        }
    }
}
