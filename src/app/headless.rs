//! The app driven without a window, as `benches/app_frame.rs` drives it: whole frames run
//! through an `egui::Context` (1400 × 900 points, one pixel per point) and their shapes
//! tessellated on the CPU the way eframe does before it uploads them. Nothing reaches a GPU.
//! `graft bench memory` uses it to measure what the window holds.

use super::GraftApp;
use super::dialogs::FakeDialogs;
use crate::model::document::Document;

/// A [`GraftApp`] with its own `egui::Context`, and no window.
pub struct Headless {
    /// The app.
    pub app: GraftApp,
    ctx: egui::Context,
}

/// What one headless frame produced.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameStats {
    /// Clipped primitives after tessellation.
    pub primitives: usize,
    /// Vertices in their meshes.
    pub vertices: usize,
    /// Indices in their meshes.
    pub indices: usize,
}

impl Headless {
    /// The app on a document, with scripted dialogs.
    pub fn new(doc: Document) -> Self {
        Self {
            app: GraftApp::with_document(doc, Box::new(FakeDialogs::default())),
            ctx: egui::Context::default(),
        }
    }

    /// One frame: the app's UI, then tessellation (the meshes are dropped, as after an upload).
    pub fn frame(&mut self) -> FrameStats {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1400.0, 900.0),
            )),
            ..Default::default()
        };
        let app = &mut self.app;
        let mut output = self.ctx.run_ui(input, |ui| app.frame_ui(ui));
        // Texture uploads (images, the density grid) would go to the GPU here.
        output.textures_delta.clear();
        let shapes = std::mem::take(&mut output.shapes);
        let primitives = self.ctx.tessellate(shapes, output.pixels_per_point);
        let mut stats = FrameStats {
            primitives: primitives.len(),
            ..Default::default()
        };
        for p in &primitives {
            if let egui::epaint::Primitive::Mesh(mesh) = &p.primitive {
                stats.vertices += mesh.vertices.len();
                stats.indices += mesh.indices.len();
            }
        }
        stats
    }
}
