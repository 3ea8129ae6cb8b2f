//! Planning a viewport frame of a big scene (no window): every node is drawn, splatted or
//! skipped exactly as the node-by-node rule says, on one thread or two; subtree boxes stay
//! correct while nodes are dragged; a selected node is always drawn.

use glam::{DVec2, Vec2};
use graft::editor::camera::{Camera, ScreenRect};
use graft::editor::cull::{Extents, SubtreeBounds};
use graft::editor::frame_plan::{FramePlan, PlanInput, plan};
use graft::editor::geometry::{screen_extent, world_bounds};
use graft::generate::{GenShape, generate};
use graft::scene::Scene;
use rustc_hash::FxHashSet;

fn view() -> ScreenRect {
    ScreenRect::from_min_size(Vec2::new(250.0, 40.0), Vec2::new(800.0, 600.0))
}

/// A camera showing the whole scene, zoomed by `zoom`.
fn camera(scene: &Scene, zoom: f64) -> Camera {
    let mut camera = Camera::default();
    let (lo, hi) = world_bounds(scene, scene.ids()).expect("bounds");
    camera.fit(view(), lo, hi);
    camera.zoom *= zoom;
    camera
}

fn plan_with(scene: &Scene, camera: Camera, threads: usize, selected: &[u32]) -> FramePlan {
    let mut extents = Extents::default();
    extents.refresh(scene);
    let mut bounds = SubtreeBounds::default();
    bounds.refresh(scene, &extents);
    let selected: FxHashSet<u32> = selected.iter().copied().collect();
    let mut protected = FxHashSet::default();
    for &i in &selected {
        let mut at = Some(i as usize);
        while let Some(k) = at {
            protected.insert(k as u32);
            at = scene.parent_index_at(k);
        }
    }
    let input = PlanInput {
        scene,
        extents: &extents,
        bounds: &bounds,
        camera,
        view: view(),
        tiny: 2.0,
        protected: &protected,
        selected: &selected,
        links: true,
        shear: true,
    };
    plan(&input, threads, FramePlan::default())
}

/// The node-by-node rule: a node with a shape is drawn when its screen box reaches the view
/// and is at least 2 px (half-extent) on one axis.
fn must_draw(scene: &Scene, camera: Camera, i: usize) -> bool {
    let data = scene.data_at(i);
    let half = graft::editor::geometry::half_size(&data.shape);
    let m = camera.node_to_screen_f64(view(), &scene.world_at(i));
    let extent = screen_extent(&m, half);
    let (lo, hi) = (view().min.as_dvec2(), view().max.as_dvec2());
    let reach = extent + DVec2::splat(4.0);
    let on = (m.translation + reach).cmpge(lo).all() && (m.translation - reach).cmple(hi).all();
    half != Vec2::ZERO && on && extent.max_element() >= 2.0
}

#[test]
fn two_threads_plan_what_one_does() {
    let mut scene = generate(GenShape::Random, 120_000, 7);
    scene.update_world();
    for zoom in [1.0, 30.0] {
        let camera = camera(&scene, zoom);
        let one = plan_with(&scene, camera, 1, &[]);
        let two = plan_with(&scene, camera, 2, &[]);
        assert_eq!(one.draw, two.draw, "zoom {zoom}");
        assert_eq!(one.shear, two.shear);
        assert_eq!(one.links.len(), two.links.len());
        let area = |p: &FramePlan| {
            let sum = |g: &graft::editor::frame_plan::DensityGrid| {
                g.sums.iter().map(|c| c[3] as f64).sum::<f64>()
            };
            sum(&p.density) + sum(&p.coarse)
        };
        let (a, b) = (area(&one), area(&two));
        assert!(
            (a - b).abs() <= 1e-3 * a.max(1.0),
            "splatted area {a} vs {b}"
        );
        // Every node the rule says to draw is drawn (a tiny subtree may hold none of them).
        for i in 0..scene.len() {
            if must_draw(&scene, camera, i) {
                assert!(
                    one.draw.binary_search(&(i as u32)).is_ok(),
                    "node {i} not drawn"
                );
            }
        }
        assert!(
            one.density.count > 0,
            "something is splatted at zoom {zoom}"
        );
    }
}

#[test]
fn a_selected_tiny_node_is_drawn_and_far_subtrees_are_skipped() {
    let mut scene = generate(GenShape::Random, 60_000, 3);
    scene.update_world();
    let camera = camera(&scene, 1.0);
    let plain = plan_with(&scene, camera, 1, &[]);
    let tiny = (0..scene.len() as u32)
        .rev()
        .find(|&i| {
            plain.draw.binary_search(&i).is_err()
                && graft::editor::geometry::half_size(&scene.data_at(i as usize).shape)
                    != Vec2::ZERO
        })
        .expect("a node that is not drawn");
    let with = plan_with(&scene, camera, 2, &[tiny]);
    assert!(with.draw.contains(&tiny));
    // Far away from everything, nothing is drawn or splatted.
    let mut away = camera;
    away.center += DVec2::splat(1e9);
    let nothing = plan_with(&scene, away, 2, &[]);
    assert!(nothing.draw.is_empty());
    assert_eq!(nothing.splatted(), 0);
}

#[test]
fn subtree_boxes_stay_correct_while_nodes_move() {
    let mut scene = generate(GenShape::Random, 5_000, 11);
    scene.update_world();
    let mut extents = Extents::default();
    extents.refresh(&scene);
    let mut bounds = SubtreeBounds::default();
    bounds.refresh(&scene, &extents);
    let contains_all = |scene: &Scene, bounds: &SubtreeBounds| {
        for i in 0..scene.len() {
            let t = scene.world_at(i).translation;
            let mut at = Some(i);
            while let Some(a) = at {
                let [x0, y0, x1, y1] = bounds.subtree_box(a).unwrap();
                assert!(
                    x0 <= t.x && t.x <= x1 && y0 <= t.y && t.y <= y1,
                    "node {i} in {a}"
                );
                at = scene.parent_index_at(a);
            }
        }
    };
    let (mut followed, mut big) = (0, 0);
    for k in 0..40u32 {
        // Drag a node somewhere far, one update pass at a time, as a drag does.
        let id = scene.id_at((k as usize * 97) % scene.len());
        let mut local = scene.node(id).unwrap().local;
        local.position += Vec2::new(50.0 * k as f32, -30.0);
        scene.set_local(id, local).unwrap();
        scene.update_world();
        let full = bounds.full_passes;
        bounds.refresh(&scene, &extents);
        if scene.last_recomputed() > scene.len() / 8 {
            big += 1;
            // Most of the scene moved: the boxes are set aside, not recomputed every frame...
            assert!(!bounds.is_valid());
            // ...until a frame where nothing moved.
            bounds.refresh(&scene, &extents);
            assert!(bounds.is_valid());
        } else if bounds.full_passes == full {
            followed += 1;
        }
        // Whenever they are used, every node's origin lies in each of its ancestors' boxes.
        assert!(bounds.is_valid());
        contains_all(&scene, &bounds);
    }
    assert!(big > 0 && followed > 20, "big {big}, followed {followed}");
}
