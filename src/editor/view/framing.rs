//! What the camera is asked to fit and when: the nodes and world points a view frames
//! ([`Framed`]) and the requests to fit them ([`Framing`]).

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{in_view, world_bounds};
use crate::model::scene::{NodeId, Scene};
use glam::DVec2;

/// What a fit shows: nodes (their shapes and origins) and world points (a lesson step's
/// probe goal, a world position it asks for).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Framed {
    /// The nodes.
    pub nodes: Vec<NodeId>,
    /// The world points.
    pub points: Vec<DVec2>,
}

impl From<Vec<NodeId>> for Framed {
    fn from(nodes: Vec<NodeId>) -> Self {
        Self {
            nodes,
            points: Vec::new(),
        }
    }
}

impl Framed {
    /// The world box round the nodes and the finite points (None: nothing with a place).
    pub fn bounds(&self, scene: &Scene) -> Option<(DVec2, DVec2)> {
        let nodes = world_bounds(scene, &self.nodes);
        let points = self.points.iter().filter(|p| p.is_finite());
        let (lo, hi) = points.fold(
            nodes.unwrap_or((DVec2::INFINITY, DVec2::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        (lo.x <= hi.x).then_some((lo, hi))
    }

    /// True when every node and every finite point is inside `rect` as `camera` shows it.
    pub fn in_view(&self, camera: Camera, rect: ScreenRect, scene: &Scene) -> bool {
        let inside = |p: &DVec2| {
            let s = camera.to_screen_f64(rect, *p);
            let (lo, hi) = (rect.min.as_dvec2(), rect.max.as_dvec2());
            s.cmpge(lo - 0.5).all() && s.cmple(hi + 0.5).all()
        };
        in_view(camera, rect, scene, &self.nodes)
            && self.points.iter().filter(|p| p.is_finite()).all(inside)
    }
}

/// What the camera is asked to fit: the whole scene on the first frame (or a new scene), the
/// nodes framed with F or a lesson's subject; and what it last fitted, so that a fitted view
/// stays fitted while the viewport is resized, until the camera is moved by hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Framing {
    /// Fit the whole scene at the next [`Framing::fit`].
    all_pending: bool,
    /// Fit these nodes and points at the next [`Framing::fit`].
    request: Option<Framed>,
    /// What was fitted last, and in which viewport rectangle.
    fitted: Option<(Framed, ScreenRect)>,
    /// The document revision a lesson's subject was last checked to be in view at.
    subject_seen: Option<(u64, Option<NodeId>)>,
}

impl Default for Framing {
    /// The first frame fits the whole scene.
    fn default() -> Self {
        Self {
            all_pending: true,
            request: None,
            fitted: None,
            subject_seen: None,
        }
    }
}

impl Framing {
    /// Fit these nodes at the next [`Framing::fit`].
    pub fn frame(&mut self, ids: &[NodeId]) {
        self.request = Some(ids.to_vec().into());
    }

    /// Fit these nodes and world points at the next [`Framing::fit`].
    pub fn frame_with_points(&mut self, framed: Framed) {
        self.request = Some(framed);
    }

    /// Fit the whole scene at the next [`Framing::fit`].
    pub fn frame_all(&mut self) {
        self.all_pending = true;
    }

    /// True while a fit is waiting.
    pub fn waiting(&self) -> bool {
        self.all_pending || self.request.is_some()
    }

    /// The camera was moved by hand: a resize no longer fits again.
    pub fn moved(&mut self) {
        self.fitted = None;
    }

    /// A lesson's step keeps the nodes and points it names in view: after a change to the
    /// document (`revision`) or to the node the view looks from (`viewing`), once the pointer
    /// is up (never mid-drag) and no fit is waiting, when one of the `subject`'s nodes or
    /// points is out of view they are framed at the next [`Framing::fit`]. Panning or zooming
    /// away by hand is left alone (neither changed). `subject` is only asked for when it is
    /// checked.
    pub fn keep_in_view<S>(
        &mut self,
        (camera, rect): (Camera, ScreenRect),
        scene: &Scene,
        (revision, viewing, pointer_down): (u64, Option<NodeId>, bool),
        subject: impl FnOnce() -> S,
    ) where
        S: Into<Framed>,
    {
        let seen = Some((revision, viewing));
        if self.subject_seen == seen || self.waiting() || pointer_down {
            return;
        }
        self.subject_seen = seen;
        let subject: Framed = subject().into();
        if !subject.in_view(camera, rect, scene) {
            self.request = Some(subject);
        }
    }

    /// Fit what is asked for (or, when the viewport changed size, what was fitted last) into
    /// `rect`; true when the camera was fitted. Nodes with no place (gone, or not finite)
    /// leave the camera as it is.
    pub fn fit(&mut self, camera: &mut Camera, scene: &Scene, rect: ScreenRect) -> bool {
        if std::mem::take(&mut self.all_pending) {
            self.request = Some(scene.ids().to_vec().into());
        }
        if self.request.is_none()
            && let Some((ids, fitted_rect)) = &self.fitted
            && *fitted_rect != rect
        {
            self.request = Some(ids.clone());
        }
        let Some(framed) = self.request.take() else {
            return false;
        };
        let Some((lo, hi)) = framed.bounds(scene) else {
            return false;
        };
        camera.fit(rect, lo, hi);
        self.fitted = Some((framed, rect));
        true
    }
}
