//! The .ron contract: every rejection rule names its place, oddities load, saves are
//! canonical, bit-exact and atomic.

mod common;

use glam::Vec2;
use graft::Error;
use graft::editor::session::command::{FileCommand, HistoryCommand, PanelCommand};
use graft::model::file::{self, parse, parse_with_node_limit, to_ron_string};
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, Scene, Shape, Sprite};
use proptest::prelude::*;
use std::path::Path;

/// Parse `text` with the loader (the fast reader, ron for anything else) and with ron alone:
/// every test here is also a differential test of the two (issue 37), bit for bit or the same
/// error.
fn load_text(text: &str) -> Result<Scene, Error> {
    let path = Path::new("test.ron");
    let loaded = parse(text, path);
    same_as_ron(text, &loaded);
    loaded
}

#[track_caller]
fn same_as_ron(text: &str, loaded: &Result<Scene, Error>) {
    let reference = file::parse_with_ron_only(text, Path::new("test.ron"));
    match (loaded, &reference) {
        (Ok(a), Ok(b)) => {
            assert!(a == b, "the fast reader and ron disagree on:\n{text}");
            assert_eq!(to_ron_string(a), to_ron_string(b));
            assert_eq!(a.next_id(), b.next_id());
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
        (a, b) => panic!("fast {:?} vs ron {:?} on:\n{text}", a.is_ok(), b.is_ok()),
    }
}

/// Ways a person edits a canonical file by hand: each still loads the same (through ron).
fn hand_edited(text: &str) -> Vec<String> {
    let nodes_at = text.find("    nodes: [\n").unwrap_or(0);
    vec![
        text.replace("\n", "\r\n"),
        text.replacen("        (id:", "        // a comment\n        (id:", 1),
        text.replace(", name: ", ",  name: "),
        text.replace("),\n    ],", ")\n    ],"),
        text.replacen("(id: 2, ", "(\n id: 2, ", 1),
        format!("{}\n", text),
        text.replace("    format: ", "    format:"),
        text.replacen("(id: 1, name: \"body\"", "(name: \"body\", id: 1", 1),
        text[..nodes_at].to_string() + &text[nodes_at..].replacen("),\n", "), /* c */\n", 2),
        text.replace("    ],\n)\n", "    ]\n)"),
    ]
}

/// Ways a file breaks: both readers refuse them with the same message and place.
fn broken(text: &str) -> Vec<String> {
    vec![
        text.replacen("(id: 2, ", "(id: 1, ", 1),
        text.replacen("(id: 2, ", "(id: 2, colour: (1, 2, 3, 4), ", 1),
        text.replacen("position: (", "position: (1.0.0, ", 1),
        text.replacen("rotation: ", "rotation: NaN, skew: ", 1),
        text.replacen("color: (", "color: (300, ", 1),
        text.replacen("parent: Some(", "parent: Some(99", 1),
        text.replacen(", name: \"", ", name: \"\\u{zz}", 1),
        text.replacen("    ],\n", "", 1),
        text.replacen("(id: 3", "(id: 4294967296", 1),
        text.replacen("scale: (", "scale: (1e40, ", 1),
    ]
}

#[test]
fn the_fast_reader_and_ron_agree_on_samples_generated_scenes_and_hand_edits() {
    use graft::tools::generate::{GenShape, generate};
    let mut texts: Vec<String> = graft::model::document::SAMPLE_SCENES
        .iter()
        .map(|name| std::fs::read_to_string(format!("scenes/{name}")).unwrap())
        .collect();
    for shape in [GenShape::Wide, GenShape::Chain, GenShape::Random] {
        texts.push(to_ron_string(&generate(shape, 3000, 5)));
    }
    for text in texts.clone() {
        texts.push(to_ron_string(&parse(&text, Path::new("t.ron")).unwrap()));
    }
    for (k, text) in texts.iter().enumerate() {
        let loaded = load_text(text);
        assert!(loaded.is_ok(), "{:?}", loaded.err());
        // Everything graft wrote is read by the fast reader itself (the samples, hand-written
        // with comments between nodes, only once formatted).
        if k >= 5 {
            assert!(
                file::reads_fast(text),
                "not read fast:\n{}",
                &text[..text.len().min(600)]
            );
        }
        for variant in hand_edited(text) {
            let edited = load_text(&variant);
            if let (Ok(a), Ok(b)) = (&edited, &loaded) {
                assert!(a == b, "a hand edit changed the scene:\n{variant}");
            }
        }
        for variant in broken(text) {
            let _ = load_text(&variant);
        }
    }
}

/// Found by the `fast_reader` fuzz target (7.0 M runs): a comment at the end of a line the fast
/// path hands to ron alone (the clip, a node with a sprite or an escaped name) swallows the line's
/// comma. ron alone read the line; the whole file is missing a comma, and ron refuses it.
#[test]
fn a_comment_that_swallows_a_lines_comma_is_refused_as_ron_refuses_it() {
    let lines = [
        "    clip: (length: 4.0, mode: Loop)//,\n",
        "        (id: 1, name: \"a\\\"b\")//,\n",
        "        (id: 1, shape: Sprite(path: \"i/a.png\", size: (1.0, 1.0)))/* c */ //,\n",
    ];
    for line in lines {
        let text = format!(
            "(\n    format: 3,\n{}    nodes: [\n{}        (id: 2, parent: Some(1)),\n    ],\n)\n",
            if line.contains("clip") { line } else { "" },
            if line.contains("clip") {
                "        (id: 1),\n"
            } else {
                line
            },
        );
        let loaded = load_text(&text);
        assert!(loaded.is_err(), "accepted:\n{text}");
    }
    // The same lines with their comma before the comment load, and the same as through ron.
    let text = "(\n    format: 3,\n    clip: (length: 4.0, mode: Loop), // c\n    nodes: [\n        (id: 1, name: \"a/b\"), // d\n    ],\n)\n";
    assert!(load_text(text).is_ok());
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
        "(format: 6, nodes: [])",
        "test.ron: format 6 is not supported (this graft reads formats 1 to 5",
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
        // load_text also checks that ron alone reads the same bits; what the saver writes,
        // the fast reader reads (lines it cannot read itself go to ron one by one).
        prop_assert!(file::reads_fast(&text), "not read fast:\n{}", text);
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

// Paths that travel (issue 35): a scene written to another folder keeps naming its images.

/// A scene folder `root/scenes/` with three sprites (two relative, one absolute) whose images
/// are in `root/assets/` and `root/scenes/img/`; the scene file.
fn travelling_scene(root: &Path) -> std::path::PathBuf {
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sword.png");
    for dir in ["assets", "scenes/img", "elsewhere"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    for image in ["assets/a.png", "scenes/img/b.png", "elsewhere/c.png"] {
        std::fs::copy(&png, root.join(image)).unwrap();
    }
    let absolute = root.join("elsewhere/c.png");
    let text = format!(
        "(format: 1, nodes: [\n\
         (id: 1, name: \"a\", shape: Sprite(path: \"../assets/a.png\", size: (1.0, 1.0))),\n\
         (id: 2, name: \"b\", parent: Some(1), shape: Sprite(path: \"./img/b.png\", size: (1.0, 1.0))),\n\
         (id: 3, name: \"c\", shape: Sprite(path: {:?}, size: (1.0, 1.0))),\n\
         (id: 4, name: \"box\", shape: Rect(size: (1.0, 1.0))),\n])\n",
        absolute.to_string_lossy()
    );
    let file = root.join("scenes/s.ron");
    std::fs::write(&file, text).unwrap();
    file
}

/// Each sprite of `scene`, read from the folder of `file`, as the canonical image file.
fn images_of(scene: &Scene, file: &Path) -> Vec<std::path::PathBuf> {
    let dir = file.parent().unwrap();
    (0..scene.len())
        .filter_map(|i| match &scene.data_at(i).shape {
            Shape::Sprite(s) => Some(
                std::fs::canonicalize(dir.join(&s.path))
                    .unwrap_or_else(|e| panic!("{} from {}: {e}", s.path, dir.display())),
            ),
            _ => None,
        })
        .collect()
}

/// Deeper, shallower and unrelated targets for a scene in `root/scenes/`.
fn targets(root: &Path, other: &Path) -> [std::path::PathBuf; 3] {
    [
        root.join("scenes/deep/er/s.ron"),
        root.join("s.ron"),
        other.join("far/away/s.ron"),
    ]
}

#[test]
fn save_as_keeps_every_image_and_undo_after_it_too() {
    use graft::editor::session::dialogs::DialogOutcome;
    use graft::editor::{Command, Editor};
    use graft::model::document::Document;
    let (root, other) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = travelling_scene(root.path());
    for background in [false, true] {
        let mut editor = Editor::new(Document::open(&file).unwrap());
        if background {
            editor.set_background_save_nodes(0);
        }
        let want = images_of(editor.doc().scene(), &file);
        // A step that changes an image: undo must bring back one that still resolves.
        let mut shape = editor.doc().scene().node(NodeId(2)).unwrap().shape.clone();
        if let Shape::Sprite(s) = &mut shape {
            s.path = "../assets/a.png".into();
        }
        let look = PanelCommand::SetLook {
            node: NodeId(2),
            shape,
            color: [255; 4],
        };
        editor.apply(Command::Panel(look)).unwrap();
        editor
            .apply(Command::History(HistoryCommand::EndGesture))
            .unwrap();
        editor
            .apply(Command::History(HistoryCommand::Undo))
            .unwrap();
        for target in targets(root.path(), other.path()) {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            editor.apply(Command::File(FileCommand::SaveAs)).unwrap();
            editor
                .apply(Command::File(FileCommand::DialogClosed(
                    DialogOutcome::Picked(target.clone()),
                )))
                .unwrap();
            let start = std::time::Instant::now();
            while editor.job().is_some() && start.elapsed().as_secs() < 30 {
                editor.poll_job().unwrap();
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            assert_eq!(editor.doc().path(), Some(target.as_path()));
            assert!(!editor.doc().is_modified(), "{:?}", editor.messages());
            assert_eq!(images_of(editor.doc().scene(), &target), want, "in memory");
            assert_eq!(
                images_of(&file::load(&target).unwrap(), &target),
                want,
                "on disk"
            );
            editor
                .apply(Command::History(HistoryCommand::Redo))
                .unwrap();
            let redone = images_of(editor.doc().scene(), &target);
            assert_eq!(
                redone[1],
                want[0],
                "the redone image, from {}",
                target.display()
            );
            editor
                .apply(Command::History(HistoryCommand::Undo))
                .unwrap();
            assert_eq!(images_of(editor.doc().scene(), &target), want, "after undo");
        }
    }
}

#[test]
fn a_scene_rebased_there_and_back_names_the_same_images() {
    let (root, other) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = travelling_scene(root.path());
    let scene = file::load(&file).unwrap();
    let want = images_of(&scene, &file);
    let from = graft::model::scene::sprites::folder_of(&file);
    for target in targets(root.path(), other.path()) {
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let mut moved = scene.clone();
        let to = graft::model::scene::sprites::folder_of(&target);
        assert_eq!(
            moved.rebase_sprites(&from, &to),
            2,
            "the absolute path stays"
        );
        assert_eq!(images_of(&moved, &target), want);
        moved.rebase_sprites(&to, &from);
        assert_eq!(images_of(&moved, &file), want);
    }
}

fn graft_bin(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .output()
        .expect("the graft binary runs")
}

#[test]
fn fmt_recover_and_import_to_other_folders_keep_every_image() {
    use graft::editor::Editor;
    use graft::model::document::Document;
    let (root, other) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = travelling_scene(root.path());
    let want = images_of(&file::load(&file).unwrap(), &file);
    // A journal of the scene with an edit (a rename), for `graft recover -o`.
    let journals = root.path().join("journals");
    let mut editor = Editor::new(Document::open(&file).unwrap());
    editor.start_journal(journals.clone());
    editor
        .apply(graft::editor::Command::Panel(PanelCommand::Rename {
            node: NodeId(4),
            name: "crate".into(),
        }))
        .unwrap();
    let journal = editor.journal_path().unwrap().to_path_buf();
    drop(editor);
    // A Godot scene with the same image, for `graft import -o`.
    std::fs::write(root.path().join("project.godot"), "").unwrap();
    let tscn = root.path().join("scenes/level.tscn");
    std::fs::write(&tscn, "[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://assets/a.png\" id=\"1\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"S\" type=\"Sprite2D\" parent=\".\"]\ntexture = ExtResource(\"1\")\n").unwrap();
    let a_png = std::fs::canonicalize(root.path().join("assets/a.png")).unwrap();
    for target in targets(root.path(), other.path()) {
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let (input, output) = (file.to_str().unwrap(), target.to_str().unwrap());
        let run = graft_bin(&["fmt", input, "-o", output]);
        assert!(run.status.success(), "{run:?}");
        assert_eq!(
            images_of(&file::load(&target).unwrap(), &target),
            want,
            "fmt -o"
        );
        let godot = other.path().join("godot/deep/s.tscn");
        std::fs::create_dir_all(godot.parent().unwrap()).unwrap();
        let project = root.path().to_str().unwrap();
        let run = graft_bin(&[
            "export",
            output,
            "-o",
            godot.to_str().unwrap(),
            "--project",
            project,
        ]);
        assert!(run.status.success(), "{run:?}");
        let tscn_text = std::fs::read_to_string(&godot).unwrap();
        for res in ["res://assets/a.png", "res://scenes/img/b.png"] {
            assert!(tscn_text.contains(res), "export --project: {tscn_text}");
        }
        let run = graft_bin(&["recover", journal.to_str().unwrap(), "-o", output]);
        assert!(run.status.success(), "{run:?}");
        let recovered = file::load(&target).unwrap();
        assert_eq!(recovered.node(NodeId(4)).unwrap().name, "crate");
        assert_eq!(images_of(&recovered, &target), want, "recover -o");
        let run = graft_bin(&["import", tscn.to_str().unwrap(), "-o", output]);
        assert!(run.status.success(), "{run:?}");
        assert_eq!(
            images_of(&file::load(&target).unwrap(), &target),
            std::slice::from_ref(&a_png),
            "import -o"
        );
        let check = graft_bin(&["check", output]);
        assert!(
            check.status.success() && check.stderr.is_empty(),
            "{check:?}"
        );
    }
}

#[test]
fn check_warns_of_a_moved_scenes_images_with_their_place_and_exits_0() {
    let root = tempfile::tempdir().unwrap();
    let file = travelling_scene(root.path());
    let moved = root.path().join("elsewhere/x/moved.ron");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::copy(&file, &moved).unwrap();
    let run = graft_bin(&["check", moved.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let err = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    let at = moved.display();
    assert!(
        lines[0].starts_with(&format!(
            "{at}:2:40: warning: node 1 \"a\": image \"../assets/a.png\" is missing"
        )),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("{at}:3:57: warning: node 2 \"b\"")),
        "{err}"
    );
    let help = graft_bin(&["check", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("warnings do not change the exit code"));
}

#[test]
fn opening_a_moved_scene_warns_once_in_the_message_log() {
    use graft::editor::{Command, Editor};
    use graft::model::document::Document;
    let root = tempfile::tempdir().unwrap();
    let file = travelling_scene(root.path());
    let moved = root.path().join("elsewhere/x/moved.ron");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::copy(&file, &moved).unwrap();
    let mut editor = Editor::new(Document::sample());
    editor
        .apply(Command::File(FileCommand::OpenPath(moved.clone())))
        .unwrap();
    let warnings: Vec<String> = editor
        .messages()
        .iter()
        .map(|m| m.text.clone())
        .filter(|t| t.contains("warning:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with(&format!("{}:2:40:", moved.display())),
        "{warnings:?}"
    );
    editor.update_world();
    assert_eq!(
        editor
            .messages()
            .iter()
            .filter(|m| m.text.contains("warning:"))
            .count(),
        2
    );
}

#[test]
fn a_journal_replays_a_save_as_rebase_from_either_base() {
    use graft::model::document::Document;
    use graft::model::scene::edit::Op;
    let root = tempfile::tempdir().unwrap();
    let file = travelling_scene(root.path());
    let first = file::load(&file).unwrap();
    let mut doc = Document::open(&file).unwrap();
    doc.listen(true);
    let rename = |name: &str| {
        vec![Op::Rename {
            node: NodeId(1),
            name: name.into(),
        }]
    };
    doc.perform("Rename", rename("x")).unwrap();
    let target = root.path().join("scenes/deep/s.ron");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    doc.save_to(&target).unwrap();
    doc.perform("Rename", rename("y")).unwrap();
    doc.undo().unwrap();
    // The live journal: the first scene, then every change as it came.
    let mut live = Document::recovered(first.clone(), Some(file.clone()));
    for change in doc.take_changes() {
        live.replay(&change).unwrap();
    }
    assert!(live.scene() == doc.scene(), "live journal");
    // A journal begun or compacted now: the history's first scene and the history.
    for base in [first, doc.origin_scene().unwrap()] {
        let mut again = Document::recovered(base, Some(target.clone()));
        for change in doc.history().as_changes() {
            again.replay(&change).unwrap();
        }
        assert!(again.scene() == doc.scene(), "compacted journal");
        again.redo().unwrap();
        doc.redo().unwrap();
        assert!(again.scene() == doc.scene(), "redone");
        doc.undo().unwrap();
    }
    assert_eq!(images_of(doc.scene(), &target).len(), 3);
}

#[test]
fn choose_image_sets_a_relative_path_as_one_undoable_step() {
    use graft::editor::session::dialogs::{DialogKind, DialogOutcome};
    use graft::editor::{Command, Editor, Effect};
    use graft::model::document::Document;
    let root = tempfile::tempdir().unwrap();
    let file = travelling_scene(root.path());
    let mut editor = Editor::new(Document::open(&file).unwrap());
    let asked = editor
        .apply(Command::File(FileCommand::ChooseImage(NodeId(1))))
        .unwrap();
    assert_eq!(asked.effects, [Effect::ShowDialog(DialogKind::Image)]);
    let picked = root.path().join("scenes/img/b.png");
    editor
        .apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(picked),
        )))
        .unwrap();
    let path = |e: &Editor| match &e.doc().scene().node(NodeId(1)).unwrap().shape {
        Shape::Sprite(s) => s.path.clone(),
        _ => String::new(),
    };
    assert_eq!(path(&editor), "img/b.png");
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(path(&editor), "../assets/a.png");
    assert!(
        editor
            .apply(Command::File(FileCommand::ChooseImage(NodeId(4))))
            .is_err(),
        "a box is no sprite"
    );
}

/// After a Save As into another folder, an image that cannot be read from there is said
/// (issue 46: "the window keeps drawing it from memory with no warning"): a failure line and
/// the error window name the count, and Messages names the image; a Save As whose images are
/// all found says nothing of the kind.
#[test]
fn save_as_warns_when_an_image_cannot_be_read_from_the_new_folder() {
    use graft::editor::session::dialogs::DialogOutcome;
    use graft::editor::{Command, Editor};
    use graft::model::document::Document;
    for background in [false, true] {
        let (root, other) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let file = travelling_scene(root.path());
        let mut editor = Editor::new(Document::open(&file).unwrap());
        if background {
            editor.set_background_save_nodes(0);
        }
        let save_as = |editor: &mut Editor, target: &Path| {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            editor.apply(Command::File(FileCommand::SaveAs)).unwrap();
            let picked = DialogOutcome::Picked(target.to_path_buf());
            editor
                .apply(Command::File(FileCommand::DialogClosed(picked)))
                .unwrap();
            while editor.job().is_some() {
                editor.poll_job().unwrap();
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        };
        save_as(&mut editor, &other.path().join("all/found.ron"));
        assert_eq!(editor.error(), None, "every image found");
        // One image goes away; the next Save As into another folder says so.
        let gone = images_of(editor.doc().scene(), &other.path().join("all/found.ron"))[0].clone();
        std::fs::remove_file(&gone).unwrap();
        save_as(&mut editor, &other.path().join("far/s.ron"));
        let error = (editor.error())
            .unwrap_or_else(|| panic!("the error window says it: {:?}", editor.messages()));
        assert!(error.contains("1 image(s)"), "{error}");
        let named = gone.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            editor.messages().iter().any(|m| m.text.contains(&named)),
            "Messages names {named}"
        );
    }
}
