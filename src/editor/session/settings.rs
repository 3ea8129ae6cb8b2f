//! Tool and view settings of the session: the handle tool and its orientation, keep-world,
//! what the viewport shows, the space it looks from, and probe mode.

use crate::editor::session::command::{SettingCommand, ViewOption, ViewSpace};
use crate::editor::view::handles::{Orientation, Tool};
use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashSet;

/// What the viewport shows besides the nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewOptions {
    shown: FxHashSet<ViewOption>,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            shown: [
                ViewOption::Axes,
                ViewOption::Links,
                ViewOption::Names,
                ViewOption::Shear,
            ]
            .into_iter()
            .collect(),
        }
    }
}

impl ViewOptions {
    /// True when this option is on.
    pub fn shows(&self, option: ViewOption) -> bool {
        self.shown.contains(&option)
    }

    /// Turn this option on or off.
    pub fn toggle(&mut self, option: ViewOption) {
        if !self.shown.remove(&option) {
            self.shown.insert(option);
        }
    }
}

/// The settings a person switches while working (none of them is part of the document).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    tool: Tool,
    orientation: Orientation,
    keep_world: bool,
    view: ViewOptions,
    view_space: ViewSpace,
    probe_mode: bool,
    godot3_export: bool,
    godot_flatten: bool,
    godot_pixels_per_unit: u32,
    panel: crate::editor::session::focus::Panel,
    ui_scale: f32,
    high_contrast: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tool: Tool::default(),
            orientation: Orientation::default(),
            keep_world: true,
            view: ViewOptions::default(),
            view_space: ViewSpace::World,
            probe_mode: false,
            godot3_export: false,
            godot_flatten: false,
            godot_pixels_per_unit: 1,
            panel: Default::default(),
            ui_scale: 1.0,
            high_contrast: false,
        }
    }
}

impl Settings {
    /// The handle tool, the handles' axes, "Keep world transform", what the viewport shows and the
    /// Godot export's remembered choices: the settings' own commands.
    pub(super) fn handle(&mut self, command: SettingCommand) {
        use SettingCommand as C;
        match command {
            C::SetGodot3Export(on) => self.set_godot3_export(on),
            C::SetGodotFlatten(on) => self.set_godot_flatten(on),
            C::SetGodotPixelsPerUnit(pixels) => self.set_godot_pixels_per_unit(pixels),
            C::SetTool(tool) => self.set_tool(tool),
            C::SetOrientation(orientation) => self.set_orientation(orientation),
            C::ToggleOrientation => self.toggle_orientation(),
            C::ToggleKeepWorld => self.toggle_keep_world(),
            C::ToggleView(option) => self.toggle_view(option),
        }
    }

    /// The viewport's handle.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Whether the handles follow the node's axes or the world's.
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// Unity's worldPositionStays.
    pub fn keep_world(&self) -> bool {
        self.keep_world
    }

    /// What the viewport shows.
    pub fn view(&self) -> &ViewOptions {
        &self.view
    }

    /// The space the viewport looks from, as chosen.
    pub fn view_space(&self) -> ViewSpace {
        self.view_space
    }

    /// True while a click in the viewport drops a probe.
    pub fn probe_mode(&self) -> bool {
        self.probe_mode
    }

    /// Choose the handle.
    pub fn set_tool(&mut self, tool: Tool) {
        self.tool = tool;
    }

    /// Choose the handles' orientation.
    pub fn set_orientation(&mut self, orientation: Orientation) {
        self.orientation = orientation;
    }

    /// Local ⇄ World.
    pub fn toggle_orientation(&mut self) {
        self.orientation = match self.orientation {
            Orientation::Local => Orientation::World,
            Orientation::World => Orientation::Local,
        };
    }

    /// File ▸ Export as Godot scene writes Godot 3 (`format=2`) instead of Godot 4.
    pub fn godot3_export(&self) -> bool {
        self.godot3_export
    }

    /// Choose the Godot version File ▸ Export as Godot scene writes for.
    pub fn set_godot3_export(&mut self, on: bool) {
        self.godot3_export = on;
    }

    /// File ▸ Export as Godot scene writes every instance as plain nodes (one flat file)
    /// instead of `instance=ExtResource` with its parts beside the file.
    pub fn godot_flatten(&self) -> bool {
        self.godot_flatten
    }

    /// Choose whether File ▸ Export as Godot scene keeps instances or flattens them.
    pub fn set_godot_flatten(&mut self, on: bool) {
        self.godot_flatten = on;
    }

    /// How many Godot pixels one graft unit becomes in Export as Godot scene (1: as is).
    pub fn godot_pixels_per_unit(&self) -> u32 {
        self.godot_pixels_per_unit
    }

    /// Choose the export's pixels per unit (at least 1).
    pub fn set_godot_pixels_per_unit(&mut self, pixels: u32) {
        self.godot_pixels_per_unit = pixels.max(1);
    }

    /// Turn "Keep world transform" on or off.
    pub fn toggle_keep_world(&mut self) {
        self.keep_world = !self.keep_world;
    }

    /// Set "Keep world transform" (a lesson's step restored).
    pub fn set_keep_world(&mut self, on: bool) {
        self.keep_world = on;
    }

    /// Replace what the viewport shows (a lesson's step restored).
    pub fn set_view(&mut self, view: ViewOptions) {
        self.view = view;
    }

    /// Turn a view option on or off.
    pub fn toggle_view(&mut self, option: ViewOption) {
        self.view.toggle(option);
    }

    /// Look from this space (the caller has checked that it can be looked from).
    pub fn set_view_space(&mut self, space: ViewSpace) {
        self.view_space = space;
    }

    /// The node whose space the viewport looks from in `scene` now (None: the world), with
    /// `primary` the primary selection; the world → view matrix; and why not when the chosen
    /// node's world matrix is singular (the view then shows the world).
    pub(super) fn view_node(
        &self,
        scene: &Scene,
        primary: Option<NodeId>,
    ) -> (Option<NodeId>, glam::DAffine2, Option<String>) {
        let node = match self.view_space {
            ViewSpace::World => None,
            ViewSpace::Selection => primary,
            ViewSpace::ParentOfSelection => primary.and_then(|id| scene.parent(id).ok().flatten()),
            ViewSpace::Node(id) => Some(id).filter(|id| scene.contains(*id)),
        };
        let identity = glam::DAffine2::IDENTITY;
        match node.map(|id| (id, crate::editor::view::spaces::from_world(scene, Some(id)))) {
            Some((id, Ok(view))) => (Some(id), view, None),
            Some((id, Err(_))) => (None, identity, Some(singular_view(scene, id))),
            None => (None, identity, None),
        }
    }

    /// Look from a space of `scene`; a node whose world matrix is singular is refused.
    pub(super) fn look_from(&mut self, scene: &Scene, space: ViewSpace) -> Result<()> {
        if let ViewSpace::Node(id) = space {
            scene.index(id)?;
            if crate::editor::view::spaces::from_world(scene, Some(id)).is_err() {
                return Err(Error::Refused(singular_view(scene, id)));
            }
        }
        self.view_space = space;
        Ok(())
    }

    /// Probe mode on ⇄ off; returns the new state.
    pub fn toggle_probe_mode(&mut self) -> bool {
        self.probe_mode = !self.probe_mode;
        self.probe_mode
    }

    /// The panel that has the keyboard.
    pub fn panel(&self) -> crate::editor::session::focus::Panel {
        self.panel
    }

    /// Give the keyboard to a panel.
    pub fn set_panel(&mut self, panel: crate::editor::session::focus::Panel) {
        self.panel = panel;
    }

    /// How big the interface is drawn (1.0: 100 %).
    pub fn ui_scale(&self) -> f32 {
        self.ui_scale
    }

    /// Set the interface scale, kept between 50 % and 300 %.
    pub fn set_ui_scale(&mut self, scale: f32) {
        self.ui_scale = if scale.is_finite() {
            scale.clamp(UI_SCALE_MIN, UI_SCALE_MAX)
        } else {
            1.0
        };
    }

    /// True when the high-contrast theme is on.
    pub fn high_contrast(&self) -> bool {
        self.high_contrast
    }

    /// Turn the high-contrast theme on or off.
    pub fn set_high_contrast(&mut self, on: bool) {
        self.high_contrast = on;
    }
}

/// The smallest interface scale.
pub const UI_SCALE_MIN: f32 = 0.5;
/// The largest interface scale.
pub const UI_SCALE_MAX: f32 = 3.0;

/// The next interface scale up (Step::Forward) or down from `scale`: 50, 67, 75, 80, 90, 100,
/// 110, 125, 150, 175, 200, 250, 300 %, as browsers step.
pub fn step_ui_scale(scale: f32, step: crate::editor::session::focus::Step) -> f32 {
    use crate::editor::session::focus::Step;
    const STEPS: [f32; 13] = [
        0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0,
    ];
    let next = match step {
        Step::Forward => STEPS.iter().find(|s| **s > scale + 0.001),
        Step::Back => STEPS.iter().rev().find(|s| **s < scale - 0.001),
    };
    next.copied().unwrap_or(scale)
}

/// Why the view cannot be from this node.
pub(super) fn singular_view(scene: &Scene, id: NodeId) -> String {
    let name = scene.label(id);
    format!(
        "Cannot view from {name}: its world matrix is singular (a zero scale in it or above it), so the world has no place in its space"
    )
}
