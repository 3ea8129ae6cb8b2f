//! A predict step's truth: the answer after the solution, each expected mistake's wrong value
//! (the keep-world mistakes by playing the solution again with keep-world flipped) and the
//! account from the matrix chain. `graft lesson check` requires every mistake to stay apart
//! from the answer; the panel judges the learner's prediction against it.

use super::lesson::{CheckFailure, Snapshot};
use crate::editor::lesson::eval::Bindings;
use crate::editor::lesson::parse::{cut, error_at};
use crate::editor::lesson::predict::mistakes::{Scenes, wrong_value};
use crate::editor::lesson::predict::{Predict, Truth, Value, account::account};
use crate::editor::lesson::{Action, Lesson, Step, ValueSpace};
use crate::editor::session::Editor;
use crate::editor::session::command::{Command, HistoryCommand, SettingCommand};
use crate::editor::session::lesson_play::action_commands;
use crate::error::Result;
use crate::model::document::Document;
use crate::model::scene::Scene;

impl Snapshot {
    /// Find the truth of `step`'s prediction from this start (`after`: the session the
    /// solution led to), and return each mistake it does not stand apart from.
    pub(super) fn find_truth(
        &mut self,
        after: &Editor,
        (lesson, k): (&Lesson, usize),
        step: &Step,
        bindings: &Bindings,
    ) -> Result<Vec<CheckFailure>> {
        self.truth = step_truth(after, lesson, step, self, bindings)?;
        Ok(match (&step.predict, &self.truth) {
            (Some(predict), Some(truth)) => truth_failures(lesson, k, predict, truth),
            _ => Vec::new(),
        })
    }
}

/// The truth of `step`'s prediction, `after` being the session its solution played from
/// `start` led to. A mistake that cannot apply (no reparent for `keep-local`) refuses the lesson
/// at the mistake's place.
fn step_truth(
    after: &Editor,
    lesson: &Lesson,
    step: &Step,
    start: &Snapshot,
    bindings: &Bindings,
) -> Result<Option<Truth>> {
    let Some(predict) = &step.predict else {
        return Ok(None);
    };
    let path = &lesson.path;
    let scene = after.doc().scene();
    let id = bindings
        .resolve(scene, &predict.node.text)
        .filter(|id| scene.contains(*id))
        .ok_or_else(|| {
            error_at(
                path,
                predict.node.at,
                format!("`{}` is gone after the solution", cut(&predict.node.text)),
            )
        })?;
    let trs = match predict.frame {
        ValueSpace::World => scene.world_trs(id),
        ValueSpace::Local => scene.node(id).map(|d| d.local),
    }?;
    let flipped = match reparents(step) {
        true => Some(flipped_solution(lesson, step, start, bindings)?),
        false => None,
    };
    let scenes = Scenes {
        after: scene,
        flipped: flipped.as_ref(),
    };
    let wrong = (predict.mistakes.iter())
        .map(|m| wrong_value(predict, &m.kind, id, &scenes).map_err(|e| error_at(path, m.at, e)))
        .collect::<Result<Vec<Value>>>()?;
    let parent = match predict.frame {
        ValueSpace::World => None,
        ValueSpace::Local => scene.parent(id)?,
    };
    Ok(Some(Truth {
        answer: Value::of(&trs, predict.kind),
        wrong,
        account: account(scene, id, predict),
        space: parent.map_or(Ok(glam::Affine2::IDENTITY), |p| scene.world(p))?,
    }))
}

/// True when the step's solution moves a node under another parent.
fn reparents(step: &Step) -> bool {
    (step.solution.iter()).any(|(a, _)| matches!(a, Action::Reparent { .. }))
}

/// The scene the solution gives when every reparent keeps what it did not keep.
fn flipped_solution(
    lesson: &Lesson,
    step: &Step,
    start: &Snapshot,
    bindings: &Bindings,
) -> Result<Scene> {
    let mut editor = Editor::new(Document::untitled(start.scene().clone()));
    if editor.keep_world() != start.keep_world() {
        editor.dispatch(Command::Setting(SettingCommand::ToggleKeepWorld))?;
    }
    editor.update_world();
    for (action, at) in &step.solution {
        let action = match action {
            Action::Reparent { node, to, keep } => Action::Reparent {
                node: node.clone(),
                to: to.clone(),
                keep: Some(keep.unwrap_or(editor.keep()).other()),
            },
            other => other.clone(),
        };
        for command in action_commands(
            &editor.play_from(),
            &action,
            bindings,
            &lesson.path,
            "flipped",
        )? {
            editor
                .play(command)
                .map_err(|e| error_at(&lesson.path, *at, e.to_string()))?;
        }
        editor.update_world();
    }
    editor.dispatch(Command::History(HistoryCommand::EndGesture))?;
    editor.update_world();
    Ok(editor.doc().scene().clone())
}

/// Each mistake that the answer does not stand apart from (closer than twice the tolerance: a
/// prediction could not tell them apart).
fn truth_failures(
    lesson: &Lesson,
    k: usize,
    predict: &Predict,
    truth: &Truth,
) -> Vec<CheckFailure> {
    let apart = 2.0 * predict.tolerance;
    let kind = predict.kind;
    (predict.mistakes.iter().zip(&truth.wrong))
        .filter(|(_, w)| w.distance(truth.answer, kind) <= apart)
        .map(|(m, w)| CheckFailure {
            step: k,
            message: format!(
                "{}:{}:{}: step {} \"{}\": the mistake gives {}, within {} of the answer {}: a prediction cannot tell them apart",
                lesson.path.display(),
                m.at.line,
                m.at.col,
                k + 1,
                cut(&lesson.steps[k].title),
                w.describe(kind),
                apart,
                truth.answer.describe(kind)
            ),
        })
        .collect()
}
