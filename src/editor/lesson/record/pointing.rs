//! What a recorded step shows the learner: `point:` and `gesture:` lines for the places its
//! edits were made (the row dragged onto its new parent's row, the inspector field typed
//! into), a title and hints from the history's own labels ("Reparent sword to body").

use super::{RecordedStep, coalesced, name_in};
use crate::model::math::Trs;
use crate::model::scene::Scene;
use crate::model::scene::edit::Edit;

/// At most this many places are pointed at in one step (a long solution points at its first).
const MOST_POINTS: usize = 3;

/// The step's title: what its first edit did as History names it, or `Step N`.
pub(super) fn step_title(step: &RecordedStep, number: usize) -> String {
    match step.labels.as_slice() {
        [] => format!("Step {number}"),
        [only] => only.clone(),
        [first, rest @ ..] => format!("{first}, then {} more", rest.len()),
    }
}

/// Hints for the learner from what the teacher did, in order ("Reparent sword to body").
pub(super) fn hint_lines(step: &RecordedStep) -> Vec<String> {
    if step.labels.is_empty() {
        return vec!["hint: Press Show me to see it done.".into()];
    }
    let done = step.labels.join(", then ");
    vec![format!("hint: What to do: {done}.")]
}

/// `point:` and `gesture:` lines for the places the step's edits were made, read against the
/// scene just before each edit.
pub(super) fn point_lines(step: &RecordedStep) -> Vec<String> {
    let mut scratch = step.start.clone();
    let mut points = Vec::new();
    let mut gestures = Vec::new();
    for edit in coalesced(&step.edits) {
        if points.len() < MOST_POINTS {
            place_of(&scratch, &edit, &mut points, &mut gestures);
        }
        if edit.apply(&mut scratch).is_err() {
            break;
        }
    }
    points.dedup();
    points.extend(gestures);
    points
}

/// Where one edit is made in the window, as point (and gesture) lines.
fn place_of(scene: &Scene, edit: &Edit, points: &mut Vec<String>, gestures: &mut Vec<String>) {
    match edit {
        Edit::Move {
            node,
            before,
            after,
        } if before.parent != after.parent => {
            let name = name_in(scene, *node);
            match after.parent {
                Some(parent) => {
                    let to = name_in(scene, parent);
                    let plain = to.trim_matches('"');
                    points.push(format!(
                        "point: row {name} | Drag this row onto {plain}'s row"
                    ));
                    gestures.push(format!("gesture: drag row {name} -> row {to}"));
                }
                None => points.push(format!(
                    "point: row {name} | Drag this row to the empty space below the rows"
                )),
            }
        }
        Edit::SetLocal {
            node,
            before,
            after,
        } => {
            if let Some(row) = changed_row(before, after) {
                // As the `do:` line says it: a position alone is set in the world.
                let column = if row == "position"
                    && before.rotation == after.rotation
                    && before.scale == after.scale
                    && before.skew == after.skew
                {
                    "world"
                } else {
                    "local"
                };
                let name = name_in(scene, *node);
                points.push(format!(
                    "point: field {name} {column} {row} | Type the new {column} {row} here"
                ));
            }
        }
        Edit::Rename { node, .. } => {
            let name = name_in(scene, *node);
            points.push(format!(
                "point: row {name} | Select it and press F2 to rename"
            ));
        }
        Edit::Remove(subtree) => {
            let name = name_in(scene, subtree.root());
            points.push(format!("point: row {name} | Select it and press Delete"));
        }
        _ => {}
    }
}

/// The inspector row an edit of a local transform changed first.
fn changed_row(before: &Trs, after: &Trs) -> Option<&'static str> {
    if before.position != after.position {
        Some("position")
    } else if before.rotation != after.rotation {
        Some("rotation")
    } else if before.scale != after.scale {
        Some("scale")
    } else if before.skew != after.skew {
        Some("skew")
    } else {
        None
    }
}

/// A node's name as words say it (no quotes).
pub(super) fn plain(name: &str) -> &str {
    name.trim_matches('"')
}
