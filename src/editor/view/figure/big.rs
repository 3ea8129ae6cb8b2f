//! Figures of big scenes, drawn as the viewport draws them: from [`FIGURE_PLAN_FROM`] nodes the
//! figure is planned like a viewport frame (`frame_plan`): nodes off the figure are left out,
//! nodes smaller than a pixel are summed into the density grids, which the SVG carries as two
//! PNG images under the shapes, and the shear overlay looks only at the plan's candidates. A
//! 1M-node figure is then a few megabytes that resvg can render, instead of one element per
//! node (264 MB, past resvg's element limit).

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::cull::{Extents, SubtreeBounds};
use crate::editor::view::figure::FigureOptions;
use crate::editor::view::frame_plan::{self, DensityGrid, FramePlan, PlanInput, selection_indices};
use crate::editor::view::occlusion::{OCCLUSION_FROM, visible_nodes};
use crate::model::scene::Scene;
use crate::model::svg::export::{base64, coord};
use std::fmt::Write as _;

/// Scenes with at least this many nodes are planned like a viewport frame.
pub const FIGURE_PLAN_FROM: usize = 20_000;
/// Nodes under this half-extent (px) are summed into the density images ...
const FIGURE_TINY: f64 = 1.0;
/// ... doubled (up to [`FIGURE_TINY_MAX`]) while the plan keeps more shapes than this, so a
/// figure stays a few megabytes and renders in about a second.
const FIGURE_SHAPE_BUDGET: usize = 60_000;
/// The largest splat threshold (px).
const FIGURE_TINY_MAX: f64 = 8.0;

/// Plan the figure's nodes: which are drawn, which summed, the links and shear candidates.
pub(super) fn plan_figure(
    scene: &Scene,
    options: &FigureOptions,
    camera: Camera,
    rect: ScreenRect,
) -> FramePlan {
    let mut extents = Extents::default();
    extents.refresh(scene);
    let mut bounds = SubtreeBounds::default();
    bounds.refresh(scene, &extents);
    let selection = if options.layers.selection {
        options.selection.as_slice()
    } else {
        &[]
    };
    let (protected, selected) = selection_indices(scene, selection);
    let mut input = PlanInput {
        scene,
        extents: &extents,
        bounds: &bounds,
        camera,
        view: rect,
        tiny: FIGURE_TINY,
        protected: &protected,
        selected: &selected,
        links: options.layers.links,
        shear: options.layers.shear,
        skip: &[],
    };
    let threads = crate::model::scene::propagation_threads();
    let mut plan = frame_plan::plan(&input, threads, FramePlan::default());
    while plan.draw.len() > FIGURE_SHAPE_BUDGET && input.tiny < FIGURE_TINY_MAX {
        input.tiny *= 2.0;
        plan = frame_plan::plan(&input, threads, plan);
    }
    if plan.draw.len() >= OCCLUSION_FROM {
        // As in the viewport: shapes wholly under later opaque ones are left out.
        let visible = visible_nodes(rect, &plan.draw, &plan.screen, &selected);
        let (draw, screen) = plan
            .draw
            .iter()
            .zip(&plan.screen)
            .zip(&visible)
            .filter(|(_, shown)| **shown)
            .map(|((&i, &box_), _)| (i, box_))
            .unzip();
        (plan.draw, plan.screen) = (draw, screen);
    }
    plan
}

/// The plan's density grids as `<image>` elements over `rect` (coarse, then fine).
pub(super) fn density_images(out: &mut String, plan: &FramePlan, rect: ScreenRect) {
    for grid in [&plan.coarse, &plan.density] {
        if let Some(png) = grid_png(grid) {
            let _ = writeln!(
                out,
                "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" href=\"data:image/png;base64,{}\"/>",
                coord(rect.min.x as f64),
                coord(rect.min.y as f64),
                coord(grid.cols as f64 * grid.cell),
                coord(grid.rows as f64 * grid.cell),
                base64(&png)
            );
        }
    }
}

/// One grid as a PNG, a pixel per cell (None when nothing was summed into it).
fn grid_png(grid: &DensityGrid) -> Option<Vec<u8>> {
    use resvg::tiny_skia::{ColorU8, Pixmap};
    if grid.count == 0 || grid.cols == 0 || grid.rows == 0 {
        return None;
    }
    let mut pixmap = Pixmap::new(
        u32::try_from(grid.cols).ok()?,
        u32::try_from(grid.rows).ok()?,
    )?;
    for (pixel, sums) in pixmap.pixels_mut().iter_mut().zip(&grid.sums) {
        if let Some([r, g, b, a]) = grid.cell_color(sums) {
            *pixel = ColorU8::from_rgba(r, g, b, a).premultiply();
        }
    }
    pixmap.encode_png().ok()
}
