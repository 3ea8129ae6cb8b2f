//! The `graft` binary, run as a user would: every subcommand and every error exit.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[cfg(target_os = "linux")]
#[path = "cli/special_files.rs"]
mod special_files;

fn graft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .output()
        .expect("the graft binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        stdout(o),
        stderr(o)
    );
}

fn print_json(path: &Path) -> Vec<Value> {
    let o = graft(&["print", path.to_str().unwrap(), "--json"]);
    exit(&o, 0);
    serde_json::from_str::<Value>(&stdout(&o))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn node(nodes: &[Value], id: u64) -> &Value {
    nodes.iter().find(|n| n["id"] == id).unwrap()
}

fn xy(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

fn close(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 1e-5 && (a.1 - b.1).abs() < 1e-5
}

fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::copy(format!("scenes/{name}"), &path).unwrap();
    (dir, path)
}

#[test]
fn print_shows_local_and_world_in_a_table_and_as_json() {
    let o = graft(&["print", "scenes/sword.ron"]);
    exit(&o, 0);
    let text = stdout(&o);
    let sword_line = text.lines().find(|l| l.contains("sword")).unwrap();
    assert!(
        sword_line.contains("(1, 0) 0°") && sword_line.contains("(2, 3) 90°"),
        "{sword_line}"
    );

    let nodes = print_json(Path::new("scenes/sword.ron"));
    assert_eq!(nodes.len(), 5);
    assert_eq!(nodes[0]["parent"], Value::Null);
    let sword = node(&nodes, 4);
    assert_eq!(sword["name"], "sword");
    assert_eq!(sword["parent"], 3);
    assert!(close(xy(&sword["world"]["position"]), (2.0, 3.0)));
    assert!(close(xy(&sword["local"]["position"]), (1.0, 0.0)));
    let m = &sword["world"]["matrix"];
    assert!(
        close(
            (m[0][2].as_f64().unwrap(), m[1][2].as_f64().unwrap()),
            (2.0, 3.0)
        ),
        "translation is the last column"
    );
    assert_eq!(m[2], serde_json::json!([0.0, 0.0, 1.0]));
    assert!((sword["world"]["rotation"].as_f64().unwrap() - 90.0).abs() < 1e-5);
    assert_eq!(sword["determinant"], 1.0);

    let shear = print_json(Path::new("scenes/shear.ron"));
    assert!((node(&shear, 2)["shear"].as_f64().unwrap() + 1.5).abs() < 1e-5);
    assert!(node(&shear, 4)["shear"].as_f64().unwrap().abs() < 1e-5);
}

#[test]
fn check_reports_each_bad_file_with_its_place() {
    let o = graft(&["check", "scenes/sword.ron", "scenes/shear.ron"]);
    exit(&o, 0);
    assert!(stdout(&o).contains("scenes/sword.ron: ok (5 nodes)"));
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ron");
    std::fs::write(&broken, "(\n  format: 1,\n  nodes: [(id: 1,, )],\n)").unwrap();
    let orphan = dir.path().join("orphan.ron");
    std::fs::write(&orphan, "(format: 1, nodes: [(id: 7, parent: Some(12))])").unwrap();
    let o = graft(&[
        "check",
        broken.to_str().unwrap(),
        "scenes/tank.ron",
        orphan.to_str().unwrap(),
    ]);
    exit(&o, 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:3:", broken.display())), "{err}");
    assert!(
        err.contains(&format!(
            "{}: node 7: parent 12 does not exist",
            orphan.display()
        )),
        "{err}"
    );
    assert!(stdout(&o).contains("scenes/tank.ron: ok"));
    let o = graft(&["check", "no/such/file.ron"]);
    exit(&o, 1);
    assert!(stderr(&o).contains("no/such/file.ron"));
}

#[test]
fn fmt_rewrites_canonically_and_check_mode_changes_nothing() {
    let (dir, path) = scratch("sword.ron");
    let p = path.to_str().unwrap();
    let original = std::fs::read(&path).unwrap();
    let o = graft(&["fmt", "--check", p]);
    exit(&o, 1);
    assert!(stderr(&o).contains("not in canonical form"));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "--check writes nothing"
    );
    let out = dir.path().join("out.ron");
    exit(&graft(&["fmt", p, "-o", out.to_str().unwrap()]), 0);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "-o leaves the input alone"
    );
    exit(&graft(&["fmt", p]), 0);
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&out).unwrap());
    exit(&graft(&["fmt", "--check", p]), 0);
    assert_eq!(
        std::fs::read(graft::model::atomic_write::backup_path(&path)).unwrap(),
        original,
        ".bak keeps the old text"
    );
    let o = graft(&["fmt", p, p, "-o", out.to_str().unwrap()]);
    exit(&o, 1);
    assert!(stderr(&o).contains("exactly one input"));
}

#[test]
fn reparent_keep_world_and_keep_local() {
    let (dir, path) = scratch("sword.ron");
    let p = path.to_str().unwrap();
    let kept = dir.path().join("kept.ron");
    let o = graft(&[
        "reparent",
        p,
        "--node",
        "4",
        "--parent",
        "1",
        "--keep-world",
        "-o",
        kept.to_str().unwrap(),
    ]);
    exit(&o, 0);
    assert!(stdout(&o).contains("parent 3 → 1"), "{}", stdout(&o));
    let nodes = print_json(&kept);
    let sword = node(&nodes, 4);
    assert_eq!(sword["parent"], 1);
    assert!(close(xy(&sword["local"]["position"]), (-3.0, 3.0)));
    assert!(close(xy(&sword["world"]["position"]), (2.0, 3.0)));
    assert!((sword["local"]["rotation"].as_f64().unwrap() - 90.0).abs() < 1e-5);

    exit(
        &graft(&[
            "reparent",
            p,
            "--node",
            "4",
            "--parent",
            "1",
            "--index",
            "0",
            "--keep-local",
        ]),
        0,
    );
    let nodes = print_json(&path);
    assert_eq!(
        nodes[1]["id"], 4,
        "index 0 puts the sword first under the body"
    );
    assert!(close(xy(&node(&nodes, 4)["world"]["position"]), (6.0, 0.0)));

    exit(
        &graft(&[
            "reparent",
            p,
            "--node",
            "2",
            "--parent",
            "root",
            "--keep-world",
        ]),
        0,
    );
    assert_eq!(node(&print_json(&path), 2)["parent"], Value::Null);
}

#[test]
fn refused_reparents_leave_the_file_untouched() {
    let (dir, path) = scratch("sword.ron");
    let p = path.to_str().unwrap();
    let original = std::fs::read(&path).unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["--node", "2", "--parent", "4", "--keep-world"],
            1,
            "descendant",
        ),
        (
            &["--node", "2", "--parent", "2", "--keep-local"],
            1,
            "itself",
        ),
        (
            &["--node", "99", "--parent", "1", "--keep-world"],
            1,
            "node 99 does not exist",
        ),
        (
            &["--node", "4", "--parent", "banana", "--keep-world"],
            1,
            "expected a node id or `root`",
        ),
        (
            &[
                "--node",
                "4",
                "--parent",
                "1",
                "--index",
                "9",
                "--keep-world",
            ],
            1,
            "out of range",
        ),
        (&["--node", "4", "--parent", "1"], 2, "--keep-world"),
        (
            &[
                "--node",
                "4",
                "--parent",
                "1",
                "--keep-world",
                "--keep-local",
            ],
            2,
            "cannot be used with",
        ),
    ];
    for (args, code, message) in cases {
        let mut full = vec!["reparent", p];
        full.extend_from_slice(args);
        let o = graft(&full);
        exit(&o, *code);
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert_eq!(
            std::fs::read(&path).unwrap(),
            original,
            "{args:?} changed the file"
        );
    }
    // keep-world under a parent with zero scale.
    let flat = dir.path().join("flat.ron");
    std::fs::write(
        &flat,
        "(format: 1, nodes: [(id: 1, scale: (0.0, 1.0)), (id: 2, position: (1.0, 1.0))])",
    )
    .unwrap();
    let before = std::fs::read(&flat).unwrap();
    let o = graft(&[
        "reparent",
        flat.to_str().unwrap(),
        "--node",
        "2",
        "--parent",
        "1",
        "--keep-world",
    ]);
    exit(&o, 1);
    assert!(stderr(&o).contains("singular"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&flat).unwrap(), before);
}

#[test]
fn generate_writes_loadable_scenes_of_each_shape() {
    let dir = tempfile::tempdir().unwrap();
    for shape in ["wide", "chain", "random"] {
        let out = dir.path().join(format!("{shape}.ron"));
        let o = graft(&[
            "generate",
            "--shape",
            shape,
            "--nodes",
            "500",
            "--seed",
            "3",
            "-o",
            out.to_str().unwrap(),
        ]);
        exit(&o, 0);
        let o = graft(&["check", out.to_str().unwrap()]);
        exit(&o, 0);
        assert!(stdout(&o).contains("ok (500 nodes)"), "{}", stdout(&o));
    }
    let chain = print_json(&dir.path().join("chain.ron"));
    assert_eq!(chain[499]["parent"], 499);
    let o = graft(&["generate", "--shape", "blob", "--nodes", "5", "-o", "x.ron"]);
    exit(&o, 2);
    assert!(stderr(&o).contains("unknown shape"));
}

#[test]
fn bench_commands_print_the_documented_json() {
    let o = graft(&[
        "bench",
        "propagate",
        "--nodes",
        "2000",
        "--shape",
        "chain",
        "--rounds",
        "3",
        "--json",
    ]);
    exit(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "nodes",
        "shape",
        "full_ns_per_node",
        "flat_ns_per_node",
        "naive_ns_per_node",
        "leaf_edit_ns",
        "machine_ratio",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["nodes"], 2000);
    assert_eq!(v["shape"], "chain");
    // Two threads or more measure the machine; one thread is 1 by definition.
    let ratio = v["machine_ratio"].as_f64().unwrap_or(f64::NAN);
    assert!(ratio > 0.0 && ratio.is_finite(), "{v}");
    if v["threads"] == 1 {
        assert_eq!(ratio, 1.0);
    }
    let o = graft(&[
        "bench",
        "animate",
        "--nodes",
        "2000",
        "--animated",
        "100",
        "--frames",
        "5",
        "--json",
    ]);
    exit(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["animated"], 100);
    assert!(
        v["recomputed"].as_u64().unwrap() >= 100,
        "at least the animated nodes: {v}"
    );
    assert!(v["pose_us"].as_f64().is_some() && v["propagate_us"].as_f64().is_some());
    let o = graft(&["bench", "io", "--nodes", "1000", "--rounds", "1", "--json"]);
    exit(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 1000);
    assert!(v["ron_bytes"].as_u64().unwrap() > 10_000);
    assert!(v["tscn_bytes"].as_u64().unwrap() > 10_000);
    for key in [
        "ron_load_ms",
        "ron_save_ms",
        "tscn_export_ms",
        "tscn_import_ms",
        "tscn_vs_ron",
    ] {
        assert!(v[key].as_f64().is_some_and(|x| x > 0.0), "{key}: {v}");
    }
}

#[test]
fn usage_errors_exit_2_and_garbage_never_panics() {
    exit(&graft(&["print"]), 2);
    exit(&graft(&["frobnicate", "x"]), 2);
    exit(&graft(&["print", "--help"]), 0);
    let dir = tempfile::tempdir().unwrap();
    let garbage: &[&[u8]] = &[
        b"",
        b"\xff\xfe\x00",
        b"((((((((",
        b"(format: 1, nodes: [(id: 4294967295, parent: Some(4294967295))])",
        b"(format: 1, nodes: [(id: 1, scale: (1e39, 1.0))])",
    ];
    for (k, bytes) in garbage.iter().enumerate() {
        let path = dir.path().join(format!("g{k}.ron"));
        std::fs::write(&path, bytes).unwrap();
        for sub in ["print", "check"] {
            let o = graft(&[sub, path.to_str().unwrap()]);
            exit(&o, 1);
        }
    }
}

#[test]
fn point_carries_a_point_between_spaces_and_refuses_a_singular_one() {
    // The seed's sheathing: the sword's origin is (2, 3) in the world and (-3, 3) in the body.
    let o = graft(&[
        "point",
        "scenes/sword.ron",
        "--from",
        "sword",
        "--to",
        "body",
        "0",
        "0",
        "--json",
    ]);
    exit(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(close(xy(&v["world"]), (2.0, 3.0)), "{v}");
    assert!(close(xy(&v["result"]), (-3.0, 3.0)), "{v}");
    let o = graft(&[
        "point",
        "scenes/sword.ron",
        "--from",
        "4",
        "--to",
        "world",
        "1",
        "-2",
    ]);
    exit(&o, 0);
    // The sword is turned 90° with the arm: its (1, -2) is (2, 1) from (2, 3).
    assert!(stdout(&o).contains("= (4, 4) in world"), "{}", stdout(&o));
    let o = graft(&[
        "point",
        "scenes/sword.ron",
        "--from",
        "nobody",
        "--to",
        "world",
        "0",
        "0",
    ]);
    exit(&o, 1);
    assert!(stderr(&o).contains("nobody"), "{}", stderr(&o));
    let (_dir, path) = scratch("sword.ron");
    std::fs::write(
        &path,
        "(format: 1, nodes: [(id: 1, name: \"flat\", scale: (0.0, 1.0))])",
    )
    .unwrap();
    let o = graft(&[
        "point",
        path.to_str().unwrap(),
        "--from",
        "world",
        "--to",
        "flat",
        "1",
        "1",
    ]);
    exit(&o, 1);
    assert!(stderr(&o).contains("singular"), "{}", stderr(&o));
}

#[test]
fn print_space_shows_every_node_relative_to_a_node() {
    let o = graft(&["print", "scenes/sword.ron", "--space", "arm", "--json"]);
    exit(&o, 0);
    let nodes: Vec<Value> = serde_json::from_str(&stdout(&o)).unwrap();
    let arm = node(&nodes, 2);
    assert_eq!(arm["space"], "arm");
    assert!(
        close(xy(&arm["world"]["position"]), (0.0, 0.0)),
        "the arm at its own origin"
    );
    assert!(arm["world"]["rotation"].as_f64().unwrap().abs() < 1e-4);
    // The sword, (2, 3) in the world, is (1, 3) in the arm's space (the arm is at (5, 2), turned 90°).
    assert!(close(xy(&node(&nodes, 4)["world"]["position"]), (1.0, 3.0)));
    let o = graft(&["print", "scenes/sword.ron", "--space", "arm"]);
    exit(&o, 0);
    assert!(stdout(&o).contains("in arm: position"), "{}", stdout(&o));
}

/// The animated solar system through `graft print --time`: the moon's world position equals
/// the closed form from its parents' keyed rotations (sun and earth orbit 30°/s each, moon orbit
/// 120°/s): R(a + b) · ((10, 0) + 7.5 · (cos(30° + c), sin(30° + c))).
#[test]
fn print_time_samples_the_moon_where_the_closed_form_puts_it() {
    for t in [0.25f64, 0.5, 1.3] {
        let o = graft(&[
            "print",
            "scenes/solar.ron",
            "--time",
            &t.to_string(),
            "--json",
        ]);
        exit(&o, 0);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let moon = v
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == "moon")
            .unwrap();
        let p = &moon["world"]["position"];
        let (x, y) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
        let (ab, c) = ((60.0 * t).to_radians(), (30.0 + 120.0 * t).to_radians());
        let local = (10.0 + 7.5 * c.cos(), 7.5 * c.sin());
        let want = (
            ab.cos() * local.0 - ab.sin() * local.1,
            ab.sin() * local.0 + ab.cos() * local.1,
        );
        let err = ((x - want.0).powi(2) + (y - want.1).powi(2)).sqrt();
        assert!(err <= 1e-4 * 17.5, "t = {t}: ({x}, {y}) vs {want:?}");
    }
}

/// Bad input to import, export and figure: a clear message, exit 1 (or 2 for usage), nothing
/// written.
#[test]
fn import_export_and_figure_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let o = graft(&["import", "no/such.tscn", "-o", &out("a.ron")]);
    exit(&o, 1);
    let o = graft(&["import", "level.scn", "-o", &out("a.ron")]);
    exit(&o, 1);
    assert!(stderr(&o).contains("save it as .tscn"));
    let o = graft(&["export", "scenes/sword.ron", "-o", &out("a.obj")]);
    exit(&o, 1);
    assert!(stderr(&o).contains(".tscn (Godot), .svg, or .html"));
    let o = graft(&[
        "figure",
        "scenes/sword.ron",
        "-o",
        &out("f.png"),
        "--size",
        "wide",
    ]);
    exit(&o, 1);
    assert!(stderr(&o).contains("WIDTHxHEIGHT"));
    let o = graft(&[
        "figure",
        "scenes/sword.ron",
        "-o",
        &out("f.png"),
        "--layers",
        "grid,bogus",
    ]);
    exit(&o, 1);
    let o = graft(&["figure", "scenes/sword.ron", "-o", &out("f.gif")]);
    exit(&o, 1);
    let o = graft(&[
        "figure",
        "scenes/sword.ron",
        "-o",
        &out("f.png"),
        "--size",
        "9000x9000",
        "--scale",
        "4",
    ]);
    exit(&o, 1);
    assert!(stderr(&o).contains("px per side"));
    let written: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(written.is_empty(), "nothing written: {written:?}");
}
