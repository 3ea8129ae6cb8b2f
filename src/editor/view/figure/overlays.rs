//! The figure's trails and ghosts (composition and world-blend): the same primitives the
//! viewport paints (`editor/view/overlay_prims.rs`), measured with the figure's font.

use super::FigureOptions;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::overlay_prims::{accumulated_prims, blend_prims, trail_prims};
use crate::editor::view::primitives::Prim;
use crate::model::scene::Scene;

/// The trails (of the options' selection) and the ghosts the options' layers ask for, as
/// primitives in the figure's rectangle.
pub fn figure_overlay_prims(
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
) -> Vec<Prim<'static>> {
    let mut out = Vec::new();
    if options.layers.trails {
        let width = |text: &str, size: f32| super::font::text_width(text, size);
        trail_prims(scene, &options.selection, view, &width, &mut out);
    }
    if options.layers.ghosts {
        accumulated_prims(scene, view, &mut out);
        blend_prims(scene, options.time, view, &mut out);
    }
    out
}
