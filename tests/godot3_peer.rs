//! graft and real Godot 3 (Debian's `godot3-server`, 3.2.3) on random scenes, both ways:
//! - random Godot 3 scenes (nested Node2D / Sprite / Position2D / YSort / plain Node /
//!   CanvasLayer with offset, rotation, scale or a `transform`, instanced sub-scenes with
//!   overrides, skewed and mirrored transforms, zero scales, properties in varied order) are
//!   loaded by Godot (`tools/godot3/print_transforms.gd`) and imported by graft: every
//!   CanvasItem's transform on screen must be graft's world matrix;
//! - random graft scenes (skew, mirrors) exported as Godot 3 (`format=2`) are loaded by Godot:
//!   every node's transform must be graft's world matrix (200 generated + the 5 samples).
//!
//! Without godot3-server the test says "skipped" and compares nothing (`.ci/run` installs it
//! when it can).

mod common;

use glam::DAffine2;
use graft::model::godot::export::{ExportOptions, to_tscn};
use graft::model::godot::import_file;
use graft::model::scene::Scene;
use graft::tools::generate::{GenShape, generate};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn godot() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join("godot3-server"))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!(
            "skipped: godot3-server is not installed; the Godot 3 peer tests compare nothing"
        );
    }
    found
}

/// What Godot printed for each scene of `scenes` (file names in `dir`), in order: the JSON
/// objects of its nodes.
fn load_in_godot(godot: &Path, dir: &Path, scenes: &[String]) -> Vec<Vec<serde_json::Value>> {
    let list = dir.join("scenes.list");
    std::fs::write(&list, scenes.join("\n")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/godot3/print_transforms.gd");
    let output = Command::new(godot)
        .arg("--no-window")
        .arg("--path")
        .arg(dir)
        .arg("-s")
        .arg(&script)
        .arg(format!("--list={}", list.display()))
        .env("HOME", dir)
        .output()
        .expect("godot3-server runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut out: Vec<Vec<serde_json::Value>> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v["kind"].as_str() {
            Some("begin") => out.push(Vec::new()),
            Some("error") => panic!("Godot refused a scene: {v}"),
            Some("end") => {}
            _ => out.last_mut().expect("a begin line").push(v),
        }
    }
    assert_eq!(
        out.len(),
        scenes.len(),
        "Godot printed every scene:\n{text}"
    );
    out
}

fn from_godot(v: &serde_json::Value) -> DAffine2 {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    DAffine2::from_cols_array(&[a[0], a[1], a[2], a[3], a[4], a[5]])
}

/// graft's world matrix of node `i` in Godot's y-down terms (F·W·F).
fn world_godot(scene: &Scene, i: usize) -> DAffine2 {
    let w = scene.world_at(i).to_cols_array().map(f64::from);
    DAffine2::from_cols_array(&[w[0], -w[1], -w[2], w[3], w[4], -w[5]])
}

/// Equal within f32 rounding along a chain: 1e-4 of the matrix's size (at least 1), and each
/// entry within 1e-5 relative to itself where it is small.
fn near(a: &DAffine2, e: &DAffine2) -> bool {
    let (a, e) = (a.to_cols_array(), e.to_cols_array());
    let size = e.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    a.iter().zip(e).all(|(a, e)| (a - e).abs() <= 1e-4 * size)
}

#[test]
fn graft_scenes_exported_as_godot3_are_placed_by_godot_as_graft_places_them() {
    let Some(godot) = godot() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut scenes = Vec::new();
    let mut names = Vec::new();
    for seed in 0..200u64 {
        let shape = [
            GenShape::Random,
            GenShape::Random,
            GenShape::Chain,
            GenShape::Wide,
        ][seed as usize % 4];
        scenes.push(generate(shape, 5 + (seed as usize * 7) % 60, seed));
    }
    for sample in ["sword", "shear", "flip", "solar", "tank"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{sample}.ron"));
        scenes.push(graft::model::file::load(&path).unwrap());
    }
    for (k, scene) in scenes.iter().enumerate() {
        let options = ExportOptions {
            root_name: "Root".into(),
            godot3: true,
            ..Default::default()
        };
        let (text, _) = to_tscn(scene, &options);
        let name = format!("export{k}.tscn");
        std::fs::write(dir.path().join(&name), text).unwrap();
        names.push(name);
    }
    let printed = load_in_godot(&godot, dir.path(), &names);
    let mut compared = 0;
    for ((scene, nodes), name) in scenes.iter().zip(&printed).zip(&names) {
        let items: Vec<&serde_json::Value> = nodes.iter().filter(|v| v["kind"] == "item").collect();
        assert_eq!(
            items.len(),
            scene.len() + 1,
            "{name}: every node and the root"
        );
        for (i, item) in items[1..].iter().enumerate() {
            let (ours, theirs) = (world_godot(scene, i), from_godot(&item["screen"]));
            assert!(
                near(&ours, &theirs),
                "{name}, node {i} {}: Godot {:?}, graft {:?}",
                item["path"],
                theirs.to_cols_array(),
                ours.to_cols_array()
            );
            compared += 1;
        }
    }
    eprintln!("{compared} exported nodes placed by real Godot 3 as by graft");
}

/// A random Godot 3 scene's text, its nodes named uniquely (`N0`, `N1`, …; instanced
/// sub-scenes keep their `S…` names under their instance's `N` name).
fn random_godot3_scene(rng: &mut fastrand::Rng, nodes: usize) -> String {
    let mut out = String::from(
        "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://sub.tscn\" type=\"PackedScene\" id=1]\n\n[node name=\"N0\" type=\"Node2D\"]\n",
    );
    let mut paths = vec![".".to_string()];
    let mut layer = vec![false];
    for k in 1..nodes {
        let parent = rng.usize(..k);
        let parent_path = paths[parent].clone();
        let path = if parent_path == "." {
            format!("N{k}")
        } else {
            format!("{parent_path}/N{k}")
        };
        let instance = rng.u8(..10) == 0;
        let class = if instance {
            ""
        } else {
            [
                "Node2D",
                "Node2D",
                "Sprite",
                "Position2D",
                "YSort",
                "Node",
                "CanvasLayer",
            ][rng.usize(..7)]
        };
        if instance {
            let _ = writeln!(
                out,
                "\n[node name=\"N{k}\" parent=\"{parent_path}\" instance=ExtResource( 1 )]"
            );
        } else {
            let _ = writeln!(
                out,
                "\n[node name=\"N{k}\" type=\"{class}\" parent=\"{parent_path}\"]"
            );
        }
        let is_layer = class == "CanvasLayer";
        if class != "Node" {
            props(rng, &mut out, is_layer);
        }
        if instance && rng.bool() {
            let _ = writeln!(out, "\n[node name=\"S1\" parent=\"{path}\"]");
            let _ = writeln!(out, "rotation = {}", f(rng.f64() * 6.0 - 3.0));
        }
        paths.push(path);
        layer.push(is_layer);
    }
    out
}

fn f(v: f64) -> String {
    format!("{v:?}")
}

/// Transform properties in a random order: some of position (offset on a layer), rotation or
/// rotation_degrees, scale (mirrors, sometimes 0), and a skewed or mirrored `transform`.
fn props(rng: &mut fastrand::Rng, out: &mut String, layer: bool) {
    let mut lines = Vec::new();
    let v = |rng: &mut fastrand::Rng| rng.f64() * 200.0 - 100.0;
    let origin = if layer { "offset" } else { "position" };
    if rng.bool() {
        lines.push(format!(
            "{origin} = Vector2( {}, {} )",
            f(v(rng)),
            f(v(rng))
        ));
    }
    if rng.bool() {
        lines.push(if rng.bool() {
            format!("rotation = {}", f(rng.f64() * 6.0 - 3.0))
        } else {
            format!("rotation_degrees = {}", f(rng.f64() * 360.0 - 180.0))
        });
    }
    if rng.bool() {
        let s = |rng: &mut fastrand::Rng| match rng.u8(..12) {
            0 => 0.0,
            1 => -1.0,
            _ => rng.f64() * 3.0 - 1.5,
        };
        lines.push(format!("scale = Vector2( {}, {} )", f(s(rng)), f(s(rng))));
    }
    if rng.u8(..3) == 0 {
        let m: Vec<String> = (0..6)
            .map(|k| f(if k < 4 { rng.f64() * 4.0 - 2.0 } else { v(rng) }))
            .collect();
        lines.push(format!("transform = Transform2D( {} )", m.join(", ")));
    }
    rng.shuffle(&mut lines);
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}

const SUB_SCENE: &str = "[gd_scene format=2]\n\n[node name=\"S0\" type=\"Node2D\"]\nposition = Vector2( 3, 4 )\nrotation = 0.25\n\n[node name=\"S1\" type=\"Sprite\" parent=\".\"]\nposition = Vector2( 10, -5 )\nscale = Vector2( -1, 2 )\n\n[node name=\"S2\" type=\"Position2D\" parent=\"S1\"]\ntransform = Transform2D( 1, 0.2, 0.7, 1, 5, 6 )\n";

/// The key a node is matched by: its path from the nearest `N…` node (its own name for an
/// `N…` node; `N7/S1/S2` inside an instanced sub-scene), in a list of names root first.
fn key(path: &[&str]) -> String {
    let from = path.iter().rposition(|n| n.starts_with('N')).unwrap_or(0);
    path[from..].join("/")
}

/// The names from a root down to node `i`, in graft's tree.
fn graft_names(scene: &Scene, i: usize) -> Vec<String> {
    let mut names = vec![scene.data_at(i).name.to_string()];
    let mut at = i;
    while let Some(p) = scene.parent_index_at(at) {
        names.push(scene.data_at(p).name.to_string());
        at = p;
    }
    names.reverse();
    names
}

#[test]
fn random_godot3_scenes_are_imported_as_godot_places_them() {
    let Some(godot) = godot() else { return };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sub.tscn"), SUB_SCENE).unwrap();
    std::fs::write(dir.path().join("project.godot"), "config_version=4\n").unwrap();
    let mut rng = fastrand::Rng::with_seed(2026);
    let names: Vec<String> = (0..200).map(|k| format!("random{k}.tscn")).collect();
    for name in &names {
        let nodes = 2 + rng.usize(..40);
        std::fs::write(dir.path().join(name), random_godot3_scene(&mut rng, nodes)).unwrap();
    }
    let printed = load_in_godot(&godot, dir.path(), &names);
    let mut compared = 0;
    for (name, nodes) in names.iter().zip(&printed) {
        let path = dir.path().join(name);
        let imported = import_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = &imported.scene;
        let index: std::collections::HashMap<String, usize> = (0..scene.len())
            .map(|i| {
                let names = graft_names(scene, i);
                (
                    key(&names.iter().map(String::as_str).collect::<Vec<_>>()),
                    i,
                )
            })
            .collect();
        for item in nodes.iter().filter(|v| v["kind"] == "item") {
            let godot_path = item["path"].as_str().unwrap();
            let parts: Vec<&str> = if godot_path == "." {
                vec!["N0"]
            } else {
                godot_path.split('/').collect()
            };
            let Some(&i) = index.get(&key(&parts)) else {
                panic!(
                    "{name}: {godot_path} was not imported\n{}",
                    std::fs::read_to_string(&path).unwrap()
                );
            };
            let (ours, theirs) = (world_godot(scene, i), from_godot(&item["screen"]));
            assert!(
                near(&ours, &theirs),
                "{name}, {godot_path}: Godot {:?}, graft {:?}\n{}",
                theirs.to_cols_array(),
                ours.to_cols_array(),
                std::fs::read_to_string(&path).unwrap()
            );
            compared += 1;
        }
    }
    eprintln!(
        "{compared} CanvasItems of 200 random Godot 3 scenes imported as real Godot 3 places them"
    );
    assert!(compared > 2000);
}

/// graft's world matrices (Godot's y-down terms, positions × `ppu`) at time `t`, from
/// `graft print --time t FILE --json`.
fn printed_worlds(file: &Path, t: f32, ppu: f64) -> Vec<DAffine2> {
    let output = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(["print", "--json", "--time", &t.to_string()])
        .arg(file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    rows.iter()
        .map(|r| {
            let m = &r["world"]["matrix"];
            let e = |row: usize, col: usize| m[row][col].as_f64().unwrap();
            let (a, c, x, b, d, y) = (e(0, 0), e(0, 1), e(0, 2), e(1, 0), e(1, 1), e(1, 2));
            DAffine2::from_cols_array(&[a, -b, -c, d, x * ppu, -y * ppu])
        })
        .collect()
}

#[test]
fn animated_exports_play_in_godot3_as_graft_plays_them() {
    let Some(godot) = godot() else { return };
    let started = std::time::Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let mut scenes: Vec<(String, Scene)> = Vec::new();
    for sample in ["solar", "sword", "tank"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{sample}.ron"));
        scenes.push((sample.into(), graft::model::file::load(&path).unwrap()));
    }
    for seed in 0..9u64 {
        let nodes = 6 + (seed as usize * 5) % 20;
        scenes.push((
            format!("random{seed}"),
            common::random_animated(seed, nodes, false),
        ));
    }
    let mut list = String::new();
    let mut plan = Vec::new();
    let mut rng = fastrand::Rng::with_seed(40);
    for (k, (name, scene)) in scenes.iter().enumerate() {
        let ppu = [1.0f32, 64.0, 100.0][k % 3];
        let options = ExportOptions {
            root_name: "Root".into(),
            godot3: true,
            pixels_per_unit: Some(ppu),
            ..Default::default()
        };
        let (text, report) = to_tscn(scene, &options);
        assert!(
            text.contains("[node name=\"AnimationPlayer\""),
            "{name}: {report:?}"
        );
        std::fs::write(dir.path().join(format!("{name}.tscn")), text).unwrap();
        let ron = dir.path().join(format!("{name}.ron"));
        graft::model::file::save(scene, &ron).unwrap();
        // Godot 3 has no ping-pong (written as a loop): its times stay in the first pass.
        let clip = scene.clip();
        let span = match clip.mode {
            graft::model::anim::LoopMode::PingPong => clip.length,
            _ => clip.length * 2.5,
        };
        let times: Vec<f32> = std::iter::once(0.0)
            .chain((1..24).map(|_| rng.f32() * span))
            .collect();
        let shown: Vec<String> = times.iter().map(|t| t.to_string()).collect();
        let _ = writeln!(list, "{name}.tscn {}", shown.join(" "));
        plan.push((name.clone(), ron, ppu as f64, times, scene.len()));
    }
    std::fs::write(dir.path().join("scenes.list"), list).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/godot3/seek_transforms.gd");
    let output = Command::new(&godot)
        .arg("--no-window")
        .arg("--path")
        .arg(dir.path())
        .arg("-s")
        .arg(&script)
        .arg(format!(
            "--list={}",
            dir.path().join("scenes.list").display()
        ))
        .env("HOME", dir.path())
        .output()
        .expect("godot3-server runs");
    let text = String::from_utf8_lossy(&output.stdout);
    // Per scene, per time: the items' global transforms.
    let mut played: Vec<Vec<Vec<DAffine2>>> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v["kind"].as_str() {
            Some("begin") => played.push(Vec::new()),
            Some("time") => played.last_mut().unwrap().push(Vec::new()),
            Some("item") => {
                let at = played.last_mut().unwrap().last_mut().unwrap();
                at.push(from_godot(&v["global"]));
            }
            Some("error") => panic!("Godot refused a scene: {v}"),
            _ => {}
        }
    }
    assert_eq!(
        played.len(),
        plan.len(),
        "Godot played every scene:\n{text}"
    );
    let (mut compared, mut samples) = (0, 0);
    for ((name, ron, ppu, times, len), per_time) in plan.iter().zip(&played) {
        assert_eq!(per_time.len(), times.len(), "{name}: every time");
        for (t, items) in times.iter().zip(per_time) {
            assert_eq!(items.len(), len + 1, "{name}: every node and the root");
            let ours = printed_worlds(ron, *t, *ppu);
            for (i, (ours, theirs)) in ours.iter().zip(&items[1..]).enumerate() {
                assert!(
                    near(ours, theirs),
                    "{name} at {t} s, node {i}: Godot {:?}, graft {:?}",
                    theirs.to_cols_array(),
                    ours.to_cols_array()
                );
                compared += 1;
            }
            samples += 1;
        }
    }
    eprintln!(
        "{} animated scenes, {samples} times, {compared} node transforms: real Godot 3 plays \
         them as graft does ({:.1} s)",
        plan.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A random local transform as `.ron` fields (skew and mirrors sometimes).
fn ron_trs(rng: &mut fastrand::Rng) -> String {
    let v = |rng: &mut fastrand::Rng| rng.f32() * 200.0 - 100.0;
    let mut out = format!(
        "position: ({:?}, {:?}), rotation: {:?}",
        v(rng),
        v(rng),
        rng.f32() * 360.0 - 180.0
    );
    if rng.bool() {
        let s = |rng: &mut fastrand::Rng| {
            (rng.f32() * 1.5 + 0.5) * if rng.u8(..4) == 0 { -1.0 } else { 1.0 }
        };
        out += &format!(", scale: ({:?}, {:?})", s(rng), s(rng));
    }
    if rng.u8(..3) == 0 {
        out += &format!(", skew: {:?}", rng.f32() * 60.0 - 30.0);
    }
    out
}

fn ron_shape(rng: &mut fastrand::Rng) -> &'static str {
    [
        ", shape: Rect(size: (8.0, 4.0)), color: (10, 200, 30, 255)",
        ", shape: Ellipse(size: (6.0, 6.0))",
        "",
    ][rng.usize(..3)]
}

/// A part: `n` nodes under one root (ids 1..=n), each below an earlier one.
fn leaf_ron(rng: &mut fastrand::Rng, n: u32) -> String {
    let mut out = String::from("(\n    format: 2,\n    nodes: [\n");
    for id in 1..=n {
        let parent = if id == 1 {
            String::new()
        } else {
            format!(", parent: Some({})", 1 + rng.u32(..id - 1))
        };
        let _ = writeln!(
            out,
            "        (id: {id}, name: \"L{id}\"{parent}, {}{}),",
            ron_trs(rng),
            ron_shape(rng)
        );
    }
    out + "    ],\n)\n"
}

/// An override of source node `chain` (a transform, sometimes a colour).
fn ron_override(rng: &mut fastrand::Rng, chain: &[u32]) -> String {
    let ids: Vec<String> = chain.iter().map(u32::to_string).collect();
    let color = if rng.u8(..4) == 0 {
        ", color: (250, 0, 0, 255)"
    } else {
        ""
    };
    format!("(node: [{}], {}{color})", ids.join(", "), ron_trs(rng))
}

/// The graft side of the instance peer test: leaves (5 nodes each), a part instancing two of
/// them, and hosts instancing leaves and the part, with overrides on nodes of their sources
/// and of nested sources, and nodes added inside.
fn instance_scenes(dir: &Path, hosts: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(49);
    for k in 0..3 {
        std::fs::write(dir.join(format!("leaf{k}.ron")), leaf_ron(&mut rng, 5)).unwrap();
    }
    // mid: root 1, node 2, leaf0 as 3 (an override of its node 4), leaf1 as 4, and node 5
    // added inside leaf1's node 2, first among its children (`index: 0`, Godot's `index="0"`).
    let mid = format!(
        "(\n    format: 5,\n    nodes: [\n        (id: 1, name: \"M\", {}),\n        (id: 2, name: \"M2\", parent: Some(1), {}),\n        (id: 3, name: \"A\", parent: Some(2), instance: \"leaf0.ron\", {}, overrides: [{}]),\n        (id: 4, name: \"B\", parent: Some(1), instance: \"leaf1.ron\", {}),\n        (id: 5, name: \"M5\", parent: Some(4), inside: [2], index: 0, {}),\n    ],\n)\n",
        ron_trs(&mut rng),
        ron_trs(&mut rng),
        ron_trs(&mut rng),
        ron_override(&mut rng, &[4]),
        ron_trs(&mut rng),
        ron_trs(&mut rng)
    );
    std::fs::write(dir.join("mid.ron"), mid).unwrap();
    let mut names = Vec::new();
    for h in 0..hosts {
        let mut out = String::from("(\n    format: 4,\n    nodes: [\n");
        let _ = writeln!(out, "        (id: 1, name: \"H1\", {}),", ron_trs(&mut rng));
        for id in 2..12u32 {
            let parent = 1 + rng.u32(..id - 1);
            let head = format!("(id: {id}, name: \"H{id}\", parent: Some({parent})");
            let line = match rng.u8(..5) {
                0 => {
                    let over: Vec<String> = (0..rng.usize(..3))
                        .map(|_| {
                            let node = 2 + rng.u32(..4);
                            ron_override(&mut rng, &[node])
                        })
                        .collect();
                    format!(
                        "{head}, instance: \"leaf{}.ron\", {}, overrides: [{}]",
                        rng.u8(..3),
                        ron_trs(&mut rng),
                        over.join(", ")
                    )
                }
                1 => {
                    // mid's own node 2, and node 3 of its nested leaf1 (mid's node 4).
                    let over = [
                        ron_override(&mut rng, &[2]),
                        ron_override(&mut rng, &[4, 3]),
                    ];
                    format!(
                        "{head}, instance: \"mid.ron\", {}, overrides: [{}]",
                        ron_trs(&mut rng),
                        over.join(", ")
                    )
                }
                _ => format!("{head}, {}{}", ron_trs(&mut rng), ron_shape(&mut rng)),
            };
            let _ = writeln!(out, "        {line}),");
        }
        out += "    ],\n)\n";
        let name = format!("host{h}.ron");
        std::fs::write(dir.join(&name), out).unwrap();
        names.push(name);
    }
    names
}

#[test]
fn nested_instances_exported_with_project_are_placed_by_godot3_as_graft_places_them() {
    let Some(godot) = godot() else { return };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "config_version=4\n").unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let hosts = instance_scenes(dir.path(), 24);
    let mut tscns = Vec::new();
    for name in &hosts {
        let ron = dir.path().join(name);
        let tscn = format!("out/{}", name.replace(".ron", ".tscn"));
        let output = Command::new(env!("CARGO_BIN_EXE_graft"))
            .args(["export", "--godot", "3", "--project"])
            .arg(dir.path())
            .arg(&ron)
            .arg("-o")
            .arg(dir.path().join(&tscn))
            .output()
            .unwrap();
        assert!(output.status.success(), "{name}: {output:?}");
        tscns.push(tscn);
    }
    for part in ["leaf0", "leaf1", "leaf2", "mid"] {
        let text = std::fs::read_to_string(dir.path().join(format!("out/{part}.tscn")));
        assert!(text.is_ok(), "{part} written once as a part");
    }
    let mid = std::fs::read_to_string(dir.path().join("out/mid.tscn")).unwrap();
    assert!(
        mid.contains("[node name=\"M5\" type=\"Node2D\" parent=\"B/L2\" index=\"0\"]"),
        "M5 first among leaf1's node 2's children, as in mid.ron:\n{mid}"
    );
    let printed = load_in_godot(&godot, dir.path(), &tscns);
    let (mut compared, mut instances) = (0, 0);
    for ((name, tscn), nodes) in hosts.iter().zip(&tscns).zip(&printed) {
        let ron = dir.path().join(name);
        let scene = graft::model::file::load(&ron).unwrap();
        let ours = printed_worlds(&ron, 0.0, 1.0);
        let items: Vec<&serde_json::Value> = nodes.iter().filter(|v| v["kind"] == "item").collect();
        assert_eq!(
            items.len(),
            scene.len() + 1,
            "{name}: every node and the root"
        );
        for (i, item) in items[1..].iter().enumerate() {
            let theirs = from_godot(&item["screen"]);
            assert!(
                near(&ours[i], &theirs),
                "{name}, node {i} {}: Godot {:?}, graft {:?}\n{}",
                item["path"],
                theirs.to_cols_array(),
                ours[i].to_cols_array(),
                std::fs::read_to_string(dir.path().join(tscn)).unwrap()
            );
            compared += 1;
            let want = instance_file(&scene, i).map(|f| format!("res://out/{f}.tscn"));
            assert_eq!(
                item["instance"].as_str().map(str::to_string),
                want,
                "{name}, node {i} {}",
                item["path"]
            );
            instances += usize::from(want.is_some());
        }
    }
    eprintln!(
        "{} scenes with nested instances: {compared} nodes placed by real Godot 3 as by graft, \
         {instances} instance roots naming their part",
        hosts.len()
    );
    assert!(instances > 40, "{instances}");
}

/// The source a node of `scene` is the root of (its file stem), the scene's own instances or
/// those nested in a source.
fn instance_file(scene: &Scene, i: usize) -> Option<String> {
    let id = scene.id_at(i);
    let stem = |p: &str| {
        Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    };
    if let Some(entry) = scene.instance_entry(id) {
        return stem(&entry.path);
    }
    let o = scene.origin(id)?;
    let source = scene.instance_entry(o.root)?.source.as_ref().ok()?;
    let nested = source.scene.id_at(o.index as usize);
    stem(&source.scene.instance_entry(nested)?.path)
}

/// Copy a folder (files and subfolders) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Make a Godot 3 project copy loadable without the files it does not store (textures,
/// scripts, fonts, tilesets: Godot 3 refuses a scene whose dependency is missing): each
/// `ext_resource` naming a missing file is dropped and its uses become `null`. Nothing that
/// places a node refers to those files.
fn without_missing_files(project: &Path, dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            without_missing_files(project, &path);
            continue;
        }
        if !matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("tscn" | "tres")
        ) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = String::new();
        let mut gone = Vec::new();
        for line in text.lines() {
            if line.starts_with("[ext_resource") {
                let file = line
                    .split("path=\"res://")
                    .nth(1)
                    .and_then(|r| r.split('"').next());
                let id = line
                    .split(" id=")
                    .nth(1)
                    .map(|r| r.trim_end_matches(']').to_string());
                if let (Some(file), Some(id)) = (file, id)
                    && !project.join(file).is_file()
                {
                    gone.push(id);
                    continue;
                }
            }
            out.push_str(line);
            out.push('\n');
        }
        for id in gone {
            out = out.replace(&format!("ExtResource( {id} )"), "null");
        }
        std::fs::write(&path, out).unwrap();
    }
}

/// The exported item that is the original's node at `path` (`.` the root): under the new
/// root as `ROOTNAME/path`, or a re-rooted node by the longest tail of its path.
fn exported_match<'a>(
    exported: &'a std::collections::HashMap<String, &'a serde_json::Value>,
    root_name: &str,
    path: &str,
) -> Option<&'a serde_json::Value> {
    if path == "." {
        return exported.get(root_name).copied();
    }
    if let Some(v) = exported.get(&format!("{root_name}/{path}")) {
        return Some(v);
    }
    let parts: Vec<&str> = path.split('/').collect();
    (0..parts.len()).find_map(|k| exported.get(&parts[k..].join("/")).copied())
}

#[test]
fn real_godot3_scenes_with_instances_keep_globals_and_instanced_files_in_real_godot3() {
    let Some(godot) = godot() else { return };
    let real = Path::new("/work/shared/godot-real");
    if !real.is_dir() {
        eprintln!(
            "skipped: {} is absent; the real scenes compare nothing",
            real.display()
        );
        return;
    }
    let scenes = [
        ("platformer-3x", "src/main/game.tscn"),
        ("platformer-3x", "src/level/level.tscn"),
        ("platformer-3x", "src/ui/pause_menu.tscn"),
        ("skeleton-3x", "level.tscn"),
    ];
    let (mut compared, mut kept, mut originals, mut files) = (0, 0, 0, 0);
    let mut approximated = 0;
    for (project, scene) in scenes {
        // A scratch copy: the export is written inside the project, so it names the
        // originals' instanced files by their res:// paths.
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&real.join(project), dir.path());
        without_missing_files(dir.path(), dir.path());
        std::fs::create_dir(dir.path().join("graft")).unwrap();
        let (ron, tscn) = (
            dir.path().join("graft/x.ron"),
            dir.path().join("graft/x.tscn"),
        );
        for args in [
            vec![
                "import".into(),
                dir.path().join(scene).display().to_string(),
                "-o".into(),
                ron.display().to_string(),
            ],
            vec![
                "export".into(),
                ron.display().to_string(),
                "-o".into(),
                tscn.display().to_string(),
                "--godot".into(),
                "3".into(),
            ],
        ] {
            let output = Command::new(env!("CARGO_BIN_EXE_graft"))
                .args(&args)
                .output()
                .unwrap();
            assert!(output.status.success(), "{scene}: {output:?}");
        }
        let printed = load_in_godot(
            &godot,
            dir.path(),
            &[scene.to_string(), "graft/x.tscn".into()],
        );
        let items = |k: usize| -> Vec<&serde_json::Value> {
            printed[k].iter().filter(|v| v["kind"] == "item").collect()
        };
        let (original, exported) = (items(0), items(1));
        let by_path: std::collections::HashMap<String, &serde_json::Value> = exported
            .iter()
            .map(|v| (v["path"].as_str().unwrap().to_string(), *v))
            .collect();
        let root_name = printed[0][0]["name"].as_str().unwrap();
        // graft's own worlds, by the path the export gives each node under its new root.
        let worlds = printed_worlds(&ron, 0.0, 1.0);
        let graft_scene = graft::model::file::load(&ron).unwrap();
        let index: std::collections::HashMap<String, usize> = (0..graft_scene.len())
            .map(|i| (graft_names(&graft_scene, i).join("/"), i))
            .collect();
        for item in &original {
            let path = item["path"].as_str().unwrap();
            let Some(ours) = exported_match(&by_path, root_name, path) else {
                panic!("{scene}: {path} is not in the export");
            };
            let (a, b) = (from_godot(&item["screen"]), from_godot(&ours["screen"]));
            let k = index[ours["path"].as_str().unwrap()];
            if !near(&worlds[k], &a) {
                // A Control that a container or its anchors place: the import approximates it.
                approximated += 1;
                continue;
            }
            assert!(
                near(&b, &a),
                "{scene}, {path}: original {:?}, export {:?}",
                a.to_cols_array(),
                b.to_cols_array()
            );
            compared += 1;
            if path != "."
                && let Some(file) = item["instance"].as_str()
            {
                originals += 1;
                if let Some(theirs) = ours["instance"].as_str() {
                    assert_eq!(theirs, file, "{scene}, {path}: the same instanced file");
                    kept += 1;
                }
            }
        }
        files += 1;
    }
    eprintln!(
        "{files} real Godot 3 scenes: {compared} CanvasItems at the same place in real Godot 3 \
         after import and export ({approximated} Controls placed by a layout left out: the \
         import approximates them); {kept} of {originals} instance roots instance the same file"
    );
    assert!(compared > 500 && kept > 20, "{compared} {kept}");
}

/// Godot's item at each path (relative to the scene's root) against graft's node at the same
/// name path (`root/…`) in `scene`; returns how many were compared.
fn compare_by_path(scene: &Scene, root: &str, nodes: &[serde_json::Value], what: &str) -> usize {
    let mut scene = scene.clone();
    scene.update_world();
    let index: std::collections::HashMap<String, usize> = (0..scene.len())
        .map(|i| (graft_names(&scene, i).join("/"), i))
        .collect();
    let mut compared = 0;
    for item in nodes.iter().filter(|v| v["kind"] == "item") {
        let path = item["path"].as_str().unwrap();
        if path == "." && root.is_empty() {
            continue; // the export's new root
        }
        let full = if path == "." {
            root.to_string()
        } else {
            format!("{root}/{path}")
        };
        let i = *index
            .get(&full)
            .or_else(|| index.get(path))
            .unwrap_or_else(|| panic!("{what}: no {full}"));
        let (ours, theirs) = (world_godot(&scene, i), from_godot(&item["screen"]));
        assert!(
            near(&ours, &theirs),
            "{what}, {path}: Godot {:?}, graft {:?}",
            theirs.to_cols_array(),
            ours.to_cols_array()
        );
        compared += 1;
    }
    compared
}

#[test]
fn a_godot3_top_level_line_is_ignored_as_godot3_ignores_it() {
    let Some(godot) = godot() else { return };
    let dir = tempfile::tempdir().unwrap();
    let text = "[gd_scene format=2]\n\n[node name=\"N0\" type=\"Node2D\"]\nposition = Vector2( 10, 20 )\nrotation = 0.5\n\n[node name=\"N1\" type=\"Node2D\" parent=\".\"]\nposition = Vector2( 5, 0 )\ntop_level = true\n\n[node name=\"N2\" type=\"Sprite\" parent=\"N1\"]\nposition = Vector2( 3, 4 )\nscale = Vector2( 2, 1 )\ntop_level = true\n";
    std::fs::write(dir.path().join("top.tscn"), text).unwrap();
    let printed = load_in_godot(&godot, dir.path(), &["top.tscn".into()]);
    let imported = import_file(&dir.path().join("top.tscn")).unwrap();
    let reroots = imported
        .report
        .notes
        .iter()
        .filter(|n| n.message.contains("top_level"))
        .count();
    assert_eq!(reroots, 0, "{:?}", imported.report.notes);
    assert_eq!(
        compare_by_path(&imported.scene, "N0", &printed[0], "top.tscn"),
        3
    );
}

#[test]
fn an_instanced_layer_and_control_moved_by_graft_are_placed_by_godot3_as_graft_places_them() {
    let Some(godot) = godot() else { return };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "config_version=4\n").unwrap();
    let hud = "[gd_scene format=2]\n\n[node name=\"HUD\" type=\"CanvasLayer\"]\noffset = Vector2( 5, 6 )\n\n[node name=\"Panel\" type=\"Control\" parent=\".\"]\nmargin_left = 10.0\nmargin_top = 20.0\n\n[node name=\"Dot\" type=\"Node2D\" parent=\"Panel\"]\nposition = Vector2( 1, 2 )\n";
    std::fs::write(dir.path().join("hud.tscn"), hud).unwrap();
    let host = "(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"H\"),\n        (id: 2, name: \"hud\", parent: Some(1), instance: \"hud.tscn\", position: (30.0, -40.0), overrides: [(node: [2], position: (50.0, -60.0)), (node: [3], rotation: 20.0)]),\n    ],\n)\n";
    let ron = dir.path().join("host.ron");
    std::fs::write(&ron, host).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(["export", "--godot", "3"])
        .arg(&ron)
        .arg("-o")
        .arg(dir.path().join("host.tscn"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(dir.path().join("host.tscn")).unwrap();
    assert!(text.contains("offset = Vector2( 30.0, 40.0 )"), "{text}");
    assert!(
        text.contains("rect_position = Vector2( 50.0, 60.0 )"),
        "{text}"
    );
    let printed = load_in_godot(&godot, dir.path(), &["host.tscn".into()]);
    let scene = graft::model::file::load(&ron).unwrap();
    let n = compare_by_path(&scene, "", &printed[0], "host.tscn");
    assert_eq!(
        n, 3,
        "H, Panel and Dot (the root and the layer are not items)"
    );
}
