#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]
//! graft: a 2D scene-graph editor, in three layers and a toolbox:
//! - [`model`]: transforms, the scene, coordinate spaces, edits and history, the document, the
//!   `.ron` format and the SVG and Godot interchange, scene generators (no egui, no I/O
//!   policy) — the library API;
//! - [`editor`]: the editing session, every user action as a [`editor::Command`] with its one
//!   applier, the command table, and what the viewport shows (no egui);
//! - `app` (feature `editor`): the egui window, which draws the editor and returns commands;
//! - `tools`: the binary's command line, benchmarks and desktop files (public for the binary,
//!   the tests and the benches; not documented as an API).
//!
//! Each layer imports only the ones above it in this list; `tools` and `app` do not import
//! each other (`tests/layering.rs` checks it, and that no import circle joins two folders).
//!
//! # A scene in ten lines
//!
//! The seed's sword chain: a body at (5, 0); an arm under it at (0, 2), rotated 90°; a hand
//! under the arm at (0, 3); a sword in the hand at (1, 0). A [`Scene`](model::scene::Scene) is
//! built from a flat list of [`NodeSpec`](model::scene::NodeSpec)s (ids, parent ids and
//! [`NodeData`](model::scene::NodeData) with a local [`Trs`](model::math::Trs)); every world
//! matrix is `parentWorld · local`.
//!
//! ```
//! use glam::Vec2;
//! use graft::model::math::{Trs, shear_metrics};
//! use graft::model::scene::{Keep, NodeData, NodeId, NodeSpec, Scene};
//!
//! let node = |id, parent: Option<u32>, name: &str, x, y, degrees| NodeSpec {
//!     id: NodeId(id),
//!     parent: parent.map(NodeId),
//!     data: NodeData::named(name, Trs::new(Vec2::new(x, y), degrees, Vec2::ONE, 0.0)),
//! };
//! let (body, arm, hand, sword) = (NodeId(1), NodeId(2), NodeId(3), NodeId(4));
//! let sword_scene = || {
//!     Scene::from_specs(vec![
//!         node(1, None, "body", 5.0, 0.0, 0.0),
//!         node(2, Some(1), "arm", 0.0, 2.0, 90.0),
//!         node(3, Some(2), "hand", 0.0, 3.0, 0.0),
//!         node(4, Some(3), "sword", 1.0, 0.0, 0.0),
//!     ])
//! };
//! let near = |a: Vec2, b: Vec2| (a - b).abs().max_element() < 1e-5;
//! let mut scene = sword_scene()?;
//!
//! // World positions (Unity `transform.position`, Godot `global_position`).
//! let world = |scene: &Scene, id| scene.world_trs(id).map(|t| t.position);
//! assert!(near(world(&scene, body)?, Vec2::new(5.0, 0.0)));
//! assert!(near(world(&scene, arm)?, Vec2::new(5.0, 2.0)));
//! assert!(near(world(&scene, hand)?, Vec2::new(2.0, 2.0)));
//! assert!(near(world(&scene, sword)?, Vec2::new(2.0, 3.0)));
//!
//! // Sheathe the sword on the body keeping its world transform (Unity's
//! // `SetParent(body, worldPositionStays: true)`): the local becomes (-3, 3), rotated 90°,
//! // and the sword stays at (2, 3).
//! scene.reparent(sword, Some(body), None, Keep::World)?;
//! let local = scene.node(sword)?.local;
//! assert!(near(local.position, Vec2::new(-3.0, 3.0)));
//! assert!((local.rotation - 90.0).abs() < 1e-5);
//! assert!(near(world(&scene, sword)?, Vec2::new(2.0, 3.0)));
//!
//! // The same move keeping the local numbers: they stay (1, 0), so the sword jumps to (6, 0).
//! let mut scene = sword_scene()?;
//! scene.reparent(sword, Some(body), None, Keep::Local)?;
//! assert_eq!(scene.node(sword)?.local.position, Vec2::new(1.0, 0.0));
//! assert!(near(world(&scene, sword)?, Vec2::new(6.0, 0.0)));
//!
//! // Shear: a child rotated 45° under a parent scaled (2, 1) has axes that are no longer at
//! // 90°: dot(col0, col1) = -1.5. Rotating after scaling (rotate · scale) gives 0.
//! let scale = Trs::new(Vec2::ZERO, 0.0, Vec2::new(2.0, 1.0), 0.0);
//! let rotate = Trs::new(Vec2::ZERO, 45.0, Vec2::ONE, 0.0);
//! let sheared = Scene::from_specs(vec![
//!     NodeSpec { id: NodeId(1), parent: None, data: NodeData::named("parent", scale) },
//!     NodeSpec { id: NodeId(2), parent: Some(NodeId(1)), data: NodeData::named("child", rotate) },
//! ])?;
//! let dot = shear_metrics(&sheared.world(NodeId(2))?).dot;
//! assert!((dot + 1.5).abs() < 1e-5, "scale · rotate: {dot}");
//! let dot = shear_metrics(&(rotate.to_affine() * scale.to_affine())).dot;
//! assert!(dot.abs() < 1e-5, "rotate · scale: {dot}");
//! # Ok::<(), graft::Error>(())
//! ```
//!
//! # Unity and Godot words, and where they live
//!
//! | Unity | Godot 4 | graft |
//! |---|---|---|
//! | `localPosition`, `localEulerAngles`, `localScale` | `position`, `rotation_degrees`, `scale`, `skew` | [`NodeData::local`](model::scene::NodeData::local), a [`Trs`](model::math::Trs); set with [`Scene::set_local`](model::scene::Scene::set_local) |
//! | `position`, `eulerAngles` (world) | `global_position`, `global_rotation_degrees`, `global_skew` | [`Scene::world_trs`](model::scene::Scene::world_trs) (exact, with skew when sheared) |
//! | `lossyScale` | `global_scale` | [`ShearMetrics::lossy_scale`](model::math::ShearMetrics::lossy_scale) of [`shear_metrics`](model::math::shear_metrics) on [`Scene::world`](model::scene::Scene::world) |
//! | `localToWorldMatrix` | `global_transform` | [`Scene::world`](model::scene::Scene::world) (the matrix); the parent's: [`Scene::parent_world`](model::scene::Scene::parent_world) |
//! | `worldToLocalMatrix` | `global_transform.affine_inverse()` | [`try_inverse`](model::math::try_inverse) of it, or [`from_world`](model::spaces::from_world) |
//! | `transform.position = p` | `global_position = p` | [`Scene::set_world_position`](model::scene::Scene::set_world_position) |
//! | — | `global_transform = t` | [`Scene::set_world_trs`](model::scene::Scene::set_world_trs); the local it solves: [`Scene::solve_local`](model::scene::Scene::solve_local) |
//! | `SetParent(p, worldPositionStays)` | `reparent(p, keep_global_transform)` | [`Scene::reparent`](model::scene::Scene::reparent) with [`Keep::World`](model::scene::Keep::World) or [`Keep::Local`](model::scene::Keep::Local); it returns a [`ReparentUndo`](model::scene::ReparentUndo) |
//! | `TransformPoint` | `to_global` | [`Scene::transform_point`](model::scene::Scene::transform_point); between any two spaces, [`carry_point`](model::spaces::carry_point)`(scene, from, to, p)` |
//! | `InverseTransformPoint` | `to_local` | [`Scene::inverse_transform_point`](model::scene::Scene::inverse_transform_point) |
//! | `parent`, `GetChild` | `get_parent()`, `get_children()` | [`Scene::parent`](model::scene::Scene::parent), [`Scene::children`](model::scene::Scene::children) |
//! | `new GameObject()` under a parent | `add_child` | [`Scene::add_node`](model::scene::Scene::add_node) |
//!
//! Beyond both: why a world matrix is sheared, [`Scene::shear_cause`](model::scene::Scene::shear_cause);
//! the factors of a world matrix, [`Scene::matrix_chain`](model::scene::Scene::matrix_chain);
//! the seed's component-wise world (never sheared),
//! [`Scene::accumulated_world_trs`](model::scene::Scene::accumulated_world_trs). More, with
//! one-line examples, in [`model`].

#[cfg(feature = "editor")]
pub mod app;
pub mod editor;
pub mod error;
pub mod model;
// The binary's front-ends (command line, benchmarks, desktop files): public for the `graft`
// binary, the tests and the benches, not a library API.
#[doc(hidden)]
pub mod tools;

pub use error::{Error, Result};

/// The reverse-DNS application id: the desktop file's and the icon's name, the metainfo id and
/// the window's app id (Wayland's `app_id`, X11's `WM_CLASS`).
pub const APP_ID: &str = "io.github.graft.Graft";
