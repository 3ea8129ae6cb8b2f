//! Point probes, without egui: pins that live in one node's local space and read out where they
//! are in the world, in the selection's space and in the selection's parent's space (the seed's
//! localToWorld and worldToLocal, made visible). A probe is stored with its node, so it moves
//! with it, is saved with it, is copied and duplicated with it, and goes away (until undone)
//! when the node is deleted.

use crate::editor::session::command::ProbeCommand;
pub use crate::editor::session::command::ProbeRef;
use crate::editor::session::gestures::Gestures;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline::{self, TimelineState};
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::spaces::{from_world, to_world};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::edit::Op;
use crate::model::scene::name;
use crate::model::scene::{NodeId, Scene};
use glam::{DVec2, Vec2};

/// What a probe reads, for the inspector and the viewport.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeReading {
    /// Which probe.
    pub probe: ProbeRef,
    /// "P1", "P2", … in pre-order of their nodes.
    pub label: String,
    /// The name of the node whose space it lives in.
    pub owner: String,
    /// Its coordinates in that node's space (what is stored).
    pub local: Vec2,
    /// Where it is in the world (None when the node's world matrix is not finite).
    pub world: Option<DVec2>,
    /// Its coordinates in the primary selection's space (None: nothing selected, or singular).
    pub in_selection: Option<DVec2>,
    /// Its coordinates in the space of the selection's parent (the world for a root).
    pub in_parent: Option<DVec2>,
}

/// Every probe's reading, in pre-order of the nodes that carry them. `owners` are those nodes
/// (see [`Scene::probe_owners`]).
pub fn readings(scene: &Scene, owners: &[NodeId], selection: Option<NodeId>) -> Vec<ProbeReading> {
    let selection = selection.filter(|id| scene.contains(*id));
    let into_selection = selection.and_then(|s| from_world(scene, Some(s)).ok());
    let parent = selection.and_then(|s| scene.parent(s).ok());
    let into_parent = parent.and_then(|p| from_world(scene, p).ok());
    let mut out = Vec::new();
    for &owner in owners {
        let Ok(data) = scene.node(owner) else {
            continue;
        };
        let to_world = to_world(scene, Some(owner)).ok();
        for (index, &local) in data.probes.iter().enumerate() {
            let world = to_world.map(|m| m.transform_point2(local.as_dvec2()));
            out.push(ProbeReading {
                probe: ProbeRef { node: owner, index },
                label: format!("P{}", out.len() + 1),
                owner: name::node_label(&data.name, owner),
                local,
                world,
                in_selection: world
                    .zip(into_selection)
                    .map(|(w, m)| m.transform_point2(w)),
                in_parent: world.zip(into_parent).map(|(w, m)| m.transform_point2(w)),
            });
        }
    }
    out
}

/// Screen pixels around a probe's pin that grab it.
pub const PROBE_GRAB_PX: f64 = 7.0;

/// The probe whose pin is under a screen point (the last drawn wins), if any.
pub fn probe_at(
    readings: &[ProbeReading],
    camera: Camera,
    rect: ScreenRect,
    pointer: Vec2,
) -> Option<ProbeRef> {
    readings
        .iter()
        .rev()
        .find(|r| {
            r.world.is_some_and(|w| {
                let p = camera.to_screen_f64(rect, w);
                p.distance(pointer.as_dvec2()) <= PROBE_GRAB_PX
            })
        })
        .map(|r| r.probe)
}

/// A world point in a node's space (f32, as probes are stored), refused when the node is
/// singular or the point does not fit in f32.
fn local_point(scene: &Scene, node: NodeId, world: DVec2) -> Result<Vec2> {
    let local = from_world(scene, Some(node))
        .map_err(|_| {
            Error::Refused(format!(
                "{} has a singular world matrix (a zero scale in it or above it): a point has no place in its space",
                scene.label(node)
            ))
        })?
        .transform_point2(world)
        .as_vec2();
    if local.is_finite() {
        Ok(local)
    } else {
        Err(Error::Refused(format!(
            "that point is too far from {} to store in its space",
            scene.label(node)
        )))
    }
}

/// The node's probe list, and the probe's index checked against it.
fn probe_list(scene: &Scene, probe: ProbeRef) -> Result<Vec<Vec2>> {
    let list = scene.node(probe.node)?.probes.to_vec();
    if probe.index >= list.len() {
        return Err(Error::Refused(format!(
            "{} has no probe {}",
            scene.label(probe.node),
            probe.index + 1
        )));
    }
    Ok(list)
}

/// The probes part: the nodes carrying probes, cached on the scene's versions (the probes
/// themselves live on their nodes, in the document).
#[derive(Default)]
pub(super) struct Probes {
    /// The nodes carrying probes, and the scene versions they were read at.
    owners: std::cell::RefCell<ProbeOwners>,
}

/// The nodes carrying probes, cached with the scene versions they were read at.
type ProbeOwners = (Option<(u64, u64)>, Vec<NodeId>);

impl Probes {
    /// The probes' readings in `scene` now, in the space of `primary` (the list of nodes that
    /// carry them is cached on the scene's versions, so a big scene is not walked every frame).
    pub(super) fn readings(&self, scene: &Scene, primary: Option<NodeId>) -> Vec<ProbeReading> {
        let key = scene.probes_version();
        let mut cache = self.owners.borrow_mut();
        if cache.0 != Some(key) {
            *cache = (Some(key), scene.probe_owners());
        }
        readings(scene, &cache.1, primary)
    }
}

/// What a probe command is handed: the document the probes live in, with the gesture counter and
/// the timeline (a probe edit is an undo step, auto-keyed), the settings (probe mode), the log,
/// and the primary selection (the node a new probe lives on).
pub(super) struct ProbeParts<'a> {
    pub(super) doc: &'a mut Document,
    pub(super) gestures: &'a mut Gestures,
    pub(super) timeline: &'a TimelineState,
    pub(super) settings: &'a mut Settings,
    pub(super) log: &'a mut MessageLog,
    pub(super) primary: Option<NodeId>,
}

impl ProbeParts<'_> {
    /// Carry out a probe command (one undo step each; a drag is one continuous gesture).
    pub(super) fn handle(mut self, command: ProbeCommand) -> Result<Outcome> {
        match command {
            ProbeCommand::ToggleMode => {
                if self.settings.toggle_probe_mode() && self.primary.is_none() {
                    (self.log).info("Select the node whose space the probe lives in, then click");
                }
                Ok(Outcome::default())
            }
            ProbeCommand::Add { world } => self.add_probe(world),
            ProbeCommand::Move {
                probe,
                world,
                continuous,
            } => {
                let local = local_point(self.doc.scene(), probe.node, world)?;
                self.set_probe(probe, local, continuous)
            }
            ProbeCommand::SetLocal {
                probe,
                local,
                continuous,
            } => self.set_probe(probe, local, continuous),
            ProbeCommand::Remove(probe) => {
                let scene = self.doc.scene();
                let mut list = probe_list(scene, probe)?;
                list.remove(probe.index);
                let label = format!("Remove a probe from {}", scene.label(probe.node));
                let op = Op::SetProbes {
                    node: probe.node,
                    probes: list,
                };
                self.perform(label, vec![op], false)
            }
        }
    }

    /// Perform ops as one undo step (or part of the open gesture).
    fn perform(&mut self, label: String, ops: Vec<Op>, continuous: bool) -> Result<Outcome> {
        timeline::perform(
            self.gestures,
            self.doc,
            self.timeline,
            label,
            ops,
            continuous,
        )?;
        Ok(Outcome::default())
    }

    /// A new probe in the primary selection's space, at a world point.
    fn add_probe(&mut self, world: DVec2) -> Result<Outcome> {
        let Some(node) = self.primary else {
            return Err(Error::Refused(
                "Select the node whose space the probe should live in first".into(),
            ));
        };
        let scene = self.doc.scene();
        let local = local_point(scene, node, world)?;
        let mut list = scene.node(node)?.probes.to_vec();
        if list.len() >= crate::model::file::MAX_PROBES_PER_NODE {
            return Err(Error::Refused(format!(
                "{} already carries {} probes",
                scene.label(node),
                list.len()
            )));
        }
        list.push(local);
        let label = format!("Add a probe to {}", scene.label(node));
        let op = Op::SetProbes { node, probes: list };
        self.perform(label, vec![op], false)
    }

    /// Put one probe at a local point.
    fn set_probe(&mut self, probe: ProbeRef, local: Vec2, continuous: bool) -> Result<Outcome> {
        let scene = self.doc.scene();
        let mut list = probe_list(scene, probe)?;
        if !local.is_finite() {
            return Err(Error::Refused(
                "a probe's coordinates must be finite".into(),
            ));
        }
        list[probe.index] = local;
        let label = format!("Move a probe of {}", scene.label(probe.node));
        let op = Op::SetProbes {
            node: probe.node,
            probes: list,
        };
        self.perform(label, vec![op], continuous)
    }
}
