//! Coordinate spaces: naming one (the world or a node's), and carrying a point or a transform
//! from one space to another in f64 (Unity's `TransformPoint` / `InverseTransformPoint`,
//! Godot's `to_global` / `to_local`). The free functions take a space as `Option<NodeId>`
//! (None: the world); [`Scene::transform_point`] and [`Scene::inverse_transform_point`] are the
//! one-node forms.
//!
//! ```
//! use glam::{DVec2, Vec2};
//! use graft::model::math::Trs;
//! use graft::model::scene::{NodeData, Scene};
//!
//! let mut scene = Scene::new();
//! let turned = Trs::new(Vec2::new(5.0, 0.0), 90.0, Vec2::ONE, 0.0);
//! let parent = scene.add_node(None, None, NodeData::named("parent", turned))?;
//! let near = |a: DVec2, b: DVec2| (a - b).abs().max_element() < 1e-9;
//! assert!(near(scene.transform_point(parent, DVec2::X)?, DVec2::new(5.0, 1.0)));
//! assert!(near(scene.inverse_transform_point(parent, DVec2::new(5.0, 1.0))?, DVec2::X));
//! # Ok::<(), graft::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::model::scene::{NodeId, Scene};
use glam::{Affine2, DAffine2, DVec2};

/// A space by name: `world`, a node id, or a node's name (which must name one node only).
/// None is the world.
pub fn resolve_space(scene: &Scene, spec: &str) -> Result<Option<NodeId>> {
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("world") {
        return Ok(None);
    }
    if let Ok(n) = spec.parse::<u32>()
        && scene.contains(NodeId(n))
    {
        return Ok(Some(NodeId(n)));
    }
    let named: Vec<NodeId> = (0..scene.len())
        .filter(|&i| scene.data_at(i).name == spec)
        .map(|i| scene.id_at(i))
        .collect();
    match named.as_slice() {
        [one] => Ok(Some(*one)),
        [] => Err(Error::Refused(format!(
            "no node is called or numbered \"{spec}\" (use a name, an id, or world)"
        ))),
        many => Err(Error::Refused(format!(
            "{} nodes are called \"{spec}\" (ids {}): use an id",
            many.len(),
            many.iter()
                .map(|id| id.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The matrix taking a space's coordinates to world coordinates, in f64 (identity for the
/// world).
pub fn to_world(scene: &Scene, space: Option<NodeId>) -> Result<DAffine2> {
    match space {
        None => Ok(DAffine2::IDENTITY),
        Some(id) => Some(scene.world(id)?.as_daffine2())
            .filter(|m| m.matrix2.is_finite() && m.translation.is_finite())
            .ok_or_else(|| Error::Refused(format!("node {id}'s world matrix is not finite"))),
    }
}

/// The matrix taking world coordinates into a space's, in f64; refused for a singular space
/// (a zero scale on the way: no point of the world has a unique place in it).
pub fn from_world(scene: &Scene, space: Option<NodeId>) -> Result<DAffine2> {
    let m = to_world(scene, space)?;
    let det = m.matrix2.determinant();
    let size = m.matrix2.x_axis.length() * m.matrix2.y_axis.length();
    if !det.is_finite() || det == 0.0 || det.abs() <= 1e-12 * size {
        return Err(match space {
            Some(id) => Error::SingularParent(id),
            None => Error::Refused("the world is singular".into()),
        });
    }
    Ok(m.inverse())
}

/// Carry a point from one space to another: `from_world(to) · to_world(from) · p`.
pub fn carry_point(
    scene: &Scene,
    from: Option<NodeId>,
    to: Option<NodeId>,
    point: DVec2,
) -> Result<DVec2> {
    if from == to {
        return Ok(point);
    }
    let world = to_world(scene, from)?.transform_point2(point);
    Ok(from_world(scene, to)?.transform_point2(world))
}

/// A node's transform relative to a space: `from_world(space) · world(node)`.
pub fn relative_matrix(scene: &Scene, node: NodeId, space: Option<NodeId>) -> Result<Affine2> {
    let m = from_world(scene, space)? * to_world(scene, Some(node))?;
    Ok(Affine2::from_mat2_translation(
        m.matrix2.as_mat2(),
        m.translation.as_vec2(),
    ))
}

impl Scene {
    /// A point in `node`'s space carried to the world (Unity's `TransformPoint`, Godot's
    /// `to_global`), in f64.
    pub fn transform_point(&self, node: NodeId, point: DVec2) -> Result<DVec2> {
        carry_point(self, Some(node), None, point)
    }

    /// A world point carried into `node`'s space (Unity's `InverseTransformPoint`, Godot's
    /// `to_local`), in f64; refused when the node's world matrix is singular.
    pub fn inverse_transform_point(&self, node: NodeId, point: DVec2) -> Result<DVec2> {
        carry_point(self, None, Some(node), point)
    }
}
