//! `graft lesson check`'s walk: a lesson played as a learner who follows it, step by step,
//! its goals checked before and after each solution. The panel uses the same walk for each
//! step's canonical start (Back, GoTo).

use super::lesson::{CheckFailure, Snapshot, Walk};
use crate::editor::lesson::claims::{Claim, Quantity, claims};
use crate::editor::lesson::eval::{Bindings, Context};
use crate::editor::lesson::parse::varying::{instantiate, with_draws};
use crate::editor::lesson::parse::{cut, error_at};
use crate::editor::lesson::play::{bind_step, load_scene};
use crate::editor::lesson::vary::{Variables, lookup};
use crate::editor::lesson::{Goal, Lesson, Step, ValueSpace};
use crate::editor::session::Editor;
use crate::editor::session::command::{Command, HistoryCommand};
use crate::editor::session::lesson_play::action_commands;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::math::Trs;
use crate::model::scene::Scene;

/// Play a lesson as a learner who follows it: each step's start (its scene or the previous
/// step's end, then its set-up), its goals before and after its solution. Returns each step's
/// start and the goals that failed; an error (a scene that does not load, a name no node has,
/// a solution line the editor refuses) means the lesson cannot be played at all. A lesson
/// with `vary:` lines is played with the numbers of seed 0.
pub fn walk_lesson(lesson: &Lesson) -> Result<(Vec<Snapshot>, Vec<CheckFailure>)> {
    let walk = walk_seeded(lesson, 0)?;
    Ok((walk.starts, walk.failures))
}

/// How many learners' numbers `graft lesson check` plays a lesson with `vary:` lines with.
pub const VARY_SEEDS: u64 = 50;

/// `graft lesson check`'s verdict: the lesson played once, or with `vary:` lines once for each
/// of [`VARY_SEEDS`] seeds; the failures of the first seed that fails, each saying the seed.
pub fn check_lesson(lesson: &Lesson) -> Result<Vec<CheckFailure>> {
    if lesson.steps.iter().all(|s| s.vary.is_empty()) {
        return Ok(walk_lesson(lesson)?.1);
    }
    for seed in 0..VARY_SEEDS {
        let mut failures = walk_seeded(lesson, seed)?.failures;
        if !failures.is_empty() {
            for f in &mut failures {
                f.message
                    .push_str(&format!(" (with the numbers of seed {seed})"));
            }
            return Ok(failures);
        }
    }
    Ok(Vec::new())
}

/// [`walk_lesson`] with the numbers `seed` draws for the `vary:` lines.
pub fn walk_seeded(lesson: &Lesson, seed: u64) -> Result<Walk> {
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    let mut recomputed = 0;
    let mut walk = Walk {
        lesson: Lesson {
            steps: Vec::new(),
            ..lesson.clone()
        },
        starts: Vec::new(),
        failures: Vec::new(),
    };
    let mut variables = Variables::new();
    for (k, step) in lesson.steps.iter().enumerate() {
        if let Some((source, at)) = &step.scene {
            let scene = load_scene(lesson, source, *at)?;
            editor.file_parts().swap_document(Document::untitled(scene));
        }
        recomputed = nonzero(editor.update_world(), recomputed);
        let drawn = with_draws(step, seed, &lesson.id, k, &mut variables);
        editor
            .apply_setup(&drawn, &lesson.path)
            .map_err(|e| at_step(lesson, step, e))?;
        let scene = editor.doc.scene();
        let value =
            |e: &str| crate::editor::lesson::vary::evaluate(e, &|a| lookup(a, &variables, scene));
        let step = instantiate(&drawn, &lesson.path, &value)?;
        recomputed = nonzero(editor.doc.scene().last_recomputed(), recomputed);
        recomputed = walk_step(lesson, k, &step, &mut editor, recomputed, &mut walk)?;
        walk.lesson.steps.push(step);
    }
    Ok(walk)
}

/// One step from its start: its goals, claims and prediction checked around its solution.
fn walk_step(
    lesson: &Lesson,
    k: usize,
    step: &Step,
    editor: &mut Editor,
    mut recomputed: usize,
    walk: &mut Walk,
) -> Result<usize> {
    let failures = &mut walk.failures;
    let mut start = editor.snapshot();
    let bindings = bind_step(editor.doc.scene(), step, &lesson.path)?;
    let check = Check {
        lesson,
        k,
        step,
        bindings: &bindings,
    };
    check.goals(editor, recomputed, false, failures);
    let claims = claims(step);
    let before: Vec<Vec<Seen>> = (claims.iter())
        .map(|c| seen(editor, &bindings, c, recomputed))
        .collect();
    recomputed = play_solution(editor, &check, recomputed)?;
    check.goals(editor, recomputed, true, failures);
    for (claim, before) in claims.iter().zip(before) {
        let after = seen(editor, &bindings, claim, recomputed);
        if !before.iter().chain(&after).any(|s| s.shows(claim)) {
            failures.push(check.false_number(claim, &before[0], &after[0]));
        }
    }
    failures.extend(start.find_truth(editor, (lesson, k), step, &bindings)?);
    walk.starts.push(start);
    Ok(recomputed)
}

/// One step being checked.
struct Check<'a> {
    lesson: &'a Lesson,
    k: usize,
    step: &'a Step,
    bindings: &'a Bindings,
}

impl Check<'_> {
    /// Before the solution no goal may hold and every keep must; after it, all must.
    fn goals(
        &self,
        editor: &Editor,
        recomputed: usize,
        after: bool,
        failures: &mut Vec<CheckFailure>,
    ) {
        let context = Context {
            session: editor,
            bindings: self.bindings,
            recomputed,
        };
        let goal_problem = if after {
            "does not hold after the solution"
        } else {
            "already holds before the solution (a task that cannot be failed)"
        };
        for goal in &self.step.goals {
            if context.holds(&goal.predicate) != after {
                failures.push(self.failure(goal, "goal", goal_problem));
            }
        }
        let keep_problem = if after {
            "does not hold after the solution"
        } else {
            "does not hold when the step starts"
        };
        for keep in &self.step.keeps {
            if !context.keep_holds(&keep.predicate, &self.step.goals) {
                failures.push(self.failure(keep, "keep", keep_problem));
            }
        }
    }

    /// A number the text states that the screen shows neither at the step's start nor after
    /// its solution.
    fn false_number(&self, claim: &Claim, before: &Seen, after: &Seen) -> CheckFailure {
        let what = match claim.quantity {
            Quantity::Position => "position",
            Quantity::Rotation => "rotation",
            Quantity::Scale => "scale",
            Quantity::Recomputed => "count of recomputed matrices",
        };
        CheckFailure {
            step: self.k,
            message: format!(
                "{}:{}:{}: step {} \"{}\": the text says the {} {what} is {}, but the screen shows {} at the step's start and {} after its solution",
                self.lesson.path.display(),
                claim.at.line,
                claim.at.col,
                self.k + 1,
                cut(&self.step.title),
                claim.node,
                claim.text,
                before.describe(claim),
                after.describe(claim),
            ),
        }
    }

    fn failure(&self, goal: &Goal, kind: &str, what: &str) -> CheckFailure {
        CheckFailure {
            step: self.k,
            message: format!(
                "{}:{}:{}: step {} \"{}\": {kind} `{}` {what}",
                self.lesson.path.display(),
                goal.at.line,
                goal.at.col,
                self.k + 1,
                cut(&self.step.title),
                cut(&goal.label)
            ),
        }
    }
}

/// What the screen shows of a claim's node at one moment: its local and world numbers (as the
/// inspector does) and the recomputed count.
struct Seen {
    local: Option<Trs>,
    world: Option<Trs>,
    recomputed: usize,
}

/// What the screen shows of each node the claim may be about (its nearest link first).
fn seen(editor: &Editor, bindings: &Bindings, claim: &Claim, recomputed: usize) -> Vec<Seen> {
    let scene = editor.doc.scene();
    let nodes = std::iter::once(&claim.node).chain(&claim.others);
    nodes
        .map(|name| {
            let id = bindings.resolve(scene, name);
            Seen {
                local: id.and_then(|id| scene.node(id).ok()).map(|d| d.local),
                world: id.and_then(|id| scene.world_trs(id).ok()),
                recomputed,
            }
        })
        .collect()
}

impl Seen {
    /// The values of the claim's quantity shown now (local and world, as the sentence allows).
    fn values(&self, claim: &Claim) -> Vec<Vec<f64>> {
        if claim.quantity == Quantity::Recomputed {
            return vec![vec![self.recomputed as f64]];
        }
        let frames = [
            (ValueSpace::Local, self.local),
            (ValueSpace::World, self.world),
        ];
        let allowed = frames
            .into_iter()
            .filter(|(frame, _)| claim.frame.is_none_or(|f| f == *frame));
        allowed
            .filter_map(|(_, trs)| trs)
            .map(|t| match claim.quantity {
                Quantity::Position => vec![t.position.x as f64, t.position.y as f64],
                Quantity::Scale => vec![t.scale.x as f64, t.scale.y as f64],
                _ => vec![t.rotation as f64],
            })
            .collect()
    }

    /// True when the screen reads as the claim says (angles a whole turn apart read alike).
    fn shows(&self, claim: &Claim) -> bool {
        let near = |a: f64, b: f64| {
            let d = if claim.quantity == Quantity::Rotation {
                crate::model::math::normalize_degrees(a - b)
            } else {
                a - b
            };
            d.abs()
                <= claim
                    .tolerance
                    .max(crate::editor::view::numbers::ROUND_WITHIN)
        };
        self.values(claim).iter().any(|v| {
            v.len() == claim.value.len() && v.iter().zip(&claim.value).all(|(a, b)| near(*a, *b))
        })
    }

    /// The values shown, as the inspector shows them: "(2, 3)", "-90".
    fn describe(&self, claim: &Claim) -> String {
        use crate::editor::view::numbers::{format_angle, format_display};
        let one = |v: &Vec<f64>| {
            let text: Vec<String> = v
                .iter()
                .map(|x| match claim.quantity {
                    Quantity::Rotation => format_angle(*x, 0, 5),
                    _ => format_display(*x),
                })
                .collect();
            if text.len() == 1 {
                text[0].clone()
            } else {
                format!("({})", text.join(", "))
            }
        };
        let all: Vec<String> = self.values(claim).iter().map(one).collect();
        if all.is_empty() {
            "nothing".into()
        } else {
            all.join(" or ")
        }
    }
}

/// The step's `do:` lines through the editor's commands, as Show me plays them; returns the
/// last non-zero recomputed count.
fn play_solution(editor: &mut Editor, check: &Check, mut recomputed: usize) -> Result<usize> {
    let (lesson, step) = (check.lesson, check.step);
    let label = format!("Show me: {}", step.title);
    for (action, at) in &step.solution {
        for command in action_commands(
            &editor.play_from(),
            action,
            check.bindings,
            &lesson.path,
            &label,
        )? {
            editor.play(command).map_err(|e| {
                error_at(
                    &lesson.path,
                    *at,
                    format!("this solution line was refused: {e}"),
                )
            })?;
        }
        recomputed = nonzero(editor.update_world(), recomputed);
    }
    editor.dispatch(Command::History(HistoryCommand::EndGesture))?;
    Ok(recomputed)
}

fn nonzero(count: usize, previous: usize) -> usize {
    if count > 0 { count } else { previous }
}

fn at_step(lesson: &Lesson, step: &Step, e: Error) -> Error {
    match e {
        e @ Error::Syntax { .. } => e,
        other => error_at(
            &lesson.path,
            step.at,
            format!(
                "the set-up of step \"{}\" was refused: {other}",
                cut(&step.title)
            ),
        ),
    }
}

/// Which goals and keeps of the run's current step hold now.
pub(super) fn evaluate(editor: &Editor, run: &super::lesson::LessonRun) -> (Vec<bool>, Vec<bool>) {
    let context = run.context(editor);
    let step = run.step();
    let goals = step.goals.iter().map(|g| context.holds(&g.predicate));
    let keeps = (step.keeps.iter()).map(|g| context.keep_holds(&g.predicate, &step.goals));
    (goals.collect(), keeps.collect())
}
