//! Viewport math without a window: the camera's world ↔ screen mapping and zoom, hit testing
//! through sheared and mirrored world matrices, handle picking and the ops handle drags ask for.

use glam::{DVec2, Vec2};
use graft::editor::view::camera::{Camera, ScreenRect};
use graft::editor::view::geometry::hit_test_world;
use graft::model::scene::NodeId;
use std::path::Path;

fn load(name: &str) -> graft::model::scene::Scene {
    graft::model::file::load(&Path::new("scenes").join(name)).unwrap()
}

#[test]
fn camera_maps_world_to_screen_with_y_up_and_zooms_around_the_pointer() {
    let rect = ScreenRect::from_min_size(Vec2::new(100.0, 50.0), Vec2::new(800.0, 600.0));
    let mut camera = Camera::new(DVec2::new(2.0, 1.0), 40.0);
    assert_eq!(camera.to_screen(rect, Vec2::new(2.0, 1.0)), rect.center());
    let up = camera.to_screen(rect, Vec2::new(2.0, 2.0));
    assert!(up.y < rect.center().y, "world y up is screen up");
    assert!((up.y - (rect.center().y - 40.0)).abs() < 1e-4);
    for p in [Vec2::new(-3.5, 7.25), Vec2::new(100.0, -0.125)] {
        let back = camera.to_world(rect, camera.to_screen(rect, p));
        assert!(
            (back - p.as_dvec2()).abs().max_element() < 1e-3,
            "{p} -> {back}"
        );
    }
    let anchor = Vec2::new(300.0, 200.0);
    let under = camera.to_world(rect, anchor);
    camera.zoom_around(rect, anchor, 2.5);
    assert_eq!(camera.zoom, 100.0);
    assert!(
        (camera.to_world(rect, anchor) - under).abs().max_element() < 1e-9,
        "the point under the pointer stays"
    );
}

#[test]
fn hit_testing_follows_shear_and_mirrors() {
    let shear = load("shear.ron");
    // The child's unit square becomes a rhombus: its world matrix maps local (0.45, 0.45) far
    // from where an unsheared square would be.
    let world = shear.world(NodeId(2)).unwrap();
    let inside = world.transform_point2(Vec2::new(0.45, 0.45));
    assert_eq!(
        hit_test_world(&shear, inside.as_dvec2(), 0.0),
        Some(NodeId(2))
    );
    let outside = world.transform_point2(Vec2::new(0.55, 0.0));
    assert_ne!(
        hit_test_world(&shear, outside.as_dvec2(), 0.0),
        Some(NodeId(2))
    );
    // A point inside the square's axis-aligned box but outside the rhombus misses.
    let corner = world.translation + Vec2::new(0.9, 0.9);
    assert_ne!(
        hit_test_world(&shear, corner.as_dvec2(), 0.0),
        Some(NodeId(2))
    );

    let flip = load("flip.ron");
    let fish = flip.world(NodeId(2)).unwrap();
    assert!(fish.matrix2.determinant() < 0.0);
    assert_eq!(
        hit_test_world(
            &flip,
            fish.transform_point2(Vec2::new(0.9, 0.4)).as_dvec2(),
            0.0
        ),
        Some(NodeId(2))
    );
    assert_ne!(
        hit_test_world(
            &flip,
            fish.transform_point2(Vec2::new(1.1, 0.0)).as_dvec2(),
            0.0
        ),
        Some(NodeId(2))
    );
}

mod handle_math {
    use super::*;
    use graft::editor::view::handles::{
        HandleDrag, Orientation, Part, Tool, along, drag_op, pick, rotation_delta, scale_factor,
        snap,
    };
    use graft::model::scene::edit::Op;

    #[test]
    fn snapping_projection_rotation_and_scale_factors() {
        assert_eq!(snap(0.26, 0.5), 0.5);
        assert_eq!(snap(-37.0, 15.0), -30.0);
        assert_eq!(snap(1.04, 0.1), 1.0);
        assert_eq!(
            along(Vec2::new(3.0, 4.0), Vec2::new(2.0, 0.0)),
            Vec2::new(3.0, 0.0)
        );
        assert!(
            (rotation_delta(Vec2::ZERO, Vec2::X, Vec2::Y) - 90.0).abs() < 1e-4,
            "counter-clockwise is positive"
        );
        assert!(
            (rotation_delta(Vec2::ONE, Vec2::new(2.0, 1.0), Vec2::new(1.0, 0.0)) + 90.0).abs()
                < 1e-4
        );
        assert_eq!(
            scale_factor(
                Vec2::ZERO,
                Vec2::X,
                Vec2::new(2.0, 5.0),
                Vec2::new(3.0, -1.0)
            ),
            1.5
        );
    }

    #[test]
    fn handles_are_picked_along_the_node_axes() {
        let rect = ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
        let camera = Camera::new(DVec2::ZERO, 50.0);
        let world = graft::model::math::Trs::new(Vec2::ZERO, 90.0, Vec2::ONE, 0.0).to_affine();
        let axes = graft::editor::view::handles::handle_axes(&world, Orientation::Local);
        let c = rect.center();
        // Local x of a node turned 90° points up on screen.
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(0.0, -50.0)
            ),
            Some(Part::AxisX)
        );
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(-50.0, 0.0)
            ),
            Some(Part::AxisY)
        );
        assert_eq!(
            pick(Tool::Move, camera, rect, &world, axes, c),
            Some(Part::Center)
        );
        assert_eq!(
            pick(
                Tool::Move,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(50.0, 50.0)
            ),
            None
        );
        assert_eq!(
            pick(
                Tool::Rotate,
                camera,
                rect,
                &world,
                axes,
                c + Vec2::new(70.0, 0.0)
            ),
            Some(Part::Ring)
        );
        let world_axes = graft::editor::view::handles::handle_axes(&world, Orientation::World);
        assert_eq!(
            pick(
                Tool::Scale,
                camera,
                rect,
                &world,
                world_axes,
                c + Vec2::new(50.0, 0.0)
            ),
            Some(Part::AxisX)
        );
    }

    #[test]
    fn scaling_a_rotated_node_along_world_x_shears_it_honestly_and_local_does_not() {
        let fixed = graft::model::math::Trs::new(Vec2::ZERO, 45.0, Vec2::ONE, 0.0);
        let world = fixed.to_affine();
        let drag = |orientation| HandleDrag {
            part: Part::AxisX,
            node: NodeId(1),
            start_pointer: DVec2::new(1.0, 0.0),
            start_world: world,
            start_local: fixed,
            axes: graft::editor::view::handles::handle_axes(&world, orientation),
            orientation,
        };
        let Some(Op::SetWorld {
            world: stretched, ..
        }) = drag_op(
            Tool::Scale,
            &drag(Orientation::World),
            DVec2::new(2.0, 0.0),
            false,
            1.0,
        )
        else {
            panic!()
        };
        assert!(
            stretched.skew.abs() > 1.0,
            "world-axis scale of a 45° node needs skew: {stretched:?}"
        );
        assert!(graft::model::math::shear_metrics(&stretched.to_affine()).is_sheared(0.01));
        let local_axis = graft::editor::view::handles::handle_axes(&world, Orientation::Local).0;
        let Some(Op::SetLocal { local, .. }) = drag_op(
            Tool::Scale,
            &HandleDrag {
                start_pointer: local_axis.as_dvec2(),
                ..drag(Orientation::Local)
            },
            (local_axis * 2.0).as_dvec2(),
            false,
            1.0,
        ) else {
            panic!()
        };
        assert_eq!(local.scale, Vec2::new(2.0, 1.0));
        assert_eq!(local.skew, 0.0);
        // Rotating with Ctrl snaps the world rotation to 15°.
        let Some(Op::SetWorld { world: turned, .. }) = drag_op(
            Tool::Rotate,
            &HandleDrag {
                part: Part::Ring,
                ..drag(Orientation::Local)
            },
            DVec2::new(0.8, 0.75),
            true,
            1.0,
        ) else {
            panic!()
        };
        assert_eq!(turned.rotation % 15.0, 0.0, "{turned:?}");
    }
}

#[test]
fn the_node_matrix_agrees_with_to_screen() {
    let rect = ScreenRect::from_min_size(Vec2::new(30.0, 20.0), Vec2::new(640.0, 480.0));
    let camera = Camera::new(DVec2::new(-1.5, 2.0), 33.0);
    let world = graft::model::math::Trs::new(Vec2::new(4.0, -2.5), 30.0, Vec2::new(2.0, 0.5), 10.0)
        .to_affine();
    let m = camera.node_to_screen(rect, &world);
    for p in [Vec2::ZERO, Vec2::new(4.0, -2.5), Vec2::new(-100.0, 7.0)] {
        let a = camera.to_screen(rect, world.transform_point2(p));
        let b = m.transform_point2(p);
        assert!((a - b).abs().max_element() < 1e-3, "{a:?} vs {b:?}");
    }
}
