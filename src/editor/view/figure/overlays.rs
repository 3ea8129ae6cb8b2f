//! The figure's overlays: the space grids, trails, ghosts (composition and world-blend) and the
//! probes' pins, the same primitives the viewport paints (`editor/view/overlay_prims.rs`,
//! `editor/view/space_prims.rs`), measured with the figure's font.

use super::options::FigureOptions;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::overlay_prims::{accumulated_prims, blend_prims, trail_prims};
use crate::editor::view::primitives::Prim;
use crate::editor::view::space_prims::{ShownSpaces, probe_prims, scene_pins, space_prims};
use crate::model::scene::Scene;

/// The space grids and trails (of the options' selection), the ghosts and the pins the options'
/// layers ask for, as primitives in the figure's rectangle, in the viewport's order.
pub fn figure_overlay_prims(
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
) -> Vec<Prim<'static>> {
    let mut out = Vec::new();
    let width = |text: &str, size: f32| super::font::text_width(text, size);
    let shown = ShownSpaces {
        parent: options.layers.parent_space,
        own: options.layers.own_space,
    };
    let primary = options.selection.last().copied();
    space_prims(scene, primary, shown, (view, &width), &mut out);
    if options.layers.trails {
        trail_prims(scene, &options.selection, view, &width, &mut out);
    }
    if options.layers.ghosts {
        accumulated_prims(scene, view, &mut out);
        blend_prims(scene, options.time, view, &mut out);
    }
    if options.layers.probes {
        probe_prims(scene, &scene_pins(scene), view, &mut out);
    }
    out
}
