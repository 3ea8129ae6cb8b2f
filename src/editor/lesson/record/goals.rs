//! What a recorded step suggests from what it changed: goals and keeps (labelled in words),
//! `point:` and `gesture:` lines for the places its edits were made, a title and hints from
//! History's own labels; and how two scenes differ (a recorded lesson must replay to the
//! scene the teacher ended with).

use super::step::{RecordedStep, coalesced};
use super::text::{look_text, name_in, num, on_off, quoted, vec};
use crate::model::math::Trs;
use crate::model::scene::edit::Edit;
use crate::model::scene::{NodeId, Scene};

/// Suggested goals and keeps from what changed between the step's start and end.
pub(super) fn goal_lines(step: &RecordedStep) -> Vec<String> {
    let mut lines = Vec::new();
    for id in touched(&step.edits) {
        node_goals(step, id, &mut lines);
    }
    view_goals(step, &mut lines);
    lines
}

/// The nodes the edits changed directly, in the order they were first changed.
fn touched(edits: &[Edit]) -> Vec<NodeId> {
    let mut ids: Vec<NodeId> = Vec::new();
    for edit in edits {
        let new: Vec<NodeId> = match edit {
            Edit::SetLocal { node, .. }
            | Edit::Move { node, .. }
            | Edit::Rename { node, .. }
            | Edit::Probes { node, .. } => vec![*node],
            Edit::Insert(subtree) => subtree.ids.clone(),
            Edit::Remove(subtree) => vec![subtree.root()],
            Edit::Appearance { .. }
            | Edit::Tracks { .. }
            | Edit::Clip { .. }
            | Edit::Instances(_) => Vec::new(),
        };
        for id in new {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

/// A node as goals name it: its name when the step started (goals follow the node), or its
/// name at the end for a node the step made.
fn goal_name(step: &RecordedStep, id: NodeId) -> String {
    if step.start.contains(id) {
        name_in(&step.start, id)
    } else {
        name_in(&step.end, id)
    }
}

fn node_goals(step: &RecordedStep, id: NodeId, lines: &mut Vec<String>) {
    let (start, end) = (&step.start, &step.end);
    let name = goal_name(step, id);
    match (start.node(id).ok(), end.node(id).ok()) {
        (Some(_), None) => lines.push(format!(
            "goal: {name} is deleted | {} is deleted",
            plain(&name)
        )),
        (None, Some(_)) => {
            lines.push(format!(
                "goal: {name} exists | There is a node called {}",
                plain(&name)
            ));
            let parent = end.parent(id).ok().flatten();
            let parent = parent.map_or_else(|| "none".into(), |p| goal_name(step, p));
            lines.push(parent_goal(&name, &parent));
            if let Ok(world) = end.world_trs(id)
                && end
                    .node(id)
                    .is_ok_and(|d| d.local.position != glam::Vec2::ZERO)
            {
                let at = vec(world.position);
                let words = format!("{} is at {at} in the world", plain(&name));
                lines.push(format!("goal: {name} world position is {at} | {words}"));
            }
            probe_goals(step, id, &name, lines);
        }
        (Some(was), Some(now)) => {
            if was.name != now.name {
                let words = format!("{} is renamed {}", plain(&name), now.name);
                lines.push(format!("goal: {} exists | {words}", quoted(&now.name)));
            }
            let (p0, p1) = (
                start.parent(id).ok().flatten(),
                end.parent(id).ok().flatten(),
            );
            if p0 != p1 {
                let parent = p1.map_or_else(|| "none".into(), |p| goal_name(step, p));
                lines.push(parent_goal(&name, &parent));
            }
            transform_goals(step, id, &name, lines);
            probe_goals(step, id, &name, lines);
        }
        (None, None) => {}
    }
}

/// Goals on the world values that changed; a keep on the world position when the node
/// stayed in place while its local numbers changed, a keep on the local position when the
/// numbers stayed while the world moved.
fn transform_goals(step: &RecordedStep, id: NodeId, name: &str, lines: &mut Vec<String>) {
    let (Ok(w0), Ok(w1)) = (step.start.world_trs(id), step.end.world_trs(id)) else {
        return;
    };
    let (Ok(l0), Ok(l1)) = (
        step.start.node(id).map(|d| d.local),
        step.end.node(id).map(|d| d.local),
    ) else {
        return;
    };
    let world = differences(&w0, &w1);
    let local = differences(&l0, &l1);
    for what in &world {
        let words = value_words(what, "world", plain(name), &w1);
        lines.push(format!(
            "goal: {name} world {} | {words}",
            value_text(what, &w1)
        ));
    }
    if world.is_empty() && !local.is_empty() {
        lines.push(format!(
            "keep: {name} world position is {} | {name} stays in place in the world",
            vec(w1.position)
        ));
        for what in &local {
            let words = value_words(what, "local", plain(name), &l1);
            lines.push(format!(
                "goal: {name} local {} | {words}",
                value_text(what, &l1)
            ));
        }
    }
    if !world.is_empty() && local.is_empty() {
        lines.push(format!(
            "keep: {name} local position is {} | its local numbers stay",
            vec(l1.position)
        ));
    }
}

/// Which of a transform's values differ by more than the lessons' default tolerances.
fn differences(a: &Trs, b: &Trs) -> Vec<&'static str> {
    let length = 2.0 * crate::editor::lesson::LENGTH_TOLERANCE;
    let angle = 2.0 * crate::editor::lesson::ANGLE_TOLERANCE;
    let turned = |x: f32, y: f32| ((x - y + 180.0).rem_euclid(360.0) - 180.0).abs() > angle;
    let mut out = Vec::new();
    if a.position.distance(b.position) > length {
        out.push("position");
    }
    if turned(a.rotation, b.rotation) {
        out.push("rotation");
    }
    if (a.scale - b.scale).abs().max_element() > length {
        out.push("scale");
    }
    if turned(a.skew, b.skew) {
        out.push("skew");
    }
    out
}

/// A goal on a node's parent, with its words.
fn parent_goal(name: &str, parent: &str) -> String {
    let words = if parent == "none" {
        format!("{} is a root", plain(name))
    } else {
        format!("{} hangs from {}", plain(name), plain(parent))
    };
    format!("goal: {name} parent is {parent} | {words}")
}

/// A transform value in words: "sword is turned 90° in the world".
fn value_words(what: &str, space: &str, name: &str, trs: &Trs) -> String {
    let space = if space == "world" {
        "in the world"
    } else {
        "in its parent (local)"
    };
    match what {
        "position" => format!("{name} is at {} {space}", vec(trs.position)),
        "rotation" => format!("{name} is turned {}° {space}", num(trs.rotation)),
        "scale" => format!("{name} is scaled {} {space}", vec(trs.scale)),
        _ => format!("{name} is skewed {}° {space}", num(trs.skew)),
    }
}

fn value_text(what: &str, trs: &Trs) -> String {
    match what {
        "position" => format!("position is {}", vec(trs.position)),
        "rotation" => format!("rotation is {}", num(trs.rotation)),
        "scale" => format!("scale is {}", vec(trs.scale)),
        _ => format!("skew is {}", num(trs.skew)),
    }
}

/// A goal for each probe the step dropped, read in the world.
fn probe_goals(step: &RecordedStep, id: NodeId, name: &str, lines: &mut Vec<String>) {
    let had = step.start.node(id).map_or(0, |d| d.probes.len());
    let (Ok(now), Ok(world)) = (step.end.node(id), step.end.world(id)) else {
        return;
    };
    for probe in now.probes.iter().skip(had) {
        let at = world.transform_point2(*probe);
        let words = format!(
            "A probe on {} sits at {} in the world",
            plain(name),
            vec(at)
        );
        lines.push(format!(
            "goal: probe on {name} in world is {} | {words}",
            vec(at)
        ));
    }
}

fn view_goals(step: &RecordedStep, lines: &mut Vec<String>) {
    let (before, after) = (&step.before, &step.after);
    if after.time > before.time {
        let t = num(after.time);
        lines.push(format!(
            "goal: time is past {t} | The clip has played past {t} s"
        ));
    }
    if before.keep_world != after.keep_world {
        let on = on_off(after.keep_world);
        lines.push(format!(
            "goal: keep-world is {on} | Keep world transform is {on}"
        ));
    }
    for name in &after.shown {
        if !before.shown.contains(name) {
            lines.push(format!("goal: view shows {name} | The view shows {name}"));
        }
    }
    for name in &before.shown {
        if !after.shown.contains(name) {
            lines.push(format!(
                "goal: view hides {name} | The view no longer shows {name}"
            ));
        }
    }
    if before.look != after.look
        && let Some(space) = look_text(&step.end, after.look)
    {
        let words = format!("The view looks from {}", plain(&space));
        lines.push(format!("goal: view looks from {space} | {words}"));
    }
}

/// How two scenes differ, node by node (matched by name, in order): parents, local and world
/// values beyond a small tolerance, nodes only one has. Sibling order is not compared.
pub fn scene_differences(a: &Scene, b: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    let mut by_name: rustc_hash::FxHashMap<&str, std::collections::VecDeque<usize>> =
        rustc_hash::FxHashMap::default();
    for j in 0..b.len() {
        by_name
            .entry(b.data_at(j).name.as_str())
            .or_default()
            .push_back(j);
    }
    let mut used = vec![false; b.len()];
    for i in 0..a.len() {
        let data = a.data_at(i);
        let Some(j) = by_name
            .get_mut(data.name.as_str())
            .and_then(|q| q.pop_front())
        else {
            out.push(format!("{} is missing", data.name));
            continue;
        };
        used[j] = true;
        let (ia, ib) = (a.id_at(i), b.id_at(j));
        let parent_name = |s: &Scene, id| {
            let parent = s.parent(id).ok().flatten();
            parent
                .and_then(|p| s.node(p).ok())
                .map(|d| d.name.to_string())
        };
        if parent_name(a, ia) != parent_name(b, ib) {
            out.push(format!("{} has another parent", data.name));
        }
        let near = |x: Trs, y: Trs| {
            let tolerance = 1e-3 * (1.0 + x.position.length());
            x.position.distance(y.position) <= tolerance
                && differences(&x, &y).is_empty()
                && (x.scale - y.scale).abs().max_element() <= 1e-3
        };
        if !near(data.local, b.data_at(j).local) {
            out.push(format!("{} has other local values", data.name));
        }
        if let (Ok(x), Ok(y)) = (a.world_trs(ia), b.world_trs(ib))
            && !near(x, y)
        {
            out.push(format!("{} is elsewhere in the world", data.name));
        }
    }
    for j in (0..b.len()).filter(|&j| !used[j]) {
        out.push(format!("{} is extra", b.data_at(j).name));
    }
    out
}

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
