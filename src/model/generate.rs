//! Big generated scenes for benchmarks and demos: wide, chain and random.

use crate::model::math::Trs;
use crate::model::progress::{Progress, Stage};
use crate::model::scene::{NodeData, NodeId, NodeSpec, Scene, Shape};
use glam::Vec2;
use std::fmt;
use std::str::FromStr;

/// The shape of a generated hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenShape {
    /// One root with √N children, the rest spread evenly below them.
    Wide,
    /// N nodes, each the child of the one before.
    Chain,
    /// Random parents, TRS, skew and some mirrors.
    Random,
}

impl FromStr for GenShape {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "wide" => Ok(Self::Wide),
            "chain" => Ok(Self::Chain),
            "random" => Ok(Self::Random),
            other => Err(format!(
                "unknown shape {other:?}: use wide, chain or random"
            )),
        }
    }
}

impl fmt::Display for GenShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Wide => "wide",
            Self::Chain => "chain",
            Self::Random => "random",
        })
    }
}

/// Parents (0-based, pre-order) of a wide tree of `n` nodes: one root, √n children, and the
/// remaining nodes spread evenly under those children.
fn wide_parents(n: usize, fan: usize) -> Vec<Option<usize>> {
    let mut parents = Vec::with_capacity(n);
    if n == 0 {
        return parents;
    }
    parents.push(None);
    let fan = fan.min(n - 1);
    let leaves = n - 1 - fan;
    let base = leaves / fan.max(1);
    let extra = leaves % fan.max(1);
    for c in 0..fan {
        let at = parents.len();
        parents.push(Some(0));
        let size = base + usize::from(c < extra);
        parents.extend(std::iter::repeat_n(Some(at), size));
    }
    parents
}

/// The flat node list of a generated scene (ids 1..=n in pre-order).
pub fn generate_specs(shape: GenShape, n: usize, seed: u64) -> Vec<NodeSpec> {
    generate_specs_with(shape, n, seed, &Progress::new()).unwrap_or_default()
}

/// How many nodes are made between two progress reports (and cancel checks).
const REPORT_EVERY: usize = 4096;

/// [`generate_specs`] reporting nodes made to `progress` ([`Stage::Generating`]); None once
/// the progress is cancelled.
pub fn generate_specs_with(
    shape: GenShape,
    n: usize,
    seed: u64,
    progress: &Progress,
) -> Option<Vec<NodeSpec>> {
    progress.enter(Stage::Generating, n as u64);
    let mut rng = fastrand::Rng::with_seed(seed);
    let fan = ((n as f64).sqrt() as usize).max(1);
    let mut specs = Vec::with_capacity(n);
    let mut wide_child = 0;
    let wide = if shape == GenShape::Wide {
        wide_parents(n, fan)
    } else {
        Vec::new()
    };
    for k in 0..n {
        if k % REPORT_EVERY == 0 {
            progress.set_done(k as u64);
            if progress.is_cancelled() {
                return None;
            }
        }
        let (parent, local, shape) = match shape {
            GenShape::Chain => chain_node(k),
            GenShape::Wide => {
                let parent = wide.get(k).copied().flatten();
                wide_node(k, parent, fan, &mut wide_child)
            }
            GenShape::Random => random_node(&mut rng, k),
        };
        let color = [rng.u8(60..=255), rng.u8(60..=255), rng.u8(60..=255), 255];
        specs.push(NodeSpec {
            id: NodeId(k as u32 + 1),
            parent: parent.map(|p| NodeId(p as u32 + 1)),
            data: NodeData {
                name: compact_str::format_compact!("node{}", k + 1),
                local,
                shape,
                color,
                ..NodeData::default()
            },
        });
    }
    progress.set_done(n as u64);
    Some(specs)
}

/// Node `k` of a chain: the child of node `k - 1`, a small step up and turn, a thin rect.
fn chain_node(k: usize) -> (Option<usize>, Trs, Shape) {
    let local = Trs::new(Vec2::new(0.0, 1.0), 3.0, Vec2::splat(0.999), 0.0);
    (
        k.checked_sub(1),
        local,
        Shape::Rect {
            size: Vec2::new(0.8, 0.3),
        },
    )
}

/// Node `k` of a wide tree under `parent`: the root's children on a circle (`wide_child`
/// counts them, `fan` in all), the rest small squares.
fn wide_node(
    k: usize,
    parent: Option<usize>,
    fan: usize,
    wide_child: &mut usize,
) -> (Option<usize>, Trs, Shape) {
    let local = if parent == Some(0) {
        *wide_child += 1;
        let angle = 360.0 * *wide_child as f32 / fan as f32;
        Trs::new(Vec2::new(10.0, 0.0), angle, Vec2::ONE, 0.0)
    } else {
        let x = (k % 97) as f32 * 0.1;
        Trs::new(Vec2::new(x, 1.0), (k % 360) as f32, Vec2::splat(0.5), 0.0)
    };
    (
        parent,
        local,
        Shape::Rect {
            size: Vec2::new(0.4, 0.4),
        },
    )
}

/// Node `k` of a random scene: a parent near the recent nodes (or anywhere, or none), a random
/// TRS with some mirrors and skew, a rect or an ellipse.
fn random_node(rng: &mut fastrand::Rng, k: usize) -> (Option<usize>, Trs, Shape) {
    // Mostly attach near recent nodes so depth grows, sometimes anywhere, sometimes a new root.
    let parent = match (k, rng.u8(0..100)) {
        (0, _) => None,
        (_, 0..=2) => None,
        (_, 3..=60) => Some(k - 1 - rng.usize(0..k.min(8))),
        _ => Some(rng.usize(0..k)),
    };
    let mirror_x = if rng.u8(0..10) == 0 { -1.0 } else { 1.0 };
    let uniform = 0.6 + rng.f32() * 0.6;
    let scale = Vec2::new(uniform * mirror_x, uniform * (0.7 + rng.f32() * 0.6));
    let skew = if rng.u8(0..5) == 0 {
        rng.f32() * 40.0 - 20.0
    } else {
        0.0
    };
    let local = Trs::new(
        Vec2::new(rng.f32() * 8.0 - 4.0, rng.f32() * 8.0 - 4.0),
        (rng.f32() * 360.0 - 180.0).round(),
        scale,
        skew,
    );
    let size = Vec2::new(0.3 + rng.f32(), 0.3 + rng.f32());
    let shape = if rng.bool() {
        Shape::Rect { size }
    } else {
        Shape::Ellipse { size }
    };
    (parent, local, shape)
}

/// A generated scene.
pub fn generate(shape: GenShape, n: usize, seed: u64) -> Scene {
    generate_with(shape, n, seed, &Progress::new()).unwrap_or_default()
}

/// [`generate`] reporting to `progress` (generating, then building); None once cancelled.
pub fn generate_with(shape: GenShape, n: usize, seed: u64, progress: &Progress) -> Option<Scene> {
    let specs = generate_specs_with(shape, n, seed, progress)?;
    progress.enter(Stage::Building, 0);
    // Generated lists always have unique ids and earlier parents, so building cannot fail.
    Some(Scene::from_specs(specs).unwrap_or_default())
}
