//! A lesson's set-ups and solutions as the editor's normal commands, computed from the parts
//! of the session they read ([`PlayFrom`]). Lessons (`editor/lesson`) never name the editor:
//! they read it through [`SessionView`](crate::editor::lesson::eval::SessionView) (implemented
//! in `mod.rs`) and act through the commands made here.

use crate::editor::lesson::eval::{Bindings, nodes_named};
use crate::editor::lesson::parse::{cut, error_at};
use crate::editor::lesson::play::set_op;
use crate::editor::lesson::{Action, Name, Setup, Space, Step, VIEW_OPTION_NAMES};
use crate::editor::session::command::{
    Command, SelectionCommand, SettingCommand, ViewCommand, ViewSpace,
};
use crate::editor::session::edits::new_node_data;
use crate::editor::session::lesson::Lessons;
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline::TimelineState;
use crate::editor::session::timeline_command::TimelineCommand;
use crate::error::Result;
use crate::model::document::Document;
use crate::model::instance::plan;
use crate::model::scene::Keep;
use crate::model::scene::NodeId;
use crate::model::scene::edit::Op;
use std::path::Path;

/// What a lesson line is computed from: the document (its file names instanced parts), the
/// settings and the timeline as they are now, and the lessons' parts (a sample scene's file).
pub(crate) struct PlayFrom<'a> {
    pub(crate) doc: &'a Document,
    pub(crate) settings: &'a Settings,
    pub(crate) timeline: &'a TimelineState,
    pub(crate) lessons: &'a Lessons,
}

/// The node a name means now, or an error at the name.
pub(super) fn node(
    from: &PlayFrom,
    bindings: &Bindings,
    name: &Name,
    path: &Path,
) -> Result<NodeId> {
    let scene = from.doc.scene();
    bindings
        .resolve(scene, &name.text)
        .filter(|id| scene.contains(*id))
        .ok_or_else(|| {
            error_at(
                path,
                name.at,
                format!("no node is called `{}` here", cut(&name.text)),
            )
        })
}

fn view_space(
    from: &PlayFrom,
    bindings: &Bindings,
    space: &Space,
    path: &Path,
) -> Result<ViewSpace> {
    Ok(match space {
        Space::World => ViewSpace::World,
        Space::Parent => ViewSpace::ParentOfSelection,
        Space::Selection => ViewSpace::Selection,
        Space::Node(name) => ViewSpace::Node(node(from, bindings, name, path)?),
    })
}

/// Turning a view option, keep-world or trails on or off: a toggle only when it differs.
fn toggle_if(differs: bool, command: Command) -> Vec<Command> {
    if differs { vec![command] } else { Vec::new() }
}

/// The commands a step's set-up sends, in order (framing is the window's and is not here).
pub fn setup_commands(
    from: &PlayFrom,
    setup: &Setup,
    bindings: &Bindings,
    path: &Path,
) -> Result<Vec<Command>> {
    let mut commands = Vec::new();
    if let Some(names) = &setup.select {
        let ids = names
            .iter()
            .map(|n| node(from, bindings, n, path))
            .collect::<Result<_>>()?;
        commands.push(Command::Selection(SelectionCommand::Select(ids)));
    }
    if let Some(on) = setup.keep_world {
        commands.extend(toggle_if(
            from.settings.keep_world() != on,
            Command::Setting(SettingCommand::ToggleKeepWorld),
        ));
    }
    if let Some(shown) = &setup.show {
        for (_, option) in VIEW_OPTION_NAMES {
            let wanted = shown.contains(&option);
            commands.extend(toggle_if(
                from.settings.view().shows(option) != wanted,
                Command::Setting(SettingCommand::ToggleView(option)),
            ));
        }
    }
    if let Some(space) = &setup.look_from {
        commands.push(Command::View(ViewCommand::SetViewSpace(view_space(
            from, bindings, space, path,
        )?)));
    }
    if let Some(t) = setup.time {
        commands.push(Command::Timeline(TimelineCommand::SetTime(t)));
    }
    if let Some(on) = setup.play {
        commands.push(Command::Timeline(if on {
            TimelineCommand::Play
        } else {
            TimelineCommand::Pause
        }));
    }
    if let Some(on) = setup.trails {
        commands.extend(toggle_if(
            from.timeline.trails() != on,
            Command::Timeline(TimelineCommand::ToggleTrails),
        ));
    }
    Ok(commands)
}

/// What a lesson line sends: one of the editor's commands, or ops the lesson chose (its
/// Show me and set-up change the scene under the lesson's own label). Ops are not a
/// [`Command`]: nobody outside the session sends them.
#[derive(Debug)]
pub(crate) enum Played {
    /// A command, as a person would send it.
    Command(Command),
    /// Ops as one undo step, or (continuous) part of the open gesture.
    Ops {
        /// The undo label.
        label: String,
        /// What to do.
        ops: Vec<Op>,
        /// Part of a continuous gesture.
        continuous: bool,
    },
}

/// What one solution line sends, computed from the session as it is now. Scene changes are
/// continuous steps under `label`, so a whole solution is one undo step once the caller ends
/// the gesture.
pub(crate) fn action_commands(
    from: &PlayFrom,
    action: &Action,
    bindings: &Bindings,
    path: &Path,
    label: &str,
) -> Result<Vec<Played>> {
    let scene_ops = |ops: Vec<Op>| Played::Ops {
        label: label.to_string(),
        ops,
        continuous: true,
    };
    if let Some(ops) = part_ops(from, action, bindings, path)? {
        return Ok(if ops.is_empty() {
            Vec::new()
        } else {
            vec![scene_ops(ops)]
        });
    }
    if let Some(op) = scene_op(from, action, bindings, path)? {
        return Ok(vec![scene_ops(vec![op])]);
    }
    let find = |name: &Name| node(from, bindings, name, path);
    let play = |on: bool| {
        if on {
            TimelineCommand::Play
        } else {
            TimelineCommand::Pause
        }
    };
    let commands = match action {
        Action::Select(names) => vec![Command::Selection(SelectionCommand::Select(
            names.iter().map(find).collect::<Result<_>>()?,
        ))],
        Action::KeepWorld(on) => toggle_if(
            from.settings.keep_world() != *on,
            Command::Setting(SettingCommand::ToggleKeepWorld),
        ),
        Action::View(option, on) => toggle_if(
            from.settings.view().shows(*option) != *on,
            Command::Setting(SettingCommand::ToggleView(*option)),
        ),
        Action::LookFrom(space) => vec![Command::View(ViewCommand::SetViewSpace(view_space(
            from, bindings, space, path,
        )?))],
        Action::Time(t) => vec![Command::Timeline(TimelineCommand::SetTime(*t))],
        Action::Play(on) => vec![Command::Timeline(play(*on))],
        Action::Trails(on) => toggle_if(
            from.timeline.trails() != *on,
            Command::Timeline(TimelineCommand::ToggleTrails),
        ),
        // The scene changes were handled above.
        _ => Vec::new(),
    };
    Ok(commands.into_iter().map(Played::Command).collect())
}

/// The scene change a solution line makes, if it makes one.
fn scene_op(
    from: &PlayFrom,
    action: &Action,
    bindings: &Bindings,
    path: &Path,
) -> Result<Option<Op>> {
    let scene = from.doc.scene();
    let find = |name: &Name| node(from, bindings, name, path);
    Ok(Some(match action {
        Action::Reparent { node, to, keep } => Op::Reparent {
            node: find(node)?,
            parent: to.as_ref().map(find).transpose()?,
            index: None,
            keep: keep.unwrap_or(Keep::world_if(from.settings.keep_world())),
        },
        Action::Set { node, frame, value } => set_op(scene, find(node)?, *frame, *value)?,
        Action::Add { name, under } => Op::Add {
            parent: under.as_ref().map(find).transpose()?,
            index: None,
            data: new_node_data(name),
        },
        Action::Rename { node, name } => Op::Rename {
            node: find(node)?,
            name: name.clone(),
        },
        Action::Delete(name) => Op::Remove { node: find(name)? },
        Action::Mirror { node, axis } => {
            let id = find(node)?;
            Op::SetLocal {
                node: id,
                local: scene.node(id)?.local.mirrored(*axis),
            }
        }
        Action::Probe { node, at } => {
            let id = find(node)?;
            let mut probes: Vec<glam::Vec2> = scene.node(id)?.probes.to_vec();
            probes.push(*at);
            Op::SetProbes { node: id, probes }
        }
        _ => return Ok(None),
    }))
}

/// The local values a step's `vary:` lines drew, set when the step starts (as set-up).
pub(crate) fn vary_commands(
    from: &PlayFrom,
    step: &Step,
    bindings: &Bindings,
) -> Result<Vec<Played>> {
    use crate::editor::lesson::vary::{Target, set_channel};
    let scene = from.doc.scene();
    let mut ops = Vec::new();
    for vary in &step.vary {
        let (Target::Local { node, channel }, Some(v)) = (&vary.target, vary.value) else {
            continue;
        };
        let Some(id) = bindings.resolve(scene, &node.text) else {
            continue;
        };
        let local = set_channel(scene.node(id)?.local, *channel, v);
        ops.push(Op::SetLocal { node: id, local });
    }
    Ok(if ops.is_empty() {
        Vec::new()
    } else {
        vec![Played::Ops {
            label: "Lesson set-up".into(),
            ops,
            continuous: false,
        }]
    })
}

/// The ops of a part action (`instance`, `edit sample`, `revert`), computed from the session
/// as it is now (None: another kind of action). `edit sample` writes the part's file first.
pub(super) fn part_ops(
    from: &PlayFrom,
    action: &Action,
    bindings: &Bindings,
    path: &Path,
) -> Result<Option<Vec<Op>>> {
    let scene = from.doc.scene();
    let find = |name: &Name| node(from, bindings, name, path);
    Ok(Some(match action {
        Action::Instance {
            sample,
            under,
            name,
        } => {
            let file = from.lessons.part_file(sample)?;
            let text = plan::source_text(from.doc.path(), &file);
            let under = under.as_ref().map(find).transpose()?;
            let (mut ops, root) = plan::instance_ops(
                scene,
                &crate::editor::session::instances::host_file(from.doc),
                &text,
                under,
            )?;
            if let Some(name) = name.clone() {
                ops.push(Op::Rename { node: root, name });
            }
            ops
        }
        Action::EditPart {
            sample,
            node,
            frame,
            value,
        } => {
            let file = from.lessons.part_file(sample)?;
            let mut part = crate::model::file::load(&file)?;
            let id = part_node(&part, node, sample, path)?;
            set_op(&part, id, *frame, *value)?.perform(&mut part)?;
            crate::model::file::save(&part, &file)?;
            crate::model::instance::follow::follow_ops(
                scene,
                &crate::editor::session::instances::host_file(from.doc),
            )?
        }
        Action::Revert(name) => plan::revert_ops(scene, find(name)?, u16::MAX)?,
        _ => return Ok(None),
    }))
}

/// The one node of a part called `name`, or an error at the name.
fn part_node(
    part: &crate::model::scene::Scene,
    name: &Name,
    sample: &str,
    path: &Path,
) -> Result<NodeId> {
    match nodes_named(part, &name.text).as_slice() {
        [id] => Ok(*id),
        found => Err(error_at(
            path,
            name.at,
            format!(
                "the part {sample} has {} nodes called `{}` (one is needed)",
                found.len(),
                cut(&name.text)
            ),
        )),
    }
}
