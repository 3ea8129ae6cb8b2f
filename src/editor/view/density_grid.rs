//! The density grid a frame plan splats sub-pixel nodes into: per-cell colour sums weighted
//! by covered area and opacity, read back as one texture (the viewport) or image (figures).

use crate::editor::view::camera::ScreenRect;
use glam::DVec2;

/// Per-cell colour sums of what was splatted, each weighted by its area times its opacity.
#[derive(Clone, Debug, Default)]
pub struct DensityGrid {
    origin: DVec2,
    /// Cell size in pixels.
    pub cell: f64,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Per cell: red, green and blue sums weighted by area × opacity, and the opaque area
    /// (px² × opacity) itself; 16 bytes a cell, so a thread's grid stays in its cache.
    pub sums: Vec<[f32; 4]>,
    /// Splats added.
    pub count: usize,
}

impl DensityGrid {
    /// An empty grid over this screen rect, keeping the allocation of `reuse`.
    pub fn over(rect: ScreenRect, cell: f64, mut reuse: Vec<[f32; 4]>) -> Self {
        let size = (rect.max - rect.min).as_dvec2() / cell;
        let (cols, rows) = (
            size.x.ceil().max(0.0) as usize,
            size.y.ceil().max(0.0) as usize,
        );
        reuse.clear();
        reuse.resize(cols * rows, [0.0; 4]);
        Self {
            origin: rect.min.as_dvec2(),
            cell,
            cols,
            rows,
            sums: reuse,
            count: 0,
        }
    }

    /// Add `area` (px²) of `color` spread over the screen box `p ± extent`, in proportion to
    /// how much of it each cell holds.
    #[inline]
    pub fn splat(&mut self, p: DVec2, extent: DVec2, area: f64, color: [u8; 4]) {
        let c = (p - self.origin) / self.cell;
        let e = extent / self.cell;
        // A sub-pixel node still shows: at least a tenth of a pixel's worth of area.
        let area = area.max(0.1) as f32 * (color[3] as f32 / 255.0);
        let (cols, rows) = (self.cols as f64, self.rows as f64);
        if e.x < 0.25 && e.y < 0.25 {
            // The common case: well inside one cell.
            if c.x >= 0.0 && c.y >= 0.0 && c.x < cols && c.y < rows {
                add(
                    &mut self.sums[c.y as usize * self.cols + c.x as usize],
                    color,
                    area,
                );
                self.count += 1;
            }
            return;
        }
        let (lo, hi) = (c - e, c + e);
        if !(hi.x > 0.0 && hi.y > 0.0 && lo.x < cols && lo.y < rows) {
            return;
        }
        // Each column's and row's share of the box, computed once (no division per cell).
        let inv = DVec2::ONE / (hi - lo).max(DVec2::splat(1e-9));
        let (x0, y0) = (lo.x.max(0.0) as usize, lo.y.max(0.0) as usize);
        let x1 = (hi.x.min(cols - 1e-9) as usize).min(self.cols - 1);
        let y1 = (hi.y.min(rows - 1e-9) as usize).min(self.rows - 1);
        let mut column = [0.0f32; 16];
        let columns = (x1 + 1 - x0).min(column.len());
        for (k, share) in column.iter_mut().take(columns).enumerate() {
            *share = (overlap(lo.x, hi.x, (x0 + k) as f64) * inv.x) as f32;
        }
        for y in y0..=y1 {
            let fy = area * (overlap(lo.y, hi.y, y as f64) * inv.y) as f32;
            let row = y * self.cols + x0;
            for (k, fx) in column.iter().take(columns).enumerate() {
                let share = fy * fx;
                if share > 0.0 {
                    add(&mut self.sums[row + k], color, share);
                }
            }
        }
        self.count += 1;
    }

    /// Add another grid over the same rect.
    pub fn absorb(&mut self, other: &DensityGrid) {
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            for k in 0..4 {
                a[k] += b[k];
            }
        }
        self.count += other.count;
    }

    /// The cell's colour: the area-weighted mean, as opaque as the share of the cell covered
    /// (straight alpha); None for an empty cell.
    pub fn cell_color(&self, sums: &[f32; 4]) -> Option<[u8; 4]> {
        let [r, g, b, area] = *sums;
        if area <= 0.0 {
            return None;
        }
        let coverage = (area / (self.cell * self.cell) as f32).min(1.0);
        Some([
            (r / area).round() as u8,
            (g / area).round() as u8,
            (b / area).round() as u8,
            (255.0 * coverage).round() as u8,
        ])
    }
}

/// Add `area` (already weighted by opacity) of `color` to a cell's sums.
#[inline]
fn add(cell: &mut [f32; 4], color: [u8; 4], area: f32) {
    cell[0] += color[0] as f32 * area;
    cell[1] += color[1] as f32 * area;
    cell[2] += color[2] as f32 * area;
    cell[3] += area;
}

/// How much of `lo..hi` lies in the unit interval starting at `k`.
fn overlap(lo: f64, hi: f64, k: f64) -> f64 {
    (hi.min(k + 1.0) - lo.max(k)).max(0.0)
}
