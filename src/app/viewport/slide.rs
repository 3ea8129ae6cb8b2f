//! A big scene dragged whole. Dragging the root of a big scene (or all of it) moves every
//! node by one translation, and planning a million nodes every frame was most of such a frame
//! (1M wide: 19 ms). From [`SLIDE_MIN`] nodes, a frame whose only change is such a slide paints
//! the kept layer moved by it on screen; the first unchanged frame after the drag plans the
//! layer again (what slid into view from outside it shows then).

use super::nodes::{LayerKey, NodeLayer};
use super::sr;
use crate::model::scene::Scene;
use egui::Rect;
use glam::Affine2;

/// The top-level nodes' world matrices, kept with a layer planned whole (big scenes only).
pub(super) fn anchors(scene: &Scene) -> Option<Vec<(u32, Affine2)>> {
    (scene.len() >= SLIDE_MIN).then(|| {
        let roots = scene.child_indices(None);
        roots
            .map(|i| (i as u32, scene.cached_world_at(i)))
            .collect()
    })
}

/// Scenes from this size paint their kept layer slid while the whole scene is dragged (the
/// size from which a moved view is planned over several frames, too).
const SLIDE_MIN: usize = super::progressive::PROGRESSIVE_MIN;
/// How far apart (screen pixels) two top-level nodes' moves may be and still count as one.
const SLIDE_TOLERANCE: f64 = 0.01;

/// The screen shift that carries the kept layer onto this frame, when the whole scene only
/// slid since the layer was planned: exactly one update since the last frame, which
/// recomputed every node and changed only top-level nodes (`Scene::last_update_moved_whole_
/// ranges`), every top-level node's world differs from its anchor by one and the same
/// translation (its 2×2 part bit for bit the same), and nothing else about the view changed.
/// Dragging the root of a big scene, or all of it, then costs no plan a frame; what slides
/// into view from outside the kept layer shows when the drag ends and the layer is planned
/// again. While the drag is `held`, a frame with no change paints the last slid frame again.
pub(super) fn slid_by(
    scene: &Scene,
    layer: &NodeLayer,
    key: &LayerKey,
    rect: Rect,
    held: bool,
) -> Option<egui::Vec2> {
    let anchors = layer.anchors.as_ref()?;
    let kept = layer.key.as_ref()?;
    if !kept.same_but_world(key) {
        return None;
    }
    // The drag is held and nothing changed since the last slid frame: the same shift.
    if let Some((world, shift)) = layer.slid_shift
        && held
        && world == key.world
    {
        return Some(shift);
    }
    let applies = scene.len() >= SLIDE_MIN
        && key.world != layer.world_seen
        && scene.previous_world_version() == layer.world_seen
        && scene.last_update_moved_whole_ranges()
        && scene.last_recomputed_ranges().len() == anchors.len()
        && whole_scene(scene);
    if !applies {
        return None;
    }
    // Each top-level node's move on screen (None when its 2×2 part changed at all).
    let (view, camera) = (sr(rect), key.camera);
    let at = camera.world_center();
    let on_screen = |&(i, then): &(u32, Affine2)| {
        let now = scene.cached_world_at(i as usize);
        let moved = now.translation.as_dvec2() - then.translation.as_dvec2();
        (now.matrix2 == then.matrix2)
            .then(|| camera.to_screen_f64(view, at + moved) - camera.to_screen_f64(view, at))
    };
    let first = on_screen(anchors.first()?)?;
    for anchor in anchors {
        let apart = on_screen(anchor)?.distance(first);
        if apart > SLIDE_TOLERANCE || apart.is_nan() {
            return None;
        }
    }
    first
        .is_finite()
        .then(|| egui::vec2(first.x as f32, first.y as f32))
}

/// True when the last pass that recomputed anything covered every node (its ranges, not
/// `last_recomputed`, which an update with nothing dirty resets to 0).
fn whole_scene(scene: &Scene) -> bool {
    let ranges = scene.last_recomputed_ranges();
    let moved: usize = ranges.iter().map(|&(a, b)| (b - a) as usize).sum();
    moved == scene.len()
}
