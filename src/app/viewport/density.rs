//! Drawing a million nodes: a node smaller than 4 × 4 px on screen is not fanned into the
//! mesh but added to a density image (2 × 2 px cells, each the area-weighted mean colour of
//! what fell in it, as opaque as the area it covers), painted once as one texture. So a whole
//! big scene in view costs one cheap pass over the nodes plus one small image, and looks like
//! what it is: where the mass of tiny shapes lies. Which nodes are splatted is decided by
//! `editor::view::frame_plan` (on every core); this file adapts the size threshold to a budget and
//! paints the grid.

use crate::editor::view::frame_plan::{DensityGrid, FramePlan};
use egui::{Color32, ColorImage, Pos2, Rect, TextureOptions};

/// Nodes whose screen half-extent is below this (points) on both axes are splatted.
pub(super) const TINY: f64 = 2.0;
/// ... and at most (a node 16 px across is always drawn as itself).
const TINY_MAX: f64 = 8.0;
/// Shapes drawn per frame the threshold aims to stay under: past it, the next frame splats
/// bigger nodes (a level-of-detail budget that keeps a million-node frame bounded).
const SHAPE_BUDGET: usize = 30_000;

/// The level-of-detail threshold, and the density image's texture.
pub(super) struct Density {
    /// The half-extent under which nodes are splatted this frame (adapts to the budget).
    pub tiny: f64,
    texture: Option<egui::TextureHandle>,
    coarse_texture: Option<egui::TextureHandle>,
    /// The last frame's plan (its buffers are reused).
    pub plan: FramePlan,
}

impl Default for Density {
    fn default() -> Self {
        Self {
            tiny: TINY,
            texture: None,
            coarse_texture: None,
            plan: FramePlan::default(),
        }
    }
}

impl Density {
    /// After a frame that drew `drawn` shapes: splat bigger nodes next frame when that was over
    /// the budget; smaller ones when well under it, but only after the view or the scene
    /// changed (so an unchanged view settles on one threshold instead of flipping between two,
    /// and its layer can be kept).
    pub fn adapt(&mut self, drawn: usize, view_changed: bool) {
        if drawn > SHAPE_BUDGET {
            self.tiny = (self.tiny * 1.5).min(TINY_MAX);
        } else if drawn < SHAPE_BUDGET / 3 && view_changed {
            self.tiny = (self.tiny / 1.5).max(TINY);
        }
    }

    /// Before drawing a plan that keeps `drawn` shapes: true (and the threshold raised) when it
    /// is over the budget and may be planned again coarser, so no frame tessellates a giant mesh.
    pub fn raise_for(&mut self, drawn: usize) -> bool {
        let raise = drawn > SHAPE_BUDGET && self.tiny < TINY_MAX;
        if raise {
            self.tiny = (self.tiny * 1.5).min(TINY_MAX);
        }
        raise
    }

    /// The plan's density grids as images over `rect` (uploaded now): the coarse one (bigger
    /// splats), then the fine one (nothing for an empty grid).
    pub fn paint(&mut self, ctx: &egui::Context, rect: Rect, out: &mut Vec<egui::Shape>) {
        let plan = &self.plan;
        for (grid, slot, name) in [
            (
                &plan.coarse,
                &mut self.coarse_texture,
                "graft-density-coarse",
            ),
            (&plan.density, &mut self.texture, "graft-density"),
        ] {
            out.extend(paint_grid(ctx, rect, grid, slot, name));
        }
    }
}

/// One grid as one texture stretched over its cells.
fn paint_grid(
    ctx: &egui::Context,
    rect: Rect,
    grid: &DensityGrid,
    slot: &mut Option<egui::TextureHandle>,
    name: &str,
) -> Option<egui::Shape> {
    if grid.count == 0 || grid.cols == 0 || grid.rows == 0 {
        return None;
    }
    let pixels: Vec<Color32> = grid
        .sums
        .iter()
        .map(|sums| match grid.cell_color(sums) {
            Some([r, g, b, a]) => Color32::from_rgba_unmultiplied(r, g, b, a),
            None => Color32::TRANSPARENT,
        })
        .collect();
    let image = ColorImage::new([grid.cols, grid.rows], pixels);
    let options = TextureOptions::NEAREST;
    let texture = match slot {
        Some(texture) => {
            texture.set(image, options);
            texture.id()
        }
        None => {
            let texture = ctx.load_texture(name, image, options);
            let id = texture.id();
            *slot = Some(texture);
            id
        }
    };
    let cell = grid.cell as f32;
    let size = egui::vec2(grid.cols as f32 * cell, grid.rows as f32 * cell);
    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
    Some(egui::Shape::image(
        texture,
        Rect::from_min_size(rect.min, size),
        uv,
        Color32::WHITE,
    ))
}
