//! The kept node layer: what the last one was drawn from ([`LayerKey`]) and what it painted
//! ([`NodeLayer`]), which `nodes.rs`, `progressive.rs` and `slide.rs` read and keep.

use super::painted::{GridKey, Painted, ShearKey};
use crate::app::frame::FrameContext;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::Camera;
use crate::editor::view::draw_list::DrawList;
use crate::editor::view::frame_plan::PlanJob;
use crate::editor::view::primitives::Prim;
use crate::editor::view::slide::Anchor;
use egui::Rect;
use glam::Vec2;

/// Everything the node layer is drawn from; equal keys draw equal layers.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LayerKey {
    /// Structure and appearance versions of the scene, and its size.
    scene: (u64, u64, usize),
    /// The scene's world version.
    pub(super) world: u64,
    /// The camera it was drawn through.
    pub(super) camera: Camera,
    rect: Rect,
    /// The splat threshold (its bits).
    pub(super) tiny: u64,
    /// The selection's version (a million selected ids are not copied every frame).
    selection: u64,
    /// Links, shear candidates, axes, names.
    options: [bool; 4],
}

impl LayerKey {
    /// What this frame's node layer is drawn from: the editor's scene, selection and view
    /// options, seen through `camera` in `rect` with splat threshold `tiny`.
    pub(super) fn new(fx: &FrameContext, camera: Camera, rect: Rect, tiny: f64) -> Self {
        let scene = fx.scene;
        let view = fx.view;
        LayerKey {
            scene: (
                scene.structure_version(),
                scene.appearance_version().1,
                scene.len(),
            ),
            world: scene.world_version(),
            camera,
            rect,
            tiny: tiny.to_bits(),
            selection: fx.selection_version,
            options: [
                view.shows(ViewOption::Links),
                view.shows(ViewOption::Shear),
                view.shows(ViewOption::Axes),
                view.shows(ViewOption::Names),
            ],
        }
    }

    /// Equal apart from the camera's centre and zoom.
    pub(super) fn same_but_camera(&self, other: &LayerKey) -> bool {
        self.scene == other.scene
            && self.world == other.world
            && self.camera.view == other.camera.view
            && self.rect == other.rect
            && self.tiny == other.tiny
            && self.selection == other.selection
            && self.options == other.options
    }

    /// Equal apart from the world matrices and the level of detail.
    pub(super) fn same_view(&self, other: &LayerKey) -> bool {
        self.scene == other.scene
            && self.camera == other.camera
            && self.rect == other.rect
            && self.selection == other.selection
            && self.options == other.options
    }

    /// Equal apart from the world matrices: a layer planned for one can be moved or composed
    /// onto the other.
    pub(super) fn same_but_world(&self, other: &LayerKey) -> bool {
        self.same_view(other) && self.tiny == other.tiny
    }
}

/// A layer drawn without some moving subtrees, kept while only they move (a drag).
pub(super) struct Base {
    /// What it was drawn from.
    pub(super) key: LayerKey,
    /// The subtrees left out (pre-order ranges, sorted).
    pub(super) skip: Vec<(u32, u32)>,
    /// Its shapes.
    pub(super) shapes: Vec<egui::Shape>,
    /// Its shear candidates.
    pub(super) shear: Vec<usize>,
    /// The boxes of its names (the moving subtrees' names keep clear of them).
    pub(super) names: Vec<[f64; 4]>,
}

/// A plan of a moved view in progress for one camera (`progressive.rs`).
pub(super) struct Pending {
    /// The camera it is planned for.
    pub(super) camera: Camera,
    /// The planning so far.
    pub(super) job: PlanJob,
}

/// The last node layer drawn, and what it was drawn from.
#[derive(Default)]
pub(super) struct NodeLayer {
    /// What it was drawn from.
    pub(super) key: Option<LayerKey>,
    /// What it painted.
    pub(super) shapes: Vec<egui::Shape>,
    /// The world version the last frame saw.
    pub(super) world_seen: u64,
    /// A plan of a moved view being made over several frames (big scenes).
    pub(super) pending: Option<Pending>,
    /// The last frame was a kept base with the moving subtrees drawn over it (their stacking
    /// may differ from pre-order, so an unchanged frame after it draws the layer anew).
    pub(super) composed: bool,
    /// The kept base of a drag of a few subtrees.
    pub(super) base: Option<Base>,
    /// Vertices and indices of the biggest fill mesh last time (to reserve them at once).
    pub(super) fill_size: (usize, usize),
    /// Layers planned whole (tests and benches read them).
    pub built: usize,
    /// Frames that painted the kept layer again.
    pub reused: usize,
    /// Frames that drew only the moving subtrees over a kept base.
    pub moved_only: usize,
    /// The top-level nodes' world matrices when the kept layer was planned whole (big scenes
    /// only; see `slide.rs`).
    pub(super) anchors: Option<Vec<Anchor>>,
    /// Frames that painted the kept layer slid by the whole scene's move.
    pub slid: usize,
    /// The draw list of the last layer drawn (tests compare it with a figure's).
    pub list: DrawList,
    /// Keep each layer's primitives (tests turn it on to compare them with a figure's).
    pub(super) recording: bool,
    /// The primitives of the last layer drawn, when recording.
    pub(super) prims: Vec<Prim<'static>>,
    /// The trails and ghosts last drawn, when recording.
    pub(super) overlays: Vec<Prim<'static>>,
    /// The grid, last frame.
    pub(super) grid: Painted<GridKey>,
    /// The shear overlay, last frame.
    pub(super) shear: Painted<ShearKey>,
    /// The world version and screen shift of the last slid frame.
    pub(super) slid_shift: Option<(u64, Vec2)>,
}
