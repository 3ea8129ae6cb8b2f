//! A predict step in the running lesson: the learner's committed prediction (typed, or a
//! click in the viewport snapped to the viewport's step), the click mode, and the feedback
//! once the action happened. The judging is `editor/lesson/predict`'s.

use super::lesson::{LessonRun, Lessons};
pub use super::lesson_prediction::{PredictInput, PredictState, Prediction};
use super::messages::MessageLog;
use crate::editor::lesson::predict::mistakes::judge;
use crate::editor::lesson::predict::{Feedback, Predict, Truth, Value, read_typed};
use crate::editor::session::purpose::Outcome;
use crate::error::{Error, Result};

impl LessonRun {
    /// The step's prediction question (None: the step predicts nothing).
    pub fn predict(&self) -> Option<&Predict> {
        self.step().predict.as_ref()
    }

    /// The learner's prediction in this step.
    pub fn prediction(&self) -> Option<&Prediction> {
        self.predicting.prediction.as_ref()
    }

    /// True while the next viewport click is taken as the prediction.
    pub fn predicting_by_click(&self) -> bool {
        self.predicting.by_click && self.predict().is_some() && self.prediction().is_none()
    }

    /// The answer and wrong answers of the step's prediction.
    pub fn truth(&self) -> Option<&Truth> {
        self.starts.get(self.step_index())?.truth()
    }

    /// True once the prediction may be compared with the result: it was given and the
    /// action happened (every goal holds).
    pub fn revealed(&self) -> bool {
        self.prediction().is_some() && self.goals_hold()
    }

    /// The prediction judged, once revealed.
    pub fn feedback(&self) -> Option<Feedback> {
        if !self.revealed() {
            return None;
        }
        Some(judge(
            self.predict()?,
            self.truth()?,
            self.prediction()?.value,
        ))
    }

    /// A predict step needs a prediction (or Show me) before Next.
    pub(super) fn predicted_or_shown(&self) -> bool {
        self.predict().is_none() || self.prediction().is_some() || self.predicting.shown
    }
}

impl Lessons {
    /// Commit the learner's prediction (a new one replaces it until the result is revealed).
    pub(super) fn predict(&mut self, log: &mut MessageLog, input: PredictInput) -> Result<Outcome> {
        let Some(run) = self.run.as_mut() else {
            return Ok(Outcome::default());
        };
        let Some(predict) = run.step().predict.clone() else {
            return Err(Error::Refused("This step asks for no prediction".into()));
        };
        if run.revealed() {
            return Err(Error::Refused(
                "The result is on screen: Reset step to predict again".into(),
            ));
        }
        let (value, clicked) = match input {
            PredictInput::Typed(text) => {
                let value = read_typed(&text, predict.kind).ok_or_else(|| {
                    Error::Refused(format!(
                        "Type the {}: `{}` is not one",
                        predict.asks_for(),
                        crate::editor::lesson::parse::cut(&text)
                    ))
                })?;
                (value, false)
            }
            PredictInput::Click { at, step } if predict.by_click() => {
                let snap = |v: f64| {
                    if step > 0.0 {
                        (v / step).round() * step
                    } else {
                        v
                    }
                };
                let p = glam::vec2(snap(at.x) as f32, snap(at.y) as f32);
                (Value::Vector(run.truth().map_or(p, |t| t.clicked(p))), true)
            }
            PredictInput::Click { .. } => {
                return Err(Error::Refused(format!(
                    "Type the {}: a click gives a position",
                    predict.asks_for()
                )));
            }
        };
        let late = run.goals_hold();
        run.predicting.prediction = Some(Prediction {
            value,
            clicked,
            late,
        });
        run.predicting.by_click = false;
        let what = value.describe(predict.kind);
        log.info(format!("Your prediction: {what}"));
        Ok(Outcome::default())
    }

    /// Take the next viewport click as the prediction (or stop).
    pub(super) fn predict_by_click(&mut self, on: bool) -> Result<Outcome> {
        if let Some(run) = self.run.as_mut() {
            run.predicting.by_click = on && run.predict().is_some_and(Predict::by_click);
        }
        Ok(Outcome::default())
    }
}

impl LessonRun {
    /// What the viewport draws of the prediction: before the result, the predicted point
    /// alone; once revealed, the prediction next to the result.
    pub fn prediction_mark(
        &self,
        scene: &crate::model::scene::Scene,
    ) -> Option<crate::editor::view::prediction_prims::PredictionMark> {
        use crate::editor::view::prediction_prims::PredictionMark;
        let (predict, prediction) = (self.predict()?, self.prediction()?);
        if !self.revealed() {
            let Value::Vector(p) = prediction.value else {
                return None;
            };
            let p = self.truth().map_or(p, |t| t.to_world(p));
            return predict.by_click().then(|| PredictionMark::Point {
                predicted: p,
                truth: p,
                note: "your prediction".into(),
            });
        }
        let id = self.resolve(scene, &predict.node.text)?;
        crate::editor::lesson::predict::mark::mark(
            predict,
            self.truth()?,
            prediction.value,
            scene,
            id,
        )
    }
}

impl LessonRun {
    /// How the step went, for the learner's progress (the report reads it).
    pub(super) fn step_record(&self) -> crate::editor::lesson::progress::StepRecord {
        use crate::editor::lesson::predict::Verdict;
        use crate::editor::lesson::progress::{PredictionRecord, StepRecord};
        let prediction = self.prediction().zip(self.feedback()).map(|(p, f)| {
            let verdict = match f.verdict {
                Verdict::Right => "right".to_string(),
                Verdict::Wrong => "wrong".to_string(),
                Verdict::Mistake(k) => self
                    .predict()
                    .map(|predict| crate::editor::lesson::predict::mistakes::name(predict, k))
                    .unwrap_or_default(),
            };
            PredictionRecord {
                value: match p.value {
                    Value::Number(a) => vec![a],
                    Value::Vector(v) => vec![v.x, v.y],
                },
                verdict,
                error: f.distance,
                late: p.late,
            }
        });
        StepRecord {
            seconds: self.step_started.elapsed().as_secs_f32(),
            hints: self.hints_shown().len(),
            shown: self.predicting.shown,
            prediction,
        }
    }
}

impl Lessons {
    /// Write the learner's progress as one JSON file (Help ▸ Export my progress…).
    pub(super) fn export_progress(
        &self,
        log: &mut MessageLog,
        path: std::path::PathBuf,
    ) -> Result<Outcome> {
        let text = self.progress.to_json();
        crate::model::atomic_write::atomic_write_with(&path, |w| w.write_all(text.as_bytes()))?;
        log.info(format!(
            "Wrote your lesson progress to {} (graft lesson report reads it)",
            path.display()
        ));
        Ok(Outcome::default())
    }
}
