//! The Godot `.tscn` import, proved exact to Godot: every fixture under `tests/fixtures/godot`
//! is imported and each node's graft world matrix is compared with the global transform Godot
//! itself computes, written out here independently of graft's conversion code (f64, Godot's
//! y-down space, radians) and then mirrored into graft's y-up space (F·G·F, F = diag(1, −1)).
//!
//! Godot's rules, as this file implements them:
//! - Node2D local = Transform2D(rotation, scale, skew, position): x column (cos r, sin r)·sx,
//!   y column (−sin(r+k), cos(r+k))·sy, origin the position;
//! - Control local = T(position + pivot)·R(rotation)·S(scale)·T(−pivot), position from the
//!   offsets when the anchors are 0 (Godot 3: `margin_*`, `rect_rotation` in degrees);
//! - global = parent global · local when the parent is a CanvasItem (Node2D family or Control);
//!   under any other node (Node, AnimationPlayer, Timer…) and with `top_level = true` the
//!   global is the local alone;
//! - a CanvasLayer draws its children through its own transform (offset, rotation, scale) and
//!   ignores every ancestor: a child's visible global is layer · child local.

// The fixtures' numbers are repeated as the files write them (0.7853982, 1.5708, 3.14159):
// they are Godot's rounded text, not π.
#![allow(clippy::approx_constant)]

use glam::{Affine2, DAffine2, DMat2, DVec2};
use graft::model::godot::{ImportReport, Imported, NoteKind, import_file, import_text};
use graft::model::scene::{Scene, Shape};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- Godot's transforms, in f64

/// The fixtures folder (it holds `project.godot`, so `res://` is this folder).
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/godot")
}

/// Godot's `Transform2D(rotation, scale, skew, position)` (y down, radians).
fn godot_local(pos: [f64; 2], rot: f64, scale: [f64; 2], skew: f64) -> DAffine2 {
    DAffine2::from_cols(
        DVec2::new(rot.cos() * scale[0], rot.sin() * scale[0]),
        DVec2::new(
            -(rot + skew).sin() * scale[1],
            (rot + skew).cos() * scale[1],
        ),
        DVec2::new(pos[0], pos[1]),
    )
}

/// A Node2D that only moves.
fn at(pos: [f64; 2]) -> DAffine2 {
    DAffine2::from_translation(DVec2::new(pos[0], pos[1]))
}

/// A Node2D moved and rotated.
fn turned(pos: [f64; 2], rot: f64) -> DAffine2 {
    godot_local(pos, rot, [1.0, 1.0], 0.0)
}

/// `Transform2D(xx, xy, yx, yy, ox, oy)` as written in a file: the x column, the y column, the
/// origin.
fn xform(xx: f64, xy: f64, yx: f64, yy: f64, ox: f64, oy: f64) -> DAffine2 {
    DAffine2::from_cols(DVec2::new(xx, xy), DVec2::new(yx, yy), DVec2::new(ox, oy))
}

/// A Control's local transform: T(position + pivot)·R(rot)·S(scale)·T(−pivot).
fn control_local(pos: [f64; 2], rot: f64, scale: [f64; 2], pivot: [f64; 2]) -> DAffine2 {
    let pivot = DVec2::new(pivot[0], pivot[1]);
    DAffine2::from_translation(DVec2::new(pos[0], pos[1]) + pivot)
        * godot_local([0.0, 0.0], rot, scale, 0.0)
        * DAffine2::from_translation(-pivot)
}

/// F = diag(1, −1): Godot's y-down space to graft's y-up space and back.
fn flip() -> DAffine2 {
    DAffine2::from_mat2(DMat2::from_diagonal(DVec2::new(1.0, -1.0)))
}

/// A Godot matrix seen in graft's y-up space: F·G·F.
fn to_graft(godot: DAffine2) -> DAffine2 {
    flip() * godot * flip()
}

fn widen(m: &Affine2) -> DAffine2 {
    DAffine2::from_cols_array(&m.to_cols_array().map(f64::from))
}

/// True when every entry matches within 1e-5 of the largest entry of `expected` (at least 1).
fn near_rel(actual: &DAffine2, expected: &DAffine2) -> bool {
    let e = expected.to_cols_array();
    let scale = e.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    actual
        .to_cols_array()
        .iter()
        .zip(e)
        .all(|(a, b)| (a - b).abs() <= 1e-5 * scale)
}

// ---------------------------------------------------------------- finding nodes

fn import(rel: &str) -> Imported {
    let path = fixtures().join(rel);
    match import_file(&path) {
        Ok(imported) => imported,
        Err(e) => panic!("importing {} failed: {e}", path.display()),
    }
}

/// The names from a root down to node `i`, in graft's tree.
fn graft_path(scene: &Scene, i: usize) -> Vec<String> {
    let mut names = vec![scene.data_at(i).name.to_string()];
    let mut at = i;
    while let Some(p) = scene.parent_index_at(at) {
        names.push(scene.data_at(p).name.to_string());
        at = p;
    }
    names.reverse();
    names
}

/// The one node whose graft path ends with `path` (`"Ball1/Child"` or just `"Hand"`).
#[track_caller]
fn find(scene: &Scene, path: &str) -> usize {
    let want: Vec<&str> = path.split('/').collect();
    let hits: Vec<usize> = (0..scene.len())
        .filter(|&i| {
            let full = graft_path(scene, i);
            full.len() >= want.len() && full[full.len() - want.len()..] == want[..]
        })
        .collect();
    match hits.as_slice() {
        [one] => *one,
        _ => panic!(
            "expected exactly one node at \"{path}\", found {} (scene: {:?})",
            hits.len(),
            (0..scene.len())
                .map(|i| graft_path(scene, i).join("/"))
                .collect::<Vec<_>>()
        ),
    }
}

/// The node at `path` has graft world F·G·F, G being Godot's global transform of it.
#[track_caller]
fn assert_global(scene: &Scene, path: &str, godot_global: DAffine2) {
    let i = find(scene, path);
    let actual = widen(&scene.world_at(i));
    let expected = to_graft(godot_global);
    assert!(
        near_rel(&actual, &expected),
        "{path}: graft world\n  {:?}\nexpected F·G·F\n  {:?}\n(Godot global {:?})",
        actual.to_cols_array(),
        expected.to_cols_array(),
        godot_global.to_cols_array()
    );
}

/// The graft parent of the node at `path`, by name (None for a root).
#[track_caller]
fn graft_parent_name(scene: &Scene, path: &str) -> Option<String> {
    let i = find(scene, path);
    scene
        .parent_index_at(i)
        .map(|p| scene.data_at(p).name.to_string())
}

/// Names of the graft children of the node at `path`, in order.
#[track_caller]
fn child_names(scene: &Scene, path: &str) -> Vec<String> {
    let i = find(scene, path);
    scene
        .child_indices(Some(i))
        .map(|c| scene.data_at(c).name.to_string())
        .collect()
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

fn notes_of(report: &ImportReport, kind: NoteKind) -> Vec<String> {
    report
        .notes
        .iter()
        .filter(|n| n.kind == kind)
        .map(ToString::to_string)
        .collect()
}

/// No node was dropped (a wrong `parent` path in a fixture would drop it with a note).
#[track_caller]
fn assert_no_skips(im: &Imported) {
    // Animation tracks on properties other than transforms are named, and are not nodes.
    let skipped: Vec<String> = notes_of(&im.report, NoteKind::Skipped)
        .into_iter()
        .filter(|n| !n.contains("is not a transform graft animates"))
        .collect();
    assert!(skipped.is_empty(), "{skipped:?}");
}

#[track_caller]
fn assert_points(shape: &Shape, expected: &[[f32; 2]]) {
    let Shape::Polygon { points } = shape else {
        panic!("expected a polygon, got {shape:?}");
    };
    assert_eq!(points.len(), expected.len(), "{points:?}");
    for (p, e) in points.iter().zip(expected) {
        assert!(
            (p.x - e[0]).abs() <= 1e-5 && (p.y - e[1]).abs() <= 1e-5,
            "points {points:?}, expected {expected:?}"
        );
    }
}

/// The bounding box size of a polygon.
fn extent(shape: &Shape) -> [f32; 2] {
    let Shape::Polygon { points } = shape else {
        panic!("expected a polygon, got {shape:?}");
    };
    let (mut lo, mut hi) = (points[0], points[0]);
    for p in points {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    [hi.x - lo.x, hi.y - lo.y]
}

// ---------------------------------------------------------------- the y flip itself

#[test]
fn godot_local_transform_matches_the_rules() {
    // Sanity of the helpers against hand-computed numbers: a quarter turn sends x to +y
    // (down, in Godot) and y to −x.
    let m = godot_local([3.0, 4.0], std::f64::consts::FRAC_PI_2, [2.0, 5.0], 0.0);
    let p = m.transform_point2(DVec2::new(1.0, 1.0));
    assert!(
        (p - DVec2::new(3.0 - 5.0, 4.0 + 2.0)).length() < 1e-12,
        "{p:?}"
    );
    // Skew tilts only the y axis.
    let k = godot_local([0.0, 0.0], 0.0, [1.0, 1.0], 0.5);
    assert!((k.matrix2.x_axis - DVec2::X).length() < 1e-12);
    assert!((k.matrix2.y_axis - DVec2::new(-(0.5f64).sin(), (0.5f64).cos())).length() < 1e-12);
    // A Control about its pivot keeps the pivot's own spot fixed.
    let c = control_local([10.0, 20.0], 0.7, [2.0, 0.5], [4.0, 6.0]);
    let pivot = c.transform_point2(DVec2::new(4.0, 6.0));
    assert!(
        (pivot - DVec2::new(14.0, 26.0)).length() < 1e-12,
        "{pivot:?}"
    );
}

// ---------------------------------------------------------------- fixture 1: nesting

#[test]
fn nested_rotations_nonuniform_scales_skew_and_mirrors() {
    let im = import("nested.tscn");
    let s = &im.scene;
    let nested = godot_local([320.0, 180.0], -0.2617994, [1.0, 1.0], 0.0);
    let arm = nested * godot_local([64.0, -16.0], 0.7853982, [2.0, -1.0], 0.0);
    let forearm = arm * godot_local([30.0, 12.5], -1.2, [0.5, 1.5], 0.3);
    let hand = forearm * godot_local([-8.0, 20.0], 2.5, [-1.0, 0.75], -0.4);
    let finger = hand * godot_local([5.0, -3.0], 3.1415927, [1.25, 1.25], 0.0);
    let shield = arm * godot_local([-10.0, 4.0], 0.0, [-2.0, 3.0], -0.7);
    assert_global(s, "Nested", nested);
    assert_global(s, "Nested/Arm", arm);
    assert_global(s, "Arm/Forearm", forearm);
    assert_global(s, "Forearm/Hand", hand);
    assert_global(s, "Hand/Finger", finger);
    assert_global(s, "Arm/Shield", shield);
    // The hierarchy is Godot's, untouched.
    assert_eq!(s.len(), 6);
    assert_eq!(graft_parent_name(s, "Finger").as_deref(), Some("Hand"));
    assert_eq!(child_names(s, "Arm"), ["Forearm", "Shield"]);
    assert_eq!(
        im.report.imported,
        counts(&[("Node2D", 4), ("Sprite2D", 1), ("Marker2D", 1)])
    );
    assert!(im.report.notes.is_empty(), "{:?}", im.report.notes);
    // The local of a mirrored, skewed node is Godot's, flipped: (x, −y), −r, s, −k.
    let hand_local = s.data_at(find(s, "Hand")).local;
    let expected = [
        -8.0,
        -20.0,
        -(2.5f64.to_degrees()) as f32,
        -1.0,
        0.75,
        (0.4f64.to_degrees()) as f32,
    ];
    for (a, e) in hand_local.components().iter().zip(expected) {
        assert!((a - e).abs() <= 1e-4, "{hand_local:?} vs {expected:?}");
    }
}

// ---------------------------------------------------------------- fixture 2: plain nodes

#[test]
fn plain_node_and_animation_player_restart_the_chain() {
    let im = import("plain_break.tscn");
    let s = &im.scene;
    let level = turned([100.0, 50.0], 0.4);
    let mover = level * godot_local([200.0, -40.0], 1.1, [3.0, 0.5], 0.0);
    // Under the Node "Holder" the chain starts again: Free's global is its local.
    let free = godot_local([15.0, 25.0], -0.6, [1.5, -1.5], 0.0);
    let free_child = free * turned([4.0, 0.0], 0.25);
    // Likewise under the AnimationPlayer.
    let animated = godot_local([12.0, -7.0], 0.0, [1.0, 1.0], 0.2);
    // A 2D sibling after the plain nodes still composes with Mover.
    let sibling = mover * turned([-5.0, 9.0], -0.35);
    assert_global(s, "Level", level);
    assert_global(s, "Level/Mover", mover);
    assert_global(s, "Holder", DAffine2::IDENTITY);
    assert_global(s, "Holder/Free", free);
    assert_global(s, "Free/FreeChild", free_child);
    assert_global(s, "AnimationPlayer", DAffine2::IDENTITY);
    assert_global(s, "AnimationPlayer/Animated", animated);
    assert_global(s, "Mover/Sibling", sibling);
    // The plain nodes left the 2D chain: graft roots, each noted.
    assert_eq!(graft_parent_name(s, "Holder"), None);
    assert_eq!(graft_parent_name(s, "AnimationPlayer"), None);
    assert_eq!(child_names(s, "Mover"), ["Sibling"]);
    assert_no_skips(&im);
    let rerooted = notes_of(&im.report, NoteKind::Rerooted);
    assert_eq!(rerooted.len(), 2, "{rerooted:?}");
    assert!(rerooted[0].contains("Holder"), "{rerooted:?}");
    assert!(rerooted[1].contains("AnimationPlayer"), "{rerooted:?}");
    // The Timer has nothing 2D below it: left out, and counted.
    assert_eq!(im.report.skipped, counts(&[("Timer", 1)]));
    assert_eq!(
        im.report.imported,
        counts(&[("Node2D", 6), ("Node", 1), ("AnimationPlayer", 1)])
    );
}

// ---------------------------------------------------------------- fixture 3: top_level

#[test]
fn top_level_ignores_every_ancestor() {
    let im = import("top_level.tscn");
    let s = &im.scene;
    let stage = godot_local([-50.0, 75.0], 0.0, [0.8, 0.8], 0.0);
    let turret = stage * godot_local([300.0, 200.0], 0.9, [2.0, 1.5], 0.15);
    let barrel = turret * turned([20.0, 0.0], -0.3);
    let bullet = godot_local([410.0, 260.0], -2.2, [1.0, -2.0], 0.0);
    let trail = bullet * turned([-12.0, 3.0], 0.5);
    let muzzle = barrel * at([16.0, 0.0]);
    let tag = control_local([10.0, 20.0], 0.1, [1.0, 1.0], [0.0, 0.0]);
    assert_global(s, "Stage", stage);
    assert_global(s, "Stage/Turret", turret);
    assert_global(s, "Turret/Barrel", barrel);
    assert_global(s, "Bullet", bullet);
    assert_global(s, "Bullet/Trail", trail);
    assert_global(s, "Barrel/Muzzle", muzzle);
    assert_global(s, "Tag", tag);
    assert_eq!(graft_parent_name(s, "Bullet"), None);
    assert_eq!(graft_parent_name(s, "Tag"), None);
    assert_eq!(notes_of(&im.report, NoteKind::Rerooted).len(), 2);
    assert_no_skips(&im);
}

// ---------------------------------------------------------------- fixture 4: CanvasLayer

#[test]
fn canvas_layer_draws_its_children_through_its_own_transform() {
    let im = import("canvas_layer.tscn");
    let s = &im.scene;
    let world = godot_local([500.0, 300.0], 0.6, [2.0, 2.0], 0.0);
    // The layer ignores World entirely.
    let hud = godot_local([40.0, 24.0], 0.2, [1.5, 0.75], 0.0);
    let panel = hud * control_local([16.0, 8.0], 0.35, [1.2, 0.9], [100.0, 32.0]);
    let icon = panel * godot_local([24.0, 32.0], -0.5, [0.5, 0.5], 0.0);
    // A CanvasLayer inside the first one ignores it too.
    let overlay = at([5.0, 5.0]);
    let cursor = overlay * turned([1.0, 2.0], 0.4);
    let badge = hud * godot_local([600.0, 40.0], 0.75, [-1.0, 1.0], 0.0);
    // A plain Node in the layer: the 2D nodes under it are drawn by the layer alone.
    let loose = hud * turned([7.0, 9.0], 1.3);
    let player = world * at([10.0, 5.0]);
    // top_level in a layer: it ignores Panel but is still drawn by the layer.
    let tooltip = hud * turned([300.0, 12.0], -0.15);
    // A plain Node under a Control in a layer: its 2D children are drawn by the layer alone.
    let blip = hud * godot_local([3.0, -4.0], 0.0, [2.0, 0.5], 0.0);
    assert_global(s, "Game", DAffine2::IDENTITY);
    assert_global(s, "HUD/Tooltip", tooltip);
    assert_global(s, "HUD/Beat", hud);
    assert_global(s, "Beat/Blip", blip);
    assert_eq!(child_names(s, "Panel"), ["Icon"]);
    assert_global(s, "Game/World", world);
    assert_global(s, "HUD", hud);
    assert_global(s, "HUD/Panel", panel);
    assert_global(s, "Panel/Icon", icon);
    assert_global(s, "Overlay", overlay);
    assert_global(s, "Overlay/Cursor", cursor);
    assert_global(s, "HUD/Badge", badge);
    assert_global(s, "HUD/Group", hud);
    assert_global(s, "Group/Loose", loose);
    assert_global(s, "World/Player", player);
    assert_eq!(graft_parent_name(s, "HUD"), None);
    assert_eq!(graft_parent_name(s, "Overlay"), None);
    assert_eq!(graft_parent_name(s, "Group").as_deref(), Some("HUD"));
    assert_eq!(graft_parent_name(s, "Tooltip").as_deref(), Some("HUD"));
    assert_eq!(graft_parent_name(s, "Beat").as_deref(), Some("HUD"));
    let rerooted = notes_of(&im.report, NoteKind::Rerooted);
    assert_eq!(rerooted.len(), 4, "{rerooted:?}");
    assert_no_skips(&im);
    assert_eq!(child_names(s, "World"), ["Player"]);
    // The ColorRect is its rect, top-left at the origin, in its colour.
    let panel_data = s.data_at(find(s, "Panel"));
    assert_points(
        &panel_data.shape,
        &[[0.0, 0.0], [0.0, -64.0], [200.0, -64.0], [200.0, 0.0]],
    );
    assert_eq!(panel_data.color, [26, 26, 51, 204]);
    assert_eq!(
        im.report.imported,
        counts(&[
            ("CanvasLayer", 2),
            ("ColorRect", 1),
            ("Node", 2),
            ("Node2D", 7),
            ("Sprite2D", 2),
        ])
    );
}

/// A point drawn by a ColorRect in a layer lands where Godot draws it.
#[test]
fn canvas_layer_points_land_where_godot_draws_them() {
    let im = import("canvas_layer.tscn");
    let s = &im.scene;
    let hud = godot_local([40.0, 24.0], 0.2, [1.5, 0.75], 0.0);
    let panel = hud * control_local([16.0, 8.0], 0.35, [1.2, 0.9], [100.0, 32.0]);
    let i = find(s, "Panel");
    let world = widen(&s.world_at(i));
    // Godot's corner (200, 64) of the rect, drawn on screen (y down).
    let godot_screen = panel.transform_point2(DVec2::new(200.0, 64.0));
    let graft_world = world.transform_point2(DVec2::new(200.0, -64.0));
    let back = DVec2::new(graft_world.x, -graft_world.y);
    assert!(
        (back - godot_screen).length() <= 1e-4 * godot_screen.length().max(1.0),
        "{back:?} vs {godot_screen:?}"
    );
}

// ---------------------------------------------------------------- fixture 5: instances

fn ball_root(pos: [f64; 2], rot: f64, scale: [f64; 2]) -> DAffine2 {
    // ball.tscn's root has skew 0.1, which no instance overrides.
    godot_local(pos, rot, scale, 0.1)
}

#[test]
fn instances_with_overrides_editable_children_and_index() {
    let im = import("instances/main.tscn");
    let s = &im.scene;
    let main = turned([40.0, 30.0], 0.1);
    // Ball1 overrides position, rotation and scale; the skew stays ball.tscn's.
    let ball1 = main * ball_root([100.0, 200.0], -0.8, [2.0, -0.5]);
    // The editable-children override moves Child but keeps its rotation.
    let child1 = ball1 * turned([20.0, -4.0], 0.5);
    let leaf1 = child1 * turned([0.0, 6.0], 1.0);
    let eye1 = ball1 * godot_local([-6.0, -8.0], 0.0, [0.5, 0.5], 0.0);
    let pupil1 = eye1 * at([2.0, 0.0]);
    let extra = ball1 * turned([-15.0, 5.0], 0.3);
    // Ball2 overrides only its position: rotation, scale and skew are ball.tscn's.
    let ball2 = main * ball_root([-50.0, 80.0], 0.2, [1.5, 1.5]);
    let child2 = ball2 * turned([10.0, 0.0], 0.5);
    let leaf2 = child2 * at([0.0, 6.0]);
    let eye2 = ball2 * godot_local([-6.0, -8.0], 0.0, [0.5, 0.5], 0.0);
    let pupil2 = eye2 * at([3.0, 1.0]);
    assert_global(s, "Main", main);
    assert_global(s, "Main/Ball1", ball1);
    assert_global(s, "Ball1/Child", child1);
    assert_global(s, "Ball1/Child/Leaf", leaf1);
    assert_global(s, "Ball1/Eye", eye1);
    assert_global(s, "Ball1/Eye/Pupil", pupil1);
    assert_global(s, "Ball1/Extra", extra);
    assert_global(s, "Ball1/Collision", ball1);
    assert_global(s, "Main/Ball2", ball2);
    assert_global(s, "Ball2/Child", child2);
    assert_global(s, "Ball2/Child/Leaf", leaf2);
    assert_global(s, "Ball2/Eye/Pupil", pupil2);
    assert_global(s, "Ball2/Collision", ball2);
    // index="0": the added node is Ball1's first child; Ball2 is untouched.
    assert_eq!(
        child_names(s, "Ball1"),
        ["Extra", "Child", "Collision", "Eye"]
    );
    assert_eq!(child_names(s, "Ball2"), ["Child", "Collision", "Eye"]);
    assert_eq!(child_names(s, "Main"), ["Ball1", "Ball2"]);
    // The instanced scene's shapes come along (its own sub_resources).
    let collision = &s.data_at(find(s, "Ball1/Collision")).shape;
    assert_eq!(
        *collision,
        Shape::Ellipse {
            size: glam::Vec2::splat(60.0)
        }
    );
    assert_eq!(
        im.report.imported,
        counts(&[("CollisionShape2D", 2), ("Node2D", 10), ("RigidBody2D", 2),])
    );
    assert!(im.report.notes.is_empty(), "{:?}", im.report.notes);
}

#[test]
fn inherited_scene_overrides_its_base() {
    let im = import("instances/inherited.tscn");
    let s = &im.scene;
    let big = ball_root([5.0, 5.0], 0.2, [3.0, 3.0]);
    let child = big * turned([10.0, 0.0], -0.25);
    let leaf = child * at([0.0, 6.0]);
    let added = child * at([1.0, 1.0]);
    let eye = big * godot_local([-6.0, -8.0], 0.0, [0.5, 0.5], 0.0);
    let pupil = eye * at([2.0, 0.0]);
    assert_eq!(s.data_at(0).name, "BigBall");
    assert_eq!(s.parent_index_at(0), None);
    assert_global(s, "BigBall", big);
    assert_global(s, "BigBall/Child", child);
    assert_global(s, "Child/Leaf", leaf);
    assert_global(s, "Child/Added", added);
    assert_global(s, "Eye/Pupil", pupil);
    assert_eq!(child_names(s, "Child"), ["Leaf", "Added"]);
    assert_eq!(im.report.skipped, counts(&[("Timer", 1)]));
    assert!(im.report.notes.is_empty(), "{:?}", im.report.notes);
}

// ---------------------------------------------------------------- fixture 6: a missing file

#[test]
fn missing_instance_is_an_empty_node_with_its_overrides() {
    let im = import("instances/missing.tscn");
    let s = &im.scene;
    let room = at([10.0, 20.0]);
    let ghost = room * godot_local([30.0, -40.0], 1.2, [2.0, 2.0], 0.0);
    let kid = ghost * turned([5.0, 0.0], -0.4);
    let lamp = room * at([1.0, 2.0]);
    assert_global(s, "Room", room);
    assert_global(s, "Room/Ghost", ghost);
    assert_global(s, "Ghost/Kid", kid);
    assert_global(s, "Room/Lamp", lamp);
    assert_eq!(s.data_at(find(s, "Ghost")).shape, Shape::None);
    let missing = notes_of(&im.report, NoteKind::Missing);
    assert_eq!(missing.len(), 1, "{:?}", im.report.notes);
    assert!(missing[0].contains("not_there.tscn"), "{missing:?}");
    assert!(missing[0].contains("missing.tscn:8"), "{missing:?}");
    assert_eq!(im.report.notes.len(), 1, "{:?}", im.report.notes);
}

#[test]
fn undeclared_or_unlocatable_instances_are_empty_nodes_too() {
    let text = "[gd_scene load_steps=2 format=3]\n\n\
                [ext_resource type=\"PackedScene\" path=\"user://saves/slot.tscn\" id=\"1_user\"]\n\n\
                [node name=\"Root\" type=\"Node2D\"]\n\n\
                [node name=\"Nobody\" parent=\".\" instance=ExtResource(\"9_nope\")]\n\
                position = Vector2(3, 4)\n\n\
                [node name=\"Elsewhere\" parent=\".\" instance=ExtResource(\"1_user\")]\n\
                rotation = 0.5\n";
    let path = fixtures().join("instances/inline.tscn");
    let im = match import_text(text, &path) {
        Ok(im) => im,
        Err(e) => panic!("{e}"),
    };
    assert_global(&im.scene, "Root/Nobody", at([3.0, 4.0]));
    assert_global(&im.scene, "Root/Elsewhere", turned([0.0, 0.0], 0.5));
    let missing = notes_of(&im.report, NoteKind::Missing);
    assert_eq!(missing.len(), 2, "{missing:?}");
    assert!(missing[0].contains("9_nope"), "{missing:?}");
    assert!(missing[1].contains("user://saves/slot.tscn"), "{missing:?}");
}

// ---------------------------------------------------------------- fixture 7: Godot 3

#[test]
fn godot3_syntax_transforms_instances_and_controls() {
    let im = import("godot3/level3.tscn");
    let s = &im.scene;
    let level = at([12.0, -30.0]);
    let pivot = level * godot_local([200.0, 100.0], 1.5708, [1.0, -1.0], 0.0);
    // A whole Transform2D, sheared and mirrored (determinant < 0).
    let arm = pivot * xform(1.2, 0.4, 0.3, -0.9, 40.0, 10.0);
    // The instance root keeps crate3.tscn's scale under its position and rotation overrides.
    let crate_ = arm * godot_local([8.0, 16.0], -0.5, [0.5, 0.5], 0.0);
    let lid = crate_ * turned([2.0, -12.0], 0.3);
    let body = level * at([50.0, 60.0]);
    let ui = turned([10.0, 10.0], 0.1);
    let box_ = ui * control_local([20.0, 30.0], 15f64.to_radians(), [2.0, 1.0], [50.0, 25.0]);
    let knob = box_ * turned([10.0, 5.0], 0.7);
    assert_global(s, "Level3", level);
    assert_global(s, "Level3/Pivot", pivot);
    assert_global(s, "Pivot/Arm", arm);
    assert_global(s, "Arm/Crate", crate_);
    assert_global(s, "Crate/Lid", lid);
    assert_global(s, "Crate/Hit", crate_);
    assert_global(s, "Level3/Floor", level);
    assert_global(s, "Body/Shape", body);
    assert_global(s, "Body/Capsule", body * at([30.0, 0.0]));
    assert_global(s, "UI", ui);
    assert_global(s, "UI/Box", box_);
    assert_global(s, "Box/Knob", knob);
    // Color( 1, 0, 0, 1 ) and PoolVector2Array( … ), y flipped.
    let floor = s.data_at(find(s, "Floor"));
    assert_points(
        &floor.shape,
        &[[0.0, 0.0], [100.0, 0.0], [100.0, -20.0], [0.0, -20.0]],
    );
    assert_eq!(floor.color, [255, 0, 0, 255]);
    // Godot 3 rectangles give half extents; capsules the height between the caps.
    assert_eq!(
        s.data_at(find(s, "Body/Shape")).shape,
        Shape::Rect {
            size: glam::Vec2::new(32.0, 16.0)
        }
    );
    assert_eq!(
        s.data_at(find(s, "Crate/Hit")).shape,
        Shape::Rect {
            size: glam::Vec2::new(8.0, 8.0)
        }
    );
    let capsule = extent(&s.data_at(find(s, "Body/Capsule")).shape);
    assert!(
        (capsule[0] - 12.0).abs() < 1e-4 && (capsule[1] - 22.0).abs() < 1e-4,
        "{capsule:?}"
    );
    assert_eq!(im.report.skipped, counts(&[("AnimationPlayer", 1)]));
    assert_eq!(child_names(s, "Crate"), ["Lid", "Hit"]);
    assert_no_skips(&im);
    assert!(
        notes_of(&im.report, NoteKind::Missing).is_empty(),
        "{:?}",
        im.report.notes
    );
}

// ---------------------------------------------------------------- fixture 8: refusals

#[test]
fn instance_cycle_is_refused() {
    for file in ["broken/cycle_a.tscn", "broken/cycle_b.tscn"] {
        let path = fixtures().join(file);
        match import_file(&path) {
            Ok(im) => panic!("{file}: a cycle was imported: {:?}", im.report.notes),
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains("cycle"), "{file}: {msg}");
                assert!(
                    msg.contains("cycle_a.tscn") && msg.contains("cycle_b.tscn"),
                    "{file}: {msg}"
                );
            }
        }
    }
}

#[test]
fn binary_scn_instance_is_missing_with_a_note() {
    let im = import("broken/uses_binary.tscn");
    assert_global(
        &im.scene,
        "Host/Packed",
        godot_local([7.0, 8.0], 0.5, [1.0, 1.0], 0.0),
    );
    let missing = notes_of(&im.report, NoteKind::Missing);
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(missing[0].contains("binary"), "{missing:?}");
    assert!(missing[0].contains("packed.scn"), "{missing:?}");
}

#[test]
fn malformed_text_reports_path_line_and_column() {
    let path = fixtures().join("broken/typo.tscn");
    // Line 5: the value's closing parenthesis is missing.
    let text = "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\
                rotation = 0.5\nposition = Vector2(1, 2\n";
    let msg = match import_text(text, &path) {
        Ok(_) => panic!("malformed text imported"),
        Err(e) => e.to_string(),
    };
    // Line 5, column 19: the '(' that is never closed.
    let place = format!("{}:5:19:", path.display());
    assert!(
        msg.starts_with(&place) && msg.contains("never closed"),
        "{msg}"
    );
    // A key without '=': line 4, column 10 (after `position` and a space).
    let text = "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\
                position Vector2(1, 2)\n";
    let msg = match import_text(text, &path) {
        Ok(_) => panic!("malformed text imported"),
        Err(e) => e.to_string(),
    };
    assert!(
        msg.starts_with(&format!("{}:4:10:", path.display())),
        "{msg}"
    );
}

#[test]
fn malformed_file_reports_path_line_and_column() {
    let path = fixtures().join("broken/malformed.tscn");
    let msg = match import_file(&path) {
        Ok(_) => panic!("malformed file imported"),
        Err(e) => e.to_string(),
    };
    // The `[node` header of line 9 is never closed.
    assert!(
        msg.starts_with(&format!("{}:9:1:", path.display())) && msg.contains("never closed"),
        "{msg}"
    );
}

#[test]
fn malformed_instanced_file_names_that_file() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("project.godot"), "config_version=5\n")?;
    std::fs::write(
        dir.path().join("part.tscn"),
        "[gd_scene format=3]\n\n[node name=\"Part\" type=\"Node2D\"]\nscale = Vector2(1, 2, \n",
    )?;
    let main = dir.path().join("main.tscn");
    let text = "[gd_scene load_steps=2 format=3]\n\n\
                [ext_resource type=\"PackedScene\" path=\"res://part.tscn\" id=\"1\"]\n\n\
                [node name=\"Main\" type=\"Node2D\"]\n\n\
                [node name=\"Part\" parent=\".\" instance=ExtResource(\"1\")]\n";
    std::fs::write(&main, text)?;
    let msg = match import_file(&main) {
        Ok(_) => panic!("a broken instance imported"),
        Err(e) => e.to_string(),
    };
    assert!(
        msg.contains(&format!("{}:4:", dir.path().join("part.tscn").display())),
        "{msg}"
    );
    Ok(())
}

#[test]
fn without_project_godot_res_paths_come_from_the_scene_folder()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    std::fs::write(
        dir.path().join("part.tscn"),
        "[gd_scene format=3]\n\n[node name=\"Part\" type=\"Node2D\"]\nrotation = 0.25\n",
    )?;
    let text = "[gd_scene load_steps=2 format=3]\n\n\
                [ext_resource type=\"PackedScene\" path=\"res://part.tscn\" id=\"1\"]\n\n\
                [node name=\"Main\" type=\"Node2D\"]\nposition = Vector2(5, 6)\n\n\
                [node name=\"Part\" parent=\".\" instance=ExtResource(\"1\")]\n";
    let im = import_text(text, &dir.path().join("main.tscn"))?;
    assert_global(
        &im.scene,
        "Main/Part",
        at([5.0, 6.0]) * turned([0.0, 0.0], 0.25),
    );
    let approx = notes_of(&im.report, NoteKind::Approximated);
    assert!(
        approx.iter().any(|n| n.contains("project.godot")),
        "{approx:?}"
    );
    assert!(notes_of(&im.report, NoteKind::Missing).is_empty());
    Ok(())
}

// ---------------------------------------------------------------- fixture 9: shapes

#[test]
fn shapes_polygons_rects_circles_capsules() {
    let im = import("shapes.tscn");
    let s = &im.scene;
    // Polygon2D: points moved by `offset` (Godot's y down), then flipped.
    let poly = s.data_at(find(s, "Poly"));
    assert_points(
        &poly.shape,
        &[[5.0, 3.0], [45.0, 3.0], [45.0, -27.0], [5.0, -27.0]],
    );
    assert_eq!(poly.color, [51, 153, 255, 255]);
    let body = godot_local([100.0, 50.0], -0.25, [2.0, 1.0], 0.0);
    assert_global(s, "Poly", turned([10.0, 10.0], 0.5));
    assert_global(s, "Body/Box", body * at([0.0, -10.0]));
    assert_global(s, "Body/Ball", body * turned([30.0, 0.0], 0.3));
    let shape = |p: &str| s.data_at(find(s, p)).shape.clone();
    assert_eq!(
        shape("Box"),
        Shape::Rect {
            size: glam::Vec2::new(40.0, 20.0)
        }
    );
    assert_eq!(
        shape("Ball"),
        Shape::Ellipse {
            size: glam::Vec2::splat(25.0)
        }
    );
    // Godot's default RectangleShape2D is 20 × 20.
    assert_eq!(
        shape("Plain"),
        Shape::Rect {
            size: glam::Vec2::splat(20.0)
        }
    );
    // Godot 4's capsule height is the whole capsule's.
    let pill = extent(&shape("Pill"));
    assert!(
        (pill[0] - 10.0).abs() < 1e-4 && (pill[1] - 30.0).abs() < 1e-4,
        "{pill:?}"
    );
    assert_points(&shape("Outline"), &[[-5.0, 5.0], [5.0, 5.0], [0.0, -8.0]]);
    // A segment is not an area: not drawn, and said so.
    assert_eq!(shape("Line"), Shape::None);
    let skipped = notes_of(&im.report, NoteKind::Skipped);
    assert!(
        skipped.len() == 1 && skipped[0].contains("SegmentShape2D"),
        "{skipped:?}"
    );
    // ColorRect: its size from its offsets, top-left at its position.
    let swatch = s.data_at(find(s, "Swatch"));
    assert_points(
        &swatch.shape,
        &[[0.0, 0.0], [0.0, -25.0], [50.0, -25.0], [50.0, 0.0]],
    );
    assert_global(s, "Swatch", at([-20.0, 40.0]));
}

/// Every polygon point, placed by graft's world matrix, is where Godot draws it (flipped).
#[test]
fn polygon_points_land_where_godot_draws_them() {
    let im = import("shapes.tscn");
    let s = &im.scene;
    let i = find(s, "Poly");
    let world = widen(&s.world_at(i));
    let godot = turned([10.0, 10.0], 0.5);
    let Shape::Polygon { points } = &s.data_at(i).shape else {
        panic!("Poly is not a polygon");
    };
    let godot_points = [[0.0, 0.0], [40.0, 0.0], [40.0, 30.0], [0.0, 30.0]];
    for (p, g) in points.iter().zip(godot_points) {
        let drawn = godot.transform_point2(DVec2::new(g[0] + 5.0, g[1] - 3.0));
        let ours = world.transform_point2(p.as_dvec2());
        assert!(
            (ours - DVec2::new(drawn.x, -drawn.y)).length() < 1e-4,
            "{ours:?} vs {drawn:?}"
        );
    }
}

// ---------------------------------------------------------------- layers and roots instanced

/// A Godot 4.4 scene (`format=4`, `unique_id`, `parent_id_path`) instancing a CanvasLayer
/// scene under a moved Node2D: the layer ignores its ancestors, its Controls turn about their
/// pivots, an editable child's offsets are overridden, and a ball is instanced under a Label.
#[test]
fn instanced_canvas_layer_with_controls() {
    let im = import("instances/game.tscn");
    let s = &im.scene;
    let game = turned([64.0, 32.0], 0.25);
    let camera = game * godot_local([100.0, 0.0], 0.0, [2.0, 2.0], 0.0);
    let hud = godot_local([30.0, 15.0], 0.5, [0.5, 2.0], 0.0);
    // offset_left overridden to 40, offset_top still hud.tscn's 6.
    let score = hud * control_local([40.0, 6.0], 0.2, [1.0, 1.0], [64.0, 12.0]);
    let heart = score * at([-30.0, 0.0]);
    let ball = score * ball_root([5.0, 5.0], 0.2, [1.5, 1.5]);
    let child = ball * turned([10.0, 0.0], 0.5);
    assert_global(s, "Game", game);
    assert_global(s, "Game/Camera", camera);
    assert_global(s, "Hud", hud);
    assert_global(s, "Hud/Score", score);
    assert_global(s, "Score/Heart", heart);
    assert_global(s, "Score/Ball", ball);
    assert_global(s, "Score/Ball/Child", child);
    assert_eq!(graft_parent_name(s, "Hud"), None);
    assert_eq!(child_names(s, "Camera"), Vec::<String>::new());
    let rerooted = notes_of(&im.report, NoteKind::Rerooted);
    assert!(
        rerooted.len() == 1 && rerooted[0].contains("Hud"),
        "{rerooted:?}"
    );
    assert_no_skips(&im);
    assert!(
        notes_of(&im.report, NoteKind::Missing).is_empty(),
        "{:?}",
        im.report.notes
    );
}

/// Godot 3's usual layout: a plain `Node` root instancing the level, a CanvasLayer beside it.
/// The level's own position is replaced; its UI layer stays where it was, whatever the level.
#[test]
fn godot3_plain_root_instancing_a_level() {
    let im = import("godot3/game3.tscn");
    let s = &im.scene;
    let level = at([5.0, 5.0]);
    let pivot = level * godot_local([200.0, 100.0], 1.5708, [1.0, -1.0], 0.0);
    let arm = pivot * xform(1.2, 0.4, 0.3, -0.9, 40.0, 10.0);
    let crate_ = arm * godot_local([8.0, 16.0], -0.5, [0.5, 0.5], 0.0);
    let spare = pivot * godot_local([0.0, 0.0], 3.14159, [0.5, 0.5], 0.0);
    let ui = turned([10.0, 10.0], 0.1);
    assert_global(s, "Game", DAffine2::IDENTITY);
    assert_global(s, "Game/Level", level);
    assert_global(s, "Level/Pivot", pivot);
    assert_global(s, "Arm/Crate", crate_);
    assert_global(s, "Arm/Crate/Lid", crate_ * turned([2.0, -12.0], 0.3));
    assert_global(s, "Pivot/Spare", spare);
    assert_global(s, "Spare/Lid", spare * turned([0.0, -10.0], 0.3));
    assert_global(s, "UI", ui);
    assert_global(s, "InterfaceLayer", DAffine2::IDENTITY);
    assert_global(
        s,
        "InterfaceLayer/Crate",
        godot_local([8.0, 8.0], 0.0, [0.5, 0.5], 0.0),
    );
    assert_eq!(s.data_at(0).name, "Game");
    assert_eq!(graft_parent_name(s, "Level").as_deref(), Some("Game"));
    assert_no_skips(&im);
}

/// An inherited scene whose base file is gone: its root is an empty Node2D with its overrides.
#[test]
fn inherited_scene_with_a_missing_base() {
    let text = "[gd_scene load_steps=2 format=3]\n\n\
                [ext_resource type=\"PackedScene\" path=\"res://instances/gone.tscn\" id=\"1\"]\n\n\
                [node name=\"Orphan\" instance=ExtResource(\"1\")]\n\
                position = Vector2(9, -3)\nrotation = 0.6\n\n\
                [node name=\"Kid\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(1, 0)\n";
    let im = match import_text(text, &fixtures().join("instances/orphan.tscn")) {
        Ok(im) => im,
        Err(e) => panic!("{e}"),
    };
    let orphan = turned([9.0, -3.0], 0.6);
    assert_global(&im.scene, "Orphan", orphan);
    assert_global(&im.scene, "Orphan/Kid", orphan * at([1.0, 0.0]));
    let missing = notes_of(&im.report, NoteKind::Missing);
    assert!(
        missing.len() == 1 && missing[0].contains("gone.tscn"),
        "{missing:?}"
    );
}

/// Every node left out is counted by class, the plain children of a plain node too.
#[test]
fn skipped_nodes_are_all_counted() {
    let text = "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n\
                [node name=\"Sounds\" type=\"Node\" parent=\".\"]\n\n\
                [node name=\"Jump\" type=\"AudioStreamPlayer\" parent=\"Sounds\"]\n\n\
                [node name=\"Land\" type=\"AudioStreamPlayer\" parent=\"Sounds\"]\n";
    let im = match import_text(text, &fixtures().join("sounds.tscn")) {
        Ok(im) => im,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(im.scene.len(), 1);
    assert_eq!(
        im.report.skipped,
        counts(&[("Node", 1), ("AudioStreamPlayer", 2)])
    );
}

// ---------------------------------------------------------------- what is approximated

/// Unknown classes are guessed from their properties, non-finite numbers read as identity,
/// anchored Controls placed by their offsets: each said in a note, none of them fatal.
#[test]
fn approximations_are_noted() {
    let text = "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n\
                [node name=\"Hero\" type=\"HeroBody\" parent=\".\"]\nposition = Vector2(4, 5)\n\n\
                [node name=\"Brain\" type=\"StateMachine\" parent=\".\"]\n\n\
                [node name=\"Broken\" type=\"Node2D\" parent=\".\"]\n\
                position = Vector2(inf, 0)\nrotation = 0.5\n\n\
                [node name=\"UI\" type=\"CanvasLayer\" parent=\".\"]\n\n\
                [node name=\"Footer\" type=\"Label\" parent=\"UI\"]\n\
                anchors_preset = 12\nanchor_top = 1.0\nanchor_right = 1.0\nanchor_bottom = 1.0\n\
                offset_top = -23.0\ngrow_horizontal = 2\ngrow_vertical = 0\n";
    let path = fixtures().join("approximated.tscn");
    let im = match import_text(text, &path) {
        Ok(im) => im,
        Err(e) => panic!("{e}"),
    };
    let s = &im.scene;
    assert_global(s, "Root/Hero", at([4.0, 5.0]));
    assert_global(s, "Root/Broken", DAffine2::IDENTITY);
    assert_global(s, "UI/Footer", at([0.0, -23.0]));
    let approx = notes_of(&im.report, NoteKind::Approximated);
    let has = |what: &[&str]| approx.iter().any(|n| what.iter().all(|w| n.contains(w)));
    assert!(has(&["HeroBody", "Node2D"]), "{approx:?}");
    assert!(has(&["StateMachine"]), "{approx:?}");
    assert!(has(&["position", "finite"]), "{approx:?}");
    assert!(has(&["Footer", "anchors"]), "{approx:?}");
    // Each note names its line.
    assert!(
        im.report
            .notes
            .iter()
            .any(|n| n.kind == NoteKind::Approximated && n.place.ends_with("approximated.tscn:10")),
        "{:?}",
        im.report.notes
    );
    assert_eq!(im.report.skipped, counts(&[("StateMachine", 1)]));
}

// ---------------------------------------------------------------- sprites

/// The sprite shape of the node at `path`: (image path, size, region, offset).
#[track_caller]
fn sprite_of(scene: &Scene, path: &str) -> (String, [f32; 2], Option<[f32; 4]>, [f32; 2]) {
    match &scene.data_at(find(scene, path)).shape {
        Shape::Sprite(s) => (
            s.path.clone(),
            s.size.to_array(),
            s.region,
            s.offset.to_array(),
        ),
        other => panic!("{path}: expected a sprite, got {other:?}"),
    }
}

/// Sprite2D as Godot draws it (a 16 × 8 px image): its size, the part shown (region, frame,
/// flip), where its centre is (centred or not, `offset`, y flipped), its tint.
#[test]
fn sprites_size_region_frames_flips_and_offsets() {
    let im = import("sprites.tscn");
    let s = &im.scene;
    let image = fixtures().join("strip.png");
    let (file, size, region, offset) = sprite_of(s, "Whole");
    assert_eq!(Path::new(&file), image);
    assert_eq!((size, region, offset), ([16.0, 8.0], None, [0.0, 0.0]));
    assert_global(s, "Whole", at([10.0, 20.0]));
    // Not centred: the image's top-left corner at `offset`, so its centre at offset + size/2.
    let (_, size, region, offset) = sprite_of(s, "Corner");
    assert_eq!((size, region, offset), ([16.0, 8.0], None, [10.0, -7.0]));
    // Frame 1 of 2 across: the right half, mirrored left to right.
    let (_, size, region, offset) = sprite_of(s, "Frame");
    assert_eq!(
        (size, region, offset),
        ([8.0, 8.0], Some([1.0, 0.0, 0.5, 1.0]), [0.0, 0.0])
    );
    // A region in pixels, as fractions of the image.
    let (_, size, region, offset) = sprite_of(s, "Region");
    assert_eq!(
        (size, region, offset),
        ([8.0, 4.0], Some([0.25, 0.25, 0.75, 0.75]), [0.0, 0.0])
    );
    assert_eq!(s.data_at(find(s, "Region")).color, [255, 128, 0, 255]);
    // An image that is not there: a box, and a note.
    let missing = notes_of(&im.report, NoteKind::Missing);
    assert!(
        missing.len() == 1 && missing[0].contains("nowhere.png"),
        "{missing:?}"
    );
}

/// An AtlasTexture shows only its region: Godot draws the 8 × 8 left half of the image.
#[test]
fn atlas_texture_shows_its_region() {
    let im = import("sprites.tscn");
    let (_, size, region, _) = sprite_of(&im.scene, "Atlas");
    assert_eq!((size, region), ([8.0, 8.0], Some([0.0, 0.0, 0.5, 1.0])));
}

// ---------------------------------------------------------------- the order of writes

/// Godot applies properties in the order they are written, each setter changing the whole
/// transform: an instance overriding only a CanvasLayer's `offset` moves the layer, even when
/// the instanced scene saved a whole `transform` (as Godot 4 saves for every CanvasLayer).
#[test]
fn later_offset_override_beats_an_earlier_transform() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("project.godot"), "config_version=5\n")?;
    std::fs::write(
        dir.path().join("hud.tscn"),
        "[gd_scene format=3]\n\n[node name=\"Hud\" type=\"CanvasLayer\"]\n\
         offset = Vector2(40, 24)\nscale = Vector2(2, 2)\n\
         transform = Transform2D(2, 0, 0, 2, 40, 24)\n",
    )?;
    let text = "[gd_scene load_steps=2 format=3]\n\n\
                [ext_resource type=\"PackedScene\" path=\"res://hud.tscn\" id=\"1\"]\n\n\
                [node name=\"Main\" type=\"Node2D\"]\n\n\
                [node name=\"Hud\" parent=\".\" instance=ExtResource(\"1\")]\n\
                offset = Vector2(100, 0)\n";
    let im = import_text(text, &dir.path().join("main.tscn"))?;
    // Godot: the scene's transform, then set_offset((100, 0)) keeping the scale 2.
    assert_global(
        &im.scene,
        "Hud",
        godot_local([100.0, 0.0], 0.0, [2.0, 2.0], 0.0),
    );
    Ok(())
}

// ---------------------------------------------------------------- random Godot scenes

mod random {
    //! Random Godot 4 scenes (Node2D, Sprite2D, Node, ColorRect, CanvasLayer, top_level nodes
    //! in any nesting), written as `.tscn` text, imported, and every node's graft world
    //! compared with the global Godot computes by its rules.

    use super::*;
    use proptest::prelude::*;
    use std::fmt::Write as _;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Class {
        Node2D,
        Sprite2D,
        TopLevel,
        Plain,
        Control,
        Layer,
    }

    #[derive(Clone, Debug)]
    struct GodotNode {
        class: Class,
        parent: prop::sample::Index,
        pos: [f64; 2],
        rot: f64,
        scale: [f64; 2],
        skew: f64,
        pivot: [f64; 2],
    }

    fn scale_part() -> impl Strategy<Value = f64> {
        (0.2f64..3.0, any::<bool>()).prop_map(|(s, neg)| if neg { -s } else { s })
    }

    fn godot_node() -> impl Strategy<Value = GodotNode> {
        (
            prop_oneof![
                4 => Just(Class::Node2D),
                1 => Just(Class::Sprite2D),
                1 => Just(Class::TopLevel),
                2 => Just(Class::Plain),
                2 => Just(Class::Control),
                1 => Just(Class::Layer),
            ],
            any::<prop::sample::Index>(),
            (-500.0f64..500.0, -500.0f64..500.0),
            -7.0f64..7.0,
            (scale_part(), scale_part()),
            prop_oneof![Just(0.0), -1.2f64..1.2],
            (-50.0f64..50.0, -50.0f64..50.0),
        )
            .prop_map(|(class, parent, pos, rot, scale, skew, pivot)| GodotNode {
                class,
                parent,
                pos: [pos.0, pos.1],
                rot,
                scale: [scale.0, scale.1],
                skew,
                pivot: [pivot.0, pivot.1],
            })
    }

    /// The scene as text (node k is named `n{k}`; node 0 is a Node2D root) and each node's
    /// Godot parent.
    fn write(nodes: &[GodotNode]) -> (String, Vec<Option<usize>>) {
        let mut parents = vec![None];
        let mut paths = vec![String::new()];
        let mut text = String::from("[gd_scene format=3 uid=\"uid://rand0m\"]\n\n");
        let _ = writeln!(text, "[node name=\"n0\" type=\"Node2D\"]");
        let root = &nodes[0];
        let _ = writeln!(
            text,
            "position = Vector2({:?}, {:?})\nrotation = {:?}\nscale = Vector2({:?}, {:?})\nskew = {:?}\n",
            root.pos[0], root.pos[1], root.rot, root.scale[0], root.scale[1], root.skew
        );
        for (k, n) in nodes.iter().enumerate().skip(1) {
            let p = n.parent.index(k);
            parents.push(Some(p));
            let parent_path = if p == 0 {
                ".".to_string()
            } else {
                paths[p].clone()
            };
            paths.push(if p == 0 {
                format!("n{k}")
            } else {
                format!("{}/n{k}", paths[p])
            });
            let class = match n.class {
                Class::Node2D | Class::TopLevel => "Node2D",
                Class::Sprite2D => "Sprite2D",
                Class::Plain => "Node",
                Class::Control => "ColorRect",
                Class::Layer => "CanvasLayer",
            };
            let _ = writeln!(
                text,
                "[node name=\"n{k}\" type=\"{class}\" parent=\"{parent_path}\"]"
            );
            let v = |a: [f64; 2]| format!("Vector2({:?}, {:?})", a[0], a[1]);
            match n.class {
                Class::Node2D | Class::Sprite2D | Class::TopLevel => {
                    if n.class == Class::TopLevel {
                        let _ = writeln!(text, "top_level = true");
                    }
                    let _ = writeln!(
                        text,
                        "position = {}\nrotation = {:?}\nscale = {}\nskew = {:?}",
                        v(n.pos),
                        n.rot,
                        v(n.scale),
                        n.skew
                    );
                }
                Class::Plain => {}
                Class::Control => {
                    let _ = writeln!(
                        text,
                        "offset_left = {:?}\noffset_top = {:?}\noffset_right = {:?}\noffset_bottom = {:?}\nrotation = {:?}\nscale = {}\npivot_offset = {}",
                        n.pos[0],
                        n.pos[1],
                        n.pos[0] + 40.0,
                        n.pos[1] + 20.0,
                        n.rot,
                        v(n.scale),
                        v(n.pivot)
                    );
                }
                Class::Layer => {
                    let _ = writeln!(
                        text,
                        "offset = {}\nrotation = {:?}\nscale = {}",
                        v(n.pos),
                        n.rot,
                        v(n.scale)
                    );
                }
            }
            text.push('\n');
        }
        (text, parents)
    }

    /// Entry-wise absolute values.
    fn abs(m: DAffine2) -> DAffine2 {
        DAffine2::from_cols_array(&m.to_cols_array().map(f64::abs))
    }

    /// Godot's rules: what each node draws with (its visible global transform), and a bound
    /// on the size of the numbers that went into it (the same products taken on absolute
    /// values), which is what f32 rounding scales with when terms cancel.
    fn godot_globals(
        nodes: &[GodotNode],
        parents: &[Option<usize>],
    ) -> (Vec<DAffine2>, Vec<DAffine2>) {
        let mut local = Vec::with_capacity(nodes.len());
        let mut local_mag = Vec::with_capacity(nodes.len());
        for (k, n) in nodes.iter().enumerate() {
            let node2d = || godot_local(n.pos, n.rot, n.scale, n.skew);
            let (m, mag) = match n.class {
                Class::Node2D | Class::Sprite2D | Class::TopLevel => (node2d(), abs(node2d())),
                // Node 0 is written as a Node2D whatever its class says.
                _ if k == 0 => (node2d(), abs(node2d())),
                Class::Plain => (DAffine2::IDENTITY, DAffine2::IDENTITY),
                Class::Control => {
                    let pivot = DVec2::new(n.pivot[0], n.pivot[1]);
                    let to = DAffine2::from_translation(DVec2::new(n.pos[0], n.pos[1]) + pivot);
                    let rs = godot_local([0.0, 0.0], n.rot, n.scale, 0.0);
                    let back = DAffine2::from_translation(-pivot);
                    (
                        control_local(n.pos, n.rot, n.scale, n.pivot),
                        abs(to) * abs(rs) * abs(back),
                    )
                }
                Class::Layer => {
                    let m = godot_local(n.pos, n.rot, n.scale, 0.0);
                    (m, abs(m))
                }
            };
            local.push(m);
            local_mag.push(mag);
        }
        let class = |k: usize| {
            if k == 0 {
                Class::Node2D
            } else {
                nodes[k].class
            }
        };
        let is_canvas_item = |k: usize| {
            matches!(
                class(k),
                Class::Node2D | Class::Sprite2D | Class::TopLevel | Class::Control
            )
        };
        // The CanvasLayer a node is drawn in: its nearest Layer ancestor.
        let layer_of = |k: usize| {
            let mut at = parents[k];
            while let Some(p) = at {
                if class(p) == Class::Layer {
                    return Some(p);
                }
                at = parents[p];
            }
            None
        };
        let layer_xform = |k: usize| layer_of(k).map_or(DAffine2::IDENTITY, |l| local[l]);
        let layer_mag = |k: usize| layer_of(k).map_or(DAffine2::IDENTITY, |l| local_mag[l]);
        let mut global: Vec<DAffine2> = Vec::with_capacity(nodes.len());
        let mut mag: Vec<DAffine2> = Vec::with_capacity(nodes.len());
        for k in 0..nodes.len() {
            let (g, m) = match class(k) {
                Class::Layer => (local[k], local_mag[k]),
                // No transform: what its 2D children would draw with, starting again.
                Class::Plain => (layer_xform(k), layer_mag(k)),
                Class::TopLevel => (layer_xform(k) * local[k], layer_mag(k) * local_mag[k]),
                _ => match parents[k] {
                    Some(p) if is_canvas_item(p) => (global[p] * local[k], mag[p] * local_mag[k]),
                    _ => (layer_xform(k) * local[k], layer_mag(k) * local_mag[k]),
                },
            };
            global.push(g);
            mag.push(m);
        }
        (global, mag)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn random_godot_scenes_import_exactly(
            nodes in prop::collection::vec(godot_node(), 1..30)
        ) {
            let (text, parents) = write(&nodes);
            let im = match import_text(&text, &fixtures().join("random.tscn")) {
                Ok(im) => im,
                Err(e) => panic!("{e}\n{text}"),
            };
            let (expected, magnitude) = godot_globals(&nodes, &parents);
            let s = &im.scene;
            for i in 0..s.len() {
                let name = &s.data_at(i).name;
                let Some(k) = name.strip_prefix('n').and_then(|k| k.parse::<usize>().ok()) else {
                    panic!("unexpected node {name:?}\n{text}");
                };
                let actual = widen(&s.world_at(i));
                let want = to_graft(expected[k]);
                // 1e-5 of the largest number that went into the product (at least 1).
                let size = magnitude[k].to_cols_array().iter().fold(1.0_f64, |m, x| m.max(*x));
                let close = actual
                    .to_cols_array()
                    .iter()
                    .zip(want.to_cols_array())
                    .all(|(a, b)| (a - b).abs() <= 1e-5 * size);
                prop_assert!(
                    close,
                    "{name}: graft {:?}, Godot (flipped) {:?}\n{text}",
                    actual.to_cols_array(),
                    want.to_cols_array()
                );
            }
            // Only plain nodes with nothing 2D below are left out.
            let drawn = nodes.iter().skip(1).filter(|n| n.class != Class::Plain).count();
            prop_assert!(s.len() > drawn, "{} nodes for {drawn} drawn ones\n{text}", s.len());
            prop_assert!(notes_of(&im.report, NoteKind::Skipped).is_empty());
        }
    }
}
