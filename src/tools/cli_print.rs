//! `graft print` and `graft point`: a scene's nodes as a table or JSON, in world or in any
//! node's space, and a point carried between spaces.

use super::failure::Failure;
use crate::model::math::{ShearMetrics, Trs, decompose_like, rows, shear_metrics};
use crate::model::scene::name::node_label;
use crate::model::scene::{NodeId, Scene};
use crate::model::spaces::{carry_point, from_world, resolve_space};
use glam::DVec2;
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// `graft print`: load the scene, pose it at `time`, and print it in world or in `space`.
pub(super) fn print_file(
    file: &Path,
    json: bool,
    space: Option<String>,
    time: Option<f32>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut scene = super::progress::load(file)?;
    if let Some(t) = time {
        scene.set_pose_at(t);
    }
    scene.update_world(); // one pass, instead of a lazy walk up per node
    let space = match space {
        Some(spec) => Some((resolve_space(&scene, &spec)?, spec)),
        None => None,
    };
    print(&scene, json, space, out)
}

/// One node of the print table, as both the text and the JSON form show it.
struct PrintRow<'a> {
    /// The node's id.
    id: NodeId,
    /// The node's name.
    name: &'a str,
    /// The parent's id, if any.
    parent: Option<NodeId>,
    /// The local TRS+skew.
    local: Trs,
    /// The world matrix (or the matrix in the chosen space).
    world_m: glam::Affine2,
    /// That matrix decomposed near the local TRS.
    world: Trs,
    /// Its shear and determinant.
    metrics: ShearMetrics,
}

/// The print row of the node at pre-order index `i`, its matrix carried by `into_space` if set.
fn print_row(scene: &Scene, i: usize, into_space: Option<glam::DAffine2>) -> PrintRow<'_> {
    let data = scene.data_at(i);
    let local = data.local;
    let world_m = match into_space {
        Some(m) => {
            let r = m * scene.world_at(i).as_daffine2();
            glam::Affine2::from_mat2_translation(r.matrix2.as_mat2(), r.translation.as_vec2())
        }
        None => scene.world_at(i),
    };
    PrintRow {
        id: scene.id_at(i),
        name: data.name.as_str(),
        parent: scene.parent_index_at(i).map(|p| scene.id_at(p)),
        local,
        world_m,
        world: decompose_like(&world_m, &local),
        metrics: shear_metrics(&world_m),
    }
}

// The text and the JSON form of the same table are printed by the three functions below, side
// by side, so they cannot drift apart.
/// Print every node: a JSON array, or a table with local and world (or `space`) columns.
fn print(
    scene: &Scene,
    json: bool,
    space: Option<(Option<NodeId>, String)>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut depth = vec![0usize; scene.len()];
    let into_space = match &space {
        Some((s, _)) => Some(from_world(scene, *s)?),
        None => None,
    };
    let column = space
        .as_ref()
        .map_or("world".to_string(), |(_, name)| format!("in {name}"));
    if json {
        out.write_all(b"[")?;
    } else {
        print_header(&column, out)?;
    }
    let marks = super::cli_instance::Marks::of(scene);
    for i in 0..scene.len() {
        depth[i] = scene.parent_index_at(i).map_or(0, |p| depth[p] + 1);
        let row = print_row(scene, i, into_space);
        let marks = marks
            .as_ref()
            .map(|m| m.text(scene, row.id))
            .unwrap_or_default();
        if json {
            if i > 0 {
                out.write_all(b",")?;
            }
            print_json_row(&row, &column, &marks, out)?;
        } else {
            print_text_row(&row, depth[i], &marks, out)?;
        }
    }
    if json {
        out.write_all(b"]\n")?;
    }
    Ok(())
}

/// The print table's header line; `column` names the second transform column.
fn print_header(column: &str, out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "{:>6} {:<24} {:>6}  {:<44} {:<44} {:>9} {:>9}",
        "id",
        "name",
        "parent",
        "local: position  rotation  scale  skew",
        format!("{column}: position  rotation  scale  skew"),
        "shear",
        "det"
    )?;
    Ok(())
}

/// One print row as a JSON object (no separator, no newline).
fn print_json_row(
    row: &PrintRow,
    column: &str,
    marks: &[String],
    out: &mut dyn Write,
) -> Result<(), Failure> {
    // f32 → the f64 with the same shortest decimal form (71.2367, not 71.23670959472656).
    let j = |v: f32| v.to_string().parse::<f64>().unwrap_or(v as f64);
    let (local, world) = (&row.local, &row.world);
    let m = rows(&row.world_m).map(|r| r.map(j));
    let mut value = json!({
        "id": row.id.0,
        "name": row.name,
        "parent": row.parent.map(|p| p.0),
        "local": {"position": [j(local.position.x), j(local.position.y)], "rotation": j(local.rotation),
                  "scale": [j(local.scale.x), j(local.scale.y)], "skew": j(local.skew)},
        "space": column.strip_prefix("in ").unwrap_or("world"),
        "world": {"matrix": m, "position": [j(world.position.x), j(world.position.y)],
                  "rotation": j(world.rotation), "scale": [j(world.scale.x), j(world.scale.y)], "skew": j(world.skew)},
        "shear": j(row.metrics.dot),
        "determinant": j(row.metrics.determinant),
    });
    if !marks.is_empty() {
        value["instance"] = json!(marks);
    }
    serde_json::to_writer(&mut *out, &value).map_err(|e| Failure(e.to_string()))?;
    Ok(())
}

/// One print row as a table line: its name ("unnamed node 7" when it has none, as every list
/// says it) indented by `depth` (at most 20 levels), its instance marks after
/// (`[instance parts/wheel.ron]`, `[from 5: 7; overrides rotation]`).
fn print_text_row(
    row: &PrintRow,
    depth: usize,
    marks: &[String],
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let name = node_label(row.name, row.id);
    let name = format!("{}{name}", "  ".repeat(depth.min(20)));
    let parent_text = row.parent.map_or("-".to_string(), |p| p.to_string());
    let marks = if marks.is_empty() {
        String::new()
    } else {
        format!("  [{}]", marks.join("; "))
    };
    writeln!(
        out,
        "{:>6} {:<24} {:>6}  {:<44} {:<44} {:>9} {:>9}{marks}",
        row.id,
        name,
        parent_text,
        trs_text(&row.local),
        trs_text(&row.world),
        short(row.metrics.dot),
        short(row.metrics.determinant)
    )?;
    Ok(())
}

/// A TRS+skew for the print table: `(x, y) rotation° (sx, sy) skew°`.
fn trs_text(t: &Trs) -> String {
    format!(
        "({}, {}) {}° ({}, {}) {}°",
        short(t.position.x),
        short(t.position.y),
        short(t.rotation),
        short(t.scale.x),
        short(t.scale.y),
        short(t.skew)
    )
}

/// `graft point`: a point carried from one space to another, with its world position.
pub(super) fn point(
    file: &Path,
    (from, to): (&str, &str),
    p: DVec2,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if !p.is_finite() {
        return Err(Failure("the point must be finite numbers".into()));
    }
    let mut scene = super::progress::load(file)?;
    scene.update_world();
    let (a, b) = (resolve_space(&scene, from)?, resolve_space(&scene, to)?);
    let world = carry_point(&scene, a, None, p)?;
    let there = carry_point(&scene, a, b, p)?;
    if json {
        let value = json!({"from": from, "to": to, "point": [p.x, p.y],
                           "world": [world.x, world.y], "result": [there.x, there.y]});
        writeln!(out, "{value}")?;
    } else {
        writeln!(
            out,
            "({}, {}) in {from} = ({}, {}) in world = ({}, {}) in {to}",
            short64(p.x),
            short64(p.y),
            short64(world.x),
            short64(world.y),
            short64(there.x),
            short64(there.y)
        )?;
    }
    Ok(())
}

/// A number for the point table: rounded to 6 decimals, without `-0`.
fn short64(v: f64) -> String {
    let rounded = (v * 1e6).round() / 1e6;
    format!("{}", if rounded == 0.0 { 0.0 } else { rounded })
}

/// A number for the table: rounded to 5 decimals, without a trailing `.0` or `-0`.
pub(super) fn short(v: f32) -> String {
    let rounded = (v as f64 * 1e5).round() / 1e5;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    format!("{rounded}")
}
