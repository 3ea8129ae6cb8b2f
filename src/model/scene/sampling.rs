//! Sampling a scene's animation without changing it (playing, which writes the pose, is
//! `Scene::set_pose_at` in `scene/mod.rs`); the tracks and their sampling are `model::anim`,
//! which knows nothing of the scene.

use super::node_id::NodeId;
use super::types::Scene;
use crate::error::Result;
use crate::model::anim::{is_keyed, key_times, sample};
use crate::model::math::Trs;
use glam::DVec2;

impl Scene {
    /// A node's local transform at playback time `t` (mapped onto the clip by its loop mode),
    /// without changing the scene: the stored local with its keyed channels replaced.
    pub fn sampled_local(&self, id: NodeId, t: f32) -> Result<Trs> {
        let data = self.node(id)?;
        Ok(sample(data.local, &data.tracks, self.clip().local_time(t)))
    }

    /// The world position of a node's origin at each playback time, for trails: the chain of
    /// ancestors is sampled and multiplied as [`Scene::set_pose_at`] and the world update would
    /// (the same products, so the same bits), without touching the scene. Only the chain from
    /// the topmost animated ancestor down is recomputed per time. Empty for an unknown node.
    pub fn world_path(&self, node: NodeId, times: &[f32]) -> Vec<DVec2> {
        self.sampled_worlds(node, times)
            .into_iter()
            .map(|w| w.translation.as_dvec2())
            .collect()
    }

    /// The key times (clip time) of every keyed channel on the node's chain, sorted, distinct:
    /// where its world matrix is exactly what was keyed.
    pub fn chain_key_times(&self, node: NodeId) -> Vec<f32> {
        let Ok(i) = self.index(node) else {
            return Vec::new();
        };
        let path = self.path_indices(i);
        key_times(path.iter().flat_map(|&k| self.data_at(k).tracks.iter()))
    }

    /// A node's world matrix at each playback time, sampled along its chain without touching
    /// the scene. Empty for an unknown node.
    pub fn sampled_worlds(&self, node: NodeId, times: &[f32]) -> Vec<glam::Affine2> {
        let Ok(i) = self.index(node) else {
            return Vec::new();
        };
        let path = self.path_indices(i);
        let Some(top) = path.iter().position(|&k| is_keyed(&self.data_at(k).tracks)) else {
            return vec![self.world_at(i); times.len()];
        };
        let above = self.parent_index_at(path[top]).map(|p| self.world_at(p));
        let chain = &path[top..];
        let clip = self.clip();
        times
            .iter()
            .map(|&t| {
                let clip_time = clip.local_time(t);
                let mut world = above;
                for &k in chain {
                    let data = self.data_at(k);
                    let local = if is_keyed(&data.tracks) {
                        sample(data.local, &data.tracks, clip_time).to_affine()
                    } else {
                        self.local_matrix_at(k)
                    };
                    world = Some(world.map_or(local, |w| w * local));
                }
                world.unwrap_or(glam::Affine2::IDENTITY)
            })
            .collect()
    }
}
