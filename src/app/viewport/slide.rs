//! A big scene dragged whole. Dragging the root of a big scene (or all of it) moves every
//! node by one translation, and planning a million nodes every frame was most of such a frame
//! (1M wide: 19 ms). A frame whose only change is such a slide (`editor::view::slide` decides,
//! and finds the shift) paints the kept layer moved by it on screen; the first unchanged frame
//! after the drag plans the layer again (what slid into view from outside it shows then).

use super::layer::{LayerKey, NodeLayer};
use super::screen::sr;
pub(super) use crate::editor::view::slide::anchors;
use crate::editor::view::slide::{SlideInput, slid_by};
use crate::model::scene::Scene;
use egui::Rect;

/// When the whole scene only slid since the kept layer was planned (see
/// `editor::view::slide::slid_by`), paint that layer moved by the slide and return true.
/// While the drag is `held`, a frame with no change paints the last slid frame again.
pub(super) fn paint_slid(
    scene: &Scene,
    painter: &egui::Painter,
    layer: &mut NodeLayer,
    key: &LayerKey,
    rect: Rect,
    held: bool,
) -> bool {
    let input = SlideInput {
        anchors: layer.anchors.as_deref(),
        same_but_world: layer
            .key
            .as_ref()
            .is_some_and(|kept| kept.same_but_world(key)),
        world: key.world,
        world_seen: layer.world_seen,
        last: layer.slid_shift,
        held,
        camera: key.camera,
        view: sr(rect),
    };
    let Some(shift) = slid_by(scene, &input) else {
        layer.slid_shift = None;
        return false;
    };
    // The whole scene slid (its root, or everything, dragged): the kept layer, moved.
    let by = egui::vec2(shift.x, shift.y);
    painter.extend(layer.shapes.iter().cloned().map(|mut shape| {
        shape.translate(by);
        shape
    }));
    layer.world_seen = key.world;
    layer.composed = true; // the first unchanged frame plans the layer exactly again
    layer.slid += 1;
    layer.slid_shift = Some((key.world, shift));
    true
}
