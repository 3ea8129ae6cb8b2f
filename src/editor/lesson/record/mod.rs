//! Recording a lesson by doing it: the scene a step starts from, the edits the teacher made
//! and the view before and after, written as a lesson's text (`docs/lesson-format.md`) with
//! `do:` lines that redo the edits and suggested goals and keeps from what changed. Plain data
//! in, text out: the session (or `graft lesson record-from-journal`) gathers the data and
//! checks the text with `graft lesson check`'s walk.

use crate::model::math::Trs;
use crate::model::scene::edit::{Change, Edit, History};
use crate::model::scene::{NodeId, Scene};
use glam::Vec2;
use std::fmt::Write;

mod goals;
mod step;
mod text;

use goals::goal_lines;
pub use goals::scene_differences;
use step::coalesced;
pub use step::{Draft, Look, RecordedStep, SceneRef, ViewState};
use text::{look_text, name_in, on_off, unique_name, vec};
pub use text::{num, quoted};

/// Scenes whose text is at most this long are written inside the lesson.
pub const INLINE_LIMIT: usize = 16 * 1024;

/// The sample scene this scene is, unchanged (a lesson names it `scene: sample NAME`).
pub fn sample_named(scene: &Scene) -> Option<&'static str> {
    let text = crate::model::file::to_ron_string(scene);
    super::course::SAMPLE_NAMES.into_iter().find(|name| {
        super::course::sample_scene(name)
            .and_then(|sample| crate::model::file::parse(sample, std::path::Path::new(name)).ok())
            .is_some_and(|sample| crate::model::file::to_ron_string(&sample) == text)
    })
}

/// The edits of the steps a history has applied, from its step `from` on, in order (steps
/// undone at its end are left out).
pub fn performed_edits(history: &History, from: usize) -> Vec<Edit> {
    let (_, done) = history.labels();
    history
        .as_changes()
        .into_iter()
        .filter_map(|change| match change {
            Change::Step { edits, .. } => Some(edits),
            _ => None,
        })
        .take(done)
        .skip(from)
        .flatten()
        .collect()
}

/// History's labels of the steps it has applied from its step `from` on, in order.
pub fn performed_labels(history: &History, from: usize) -> Vec<String> {
    let (labels, done) = history.labels();
    labels
        .iter()
        .take(done)
        .skip(from)
        .map(|l| l.to_string())
        .collect()
}

/// True when the step's edits, replayed on its start, give its end: the history the edits
/// came from is the recording's (not a scene opened meanwhile, not undone past the start).
pub fn edits_lead_to_end(step: &RecordedStep) -> bool {
    let mut scene = step.start.clone();
    let replayed = step.edits.iter().all(|edit| edit.apply(&mut scene).is_ok());
    // A new time poses the animated nodes (not an edit).
    if step.before.time != step.after.time {
        scene.set_pose_at(step.after.time);
    }
    scene.update_world();
    replayed && scene_differences(&step.end, &scene).is_empty()
}

/// The lesson's text for a draft. Lines no action can express are kept as `//` comments.
pub fn lesson_text(draft: &Draft) -> String {
    let mut out = String::from("graft lesson 1\n");
    let _ = writeln!(out, "title: {}", one_line(&draft.title));
    out.push_str("// Recorded by graft: edit the text, goals, keeps and hints as you like.\n");
    for (k, step) in draft.steps.iter().enumerate() {
        out.push('\n');
        let _ = writeln!(out, "step: {}", one_line(&goals::step_title(step, k + 1)));
        if k == 0 {
            write_scene(&mut out, &draft.scene);
        }
        write_setup(&mut out, step);
        out.push_str("\nDescribe here what the learner should do in this step.\n\n");
        if let Some(line) = predict_line(step) {
            let _ = writeln!(out, "{line}");
        }
        for line in goals::point_lines(step) {
            let _ = writeln!(out, "{line}");
        }
        for line in goal_lines(step) {
            let _ = writeln!(out, "{line}");
        }
        for line in goals::hint_lines(step) {
            let _ = writeln!(out, "{line}");
        }
        for line in solution_lines(step) {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// The `predict:` line of a step recorded with "Ask for a prediction here": where the node the
/// asked edit changed ends up in the world (its answer is what the solution produces), then
/// the classic mistakes that apply to it ([`mistake_lines`]).
fn predict_line(step: &RecordedStep) -> Option<String> {
    let ask = step.ask?;
    let node = step.edits.get(ask)?.node()?;
    step.end.node(node).ok()?;
    let name = unique_name(&step.end, node)?;
    let mut lines = vec![format!(
        "predict: {name} world position | Where will {} be? Click the spot in the viewport or type it.",
        name.trim_matches('"')
    )];
    lines.extend(mistake_lines(step, ask));
    lines.push(
        "// mistake: add the wrong answers you expect (docs/lesson-format.md, Predict first)"
            .into(),
    );
    Some(lines.join("\n"))
}

/// The classic mistakes a world position's prediction can name: for a move under another
/// parent, the landing that keeps the other thing (`keep-local` for a keep-world reparent, and
/// the reverse); always the parents' rotations left out, the local position taken as the
/// world one and the accumulated shortcut. The check leaves out those the answer does not
/// stand apart from (no rotation above the node: `no-parent-rotation` is the answer).
fn mistake_lines(step: &RecordedStep, ask: usize) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(Edit::Move {
        node,
        before,
        after,
    }) = step.edits.get(ask)
        && before.parent != after.parent
    {
        let mut scene = step.start.clone();
        let replayed = step.edits[..ask]
            .iter()
            .all(|e| e.apply(&mut scene).is_ok());
        let lines = move_lines(&scene, *node, before, after);
        if replayed && let Some(first) = lines.first() {
            names.push(match first.ends_with("keep-world") {
                true => "keep-local",
                false => "keep-world",
            });
        }
    }
    names.extend(["no-parent-rotation", "local-as-world", "accumulated"]);
    names.iter().map(|n| format!("mistake: {n}")).collect()
}

/// Text on one line (a title cannot hold a line break).
fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() {
        "Recorded lesson".into()
    } else {
        joined
    }
}

fn write_scene(out: &mut String, scene: &SceneRef) {
    match scene {
        SceneRef::Inline(text) => {
            out.push_str("scene:\n```\n");
            out.push_str(text.trim_end());
            out.push_str("\n```\n");
        }
        SceneRef::Sample(name) => {
            let _ = writeln!(out, "scene: sample {name}");
        }
        SceneRef::File(path) => {
            let _ = writeln!(out, "scene: {path}");
        }
    }
}

fn write_setup(out: &mut String, step: &RecordedStep) {
    let before = &step.before;
    let names: Option<Vec<String>> = (before.selection.iter())
        .map(|id| unique_name(&step.start, *id))
        .collect();
    match names {
        Some(names) if names.is_empty() => out.push_str("select: none\n"),
        Some(names) => {
            let _ = writeln!(out, "select: {}", names.join(", "));
        }
        None => out.push_str("// select: the selection has a node whose name is not unique\n"),
    }
    let _ = writeln!(out, "keep-world: {}", on_off(before.keep_world));
    let shown = if before.shown.is_empty() {
        "none".to_string()
    } else {
        before.shown.join(", ")
    };
    let _ = writeln!(out, "show: {shown}");
    if before.time != 0.0 {
        let _ = writeln!(out, "time: {}", num(before.time));
    }
    if before.look != Look::World
        && let Some(space) = look_text(&step.start, before.look)
    {
        let _ = writeln!(out, "look-from: {space}");
    }
}

/// The `do:` lines that redo the step: its edits in order, then the view's changes.
fn solution_lines(step: &RecordedStep) -> Vec<String> {
    let mut scratch = step.start.clone();
    let mut lines = Vec::new();
    // The time first: the edits were made at the pose it gives.
    if step.before.time != step.after.time {
        lines.push(format!("do: time {}", num(step.after.time)));
    }
    for edit in coalesced(&step.edits) {
        lines.extend(edit_lines(&scratch, &edit));
        if edit.apply(&mut scratch).is_err() {
            lines.push("// the recorded edits stop replaying here".into());
            break;
        }
    }
    lines.extend(view_lines(&step.end, &step.before, &step.after));
    lines
}

fn parent_text(scene: &Scene, parent: Option<NodeId>) -> String {
    parent.map_or_else(|| "root".into(), |p| name_in(scene, p))
}

/// The `do:` lines (or comments) for one edit, read against the scene just before it.
fn edit_lines(scene: &Scene, edit: &Edit) -> Vec<String> {
    match edit {
        Edit::SetLocal {
            node,
            before,
            after,
        } => set_lines(scene, *node, before, after),
        Edit::Move {
            node,
            before,
            after,
        } => move_lines(scene, *node, before, after),
        Edit::Rename {
            node,
            before,
            after,
        } => {
            let _ = node;
            vec![format!("do: rename {} {}", quoted(before), quoted(after))]
        }
        Edit::Insert(subtree) => insert_lines(scene, subtree),
        Edit::Remove(subtree) => vec![format!("do: delete {}", name_in(scene, subtree.root()))],
        Edit::Probes {
            node,
            before,
            after,
        } if after.starts_with(before) => (after[before.len()..].iter())
            .map(|p| format!("do: probe on {} at {}", name_in(scene, *node), vec(*p)))
            .collect(),
        Edit::Probes { node, .. } => vec![format!(
            "// not recorded: the probes of {} were moved or removed",
            name_in(scene, *node)
        )],
        Edit::Appearance { node, .. } => vec![format!(
            "// not recorded: the shape or colour of {} changed",
            name_in(scene, *node)
        )],
        Edit::Tracks { node, .. } => vec![format!(
            "// not recorded: the keys of {} changed",
            name_in(scene, *node)
        )],
        Edit::Clip { .. } => vec!["// not recorded: the clip's settings changed".into()],
        Edit::Instances(change) => vec![format!(
            "// not recorded: the instance {} changed",
            name_in(scene, change.root())
        )],
    }
}

/// A change of a local transform: a world position when only the position changed (a move in
/// the viewport or the world field), else the local values that changed.
fn set_lines(scene: &Scene, node: NodeId, before: &Trs, after: &Trs) -> Vec<String> {
    let name = name_in(scene, node);
    let only_position = before.rotation == after.rotation
        && before.scale == after.scale
        && before.skew == after.skew;
    if only_position && let Some(world) = world_position_of(scene, node, after.position) {
        return vec![format!("do: set {name} world position {}", vec(world))];
    }
    local_lines(&name, before, after)
}

/// Where a local position puts a node in the world, when its parent's matrix can be inverted
/// (a world `set` solves back through it).
fn world_position_of(scene: &Scene, node: NodeId, local: Vec2) -> Option<Vec2> {
    let parent = scene.parent_world(node).ok()?;
    if parent.matrix2.determinant().abs() < 1e-6 {
        return None;
    }
    let world = parent.transform_point2(local);
    world.is_finite().then_some(world)
}

/// `set NAME local …` for each value that differs.
fn local_lines(name: &str, before: &Trs, after: &Trs) -> Vec<String> {
    let mut lines = Vec::new();
    if before.position != after.position {
        lines.push(format!(
            "do: set {name} local position {}",
            vec(after.position)
        ));
    }
    if before.rotation != after.rotation {
        lines.push(format!(
            "do: set {name} local rotation {}",
            num(after.rotation)
        ));
    }
    if before.scale != after.scale {
        lines.push(format!("do: set {name} local scale {}", vec(after.scale)));
    }
    if before.skew != after.skew {
        lines.push(format!("do: set {name} local skew {}", num(after.skew)));
    }
    lines
}

/// A move under another parent: keep-world when the node stayed in place in the world,
/// keep-local otherwise (then the local values that changed).
fn move_lines(
    scene: &Scene,
    node: NodeId,
    before: &crate::model::scene::edit::Placement,
    after: &crate::model::scene::edit::Placement,
) -> Vec<String> {
    let name = name_in(scene, node);
    if before.parent == after.parent {
        let mut lines = vec![format!(
            "// not recorded: {name} moved among its siblings (no action does that)"
        )];
        lines.extend(local_lines(&name, &before.local, &after.local));
        return lines;
    }
    let to = parent_text(scene, after.parent);
    let mut moved = scene.clone();
    let stays = scene.world(node).ok().zip(
        Edit::Move {
            node,
            before: *before,
            after: *after,
        }
        .apply(&mut moved)
        .ok()
        .and_then(|()| moved.world(node).ok()),
    );
    if let Some((was, now)) = stays
        && was.abs_diff_eq(now, 1e-4 * (1.0 + was.translation.length()))
    {
        return vec![format!("do: reparent {name} to {to} keep-world")];
    }
    let mut lines = vec![format!("do: reparent {name} to {to} keep-local")];
    lines.extend(local_lines(&name, &before.local, &after.local));
    lines
}

/// A new subtree: each node added under its parent, then placed.
fn insert_lines(scene: &Scene, subtree: &crate::model::scene::DetachedSubtree) -> Vec<String> {
    let mut lines = Vec::new();
    for (k, data) in subtree.data.iter().enumerate() {
        let under = match subtree.parents.get(k).copied() {
            Some(u32::MAX) | None => parent_text(scene, subtree.parent),
            Some(p) => {
                (subtree.data.get(p as usize)).map_or_else(|| "root".into(), |d| quoted(&d.name))
            }
        };
        let name = quoted(&data.name);
        lines.push(format!("do: add {name} under {under}"));
        lines.extend(local_lines(&name, &Trs::IDENTITY, &data.local));
        let made = crate::model::scene::Shape::Rect { size: Vec2::ONE };
        if data.shape != made {
            lines.push(format!(
                "// not recorded: the shape of {name} (a new node is a unit square)"
            ));
        }
        for probe in &data.probes {
            lines.push(format!("do: probe on {name} at {}", vec(*probe)));
        }
    }
    lines
}

/// The view's changes as `do:` lines (after the scene's: a `look from` may name a node the
/// solution made), the selection last.
fn view_lines(end: &Scene, before: &ViewState, after: &ViewState) -> Vec<String> {
    let mut lines = Vec::new();
    if before.keep_world != after.keep_world {
        lines.push(format!("do: keep-world {}", on_off(after.keep_world)));
    }
    for name in &after.shown {
        if !before.shown.contains(name) {
            lines.push(format!("do: show {name}"));
        }
    }
    for name in &before.shown {
        if !after.shown.contains(name) {
            lines.push(format!("do: hide {name}"));
        }
    }
    if before.look != after.look
        && let Some(space) = look_text(end, after.look)
    {
        lines.push(format!("do: look from {space}"));
    }
    if before.selection != after.selection {
        let names: Option<Vec<String>> = (after.selection.iter())
            .map(|id| unique_name(end, *id))
            .collect();
        match names {
            Some(names) if names.is_empty() => lines.push("do: select none".into()),
            Some(names) => lines.push(format!("do: select {}", names.join(", "))),
            None => lines.push("// not recorded: a selected node's name is not unique".into()),
        }
    }
    lines
}
