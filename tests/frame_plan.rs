//! Planning a viewport frame of a big scene (no window): every node is drawn, splatted or
//! skipped exactly as the node-by-node rule says, on one thread or two; subtree boxes stay
//! correct while nodes are dragged; a selected node is always drawn.

use glam::{DVec2, Vec2};
use graft::editor::view::camera::{Camera, ScreenRect};
use graft::editor::view::cull_cache::{Extents, SubtreeBounds};
use graft::editor::view::frame_plan::{FramePlan, PlanInput, PlanJob, plan, plan_ranges};
use graft::editor::view::geometry::{screen_extent, world_bounds};
use graft::model::scene::Scene;
use graft::tools::generate::{GenShape, generate};
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
        skip: &[],
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
    let half = graft::editor::view::geometry::half_size(&data.shape);
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
            let sum = |g: &graft::editor::view::frame_plan::DensityGrid| {
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
                && graft::editor::view::geometry::half_size(&scene.data_at(i as usize).shape)
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

/// Plan the whole view with splat threshold `tiny`, leaving out `skip`, and (second) plan the
/// `skip` ranges alone.
fn plan_split(
    scene: &Scene,
    camera: Camera,
    tiny: f64,
    skip: &[(u32, u32)],
) -> (FramePlan, FramePlan) {
    let mut extents = Extents::default();
    extents.refresh(scene);
    let mut bounds = SubtreeBounds::default();
    bounds.refresh(scene, &extents);
    let none = FxHashSet::default();
    let mut protected = FxHashSet::default();
    for &(start, _) in skip {
        let mut at = scene.parent_index_at(start as usize);
        while let Some(k) = at {
            protected.insert(k as u32);
            at = scene.parent_index_at(k);
        }
    }
    let input = PlanInput {
        skip,
        scene,
        extents: &extents,
        bounds: &bounds,
        camera,
        view: view(),
        tiny,
        protected: &protected,
        selected: &none,
        links: true,
        shear: true,
    };
    let rest = plan(&input, 2, FramePlan::default());
    let alone = PlanInput {
        skip: &[],
        tiny: 0.0,
        ..input
    };
    (rest, plan_ranges(&alone, skip))
}

/// A drag frame keeps the layer planned without the moving subtrees and plans those alone:
/// together they draw exactly what the whole plan draws (nothing splatted), each node once,
/// and the kept part never draws or splats a moving node.
#[test]
fn the_kept_part_plus_the_moving_subtrees_is_the_whole_plan() {
    let mut scene = generate(GenShape::Random, 60_000, 5);
    scene.update_world();
    let mut skip: Vec<(u32, u32)> = Vec::new();
    for start in [300usize, 20_000, 41_234, 59_999] {
        let end = start + scene.subtree_len_at(start);
        if skip
            .iter()
            .all(|&(a, b)| end as u32 <= a || start as u32 >= b)
        {
            skip.push((start as u32, end as u32));
        }
    }
    skip.sort_unstable();
    let moving: usize = skip.iter().map(|&(a, b)| (b - a) as usize).sum();
    assert!(skip.len() >= 3 && moving > 3, "{skip:?}");
    let inside = |i: u32| skip.iter().any(|&(a, b)| a <= i && i < b);
    for zoom in [1.0, 30.0] {
        let camera = camera(&scene, zoom);
        let (whole, _) = plan_split(&scene, camera, 0.0, &[]);
        let (rest, alone) = plan_split(&scene, camera, 0.0, &skip);
        assert!(rest.draw.iter().all(|&i| !inside(i)), "zoom {zoom}");
        assert!(alone.draw.iter().all(|&i| inside(i)), "zoom {zoom}");
        let mut both: Vec<u32> = rest.draw.iter().chain(&alone.draw).copied().collect();
        both.sort_unstable();
        assert_eq!(both, whole.draw, "zoom {zoom}");
        assert!(!alone.draw.is_empty() || zoom > 1.0);
        // With splats too, the kept part draws no moving node.
        let (rest, _) = plan_split(&scene, camera, 2.0, &skip);
        assert!(rest.draw.iter().all(|&i| !inside(i)));
    }
}

/// A node with a shape at `position` (a `size` rect or ellipse, this colour), a root.
fn spec(
    id: u32,
    position: Vec2,
    size: f32,
    ellipse: bool,
    alpha: u8,
) -> graft::model::scene::NodeSpec {
    let size = Vec2::splat(size);
    graft::model::scene::NodeSpec {
        id: graft::model::scene::NodeId(id),
        parent: None,
        data: graft::model::scene::NodeData {
            local: graft::model::math::Trs::from_position(position),
            shape: if ellipse {
                graft::model::scene::Shape::Ellipse { size }
            } else {
                graft::model::scene::Shape::Rect { size }
            },
            color: [200, 100, 50, alpha],
            ..Default::default()
        },
    }
}

/// Occlusion: a node wholly under an opaque shape drawn after it is hidden; one under a
/// translucent shape, one only partly covered, one drawn after the cover and a selected one
/// are not.
#[test]
fn only_nodes_wholly_under_later_opaque_shapes_are_hidden() {
    use graft::editor::view::occlusion::visible_nodes;
    let mut scene = Scene::from_specs(vec![
        spec(1, Vec2::new(0.0, 0.0), 1.0, false, 255), // under the big ellipse: hidden
        spec(2, Vec2::new(4.5, 0.0), 1.0, false, 255), // half out of it: shown
        spec(3, Vec2::new(-1.0, 0.5), 1.0, true, 255), // under it, but selected: shown
        spec(4, Vec2::new(20.0, 0.0), 1.0, false, 255), // under the translucent rect: shown
        spec(5, Vec2::new(0.0, 0.0), 10.0, true, 255), // the big opaque ellipse
        spec(6, Vec2::new(20.0, 0.0), 10.0, false, 128), // a big translucent rect
        spec(7, Vec2::new(1.0, 1.0), 1.0, false, 255), // drawn after the ellipse: shown
    ])
    .expect("scene");
    scene.update_world();
    let camera = Camera {
        center: DVec2::new(10.0, 0.0),
        zoom: 20.0,
        ..Default::default()
    };
    let mut extents = Extents::default();
    extents.refresh(&scene);
    let bounds = SubtreeBounds::default();
    let none = FxHashSet::default();
    let input = PlanInput {
        skip: &[],
        scene: &scene,
        extents: &extents,
        bounds: &bounds,
        camera,
        view: view(),
        tiny: 0.0,
        protected: &none,
        selected: &none,
        links: false,
        shear: false,
    };
    let kept = plan(&input, 1, FramePlan::default());
    assert_eq!(kept.draw, (0..7).collect::<Vec<u32>>());
    let selected: FxHashSet<u32> = [2u32].into_iter().collect();
    let shown = visible_nodes(view(), &kept.draw, &kept.screen, &selected);
    assert_eq!(shown, [false, true, true, true, true, true, true]);
    // Nothing selected: the ellipse under the big one is hidden too.
    let shown = visible_nodes(view(), &kept.draw, &kept.screen, &FxHashSet::default());
    assert_eq!(shown, [false, true, false, true, true, true, true]);
}

/// A plan made a piece at a time over many calls (no time budget: one round each) is the plan
/// made at once.
#[test]
fn a_plan_made_over_several_frames_is_the_plan_made_at_once() {
    let mut scene = generate(GenShape::Random, 120_000, 11);
    scene.update_world();
    let mut extents = Extents::default();
    extents.refresh(&scene);
    let mut bounds = SubtreeBounds::default();
    bounds.refresh(&scene, &extents);
    let none = FxHashSet::default();
    for zoom in [1.0, 30.0] {
        let input = PlanInput {
            skip: &[],
            scene: &scene,
            extents: &extents,
            bounds: &bounds,
            camera: camera(&scene, zoom),
            view: view(),
            tiny: 2.0,
            protected: &none,
            selected: &none,
            links: true,
            shear: true,
        };
        let whole = plan(&input, 2, FramePlan::default());
        let mut job = PlanJob::new(&input);
        let mut calls = 0;
        while !job.advance(&input, 2, std::time::Duration::ZERO) {
            calls += 1;
            assert!(job.progress() < 1.0);
        }
        assert!(calls >= 3, "a round at a time: {calls}");
        let parts = job.finish();
        assert_eq!(parts.draw, whole.draw, "zoom {zoom}");
        assert_eq!(parts.shear, whole.shear);
        assert_eq!(parts.links.len(), whole.links.len());
        assert_eq!(parts.splatted(), whole.splatted());
        let area = |p: &FramePlan| p.density.sums.iter().map(|c| c[3] as f64).sum::<f64>();
        let (a, b) = (area(&parts), area(&whole));
        assert!(
            (a - b).abs() <= 1e-3 * a.max(1.0),
            "splatted area {a} vs {b}"
        );
    }
}

/// With everything selected in a big scene, the plan still splats: only the most recent
/// selected nodes (the primary among them) are always drawn, the rest are planned like others.
#[test]
fn a_huge_selection_keeps_the_level_of_detail() {
    use graft::editor::view::frame_plan::{ALWAYS_DRAWN_SELECTED, selection_indices};
    let scene = generate(GenShape::Random, 30_000, 9);
    let all = scene.ids().to_vec();
    let (protected, selected) = selection_indices(&scene, &all);
    assert_eq!(selected.len(), ALWAYS_DRAWN_SELECTED);
    let primary = scene.index(*all.last().unwrap()).unwrap() as u32;
    assert!(selected.contains(&primary) && protected.contains(&primary));
    let few = &all[..10];
    let (_, selected) = selection_indices(&scene, few);
    assert_eq!(selected.len(), 10, "small selections are drawn whole");
}

/// Shear candidates are only nodes whose world axes are not perpendicular (the overlay looks
/// at each of them every frame), and the marks drawn from them are those of the whole scene.
#[test]
fn shear_candidates_are_sheared_nodes_and_give_the_whole_overlay() {
    use graft::editor::view::overlay::{
        may_be_sheared, shear_overlay_among, shear_overlay_on_screen,
    };
    let mut scene = generate(GenShape::Random, 3_000, 5);
    scene.update_world();
    let camera = camera(&scene, 4.0);
    let planned = plan_with(&scene, camera, 1, &[]);
    assert!(!planned.shear.is_empty(), "random scenes shear");
    let unsheared = (0..scene.len())
        .filter(|&i| !may_be_sheared(&scene.world_at(i)))
        .count();
    assert!(unsheared > 0, "and some nodes are not sheared");
    for &i in &planned.shear {
        assert!(may_be_sheared(&scene.world_at(i as usize)), "node {i}");
    }
    let ids = |o: graft::editor::view::overlay::ShearOverlayOnScreen| -> Vec<_> {
        o.marks.iter().map(|m| m.mark.node).collect()
    };
    let among = shear_overlay_among(
        &scene,
        camera,
        view(),
        planned.shear.iter().map(|&i| i as usize),
    );
    assert_eq!(
        ids(among),
        ids(shear_overlay_on_screen(&scene, camera, view()))
    );
}
