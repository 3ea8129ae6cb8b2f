//! What the viewport keeps between frames ([`ViewportState`]) and what its parts read each
//! frame ([`Frame`]): the types every part of the viewport shares, importing none of them.

use super::density::Density;
use super::layer::NodeLayer;
use super::textures::Textures;
use crate::app::frame::FrameContext;
use crate::editor::session::probes::ProbeRef;
use crate::editor::view::camera::Camera;
use crate::editor::view::cull_cache::{Extents, SubtreeBounds};
use crate::editor::view::culling_demo::WorldRect;
use crate::editor::view::draw_list::DrawList;
use crate::editor::view::framing::Framing;
use crate::editor::view::handles::HandleDrag;
use crate::editor::view::pointer::MoveDrag;
use crate::editor::view::primitives::Prim;
use crate::model::scene::NodeId;
use egui::{Pos2, Rect};
use glam::DVec2;
use std::sync::Arc;

/// The viewport's camera and interaction state (what to show is the editor's
/// [`ViewOption`](crate::editor::session::command::ViewOption)s).
pub struct ViewportState {
    /// The camera.
    pub camera: Camera,
    /// Where the viewport was on screen last frame (for world ↔ screen outside the frame).
    pub last_rect: Rect,
    /// The node under the pointer.
    pub hovered: Option<NodeId>,
    /// The world point under the pointer (f64), for the status bar.
    pub pointer_world: Option<DVec2>,
    /// The probe pin under the pointer.
    pub(super) hover_probe: Option<Pos2>,
    /// The recomputed nodes lit, and since when.
    pub(super) flash: Option<(Vec<(u32, u32)>, f64)>,
    /// Where a box selection started.
    pub(super) box_start: Option<Pos2>,
    /// The handle being dragged.
    pub(super) handle_drag: Option<HandleDrag>,
    /// What to fit next, and what was fitted last.
    pub(super) framing: Framing,
    /// The selection being dragged (shared with the commands that move it: no copy a frame).
    pub(super) drag: Option<Arc<MoveDrag>>,
    /// The probe whose pin is being dragged.
    pub(super) probe_drag: Option<ProbeRef>,
    /// The node the view is from (None: the world).
    pub(super) viewing: Option<NodeId>,
    /// The sprite images loaded so far.
    pub(super) textures: Textures,
    /// Per-node extents and colours for the drawing pass (rebuilt when the scene changes).
    pub(super) extents: Extents,
    /// Subtree world boxes, to skip what is off screen.
    pub(super) bounds: SubtreeBounds,
    /// View ▸ Culling rectangle: the "camera" rectangle in world coordinates, once shown.
    pub(super) culling_rect: Option<WorldRect>,
    /// Nodes too small to fan, gathered into one image.
    pub(super) density: Density,
    /// The nodes the last drawing pass found big enough for a shear mark.
    pub(super) shear_candidates: Vec<usize>,
    /// The last node layer drawn (painted again while nothing it shows changed).
    pub(super) layer: NodeLayer,
}

impl Default for ViewportState {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            last_rect: Rect::NOTHING,
            hovered: None,
            pointer_world: None,
            hover_probe: None,
            flash: None,
            box_start: None,
            handle_drag: None,
            framing: Framing::default(),
            drag: None,
            probe_drag: None,
            viewing: None,
            textures: Textures::default(),
            extents: Default::default(),
            bounds: Default::default(),
            culling_rect: None,
            density: Default::default(),
            shear_candidates: Vec::new(),
            layer: Default::default(),
        }
    }
}

impl ViewportState {
    /// Frame these nodes on the next frame (when the viewport's size is known).
    pub fn frame(&mut self, ids: &[NodeId]) {
        self.framing.frame(ids);
    }

    /// Frame these nodes and world points (a lesson step's subject) on the next frame.
    pub fn frame_with_points(&mut self, framed: crate::editor::view::framing::Framed) {
        self.framing.frame_with_points(framed);
    }

    /// Frame the whole scene on the next frame.
    pub fn frame_on_next_frame(&mut self) {
        self.framing.frame_all();
    }

    /// The draw list the last node layer was painted from (tests compare it with a figure's).
    pub fn draw_list(&self) -> &DrawList {
        &self.layer.list
    }

    /// How the node layer was drawn so far: planned whole, painted again unchanged, and only
    /// the moving subtrees drawn over a kept layer (tests and benches).
    pub fn layer_counts(&self) -> (usize, usize, usize) {
        (self.layer.built, self.layer.reused, self.layer.moved_only)
    }

    /// Frames that painted the kept node layer slid by a drag of the whole scene (tests and
    /// benches).
    pub fn layer_slid(&self) -> usize {
        self.layer.slid
    }

    /// Drop the cached sprite textures (another scene was loaded).
    pub fn forget_textures(&mut self) {
        self.textures.clear();
    }

    /// Keep every node layer drawn from now on as primitives, for [`Self::primitives`] (the
    /// viewport paints them as they are made and keeps no copy otherwise).
    pub fn record_primitives(&mut self) {
        self.layer.recording = true;
        // The kept layer was not recorded: the next frame plans it again.
        self.layer.key = None;
    }

    /// What the last frame painted of the scene, as primitives: the grid, the node layer last
    /// drawn (with the offset of the viewport on screen; recorded only after
    /// [`Self::record_primitives`]) and the shear overlay (tests compare them with a figure's).
    pub fn primitives(&self) -> Vec<Prim<'static>> {
        let layer = &self.layer;
        [&layer.grid.prims, &layer.prims, &layer.shear.prims]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }
}

impl ViewportState {
    /// The trails and ghosts the last frame painted, as primitives (recorded only after
    /// [`Self::record_primitives`]; tests compare them with a figure's).
    pub fn overlay_primitives(&self) -> &[Prim<'static>] {
        &self.layer.overlays
    }
}

/// What the viewport's input handlers read this frame.
pub(super) struct Frame<'a> {
    /// The viewport's ui.
    pub(super) ui: &'a egui::Ui,
    /// The viewport's response (clicks, drags).
    pub(super) response: &'a egui::Response,
    /// The viewport on screen.
    pub(super) rect: Rect,
    /// The editor shown.
    pub(super) fx: &'a FrameContext<'a>,
}
