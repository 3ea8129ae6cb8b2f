//! Drawing a million nodes: a node smaller than the level-of-detail threshold (4 px across at
//! first, up to 16) is not fanned into the mesh but added to a density image (3 px cells, 8 px
//! for the bigger splats, each the area-weighted mean colour of what fell in it, as opaque as
//! the area it covers), painted once as one texture. So a whole
//! big scene in view costs one cheap pass over the nodes plus one small image, and looks like
//! what it is: where the mass of tiny shapes lies. Which nodes are splatted is decided by
//! `editor::view::frame_plan` (on every core) under the one level-of-detail rule of
//! `editor::view::detail` (figures plan under it too); this file keeps the threshold from
//! frame to frame and makes the grids' textures.

use crate::editor::view::detail::{SHAPE_BUDGET, TINY_MIN, adapted, coarser};
use crate::editor::view::frame_plan::{DensityGrid, FramePlan};
use egui::{Color32, ColorImage, Pos2, Rect, TextureOptions};

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
            tiny: TINY_MIN,
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
        self.tiny = adapted(self.tiny, drawn, view_changed, SHAPE_BUDGET);
    }

    /// Before drawing a plan that keeps `drawn` shapes: true (and the threshold raised) when it
    /// is over the budget and may be planned again coarser, so no frame tessellates a giant mesh.
    pub fn raise_for(&mut self, drawn: usize) -> bool {
        let bigger = coarser(self.tiny, drawn, SHAPE_BUDGET);
        if let Some(tiny) = bigger {
            self.tiny = tiny;
        }
        bigger.is_some()
    }

    /// The plan's density grids as images over `rect` (uploaded now): the coarse one (bigger
    /// splats), then the fine one (None for an empty grid).
    pub fn images(&mut self, ctx: &egui::Context, rect: Rect) -> [Option<egui::Shape>; 2] {
        let plan = &self.plan;
        [
            paint_grid(
                ctx,
                rect,
                &plan.coarse,
                &mut self.coarse_texture,
                "graft-density-coarse",
            ),
            paint_grid(ctx, rect, &plan.density, &mut self.texture, "graft-density"),
        ]
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
