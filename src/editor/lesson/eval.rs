//! Goals evaluated over the session: a predicate holds or not of the document and the editor
//! state, whatever way the learner got there.

use super::{Frame, Name, Predicate, Property, SHEAR_TOLERANCE_DEGREES, Space};
use crate::editor::session::Editor;
use crate::editor::session::command::ViewSpace;
use crate::model::math::{normalize_degrees, shear_metrics};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;

/// The nodes a step's names meant when it started: goals follow the node, not the name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    ids: FxHashMap<String, NodeId>,
}

/// The nodes with this name in the scene (pre-order).
pub fn nodes_named(scene: &Scene, name: &str) -> Vec<NodeId> {
    (0..scene.len())
        .filter(|&i| scene.data_at(i).name == name)
        .map(|i| scene.id_at(i))
        .collect()
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
        let mut counts = FxHashMap::default();
        for (name, (count, id)) in found {
            if let (1, Some(id)) = (count, id) {
                self.ids.insert(name.to_string(), id);
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
}

/// What a predicate is evaluated against.
pub struct Context<'a> {
    /// The session.
    pub editor: &'a Editor,
    /// The step's names.
    pub bindings: &'a Bindings,
    /// Matrices recomputed by the last world update that did any work.
    pub recomputed: usize,
}

impl Context<'_> {
    fn node(&self, name: &Name) -> Option<NodeId> {
        let scene = self.editor.doc().scene();
        self.bindings
            .resolve(scene, &name.text)
            .filter(|id| scene.contains(*id))
    }

    /// True when the predicate holds now.
    pub fn holds(&self, predicate: &Predicate) -> bool {
        let editor = self.editor;
        let scene = editor.doc().scene();
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
                self.node(name).is_some() && editor.primary() == self.node(name)
            }
            Predicate::KeepWorld(on) => editor.keep_world() == *on,
            Predicate::View(option, on) => editor.view().shows(*option) == *on,
            Predicate::LooksFrom(space) => self.looks_from(space),
            Predicate::Probe {
                node,
                space,
                value,
                tolerance,
            } => self.probe_holds(node, space.as_ref(), *value, *tolerance),
            Predicate::TimePast(t) => editor.timeline().time >= *t,
            Predicate::Trails(on) => editor.timeline().trails == *on,
            Predicate::Playing(on) => editor.timeline().playing == *on,
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

    fn looks_from(&self, space: &Space) -> bool {
        let (node, _, _) = self.editor.view_node();
        match space {
            Space::World => node.is_none(),
            Space::Parent => {
                self.editor.view_space() == ViewSpace::ParentOfSelection && node.is_some()
            }
            Space::Selection => self.editor.view_space() == ViewSpace::Selection && node.is_some(),
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
        use crate::editor::view::spaces::{from_world, to_world};
        let scene = self.editor.doc().scene();
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
    frame: Frame,
    value: Property,
    tolerance: f32,
) -> bool {
    let trs = match frame {
        Frame::Local => scene.node(id).map(|d| d.local),
        Frame::World => scene.world_trs(id),
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
