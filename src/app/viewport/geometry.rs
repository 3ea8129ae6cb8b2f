//! Viewport geometry: the y-up camera, shape outlines and hit testing. Pure functions.

use crate::math::try_inverse;
use crate::scene::{NodeId, Scene, Shape};
use egui::{Pos2, Rect};
use glam::Vec2;

/// A y-up camera: the world point at the viewport's centre and pixels per world unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point shown at the centre.
    pub center: Vec2,
    /// Pixels per world unit.
    pub zoom: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: Vec2::new(3.0, 1.5),
            zoom: 50.0,
        }
    }
}

impl Camera {
    /// World → screen (y flipped: world y grows upwards).
    pub fn to_screen(self, viewport: Rect, p: Vec2) -> Pos2 {
        let d = (p - self.center) * self.zoom;
        Pos2::new(viewport.center().x + d.x, viewport.center().y - d.y)
    }

    /// World → screen as an affine matrix (scale by zoom, flip y, move the centre to the rect's).
    pub fn screen_matrix(self, viewport: Rect) -> glam::Affine2 {
        let c = viewport.center();
        glam::Affine2::from_cols_array(&[
            self.zoom,
            0.0,
            0.0,
            -self.zoom,
            c.x - self.center.x * self.zoom,
            c.y + self.center.y * self.zoom,
        ])
    }

    /// Screen → world.
    pub fn to_world(self, viewport: Rect, p: Pos2) -> Vec2 {
        let d = p - viewport.center();
        self.center + Vec2::new(d.x, -d.y) / self.zoom
    }

    /// Zoom by `factor` keeping the world point under `anchor` fixed.
    pub fn zoom_around(&mut self, viewport: Rect, anchor: Pos2, factor: f32) {
        let before = self.to_world(viewport, anchor);
        self.zoom = (self.zoom * factor).clamp(1e-3, 1e5);
        let after = self.to_world(viewport, anchor);
        self.center += before - after;
    }

    /// Fit a world-space box into the viewport with a margin.
    pub fn fit(&mut self, viewport: Rect, min: Vec2, max: Vec2) {
        let size = (max - min).max(Vec2::splat(1.0));
        self.center = (min + max) * 0.5;
        self.zoom =
            ((viewport.width() / size.x).min(viewport.height() / size.y) * 0.8).clamp(1e-3, 1e5);
    }
}

/// The outline of a shape in its local space (for drawing and hit testing).
pub fn local_outline(shape: &Shape) -> Vec<Vec2> {
    match shape {
        Shape::None => Vec::new(),
        Shape::Rect { size } | Shape::Sprite { size, .. } => {
            let h = *size * 0.5;
            vec![
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ]
        }
        Shape::Ellipse { size } => (0..32)
            .map(|k| {
                let a = k as f32 / 32.0 * std::f32::consts::TAU;
                Vec2::new(a.cos() * size.x * 0.5, a.sin() * size.y * 0.5)
            })
            .collect(),
    }
}

/// True when the local point lies inside the shape.
pub fn shape_contains(shape: &Shape, p: Vec2) -> bool {
    match shape {
        Shape::None => false,
        Shape::Rect { size } | Shape::Sprite { size, .. } => {
            p.x.abs() <= size.x.abs() * 0.5 && p.y.abs() <= size.y.abs() * 0.5
        }
        Shape::Ellipse { size } => {
            let h = size.abs() * 0.5;
            h.x > 0.0 && h.y > 0.0 && (p.x / h.x).powi(2) + (p.y / h.y).powi(2) <= 1.0
        }
    }
}

/// The topmost node whose shape contains the world point (tested through the inverse world
/// matrix, so sheared and mirrored shapes hit exactly), or whose origin is within `origin_radius`.
pub fn hit_test(scene: &Scene, world_point: Vec2, origin_radius: f32) -> Option<NodeId> {
    (0..scene.len()).rev().find_map(|i| {
        let world = scene.world_at(i);
        let inside = try_inverse(&world).is_ok_and(|inv| {
            shape_contains(&scene.data_at(i).shape, inv.transform_point2(world_point))
        });
        (inside || world.translation.distance(world_point) <= origin_radius).then(|| scene.id_at(i))
    })
}
