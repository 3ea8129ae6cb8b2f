//! The session's lesson: the running lesson and its step, goals evaluated every frame, hints,
//! **Show me** played action by action as one undo step, Reset, Back and Next, and the
//! learner's progress. The file format and the goal logic are in `editor/lesson/`.

use crate::editor::lesson::eval::{Bindings, Context};
use crate::editor::lesson::explain::what_changed;
use crate::editor::lesson::parse::cut;
use crate::editor::lesson::play::bind_step;
use crate::editor::lesson::progress::CourseProgress;
use crate::editor::lesson::{Action, Goal, Lesson, Pos, Step};
use crate::editor::session::command::ViewSpace;
use crate::editor::session::lesson_play::{action_commands, setup_commands};
use crate::editor::session::settings::ViewOptions;
use crate::editor::session::{Editor, FileAction, Outcome};
use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use std::collections::VecDeque;

pub use super::lesson_check::{read_lesson, walk_lesson};
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
    /// Leave the introduction for the step.
    Begin,
    /// Show the lesson's introduction again.
    Introduction,
    /// Pick a lesson file in a dialog titled and filtered for lessons.
    OpenFile,
    /// Help ▸ Export my progress…: pick where to write the progress as JSON.
    ExportProgress,
    /// Commit a prediction (a predict step, before acting).
    Predict(super::lesson_prediction::PredictInput),
    /// Take the next viewport click as the prediction (true) or not.
    PredictByClick(bool),
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

    /// The goals' view of `editor` with this run's names and counts.
    pub(super) fn context<'a>(&'a self, editor: &'a Editor) -> Context<'a> {
        Context {
            session: editor,
            bindings: &self.bindings,
            recomputed: self.recomputed,
        }
    }

    /// For each keep of the step: what changed, when it no longer holds.
    pub fn keep_changes(&self, editor: &Editor) -> Vec<Option<String>> {
        let context = self.context(editor);
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
    pub fn lesson_progress(&self) -> &CourseProgress {
        &self.lessons.progress
    }

    /// The session restored with the progress a previous run kept (at start-up).
    pub fn with_lesson_progress(mut self, progress: CourseProgress) -> Self {
        self.lessons.progress = progress;
        self
    }

    pub(super) fn lesson_command(&mut self, command: LessonCommand) -> Result<Outcome> {
        let opens = matches!(
            command,
            LessonCommand::Open(_) | LessonCommand::OpenFile | LessonCommand::ExportProgress
        );
        if self.lessons.run.is_none() && !opens {
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
            LessonCommand::GoTo(k) => {
                if let Some(run) = self.lessons.run.as_mut() {
                    run.intro = false;
                }
                self.go_to_step(k)
            }
            LessonCommand::Hint => {
                if let Some(run) = self.lessons.run.as_mut() {
                    run.hints = (run.hints + 1).min(run.step().hints.len());
                }
                Ok(Outcome::default())
            }
            LessonCommand::ShowMe => Ok(self.start_show()),
            LessonCommand::Reset => self.reset_step(),
            LessonCommand::Begin | LessonCommand::Introduction => {
                if let Some(run) = self.lessons.run.as_mut() {
                    run.intro = command == LessonCommand::Introduction;
                    run.finished = None;
                }
                Ok(Outcome::default())
            }
            LessonCommand::OpenFile => {
                Ok(self.start_dialog(crate::editor::session::DialogPurpose::OpenLesson))
            }
            LessonCommand::ExportProgress => {
                Ok(self.start_dialog(crate::editor::session::DialogPurpose::ExportProgress))
            }
            LessonCommand::Predict(input) => self.lessons.predict(&mut self.log, input),
            LessonCommand::PredictByClick(on) => self.lessons.predict_by_click(on),
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
        if let LessonSource::File(path) = source {
            // Help > Lessons lists the lesson files opened before (with the recent files).
            self.remember(path);
        }
        self.request(FileAction::OpenLesson(Box::new(lesson)))
    }

    /// Start a lesson at the first step not completed yet (the unsaved-changes prompt is done).
    pub(super) fn start_lesson(&mut self, lesson: Lesson) -> Result<Outcome> {
        let seed = self.lessons.progress.seed();
        let walk = super::lesson_check::walk_seeded(&lesson, seed)?;
        let (lesson, starts, failures) = (walk.lesson, walk.starts, walk.failures);
        if let Some(f) = failures.first() {
            self.log.info(format!(
                "Warning: this lesson fails its own check: {}",
                f.message
            ));
        }
        let intro = !(lesson.intro.is_empty() && lesson.about.is_empty() && failures.is_empty());
        let first = self
            .lessons
            .progress
            .resume_at(&lesson.id, lesson.steps.len());
        self.info(format!("Lesson: {}", cut(&lesson.title)));
        self.lessons.run = Some(LessonRun {
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
            let title = cut(&run.lesson.title);
            self.info(format!("Lesson complete: {title}"));
            if let Some(run) = self.lessons.run.as_mut() {
                run.finished = Some(run.started.elapsed());
            }
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
        run.predicting = Default::default();
        run.step_started = std::time::Instant::now();
        run.finished = None;
        run.entry = Some(self.snapshot());
        run.goals.clear();
        run.keeps.clear();
        outcome.effects.extend(run.step_framing(self, keeps_scene));
        Ok(outcome)
    }

    /// Apply a step's set-up through the normal commands.
    pub(super) fn apply_setup(&mut self, step: &Step, path: &std::path::Path) -> Result<()> {
        self.update_world();
        let bindings = bind_step(self.doc.scene(), step, path)?;
        for command in setup_commands(self, &step.setup, &bindings, path)? {
            self.dispatch(command)?;
        }
        for command in super::lesson_play::vary_commands(self, step, &bindings)? {
            self.dispatch(command)?;
        }
        self.update_world();
        Ok(())
    }

    fn reset_step(&mut self) -> Result<Outcome> {
        self.finish_show();
        let entry = self.lessons.run.as_ref().and_then(|r| r.entry.clone());
        let mut outcome = entry
            .map(|e| self.restore_keeping_lesson(&e))
            .unwrap_or_default();
        // The step starts again as it started: framed again too.
        if let Some(run) = self.lessons.run.as_ref() {
            outcome.effects.extend(run.step_framing(self, false));
        }
        self.info("Step reset");
        Ok(outcome)
    }

    fn restore_keeping_lesson(&mut self, snapshot: &Snapshot) -> Outcome {
        let run = self.lessons.run.take();
        let outcome = self.restore(snapshot);
        self.lessons.run = run;
        if let Some(run) = self.lessons.run.as_mut() {
            run.hints = 0;
            run.predicting = Default::default();
        }
        outcome
    }

    fn start_show(&mut self) -> Outcome {
        if let Some(run) = self.lessons.run.as_mut().filter(|r| r.showing.is_empty()) {
            run.showing = run.step().solution.iter().cloned().collect();
            run.show_wait = 0.0;
            run.predicting.shown = true;
            run.predicting.by_click = false;
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
    pub(super) fn lesson_tick(&mut self, dt: f32) -> bool {
        let Some(run) = self.lessons.run.as_mut() else {
            return false;
        };
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
        let (goals, keeps) = super::lesson_check::evaluate(self, run);
        let run = self.lessons.run.as_mut().expect("checked above");
        run.goals = goals;
        run.keeps = keeps;
        if run.step_done() {
            let (id, step) = (run.lesson.id.clone(), run.step);
            let record = run.step_record();
            if self.lessons.progress.complete(&id, step) {
                self.lessons.progress.record(&id, step, record);
            }
        }
    }

    /// Forget the lesson (another scene replaced the lesson's).
    pub(super) fn end_lesson(&mut self) {
        self.lessons.run = None;
    }
}
