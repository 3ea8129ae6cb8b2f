//! One label for an unnamed node (issue 47): wherever a node without a name is named to a
//! person it is "unnamed node N" (`model::scene::name::node_label`), as the hierarchy, the
//! screen reader and undo steps already say: the print table, a figure's caption, the space
//! grids a figure and the viewport draw (`space_prims`), and the inspector's parent line; the
//! session's refusals (a drop, a view from a node, a probe) and undo labels (edits of the
//! inspector's columns, rename, look, paste) say it too. The data keeps the empty name
//! (`print --json`).

mod ui_common;

use egui_kittest::kittest::Queryable;
use glam::DVec2;
use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, HistoryCommand, PanelCommand, ProbeCommand, ProbeRef, SelectionCommand,
    TransformSpace, ViewCommand, ViewSpace,
};
use graft::editor::session::drop_rules::{DropVerdict, DropZone, drop_verdict};
use graft::model::document::Document;
use graft::model::file::parse;
use graft::model::scene::NodeId;
use std::path::Path;
use std::process::Output;

const BODY: NodeId = NodeId(1);
const ARM: NodeId = NodeId(2);

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

/// The session on the unnamed sword with the arm (2) selected, the body scaled by `body_scale`.
fn editor(body_scale: &str) -> Editor {
    let text = unnamed_sword().replace(
        "position: (5.0, 0.0),",
        &format!("position: (5.0, 0.0), scale: {body_scale},"),
    );
    let scene = parse(&text, Path::new("sword.ron")).expect("the scene parses");
    let mut e = Editor::new(Document::untitled(scene));
    e.update_world();
    e.apply(Command::Selection(SelectionCommand::Select(vec![ARM])))
        .expect("selects");
    e
}

fn refusal(e: &mut Editor, command: Command) -> String {
    e.apply(command).expect_err("refused").to_string()
}

fn undo_label(e: &Editor) -> String {
    e.doc()
        .history()
        .undo_label()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_drop_onto_a_descendant_names_the_unnamed_node_by_the_one_label() {
    let e = editor("(1.0, 1.0)");
    let verdict = drop_verdict(e.doc().scene(), &[BODY], DropZone::Into(ARM));
    assert_eq!(
        verdict,
        DropVerdict::Refused("Cannot drop unnamed node 1 onto itself or its own descendant".into())
    );
}

#[test]
fn a_view_from_a_singular_unnamed_node_names_it_by_the_one_label() {
    let mut e = editor("(0.0, 1.0)");
    let set = Command::View(ViewCommand::SetViewSpace(ViewSpace::Node(ARM)));
    let why = refusal(&mut e, set);
    assert!(why.contains("Cannot view from unnamed node 2: "), "{why}");
    e.apply(Command::View(ViewCommand::SetViewSpace(
        ViewSpace::Selection,
    )))
    .expect("the selection's space is chosen");
    let (_, _, why) = e.view_node();
    let why = why.expect("the viewport says why it shows the world");
    assert!(
        why.starts_with("Cannot view from unnamed node 2: "),
        "{why}"
    );
}

#[test]
fn probe_refusals_and_readings_name_an_unnamed_node_by_the_one_label() {
    let mut e = editor("(0.0, 1.0)");
    let add = Command::Probe(ProbeCommand::Add {
        world: DVec2::new(1.0, 1.0),
    });
    let why = refusal(&mut e, add);
    assert!(
        why.contains("unnamed node 2 has a singular world matrix"),
        "{why}"
    );
    let mut e = editor("(1.0, 1.0)");
    let gone = ProbeRef {
        node: ARM,
        index: 4,
    };
    let why = refusal(&mut e, Command::Probe(ProbeCommand::Remove(gone)));
    assert!(why.contains("unnamed node 2 has no probe 5"), "{why}");
    let add = Command::Probe(ProbeCommand::Add {
        world: DVec2::new(5.0, 2.0),
    });
    e.apply(add).expect("a probe on the arm");
    assert_eq!(e.probe_readings()[0].owner, "unnamed node 2");
}

#[test]
fn undo_labels_of_the_inspector_name_an_unnamed_node_by_the_one_label() {
    let mut e = editor("(1.0, 1.0)");
    let before = e.doc().scene().node(ARM).expect("arm").local;
    let mut value = before;
    value.position.x += 1.0;
    let step = |e: &mut Editor, command: PanelCommand| {
        e.apply(Command::Panel(command)).expect("applies");
        e.apply(Command::History(HistoryCommand::EndGesture))
            .expect("ends");
        undo_label(e)
    };
    let local = PanelCommand::SetTransform {
        space: TransformSpace::Local,
        before,
        value,
        lock_scale: false,
    };
    assert_eq!(step(&mut e, local), "Edit unnamed node 2");
    let world_before = e.doc().scene().world_trs(ARM).expect("arm");
    let mut world = world_before;
    world.position.y += 1.0;
    let world = PanelCommand::SetTransform {
        space: TransformSpace::World,
        before: world_before,
        value: world,
        lock_scale: false,
    };
    assert_eq!(step(&mut e, world), "Move unnamed node 2 in world space");
    let paste = PanelCommand::PasteTransform {
        node: ARM,
        text: "position: (1.0, 2.0), rotation: 90.0".into(),
        space: TransformSpace::Local,
    };
    assert_eq!(step(&mut e, paste), "Paste transform onto unnamed node 2");
    let data = e.doc().scene().node(ARM).expect("arm").clone();
    let look = PanelCommand::SetLook {
        node: ARM,
        shape: data.shape.clone(),
        color: [1, 2, 3, 255],
    };
    assert_eq!(step(&mut e, look), "Change the look of unnamed node 2");
    let rename = PanelCommand::Rename {
        node: ARM,
        name: "arm".into(),
    };
    assert_eq!(step(&mut e, rename), "Rename unnamed node 2 to arm");
}

#[test]
fn the_inspector_names_an_unnamed_shear_cause_by_the_one_label() {
    let text = unnamed_sword()
        .replace("rotation: 90.0,\n", "rotation: 90.0, scale: (2.0, 1.0),\n")
        .replace(
            "position: (0.0, 3.0),",
            "position: (0.0, 3.0), rotation: 30.0,",
        );
    let (_dir, path) = ui_common::scene_file(&text);
    let mut h = ui_common::app_on_path(path);
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![NodeId(
            3,
        )])));
    h.run_steps(3);
    h.get_by_label("Select cause (unnamed node 2)");
}
