//! The draw list's tests (a file of their own: the list itself is near 600 lines).

use super::*;
use crate::model::math::Trs;
use crate::model::scene::{NodeData, NodeSpec};
use glam::Vec2;

/// 6.5 px a character: a stand-in for a font in these tests.
fn char_width(text: &str, _size: f32) -> f32 {
    6.5 * text.chars().count() as f32
}

fn width(text: &str) -> f64 {
    char_width(text, NAME_SIZE) as f64
}

fn ask<'a>(is_selected: &'a dyn Fn(NodeId) -> bool) -> Ask<'a> {
    Ask {
        is_selected,
        text_width: &char_width,
        taken: &[],
    }
}

fn rect() -> ScreenRect {
    ScreenRect {
        min: Vec2::ZERO,
        max: Vec2::new(800.0, 600.0),
    }
}

fn show() -> Show {
    Show {
        axes: true,
        names: true,
        selection: true,
        handles_on: None,
    }
}

/// Nodes at the given positions, each a 1×1 rect, all roots.
fn scene_at(points: &[(f32, f32)], names: &[&str]) -> Scene {
    let specs = points
        .iter()
        .zip(names)
        .enumerate()
        .map(|(k, (&(x, y), name))| {
            let mut data = NodeData::named(*name, Trs::new(Vec2::new(x, y), 0.0, Vec2::ONE, 0.0));
            data.shape = Shape::Rect {
                size: Vec2::splat(1.0),
            };
            NodeSpec {
                id: NodeId(k as u32 + 1),
                parent: None,
                data,
            }
        })
        .collect();
    let mut scene = Scene::from_specs(specs).expect("valid");
    scene.update_world();
    scene
}

fn camera(zoom: f64) -> (Camera, ScreenRect) {
    let camera = Camera {
        zoom,
        ..Camera::default()
    };
    (camera, rect())
}

#[test]
fn small_nodes_get_no_details_and_big_ones_do_but_a_few_nodes_all_do() {
    let n = FEW_NODES + 1;
    let points: Vec<(f32, f32)> = (0..n).map(|k| (k as f32 * 3.0 - 90.0, 0.0)).collect();
    let names: Vec<String> = (0..n).map(|k| format!("n{k}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let scene = scene_at(&points, &names);
    let none = |_| false;
    let tiny = DrawList::build(&scene, 0..n, camera(4.0), show(), &ask(&none), n);
    assert!(!tiny.entries[0].marks.detail && tiny.names.is_empty());
    let scene = scene_at(&[(0.0, 0.0)], &["a"]);
    let big = DrawList::build(&scene, 0..1, camera(40.0), show(), &ask(&none), 1);
    let m = big.entries[0].marks;
    assert!(m.detail && m.axes && m.dot == Some(0) && m.outline == Outline::Plain);
    assert_eq!(big.names.len(), 1);
    // A frame of few nodes details and names even a tiny one (the solar moon and probe).
    let few = DrawList::build(&scene, 0..1, camera(4.0), show(), &ask(&none), 1);
    assert!(few.entries[0].marks.detail && few.names.len() == 1);
}

#[test]
fn a_name_keeps_its_place_beside_its_node_in_the_next_frame() {
    let scene = scene_at(&[(0.0, 0.0), (0.0, 0.0)], &["first", "second"]);
    let none = |_| false;
    let one = DrawList::build(&scene, 0..2, camera(40.0), show(), &ask(&none), 2);
    let offset = |l: &DrawList, k: usize| l.names[k].at - l.names[k].origin;
    assert_eq!(offset(&one, 0), NAME_OFFSET);
    // The second name sits a line down; drawn again it keeps that place even when its
    // own place is free (only the second is kept: the first is hidden this frame).
    let next = DrawList::build_after(&one, &scene, 1..2, camera(40.0), show(), &ask(&none), 1);
    assert_eq!(offset(&next, 0), offset(&one, 1));
    let fresh = DrawList::build(&scene, 1..2, camera(40.0), show(), &ask(&none), 1);
    assert_eq!(offset(&fresh, 0), NAME_OFFSET);
}

#[test]
fn names_at_one_origin_stack_without_overlapping_and_the_selection_keeps_its_place() {
    let scene = scene_at(
        &[(0.0, 0.0), (0.0, 0.0), (5.0, 0.0)],
        &["sun", "orbit", "far"],
    );
    let boxes = |list: &DrawList| -> Vec<[f64; 4]> {
        let name = |n: &Name| scene.data_at(n.index as usize).name.to_string();
        list.names
            .iter()
            .map(|n| text_box(n.at, width(&name(n))))
            .collect()
    };
    let none = |_| false;
    let list = DrawList::build(&scene, 0..3, camera(40.0), show(), &ask(&none), 3);
    let named: Vec<u32> = list.names.iter().map(|n| n.index).collect();
    assert_eq!(named, vec![0, 1, 2], "every name shows");
    let (sun, orbit) = (list.names[0].at, list.names[1].at);
    assert_eq!(
        orbit - sun,
        DVec2::new(0.0, NAME_LINE_PX),
        "the second moves down a line"
    );
    let b = boxes(&list);
    assert!(!overlaps(&b[0], &b[1]) && !overlaps(&b[1], &b[2]) && !overlaps(&b[0], &b[2]));
    let second = scene.id_at(1);
    let selected = move |id| id == second;
    let list = DrawList::build(&scene, 0..3, camera(40.0), show(), &ask(&selected), 3);
    assert_eq!(list.names[1].at, sun, "the selected name keeps the place");
    assert_eq!(list.names[0].at, orbit, "the other one moves");
    assert_eq!(list.entries[1].marks.outline, Outline::Selected);
    assert_eq!(list.entries[1].marks.dot, Some(1));
}

#[test]
fn a_thousand_names_at_one_point_never_overlap() {
    let points = vec![(0.0, 0.0); 1000];
    let names: Vec<String> = (0..1000).map(|k| format!("node {k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let scene = scene_at(&points, &refs);
    let chosen = scene.id_at(777);
    let selected = move |id| id == chosen;
    let list = DrawList::build(&scene, 0..1000, camera(40.0), show(), &ask(&selected), 1000);
    assert!(
        list.names.iter().any(|n| n.index == 777),
        "the selection's name shows"
    );
    let b: Vec<[f64; 4]> = list
        .names
        .iter()
        .map(|n| text_box(n.at, width(&names[n.index as usize])))
        .collect();
    assert!(
        b.len() > 1 && b.len() <= NAME_PLACES + 1,
        "{} names",
        b.len()
    );
    for (k, x) in b.iter().enumerate() {
        assert!(
            b[k + 1..].iter().all(|y| !overlaps(x, y)),
            "{x:?} overlaps another"
        );
    }
}

#[test]
fn the_detail_budget_holds_but_the_selection_always_gets_details() {
    let points: Vec<(f32, f32)> = (0..DETAIL_LIMIT + 10)
        .map(|k| (k as f32 * 0.01, 0.0))
        .collect();
    let names: Vec<String> = (0..points.len()).map(|k| format!("n{k}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let scene = scene_at(&points, &names);
    let last = scene.id_at(points.len() - 1);
    let selected = move |id| id == last;
    let n = points.len();
    let list = DrawList::build(&scene, 0..n, camera(1000.0), show(), &ask(&selected), n);
    let detailed = list.entries.iter().filter(|e| e.marks.detail).count();
    assert_eq!(detailed, DETAIL_LIMIT + 1);
    assert!(list.entries[n - 1].marks.detail);
}

#[test]
fn names_keep_clear_of_the_names_another_list_placed() {
    let scene = scene_at(&[(0.0, 0.0)], &["moving"]);
    let none = |_| false;
    let alone = DrawList::build(&scene, 0..1, camera(40.0), show(), &ask(&none), 1);
    let taken = alone.name_boxes();
    let beside = Ask {
        taken: &taken,
        ..ask(&none)
    };
    let list = DrawList::build(&scene, 0..1, camera(40.0), show(), &beside, 1);
    assert_eq!(list.names.len(), 1);
    let b = list.name_boxes()[0];
    assert!(!overlaps(&b, &taken[0]), "{b:?} meets {:?}", taken[0]);
}

#[test]
fn the_node_showing_handles_has_no_axes_of_its_own() {
    let scene = scene_at(&[(0.0, 0.0)], &["a"]);
    let id = scene.id_at(0);
    let with_handles = Show {
        handles_on: Some(id),
        ..show()
    };
    let selected = move |x| x == id;
    let list = DrawList::build(&scene, 0..1, camera(40.0), with_handles, &ask(&selected), 1);
    assert!(!list.entries[0].marks.axes);
}

#[test]
fn a_name_at_the_views_edge_goes_where_it_is_whole() {
    // A node about 20 px from the right edge: its name beside it would be cut, so it goes
    // left of it.
    let scene = scene_at(&[(12.5, 0.0)], &["a long name"]);
    let none = |_| false;
    let list = DrawList::build(&scene, 0..1, camera(40.0), show(), &ask(&none), 1);
    let name = list.names.first().expect("named");
    let right = text_box(name.origin + NAME_OFFSET, name.width);
    assert!(
        !within(&right, rect()),
        "the test's node is at the edge: {name:?}"
    );
    let b = text_box(name.at, name.width);
    assert!(within(&b, rect()), "{b:?} is cut by the view");
    assert!(
        name.at.x < name.origin.x,
        "placed left of its node: {name:?}"
    );
    // Where nothing fits whole (a name wider than the view) it still shows.
    let wide = scene_at(&[(0.0, 0.0)], &[&"w".repeat(200)]);
    let list = DrawList::build(&wide, 0..1, camera(40.0), show(), &ask(&none), 1);
    assert_eq!(list.names.len(), 1);
}
