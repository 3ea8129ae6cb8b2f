//! Point probes without a window (they live in a node's space, follow its ancestors, are
//! undoable, saved in format 2 and go with their node), and the other format-2 additions:
//! polygons and sprite regions.

mod common;

use common::sword_scene;
use glam::{DVec2, Vec2};
use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, HistoryCommand, PanelCommand, ProbeCommand, SelectionCommand,
};
use graft::editor::session::probes::ProbeRef;
use graft::editor::view::geometry::{ScreenShape, shape_contains};
use graft::editor::view::spaces::carry_point;
use graft::model::document::Document;
use graft::model::file::{parse, to_ron_string};
use graft::model::math::Trs;
use graft::model::scene::{NodeId, Shape, Sprite};
use std::path::Path;

const ARM: NodeId = NodeId(2);
const HAND: NodeId = NodeId(3);

fn editor() -> Editor {
    let mut e = Editor::new(Document::untitled(sword_scene()));
    e.update_world();
    e
}

fn run(e: &mut Editor, c: Command) {
    e.apply(c).expect("command applies");
    e.update_world();
}

fn near(a: DVec2, b: DVec2) -> bool {
    (a - b).length() <= 1e-5 * (1.0 + b.length())
}

/// Select the hand and drop a probe at world (2, 3): in the hand's space that is (1, 0) (the
/// hand sits at (2, 2) turned 90°: its x axis points up the world's y).
fn hand_with_probe() -> Editor {
    let mut e = editor();
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![HAND])),
    );
    run(
        &mut e,
        Command::Probe(ProbeCommand::Add {
            world: DVec2::new(2.0, 3.0),
        }),
    );
    e
}

#[test]
fn a_probe_lives_in_its_node_space_and_reads_out_every_space() {
    let e = hand_with_probe();
    let readings = e.probe_readings();
    assert_eq!(readings.len(), 1);
    let r = &readings[0];
    assert_eq!(r.label, "P1");
    assert_eq!(r.owner, "hand");
    assert!(
        (r.local - Vec2::new(1.0, 0.0)).length() < 1e-5,
        "{:?}",
        r.local
    );
    assert!(near(r.world.unwrap(), DVec2::new(2.0, 3.0)));
    // The selection is the hand: its space is the probe's own; its parent is the arm.
    assert!(near(r.in_selection.unwrap(), DVec2::new(1.0, 0.0)));
    let in_arm = carry_point(e.doc().scene(), None, Some(ARM), DVec2::new(2.0, 3.0)).unwrap();
    assert!(near(r.in_parent.unwrap(), in_arm));
    assert!(near(in_arm, DVec2::new(1.0, 3.0)), "{in_arm}");
}

#[test]
fn moving_an_ancestor_changes_world_numbers_not_the_probe_space_numbers() {
    let mut e = hand_with_probe();
    let before = e.probe_readings()[0].clone();
    let turned = Trs::new(Vec2::new(0.0, 2.0), 45.0, Vec2::new(2.0, 1.0), 0.0);
    run(&mut e, common::paste_local(ARM, turned));
    let after = e.probe_readings()[0].clone();
    assert_eq!(after.local, before.local, "the stored numbers never change");
    assert_eq!(after.in_selection, before.in_selection);
    assert!(!near(after.world.unwrap(), before.world.unwrap()));
    let expected = e
        .doc()
        .scene()
        .world(HAND)
        .unwrap()
        .transform_point2(after.local);
    assert!(near(after.world.unwrap(), expected.as_dvec2()));
    run(&mut e, Command::History(HistoryCommand::Undo));
    assert!(near(
        e.probe_readings()[0].world.unwrap(),
        before.world.unwrap()
    ));
}

#[test]
fn probes_are_undoable_and_a_drag_is_one_step() {
    let mut e = hand_with_probe();
    let probe = ProbeRef {
        node: HAND,
        index: 0,
    };
    for k in 1..=5 {
        run(
            &mut e,
            Command::Probe(ProbeCommand::Move {
                probe,
                world: DVec2::new(2.0, 3.0 + k as f64),
                continuous: true,
            }),
        );
    }
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    assert!(near(
        e.probe_readings()[0].world.unwrap(),
        DVec2::new(2.0, 8.0)
    ));
    assert!((e.probe_readings()[0].local - Vec2::new(6.0, 0.0)).length() < 1e-5);
    run(&mut e, Command::History(HistoryCommand::Undo)); // the whole drag
    assert!(near(
        e.probe_readings()[0].world.unwrap(),
        DVec2::new(2.0, 3.0)
    ));
    run(&mut e, Command::History(HistoryCommand::Undo)); // the drop
    assert!(e.probe_readings().is_empty());
    run(&mut e, Command::History(HistoryCommand::Redo));
    assert_eq!(e.probe_readings().len(), 1);
    run(&mut e, Command::Probe(ProbeCommand::Remove(probe)));
    assert!(e.probe_readings().is_empty());
    run(&mut e, Command::History(HistoryCommand::Undo));
    assert_eq!(e.probe_readings().len(), 1);
}

#[test]
fn deleting_the_node_takes_its_probes_and_undo_brings_them_back() {
    let mut e = hand_with_probe();
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![ARM])),
    );
    run(&mut e, Command::Edit(EditCommand::Delete));
    assert!(e.probe_readings().is_empty());
    run(&mut e, Command::History(HistoryCommand::Undo));
    let r = &e.probe_readings()[0];
    assert_eq!(r.probe.node, HAND);
    assert!(near(r.world.unwrap(), DVec2::new(2.0, 3.0)));
}

#[test]
fn a_duplicate_carries_copies_of_its_probes() {
    let mut e = hand_with_probe();
    run(&mut e, Command::Edit(EditCommand::Duplicate));
    let readings = e.probe_readings();
    assert_eq!(readings.len(), 2);
    assert_eq!(readings[0].local, readings[1].local);
    assert_ne!(readings[0].probe.node, readings[1].probe.node);
    assert_eq!(readings[1].label, "P2");
}

#[test]
fn a_probe_needs_a_selected_regular_node_and_finite_numbers() {
    let mut e = editor();
    let at = DVec2::new(1.0, 1.0);
    let err = e.apply(Command::Probe(ProbeCommand::Add { world: at }));
    assert!(err.unwrap_err().to_string().contains("Select the node"));
    let flat = Trs::new(Vec2::ZERO, 0.0, Vec2::new(0.0, 1.0), 0.0);
    run(&mut e, common::paste_local(ARM, flat));
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![HAND])),
    );
    let err = e
        .apply(Command::Probe(ProbeCommand::Add { world: at }))
        .unwrap_err();
    assert!(err.to_string().contains("singular"), "{err}");
    run(&mut e, Command::History(HistoryCommand::Undo));
    run(&mut e, Command::Probe(ProbeCommand::Add { world: at }));
    let probe = e.probe_readings()[0].probe;
    let steps = e.doc().history().labels().0.len();
    let err = e.apply(Command::Probe(ProbeCommand::SetLocal {
        probe,
        local: Vec2::new(f32::NAN, 0.0),
        continuous: false,
    }));
    assert!(err.is_err());
    let gone = ProbeRef {
        node: HAND,
        index: 7,
    };
    assert!(e.apply(Command::Probe(ProbeCommand::Remove(gone))).is_err());
    assert_eq!(
        e.doc().history().labels().0.len(),
        steps,
        "refusals record nothing"
    );
}

#[test]
fn readings_in_other_spaces_agree_with_carry_point() {
    let mut e = hand_with_probe();
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![NodeId(4)])),
    ); // the sword
    let r = &e.probe_readings()[0];
    let scene = e.doc().scene();
    let local = r.local.as_dvec2();
    let in_sword = carry_point(scene, Some(HAND), Some(NodeId(4)), local).unwrap();
    let in_hand = carry_point(scene, Some(HAND), Some(HAND), local).unwrap();
    assert!(near(r.in_selection.unwrap(), in_sword));
    assert!(near(r.in_parent.unwrap(), in_hand));
    assert!(
        near(in_sword, DVec2::new(0.0, 0.0)),
        "the probe sits on the sword's origin"
    );
}

#[test]
fn probes_polygons_and_regions_save_as_format_2_and_read_back_bit_exact() {
    let mut e = hand_with_probe();
    let polygon = Shape::Polygon {
        points: thin_vec::thin_vec![
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(0.0, -0.0),
            Vec2::new(0.1, 1.5),
        ],
    };
    let sprite = Shape::from(Sprite {
        path: "a.png".into(),
        size: Vec2::new(2.0, 1.0),
        region: Some([0.25, 0.0, 0.5, 1.0]),
        offset: Vec2::new(0.5, -0.25),
    });
    for (node, shape, color) in [
        (NodeId(1), polygon, [1, 2, 3, 4]),
        (NodeId(4), sprite, [9, 9, 9, 255]),
    ] {
        run(
            &mut e,
            Command::Panel(PanelCommand::SetLook { node, shape, color }),
        );
    }
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    let scene = e.doc().scene();
    let text = to_ron_string(scene);
    assert!(text.contains("format: 2"), "{text}");
    assert!(text.contains("probes: [(1.0, "), "{text}");
    assert!(text.contains("Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (0.0, -0.0), (0.1, 1.5)])"));
    assert!(text.contains("region: (0.25, 0.0, 0.5, 1.0)"), "{text}");
    let back = parse(&text, Path::new("t.ron")).unwrap();
    assert!(back == *scene);
    assert_eq!(to_ron_string(&back), text);
}

#[test]
fn a_scene_without_new_features_still_saves_as_format_1() {
    let text = to_ron_string(&sword_scene());
    assert!(text.contains("format: 1,"));
    let sample = std::fs::read_to_string("scenes/sword.ron").unwrap();
    assert!(parse(&sample, Path::new("sword.ron")).is_ok());
}

#[test]
fn format_1_refuses_format_2_features_and_unknown_versions_are_refused() {
    let v1_probe = "(format: 1, nodes: [(id: 1, probes: [(1.0, 2.0)])])";
    let err = parse(v1_probe, Path::new("p.ron")).unwrap_err().to_string();
    assert!(err.contains("probes need `format: 2`"), "{err}");
    let v1_poly = "(format: 1, nodes: [(id: 1, shape: Polygon(points: [(0.0, 0.0)]))])";
    let err = parse(v1_poly, Path::new("p.ron")).unwrap_err().to_string();
    assert!(err.contains("Polygon shapes need `format: 2`"), "{err}");
    let v5 = "(format: 6, nodes: [])";
    let err = parse(v5, Path::new("p.ron")).unwrap_err().to_string();
    assert!(err.contains("format 6 is not supported"), "{err}");
    let nan = "(format: 2, nodes: [(id: 1, probes: [(1.0, inf)])])";
    assert!(parse(nan, Path::new("p.ron")).is_err());
    let ok = "(format: 2, nodes: [(id: 1, probes: [(1.0, 2.0)])])";
    let scene = parse(ok, Path::new("p.ron")).unwrap();
    assert_eq!(scene.data_at(0).probes, vec![Vec2::new(1.0, 2.0)]);
}

#[test]
fn a_concave_polygon_hit_tests_and_triangulates_exactly() {
    // An L: the notch at (1.5, 1.5) is outside.
    let points = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(0.0, 2.0),
    ];
    let shape = Shape::Polygon {
        points: points.clone().into(),
    };
    assert!(shape_contains(&shape, DVec2::new(0.5, 1.5)));
    assert!(shape_contains(&shape, DVec2::new(1.5, 0.5)));
    assert!(!shape_contains(&shape, DVec2::new(1.5, 1.5)));
    assert!(!shape_contains(&shape, DVec2::new(-0.1, 0.5)));
    let mut screen = ScreenShape::new();
    let m = glam::DAffine2::from_scale(DVec2::splat(10.0));
    let rect =
        graft::editor::view::camera::ScreenRect::from_min_size(Vec2::ZERO, Vec2::splat(100.0));
    screen.compute(&shape, &m, rect);
    assert_eq!(screen.outline.len(), 6);
    assert_eq!(screen.triangles.len(), 3 * 4, "n - 2 triangles");
    // The triangles cover exactly the L's area (3 squares of 10 px).
    let area: f32 = screen
        .triangles
        .chunks_exact(3)
        .map(|t| {
            let [a, b, c] = [0, 1, 2].map(|k| screen.outline[t[k] as usize]);
            ((b - a).perp_dot(c - a) * 0.5).abs()
        })
        .sum();
    assert!((area - 300.0).abs() < 1e-3, "{area}");
}

/// Far from the origin and at extreme scales: a probe under a node at (1e7, 1e5) scaled 1e-6
/// reads back the world point it was dropped at (to f32's resolution there), and one under a
/// 1e6 scale keeps its local numbers exact while its world numbers are huge.
#[test]
fn probes_far_away_and_at_extreme_scales() {
    use graft::model::scene::{NodeData, NodeSpec, Scene};
    let far = |scale: f32| {
        Scene::from_specs(vec![NodeSpec {
            id: NodeId(1),
            parent: None,
            data: NodeData::named(
                "far",
                Trs::new(Vec2::new(1e7, 1e5), 30.0, Vec2::splat(scale), 0.0),
            ),
        }])
        .unwrap()
    };
    for (scale, offset) in [(1e-6f32, 2e-6f64), (1e6, 5e5)] {
        let mut e = Editor::new(Document::untitled(far(scale)));
        e.update_world();
        run(
            &mut e,
            Command::Selection(SelectionCommand::Select(vec![NodeId(1)])),
        );
        let at = DVec2::new(1e7 + offset, 1e5 - offset);
        run(&mut e, Command::Probe(ProbeCommand::Add { world: at }));
        let r = &e.probe_readings()[0];
        let world = r.world.unwrap();
        // f32 positions near 1e7 step by 1: the world reading is exact to that step.
        assert!(
            (world - at).length() <= 2.0,
            "scale {scale}: {world} vs {at}"
        );
        let back = carry_point(e.doc().scene(), None, Some(NodeId(1)), at).unwrap();
        assert!((r.local.as_dvec2() - back).length() <= 1e-3 * back.length().max(1.0));
        assert!(r.local.is_finite());
    }
}
