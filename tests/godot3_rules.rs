//! graft's Godot 3 import against real Godot 3: every scene in
//! `tests/fixtures/godot/godot3-rules` was loaded by Debian's godot3-server (3.2.3) with
//! `tools/godot3/print_transforms.gd` (`tools/godot3/capture.sh` writes NAME.godot3.jsonl), and
//! each CanvasItem's transform as Godot places it on screen must be graft's world matrix
//! (mirrored into Godot's y-down space), entry by entry. The scenes are the cases where a
//! reading of Godot's rules went wrong: a CanvasLayer's skew under a later offset, rotation or
//! scale (Godot drops it); a zero Node2D or Control scale (Godot makes it 1e-5, a layer's stays
//! 0); a Godot 3 Node2D's setters after a skewed `transform` (they drop the skew) and its
//! `skew` property (Godot 3 has none).

use glam::DAffine2;
use graft::model::godot::import_file;
use graft::model::scene::Scene;
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/godot/godot3-rules")
}

/// A transform from Godot's `[xx, xy, yx, yy, ox, oy]`.
fn from_godot(v: &[f64]) -> DAffine2 {
    DAffine2::from_cols_array(&[v[0], v[1], v[2], v[3], v[4], v[5]])
}

/// graft's world matrix of the node called `name`, in Godot's y-down terms (F·W·F).
fn graft_world_godot(scene: &Scene, name: &str) -> Option<DAffine2> {
    let i = (0..scene.len()).find(|&i| scene.data_at(i).name == name)?;
    let w = scene.world_at(i).to_cols_array().map(f64::from);
    Some(DAffine2::from_cols_array(&[
        w[0], -w[1], -w[2], w[3], w[4], -w[5],
    ]))
}

/// Every entry within 1e-6 of the expected one, relative to its size (at least 1): a 0.01 that
/// should be 0 fails even beside a 1000.
fn near(actual: &DAffine2, expected: &DAffine2) -> bool {
    let (a, e) = (actual.to_cols_array(), expected.to_cols_array());
    a.iter()
        .zip(e)
        .all(|(a, e)| (a - e).abs() <= 1e-6 * e.abs().max(1.0))
}

/// Compare one scene with Godot's record of it; the number of items compared.
fn check(scene_file: &str) -> usize {
    let path = folder().join(scene_file);
    let imported = import_file(&path).unwrap_or_else(|e| panic!("{scene_file}: {e}"));
    let scene = &imported.scene;
    let record = std::fs::read_to_string(path.with_extension("godot3.jsonl"))
        .expect("run tools/godot3/capture.sh");
    let mut compared = 0;
    let mut wrong = Vec::new();
    for line in record.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["kind"] != "item" || v["path"] == "." {
            continue;
        }
        let name = v["name"].as_str().unwrap();
        let screen: Vec<f64> = v["screen"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let godot = from_godot(&screen);
        let graft =
            graft_world_godot(scene, name).unwrap_or_else(|| panic!("{name} was not imported"));
        compared += 1;
        if !near(&graft, &godot) {
            wrong.push(format!(
                "{name}: Godot {:?}, graft {:?}",
                godot.to_cols_array(),
                graft.to_cols_array()
            ));
        }
    }
    assert!(wrong.is_empty(), "{scene_file}:\n{}", wrong.join("\n"));
    compared
}

#[test]
fn a_canvas_layer_drops_its_skew_when_a_setter_follows() {
    assert!(check("layer_skew.tscn") >= 4);
}

#[test]
fn a_zero_node2d_or_control_scale_becomes_godots_epsilon() {
    assert!(check("zero_scale.tscn") >= 9);
}

#[test]
fn godot3_setters_after_a_transform_drop_the_skew_and_skew_is_no_property() {
    assert!(check("setters_after_transform.tscn") >= 16);
}
