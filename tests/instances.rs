//! Scenes inside scenes (issue 48), tested in the form of the failures other engines had:
//! overrides lost when an instance with edited children moves (godot#29593, #23979), added
//! nodes left at an old path when the source gains a level (#34385), overrides detached by a
//! rename or a move in the source; and what must never be lost: an override of a node gone
//! from its source, a missing source, a cycle refused with its chain named.

mod common;

use glam::Vec2;
use graft::model::document::Document;
use graft::model::file;
use graft::model::instance::{check, edit};
use graft::model::math::Trs;
use graft::model::scene::Keep;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeData, NodeId, Scene, Shape};
use std::fs;
use std::path::{Path, PathBuf};

/// The part every instance test instances: a wheel, its hub and a spoke (ids 1, 2, 3).
const WHEEL: &str = include_str!("fixtures/wheel-part.ron");

const CAR: &str = r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body", position: (5.0, 0.0)),
        (id: 2, name: "mount", parent: Some(1), position: (0.0, 3.0), rotation: 45.0, scale: (2.0, 1.0)),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0)),
    ],
)
"#;

/// A folder with `car.ron` and `parts/wheel.ron`.
fn car_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("parts")).expect("parts");
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL).expect("wheel");
    let car = dir.path().join("car.ron");
    fs::write(&car, CAR).expect("car");
    (dir, car)
}

/// The node of instance `root` that is node `chain` of its source.
fn inner(scene: &Scene, root: u32, chain: &[u32]) -> NodeId {
    let table = scene.instances().expect("instances");
    *scene
        .ids()
        .iter()
        .find(|id| {
            table
                .origin(**id)
                .is_some_and(|o| o.root == NodeId(root) && table.chain_of(o) == Some(chain))
        })
        .unwrap_or_else(|| panic!("no node {chain:?} in instance {root}"))
}

/// Turn node `chain` of instance 10.
fn spin_inner(doc: &mut Document, chain: &[u32], degrees: f32) {
    let node = inner(doc.scene(), 10, chain);
    spin(doc, node, degrees);
}

fn spin(doc: &mut Document, node: NodeId, degrees: f32) {
    let mut local = doc.scene().node(node).expect("node").local;
    local.rotation = degrees;
    doc.perform("turn", vec![Op::SetLocal { node, local }])
        .expect("turn");
}

#[test]
fn an_instance_expands_below_its_root_with_its_own_transform() {
    let (_dir, car) = car_folder();
    let mut scene = file::load(&car).expect("load");
    assert_eq!(scene.len(), 5, "3 own nodes and the wheel's hub and spoke");
    scene.update_world();
    let spoke = inner(&scene, 10, &[3]);
    let world = scene.world(spoke).expect("world");
    // body (5,0) + front (2,0) + hub (0,0.5) + spoke (1,0).
    common::assert_vec_near(world.translation, Vec2::new(8.0, 0.5));
    // The root takes the source root's look, its own name and transform.
    let root = scene.node(NodeId(10)).expect("root");
    assert_eq!(root.name, "front");
    assert_eq!(
        root.shape,
        Shape::Ellipse {
            size: Vec2::new(2.0, 2.0)
        }
    );
    // Saving writes the instance line alone: no override, no expanded node.
    assert_eq!(file::to_ron_string(&scene).lines().count(), 10);
    assert!(file::to_ron_string(&scene).contains(
        r#"(id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0)),"#
    ));
}

/// godot#29593, #23979: an instance whose inner nodes were edited, moved under another
/// parent keeping its world (or its local numbers), saved and reopened, keeps every edit.
#[test]
fn overrides_survive_reparenting_the_instance_keep_world_and_keep_local() {
    for keep_world in [true, false] {
        let (_dir, car) = car_folder();
        let mut doc = Document::open(&car).expect("open");
        let spoke = inner(doc.scene(), 10, &[3]);
        let hub = inner(doc.scene(), 10, &[2]);
        spin(&mut doc, spoke, 30.0);
        doc.perform(
            "rename",
            vec![Op::Rename {
                node: hub,
                name: "axle".into(),
            }],
        )
        .expect("rename");
        let look = (Shape::Rect { size: Vec2::ONE }, [1, 2, 3, 255]);
        doc.perform(
            "look",
            vec![Op::SetAppearance {
                node: NodeId(10),
                shape: look.0.clone(),
                color: look.1,
            }],
        )
        .expect("look");
        doc.perform(
            "move",
            vec![Op::Reparent {
                node: NodeId(10),
                parent: Some(NodeId(2)),
                index: None,
                keep: Keep::world_if(keep_world),
            }],
        )
        .expect("reparent");
        let mut before = doc.scene().clone();
        before.update_world();
        doc.save_to(&car).expect("save");
        let mut again = file::load(&car).expect("reopen");
        again.update_world();
        let spoke = inner(&again, 10, &[3]);
        assert_eq!(
            again.node(spoke).expect("spoke").local.rotation,
            30.0,
            "keep_world {keep_world}"
        );
        assert_eq!(
            again.node(inner(&again, 10, &[2])).expect("hub").name,
            "axle"
        );
        let root = again.node(NodeId(10)).expect("root");
        assert_eq!((root.shape.clone(), root.color), look);
        assert_eq!(again.parent(NodeId(10)).expect("parent"), Some(NodeId(2)));
        let old = before.world(inner(&before, 10, &[3])).expect("world");
        assert_eq!(
            common::affine_bits(&again.world(spoke).expect("world")),
            common::affine_bits(&old)
        );
    }
}

/// godot#34385: the source gains a level above an inner node; a node added under that node
/// in the instancing scene stays under it.
#[test]
fn a_node_added_under_an_inner_node_follows_it_when_the_source_gains_a_level() {
    let (dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    let hub = inner(doc.scene(), 10, &[2]);
    doc.perform(
        "add",
        vec![Op::Add {
            parent: Some(hub),
            index: None,
            data: NodeData::named("bolt", Trs::IDENTITY),
        }],
    )
    .expect("add");
    doc.save_to(&car).expect("save");
    let text = fs::read_to_string(&car).expect("read");
    assert!(
        text.contains(r#"name: "bolt", parent: Some(10), inside: [2])"#),
        "{text}"
    );
    let deeper = WHEEL.replace(
        r#"(id: 2, name: "hub", parent: Some(1),"#,
        "(id: 7, name: \"mid\", parent: Some(1), position: (0.0, 1.0)),\n        (id: 2, name: \"hub\", parent: Some(7),",
    );
    fs::write(dir.path().join("parts/wheel.ron"), deeper).expect("write");
    let scene = file::load(&car).expect("reload");
    let bolt = scene
        .ids()
        .iter()
        .copied()
        .find(|id| scene.node(*id).map(|d| d.name == "bolt").unwrap_or(false));
    let bolt = bolt.expect("bolt");
    let hub = inner(&scene, 10, &[2]);
    assert_eq!(scene.parent(bolt).expect("parent"), Some(hub));
    assert_eq!(
        scene.parent(hub).expect("parent"),
        Some(inner(&scene, 10, &[7]))
    );
    // And it saves the same way.
    assert!(file::to_ron_string(&scene).contains(r#"parent: Some(10), inside: [2])"#));
}

#[test]
fn a_node_renamed_and_moved_in_the_source_keeps_its_overrides() {
    let (dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    spin_inner(&mut doc, &[3], 30.0);
    doc.save_to(&car).expect("save");
    let moved = WHEEL.replace(
        r#"(id: 3, name: "spoke", parent: Some(2),"#,
        r#"(id: 3, name: "rim", parent: Some(1),"#,
    );
    fs::write(dir.path().join("parts/wheel.ron"), moved).expect("write");
    let scene = file::load(&car).expect("reload");
    let spoke = inner(&scene, 10, &[3]);
    let data = scene.node(spoke).expect("spoke");
    assert_eq!((data.name.as_str(), data.local.rotation), ("rim", 30.0));
    assert_eq!(scene.parent(spoke).expect("parent"), Some(NodeId(10)));
}

#[test]
fn an_override_of_a_deleted_node_is_kept_reported_and_applies_when_it_comes_back() {
    let (dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    spin_inner(&mut doc, &[3], 30.0);
    doc.save_to(&car).expect("save");
    let wheel = dir.path().join("parts/wheel.ron");
    let without: String = WHEEL
        .lines()
        .filter(|l| !l.contains("spoke"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&wheel, without).expect("write");
    let scene = file::load(&car).expect("load without the spoke");
    assert_eq!(scene.len(), 4);
    let text = fs::read_to_string(&car).expect("read");
    let report = check::report(&scene, &text, &car);
    let line = text
        .lines()
        .position(|l| l.contains("(node: [3]"))
        .expect("override line")
        + 1;
    let col = text
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find("node: [3]"))
        .expect("col")
        + 1;
    assert_eq!(
        report,
        vec![format!(
            "{}:{line}:{col}: override of node 3, no longer in parts/wheel.ron",
            car.display()
        )]
    );
    // Saved again (after an unrelated edit), the override is still in the file.
    let mut doc = Document::open(&car).expect("open");
    spin_inner(&mut doc, &[2], 5.0);
    doc.save_to(&car).expect("save");
    assert!(
        fs::read_to_string(&car)
            .expect("read")
            .contains("(node: [3], rotation: 30.0)")
    );
    fs::write(&wheel, WHEEL).expect("restore");
    let scene = file::load(&car).expect("load with the spoke back");
    assert_eq!(
        scene
            .node(inner(&scene, 10, &[3]))
            .expect("spoke")
            .local
            .rotation,
        30.0
    );
    assert!(check::problems(&scene).is_empty());
}

#[test]
fn a_missing_source_saves_back_byte_identical() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = r#"// graft scene, format 4: nodes in pre-order, a parent before its children.
// Fields equal to their default are omitted; rotation and skew are degrees.
(
    format: 4,
    nodes: [
        (id: 1, name: "body", position: (5.0, 0.0)),
        (id: 10, name: "front", parent: Some(1), instance: "parts/gone.ron", position: (2.0, 0.0), overrides: [(node: [1], color: (1, 2, 3, 255)), (node: [3], name: "x", rotation: 30.0), (node: [12, 7], shape: Rect(size: (1.0, 2.0)), tracks: [(channel: Rotation, keys: [(time: 0.0, value: 0.0), (time: 1.0, value: 90.0)])])]),
        (id: 11, name: "bolt", parent: Some(10), inside: [3], position: (0.5, 0.0)),
        (id: 13, name: "washer", parent: Some(11)),
        (id: 12, name: "nut", parent: Some(10)),
    ],
)
"#;
    let path = dir.path().join("car.ron");
    fs::write(&path, text).expect("write");
    let scene = file::load(&path).expect("a missing source loads as a placeholder");
    assert_eq!(file::to_ron_string(&scene), text);
    let problems = check::problems(&scene);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0]
            .message
            .contains("placeholder (3 overrides kept)"),
        "{problems:?}"
    );
    let mut doc = Document::open(&path).expect("open");
    doc.perform(
        "add",
        vec![Op::Add {
            parent: Some(NodeId(1)),
            index: None,
            data: NodeData::named("n", Trs::IDENTITY),
        }],
    )
    .expect("edit");
    doc.undo().expect("undo");
    doc.save_to(&path).expect("save");
    assert_eq!(fs::read_to_string(&path).expect("read"), text);
}

#[test]
fn a_three_file_cycle_is_refused_with_the_chain_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let part = |name: &str, next: &str| {
        let text = format!(
            "(format: 4, nodes: [(id: 1, name: \"{name}\"), (id: 2, parent: Some(1), instance: \"{next}\")])"
        );
        fs::write(dir.path().join(name), text).expect("write");
    };
    part("a.ron", "b.ron");
    part("b.ron", "sub/c.ron");
    fs::create_dir(dir.path().join("sub")).expect("sub");
    fs::write(
        dir.path().join("sub/c.ron"),
        "(format: 4, nodes: [(id: 1), (id: 5, parent: Some(1), instance: \"../a.ron\")])",
    )
    .expect("write");
    let err = file::load(&dir.path().join("a.ron"))
        .expect_err("a cycle")
        .to_string();
    assert!(
        err.contains("node 2: instance cycle: a.ron -> b.ron -> sub/c.ron -> a.ron"),
        "{err}"
    );
    // Entered from the middle, the chain starts there.
    let err = file::load(&dir.path().join("b.ron"))
        .expect_err("a cycle")
        .to_string();
    assert!(
        err.contains("instance cycle: b.ron -> sub/c.ron -> a.ron -> b.ron"),
        "{err}"
    );
    // Instancing a file that instances this one is refused too.
    let plain = dir.path().join("sub/d.ron");
    fs::write(&plain, "(format: 1, nodes: [(id: 1)])").expect("write");
    let mut scene = file::load(&plain).expect("plain");
    assert!(edit::add_instance(&mut scene, &plain, "d.ron", Some(NodeId(1))).is_err());
}

#[test]
fn source_nodes_cannot_be_deleted_or_moved_but_added_nodes_and_roots_can() {
    let (_dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    let hub = inner(doc.scene(), 10, &[2]);
    let before = file::to_ron_string(doc.scene());
    let err = doc
        .perform("delete", vec![Op::Remove { node: hub }])
        .expect_err("refused");
    assert!(
        err.to_string()
            .contains("belongs to instance 10 of parts/wheel.ron"),
        "{err}"
    );
    let moved = Op::Reparent {
        node: hub,
        parent: Some(NodeId(1)),
        index: None,
        keep: Keep::World,
    };
    assert!(doc.perform("move", vec![moved]).is_err());
    assert_eq!(file::to_ron_string(doc.scene()), before);
    doc.perform("delete", vec![Op::Remove { node: NodeId(10) }])
        .expect("the root goes");
    assert_eq!(doc.scene().len(), 2);
    doc.undo().expect("undo");
    assert_eq!(file::to_ron_string(doc.scene()), before);
}

#[test]
fn nested_instances_keep_overrides_at_every_level() {
    let (dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open car");
    spin_inner(&mut doc, &[3], 30.0);
    doc.save_to(&car).expect("save car");
    let level = dir.path().join("level.ron");
    fs::write(&level, "(format: 1, nodes: [(id: 1, name: \"ground\")])").expect("level");
    let mut scene = file::load(&level).expect("level");
    let a = edit::add_instance(&mut scene, &level, "car.ron", Some(NodeId(1))).expect("car a");
    let b = edit::add_instance(&mut scene, &level, "car.ron", Some(NodeId(1))).expect("car b");
    let spoke_b = inner(&scene, b.0, &[10, 3]);
    assert_eq!(
        scene.node(spoke_b).expect("spoke").local.rotation,
        30.0,
        "the car's override"
    );
    scene
        .set_local(spoke_b, Trs::new(Vec2::ZERO, 60.0, Vec2::ONE, 0.0))
        .expect("turn");
    scene.update_world();
    let worlds: Vec<_> = (0..scene.len())
        .map(|i| common::affine_bits(&scene.world_at(i)))
        .collect();
    file::save(&scene, &level).expect("save level");
    let text = fs::read_to_string(&level).expect("read");
    assert!(
        text.contains("overrides: [(node: [10, 3], position: (0.0, 0.0), rotation: 60.0)]"),
        "{text}"
    );
    let mut again = file::load(&level).expect("reload");
    again.update_world();
    let again_worlds: Vec<_> = (0..again.len())
        .map(|i| common::affine_bits(&again.world_at(i)))
        .collect();
    assert_eq!(again_worlds, worlds);
    assert_eq!(
        again
            .node(inner(&again, a.0, &[10, 3]))
            .expect("a")
            .local
            .rotation,
        30.0
    );
    // The car changes: both cars follow, b's own override kept.
    let car_text = fs::read_to_string(&car)
        .expect("car")
        .replace("rotation: 30.0", "rotation: 45.0");
    fs::write(&car, car_text).expect("write car");
    let fresh = edit::reload(&again, &level).expect("reload");
    assert_eq!(
        fresh
            .node(inner(&fresh, a.0, &[10, 3]))
            .expect("a")
            .local
            .rotation,
        45.0
    );
    assert_eq!(
        fresh
            .node(inner(&fresh, b.0, &[10, 3]))
            .expect("b")
            .local
            .rotation,
        60.0
    );
    // Reloading keeps every expanded node's id.
    assert_eq!(inner(&fresh, b.0, &[10, 3]), inner(&again, b.0, &[10, 3]));
}

#[test]
fn make_local_keeps_every_world_matrix() {
    let (_dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    spin_inner(&mut doc, &[3], 30.0);
    let mut scene = doc.scene().clone();
    scene.update_world();
    let worlds: Vec<_> = (0..scene.len())
        .map(|i| common::affine_bits(&scene.world_at(i)))
        .collect();
    edit::make_local(&mut scene, NodeId(10)).expect("make local");
    let text = file::to_ron_string(&scene);
    assert!(
        text.contains("format: 1"),
        "nothing instanced is left: {text}"
    );
    let mut flat = file::parse(&text, Path::new("flat.ron")).expect("parse");
    flat.update_world();
    let flat_worlds: Vec<_> = (0..flat.len())
        .map(|i| common::affine_bits(&flat.world_at(i)))
        .collect();
    assert_eq!(flat_worlds, worlds);
    assert!(
        edit::make_local(&mut scene, NodeId(10)).is_err(),
        "not an instance any more"
    );
}

#[test]
fn a_save_as_into_another_folder_rebases_the_source_path() {
    let (dir, car) = car_folder();
    let mut doc = Document::open(&car).expect("open");
    fs::create_dir(dir.path().join("deep")).expect("deep");
    let moved = dir.path().join("deep/car.ron");
    doc.save_to(&moved).expect("save as");
    let text = fs::read_to_string(&moved).expect("read");
    assert!(text.contains(r#"instance: "../parts/wheel.ron""#), "{text}");
    assert_eq!(file::load(&moved).expect("load").len(), 5);
}

#[test]
fn bad_instance_fields_are_refused_with_nothing_loaded() {
    let (dir, _car) = car_folder();
    let cases = [
        (
            r#"(format: 3, nodes: [(id: 1, instance: "parts/wheel.ron")])"#,
            "instances need `format: 4`",
        ),
        (
            r#"(format: 4, nodes: [(id: 1, instance: "parts/wheel.ron", shape: Rect(size: (1.0, 1.0)))])"#,
            "takes its shape",
        ),
        (
            r#"(format: 4, nodes: [(id: 1, overrides: [(node: [2], rotation: 1.0)])])"#,
            "`overrides` need `instance`",
        ),
        (
            r#"(format: 4, nodes: [(id: 1), (id: 2, parent: Some(1), inside: [2])])"#,
            "needs its parent to be an instance",
        ),
        (
            r#"(format: 4, nodes: [(id: 1, instance: "parts/wheel.ron", overrides: [(node: [1], rotation: 1.0)])])"#,
            "may set only shape",
        ),
        (
            r#"(format: 4, nodes: [(id: 1, instance: "parts/wheel.ron", overrides: [(node: [], rotation: 1.0)])])"#,
            "`node` is empty",
        ),
        (
            r#"(format: 4, nodes: [(id: 1, instance: "parts/wheel.ron", overrides: [(node: [2], rotation: inf)])])"#,
            "not a finite number",
        ),
    ];
    for (text, want) in cases {
        let err = file::parse(text, &dir.path().join("x.ron"))
            .expect_err(text)
            .to_string();
        assert!(err.contains(want), "{text}: {err}");
    }
}

/// The command line: `instance`, `print`'s marks, `check`'s reports at FILE:LINE:COL,
/// `make-local`, `fmt` keeping instances.
#[test]
fn the_command_line_instances_prints_checks_and_makes_local() {
    let (dir, car) = car_folder();
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let out = dir.path().join("out.ron");
    let wheel = dir.path().join("parts/wheel.ron");
    let (code, text, err) = common::run_graft(&[
        "instance",
        &s(&car),
        "--source",
        &s(&wheel),
        "--parent",
        "2",
        "-o",
        &s(&out),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("an instance of parts/wheel.ron (3 nodes)"),
        "{text}"
    );
    let (code, text, err) = common::run_graft(&["print", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("[instance parts/wheel.ron]") && text.contains("[from 10: 3]"),
        "{text}"
    );
    let (code, _, err) = common::run_graft(&["fmt", "--check", &s(&out)]);
    assert_eq!(code, 0, "graft writes instances canonically: {err}");
    let (code, text, err) =
        common::run_graft(&["make-local", &s(&out), "--node", "10", "-o", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("node 10: made local"), "{text}");
    let flat = fs::read_to_string(&out).expect("read");
    assert_eq!(
        flat.matches("instance:").count(),
        1,
        "the other instance stays: {flat}"
    );
    // A dangling override and a cycle, each at its place.
    let dangling = CAR.replace(
        r#"position: (2.0, 0.0)),"#,
        r#"position: (2.0, 0.0), overrides: [(node: [9], rotation: 1.0)]),"#,
    );
    fs::write(&car, &dangling).expect("write");
    let (code, _, err) = common::run_graft(&["check", &s(&car)]);
    let line = dangling
        .lines()
        .position(|l| l.contains("node: [9]"))
        .expect("line")
        + 1;
    let col = dangling
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find("node: [9]"))
        .expect("col")
        + 1;
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!(
            "car.ron:{line}:{col}: override of node 9, no longer in parts/wheel.ron"
        )),
        "{err}"
    );
    fs::write(
        dir.path().join("a.ron"),
        "(format: 4, nodes: [\n(id: 1),\n(id: 2, parent: Some(1), instance: \"b.ron\")])",
    )
    .expect("a");
    fs::write(
        dir.path().join("b.ron"),
        "(format: 4, nodes: [(id: 1, instance: \"a.ron\")])",
    )
    .expect("b");
    let (code, _, err) = common::run_graft(&["check", &s(&dir.path().join("a.ron"))]);
    assert_ne!(code, 0);
    assert!(
        err.contains("a.ron:3:26: node 2: instance cycle: a.ron -> b.ron -> a.ron"),
        "{err}"
    );
}
