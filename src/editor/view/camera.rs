//! The viewport camera, without egui: world ↔ screen in f64 and camera-relative, zoom limits
//! that follow f32 precision where the view is, following the space the view is from, and
//! framing (what to fit, and keeping a fitted view fitted while the viewport is resized).
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

/// A y-up camera looking at a space: the world itself, or a node's space (the view from a node,
/// where that node's axes are the screen's). `view` takes world coordinates into the viewed
/// space; `center` (in that space) is shown at the viewport's centre, `zoom` pixels per unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point of the viewed space shown at the centre of the viewport.
    pub center: DVec2,
    /// Pixels per unit of the viewed space.
    pub zoom: f64,
    /// World → viewed space (identity when viewing the world).
    pub view: DAffine2,
    /// Viewed space → world.
    pub view_inverse: DAffine2,
}

impl Default for Camera {
    fn default() -> Self {
        Self::new(DVec2::new(3.0, 1.5), 50.0)
    }
}

impl Camera {
    /// A camera on the world, centred on `center`, `zoom` pixels per unit.
    pub fn new(center: DVec2, zoom: f64) -> Self {
        Self {
            center,
            zoom,
            view: DAffine2::IDENTITY,
            view_inverse: DAffine2::IDENTITY,
        }
    }

    /// Look at another space (`view`: world → that space, invertible). With `keep_place` the
    /// world point at the centre stays there (switching spaces does not jump); without, the
    /// centre stays put in the viewed space (a moving node's view follows it).
    pub fn set_view(&mut self, view: DAffine2, keep_place: bool) {
        if view == self.view {
            return;
        }
        let world_center = self.view_inverse.transform_point2(self.center);
        let inverse = view.inverse();
        if !(inverse.matrix2.is_finite() && inverse.translation.is_finite()) {
            return;
        }
        self.view = view;
        self.view_inverse = inverse;
        if keep_place {
            self.center = view.transform_point2(world_center);
        }
    }

    /// Look at another space keeping the world point `anchor` where it is on screen (or, if it
    /// is off screen, bringing it to the centre) and world lengths about their size on screen:
    /// pressing 3 on a small, far node shows it and its surroundings as they were, turned
    /// into its axes.
    pub fn switch_view(&mut self, view: DAffine2, anchor: DVec2, rect: ScreenRect) {
        let before = self.to_screen_f64(rect, anchor);
        let (lo, hi) = (rect.min.as_dvec2(), rect.max.as_dvec2());
        let on_screen = before.is_finite() && before.cmpge(lo).all() && before.cmple(hi).all();
        let old_scale = mean_scale(self.view);
        self.set_view(view, true);
        let new_scale = mean_scale(self.view);
        let zoom = self.zoom * old_scale / new_scale;
        if zoom.is_finite() && zoom > 0.0 {
            self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        }
        let at = if on_screen {
            before
        } else {
            rect.center().as_dvec2()
        };
        let anchor_view = self.view.transform_point2(anchor);
        let d = at - rect.center().as_dvec2();
        let center = anchor_view - DVec2::new(d.x, -d.y) / self.zoom;
        if center.is_finite() {
            self.center = center;
        }
    }

    /// Point the camera at the space the view is from (`view`: world → that space). After a
    /// switch of space the world point `anchor` (the selection's origin; the centre when there
    /// is none or it is not finite) stays where it was on screen; while the space is the same
    /// (a node moving) the centre stays put in it, so the view follows the node.
    pub fn look_from(
        &mut self,
        view: DAffine2,
        switched: bool,
        anchor: Option<DVec2>,
        rect: ScreenRect,
    ) {
        if switched {
            let anchor = anchor
                .filter(|p| p.is_finite())
                .unwrap_or_else(|| self.world_center());
            self.switch_view(view, anchor, rect);
        } else {
            self.set_view(view, false);
        }
    }

    /// How much the view stretches world lengths at most (1 when viewing the world).
    fn view_scale(self) -> f64 {
        let m = self.view.matrix2;
        m.x_axis
            .length()
            .max(m.y_axis.length())
            .max(f64::MIN_POSITIVE)
    }

    /// The world point at the centre of the viewport.
    pub fn world_center(self) -> DVec2 {
        self.view_inverse.transform_point2(self.center)
    }

    /// A point of the viewed space → screen, in f64 (y flipped: y grows upwards).
    pub fn view_to_screen(self, rect: ScreenRect, v: DVec2) -> DVec2 {
        let d = (v - self.center) * self.zoom;
        let c = rect.center().as_dvec2();
        DVec2::new(c.x + d.x, c.y - d.y)
    }

    /// Screen → the viewed space, in f64.
    pub fn screen_to_view(self, rect: ScreenRect, p: Vec2) -> DVec2 {
        let d = (p - rect.center()).as_dvec2();
        self.center + DVec2::new(d.x, -d.y) / self.zoom
    }

    /// World → screen in f64: into the viewed space, then the camera; the centre is subtracted
    /// before anything is scaled.
    pub fn to_screen_f64(self, rect: ScreenRect, p: DVec2) -> DVec2 {
        self.view_to_screen(rect, self.view.transform_point2(p))
    }

    /// World → screen, rounded to f32 pixels at the end.
    pub fn to_screen(self, rect: ScreenRect, p: Vec2) -> Vec2 {
        self.to_screen_f64(rect, p.as_dvec2()).as_vec2()
    }

    /// Screen → world, in f64.
    pub fn to_world(self, rect: ScreenRect, p: Vec2) -> DVec2 {
        self.view_inverse
            .transform_point2(self.screen_to_view(rect, p))
    }

    /// The screen direction (unit, y down) of a world direction.
    pub fn dir_to_screen(self, world_dir: Vec2) -> Vec2 {
        let v = self.view.matrix2 * world_dir.as_dvec2();
        DVec2::new(v.x, -v.y).normalize_or_zero().as_vec2()
    }

    /// A node's local → screen matrix in f64: the world matrix, the view, then the camera. The
    /// camera centre is subtracted from the node's translation before anything is scaled.
    pub fn node_to_screen_f64(self, rect: ScreenRect, world: &Affine2) -> DAffine2 {
        let m = self.view.matrix2 * world.matrix2.as_dmat2();
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

    /// The f32 spacing of world positions at the centre of the view.
    fn world_step(self) -> f64 {
        let c = self.world_center();
        f32_step_at(c.x.abs().max(c.y.abs()))
    }

    /// The zoom range allowed with the view centred where it is now: down to [`MIN_ZOOM`], and up
    /// to where one f32 step of world position near the centre spans the whole viewport (past
    /// that no two positions in view could differ), capped by [`MAX_ZOOM`].
    pub fn zoom_limits(self, rect: ScreenRect) -> (f64, f64) {
        let step = self.world_step() * self.view_scale();
        let width = rect.size().max_element().max(1.0) as f64;
        let max = (width / step).clamp(MIN_ZOOM, MAX_ZOOM);
        (MIN_ZOOM, max)
    }

    /// Clamp the zoom into [`Camera::zoom_limits`].
    pub fn clamp_zoom(&mut self, rect: ScreenRect) {
        if !self.center.is_finite() {
            self.center = DVec2::ZERO;
        }
        let (lo, hi) = self.zoom_limits(rect);
        self.zoom = if self.zoom.is_finite() {
            self.zoom.clamp(lo, hi)
        } else {
            hi
        };
    }

    /// Zoom by `factor` keeping the point under `anchor` fixed (within the zoom limits).
    pub fn zoom_around(&mut self, rect: ScreenRect, anchor: Vec2, factor: f64) {
        let before = self.screen_to_view(rect, anchor);
        self.zoom *= factor;
        self.clamp_zoom(rect);
        let after = self.screen_to_view(rect, anchor);
        self.center += before - after;
        self.clamp_zoom(rect);
    }

    /// Move the view by a drag of `delta` pixels (the scene follows the pointer).
    pub fn pan_pixels(&mut self, rect: ScreenRect, delta: Vec2) {
        let d = delta.as_dvec2();
        self.center -= DVec2::new(d.x, -d.y) / self.zoom;
        self.center = self.center.clamp(
            DVec2::splat(-(f32::MAX as f64)),
            DVec2::splat(f32::MAX as f64),
        );
        self.clamp_zoom(rect);
    }

    /// Fit a world box into the viewport with a margin (its corners are taken into the viewed
    /// space first). A box of zero size (one point) gets a view a few units across, or a few
    /// dozen f32 steps across far from the origin.
    pub fn fit(&mut self, rect: ScreenRect, min: DVec2, max: DVec2) {
        if !(min.is_finite() && max.is_finite()) {
            return;
        }
        let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)]
            .map(|p| self.view.transform_point2(p));
        let lo = corners.iter().fold(DVec2::INFINITY, |a, p| a.min(*p));
        let hi = corners.iter().fold(DVec2::NEG_INFINITY, |a, p| a.max(*p));
        self.center = (lo + hi) * 0.5;
        let world_center = (min + max) * 0.5;
        let magnitude = world_center.x.abs().max(world_center.y.abs());
        let extent = (hi - lo).max_element();
        let size = if extent > 0.0 {
            (hi - lo).max(DVec2::splat(extent * 1e-3))
        } else {
            DVec2::splat((f32_step_at(magnitude) * 64.0).max(4.0) * self.view_scale())
        };
        let screen = rect.size().as_dvec2().max(DVec2::ONE);
        self.zoom = (screen.x / size.x).min(screen.y / size.y) * 0.8;
        self.clamp_zoom(rect);
    }

    /// When one f32 step of world position near the centre spans more than a pixel, a note
    /// saying so (positions in view can only take the values that many pixels apart).
    pub fn precision_note(self) -> Option<String> {
        let step = self.world_step();
        let pixels = step * self.view_scale() * self.zoom;
        let c = self.world_center();
        (pixels > 1.0).then(|| {
            format!(
                "Past f32 precision here: positions near ({}, {}) step by {} ({pixels:.0} px)",
                crate::editor::view::numbers::format_number(c.x),
                crate::editor::view::numbers::format_number(c.y),
                crate::editor::view::numbers::format_number(step),
            )
        })
    }
}

/// The zoom factor of a pinch (`pinch`: its factor, 1 for none) and a wheel turn (`scroll`:
/// points, up positive) this frame: each 100 points of wheel zoom by e^0.2 (about 22 %).
pub fn wheel_zoom(pinch: f32, scroll: f32) -> f64 {
    f64::from(pinch) * (f64::from(scroll) * 0.002).exp()
}

/// How much a view stretches world areas, as a length (√|det|; 1 for the world).
fn mean_scale(view: DAffine2) -> f64 {
    let s = view.matrix2.determinant().abs().sqrt();
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}
