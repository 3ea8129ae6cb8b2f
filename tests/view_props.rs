//! The view far from the origin, without a window: the grid is bounded and labelled truly at
//! any camera, drawing is camera-relative (a tiny rect at (1e5, 1e5) lands where its numbers
//! say), zoom stops at f32's precision, and framing works from 1e-3 to 1e7 units across.

use glam::{Affine2, DVec2, Vec2};
use graft::editor::view::camera::{Camera, MAX_ZOOM, MIN_ZOOM, ScreenRect, f32_step_at};
use graft::editor::view::geometry::{ScreenShape, hit_test, world_bounds};
use graft::editor::view::grid::{GRID_LINE_CAP, grid, grid_step};
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene, Shape};
use proptest::prelude::*;

fn one_node(position: Vec2, size: Vec2) -> Scene {
    let mut data = NodeData::named("far", Trs::new(position, 0.0, Vec2::ONE, 0.0));
    data.shape = Shape::Rect { size };
    Scene::from_specs(vec![NodeSpec {
        id: NodeId(1),
        parent: None,
        data,
    }])
    .unwrap()
}

fn view(w: f32, h: f32) -> ScreenRect {
    ScreenRect::from_min_size(Vec2::new(250.0, 40.0), Vec2::new(w, h))
}

fn centre() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e7..1e7f64,
        -3e38..3e38f64,
        -1e3..1e3f64,
        Just(100000.0),
        Just(f32::MAX as f64),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// At any centre up to ±3e38, any allowed zoom and any viewport size, the grid has at most
    /// its cap of lines per direction, lines are distinct, inside the view and labelled with
    /// their own coordinate.
    #[test]
    fn the_grid_is_bounded_and_labels_its_lines_truly(
        cx in centre(), cy in centre(), zoom_t in 0.0..1.0f64,
        w in 1.0..4000.0f32, h in 1.0..3000.0f32,
    ) {
        let rect = view(w, h);
        let mut camera = Camera::new(DVec2::new(cx, cy), 1.0);
        let (lo, hi) = camera.zoom_limits(rect);
        prop_assert!(MIN_ZOOM <= lo && lo <= hi && hi <= MAX_ZOOM);
        camera.zoom = (lo.ln() + (hi.ln() - lo.ln()) * zoom_t).exp();
        let g = grid(camera, rect);
        let step = grid_step(camera.zoom);
        prop_assert_eq!(g.step, step);
        prop_assert!(step * camera.zoom >= 40.0 * (1.0 - 1e-9), "lines at least 40 px apart");
        for lines in [&g.vertical, &g.horizontal] {
            prop_assert!(lines.len() <= GRID_LINE_CAP);
            for pair in lines.windows(2) {
                prop_assert!(pair[1].value > pair[0].value, "distinct, increasing");
                prop_assert!(pair[0].label != pair[1].label, "{} twice", pair[0].label);
            }
            for l in lines.iter() {
                let read: f64 = l.label.parse().map_err(|_| TestCaseError::fail(l.label.clone()))?;
                prop_assert!(
                    (read - l.value).abs() <= step * 1e-6,
                    "label {} for a line at {}", l.label, l.value
                );
                prop_assert!((l.value / step - (l.value / step).round()).abs() < 1e-6);
            }
        }
        for l in &g.vertical {
            prop_assert!(l.screen >= rect.min.x - 1.0 && l.screen <= rect.max.x + 1.0);
        }
        for l in &g.horizontal {
            prop_assert!(l.screen >= rect.min.y - 1.0 && l.screen <= rect.max.y + 1.0);
        }
    }

    /// Zooming around any pointer stays within the limits, and the world point under the
    /// pointer stays under it (to well under a pixel).
    #[test]
    fn zooming_stays_in_limits_and_keeps_the_point_under_the_pointer(
        cx in centre(), cy in centre(), factor in 0.01..100.0f64,
        ax in 250.0..1050.0f32, ay in 40.0..640.0f32,
    ) {
        let rect = view(800.0, 600.0);
        let mut camera = Camera::new(DVec2::new(cx, cy), 50.0);
        camera.clamp_zoom(rect);
        let anchor = Vec2::new(ax, ay);
        let under = camera.to_world(rect, anchor);
        camera.zoom_around(rect, anchor, factor);
        let (lo, hi) = camera.zoom_limits(rect);
        prop_assert!(camera.zoom >= lo && camera.zoom <= hi);
        let back = camera.to_screen_f64(rect, under);
        prop_assert!((back - anchor.as_dvec2()).abs().max_element() < 0.5, "{back} vs {anchor}");
    }
}

#[test]
fn a_tiny_rect_far_out_is_drawn_where_its_numbers_say() {
    // A 0.01-unit rect at (1e5, 1e5), zoomed to fill the view.
    let scene = one_node(Vec2::new(1e5, 1e5), Vec2::splat(0.01));
    let rect = view(800.0, 600.0);
    let mut camera = Camera::default();
    let (lo, hi) = world_bounds(&scene, &[NodeId(1)]).unwrap();
    camera.fit(rect, lo, hi);
    assert!(
        camera.zoom > 40_000.0,
        "zoomed in far enough to fill the view: {}",
        camera.zoom
    );
    let world = scene.world(NodeId(1)).unwrap();
    let m = camera.node_to_screen_f64(rect, &world);
    let mut shape = ScreenShape::new();
    shape.compute(&scene.data_at(0).shape, &m, rect);
    // Where the numbers say: the corners at 1e5 ± 0.005, mapped exactly in f64.
    let exact = |x: f64, y: f64| camera.to_screen_f64(rect, DVec2::new(x, y));
    let expected = [
        exact(1e5 - 0.005, 1e5 - 0.005),
        exact(1e5 + 0.005, 1e5 - 0.005),
        exact(1e5 + 0.005, 1e5 + 0.005),
        exact(1e5 - 0.005, 1e5 + 0.005),
    ];
    assert_eq!(shape.outline.len(), 4);
    for (drawn, want) in shape.outline.iter().zip(expected) {
        assert!(
            (drawn.as_dvec2() - want).abs().max_element() <= 1.0,
            "{drawn} vs {want}"
        );
    }
    let width = shape.outline[1].x - shape.outline[0].x;
    assert!((width as f64 - 0.01 * camera.zoom).abs() < 1.0);
    // The f32 path the viewport used before (world points first, then the screen) cannot say
    // this: 1e5 + 0.005 is not an f32 number, so corners snap to steps of 1/128 unit.
    let naive =
        world.transform_point2(Vec2::splat(0.005)) - world.transform_point2(Vec2::splat(-0.005));
    assert!(
        (naive.x - 0.01).abs() > 1e-3,
        "the old path really did lose this: {naive}"
    );
    // Clicking the middle of the rect selects it; clicking just outside does not.
    let middle = exact(1e5, 1e5).as_vec2();
    assert_eq!(hit_test(&scene, camera, rect, middle, 0.0), Some(NodeId(1)));
    let outside = exact(1e5 + 0.006, 1e5).as_vec2();
    assert_eq!(hit_test(&scene, camera, rect, outside, 0.0), None);
}

#[test]
fn zoom_stops_where_one_f32_step_spans_the_view() {
    let rect = view(800.0, 600.0);
    for x in [1e5, 1e7, 3e7, 1e12, 3e38] {
        let mut camera = Camera::new(DVec2::new(x, 0.0), 1.0);
        for _ in 0..400 {
            camera.zoom_around(rect, rect.center(), 1.5);
        }
        let step = f32_step_at(x);
        assert!(
            step * camera.zoom <= 800.0 * (1.0 + 1e-9),
            "at {x}: {} px per f32 step",
            step * camera.zoom
        );
        assert!(camera.precision_note().is_some(), "the view says so at {x}");
    }
    let near_origin = Camera::new(DVec2::new(3.0, 1.5), 50.0);
    assert!(near_origin.precision_note().is_none());
}

#[test]
fn framing_works_from_a_thousandth_to_ten_million_units_across() {
    let rect = view(800.0, 600.0);
    for (position, size) in [
        (Vec2::ZERO, 1e-3f32),
        (Vec2::new(3.0, -2.0), 1.0),
        (Vec2::new(1e5, 1e5), 0.01),
        (Vec2::new(-4e6, 2e6), 1e7),
        (Vec2::new(1e7, 0.0), 1.0),
    ] {
        let scene = one_node(position, Vec2::splat(size));
        let (lo, hi) = world_bounds(&scene, &[NodeId(1)]).unwrap();
        let mut camera = Camera::default();
        camera.fit(rect, lo, hi);
        let pixels = size as f64 * camera.zoom;
        let wanted = 0.8 * 600.0;
        // Far out, a tiny shape can only be shown as big as f32 allows; otherwise it fills 80%.
        let limited = camera.zoom >= camera.zoom_limits(rect).1 * (1.0 - 1e-9);
        assert!(
            (pixels - wanted).abs() < 1.0 || (limited && pixels < wanted),
            "{size} at {position}: {pixels} px"
        );
        let centre = camera.to_screen(rect, position);
        assert!((centre - rect.center()).abs().max_element() < 1.0);
    }
}

#[test]
fn a_huge_shape_is_clipped_before_it_reaches_f32() {
    let rect = view(800.0, 600.0);
    let camera = Camera::new(DVec2::new(0.3, 0.2), 1e6);
    let world = Trs::new(Vec2::ZERO, 30.0, Vec2::splat(1e30), 0.0).to_affine();
    let m = camera.node_to_screen_f64(rect, &world);
    let mut shape = ScreenShape::new();
    let rect_shape = Shape::Rect { size: Vec2::ONE };
    shape.compute(&rect_shape, &m, rect);
    assert!(!shape.whole);
    assert!(shape.outline.len() >= 3);
    for p in &shape.outline {
        assert!(p.is_finite() && rect.expand(4096.0).contains(*p), "{p}");
    }
    // Identity near the origin: nothing clipped, exactly the four corners.
    let m = camera.node_to_screen_f64(rect, &Affine2::from_translation(Vec2::new(0.3, 0.2)));
    shape.compute(
        &Shape::Rect {
            size: Vec2::splat(1e-4),
        },
        &m,
        rect,
    );
    assert!(shape.whole);
    assert_eq!(shape.outline.len(), 4);
}
