//! The .ron contract: every rejection rule names its place, oddities load, saves are
//! canonical, bit-exact and atomic.

mod common;

use glam::Vec2;
use graft::Error;
use graft::model::file::{self, parse, parse_with_node_limit, to_ron_string};
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, Scene, Shape, Sprite};
use proptest::prelude::*;
use std::path::Path;

fn load_text(text: &str) -> Result<Scene, Error> {
    parse(text, Path::new("test.ron"))
}

#[track_caller]
fn rejected(text: &str, expected: &str) {
    match load_text(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => assert!(
            e.to_string().contains(expected),
            "message {:?} lacks {expected:?}",
            e.to_string()
        ),
    }
}

#[test]
fn syntax_errors_name_line_and_column() {
    rejected(
        "(\n    format: 1,\n    nodes: [\n        (id: 1 name: \"a\"),\n    ],\n)",
        "test.ron:4:16:",
    );
    rejected("(format: 1, nodes: [(id: 1,)]", "test.ron:1:29:");
    rejected("", "test.ron:1:1:");
    rejected(
        "(format: 1, nodes: [(id: 1, color: (300, 0, 0, 255))])",
        "test.ron:1:37:",
    );
    rejected("(format: 1, nodes: [(id: -4)])", "test.ron:1:27:");
}

#[test]
fn unknown_keys_are_errors_with_their_place() {
    rejected("(format: 1, nodes: [], extra: 3)", "test.ron:1:");
    let err = load_text("(format: 1, nodes: [(id: 1, postion: (1.0, 2.0))])").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("test.ron:1:") && msg.contains("postion"),
        "{msg}"
    );
    rejected(
        "(format: 1, nodes: [(id: 1, shape: Circle(r: 1.0))])",
        "test.ron:1:",
    );
}

#[test]
fn format_must_be_present_and_known() {
    rejected("(nodes: [])", "test.ron: `format` is missing");
    rejected(
        "(format: 4, nodes: [])",
        "test.ron: format 4 is not supported (this graft reads formats 1 to 3",
    );
    rejected(
        "(format: 0, nodes: [])",
        "test.ron: format 0 is not supported",
    );
    assert!(load_text("(format: 2, nodes: [])").is_ok());
}

#[test]
fn meaning_errors_name_the_node() {
    rejected(
        "(format: 1, nodes: [(id: 1), (id: 1)])",
        "test.ron: node 1: duplicate id",
    );
    rejected(
        "(format: 1, nodes: [(id: 7, parent: Some(12))])",
        "test.ron: node 7: parent 12 does not exist",
    );
    rejected(
        "(format: 1, nodes: [(id: 3, parent: Some(3))])",
        "test.ron: node 3: parent cycle (3 -> 3)",
    );
    rejected(
        "(format: 1, nodes: [(id: 1), (id: 2, parent: Some(4)), (id: 4, parent: Some(9)), (id: 9, parent: Some(2))])",
        "test.ron: node 2: parent cycle (2 -> 4 -> 9 -> 2)",
    );
    rejected(
        "(format: 1, nodes: [(id: 5, rotation: NaN)])",
        "test.ron: node 5: rotation is not a finite number",
    );
    rejected(
        "(format: 1, nodes: [(id: 5, position: (inf, 0.0))])",
        "node 5: position is not a finite number",
    );
    rejected(
        "(format: 1, nodes: [(id: 5, scale: (1.0, -inf))])",
        "node 5: scale is not a finite number",
    );
    rejected(
        "(format: 1, nodes: [(id: 5, skew: NaN)])",
        "node 5: skew is not a finite number",
    );
    rejected(
        "(format: 1, nodes: [(id: 5, shape: Rect(size: (NaN, 1.0)))])",
        "node 5: shape size is not a finite number",
    );
}

#[test]
fn too_many_nodes_are_refused_before_building() {
    let text = "(format: 1, nodes: [(id: 1), (id: 2), (id: 3), (id: 4)])";
    let err = parse_with_node_limit(text, Path::new("big.ron"), 3).unwrap_err();
    assert!(
        err.to_string().starts_with("big.ron:1:") && err.to_string().contains("more than 3 nodes"),
        "{err}"
    );
    assert_eq!(
        parse_with_node_limit(text, Path::new("big.ron"), 4)
            .unwrap()
            .len(),
        4
    );
    assert_eq!(file::MAX_NODES, 10_000_000);
}

#[test]
fn deep_nesting_fails_cleanly() {
    let deep = format!(
        "(format: 1, nodes: [(id: 1, name: {}\"x\"{})])",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let err = load_text(&deep).unwrap_err();
    assert!(err.to_string().starts_with("test.ron:1:"), "{err}");
    let deep_list = format!(
        "(format: 1, nodes: {}{})",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    assert!(load_text(&deep_list).is_err());
}

#[test]
fn valid_oddities_load() {
    let crlf = "// comment\r\n(\r\n  format: 1,\r\n  nodes: [\r\n    (id: 1, name: \"a\"),\r\n  ],\r\n)\r\n";
    assert_eq!(load_text(crlf).unwrap().len(), 1);
    let text = r#"
        /* block comment */
        Scene(
            format: 1, // trailing comments too
            nodes: [
                (id: 2, name: "ähre ✨ 剣", parent: Some(1), scale: (-1.0, 1.0),),
                (id: 1, name: "root", shape: Sprite(path: "../assets/fish.png"),),
            ],
        )
    "#;
    let scene = load_text(text).unwrap();
    assert_eq!(scene.children(None).unwrap(), vec![NodeId(1)]);
    let fish = scene.node(NodeId(2)).unwrap();
    assert_eq!(fish.name, "ähre ✨ 剣");
    assert_eq!(fish.local.scale, Vec2::new(-1.0, 1.0));
    assert!(
        matches!(&scene.node(NodeId(1)).unwrap().shape, Shape::Sprite(s) if s.size == Vec2::ONE)
    );
    assert!(load_text("(format: 1, nodes: [])").unwrap().is_empty());
    assert!(load_text("(format: 1)").unwrap().is_empty());
}

#[test]
fn canonical_text_omits_defaults_and_keeps_order() {
    let scene = common::sword_scene();
    let text = to_ron_string(&scene);
    assert!(text.starts_with("// graft scene"), "{text}");
    assert!(
        text.contains("(id: 1, name: \"body\", position: (5.0, 0.0)),"),
        "{text}"
    );
    assert!(
        text.contains(
            "(id: 2, name: \"arm\", parent: Some(1), position: (0.0, 2.0), rotation: 90.0),"
        ),
        "{text}"
    );
    assert!(!text.contains("scale"), "defaults are omitted: {text}");
    assert_eq!(load_text(&text).unwrap(), scene);
}

#[test]
fn sample_scenes_load_with_the_seed_numbers() {
    let sword = file::load(Path::new("scenes/sword.ron")).unwrap();
    let expected = [
        (1, (5.0, 0.0)),
        (2, (5.0, 2.0)),
        (3, (2.0, 2.0)),
        (4, (2.0, 3.0)),
    ];
    for (id, (x, y)) in expected {
        common::assert_vec_near(
            sword.world(NodeId(id)).unwrap().translation,
            Vec2::new(x, y),
        );
    }
    let shear = file::load(Path::new("scenes/shear.ron")).unwrap();
    let m = graft::model::math::shear_metrics(&shear.world(NodeId(2)).unwrap());
    assert!((m.dot + 1.5).abs() < 1e-5, "{m:?}");
    let fixed = graft::model::math::shear_metrics(&shear.world(NodeId(4)).unwrap());
    assert!(fixed.dot.abs() < 1e-5, "{fixed:?}");
    let solar = file::load(Path::new("scenes/solar.ron")).unwrap();
    let moon = solar.world(NodeId(3)).unwrap().translation;
    let earth = solar.world(NodeId(2)).unwrap().translation;
    assert!(((moon - earth).length() - 7.5).abs() < 1e-4);
    let flip = file::load(Path::new("scenes/flip.ron")).unwrap();
    assert!(graft::model::math::shear_metrics(&flip.world(NodeId(2)).unwrap()).determinant < 0.0);
    assert_eq!(file::load(Path::new("scenes/tank.ron")).unwrap().len(), 6);
}

#[test]
fn atomic_save_keeps_the_old_file_when_writing_fails_halfway() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.ron");
    file::save(&common::sword_scene(), &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let err = graft::model::atomic_write::atomic_write_with(&path, |w| {
        w.write_all(b"(format: 1, nodes: [(id: 1")?;
        Err(std::io::Error::other("disk full"))
    })
    .unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "old file byte-identical"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers,
        vec![std::ffi::OsString::from("scene.ron")],
        "no temp file left"
    );

    // A folder that vanished: an error, nothing created.
    let gone = dir.path().join("gone").join("scene.ron");
    assert!(matches!(
        file::save(&common::sword_scene(), &gone),
        Err(Error::Io { .. })
    ));
    assert!(!gone.parent().unwrap().exists());

    // A successful save keeps the previous version as .bak.
    let mut scene = common::sword_scene();
    scene.rename(NodeId(1), "torso").unwrap();
    file::save(&scene, &path).unwrap();
    assert_eq!(
        std::fs::read(graft::model::atomic_write::backup_path(&path)).unwrap(),
        before
    );
    assert_eq!(file::load(&path).unwrap(), scene);
}

/// Floats that stress the writer: signed zeros, subnormals, extremes, and ordinary values.
fn tricky_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(-0.0f32),
        Just(0.0f32),
        Just(f32::MIN_POSITIVE / 3.0),
        Just(-1e-45f32),
        Just(f32::MAX),
        Just(f32::MIN),
        Just(1e-38f32),
        Just(16_777_217.0f32),
        any::<f32>().prop_filter("finite", |v| v.is_finite()),
        -1000.0f32..1000.0,
    ]
}

// Boxed: the unboxed strategy's value tree is deep enough to overflow a debug-build stack.
fn node_data() -> BoxedStrategy<NodeData> {
    let shape = prop_oneof![
        Just(Shape::None),
        (tricky_f32(), tricky_f32()).prop_map(|(x, y)| Shape::Rect {
            size: Vec2::new(x, y)
        }),
        (tricky_f32(), tricky_f32()).prop_map(|(x, y)| Shape::Ellipse {
            size: Vec2::new(x, y)
        }),
        ("[a-z/._\"\\\\ ]{0,12}", tricky_f32())
            .prop_map(|(path, s)| Shape::sprite(path, Vec2::splat(s))),
        (tricky_f32(), tricky_f32()).prop_map(|(a, b)| Shape::from(Sprite {
            path: "s.png".into(),
            size: Vec2::ONE,
            region: Some([a, b, 1.0, -0.0]),
            offset: Vec2::new(b, a),
        })),
        prop::collection::vec((tricky_f32(), tricky_f32()), 0..6).prop_map(|p| Shape::Polygon {
            points: p.into_iter().map(|(x, y)| Vec2::new(x, y)).collect()
        }),
    ]
    .boxed();
    (
        "\\PC{0,10}",
        (tricky_f32(), tricky_f32(), tricky_f32()),
        (tricky_f32(), tricky_f32(), tricky_f32()),
        shape,
        any::<[u8; 4]>(),
        prop::collection::vec((tricky_f32(), tricky_f32()), 0..3),
    )
        .prop_map(
            |(name, (x, y, r), (sx, sy, k), shape, color, probes)| NodeData {
                name: name.into(),
                local: Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k),
                shape,
                color,
                probes: probes.into_iter().map(|(x, y)| Vec2::new(x, y)).collect(),
                tracks: Default::default(),
            },
        )
        .boxed()
}

fn scene() -> impl Strategy<Value = Scene> {
    prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            any::<bool>(),
            node_data(),
            0u32..1_000_000,
        ),
        0..20,
    )
    .prop_map(|raw| {
        let mut scene = Scene::new();
        for (pick, as_root, data, id) in raw {
            let parent = if as_root || scene.is_empty() {
                None
            } else {
                Some(scene.id_at(pick.index(scene.len())))
            };
            let id = NodeId(id);
            if !scene.contains(id) {
                scene.add_node_with_id(id, parent, None, data).unwrap();
            }
        }
        scene
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// save → load is bit-exact, and formatting is idempotent.
    #[test]
    fn save_load_is_bit_exact_and_fmt_is_idempotent(scene in scene()) {
        let text = to_ron_string(&scene);
        let back = load_text(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.len(), scene.len());
        for i in 0..scene.len() {
            let (a, b) = (scene.data_at(i), back.data_at(i));
            prop_assert_eq!(scene.id_at(i), back.id_at(i));
            let bits = |t: &Trs| [t.position.x, t.position.y, t.rotation, t.scale.x, t.scale.y, t.skew].map(f32::to_bits);
            prop_assert_eq!(bits(&a.local), bits(&b.local), "node {}", scene.id_at(i));
            prop_assert_eq!(&a.name, &b.name);
            prop_assert_eq!(a.color, b.color);
            // Debug prints each f32 in its shortest round-trip form: equal text, equal bits.
            prop_assert_eq!(format!("{:?}", a.shape), format!("{:?}", b.shape));
            prop_assert_eq!(format!("{:?}", a.probes), format!("{:?}", b.probes));
        }
        prop_assert!(back == scene);
        prop_assert_eq!(to_ron_string(&back), text);
    }
}
