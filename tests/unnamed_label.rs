//! One label for an unnamed node (issue 47): wherever a node without a name is named to a
//! person it is "unnamed node N" (`model::scene::name::node_label`), as the hierarchy, the
//! screen reader and undo steps already say: the print table, a figure's caption, the space
//! grids a figure and the viewport draw (`space_prims`), and the inspector's parent line. The
//! data keeps the empty name (`print --json`).

mod ui_common;

use egui_kittest::kittest::Queryable;
use graft::editor::session::command::{Command, SelectionCommand};
use graft::model::scene::NodeId;
use std::process::Output;

/// The sword scene with the body (1) and the arm (2) unnamed.
fn unnamed_sword() -> String {
    std::fs::read_to_string("scenes/sword.ron")
        .unwrap()
        .replace("name: \"body\"", "name: \"\"")
        .replace("name: \"arm\"", "name: \"\"")
}

fn graft(args: &[&str]) -> Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .output()
        .expect("the graft binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn the_print_table_says_unnamed_node_and_the_json_keeps_the_empty_name() {
    let (_dir, path) = ui_common::scene_file(&unnamed_sword());
    let path = path.to_str().unwrap();
    let table = String::from_utf8(graft(&["print", path]).stdout).unwrap();
    let row = |id: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("1").contains(" unnamed node 1 "), "{table}");
    assert!(row("2").contains("  unnamed node 2 "), "indented: {table}");
    assert!(row("3").contains(" hand "), "{table}");
    let json = String::from_utf8(graft(&["print", path, "--json"]).stdout).unwrap();
    let nodes: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(nodes[0]["name"], "", "the data keeps the empty name");
}

#[test]
fn a_figure_captions_and_labels_grids_of_unnamed_nodes_by_the_one_label() {
    let (dir, path) = ui_common::scene_file(&unnamed_sword());
    let svg = dir.path().join("arm.svg");
    let args = [
        "figure",
        path.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
        "--select",
        "2",
        "--layers",
        "parent-space,own-space",
    ];
    graft(&args);
    let svg = std::fs::read_to_string(svg).unwrap();
    for text in [
        ">World(unnamed node 2) = M_unnamed node 1 · M_unnamed node 2<",
        ">unnamed node 1&apos;s space",
        ">unnamed node 2&apos;s space",
    ] {
        assert!(svg.contains(text), "{text} in the figure");
    }
}

#[test]
fn the_inspector_names_an_unnamed_parent_by_the_one_label() {
    let (_dir, path) = ui_common::scene_file(&unnamed_sword());
    let mut h = ui_common::app_on_path(path);
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![NodeId(
            2,
        )])));
    h.run_steps(3);
    h.get_by_label("parent: unnamed node 1 (id 1)");
}
