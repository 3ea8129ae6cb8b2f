//! Trail sampling: which times and world points a node's trail is drawn through (no egui).
//!
//! A trail is the path of a selected node's world origin over the clip, sampled densely
//! enough to look smooth, with a few time ticks whose labels ("4.50s") are kept only where
//! they do not overlap one another. Beside it, the two comparison overlays: each node's
//! accumulated-TRS ghost and each animated node's blended-world-matrix ghost, on screen.

use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::numbers::format_display;
use crate::editor::view::overlay::{accumulated_ghosts, world_blend_ghosts};
use crate::editor::view::{Camera, ScreenRect};
use crate::model::scene::{NodeId, Scene};
use glam::{DVec2, Vec2};

/// Samples along a trail (a trail passes through one more point: the clip's end too).
pub const SAMPLES: usize = 360;
/// Ticks along a trail (one every length / TICKS, from the clip's start).
pub const TICKS: usize = 8;
/// Trails drawn at most (the first selected nodes).
pub const MAX_TRAILS: usize = 16;
/// Where a tick's label starts (its top-left corner), from the tick, in screen pixels.
pub const LABEL_OFFSET: Vec2 = Vec2::new(5.0, 5.0);

/// The times a trail is sampled at: [`SAMPLES`] + 1 evenly from 0 to `length`, both included.
pub fn sample_times(length: f32) -> Vec<f32> {
    (0..=SAMPLES)
        .map(|k| length * k as f32 / SAMPLES as f32)
        .collect()
}

/// The time of tick `k` (0 ≤ k < [`TICKS`]) along a clip of `length` seconds.
pub fn tick_time(length: f32, k: usize) -> f32 {
    length * k as f32 / TICKS as f32
}

/// A tick's label: its time in seconds, two decimals ("4.50s").
pub fn tick_label(time: f32) -> String {
    format!("{time:.2}s")
}

/// A time mark along a trail.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Where it is on screen.
    pub at: Vec2,
    /// Its clip time in seconds.
    pub time: f32,
    /// Its label, when it does not overlap a label kept before it.
    pub label: Option<String>,
}

/// A node's trail on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Trail {
    /// The node.
    pub node: NodeId,
    /// Its world origin at every [`sample_times`] time, on screen.
    pub points: Vec<Vec2>,
    /// [`TICKS`] time marks, from the clip's start.
    pub ticks: Vec<Tick>,
}

/// The trails of the first [`MAX_TRAILS`] of `nodes` over the scene's clip, through the
/// camera. A node whose path has fewer than two points (an unknown node) has none. Tick
/// labels, each about `label_size` big on screen (an estimate of the widest), are kept in
/// order (trail by trail, tick by tick) only where they do not overlap one already kept.
pub fn trails(
    scene: &Scene,
    nodes: &[NodeId],
    camera: Camera,
    view: ScreenRect,
    label_size: Vec2,
) -> Vec<Trail> {
    let length = scene.clip().length;
    let times = sample_times(length);
    let mut out: Vec<Trail> = nodes
        .iter()
        .take(MAX_TRAILS)
        .filter_map(|&node| {
            let path = scene.world_path(node, &times);
            (path.len() >= 2).then(|| Trail {
                node,
                ticks: ticks(&path, length, camera, view),
                points: screen_points(&path, camera, view),
            })
        })
        .collect();
    let at: Vec<Vec2> = out
        .iter()
        .flat_map(|t| t.ticks.iter().map(|k| k.at))
        .collect();
    let mut kept = declutter(&at, label_size).into_iter();
    for tick in out.iter_mut().flat_map(|t| t.ticks.iter_mut()) {
        if kept.next().unwrap_or(false) {
            tick.label = Some(tick_label(tick.time));
        }
    }
    out
}

/// World points on screen, rounded to f32 pixels at the end.
fn screen_points(path: &[DVec2], camera: Camera, view: ScreenRect) -> Vec<Vec2> {
    path.iter()
        .map(|p| camera.to_screen_f64(view, *p).as_vec2())
        .collect()
}

/// The [`TICKS`] ticks of a path sampled at [`sample_times`]`(length)`, without labels.
fn ticks(path: &[DVec2], length: f32, camera: Camera, view: ScreenRect) -> Vec<Tick> {
    (0..TICKS)
        .filter_map(|k| {
            let p = path.get(k * SAMPLES / TICKS)?;
            Some(Tick {
                at: camera.to_screen_f64(view, *p).as_vec2(),
                time: tick_time(length, k),
                label: None,
            })
        })
        .collect()
}

/// Which of the labels placed at these ticks to keep so that no two overlap: in order, each
/// label (its top-left corner at the tick plus [`LABEL_OFFSET`], `size` big) is kept unless
/// it overlaps one kept before it. Labels that only touch do not overlap.
pub fn declutter(ticks: &[Vec2], size: Vec2) -> Vec<bool> {
    let mut kept: Vec<Vec2> = Vec::new();
    ticks
        .iter()
        .map(|&at| {
            let min = at + LABEL_OFFSET;
            let overlaps = kept.iter().any(|&other| {
                let apart = (min - other).abs();
                apart.x < size.x && apart.y < size.y
            });
            if !overlaps {
                kept.push(min);
            }
            !overlaps
        })
        .collect()
}

/// A node's accumulated-TRS ghost as the viewport marks it.
#[derive(Clone, Debug, PartialEq)]
pub struct AccumulatedMark {
    /// The ghost's outline, closed (its first point again at the end); empty when it has none.
    pub outline: Vec<Vec2>,
    /// The ghost's origin on screen.
    pub origin: Vec2,
    /// The true origin, when it is far enough from the ghost's for a line between them.
    pub link: Option<Vec2>,
    /// "off by …" (the distance in world units) when the two differ and are far apart on screen.
    pub note: Option<String>,
}

/// A ghost's origin this many pixels from the true one or more gets a line to it.
pub const LINK_FROM: f32 = 2.0;
/// A ghost's origin more than this many pixels from the true one gets its distance written.
pub const NOTE_FROM: f32 = 12.0;
/// Distances (world units) up to this are not written.
pub const ERROR_FROM: f64 = 1e-4;

/// Every accumulated-TRS ghost in view (`overlay::accumulated_ghosts`) as marks.
pub fn accumulated_marks(scene: &Scene, camera: Camera, view: ScreenRect) -> Vec<AccumulatedMark> {
    accumulated_ghosts(scene, camera, view)
        .into_iter()
        .map(|g| {
            let apart = (g.origin - g.true_origin).length();
            AccumulatedMark {
                outline: closed(&g.outline),
                origin: g.origin,
                link: (apart > LINK_FROM).then_some(g.true_origin),
                note: (g.error > ERROR_FROM && apart > NOTE_FROM)
                    .then(|| format!("off by {}", format_display(g.error))),
            }
        })
        .collect()
}

/// Where blending an animated node's keyed world matrices puts it now, on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendMark {
    /// The node.
    pub node: NodeId,
    /// Its shape's outline there, closed (first point again at the end); empty when it has none.
    pub outline: Vec<Vec2>,
    /// Its origin there.
    pub origin: Vec2,
    /// The tips of its x and y axes (a unit along each) there.
    pub axes: [Vec2; 2],
}

/// Every animated node's world-blend ghost at playback time `time`
/// (`overlay::world_blend_ghosts`) on screen.
pub fn world_blend_marks(
    scene: &Scene,
    time: f32,
    camera: Camera,
    view: ScreenRect,
) -> Vec<BlendMark> {
    let mut shape = ScreenShape::new();
    world_blend_ghosts(scene, time)
        .into_iter()
        .filter_map(|(node, blended)| {
            let data = scene.node(node).ok()?;
            let m = camera.node_to_screen_f64(view, &blended);
            shape.compute(&data.shape, &m, view);
            Some(BlendMark {
                node,
                outline: closed(&shape.outline),
                origin: m.translation.as_vec2(),
                axes: [DVec2::X, DVec2::Y].map(|axis| m.transform_point2(axis).as_vec2()),
            })
        })
        .collect()
}

/// An outline of more than two points closed (its first point again at the end); else empty.
fn closed(outline: &[Vec2]) -> Vec<Vec2> {
    match outline {
        [first, _, _, ..] => outline.iter().chain([first]).copied().collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anim::{Channel, ClipSettings, Key, LoopMode, Track};
    use crate::model::math::Trs;
    use crate::model::scene::NodeData;

    fn view() -> ScreenRect {
        ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 600.0))
    }

    /// A label of "0.00s" at 10 px (about 6 px a character).
    const LABEL: Vec2 = Vec2::new(30.0, 12.0);

    /// A node moving from x = 0 to x = 8 over a 2 s clip played once, and a still one at (1, 1).
    fn scene() -> (Scene, NodeId, NodeId) {
        let mut scene = Scene::new();
        let once = ClipSettings::new(2.0, LoopMode::Once).expect("a clip");
        scene.set_clip(once).expect("a clip");
        let moving = scene
            .add_node(None, None, NodeData::named("moving", Trs::IDENTITY))
            .expect("moving");
        let still = Trs::from_position(Vec2::ONE);
        let still = scene
            .add_node(None, None, NodeData::named("still", still))
            .expect("still");
        let length = scene.clip().length;
        let track = Track::new(
            Channel::PositionX,
            vec![Key::new(0.0, 0.0), Key::new(length, 8.0)],
        )
        .expect("a track");
        scene.set_tracks(moving, vec![track]).expect("tracks");
        scene.update_world();
        (scene, moving, still)
    }

    #[test]
    fn a_trail_is_sampled_evenly_over_the_whole_clip() {
        let times = sample_times(2.0);
        assert_eq!(times.len(), SAMPLES + 1);
        assert_eq!(times[0], 0.0);
        assert_eq!(times[SAMPLES], 2.0);
        assert_eq!(times[SAMPLES / 2], 1.0);
        let step = 2.0 / SAMPLES as f32;
        assert!(times.windows(2).all(|w| (w[1] - w[0] - step).abs() < 1e-6));
        assert_eq!(tick_time(2.0, 3), 0.75);
        assert_eq!(tick_label(4.5), "4.50s");
    }

    #[test]
    fn a_trail_passes_through_the_world_path_with_ticks_at_their_times() {
        let (scene, moving, _) = scene();
        let length = scene.clip().length;
        let camera = Camera::new(DVec2::new(4.0, 0.0), 50.0);
        let out = trails(&scene, &[moving], camera, view(), LABEL);
        let [trail] = out.as_slice() else {
            panic!("one trail: {out:?}")
        };
        assert_eq!(trail.points.len(), SAMPLES + 1);
        let path = scene.world_path(moving, &sample_times(length));
        for (p, w) in trail.points.iter().zip(&path) {
            assert_eq!(*p, camera.to_screen_f64(view(), *w).as_vec2());
        }
        // From x = 0 to x = 8: 400 px across, centred on the view.
        assert_eq!(trail.points[0], Vec2::new(200.0, 300.0));
        assert_eq!(trail.points[SAMPLES], Vec2::new(600.0, 300.0));
        assert_eq!(trail.ticks.len(), TICKS);
        for (k, tick) in trail.ticks.iter().enumerate() {
            assert_eq!(tick.time, tick_time(length, k));
            assert_eq!(tick.at, trail.points[k * SAMPLES / TICKS]);
            // 50 px apart, wider than a label: every label is kept.
            assert_eq!(tick.label, Some(tick_label(tick.time)));
        }
    }

    #[test]
    fn labels_that_would_overlap_are_dropped() {
        // "4.50s" and "4.60s" 10 px apart: the second would sit over the first.
        let at = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(30.0, 0.0)];
        assert_eq!(declutter(&at, LABEL), vec![true, false, true]);
        // Stacked: apart by less than a label's height, or by exactly one (touching).
        let at = [Vec2::ZERO, Vec2::new(0.0, 11.0), Vec2::new(0.0, 12.0)];
        assert_eq!(declutter(&at, LABEL), vec![true, false, true]);
        assert_eq!(declutter(&[], LABEL), Vec::<bool>::new());
    }

    #[test]
    fn a_still_node_keeps_one_label_and_unknown_nodes_have_no_trail() {
        let (scene, moving, still) = scene();
        let camera = Camera::new(DVec2::ZERO, 50.0);
        let out = trails(&scene, &[still, NodeId(999), moving], camera, view(), LABEL);
        assert_eq!(out.len(), 2);
        // Every tick of the still node is at one point: only the first label is kept.
        let labels: Vec<_> = out[0].ticks.iter().map(|t| t.label.as_deref()).collect();
        assert_eq!(labels[0], Some("0.00s"));
        assert!(labels[1..].iter().all(Option::is_none), "{labels:?}");
        // A moving node's labels are kept unless they would sit on a kept one.
        assert_eq!(out[1].node, moving);
        let kept = out[1].ticks.iter().filter(|t| t.label.is_some()).count();
        assert_eq!(kept, TICKS);
        // Zoomed far out, the moving trail is a few pixels long: one label for it all.
        let far = Camera::new(DVec2::ZERO, 0.5);
        let out = trails(&scene, &[moving], far, view(), LABEL);
        let kept = out[0].ticks.iter().filter(|t| t.label.is_some()).count();
        assert_eq!(kept, 1);
    }

    #[test]
    fn at_most_sixteen_trails_are_drawn() {
        let (scene, moving, _) = scene();
        let many = vec![moving; 40];
        let out = trails(&scene, &many, Camera::default(), view(), LABEL);
        assert_eq!(out.len(), MAX_TRAILS);
    }

    #[test]
    fn outlines_are_closed_only_with_three_points_or_more() {
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let closed_square = closed(&square);
        assert_eq!(closed_square.len(), 5);
        assert_eq!(closed_square[4], Vec2::ZERO);
        assert!(closed(&[Vec2::ZERO, Vec2::X]).is_empty());
    }
}
