//! The grid and the shear overlay as painted last frame: their primitives and egui shapes,
//! kept while what they are made from is unchanged (an idle, hovering or playing-paused frame
//! paints them again without laying out a label; a drag keeps the grid).

use super::prim_shapes::prim_shapes;
use crate::editor::view::camera::Camera;
use crate::editor::view::primitives::Prim;
use crate::model::scene::Scene;
use egui::Rect;

/// What the grid is made from: the camera, the viewport and the UI scale (label widths).
#[derive(Clone, Copy, PartialEq)]
pub(super) struct GridKey {
    /// The camera it was drawn through.
    pub(super) camera: Camera,
    /// The viewport on screen.
    pub(super) rect: Rect,
    /// Pixels per point.
    pub(super) scale: f32,
}

/// What the shear overlay is made from: the grid's key, the scene's versions (structure,
/// appearance, world) and the nodes the drawing pass found big enough on screen.
#[derive(Clone, PartialEq)]
pub(super) struct ShearKey {
    /// Camera, viewport and scale.
    pub(super) view: GridKey,
    /// Structure, appearance and world versions of the scene.
    pub(super) scene: (u64, u64, u64),
    /// The candidates looked at.
    pub(super) candidates: Vec<usize>,
}

impl ShearKey {
    /// The key of the overlay over `scene` in `view`, looking at `candidates`.
    pub(super) fn new(view: GridKey, scene: &Scene, candidates: &[usize]) -> Self {
        ShearKey {
            view,
            scene: (
                scene.structure_version(),
                scene.appearance_version().1,
                scene.world_version(),
            ),
            candidates: candidates.to_vec(),
        }
    }
}

/// Primitives and the shapes they paint, with what they were made from.
pub(super) struct Painted<K> {
    key: Option<K>,
    /// The primitives (tests compare them with a figure's).
    pub(super) prims: Vec<Prim<'static>>,
    shapes: Vec<egui::Shape>,
}

impl<K> Default for Painted<K> {
    fn default() -> Self {
        Self {
            key: None,
            prims: Vec::new(),
            shapes: Vec::new(),
        }
    }
}

impl<K: PartialEq> Painted<K> {
    /// Paint what `make` gives for `key`: made again only when `key` differs from the last.
    pub(super) fn paint(
        &mut self,
        painter: &egui::Painter,
        key: K,
        make: impl FnOnce(&K, &mut Vec<Prim<'static>>),
    ) {
        if self.key.as_ref() != Some(&key) {
            self.prims.clear();
            make(&key, &mut self.prims);
            self.shapes.clear();
            for prim in &self.prims {
                prim_shapes(painter.ctx(), prim, &mut self.shapes);
            }
            self.key = Some(key);
        }
        painter.extend(self.shapes.iter().cloned());
    }

    /// Nothing painted (the overlay is off).
    pub(super) fn clear(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::view::palette;
    use glam::Vec2;

    #[test]
    fn made_again_only_when_the_key_changes() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter().clone();
            let mut painted = Painted::<u32>::default();
            let mut made = Vec::new();
            for key in [1, 1, 2, 2, 1] {
                painted.paint(&painter, key, |k, prims| {
                    made.push(*k);
                    prims.push(Prim::Circle {
                        center: Vec2::splat(*k as f32),
                        radius: 1.0,
                        width: 0.0,
                        color: palette::DOT,
                    });
                });
            }
            assert_eq!(made, [1, 2, 1]);
            assert_eq!(painted.prims.len(), 1, "the last key's primitives only");
            painted.clear();
            assert!(painted.prims.is_empty());
        });
        output.textures_delta.clear();
    }
}
