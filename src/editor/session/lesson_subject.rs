//! What a lesson's step is about, to keep in view: the nodes it names and the world points its
//! goals and keeps name (where a probe must read a value, where a node must go in the world).
//! A sibling of `lesson.rs`, not a child folder, so the session's files stay one folder.

use crate::editor::lesson::{Predicate, Property, ValueSpace};
use crate::editor::session::Editor;
use crate::editor::session::lesson::LessonRun;
use crate::editor::view::framing::Framed;
use crate::model::scene::{NodeId, Scene};
use glam::DVec2;

impl LessonRun {
    /// The nodes the step is about, to keep in view: its `frame:` nodes, or every node its
    /// goals, keeps, links and set-up name, and the selection.
    pub fn subject(&self, editor: &Editor) -> Vec<NodeId> {
        let scene = editor.doc().scene();
        let mut ids: Vec<NodeId> = match &self.step().setup.frame_nodes {
            Some(names) => names
                .iter()
                .filter_map(|n| self.resolve(scene, &n.text))
                .collect(),
            None => (self.bound_ids())
                .chain(editor.selection().iter().copied())
                .collect(),
        };
        ids.retain(|id| scene.contains(*id));
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The world points the step's goals and keeps name, to keep in view with its nodes: where
    /// a probe goal wants its probe (`probe on NODE in SPACE is (x, y)`, carried from SPACE
    /// into the world as it is now) and where a world-position goal wants its node. None when
    /// the step says what to frame (`frame: all`, `frame: selection`, `frame: NODES`): a goal
    /// may be a place meant to be out of view (09's pines moved to (50, 0) to be culled).
    pub fn subject_points(&self, editor: &Editor) -> Vec<DVec2> {
        let setup = &self.step().setup;
        if setup.frame_nodes.is_some() || setup.frame_all.is_some() {
            return Vec::new();
        }
        let scene = editor.doc().scene();
        let step = self.step();
        let points = step.goals.iter().chain(&step.keeps);
        points
            .filter_map(|goal| self.world_point(scene, &goal.predicate))
            .filter(|p| p.is_finite())
            .collect()
    }

    /// The step's nodes and points, as the viewport frames them.
    pub fn framed(&self, editor: &Editor) -> Framed {
        Framed {
            nodes: self.subject(editor),
            points: self.subject_points(editor),
        }
    }

    /// The world point a goal names, if it names one.
    fn world_point(&self, scene: &Scene, predicate: &Predicate) -> Option<DVec2> {
        match predicate {
            Predicate::Transform {
                frame: ValueSpace::World,
                value: Property::Position(p),
                ..
            } => Some(p.as_dvec2()),
            Predicate::Probe {
                space: None, value, ..
            } => Some(value.as_dvec2()),
            Predicate::Probe {
                space: Some(space),
                value,
                ..
            } => {
                let id = self.resolve(scene, &space.text)?;
                let world = scene.world(id).ok()?;
                Some(world.transform_point2(*value).as_dvec2())
            }
            _ => None,
        }
    }
}
