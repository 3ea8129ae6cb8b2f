//! `predict:` and `mistake:` lines: what the learner predicts, and the wrong answers expected.

use super::Reader;
use super::located::error_at;
use super::tokens::{Tok, split_label};
use super::values::{Cursor, quote_list};
use crate::editor::lesson::Pos;
use crate::editor::lesson::predict::mistakes::fits;
use crate::editor::lesson::predict::{
    Kind, MISTAKE_NAMES, Mistake, MistakeKind, PREDICT_ANGLE_TOLERANCE, PREDICT_LENGTH_TOLERANCE,
    Predict, Value,
};
use crate::error::Result;
use std::path::Path;

impl Reader<'_> {
    /// A `vary:`, `predict:` or `mistake:` line of the current step.
    pub(super) fn predict(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        let step = self.current_step(at)?;
        if key == "vary" {
            step.vary.push(super::varying::vary(path, value, value_at)?);
            return Ok(());
        }
        if key == "predict" {
            if step.predict.is_some() {
                return Err(error_at(path, at, "this step already has a `predict:`"));
            }
            step.predict = Some(predict(path, value, value_at)?);
            return Ok(());
        }
        let Some(predict) = step.predict.as_mut() else {
            return Err(error_at(
                path,
                at,
                "a `mistake:` follows the step's `predict:` line",
            ));
        };
        let mistake = mistake(path, value, value_at, predict.kind)?;
        predict.mistakes.push(mistake);
        Ok(())
    }
}

/// `NODE world|local position|rotation|scale|skew [± T] | QUESTION`.
pub(super) fn predict(path: &Path, value: &str, at: Pos) -> Result<Predict> {
    let (quantity, question) = match split_label(value) {
        Some((q, text)) => (q, text.trim().to_string()),
        None => (value, String::new()),
    };
    let mut cursor = Cursor::new(path, quantity, at)?;
    let node = cursor.name()?;
    let frame = cursor.frame()?;
    let kind = match cursor
        .word_of(&["position", "rotation", "scale", "skew"])?
        .as_str()
    {
        "position" => Kind::Position,
        "rotation" => Kind::Rotation,
        "scale" => Kind::Scale,
        _ => Kind::Skew,
    };
    let default = if kind.is_angle() {
        PREDICT_ANGLE_TOLERANCE
    } else {
        PREDICT_LENGTH_TOLERANCE
    };
    let tolerance = cursor.tolerance(default)?;
    cursor.end()?;
    let question = if question.is_empty() {
        format!("What will the {} be?", quantity.trim())
    } else {
        question
    };
    Ok(Predict {
        node,
        frame,
        kind,
        tolerance,
        question,
        mistakes: Vec::new(),
        at,
    })
}

/// `NAME [| TEXT]` (a built-in mistake) or `VALUE | TEXT` (the teacher's own wrong answer).
pub(super) fn mistake(path: &Path, value: &str, at: Pos, kind: Kind) -> Result<Mistake> {
    let (what, text) = match split_label(value) {
        Some((w, t)) => (w, Some(t.trim().to_string()).filter(|t| !t.is_empty())),
        None => (value, None),
    };
    let mut cursor = Cursor::new(path, what, at)?;
    let names: Vec<&str> = MISTAKE_NAMES.iter().map(|(n, _)| *n).collect();
    let mistake_kind = match cursor.peek() {
        Some(Tok::Open) | Some(Tok::Num(_)) => {
            let here = cursor.here();
            let wrong = if cursor.peek() == Some(&Tok::Open) {
                Value::Vector(cursor.vec2()?)
            } else {
                Value::Number(cursor.number()?)
            };
            if !fits(wrong, kind) {
                let shape = if kind.is_angle() {
                    "a number (an angle)"
                } else {
                    "a vector `(x, y)`"
                };
                return Err(super::located::error_at(
                    path,
                    here,
                    format!(
                        "the prediction is a {}: a wrong answer is {shape}",
                        kind.word()
                    ),
                ));
            }
            if text.is_none() {
                return Err(super::located::error_at(
                    path,
                    at,
                    "a wrong value needs its sentence after `|`: what the learner who gives it got wrong",
                ));
            }
            MistakeKind::Named(wrong)
        }
        _ => {
            let name = cursor.word_of(&names).map_err(|_| {
                cursor.fail(format!(
                    "expected a wrong value or a mistake: {}",
                    quote_list(&names)
                ))
            })?;
            MISTAKE_NAMES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, k)| k.clone())
                .unwrap_or(MistakeKind::Accumulated)
        }
    };
    cursor.end()?;
    Ok(Mistake {
        kind: mistake_kind,
        text,
        at,
    })
}
