//! `graft bench animate`: one playback frame of a generated scene with some nodes animated —
//! sampling their tracks, posing them and propagating the dirty subtrees — per frame, median
//! of many frames, with how many world matrices each frame recomputed.

use crate::model::anim::{Channel, Key, Track};
use crate::model::generate::{GenShape, generate};
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};
use serde::Serialize;
use std::time::Instant;

/// Figures of one `graft bench animate` run.
#[derive(Clone, Debug, Serialize)]
pub struct AnimateReport {
    /// Nodes in the scene.
    pub nodes: usize,
    /// Nodes with a rotation track.
    pub animated: usize,
    /// Sampling and posing the animated nodes, per frame (µs, median).
    pub pose_us: f64,
    /// Propagating the dirty subtrees, per frame (µs, median).
    pub propagate_us: f64,
    /// World matrices recomputed per frame.
    pub recomputed: usize,
}

/// A random scene of `nodes` nodes with a rotation track on `animated` of them, spread evenly.
pub fn animated_scene(nodes: usize, animated: usize) -> Scene {
    let mut scene = generate(GenShape::Random, nodes, 11);
    let step = (nodes / animated.max(1)).max(1);
    for k in (0..nodes).step_by(step).take(animated) {
        let id: NodeId = scene.id_at(k);
        let track = Track {
            channel: Channel::Rotation,
            keys: vec![Key::new(0.0, 0.0), Key::new(2.0, 360.0)],
        };
        let _ = Op::SetTracks {
            node: id,
            tracks: vec![track],
        }
        .perform(&mut scene);
    }
    scene.update_world();
    scene
}

/// Time `frames` playback frames at 60 fps.
pub fn animate(nodes: usize, animated: usize, frames: usize) -> AnimateReport {
    let mut scene = animated_scene(nodes, animated);
    let (mut pose, mut propagate, mut recomputed) = (Vec::new(), Vec::new(), 0);
    for f in 0..frames.max(1) {
        let t = f as f32 / 60.0;
        let start = Instant::now();
        scene.set_pose_at(t);
        let posed = Instant::now();
        recomputed = scene.update_world();
        propagate.push(posed.elapsed().as_secs_f64() * 1e6);
        pose.push((posed - start).as_secs_f64() * 1e6);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    AnimateReport {
        nodes,
        animated: scene.animated_nodes().len(),
        pose_us: median(pose),
        propagate_us: median(propagate),
        recomputed,
    }
}
