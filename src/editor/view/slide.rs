//! Slide detection: when a frame of a big scene only slid by one translation (no egui).
//!
//! Dragging the root of a big scene (or all of it) moves every node by one translation, and
//! planning a million nodes every frame was most of such a frame. From [`SLIDE_MIN`] nodes, a
//! frame whose only change is such a slide can paint the kept layer moved on screen by the
//! shift [`slid_by`] finds; the first unchanged frame after the drag plans the layer again.

use crate::editor::view::{Camera, ScreenRect};
use crate::model::scene::Scene;
use glam::{Affine2, DVec2, Vec2};

/// Scenes from this size slide their kept layer while the whole scene is dragged (the size from
/// which the viewport plans a moved view over several frames, too).
pub const SLIDE_MIN: usize = 250_000;
/// How far apart (screen pixels) two top-level nodes' moves may be and still count as one.
pub const SLIDE_TOLERANCE: f64 = 0.01;

/// A top-level node's pre-order index and its world matrix when the kept layer was planned.
pub type Anchor = (u32, Affine2);

/// The top-level nodes' world matrices, kept with a layer planned whole (big scenes only).
pub fn anchors(scene: &Scene) -> Option<Vec<Anchor>> {
    (scene.len() >= SLIDE_MIN).then(|| {
        scene
            .child_indices(None)
            .map(|i| (i as u32, scene.cached_world_at(i)))
            .collect()
    })
}

/// What slide detection reads besides the scene: plain data the viewport keeps.
#[derive(Clone, Copy, Debug)]
pub struct SlideInput<'a> {
    /// The kept layer's anchors (None: the kept layer was not planned whole over a big scene).
    pub anchors: Option<&'a [Anchor]>,
    /// True when a layer is kept and its key equals this frame's apart from the world matrices.
    pub same_but_world: bool,
    /// The scene's world version this frame.
    pub world: u64,
    /// The world version the last frame saw.
    pub world_seen: u64,
    /// The world version and screen shift of the last slid frame, if the last frame slid.
    pub last: Option<(u64, Vec2)>,
    /// A drag is held (its gesture is open).
    pub held: bool,
    /// The camera this frame is drawn through.
    pub camera: Camera,
    /// The viewport on screen.
    pub view: ScreenRect,
}

/// The screen shift that carries the kept layer onto this frame, when the whole scene only
/// slid since the layer was planned: exactly one update since the last frame, which
/// recomputed every node and changed only top-level nodes
/// (`Scene::last_update_moved_whole_ranges`), every top-level node's world differs from its
/// anchor by one and the same translation (its 2×2 part bit for bit the same), and nothing
/// else about the view changed. While the drag is `held`, a frame with no change since the
/// last slid frame slides by that frame's shift again.
pub fn slid_by(scene: &Scene, input: &SlideInput) -> Option<Vec2> {
    let anchors = input.anchors?;
    if !input.same_but_world {
        return None;
    }
    // The drag is held and nothing changed since the last slid frame: the same shift.
    if let Some((world, shift)) = input.last
        && input.held
        && world == input.world
    {
        return Some(shift);
    }
    if !one_update_of_everything(scene, input, anchors.len()) {
        return None;
    }
    let shift = common_shift(scene, anchors, input.camera, input.view)?;
    shift
        .is_finite()
        .then(|| Vec2::new(shift.x as f32, shift.y as f32))
}

/// True when the scene is big, exactly one update ran since the last frame, and it recomputed
/// every node as whole ranges of the `roots` top-level nodes (no node inside changed alone).
fn one_update_of_everything(scene: &Scene, input: &SlideInput, roots: usize) -> bool {
    scene.len() >= SLIDE_MIN
        && input.world != input.world_seen
        && scene.previous_world_version() == input.world_seen
        && scene.last_update_moved_whole_ranges()
        && scene.last_recomputed_ranges().len() == roots
        && whole_scene(scene)
}

/// The one screen move every anchor made (None when a 2×2 part changed at all, or two moves
/// are more than [`SLIDE_TOLERANCE`] apart).
fn common_shift(
    scene: &Scene,
    anchors: &[Anchor],
    camera: Camera,
    view: ScreenRect,
) -> Option<DVec2> {
    let at = camera.world_center();
    let on_screen = |&(i, then): &Anchor| {
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
    Some(first)
}

/// True when the last pass that recomputed anything covered every node (its ranges, not
/// `last_recomputed`, which an update with nothing dirty resets to 0).
fn whole_scene(scene: &Scene) -> bool {
    let ranges = scene.last_recomputed_ranges();
    let moved: usize = ranges.iter().map(|&(a, b)| (b - a) as usize).sum();
    moved == scene.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::math::Trs;
    use crate::model::scene::{NodeData, NodeId, NodeSpec};

    /// Top-level nodes of the test scenes.
    const ROOTS: u32 = 3;

    fn view() -> ScreenRect {
        ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 600.0))
    }

    fn camera() -> Camera {
        Camera::new(DVec2::new(1.0, 2.0), 2.0)
    }

    /// `n` nodes: [`ROOTS`] top-level nodes (ids 1..=ROOTS, at x = 10·k), the rest spread
    /// under them; world matrices up to date.
    fn scene(n: u32) -> Scene {
        let root = |k: u32| NodeSpec {
            id: NodeId(k + 1),
            parent: None,
            data: NodeData {
                local: Trs::from_position(Vec2::new(10.0 * k as f32, 0.0)),
                ..NodeData::default()
            },
        };
        let mut specs: Vec<NodeSpec> = (0..ROOTS).map(root).collect();
        specs.extend((ROOTS..n).map(|k| NodeSpec {
            id: NodeId(k + 1),
            parent: Some(NodeId(k % ROOTS + 1)),
            data: NodeData {
                local: Trs::from_position(Vec2::new(1.0, k as f32 * 1e-3)),
                ..NodeData::default()
            },
        }));
        let mut scene = Scene::from_specs(specs).expect("a valid scene");
        scene.update_world();
        scene
    }

    /// A big scene, with its anchors and the world version a frame saw before the change.
    fn big() -> (Scene, Vec<Anchor>, u64) {
        let scene = scene(SLIDE_MIN as u32 + 10);
        let anchors = anchors(&scene).expect("a big scene has anchors");
        let seen = scene.world_version();
        (scene, anchors, seen)
    }

    /// Set top-level node `k`'s local transform and update the world matrices.
    fn set_root(scene: &mut Scene, k: u32, local: Trs) {
        scene.set_local(NodeId(k + 1), local).expect("a root");
    }

    /// Move top-level node `k` by `by` from where [`scene`] put it.
    fn move_root(scene: &mut Scene, k: u32, by: Vec2) {
        set_root(
            scene,
            k,
            Trs::from_position(Vec2::new(10.0 * k as f32, 0.0) + by),
        );
    }

    fn input<'a>(scene: &Scene, anchors: &'a [Anchor], seen: u64) -> SlideInput<'a> {
        SlideInput {
            anchors: Some(anchors),
            same_but_world: true,
            world: scene.world_version(),
            world_seen: seen,
            last: None,
            held: true,
            camera: camera(),
            view: view(),
        }
    }

    #[test]
    fn a_whole_scene_translation_slides_by_the_exact_screen_shift() {
        let (mut scene, anchors, seen) = big();
        assert_eq!(anchors.len(), ROOTS as usize);
        for k in 0..ROOTS {
            move_root(&mut scene, k, Vec2::new(3.0, 1.0));
        }
        scene.update_world();
        // 3 world units right and 1 up, at 2 pixels per unit (screen y grows down).
        let got = slid_by(&scene, &input(&scene, &anchors, seen));
        assert_eq!(got, Some(Vec2::new(6.0, -2.0)));
        // Anything else about the view changed: no slide.
        let other_view = SlideInput {
            same_but_world: false,
            ..input(&scene, &anchors, seen)
        };
        assert_eq!(slid_by(&scene, &other_view), None);
        // Two updates since the last frame (it saw an older version): no slide.
        let behind = SlideInput {
            world_seen: seen.wrapping_sub(1),
            ..input(&scene, &anchors, seen)
        };
        assert_eq!(slid_by(&scene, &behind), None);
    }

    #[test]
    fn a_rotation_or_a_partial_move_is_not_a_slide() {
        let (mut scene, anchors, seen) = big();
        // Only two of the three top-level nodes move: not the whole scene.
        move_root(&mut scene, 0, Vec2::X);
        move_root(&mut scene, 1, Vec2::X);
        scene.update_world();
        let partial = input(&scene, &anchors, seen);
        assert!(!one_update_of_everything(&scene, &partial, anchors.len()));
        assert_eq!(slid_by(&scene, &partial), None);
        // All of them, but by different amounts.
        let seen = scene.world_version();
        for k in 0..ROOTS {
            move_root(&mut scene, k, Vec2::new(k as f32, 0.0));
        }
        scene.update_world();
        let uneven = input(&scene, &anchors, seen);
        assert!(one_update_of_everything(&scene, &uneven, anchors.len()));
        assert_eq!(slid_by(&scene, &uneven), None);
        // All of them turned in place.
        let seen = scene.world_version();
        for k in 0..ROOTS {
            let at = Vec2::new(10.0 * k as f32, 0.0);
            set_root(&mut scene, k, Trs::new(at, 10.0, Vec2::ONE, 0.0));
        }
        scene.update_world();
        let turned = input(&scene, &anchors, seen);
        assert!(one_update_of_everything(&scene, &turned, anchors.len()));
        assert_eq!(slid_by(&scene, &turned), None);
    }

    #[test]
    fn a_move_with_a_node_inside_changed_too_is_not_a_slide() {
        let (mut scene, anchors, seen) = big();
        for k in 0..ROOTS {
            move_root(&mut scene, k, Vec2::X);
        }
        let inner = NodeId(SLIDE_MIN as u32);
        scene
            .set_local(inner, Trs::from_position(Vec2::new(5.0, 5.0)))
            .expect("an inner node");
        scene.update_world();
        assert_eq!(slid_by(&scene, &input(&scene, &anchors, seen)), None);
    }

    #[test]
    fn a_held_drag_with_no_change_slides_by_the_last_shift_again() {
        let (scene, anchors, seen) = big();
        let shift = Vec2::new(4.0, -1.5);
        let again = SlideInput {
            last: Some((seen, shift)),
            world: seen,
            ..input(&scene, &anchors, seen)
        };
        assert_eq!(slid_by(&scene, &again), Some(shift));
        // Released: nothing changed, so nothing slid.
        let released = SlideInput {
            held: false,
            ..again
        };
        assert_eq!(slid_by(&scene, &released), None);
        // No kept anchors: never a slide.
        let unkept = SlideInput {
            anchors: None,
            ..again
        };
        assert_eq!(slid_by(&scene, &unkept), None);
    }

    #[test]
    fn a_small_scene_never_slides() {
        let mut scene = scene(30);
        assert_eq!(anchors(&scene), None);
        // Even given anchors, a whole-scene translation of a small scene is planned as usual.
        let kept: Vec<Anchor> = scene
            .child_indices(None)
            .map(|i| (i as u32, scene.cached_world_at(i)))
            .collect();
        let seen = scene.world_version();
        for k in 0..ROOTS {
            move_root(&mut scene, k, Vec2::X);
        }
        scene.update_world();
        assert_eq!(slid_by(&scene, &input(&scene, &kept, seen)), None);
        // The same move is a slide by the shift rule itself (only the size refuses it).
        assert_eq!(
            common_shift(&scene, &kept, camera(), view()),
            Some(DVec2::new(2.0, 0.0))
        );
    }
}
