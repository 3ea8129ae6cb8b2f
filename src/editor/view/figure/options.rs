//! What a figure is asked for besides the scene: its size, scale, layers, selection, caption,
//! camera and time (below the figure's writer, planner and overlays, which all read it).

use super::layers::Layers;
use crate::editor::view::camera::Camera;
use crate::model::scene::NodeId;

/// Everything a figure needs besides the scene.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureOptions {
    /// Width and height in CSS pixels (the SVG's size; a PNG multiplies it by `scale`).
    pub size: (u32, u32),
    /// Device pixels per CSS pixel for the PNG.
    pub scale: f32,
    /// What to show.
    pub layers: Layers,
    /// The selected nodes (highlighted; the last one's matrix chain is the caption).
    pub selection: Vec<NodeId>,
    /// Add the caption with the selection's matrix chain.
    pub caption: bool,
    /// The camera to use (the viewport's, scaled to the figure); None fits the whole scene.
    pub camera: Option<Camera>,
    /// The playback time the scene is posed at (the world-blend ghosts need it).
    pub time: f32,
}

impl Default for FigureOptions {
    fn default() -> Self {
        Self {
            size: (1600, 1000),
            scale: 1.0,
            layers: Layers::default(),
            selection: Vec::new(),
            caption: true,
            camera: None,
            time: 0.0,
        }
    }
}
