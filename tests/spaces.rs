//! Coordinate spaces without a window: a node's grid is its world matrix applied to local unit
//! lines (sheared and mirrored nodes included), a singular node has none, and carrying a point
//! between spaces agrees with the world matrices.

use glam::{DVec2, Vec2};
use graft::editor::session::command::{SelectionCommand, ViewCommand};
use graft::editor::view::camera::{Camera, ScreenRect};
use graft::editor::view::geometry::world_bounds;
use graft::editor::view::spaces::{LocalGrid, carry_point, local_grid, resolve_space};
use graft::model::scene::NodeId;
use graft::tools::generate::{GenShape, generate};
use proptest::prelude::*;
use std::path::Path;

fn load(name: &str) -> graft::model::scene::Scene {
    graft::model::file::load(&Path::new("scenes").join(name)).unwrap()
}

/// Distance from `p` to the infinite line through `a` and `b`.
fn distance_to_line(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = (b - a).normalize();
    (p - a).perp_dot(d).abs()
}

/// Every drawn line of the node's grid lies on the image of its local line (within 0.5 px).
fn check_grid(scene: &graft::model::scene::Scene, id: NodeId) -> usize {
    let rect = ScreenRect::from_min_size(Vec2::new(250.0, 40.0), Vec2::new(800.0, 600.0));
    let mut camera = Camera::default();
    let (lo, hi) = world_bounds(scene, scene.ids()).unwrap();
    camera.fit(rect, lo, hi);
    let world = scene.world(id).unwrap();
    let m = camera.node_to_screen_f64(rect, &world);
    let LocalGrid::Lines {
        lines,
        axes,
        unit_square,
        ..
    } = local_grid(camera, rect, &world)
    else {
        panic!("{id} has a grid");
    };
    let mut checked = 0;
    for (axis, list) in lines.iter().enumerate() {
        for (s, e, value) in list {
            let (a, b) = if axis == 0 {
                (DVec2::new(*value, 0.0), DVec2::new(*value, 1.0))
            } else {
                (DVec2::new(0.0, *value), DVec2::new(1.0, *value))
            };
            let (a, b) = (m.transform_point2(a), m.transform_point2(b));
            for p in [s, e] {
                let d = distance_to_line(p.as_dvec2(), a, b);
                assert!(d <= 0.5, "{id}: line {axis}={value} is {d} px off");
            }
            checked += 1;
        }
    }
    assert!(
        axes[0].is_some() && axes[1].is_some(),
        "{id}: both axes in view"
    );
    for (corner, local) in unit_square
        .iter()
        .zip([DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y])
    {
        let want = m.transform_point2(local);
        assert!(
            (corner.as_dvec2() - want).length() <= 0.5,
            "{id}: unit square corner"
        );
    }
    checked
}

#[test]
fn the_grid_of_a_sheared_and_a_mirrored_node_is_their_world_matrix_on_unit_lines() {
    let shear = load("shear.ron");
    assert!(
        check_grid(&shear, NodeId(2)) > 6,
        "the rotated child's sheared grid"
    );
    let flip = load("flip.ron");
    let mirrored = (0..flip.len())
        .map(|i| flip.id_at(i))
        .find(|id| flip.world(*id).unwrap().matrix2.determinant() < 0.0)
        .expect("flip.ron has a mirrored node");
    assert!(check_grid(&flip, mirrored) > 6);
}

#[test]
fn a_node_under_a_zero_scale_parent_has_no_grid() {
    let scene = graft::model::file::parse(
        "(format: 1, nodes: [(id: 1, name: \"p\", scale: (0.0, 1.0)), (id: 2, name: \"c\", parent: Some(1))])",
        Path::new("zero.ron"),
    )
    .unwrap();
    let rect = ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
    let grid = local_grid(Camera::default(), rect, &scene.world(NodeId(2)).unwrap());
    assert!(matches!(grid, LocalGrid::Singular { .. }));
    let refused = carry_point(&scene, None, Some(NodeId(2)), DVec2::ONE).unwrap_err();
    assert!(refused.to_string().contains("singular"), "{refused}");
    // Into the world is still defined (the point lands on a line).
    assert!(carry_point(&scene, Some(NodeId(2)), None, DVec2::ONE).is_ok());
}

#[test]
fn spaces_are_named_by_world_id_or_unique_name() {
    let sword = load("sword.ron");
    assert_eq!(resolve_space(&sword, "world").unwrap(), None);
    assert_eq!(resolve_space(&sword, "arm").unwrap(), Some(NodeId(2)));
    assert_eq!(resolve_space(&sword, "4").unwrap(), Some(NodeId(4)));
    assert!(resolve_space(&sword, "nobody").is_err());
    // The seed's sheathing: the sword's origin, (2, 3) in the world, is (-3, 3) in the body.
    let p = carry_point(&sword, Some(NodeId(4)), Some(NodeId(1)), DVec2::ZERO).unwrap();
    assert!((p - DVec2::new(-3.0, 3.0)).length() < 1e-9, "{p}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Carrying a point agrees with the world matrices (1e-5 relative), is the identity from a
    /// node to itself, and there and back returns the point.
    #[test]
    fn carrying_points_agrees_with_the_world_matrices(
        seed in 0u64..10_000, n in 2usize..60, a in 0usize..60, b in 0usize..60,
        x in -100.0..100.0f64, y in -100.0..100.0f64,
    ) {
        let scene = generate(GenShape::Random, n, seed);
        let (a, b) = (scene.id_at(a % scene.len()), scene.id_at(b % scene.len()));
        let p = DVec2::new(x, y);
        let world = carry_point(&scene, Some(a), None, p).unwrap();
        let expected = scene.world(a).unwrap().transform_point2(p.as_vec2()).as_dvec2();
        let scale = 1.0 + expected.abs().max_element() + p.abs().max_element();
        prop_assert!((world - expected).abs().max_element() <= 1e-5 * scale, "{world} vs {expected}");
        prop_assert_eq!(carry_point(&scene, Some(a), Some(a), p).unwrap(), p);
        if let Ok(there) = carry_point(&scene, Some(a), Some(b), p) {
            let back = carry_point(&scene, Some(b), Some(a), there).unwrap();
            let cond = graft::model::math::condition_number(&scene.world(b).unwrap()) as f64;
            prop_assume!(cond < 1e4);
            prop_assert!((back - p).abs().max_element() <= 1e-6 * scale * cond, "{back} vs {p}");
        }
    }
}

#[test]
fn viewing_from_the_arm_puts_its_origin_and_x_axis_on_the_screen_axes() {
    use graft::editor::view::spaces::from_world;
    let sword = load("sword.ron");
    let rect = ScreenRect::from_min_size(Vec2::new(250.0, 40.0), Vec2::new(800.0, 600.0));
    let mut camera = Camera::new(DVec2::new(0.5, 0.5), 80.0);
    camera.set_view(from_world(&sword, Some(NodeId(2))).unwrap(), false);
    let arm = sword.world(NodeId(2)).unwrap();
    // The arm's world origin is the view's origin…
    let origin = camera.to_screen_f64(rect, arm.translation.as_dvec2());
    let view_origin = camera.view_to_screen(rect, DVec2::ZERO);
    assert!(
        (origin - view_origin).length() < 1e-6,
        "{origin} vs {view_origin}"
    );
    // …its x axis runs along the screen's x (the world, turned −90°, has its x pointing down).
    let x_axis = camera.dir_to_screen(arm.matrix2.x_axis);
    assert!((x_axis - Vec2::X).length() < 1e-6, "{x_axis}");
    assert!(
        (camera.dir_to_screen(Vec2::X) - Vec2::Y).length() < 1e-6,
        "world x points down"
    );
    // Screen → world → screen round-trips in the view.
    let p = Vec2::new(400.0, 300.0);
    let back = camera.to_screen_f64(rect, camera.to_world(rect, p));
    assert!((back - p.as_dvec2()).length() < 1e-6);
    // Switching spaces keeps the world point at the centre.
    let before = camera.world_center();
    camera.set_view(from_world(&sword, Some(NodeId(3))).unwrap(), true);
    assert!((camera.world_center() - before).length() < 1e-9);
}

#[test]
fn a_singular_node_cannot_be_viewed_from_and_the_editor_says_why() {
    use graft::editor::Editor;
    use graft::editor::session::command::{Command, ViewSpace};
    use graft::model::document::Document;
    let scene = graft::model::file::parse(
        "(format: 1, nodes: [(id: 1, name: \"flat\", scale: (0.0, 1.0)), (id: 2, name: \"c\", parent: Some(1))])",
        Path::new("zero.ron"),
    )
    .unwrap();
    let mut editor = Editor::new(Document::untitled(scene));
    let refused = editor
        .apply(Command::View(ViewCommand::SetViewSpace(ViewSpace::Node(
            NodeId(2),
        ))))
        .unwrap_err();
    assert!(
        refused.to_string().contains("Cannot view from c"),
        "{refused}"
    );
    assert_eq!(editor.view_space(), ViewSpace::World);
    // Following the selection onto a singular node falls back to the world, with the reason.
    editor
        .apply(Command::View(ViewCommand::SetViewSpace(
            ViewSpace::Selection,
        )))
        .unwrap();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            2,
        )])))
        .unwrap();
    let (node, _, why) = editor.view_node();
    assert_eq!(node, None);
    assert!(why.is_some_and(|w| w.contains("singular")));
}

/// Composition side by side: under uniform scale the accumulated ghost coincides with the true
/// node; under a rotated child of a (2, 1)-scaled parent it drifts away.
#[test]
fn accumulated_ghosts_coincide_under_uniform_scale_and_drift_under_shear() {
    use graft::editor::view::overlay::accumulated_ghosts;
    let mut scene = load("shear.ron");
    scene.update_world();
    let rect = ScreenRect::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(800.0, 600.0));
    let mut camera = Camera::default();
    let (lo, hi) = world_bounds(&scene, scene.ids()).unwrap();
    camera.fit(rect, lo, hi);
    let ghosts = accumulated_ghosts(&scene, camera, rect);
    let error = |id: u32| ghosts.iter().find(|g| g.node == NodeId(id)).unwrap().error;
    assert!(error(1) < 1e-6, "a root is its own accumulation");
    assert!(
        error(2) > 0.1,
        "the rotated child of the stretched parent drifts: {}",
        error(2)
    );
    assert!(
        error(4) < 1e-5,
        "a scaled child of a rotated, uniformly scaled parent coincides: {}",
        error(4)
    );
}
