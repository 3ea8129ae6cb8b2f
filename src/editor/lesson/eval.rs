//! Goals evaluated over the session: a predicate holds or not of the document and the editor
//! state, whatever way the learner got there.

use super::{Goal, Name, Predicate, Property, SHEAR_TOLERANCE_DEGREES, Space, ValueSpace};
use crate::editor::view::options::{ViewOption, ViewSpace};
use crate::model::math::{Trs, normalize_degrees, shear_metrics};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;

/// The nodes a step's names meant when it started: goals follow the node, not the name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    ids: FxHashMap<String, NodeId>,
    /// The world transform of each bound node when the step started (keeps on a world
    /// position hold the whole node in place).
    start: FxHashMap<NodeId, Trs>,
}

/// The nodes with this name in the scene (pre-order). A name no node has that holds `/` is
/// a path of names: `front/spoke` is each child named `spoke` of a node named `front` (the
/// nodes of a part repeat in each of its instances).
pub fn nodes_named(scene: &Scene, name: &str) -> Vec<NodeId> {
    let exact = |name: &str| -> Vec<NodeId> {
        (0..scene.len())
            .filter(|&i| scene.data_at(i).name == name)
            .map(|i| scene.id_at(i))
            .collect()
    };
    let direct = exact(name);
    if !direct.is_empty() || !name.contains('/') {
        return direct;
    }
    let mut parts = name.split('/');
    let mut at = exact(parts.next().unwrap_or_default());
    for part in parts {
        at = (at.iter())
            .flat_map(|p| scene.children(Some(*p)).unwrap_or_default())
            .filter(|c| scene.node(*c).is_ok_and(|d| d.name == part))
            .collect();
    }
    at
}

impl Bindings {
    /// Bind each of `names` to the one node that has it now, in one pass over the scene;
    /// returns how many nodes have each name (a name bound only when exactly one has it).
    pub fn bind_all(&mut self, scene: &Scene, names: &[&str]) -> FxHashMap<String, usize> {
        let mut found: FxHashMap<&str, (usize, Option<NodeId>)> =
            names.iter().map(|n| (*n, (0, None))).collect();
        for i in 0..scene.len() {
            if let Some(entry) = found.get_mut(scene.data_at(i).name.as_str()) {
                *entry = (entry.0 + 1, Some(scene.id_at(i)));
            }
        }
        for (name, entry) in found.iter_mut() {
            if entry.0 == 0 && name.contains('/') {
                let paths = nodes_named(scene, name);
                *entry = (paths.len(), paths.first().copied());
            }
        }
        let mut counts = FxHashMap::default();
        for (name, (count, id)) in found {
            if let (1, Some(id)) = (count, id) {
                self.ids.insert(name.to_string(), id);
                if let Ok(trs) = scene.world_trs(id) {
                    self.start.insert(id, trs);
                }
            }
            counts.insert(name.to_string(), count);
        }
        counts
    }

    /// The node `name` meant when the step started, or else the one node that has the name
    /// now (a node the step created).
    pub fn resolve(&self, scene: &Scene, name: &str) -> Option<NodeId> {
        self.ids
            .get(name)
            .copied()
            .or_else(|| match nodes_named(scene, name).as_slice() {
                [id] => Some(*id),
                _ => None,
            })
    }

    /// The nodes the step's names were bound to when it started.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids.values().copied()
    }

    /// A node's world transform when the step started (a node it bound).
    pub fn start_world(&self, id: NodeId) -> Option<Trs> {
        self.start.get(&id).copied()
    }
}

/// What a lesson reads of the session: the session implements it, so lessons never name
/// the editor and cannot change it (they act through the session's commands).
pub trait SessionView {
    /// The document's scene.
    fn scene(&self) -> &Scene;
    /// The primary selection.
    fn primary(&self) -> Option<NodeId>;
    /// The selected nodes, the primary last.
    fn selection(&self) -> &[NodeId];
    /// Whether a reparent keeps the world transform.
    fn keep_world(&self) -> bool;
    /// Whether the viewport shows this option.
    fn shows(&self, option: ViewOption) -> bool;
    /// The space the viewport looks from.
    fn view_space(&self) -> ViewSpace;
    /// The node whose space the viewport looks from now (None: the world).
    fn view_node(&self) -> Option<NodeId>;
    /// The timeline's time, in seconds.
    fn time(&self) -> f32;
    /// Whether the timeline draws motion trails.
    fn trails(&self) -> bool;
    /// Whether the timeline plays.
    fn playing(&self) -> bool;
}

/// What a predicate is evaluated against.
pub struct Context<'a> {
    /// The session, read-only.
    pub session: &'a dyn SessionView,
    /// The step's names.
    pub bindings: &'a Bindings,
    /// Matrices recomputed by the last world update that did any work.
    pub recomputed: usize,
}

impl Context<'_> {
    /// The node a name means now (None: gone).
    pub fn node(&self, name: &Name) -> Option<NodeId> {
        let scene = self.session.scene();
        self.bindings
            .resolve(scene, &name.text)
            .filter(|id| scene.contains(*id))
    }

    /// True when the predicate holds now.
    pub fn holds(&self, predicate: &Predicate) -> bool {
        let session = self.session;
        let scene = session.scene();
        match predicate {
            Predicate::Transform {
                node,
                frame,
                value,
                tolerance,
            } => self
                .node(node)
                .is_some_and(|id| transform_holds(scene, id, *frame, *value, *tolerance)),
            Predicate::Parent { node, parent } => self.node(node).is_some_and(|id| {
                let wanted = parent.as_ref().map(|p| self.node(p));
                match (scene.parent(id).ok().flatten(), wanted) {
                    (None, None) => true,
                    (Some(actual), Some(Some(wanted))) => actual == wanted,
                    _ => false,
                }
            }),
            Predicate::Exists(name) => !nodes_named(scene, &name.text).is_empty(),
            Predicate::Deleted(name) => self.node(name).is_none(),
            Predicate::Shear { node, zero } => self.node(node).is_some_and(|id| {
                scene
                    .world(id)
                    .is_ok_and(|m| shear_metrics(&m).is_sheared(SHEAR_TOLERANCE_DEGREES) != *zero)
            }),
            Predicate::Selected(name) => {
                self.node(name).is_some() && session.primary() == self.node(name)
            }
            Predicate::KeepWorld(on) => session.keep_world() == *on,
            Predicate::View(option, on) => session.shows(*option) == *on,
            Predicate::LooksFrom(space) => self.looks_from(space),
            Predicate::Probe {
                node,
                space,
                value,
                tolerance,
            } => self.probe_holds(node, space.as_ref(), *value, *tolerance),
            Predicate::TimePast(t) => session.time() >= *t,
            Predicate::Trails(on) => session.trails() == *on,
            Predicate::Playing(on) => session.playing() == *on,
            Predicate::Recomputed { count, at_most } => {
                if *at_most {
                    self.recomputed <= *count
                } else {
                    self.recomputed == *count
                }
            }
            Predicate::Not(inner) => !self.holds(inner),
        }
    }

    /// True when a keep holds now. A keep on a node's world position holds the node in
    /// place: its world rotation, scale and skew must also be what they were when the step
    /// started ("it did not move" while it visibly stretched is not kept), except those a goal
    /// of the step (`goals`) asks to change on that node (see [`held_shape`]).
    pub fn keep_holds(&self, predicate: &Predicate, goals: &[Goal]) -> bool {
        self.holds(predicate)
            && self
                .shape_kept(predicate, goals)
                .is_none_or(|(kept, _)| kept)
    }

    /// For a keep on a world position: whether the node's held world rotation, scale and skew
    /// are still as the step started, with that start (None: another kind of keep, or a node
    /// the step did not bind).
    pub fn shape_kept(&self, predicate: &Predicate, goals: &[Goal]) -> Option<(bool, Trs)> {
        let held = held_shape(predicate, goals)?;
        let Predicate::Transform { node, .. } = predicate else {
            return None;
        };
        let id = self.node(node)?;
        let start = self.bindings.start_world(id)?;
        let now = self.session.scene().world_trs(id).ok()?;
        Some((same_shape(&start, &now, held), start))
    }

    fn looks_from(&self, space: &Space) -> bool {
        let node = self.session.view_node();
        match space {
            Space::World => node.is_none(),
            Space::Parent => {
                self.session.view_space() == ViewSpace::ParentOfSelection && node.is_some()
            }
            Space::Selection => self.session.view_space() == ViewSpace::Selection && node.is_some(),
            Space::Node(name) => node.is_some() && node == self.node(name),
        }
    }

    fn probe_holds(
        &self,
        node: &Name,
        space: Option<&Name>,
        value: glam::Vec2,
        tolerance: f32,
    ) -> bool {
        use crate::model::spaces::{from_world, to_world};
        let scene = self.session.scene();
        let Some(owner) = self.node(node) else {
            return false;
        };
        let into = match space {
            None => Some(None),
            Some(name) => self.node(name).map(Some),
        };
        let (Some(into), Ok(data)) = (into, scene.node(owner)) else {
            return false;
        };
        let (Ok(out), Ok(inv)) = (to_world(scene, Some(owner)), from_world(scene, into)) else {
            return false;
        };
        let chain = inv * out;
        data.probes.iter().any(|p| {
            let read = chain.transform_point2(p.as_dvec2());
            let resolution = 4.0 * f64::from(f32::EPSILON) * f64::from(value.abs().max_element());
            (read - value.as_dvec2()).abs().max_element() <= f64::from(tolerance).max(resolution)
        })
    }
}

/// Does the node's local or world value match within the tolerance?
fn transform_holds(
    scene: &Scene,
    id: NodeId,
    frame: ValueSpace,
    value: Property,
    tolerance: f32,
) -> bool {
    let trs = match frame {
        ValueSpace::Local => scene.node(id).map(|d| d.local),
        ValueSpace::World => scene.world_trs(id),
    };
    let Ok(trs) = trs else { return false };
    // Far from the origin an f32 cannot come closer than a few of its steps: allow those.
    let near = |a: glam::Vec2, b: glam::Vec2| {
        let resolution = 4.0 * f32::EPSILON * b.abs().max_element();
        (a - b).abs().max_element() <= tolerance.max(resolution)
    };
    let angle = |a: f32, b: f32| {
        normalize_degrees(f64::from(a) - f64::from(b)).abs() <= f64::from(tolerance)
    };
    match value {
        Property::Position(p) => near(trs.position, p),
        Property::Rotation(r) => angle(trs.rotation, r),
        Property::Scale(s) => near(trs.scale, s),
        Property::Skew(k) => angle(trs.skew, k),
    }
}

/// Which of rotation, scale and skew a keep holds as at the start: a keep on a node's world
/// position holds all three, except those a goal of the step sets on the same node (a step
/// that asks to turn the pivot keeps only its place). None for any other keep.
pub fn held_shape(keep: &Predicate, goals: &[Goal]) -> Option<[bool; 3]> {
    let Predicate::Transform {
        node,
        frame: ValueSpace::World,
        value: Property::Position(_),
        ..
    } = keep
    else {
        return None;
    };
    let mut held = [true; 3];
    for goal in goals {
        if let Predicate::Transform { node: n, value, .. } = &goal.predicate
            && n.text == node.text
        {
            match value {
                Property::Rotation(_) => held[0] = false,
                Property::Scale(_) => held[1] = false,
                Property::Skew(_) => held[2] = false,
                Property::Position(_) => {}
            }
        }
    }
    Some(held)
}

/// True when two world transforms have the same rotation, scale and skew where `held` says
/// (within the default tolerances).
pub fn same_shape(a: &Trs, b: &Trs, held: [bool; 3]) -> bool {
    use super::{ANGLE_TOLERANCE, LENGTH_TOLERANCE};
    let angle = |x: f32, y: f32| {
        normalize_degrees(f64::from(x) - f64::from(y)).abs() <= f64::from(ANGLE_TOLERANCE)
    };
    (!held[0] || angle(a.rotation, b.rotation))
        && (!held[1] || (a.scale - b.scale).abs().max_element() <= LENGTH_TOLERANCE)
        && (!held[2] || angle(a.skew, b.skew))
}
