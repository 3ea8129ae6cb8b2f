//! Round trips through Godot's text scene format: graft → `.tscn` → graft keeps every world
//! matrix (the sample scenes, generated scenes and proptest-random scenes with skew, mirrors,
//! empty and duplicate names), `.tscn` → graft → `.tscn` → graft keeps them for every fixture,
//! and the y flip between the two spaces is exact: F·GodotLocal(p, r, s, k)·F is graft's
//! Trs((px, −py), −r°, s, −k°).

use glam::{Affine2, DAffine2, DMat2, DVec2, Vec2};
use graft::editor::session::command::{FileCommand, SettingCommand};
use graft::model::godot::export::{ExportOptions, to_tscn};
use graft::model::godot::{Imported, import_file, import_text};
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene, Shape};
use graft::tools::generate::{GenShape, generate};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/godot")
}

fn widen(m: &Affine2) -> DAffine2 {
    DAffine2::from_cols_array(&m.to_cols_array().map(f64::from))
}

/// Entries within 1e-5 of the largest entry of `expected` (at least 1).
fn near_rel(actual: &DAffine2, expected: &DAffine2) -> bool {
    let e = expected.to_cols_array();
    let scale = e.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    near_within(actual, expected, scale)
}

/// Entries within 1e-5 of `scale`.
fn near_within(actual: &DAffine2, expected: &DAffine2, scale: f64) -> bool {
    actual
        .to_cols_array()
        .iter()
        .zip(expected.to_cols_array())
        .all(|(a, b)| (a - b).abs() <= 1e-5 * scale)
}

/// The largest magnitude that went into node `i`'s world matrix (at least 1): the entries of
/// its world and its ancestors' worlds, and each parent's linear part applied to its child's
/// local translation. f32 worlds are exact only relative to these: a chain whose translations
/// of hundreds cancel to a world of (−1.5, 2) is off by a few ulps of the hundreds, not of 1.5.
fn chain_magnitude(scene: &Scene, i: usize) -> f64 {
    let world = widen(&scene.world_at(i));
    let own = world
        .to_cols_array()
        .iter()
        .fold(1.0_f64, |m, x| m.max(x.abs()));
    let Some(p) = scene.parent_index_at(i) else {
        return own;
    };
    let parent = widen(&scene.world_at(p));
    let local = widen(&scene.data_at(i).local.to_affine());
    let pushed = parent.matrix2 * local.translation;
    own.max(chain_magnitude(scene, p))
        .max(pushed.x.abs())
        .max(pushed.y.abs())
}

/// Export `scene` for Godot 4, write the text into a fresh folder and import it back from
/// there. The same scene exported for Godot 3 (`format=2`, skew as transform lines) must come
/// back the same too; that is checked here, so every round trip below covers both.
#[track_caller]
fn export_and_import(scene: &Scene, root_name: &str) -> (String, Imported) {
    let (text3, back3) = export_and_import_as(scene, root_name, true);
    assert!(text3.starts_with("[gd_scene format=2]") || text3.starts_with("[gd_scene load_steps="));
    assert!(
        !text3.contains("skew"),
        "Godot 3 has no skew property:\n{text3}"
    );
    assert_same_under_root(scene, &back3.scene, &text3);
    export_and_import_as(scene, root_name, false)
}

fn export_and_import_as(scene: &Scene, root_name: &str, godot3: bool) -> (String, Imported) {
    let (text, _report) = to_tscn(
        scene,
        &ExportOptions {
            project_root: None,
            scene_dir: None,
            root_name: root_name.to_string(),
            godot3,
            pixels_per_unit: None,
        },
    );
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("tempdir: {e}"),
    };
    let path = dir.path().join("exported.tscn");
    if let Err(e) = std::fs::write(&path, &text) {
        panic!("write {}: {e}", path.display());
    }
    match import_file(&path) {
        Ok(imported) => (text, imported),
        Err(e) => panic!("re-import failed: {e}\n--- exported ---\n{text}"),
    }
}

/// `back` is `scene` under one extra root (the exported scene's root, at identity): same
/// order, same hierarchy, every world matrix kept.
#[track_caller]
fn assert_same_under_root(scene: &Scene, back: &Scene, text: &str) {
    assert_eq!(back.len(), scene.len() + 1, "--- exported ---\n{text}");
    assert_eq!(back.parent_index_at(0), None);
    let root = widen(&back.world_at(0));
    assert!(near_rel(&root, &DAffine2::IDENTITY), "{root:?}");
    for i in 0..scene.len() {
        let j = i + 1;
        assert_eq!(
            back.parent_index_at(j),
            Some(scene.parent_index_at(i).map_or(0, |p| p + 1)),
            "node {i} ({:?}) changed parents\n--- exported ---\n{text}",
            scene.data_at(i).name
        );
        let a = widen(&scene.world_at(i));
        let b = widen(&back.world_at(j));
        assert!(
            near_within(&b, &a, chain_magnitude(scene, i)),
            "node {i} ({:?}): world {:?} came back as {:?}\n--- exported ---\n{text}",
            scene.data_at(i).name,
            a.to_cols_array(),
            b.to_cols_array()
        );
        // Polygons come back point for point (rects and ellipses become polygons).
        if let Shape::Polygon { points } = &scene.data_at(i).shape {
            let Shape::Polygon { points: again } = &back.data_at(j).shape else {
                panic!("node {i}: polygon came back as {:?}", back.data_at(j).shape);
            };
            assert_eq!(points, again, "node {i}");
        }
    }
}

// ---------------------------------------------------------------- graft → tscn → graft

#[test]
fn sample_scenes_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut seen = 0;
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => panic!("{}: {e}", dir.display()),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("ron") {
            continue;
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let scene = match graft::model::file::parse(&text, &path) {
            Ok(s) => s,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let (tscn, back) = export_and_import(&scene, "Sample");
        assert_same_under_root(&scene, &back.scene, &tscn);
        assert_eq!(back.scene.data_at(0).name, "Sample");
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} sample scenes found");
}

#[test]
fn generated_scenes_round_trip() {
    for shape in [GenShape::Random, GenShape::Chain, GenShape::Wide] {
        for seed in 0..6 {
            let scene = generate(shape, 80, seed);
            let (tscn, back) = export_and_import(&scene, "");
            assert_same_under_root(&scene, &back.scene, &tscn);
        }
    }
}

/// Sprites keep their image (as a `res://` texture of the project) and where it is drawn.
#[test]
fn sprites_round_trip_inside_a_project() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scene_path = root.join("scenes/tank.ron");
    let scene = graft::model::file::parse(&std::fs::read_to_string(&scene_path)?, &scene_path)?;
    let (text, report) = to_tscn(
        &scene,
        &ExportOptions {
            project_root: Some(root.to_path_buf()),
            scene_dir: Some(root.join("scenes")),
            root_name: "Tank".into(),
            ..Default::default()
        },
    );
    assert!(text.contains("res://assets/tread.png"), "{text}");
    // Saved into a Godot project holding a copy of the image: res:// is that project.
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("project.godot"), "config_version=5\n")?;
    std::fs::create_dir_all(dir.path().join("assets"))?;
    std::fs::copy(
        root.join("assets/tread.png"),
        dir.path().join("assets/tread.png"),
    )?;
    let path = dir.path().join("tank.tscn");
    std::fs::write(&path, &text)?;
    let back = import_file(&path)?;
    assert_same_under_root(&scene, &back.scene, &text);
    let treads = (0..back.scene.len())
        .filter(|&i| {
            matches!(&back.scene.data_at(i).shape, Shape::Sprite(s)
                if s.path.ends_with("tread.png") && Path::new(&s.path).is_file())
        })
        .count();
    assert_eq!(treads, 2, "{:?} / {:?}", report, back.report.notes);
    Ok(())
}

// ---------------------------------------------------------------- proptest-random scenes

/// Names that must survive: empty, duplicated, with the characters Godot refuses in names,
/// quotes, brackets, spaces and non-ASCII.
const NAMES: &[&str] = &[
    "",
    "a",
    "a",
    "node",
    "Root",
    "x/y",
    "dot.ted",
    "@at",
    "%unique",
    "colon:",
    "quo\"te",
    "back\\slash",
    "[br]",
    "a = b",
    " padded ",
    "ñandú 日本",
    "a2",
    "tab\there",
    "new\nline",
];

#[derive(Clone, Debug)]
struct RandNode {
    parent: Option<prop::sample::Index>,
    name: prop::sample::Index,
    position: (f32, f32),
    rotation: f32,
    scale: (f32, f32),
    skew: f32,
    shape: u8,
}

fn scale_part() -> impl Strategy<Value = f32> {
    (0.2f32..3.0, any::<bool>()).prop_map(|(s, neg)| if neg { -s } else { s })
}

fn rand_node() -> impl Strategy<Value = RandNode> {
    (
        prop::option::weighted(0.85, any::<prop::sample::Index>()),
        any::<prop::sample::Index>(),
        (-500.0f32..500.0, -500.0f32..500.0),
        prop_oneof![
            -720.0f32..720.0,
            Just(0.0f32),
            Just(90.0f32),
            Just(-180.0f32)
        ],
        (scale_part(), scale_part()),
        prop_oneof![Just(0.0f32), -60.0f32..60.0],
        0u8..4,
    )
        .prop_map(
            |(parent, name, position, rotation, scale, skew, shape)| RandNode {
                parent,
                name,
                position,
                rotation,
                scale,
                skew,
                shape,
            },
        )
}

fn build(nodes: &[RandNode]) -> Scene {
    let specs = nodes
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let parent = if k == 0 {
                None
            } else {
                n.parent.map(|p| NodeId(p.index(k) as u32 + 1))
            };
            let size = Vec2::new(1.0 + n.scale.0.abs(), 0.5 + n.scale.1.abs());
            let shape = match n.shape {
                0 => Shape::None,
                1 => Shape::Rect { size },
                2 => Shape::Ellipse { size },
                _ => Shape::Polygon {
                    points: thin_vec::thin_vec![
                        Vec2::new(0.0, 0.0),
                        Vec2::new(size.x, 0.25),
                        Vec2::new(-0.5, size.y),
                    ],
                },
            };
            NodeSpec {
                id: NodeId(k as u32 + 1),
                parent,
                data: NodeData {
                    name: NAMES[n.name.index(NAMES.len())].into(),
                    local: Trs::new(
                        Vec2::new(n.position.0, n.position.1),
                        n.rotation,
                        Vec2::new(n.scale.0, n.scale.1),
                        n.skew,
                    ),
                    shape,
                    color: [200, 100, 50, 255],
                    ..NodeData::default()
                },
            }
        })
        .collect();
    match Scene::from_specs(specs) {
        Ok(s) => s,
        Err(e) => panic!("bad random scene: {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_scenes_round_trip(nodes in prop::collection::vec(rand_node(), 1..40)) {
        let scene = build(&nodes);
        let (tscn, back) = export_and_import(&scene, "Exported");
        assert_same_under_root(&scene, &back.scene, &tscn);
    }

    /// The y flip is exact: Godot's local, conjugated by F = diag(1, −1), is graft's local
    /// of (x, −y), −r°, s, −k°.
    #[test]
    fn y_flip_is_exact(
        px in -1000.0f32..1000.0,
        py in -1000.0f32..1000.0,
        r in -10.0f64..10.0,
        sx in scale_part(),
        sy in scale_part(),
        k in -1.4f64..1.4,
    ) {
        let godot = DAffine2::from_cols(
            DVec2::new(r.cos() * sx as f64, r.sin() * sx as f64),
            DVec2::new(-(r + k).sin() * sy as f64, (r + k).cos() * sy as f64),
            DVec2::new(px as f64, py as f64),
        );
        let f = DAffine2::from_mat2(DMat2::from_diagonal(DVec2::new(1.0, -1.0)));
        let flipped = f * godot * f;
        let graft = Trs::new(
            Vec2::new(px, -py),
            -r.to_degrees() as f32,
            Vec2::new(sx, sy),
            -k.to_degrees() as f32,
        )
        .to_affine();
        prop_assert!(
            near_rel(&widen(&graft), &flipped),
            "{:?} vs {:?}", graft.to_cols_array(), flipped.to_cols_array()
        );
        // And composition commutes with the flip: F·(A·B)·F = (F·A·F)·(F·B·F).
        let b = DAffine2::from_cols(
            DVec2::new(0.3, -1.2), DVec2::new(2.0, 0.7), DVec2::new(5.0, -9.0));
        let lhs = f * (godot * b) * f;
        let rhs = (f * godot * f) * (f * b * f);
        prop_assert!(near_rel(&lhs, &rhs));
    }
}

// ---------------------------------------------------------------- tscn → graft → tscn → graft

/// Every `.tscn` under the fixtures folder (depth-first).
fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => panic!("{}: {e}", dir.display()),
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            fixture_files(&path, out);
        } else if path.extension().and_then(|e| e.to_str()) == Some("tscn") {
            out.push(path);
        }
    }
}

/// Every fixture that imports (the instance cycles and the malformed file excepted) survives export and re-import,
/// twice.
#[test]
fn fixtures_round_trip_through_export() {
    let mut files = Vec::new();
    fixture_files(&fixtures(), &mut files);
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("cycle_") || n == "malformed.tscn")
        })
        .collect();
    assert!(files.len() >= 17, "{files:?}");
    for path in files {
        let first = match import_file(&path) {
            Ok(im) => im,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let (tscn, second) = export_and_import(&first.scene, "Root");
        assert_same_under_root(&first.scene, &second.scene, &tscn);
        // The re-imported scene exports and imports again the same way.
        let (tscn2, third) = export_and_import(&second.scene, "Root");
        assert_same_under_root(&second.scene, &third.scene, &tscn2);
    }
}

/// The exported text is Godot 4 syntax and imports from a string as well as from a file.
#[test]
fn exported_text_is_godot4() {
    let path = fixtures().join("nested.tscn");
    let first = match import_file(&path) {
        Ok(im) => im,
        Err(e) => panic!("{e}"),
    };
    let (text, report) = to_tscn(
        &first.scene,
        &ExportOptions {
            project_root: None,
            scene_dir: None,
            root_name: "Nested2".into(),
            ..Default::default()
        },
    );
    assert!(text.starts_with("[gd_scene format=3]"), "{text}");
    assert!(
        text.contains("[node name=\"Nested2\" type=\"Node2D\"]"),
        "{text}"
    );
    assert!(
        text.contains("[node name=\"Hand\" type=\"Node2D\" parent=\"Nested/Arm/Forearm\"]"),
        "{text}"
    );
    assert!(report.renamed.is_empty(), "{report:?}");
    let back = match import_text(&text, &fixtures().join("nested_again.tscn")) {
        Ok(im) => im,
        Err(e) => panic!("{e}\n{text}"),
    };
    assert_same_under_root(&first.scene, &back.scene, &text);
}

/// Names Godot refuses, duplicates and empty names are renamed, and the renames reported.
#[test]
fn export_renames_invalid_and_duplicate_names() {
    let names = ["a", "a", "", "x/y", "a2"];
    let specs = names
        .iter()
        .enumerate()
        .map(|(k, name)| NodeSpec {
            id: NodeId(k as u32 + 1),
            parent: None,
            data: NodeData::named(*name, Trs::from_position(Vec2::new(k as f32, 0.0))),
        })
        .collect();
    let scene = match Scene::from_specs(specs) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    let (text, report) = to_tscn(&scene, &ExportOptions::default());
    let (_, back) = export_and_import(&scene, "");
    let got: Vec<String> = (1..back.scene.len())
        .map(|i| back.scene.data_at(i).name.to_string())
        .collect();
    assert_eq!(got, ["a", "a2", "Node", "x_y", "a22"], "{text}");
    assert_eq!(report.renamed.len(), 4, "{report:?}");
    assert_same_under_root(&scene, &back.scene, &text);
}

/// `graft export --godot 3` writes a Godot 3 scene and says which nodes needed a matrix.
#[test]
fn the_command_line_exports_godot3() {
    let dir = tempfile::tempdir().unwrap();
    let skewed = dir.path().join("skewed.ron");
    let mut scene = generate(GenShape::Random, 30, 3);
    let data = scene.data_at(1).clone();
    let id = scene.id_at(1);
    let mut local = data.local;
    local.skew = 20.0;
    graft::model::scene::edit::Op::SetLocal { node: id, local }
        .perform(&mut scene)
        .unwrap();
    graft::model::file::save(&scene, &skewed).unwrap();
    let out = dir.path().join("skewed.tscn");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
        .arg("export")
        .arg(&skewed)
        .arg("-o")
        .arg(&out)
        .args(["--godot", "3"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("[gd_scene format=2]"), "{text:.80}");
    assert!(
        text.contains("transform = Transform2D( ") && !text.contains("skew ="),
        "{text}"
    );
    let report = String::from_utf8_lossy(&run.stderr);
    assert!(report.contains("written as a transform matrix"), "{report}");
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
        .arg("export")
        .arg(&skewed)
        .arg("-o")
        .arg(&out)
        .args(["--godot", "5"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "a usage error");
}

/// File ▸ Export as Godot scene writes the version chosen (and remembered) in the File menu.
#[test]
fn the_editor_exports_the_chosen_godot_version() {
    use graft::editor::session::Editor;
    use graft::editor::session::command::Command;
    use graft::editor::session::dialogs::DialogOutcome;
    let dir = tempfile::tempdir().unwrap();
    let mut e = Editor::new(graft::model::document::Document::sample());
    let export = |e: &mut Editor, name: &str| {
        let to = dir.path().join(name);
        e.apply(Command::File(FileCommand::ExportGodot)).unwrap();
        e.apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(to.clone()),
        )))
        .unwrap();
        std::fs::read_to_string(to).unwrap()
    };
    assert!(!e.godot3_export());
    assert!(export(&mut e, "four.tscn").starts_with("[gd_scene format=3]"));
    e.apply(Command::Setting(SettingCommand::SetGodot3Export(true)))
        .unwrap();
    assert!(e.godot3_export());
    // The sample is animated: Godot 3 counts its Animation in load_steps.
    let three = export(&mut e, "three.tscn");
    assert!(
        three.starts_with("[gd_scene load_steps=2 format=2]"),
        "{three}"
    );
    assert!(three.contains("anims/clip = SubResource( 1 )"), "{three}");
    e.apply(Command::Setting(SettingCommand::SetGodot3Export(false)))
        .unwrap();
    assert!(export(&mut e, "four-again.tscn").starts_with("[gd_scene format=3]"));
}
