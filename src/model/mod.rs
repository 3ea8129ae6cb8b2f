//! The model: transforms and their exact decomposition, the scene in pre-order arrays with its
//! world cache, edits and the undo history, the document, and the `.ron` file format. No egui,
//! no dialogs, no policy about what a user means.
//!
//! Start at [`scene::Scene`] (the tree and its world getters and setters) and [`math::Trs`]
//! (position, rotation in degrees, scale, skew); the crate page has the seed's sword chain
//! worked through and a table of Unity and Godot names. A few lines each, on one node under a
//! parent at (5, 0) rotated 90°:
//!
//! ```
//! use glam::{DVec2, Vec2};
//! use graft::model::math::{Trs, shear_metrics};
//! use graft::model::scene::{NodeData, NodeId, Scene};
//!
//! let mut scene = Scene::new();
//! let turned = Trs::new(Vec2::new(5.0, 0.0), 90.0, Vec2::ONE, 0.0);
//! let parent = scene.add_node(None, None, NodeData::named("parent", turned))?;
//! let child = scene.add_node(Some(parent), None, NodeData::named("child", Trs::IDENTITY))?;
//! let near = |a: DVec2, b: DVec2| (a - b).abs().max_element() < 1e-5;
//!
//! // Godot `to_global` / Unity `TransformPoint`: the child's (1, 0) is (5, 1) in the world.
//! assert!(near(scene.transform_point(child, DVec2::X)?, DVec2::new(5.0, 1.0)));
//! // Godot `to_local` / Unity `InverseTransformPoint`: and back.
//! assert!(near(scene.inverse_transform_point(child, DVec2::new(5.0, 1.0))?, DVec2::X));
//! // Godot `global_position = p`: the local is solved through the parent's inverse.
//! scene.set_world_position(child, Vec2::new(5.0, 2.0))?;
//! assert!((scene.node(child)?.local.position - Vec2::new(2.0, 0.0)).length() < 1e-5);
//! // Godot `global_transform`: the world matrix; its shear dot is 0 (no non-uniform scale).
//! assert!(shear_metrics(&scene.world(child)?).dot.abs() < 1e-5);
//! # Ok::<(), graft::Error>(())
//! ```

pub mod anim;
#[doc(hidden)]
pub mod atomic_write;
pub mod document;
pub mod file;
mod file_fast;
mod file_format;
pub mod file_kind;
mod file_load;
mod file_node;
mod file_parsed;
mod file_save;
pub(crate) mod file_stamp;
mod file_version;
pub mod generate;
pub mod godot;
pub mod instance;
#[doc(hidden)]
pub mod journal;
pub mod math;
pub(crate) mod pool;
pub mod progress;
#[doc(hidden)]
pub mod read_limit;
pub mod scene;
pub mod spaces;
pub mod svg;
