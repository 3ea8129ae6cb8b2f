//! `vary:` lines and `{…}` placeholders: a number drawn per learner from a range, named (a
//! variable) or set on a node's local value when the step starts; placeholders read them,
//! and the step's start values (`{arm.rotation}`, `{world(sword).x}`).

use super::Reader;
use super::located::error_at;
use super::values::Cursor;
use crate::editor::lesson::Pos;
use crate::editor::lesson::vary::{Channel, Line, Target, Variables, Vary, draw};
use crate::editor::lesson::{Lesson, Step};
use crate::error::Result;
use std::path::Path;

/// The most values one range may hold (low to high by the step).
const MOST_VALUES: f32 = 100_000.0;

/// `NAME from LOW to HIGH [by STEP] [default V]` or `NODE local CHANNEL from LOW to HIGH …`.
pub(super) fn vary(path: &Path, value: &str, at: Pos) -> Result<Vary> {
    let mut cursor = Cursor::new(path, value, at)?;
    let name = cursor.name()?;
    let target = if cursor.eat("local") {
        Target::Local {
            node: name,
            channel: channel(&mut cursor)?,
        }
    } else {
        let plain = name
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain || name.text.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(error_at(
                path,
                name.at,
                "a variable's name is letters, digits and `_` (or write `NODE local rotation from …`)",
            ));
        }
        Target::Var(name.text)
    };
    if !cursor.eat("from") {
        return Err(cursor.fail("expected `from LOW to HIGH`"));
    }
    let low = cursor.number()?;
    if !cursor.eat("to") {
        return Err(cursor.fail("expected `to HIGH`"));
    }
    let high_at = cursor.here();
    let high = cursor.number()?;
    let by_at = cursor.here();
    let by = if cursor.eat("by") {
        cursor.number()?
    } else {
        1.0
    };
    let default = default_number(path, &mut cursor, (low, high))?;
    cursor.end()?;
    check_range(path, (low, high, by), (high_at, by_at))?;
    Ok(Vary {
        target,
        low,
        high,
        by,
        default,
        at,
        value: None,
    })
}

/// `default V` (the lesson's own number, seed 0's), between the range's ends.
fn default_number(
    path: &Path,
    cursor: &mut Cursor,
    (low, high): (f32, f32),
) -> Result<Option<f32>> {
    let at = cursor.here();
    if !cursor.eat("default") {
        return Ok(None);
    }
    let v = cursor.number()?;
    if !(low..=high).contains(&v) {
        return Err(error_at(
            path,
            at,
            "the `default` number lies between the range's low and high ends",
        ));
    }
    Ok(Some(v))
}

/// A range's ends in order and a step that makes at most [`MOST_VALUES`] values.
fn check_range(
    path: &Path,
    (low, high, by): (f32, f32, f32),
    (high_at, by_at): (Pos, Pos),
) -> Result<()> {
    if high < low {
        return Err(error_at(
            path,
            high_at,
            "the range's high end is below its low end",
        ));
    }
    if by <= 0.0 || (high - low) / by > MOST_VALUES {
        return Err(error_at(
            path,
            by_at,
            format!("the step `by` is a positive number, at most {MOST_VALUES} values a range"),
        ));
    }
    Ok(())
}

/// `rotation`, `skew`, `position x`, `position y`, `scale x` or `scale y`.
fn channel(cursor: &mut Cursor) -> Result<Channel> {
    Ok(
        match cursor
            .word_of(&["rotation", "skew", "position", "scale"])?
            .as_str()
        {
            "rotation" => Channel::Rotation,
            "skew" => Channel::Skew,
            which => match (which, cursor.word_of(&["x", "y"])? == "x") {
                ("position", true) => Channel::PositionX,
                ("position", false) => Channel::PositionY,
                (_, true) => Channel::ScaleX,
                _ => Channel::ScaleY,
            },
        },
    )
}

/// Read a step's task lines again (`vary.rs`: once the learner's numbers replaced the
/// placeholders): the step's goals, keeps, solution, hints, points and prediction are the
/// lines'.
pub fn replay(step: &Step, path: &Path, lines: &[Line]) -> Result<Step> {
    let mut fresh = step.clone();
    fresh.goals.clear();
    fresh.keeps.clear();
    fresh.solution.clear();
    fresh.hints.clear();
    fresh.pointing.points.clear();
    fresh.predict = None;
    let mut reader = Reader {
        path,
        lesson: Lesson {
            id: String::new(),
            title: String::new(),
            about: String::new(),
            intro: Vec::new(),
            steps: vec![fresh],
            path: path.to_path_buf(),
        },
        paragraph: String::new(),
        paragraph_at: Vec::new(),
        fence: None,
        replaying: true,
    };
    for line in lines {
        reader.directive(&line.key, &line.value, line.at, line.value_at)?;
    }
    reader
        .lesson
        .steps
        .pop()
        .ok_or_else(|| error_at(path, step.at, "the step was lost while read again"))
}

/// The step with its numbers drawn (its variables added to `variables`).
pub fn with_draws(
    step: &Step,
    seed: u64,
    lesson_id: &str,
    k: usize,
    variables: &mut Variables,
) -> Step {
    let mut drawn = step.clone();
    for (index, vary) in drawn.vary.iter_mut().enumerate() {
        let v = draw(vary, seed, lesson_id, k, index);
        vary.value = Some(v);
        if let Target::Var(name) = &vary.target {
            variables.insert(name.clone(), f64::from(v));
        }
    }
    drawn
}

/// The step with its placeholders replaced through `lookup` and its task lines read again
/// (a step without placeholders as it is).
pub fn instantiate(step: &Step, path: &Path, lookup: &dyn Fn(&str) -> Option<f64>) -> Result<Step> {
    if step.templated.is_empty() {
        return Ok(step.clone());
    }
    let lines = (step.templated.iter())
        .map(|line| {
            let value = super::tokens::substitute(&line.value, path, line.value_at, lookup)?;
            Ok(Line {
                value,
                ..line.clone()
            })
        })
        .collect::<Result<Vec<Line>>>()?;
    let mut fresh = replay(step, path, &lines)?;
    fresh.templated = step.templated.clone();
    for (paragraph, at) in fresh.text.iter_mut().zip(&step.text_at) {
        let start = at.first().map_or(step.at, |(_, p)| *p);
        *paragraph = super::tokens::substitute(paragraph, path, start, lookup)?;
    }
    Ok(fresh)
}
