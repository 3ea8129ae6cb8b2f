//! Arranging from the keyboard, without egui: which panel has the keyboard (F6 / Shift+F6),
//! moving the selection up or down among its siblings (Alt+Up / Alt+Down), "Move to…" a
//! parent picked from a searchable list (keeping world or local as the toggle says, Shift
//! inverting it), and nudging the selection with the arrow keys. Each edit is one undo step.

use crate::editor::session::drop_rules::{DropVerdict, DropZone, drop_verdict};
use crate::editor::session::edits::EditParts;
use crate::editor::session::edits::reparent_ops;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::settings::Settings;
use crate::error::{Error, Result};
use crate::model::scene::Keep;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};
use glam::Vec2;

pub use crate::editor::session::focus::{Panel, Step, next_panel, panel_cycle};

/// A parent and some of its children, with their places among the siblings.
type SiblingsOf = (Option<NodeId>, Vec<(usize, NodeId)>);

/// The ops that move each of `targets` one place up (Back) or down (Forward) among its
/// siblings. A node already first (last) stays, and so do selected siblings packed against it,
/// so a block of selected siblings moves as a block.
pub fn reorder_ops(scene: &Scene, targets: &[NodeId], step: Step) -> Result<Vec<Op>> {
    let mut by_parent: Vec<SiblingsOf> = Vec::new();
    for &node in targets {
        let parent = scene.parent(node)?;
        let index = scene.sibling_index(node)?;
        match by_parent.iter_mut().find(|(p, _)| *p == parent) {
            Some((_, list)) => list.push((index, node)),
            None => by_parent.push((parent, vec![(index, node)])),
        }
    }
    let mut ops = Vec::new();
    for (parent, mut list) in by_parent {
        let count = scene.children(parent)?.len();
        list.sort_unstable();
        if step == Step::Forward {
            list.reverse();
        }
        // The first place a node can no longer move past.
        let mut stuck = match step {
            Step::Back => 0,
            Step::Forward => count.saturating_sub(1),
        };
        for (index, node) in list {
            if index == stuck {
                stuck = match step {
                    Step::Back => index + 1,
                    Step::Forward => index.saturating_sub(1),
                };
                continue;
            }
            let to = match step {
                Step::Back => index - 1,
                Step::Forward => index + 1,
            };
            ops.push(Op::Reparent {
                node,
                parent,
                index: Some(to),
                keep: Keep::World,
            });
        }
    }
    Ok(ops)
}

/// A parent "Move to…" offers: a node, or the root (None).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTarget {
    /// The new parent (None: make them roots).
    pub parent: Option<NodeId>,
    /// What the list shows: the name and its path of ancestors.
    pub label: String,
}

/// The parents "Move to…" offers for `moving` whose name contains `query` (case-insensitive),
/// in tree order, at most `limit`: never a moved node or one of its descendants, the root
/// first. The path ("body / arm / hand") tells apart nodes of the same name.
pub fn move_targets(
    scene: &Scene,
    moving: &[NodeId],
    query: &str,
    limit: usize,
) -> Vec<MoveTarget> {
    let query = query.trim().to_lowercase();
    let mut out = Vec::new();
    if "(root)".contains(&query) || "root".contains(&query) {
        out.push(MoveTarget {
            parent: None,
            label: "(root: no parent)".to_string(),
        });
    }
    let mut path: Vec<String> = Vec::new();
    let mut skip_until = 0;
    for i in 0..scene.len() {
        if out.len() >= limit {
            break;
        }
        let depth = scene.depth_at(i);
        path.truncate(depth);
        path.push(display_name(scene, i));
        if i < skip_until {
            continue;
        }
        let id = scene.id_at(i);
        if moving.contains(&id) {
            skip_until = i + scene.subtree_len_at(i);
            continue;
        }
        if path[depth].to_lowercase().contains(&query) {
            out.push(MoveTarget {
                parent: Some(id),
                label: path.join(" / "),
            });
        }
    }
    out
}

/// A node's name for lists and screen readers: "unnamed node 7" when it has none.
pub fn display_name(scene: &Scene, index: usize) -> String {
    crate::model::scene::name::node_label(&scene.data_at(index).name, scene.id_at(index))
}

/// A hierarchy row's text: the name, and for an instance its source's file name
/// (`front [wheel.ron]`, `[wheel.ron, missing]` for a placeholder), for a node that comes
/// from a source the instance it is in (`hub [in front]`).
pub fn row_label(scene: &Scene, index: usize) -> String {
    let name = display_name(scene, index);
    let id = scene.id_at(index);
    let file = |path: &str| {
        let name = std::path::Path::new(path).file_name();
        name.map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
    };
    if let Some(entry) = scene.instance_entry(id) {
        let missing = if entry.source.is_err() {
            ", missing"
        } else {
            ""
        };
        return format!("{name} [{}{missing}]", file(&entry.path));
    }
    match scene.origin(id).and_then(|o| scene.index(o.root).ok()) {
        Some(root) => format!("{name} [in {}]", display_name(scene, root)),
        None => name,
    }
}

/// How far one arrow press nudges (world units), and with Shift.
pub const NUDGE: f32 = 0.1;
/// How far Shift+arrow nudges.
pub const NUDGE_BIG: f32 = 1.0;

/// The panel that has the keyboard (the lesson panel only while a lesson is open).
pub(super) fn focused_panel(settings: &Settings, lesson_open: bool) -> Panel {
    match settings.panel() {
        Panel::Lesson if !lesson_open => Panel::Hierarchy,
        panel => panel,
    }
}

/// F6 / Shift+F6: give the keyboard to the next or previous panel.
pub(super) fn focus_panel(
    settings: &mut Settings,
    log: &mut MessageLog,
    step: Step,
    lesson_open: bool,
) -> Outcome {
    let to = next_panel(focused_panel(settings, lesson_open), step, lesson_open);
    settings.set_panel(to);
    log.info(format!("{} has the keyboard", to.title()));
    Outcome::default()
}

/// Ctrl+= / Ctrl+-: the interface one step bigger or smaller, said in the status bar.
pub(super) fn step_interface_scale(
    settings: &mut Settings,
    log: &mut MessageLog,
    step: Step,
) -> Outcome {
    let scale = crate::editor::session::settings::step_ui_scale(settings.ui_scale(), step);
    settings.set_ui_scale(scale);
    log.info(format!(
        "Interface scale {:.0} %",
        settings.ui_scale() * 100.0
    ));
    Outcome::default()
}

impl EditParts<'_> {
    /// Alt+Up / Alt+Down: the selection one place up or down among its siblings.
    pub(super) fn reorder(&mut self, step: Step) -> Result<Outcome> {
        let targets = self.selected_roots();
        if targets.is_empty() {
            return Ok(Outcome::default());
        }
        let ops = reorder_ops(self.doc.scene(), &targets, step)?;
        if ops.is_empty() {
            let end = if step == Step::Back { "first" } else { "last" };
            return Err(Error::Refused(format!(
                "{} is already {end} among its siblings",
                self.label_for("", &targets).trim()
            )));
        }
        let verb = if step == Step::Back { "up" } else { "down" };
        let label = format!("{} {verb}", self.label_for("Move", &targets));
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }

    /// "Move to…": the selection under `parent` (None: roots), keeping world transforms or the
    /// local numbers; refused onto itself or a descendant.
    pub(super) fn move_to(&mut self, parent: Option<NodeId>, keep: Keep) -> Result<Outcome> {
        let moving = self.selected_roots();
        if moving.is_empty() {
            return Err(Error::Refused("Select the nodes to move first".into()));
        }
        let zone = parent.map_or(DropZone::Root, DropZone::Into);
        let ops = match drop_verdict(self.doc.scene(), &moving, zone) {
            DropVerdict::Allowed { parent, index } => reparent_ops(&moving, parent, index, keep),
            DropVerdict::RefusedQuietly => {
                return Err(Error::Refused("A node cannot be its own parent".into()));
            }
            DropVerdict::Refused(why) => return Err(Error::Refused(why)),
        };
        let to = parent.map_or_else(|| "the root".to_string(), |p| self.name_of(p));
        let how = if keep == Keep::World {
            ""
        } else {
            " (keep local)"
        };
        let label = format!("{} to {to}{how}", self.label_for("Reparent", &moving));
        self.perform(label, ops, false)?;
        let said = self.moved_message(&moving, &to, keep);
        self.info(said);
        Ok(Outcome::default())
    }

    /// What a reparent did, as a screen reader should say it: "sword reparented to body,
    /// keeping world position (2, 3)".
    fn moved_message(&self, moving: &[NodeId], to: &str, keep: Keep) -> String {
        let what = self.label_for("", moving);
        let scene = self.doc.scene();
        let number = |v: f32| crate::editor::view::numbers::format_significant(v as f64, 4);
        let at = match moving {
            [one] => scene.world_trs(*one).ok().map(|t| {
                let p = match keep {
                    Keep::World => t.position,
                    Keep::Local => scene.node(*one).map_or(t.position, |d| d.local.position),
                };
                format!(" ({}, {})", number(p.x), number(p.y))
            }),
            _ => None,
        };
        let kept = match keep {
            Keep::World => "keeping world position",
            Keep::Local => "keeping local position",
        };
        format!(
            "{} reparented to {to}, {kept}{}",
            what.trim(),
            at.unwrap_or_default()
        )
    }

    /// An arrow key in the viewport: move the selection one step (Shift: a big step) along the
    /// screen's axes, as seen from the viewport's space (`view`: its world → view matrix); one
    /// undo step per press.
    pub(super) fn nudge(
        &mut self,
        direction: (i8, i8),
        big: bool,
        view: glam::DAffine2,
    ) -> Result<Outcome> {
        let targets = self.selected_roots();
        if targets.is_empty() {
            return Ok(Outcome::default());
        }
        let step = if big { NUDGE_BIG } else { NUDGE };
        let along_view = glam::DVec2::new(f64::from(direction.0), f64::from(direction.1));
        let delta = view.inverse().transform_vector2(along_view);
        let delta = if delta.length() > 0.0 {
            (delta.normalize() * f64::from(step)).as_vec2()
        } else {
            Vec2::ZERO
        };
        let scene = self.doc.scene();
        let ops = targets
            .iter()
            .map(|&node| {
                let position = scene.world_trs(node)?.position + delta;
                Ok(Op::SetWorldPosition { node, position })
            })
            .collect::<Result<Vec<Op>>>()?;
        let label = self.label_for("Nudge", &targets);
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sword() -> Scene {
        crate::model::document::Document::sample().scene().clone()
    }

    #[test]
    fn f6_goes_round_the_panels_and_the_lesson_only_when_open() {
        assert_eq!(
            next_panel(Panel::Timeline, Step::Forward, false),
            Panel::Hierarchy
        );
        assert_eq!(
            next_panel(Panel::Timeline, Step::Forward, true),
            Panel::Lesson
        );
        assert_eq!(
            next_panel(Panel::Hierarchy, Step::Back, true),
            Panel::Lesson
        );
        assert_eq!(
            next_panel(Panel::Hierarchy, Step::Back, false),
            Panel::Timeline
        );
        assert_eq!(
            next_panel(Panel::Hierarchy, Step::Forward, false),
            Panel::Viewport
        );
    }

    #[test]
    fn move_targets_leave_out_the_moved_subtree_and_find_by_name() {
        let scene = sword();
        let hand = scene.ids()[2];
        let all = move_targets(&scene, &[hand], "", 100);
        let labels: Vec<&str> = all.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(
            labels,
            ["(root: no parent)", "body", "body / arm", "body / scabbard"],
            "hand and its sword are not offered"
        );
        let found = move_targets(&scene, &[hand], "BOD", 100);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].parent, Some(scene.ids()[0]));
        assert_eq!(move_targets(&scene, &[], "", 2).len(), 2, "limited");
    }
}
