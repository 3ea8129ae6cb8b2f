//! A figure planned as a viewport frame is (`frame_plan`, under the one level-of-detail rule of
//! `detail`): nodes off the figure are left out, nodes too small to see are summed into the
//! density grids, which the SVG carries as two PNG images under the shapes, and the shear
//! overlay looks only at the plan's candidates. A 1M-node figure is then a few megabytes that
//! resvg can render, instead of one element per node (264 MB, past resvg's element limit).

use super::options::FigureOptions;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::cull_cache::{Extents, SubtreeBounds};
use crate::editor::view::detail::{SHAPE_BUDGET, TINY_MIN, plan_within};
use crate::editor::view::frame_plan::{DensityGrid, FramePlan, PlanInput, selection_indices};
use crate::model::scene::Scene;
use crate::model::svg::export::{base64, coord};
use std::fmt::Write as _;

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
        tiny: TINY_MIN,
        protected: &protected,
        selected: &selected,
        links: options.layers.links,
        shear: options.layers.shear,
        skip: &[],
    };
    let threads = crate::model::scene::propagation_threads();
    plan_within(&mut input, SHAPE_BUDGET, threads, FramePlan::default())
}

/// One of the plan's density grids (the coarse one or the fine one) as an `<image>` over `rect`.
pub(super) fn density_images(out: &mut String, plan: &FramePlan, rect: ScreenRect, coarse: bool) {
    let grid = if coarse { &plan.coarse } else { &plan.density };
    {
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
