//! A lesson's scenes and the nodes a step's names mean. Its set-ups and solutions become the
//! editor's commands in `editor/session/lesson_play.rs`.

use super::eval::Bindings;
use super::parse::{cut, error_at};
use super::{Action, Lesson, Name, Predicate, Property, SceneSource, Space, Step, ValueSpace};
use crate::error::{Error, Result};
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};
use std::path::Path;

/// A step's scene, loaded (a file's errors keep their own place; an inline scene's errors are
/// moved to their line in the lesson).
pub fn load_scene(lesson: &Lesson, source: &SceneSource, at: super::Pos) -> Result<Scene> {
    let mut scene = read_scene(lesson, source, at)?;
    // A step's scene is shown untitled: its relative sprite paths (relative to its file's
    // folder, or the lesson's for an inline scene) are made absolute, so they name the same
    // images wherever the learner saves it. A sample's stay (the built-in images).
    let folder = match source {
        SceneSource::Sample(_) => None,
        SceneSource::File(relative) => lesson.path.parent().map(|f| f.join(relative)),
        SceneSource::Inline(..) => Some(lesson.path.clone()),
    };
    if let Some(file) = folder {
        scene.absolute_sprites(&crate::model::scene::sprites::folder_of(&file));
    }
    Ok(scene)
}

/// A step's scene as its source holds it.
fn read_scene(lesson: &Lesson, source: &SceneSource, at: super::Pos) -> Result<Scene> {
    match source {
        SceneSource::Sample(name) => {
            let text = super::course::sample_scene(name).ok_or_else(|| {
                Error::Refused(format!("no sample scene is called {}", cut(name)))
            })?;
            crate::model::file::parse(text, &Path::new("scenes").join(format!("{name}.ron")))
        }
        SceneSource::File(relative) => {
            let folder = lesson.path.parent().unwrap_or(Path::new("."));
            let path = folder.join(relative);
            crate::model::file::load(&path).map_err(|e| match e {
                // A scene with its own place (a syntax error in it) says so; anything else is
                // said at the `scene:` line.
                e @ Error::Syntax { .. } => e,
                other => error_at(
                    &lesson.path,
                    at,
                    format!("cannot open the scene {}: {other}", path.display()),
                ),
            })
        }
        SceneSource::Inline(text, first_line) => crate::model::file::parse(text, &lesson.path)
            .map_err(|e| match e {
                e @ Error::Syntax { .. } => super::parse::reworded(e, first_line - 1, |m| {
                    format!("in the inline scene: {m}")
                }),
                other => Error::Refused(format!(
                    "{}: the inline scene: {other}",
                    lesson.path.display()
                )),
            }),
    }
}

/// Names the step's own solution creates (`add NAME`, `rename X NAME`): they need not exist
/// when the step starts.
fn created_names(step: &Step) -> Vec<&str> {
    step.solution
        .iter()
        .filter_map(|(action, _)| match action {
            Action::Add { name, .. } | Action::Rename { name, .. } => Some(name.as_str()),
            // The instance's root, or paths from its parent to the part's nodes.
            Action::Instance {
                name: Some(name), ..
            } => Some(name.as_str()),
            Action::Instance { under, .. } => under.as_ref().map(|n| n.text.as_str()),
            _ => None,
        })
        .collect()
}

/// True when `name` is created by the step's solution: one of `created`, or a path (`a/b`)
/// starting at one (the nodes of an instance it makes).
fn is_created(created: &[&str], name: &str) -> bool {
    let first = name.split('/').next().unwrap_or(name);
    created.contains(&name) || (name.contains('/') && created.contains(&first))
}

fn predicate_names<'a>(predicate: &'a Predicate, out: &mut Vec<&'a Name>) {
    match predicate {
        Predicate::Transform { node, .. } | Predicate::Shear { node, .. } => out.push(node),
        Predicate::Deleted(node) | Predicate::Selected(node) => out.push(node),
        Predicate::Parent { node, parent } => out.extend(std::iter::once(node).chain(parent)),
        Predicate::Probe { node, space, .. } => out.extend(std::iter::once(node).chain(space)),
        Predicate::LooksFrom(Space::Node(node)) => out.push(node),
        Predicate::Not(inner) => predicate_names(inner, out),
        _ => {}
    }
}

/// Bind every name the step's goals, keeps, set-up and text use to the node that has it in
/// `scene` (the step's start). A name no node has, or several have, is refused at its place.
pub fn bind_step(scene: &Scene, step: &Step, lesson_path: &Path) -> Result<Bindings> {
    let mut names: Vec<&Name> = Vec::new();
    for goal in step.goals.iter().chain(&step.keeps) {
        predicate_names(&goal.predicate, &mut names);
    }
    names.extend(step.setup.select.iter().flatten());
    names.extend(step.setup.frame_nodes.iter().flatten());
    names.extend(step.pointing.names());
    names.extend(step.predict.as_ref().map(|p| &p.node));
    names.extend(step.vary.iter().filter_map(|v| match &v.target {
        super::vary::Target::Local { node, .. } => Some(node),
        super::vary::Target::Var(_) => None,
    }));
    if let Some(Space::Node(node)) = &step.setup.look_from {
        names.push(node);
    }
    let links: Vec<Name> = step
        .text
        .iter()
        .flat_map(|p| super::text::linked_names(p))
        .map(|text| Name { text, at: step.at })
        .collect();
    names.extend(&links);
    let created = created_names(step);
    let mut bindings = Bindings::default();
    let texts: Vec<&str> = names.iter().map(|n| n.text.as_str()).collect();
    let counts = bindings.bind_all(scene, &texts);
    for name in names {
        match counts.get(&name.text).copied().unwrap_or(0) {
            1 => {}
            0 if is_created(&created, &name.text) => {}
            0 => {
                return Err(error_at(
                    lesson_path,
                    name.at,
                    format!(
                        "no node is called `{}` in the scene of step \"{}\"",
                        cut(&name.text),
                        cut(&step.title)
                    ),
                ));
            }
            n => {
                return Err(error_at(
                    lesson_path,
                    name.at,
                    format!(
                        "{n} nodes are called `{}` in the scene of step \"{}\": a lesson's names must be unique",
                        cut(&name.text),
                        cut(&step.title)
                    ),
                ));
            }
        }
    }
    Ok(bindings)
}

/// The op that sets one local or world value, keeping the others.
pub fn set_op(scene: &Scene, id: NodeId, frame: ValueSpace, value: Property) -> Result<Op> {
    let mut trs = match frame {
        ValueSpace::Local => scene.node(id)?.local,
        ValueSpace::World => scene.world_trs(id)?,
    };
    match value {
        Property::Position(p) if frame == ValueSpace::World => {
            return Ok(Op::SetWorldPosition {
                node: id,
                position: p,
            });
        }
        Property::Position(p) => trs.position = p,
        Property::Rotation(r) => trs.rotation = r,
        Property::Scale(s) => trs.scale = s,
        Property::Skew(k) => trs.skew = k,
    }
    Ok(match frame {
        ValueSpace::Local => Op::SetLocal {
            node: id,
            local: trs,
        },
        ValueSpace::World => Op::SetWorld {
            node: id,
            world: trs,
        },
    })
}
