//! What a lesson's step is about, to keep in view: the nodes it names and the world points its
//! goals and keeps name (where a probe must read a value, where a node must go in the world,
//! a world position to predict and its expected wrong answers).
//! A sibling of `lesson.rs`, not a child folder, so the session's files stay one folder.

use crate::editor::lesson::eval::SessionView;
use crate::editor::lesson::{Predicate, Property, ValueSpace};
use crate::editor::session::command::Effect;
use crate::editor::session::lesson::LessonRun;
use crate::editor::view::framing::Framed;
use crate::model::scene::{NodeId, Scene};
use glam::{DAffine2, DVec2};

impl LessonRun {
    /// The nodes the step is about, to keep in view: its `frame:` nodes, or every node its
    /// goals, keeps, links and set-up name, and the selection.
    pub fn subject(&self, session: &dyn SessionView) -> Vec<NodeId> {
        let scene = session.scene();
        let mut ids: Vec<NodeId> = match &self.step().setup.frame_nodes {
            Some(names) => names
                .iter()
                .filter_map(|n| self.resolve(scene, &n.text))
                .collect(),
            None => (self.bound_ids())
                .chain(session.selection().iter().copied())
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
    pub fn subject_points(&self, session: &dyn SessionView) -> Vec<DVec2> {
        let setup = &self.step().setup;
        if setup.frame_nodes.is_some() || setup.frame_all.is_some() {
            return Vec::new();
        }
        let scene = session.scene();
        let step = self.step();
        let points = step.goals.iter().chain(&step.keeps);
        let goal_points = points.filter_map(|goal| self.world_point(scene, &goal.predicate));
        goal_points
            .chain(self.predicted_points())
            .filter(|p| p.is_finite())
            .collect()
    }

    /// A world position to predict: the answer and the expected wrong answers, so each can be
    /// clicked and its ghost seen.
    fn predicted_points(&self) -> Vec<DVec2> {
        use crate::editor::lesson::predict::Value;
        let (Some(predict), Some(truth)) = (self.predict(), self.truth()) else {
            return Vec::new();
        };
        if !predict.by_click() {
            return Vec::new();
        }
        let values = std::iter::once(&truth.answer).chain(&truth.wrong);
        values
            .filter_map(|v| match v {
                Value::Vector(p) => Some(p.as_dvec2()),
                Value::Number(_) => None,
            })
            .collect()
    }

    /// The step's nodes and points, as the viewport frames them: in an animated scene, also
    /// where the nodes' origins go over the whole clip, so playing it keeps them in view.
    pub fn framed(&self, session: &dyn SessionView) -> Framed {
        let nodes = self.subject(session);
        let mut points = self.subject_points(session);
        let viewing = session.view_node();
        points.extend(clip_points(session.scene(), &nodes, viewing));
        Framed { nodes, points }
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

/// How many times over the clip a framing samples each node's origin.
const CLIP_SAMPLES: usize = 48;

/// Where the origins of `ids` go over the scene's clip (nothing when nothing is animated):
/// what a playing clip's subject needs room for. Seen from a moving node (`viewing`), each is
/// where it is relative to that node at its time, placed where that is in the world now.
pub(super) fn clip_points(scene: &Scene, ids: &[NodeId], viewing: Option<NodeId>) -> Vec<DVec2> {
    if scene.animated_nodes().is_empty() {
        return Vec::new();
    }
    let length = scene.clip().length;
    let times: Vec<f32> = (0..=CLIP_SAMPLES)
        .map(|k| length * k as f32 / CLIP_SAMPLES as f32)
        .collect();
    // Viewed space at time t → the world now: view_now⁻¹ · view(t), with view = world⁻¹.
    let carry: Vec<DAffine2> = match viewing.and_then(|v| Some((v, scene.world(v).ok()?))) {
        Some((v, now)) => scene
            .sampled_worlds(v, &times)
            .iter()
            .map(|then| now.as_daffine2() * then.as_daffine2().inverse())
            .collect(),
        None => vec![DAffine2::IDENTITY; times.len()],
    };
    ids.iter()
        .flat_map(|&id| scene.sampled_worlds(id, &times).into_iter().zip(&carry))
        .map(|(world, carry)| carry.transform_point2(world.translation.as_dvec2()))
        .filter(|p| p.is_finite())
        .collect()
}

/// Above this many nodes, framing all of an animated scene frames its current pose only
/// (sampling every node over the clip would cost a frame's time).
const FRAME_CLIP_MOST: usize = 2_000;

impl LessonRun {
    /// How a step's start frames the view: all of a new scene, the selection, or what the step
    /// names; in an animated scene, with room for where those nodes go over the clip.
    pub(super) fn step_framing(
        &self,
        session: &dyn SessionView,
        keeps_scene: bool,
    ) -> Option<Effect> {
        let subject = self.framed(session);
        let scene = session.scene();
        let all = || {
            let nodes = scene.ids().to_vec();
            if nodes.len() > FRAME_CLIP_MOST {
                return Effect::FrameAllNextFrame;
            }
            let points = clip_points(scene, &nodes, session.view_node());
            if points.is_empty() {
                Effect::FrameAllNextFrame
            } else {
                Effect::FrameWithPoints(Framed { nodes, points })
            }
        };
        Some(match self.step().setup.frame_all {
            Some(true) => all(),
            Some(false) => Effect::Frame(session.selection().to_vec()),
            None if !subject.nodes.is_empty() || !subject.points.is_empty() => {
                Effect::FrameWithPoints(subject)
            }
            None if !keeps_scene => all(),
            None => return None,
        })
    }
}
