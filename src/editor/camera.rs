//! The viewport camera, without egui: world ↔ screen in f64 and camera-relative, zoom limits
//! that follow f32 precision where the view is, and framing.
//!
//! World positions are f32 (the scene's numbers); the camera centre and zoom are f64. Every
//! world → screen mapping subtracts the centre before scaling, in f64, so a node at (1e7, 0) is
//! drawn exactly where its numbers say when the view is there.

use glam::{Affine2, DAffine2, DMat2, DVec2, Vec2};

/// A rectangle on screen, in pixels (y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenRect {
    /// Top-left corner.
    pub min: Vec2,
    /// Bottom-right corner.
    pub max: Vec2,
}

impl ScreenRect {
    /// A rectangle from its corner and size.
    pub fn from_min_size(min: Vec2, size: Vec2) -> Self {
        Self {
            min,
            max: min + size,
        }
    }

    /// The centre point.
    pub fn center(self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Width and height.
    pub fn size(self) -> Vec2 {
        self.max - self.min
    }

    /// True when the point is inside (edges included).
    pub fn contains(self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// Grown by `margin` on every side.
    pub fn expand(self, margin: f32) -> Self {
        Self {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }
}

/// Zoom never goes below this (pixels per world unit): a view 1e40 units across.
pub const MIN_ZOOM: f64 = 1e-37;
/// Zoom never goes above this, wherever the view is: a view 1e-9 units across.
pub const MAX_ZOOM: f64 = 1e12;

/// The spacing of f32 numbers near `magnitude` (one unit in the last place).
pub fn f32_step_at(magnitude: f64) -> f64 {
    let m = magnitude.abs().max(f32::MIN_POSITIVE as f64);
    if !m.is_finite() || m >= f32::MAX as f64 {
        return 2f64.powi(104); // the step between the two largest finite f32 numbers
    }
    2f64.powi(m.log2().floor() as i32 - 23)
}

/// A y-up camera: the world point at the viewport's centre and pixels per world unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point shown at the centre of the viewport.
    pub center: DVec2,
    /// Pixels per world unit.
    pub zoom: f64,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: DVec2::new(3.0, 1.5),
            zoom: 50.0,
        }
    }
}

impl Camera {
    /// World → screen in f64 (y flipped: world y grows upwards).
    pub fn to_screen_f64(self, rect: ScreenRect, p: DVec2) -> DVec2 {
        let d = (p - self.center) * self.zoom;
        let c = rect.center().as_dvec2();
        DVec2::new(c.x + d.x, c.y - d.y)
    }

    /// World → screen, rounded to f32 pixels at the end.
    pub fn to_screen(self, rect: ScreenRect, p: Vec2) -> Vec2 {
        self.to_screen_f64(rect, p.as_dvec2()).as_vec2()
    }

    /// Screen → world, in f64.
    pub fn to_world(self, rect: ScreenRect, p: Vec2) -> DVec2 {
        let d = (p - rect.center()).as_dvec2();
        self.center + DVec2::new(d.x, -d.y) / self.zoom
    }

    /// A node's local → screen matrix in f64: the world matrix, then the camera. The camera
    /// centre is subtracted from the node's world translation before anything is scaled.
    pub fn node_to_screen_f64(self, rect: ScreenRect, world: &Affine2) -> DAffine2 {
        let m = world.matrix2.as_dmat2();
        let flip_zoom = DMat2::from_diagonal(DVec2::new(self.zoom, -self.zoom));
        DAffine2::from_mat2_translation(
            flip_zoom * m,
            self.to_screen_f64(rect, world.translation.as_dvec2()),
        )
    }

    /// A node's local → screen matrix rounded to f32 (exact enough for shapes near the screen).
    pub fn node_to_screen(self, rect: ScreenRect, world: &Affine2) -> Affine2 {
        let m = self.node_to_screen_f64(rect, world);
        Affine2::from_mat2_translation(m.matrix2.as_mat2(), m.translation.as_vec2())
    }

    /// The zoom range allowed with the view centred where it is now: down to [`MIN_ZOOM`], and up
    /// to where one f32 step of world position near the centre spans the whole viewport (past
    /// that no two positions in view could differ), capped by [`MAX_ZOOM`].
    pub fn zoom_limits(self, rect: ScreenRect) -> (f64, f64) {
        let step = f32_step_at(self.center.x.abs().max(self.center.y.abs()));
        let width = rect.size().max_element().max(1.0) as f64;
        let max = (width / step).clamp(MIN_ZOOM, MAX_ZOOM);
        (MIN_ZOOM, max)
    }

    /// Clamp the zoom into [`Camera::zoom_limits`].
    pub fn clamp_zoom(&mut self, rect: ScreenRect) {
        let (lo, hi) = self.zoom_limits(rect);
        self.zoom = if self.zoom.is_finite() {
            self.zoom.clamp(lo, hi)
        } else {
            hi
        };
        if !self.center.is_finite() {
            self.center = DVec2::ZERO;
        }
    }

    /// Zoom by `factor` keeping the world point under `anchor` fixed (within the zoom limits).
    pub fn zoom_around(&mut self, rect: ScreenRect, anchor: Vec2, factor: f64) {
        let before = self.to_world(rect, anchor);
        self.zoom *= factor;
        self.clamp_zoom(rect);
        let after = self.to_world(rect, anchor);
        self.center += before - after;
        self.clamp_zoom(rect);
    }

    /// Move the view by a drag of `delta` pixels (the world follows the pointer).
    pub fn pan_pixels(&mut self, rect: ScreenRect, delta: Vec2) {
        let d = delta.as_dvec2();
        self.center -= DVec2::new(d.x, -d.y) / self.zoom;
        self.center = self.center.clamp(
            DVec2::splat(-(f32::MAX as f64)),
            DVec2::splat(f32::MAX as f64),
        );
        self.clamp_zoom(rect);
    }

    /// Fit a world box into the viewport with a margin. A box of zero size (one point) gets a
    /// view a few units across, or a few dozen f32 steps across far from the origin.
    pub fn fit(&mut self, rect: ScreenRect, min: DVec2, max: DVec2) {
        if !(min.is_finite() && max.is_finite()) {
            return;
        }
        self.center = (min + max) * 0.5;
        let magnitude = self.center.x.abs().max(self.center.y.abs());
        let extent = (max - min).max_element();
        let size = if extent > 0.0 {
            (max - min).max(DVec2::splat(extent * 1e-3))
        } else {
            DVec2::splat((f32_step_at(magnitude) * 64.0).max(4.0))
        };
        let screen = rect.size().as_dvec2().max(DVec2::ONE);
        self.zoom = (screen.x / size.x).min(screen.y / size.y) * 0.8;
        self.clamp_zoom(rect);
    }

    /// When one f32 step of world position near the centre spans more than a pixel, a note
    /// saying so (positions in view can only take the values that many pixels apart).
    pub fn precision_note(self) -> Option<String> {
        let step = f32_step_at(self.center.x.abs().max(self.center.y.abs()));
        let pixels = step * self.zoom;
        (pixels > 1.0).then(|| {
            format!(
                "Past f32 precision here: positions near ({}, {}) step by {} ({pixels:.0} px)",
                crate::editor::numbers::format_number(self.center.x),
                crate::editor::numbers::format_number(self.center.y),
                crate::editor::numbers::format_number(step),
            )
        })
    }
}
