//! A node added under an instanced node keeps its place among the source's nodes (issue 49):
//! the `.ron` file writes its sibling `index` (format 5) when a source node comes after it, the
//! loader puts it there, and the Godot export writes `index="n"` as Godot does. Before, the
//! loader put every added node after the source's, so Godot's `index="0"` was lost on the first
//! save.

mod common;

use graft::model::file;
use graft::model::godot::export::ExportOptions;
use graft::model::godot::export_instance::export_scene;
use graft::model::godot::import_file;
use graft::model::scene::Scene;
use std::fs;
use std::path::Path;

/// A part: a root with two children, the first with a child of its own.
const PART: &str = "(format: 1, nodes: [
    (id: 1, name: \"Wheel\"),
    (id: 2, name: \"Hub\", parent: Some(1), position: (0.0, 5.0)),
    (id: 4, name: \"Cap\", parent: Some(2), rotation: 30.0),
    (id: 3, name: \"Rim\", parent: Some(1), position: (3.0, 0.0)),
])
";

/// A level instancing it, with nodes added before, between and after the source's own.
const LEVEL: &str = "(format: 5, nodes: [
    (id: 1, name: \"Level\"),
    (id: 2, name: \"W\", parent: Some(1), instance: \"part.ron\", position: (10.0, 0.0)),
    (id: 3, name: \"First\", parent: Some(2), index: 0, position: (1.0, 1.0)),
    (id: 4, name: \"Middle\", parent: Some(2), index: 1),
    (id: 5, name: \"InHub\", parent: Some(2), inside: [2], index: 0, rotation: 10.0),
    (id: 6, name: \"Last\", parent: Some(2)),
])
";

/// The names of the children of the node at `path` (names from a root), in sibling order.
fn children(scene: &Scene, path: &str) -> Vec<String> {
    let mut at = None;
    for part in path.split('/') {
        at = scene
            .child_indices(at)
            .find(|&c| scene.data_at(c).name == part);
        assert!(at.is_some(), "no {part} in {path}");
    }
    scene
        .child_indices(at)
        .map(|c| scene.data_at(c).name.to_string())
        .collect()
}

fn write_level(dir: &Path, level: &str) -> std::path::PathBuf {
    fs::write(dir.join("part.ron"), PART).unwrap();
    let path = dir.join("level.ron");
    fs::write(&path, level).unwrap();
    path
}

#[test]
fn added_nodes_load_at_their_index_among_the_source_nodes_and_save_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), LEVEL);
    let scene = file::load(&path).expect("loads");
    assert_eq!(
        children(&scene, "Level/W"),
        ["First", "Middle", "Hub", "Rim", "Last"]
    );
    assert_eq!(children(&scene, "Level/W/Hub"), ["InHub", "Cap"]);
    let text = file::to_ron_string(&scene);
    assert!(text.contains("format: 5"), "{text}");
    assert!(
        text.contains("name: \"First\", parent: Some(2), index: 0,"),
        "{text}"
    );
    assert!(
        text.contains("name: \"Middle\", parent: Some(2), index: 1"),
        "{text}"
    );
    assert!(text.contains("inside: [2], index: 0,"), "{text}");
    assert!(
        !text.contains("name: \"Last\", parent: Some(2), index"),
        "a node after the source's needs no index: {text}"
    );
    fs::write(&path, &text).unwrap();
    let mut back = file::load(&path).expect("loads back");
    assert_eq!(
        file::to_ron_string(&back),
        text,
        "save → load → save is exact"
    );
    let mut first = scene;
    first.update_world();
    back.update_world();
    for i in 0..first.len() {
        assert_eq!(first.id_at(i), back.id_at(i));
        assert_eq!(first.world_at(i), back.world_at(i), "node at {i}");
    }
}

#[test]
fn a_level_with_added_nodes_only_after_the_source_stays_format_4() {
    let dir = tempfile::tempdir().unwrap();
    let level = "(format: 4, nodes: [
    (id: 1, name: \"Level\"),
    (id: 2, name: \"W\", parent: Some(1), instance: \"part.ron\"),
    (id: 6, name: \"Last\", parent: Some(2)),
])
";
    let path = write_level(dir.path(), level);
    let scene = file::load(&path).expect("loads");
    let text = file::to_ron_string(&scene);
    assert!(text.contains("format: 4"), "{text}");
    assert!(!text.contains("index"), "{text}");
}

#[test]
fn an_index_in_a_format_4_file_is_refused_naming_the_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), &LEVEL.replace("format: 5", "format: 4"));
    let err = file::load(&path).expect_err("refused").to_string();
    assert!(
        err.contains("node 3: sibling indexes of added nodes need `format: 5`"),
        "{err}"
    );
    let root_index = "(format: 5, nodes: [(id: 1, name: \"Level\", index: 0)])";
    fs::write(&path, root_index).unwrap();
    let err = file::load(&path).expect_err("refused").to_string();
    assert!(err.contains("node 1: `index` needs a `parent`"), "{err}");
}

#[test]
fn an_index_past_the_end_puts_the_node_last() {
    let dir = tempfile::tempdir().unwrap();
    let level = LEVEL.replace("index: 1)", "index: 99)");
    let path = write_level(dir.path(), &level);
    let scene = file::load(&path).expect("loads");
    assert_eq!(
        children(&scene, "Level/W"),
        ["First", "Hub", "Rim", "Last", "Middle"]
    );
}

#[test]
fn godot_index_survives_import_save_load_and_export() {
    let main =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/godot/instances/main.tscn");
    let im = import_file(&main).expect("imports");
    assert_eq!(
        children(&im.scene, "Main/Ball1")
            .first()
            .map(String::as_str),
        Some("Extra"),
        "Godot's index=\"0\""
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("main.ron");
    let (code, _, err) = common::run_graft(&[
        "import",
        main.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(&out).unwrap();
    assert!(text.contains("name: \"Extra\", parent: Some("), "{text}");
    assert!(text.contains(", index: 0,"), "{text}");
    let back = file::load(&out).expect("loads back");
    assert_eq!(
        children(&back, "Main/Ball1"),
        children(&im.scene, "Main/Ball1")
    );
    for godot3 in [false, true] {
        let options = ExportOptions {
            project_root: main.parent().and_then(Path::parent).map(Path::to_path_buf),
            scene_dir: main.parent().map(Path::to_path_buf),
            root_name: "Root".into(),
            godot3,
            pixels_per_unit: None,
        };
        let export = export_scene(&back, &options, &dir.path().join("again.tscn"));
        assert!(
            export.text.contains(
                "[node name=\"Extra\" type=\"Node2D\" parent=\"Main/Ball1\" index=\"0\"]"
            ),
            "{}",
            export.text
        );
    }
}

#[test]
fn added_nodes_keep_their_place_when_the_source_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), LEVEL);
    let scene = file::load(&path).expect("loads");
    let grown = PART.replace(
        "    (id: 2, name: \"Hub\"",
        "    (id: 9, name: \"Axle\", parent: Some(1)),\n    (id: 2, name: \"Hub\"",
    );
    fs::write(dir.path().join("part.ron"), grown).unwrap();
    let fresh = graft::model::instance::edit::reload(&scene, &path).expect("reloads");
    assert_eq!(
        children(&fresh, "Level/W"),
        ["First", "Middle", "Axle", "Hub", "Rim", "Last"]
    );
    assert_eq!(children(&fresh, "Level/W/Hub"), ["InHub", "Cap"]);
}

#[test]
fn a_followed_source_keeps_added_nodes_where_loading_again_puts_them() {
    use graft::model::document::Document;
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), LEVEL);
    let mut doc = Document::open(&path).expect("opens");
    // A structural change (a node added) and, then, one of values only.
    let grown = PART.replace(
        "    (id: 2, name: \"Hub\"",
        "    (id: 9, name: \"Axle\", parent: Some(1)),\n    (id: 2, name: \"Hub\"",
    );
    for part in [
        grown.clone(),
        grown.replace("rotation: 30.0", "rotation: 45.0"),
    ] {
        fs::write(dir.path().join("part.ron"), part).unwrap();
        assert!(doc.reload_instances("Follow part.ron").expect("follows"));
        let again = file::load(&path).expect("loads again");
        for parent in ["Level/W", "Level/W/Hub"] {
            assert_eq!(children(doc.scene(), parent), children(&again, parent));
        }
        assert_eq!(
            children(doc.scene(), "Level/W"),
            ["First", "Middle", "Axle", "Hub", "Rim", "Last"]
        );
    }
    doc.undo().expect("undo");
    doc.undo().expect("undo");
    assert_eq!(
        children(doc.scene(), "Level/W"),
        ["First", "Middle", "Hub", "Rim", "Last"]
    );
}

#[test]
fn a_placeholder_keeps_its_added_nodes_indexes_until_the_source_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), LEVEL);
    let canonical = file::to_ron_string(&file::load(&path).expect("loads"));
    fs::remove_file(dir.path().join("part.ron")).unwrap();
    let placeholder = file::load(&path).expect("a placeholder loads");
    let text = file::to_ron_string(&placeholder);
    assert_eq!(text, canonical, "saved back as it was, indexes included");
    // Read through the text while the source is gone (what a follow does), then it is back.
    fs::write(&path, &text).unwrap();
    fs::write(dir.path().join("part.ron"), PART).unwrap();
    let back = file::load(&path).expect("loads");
    assert_eq!(
        children(&back, "Level/W"),
        ["First", "Middle", "Hub", "Rim", "Last"]
    );
    assert_eq!(children(&back, "Level/W/Hub"), ["InHub", "Cap"]);
}

#[test]
fn an_index_under_a_plain_parent_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let level = "(format: 5, nodes: [
    (id: 1, name: \"Level\"),
    (id: 2, name: \"Plain\", parent: Some(1), index: 0),
])
";
    let path = write_level(dir.path(), level);
    let err = file::load(&path).expect_err("refused").to_string();
    assert!(
        err.contains("node 2: `index` needs its parent to be an instance or a node of one"),
        "{err}"
    );
}

#[test]
fn an_instance_added_before_the_source_nodes_is_exported_with_its_index() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("project.godot"), "config_version=4\n").unwrap();
    let level = LEVEL.replace(
        "(id: 3, name: \"First\", parent: Some(2), index: 0, position: (1.0, 1.0)),",
        "(id: 3, name: \"First\", parent: Some(2), index: 0, instance: \"part.ron\"),",
    );
    let path = write_level(dir.path(), &level);
    let scene = file::load(&path).expect("loads");
    assert_eq!(children(&scene, "Level/W")[0], "First");
    let options = ExportOptions {
        project_root: Some(dir.path().to_path_buf()),
        scene_dir: Some(dir.path().to_path_buf()),
        root_name: "Root".into(),
        godot3: false,
        pixels_per_unit: None,
    };
    let export = export_scene(&scene, &options, &dir.path().join("level.tscn"));
    let header = export.text.lines().find(|l| l.contains("name=\"First\""));
    let header = header.expect("First is written");
    assert!(
        header.contains("instance=") && header.contains(" index=\"0\""),
        "{header}"
    );
}
