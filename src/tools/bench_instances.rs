//! `graft bench instances`: a scene of many instances of one part beside a plain scene of the
//! same number of nodes, in one run (issue 48: "sharing, not copying"). The parent writes the
//! part, the instanced level and the plain scene to a temporary folder and runs each stage in a
//! fresh child process of this executable (`graft bench instances-stage STAGE FILE`), so each
//! reports its own peak (`VmHWM`) and held (`VmRSS`) resident memory:
//!
//! - `check`: `file::load` (what `graft check FILE` does), timed, holding the scene;
//! - `window`: the app opening the file as `graft FILE` does, headless (the binary's
//!   [`super::bench_memory::WindowStage`]): the time from `OpenPath` to the first frame with
//!   the scene, then idle frames until the allocator has settled;
//! - `follow` (the level only): the document open, the part rewritten on disk (every node's
//!   rotation and colour changed), then `Document::reload_instances` (the 2 s disk watch's
//!   "Follow" undo step) and the world update after it, timed;
//! - `follow-add`, `follow-remove`, `follow-move` (the level only): the same, the part changed
//!   in its structure instead (a node added under its first child; its last node removed; a
//!   node moved under another parent), each from the part as written; with `--added` every
//!   instance has a node added under a source node, which each follow must keep in its place
//!   (the scenes and these stages: `bench_follow.rs`);
//! - `play` (the level only): every node of the part below its root given a rotation track,
//!   the level opened and played (one pose and its world update timed, then 30 frames more):
//!   the resident memory playing adds.

use super::bench_follow::{Change, STRUCTURAL, follow_stage, write_scenes};
use super::bench_memory::run_window;
use super::bench_stage::mark;
pub use super::bench_stage::{InstanceStage, Mark};
use crate::model::document::Document;
use crate::model::file;
use crate::tools::failure::Failure;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// One scene's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SceneFigures {
    /// `plain` or `instanced`.
    pub scene: String,
    /// Nodes once loaded.
    pub nodes: usize,
    /// Its file, bytes.
    pub file_bytes: u64,
    /// `check`: load time, ms.
    pub load_ms: f64,
    /// `check`: (peak − baseline) / nodes.
    pub check_peak_b_per_node: f64,
    /// `check`: (held − baseline) / nodes.
    pub check_held_b_per_node: f64,
    /// `window`: `OpenPath` to the first frame with the scene, ms.
    pub open_ms: f64,
    /// `window`: (peak − the window on an empty scene) / nodes.
    pub window_peak_b_per_node: f64,
    /// `window`: (held after 3 s idle − the window on an empty scene) / nodes.
    pub window_held_b_per_node: f64,
    /// `follow`: the follow step, ms (None for the plain scene).
    pub follow_ms: Option<f64>,
    /// `follow`: the world update after it, ms.
    pub follow_world_ms: Option<f64>,
    /// `follow-add`, `follow-remove`, `follow-move`: (the change, follow ms, world update ms).
    pub structural: Vec<(String, f64, f64)>,
    /// `check`: the scene's accounting, bytes per node by part.
    pub parts_b_per_node: Vec<(String, f64)>,
    /// `play` (every node of the part animated): (one pose ms, its world update ms, resident
    /// bytes per node grown from the open to 31 frames played).
    pub play: Option<(f64, f64, f64)>,
}

/// The run: both scenes, and the instanced one's ratios to the plain one.
#[derive(Clone, Debug, Serialize)]
pub struct InstancesReport {
    /// Instances in the level.
    pub instances: usize,
    /// Nodes in the part.
    pub part_nodes: usize,
    /// Every instance has one node added under a source node (`--added`).
    pub added: bool,
    /// The plain scene, then the instanced one.
    pub scenes: Vec<SceneFigures>,
    /// instanced / plain: held bytes per node (window), open time, load time.
    pub ratios: (f64, f64, f64),
}

/// Run one stage in this process: what the child prints.
pub fn run_stage(stage: &str, file: &Path) -> Result<InstanceStage, Failure> {
    let start = Instant::now();
    let mut run = InstanceStage {
        stage: stage.into(),
        ..Default::default()
    };
    match stage {
        "baseline" => run.marks.push(mark("nothing done", start)),
        "check" => {
            let scene = file::load(file)?;
            run.ms = start.elapsed().as_secs_f64() * 1e3;
            run.marks.push(mark("loaded, holding the scene", start));
            run.nodes = scene.len();
            run.parts = scene.memory_parts();
        }
        "window" => {
            let marks = &mut run.marks;
            let (_, nodes, _) = run_window(file, &mut |label| marks.push(mark(label, start)))?;
            run.nodes = nodes;
            let at = |key: &str| (run.marks.iter()).find(|m| m.label.starts_with(key));
            if let (Some(a), Some(b)) = (at("window running"), at("file opened")) {
                run.ms = b.at_ms - a.at_ms;
            }
        }
        "follow" => follow_stage(file, &mut run, Change::Values)?,
        "follow-add" => follow_stage(file, &mut run, Change::Add)?,
        "follow-remove" => follow_stage(file, &mut run, Change::Remove)?,
        "follow-move" => follow_stage(file, &mut run, Change::Move)?,
        "play" => play_stage(file, &mut run)?,
        other => return Err(Failure(format!("unknown stage {other:?}"))),
    }
    Ok(run)
}

/// The part beside the level given a rotation track on every node below its root, the level
/// opened, then played: one pose and its world update timed, then 30 frames more (what a
/// played animated part costs in time and in memory at this many instances).
fn play_stage(level: &Path, run: &mut InstanceStage) -> Result<(), Failure> {
    use crate::model::anim::{Channel, Key, Track};
    let part_path = level.with_file_name("part.ron");
    let mut part = file::load(&part_path)?;
    for i in 1..part.len() {
        let keys = vec![Key::new(0.0, 0.0), Key::new(1.0, 90.0)];
        let track = Track::new(Channel::Rotation, keys).map_err(|e| Failure(e.to_string()))?;
        part.set_tracks(part.id_at(i), vec![track])?;
    }
    file::save(&part, &part_path)?;
    let start = Instant::now();
    let mut doc = Document::open(level)?;
    doc.update_world();
    run.marks
        .push(mark("level open (an animated part), world updated", start));
    let t = Instant::now();
    let posed = doc.set_pose_at(0.25);
    run.ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    doc.update_world();
    run.world_ms = t.elapsed().as_secs_f64() * 1e3;
    run.marks.push(mark("posed once, world updated", start));
    for frame in 1..=30 {
        doc.set_pose_at(0.25 + frame as f32 / 60.0);
        doc.update_world();
    }
    run.marks.push(mark("played 30 frames more", start));
    run.nodes = doc.scene().len();
    run.parts = doc.scene().memory_parts();
    if posed == 0 {
        return Err(Failure("playing changed no node".into()));
    }
    Ok(())
}

/// Run one stage in a fresh child process.
fn child(exe: &Path, stage: &str, file: &Path) -> Result<InstanceStage, Failure> {
    let output = std::process::Command::new(exe)
        .args(["bench", "instances-stage", stage])
        .arg(file)
        .output()
        .map_err(|e| Failure(format!("cannot run {}: {e}", exe.display())))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(Failure(format!(
            "stage {stage} {} failed ({}): {}",
            file.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    serde_json::from_str(text.trim()).map_err(|e| {
        Failure(format!(
            "stage {stage} printed something unexpected ({e}): {text}"
        ))
    })
}

/// (a − b) / n in bytes.
fn per_node(a: Option<u64>, b: Option<u64>, n: usize) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (a as f64 - b as f64) / n.max(1) as f64,
        _ => f64::NAN,
    }
}

/// One scene's stages, figures per node over `base` (the baseline process).
fn scene_figures(
    exe: &Path,
    file: &Path,
    name: &str,
    base: &Mark,
) -> Result<SceneFigures, Failure> {
    let check = child(exe, "check", file)?;
    let window = child(exe, "window", file)?;
    let n = check.nodes;
    let held = check.marks.last().cloned().unwrap_or_default();
    let empty = window.marks.first().cloned().unwrap_or_default();
    let settled = window.marks.last().cloned().unwrap_or_default();
    let mut figures = SceneFigures {
        scene: name.into(),
        nodes: n,
        file_bytes: std::fs::metadata(file)?.len(),
        load_ms: check.ms,
        check_peak_b_per_node: per_node(held.peak, base.peak, n),
        check_held_b_per_node: per_node(held.rss, base.rss, n),
        open_ms: window.ms,
        window_peak_b_per_node: per_node(settled.peak, empty.peak, n),
        window_held_b_per_node: per_node(settled.rss, empty.rss, n),
        parts_b_per_node: (check.parts.iter())
            .map(|(k, b)| (k.clone(), *b as f64 / n.max(1) as f64))
            .collect(),
        ..Default::default()
    };
    if name == "instanced" {
        let follow = child(exe, "follow", file)?;
        figures.follow_ms = Some(follow.ms);
        figures.follow_world_ms = Some(follow.world_ms);
        for stage in STRUCTURAL {
            // Each change starts from the part as written (the level instances that).
            std::fs::copy(
                file.with_file_name("part-as-written.ron"),
                file.with_file_name("part.ron"),
            )?;
            let run = child(exe, stage, file)?;
            let name = match stage {
                "follow-add" => "added",
                "follow-remove" => "removed",
                _ => "moved",
            };
            figures.structural.push((name.into(), run.ms, run.world_ms));
        }
        std::fs::copy(
            file.with_file_name("part-as-written.ron"),
            file.with_file_name("part.ron"),
        )?;
        let play = child(exe, "play", file)?;
        let (open, played) = (play.marks.first(), play.marks.last());
        let grown = per_node(played.and_then(|m| m.rss), open.and_then(|m| m.rss), n);
        figures.play = Some((play.ms, play.world_ms, grown));
    }
    Ok(figures)
}

/// Write the scenes (with `added`, a node added under a source node of every instance), run
/// every stage, put the figures together.
pub fn run(instances: usize, part_nodes: usize, added: bool) -> Result<InstancesReport, Failure> {
    if instances == 0 || part_nodes < 2 || instances * part_nodes > file::MAX_NODES {
        return Err(Failure(format!(
            "--instances × --part must be 2 to {} nodes, a part at least 2",
            file::MAX_NODES
        )));
    }
    let exe = std::env::current_exe().map_err(|e| Failure(format!("cannot find graft: {e}")))?;
    let dir = std::env::temp_dir().join(format!("graft-bench-instances-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Failure(format!("{}: {e}", dir.display())))?;
    let result = (|| {
        write_scenes(&dir, instances, part_nodes, added)?;
        let base = child(&exe, "baseline", &dir.join("part.ron"))?;
        let base = base.marks.first().cloned().unwrap_or_default();
        let plain = scene_figures(&exe, &dir.join("plain.ron"), "plain", &base)?;
        let level = scene_figures(&exe, &dir.join("level.ron"), "instanced", &base)?;
        Ok::<_, Failure>((plain, level))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    let (plain, level) = result?;
    let ratios = (
        level.window_held_b_per_node / plain.window_held_b_per_node,
        level.open_ms / plain.open_ms,
        level.load_ms / plain.load_ms,
    );
    Ok(InstancesReport {
        instances,
        part_nodes,
        added,
        scenes: vec![plain, level],
        ratios,
    })
}

/// `graft bench instances`: the report as text or one JSON object.
pub fn print(
    (instances, part, added): (usize, usize, bool),
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let r = run(instances, part, added)?;
    if json {
        return super::bench_memory_print::print_json(&r, out);
    }
    writeln!(
        out,
        "{} instances of a {}-node part{} beside a plain scene of as many nodes (B = bytes per node over the process before; held: after 3 s idle)",
        r.instances,
        r.part_nodes,
        if r.added {
            ", each with a node added inside a source node,"
        } else {
            ""
        }
    )?;
    for s in &r.scenes {
        writeln!(
            out,
            "{:<10} {} nodes, file {:.1} MB: load {:.0} ms (peak {:.0} B, held {:.0} B); window: open {:.0} ms, peak {:.0} B, held {:.0} B",
            s.scene,
            s.nodes,
            s.file_bytes as f64 / 1e6,
            s.load_ms,
            s.check_peak_b_per_node,
            s.check_held_b_per_node,
            s.open_ms,
            s.window_peak_b_per_node,
            s.window_held_b_per_node
        )?;
        print_follows(s, out)?;
        let parts: Vec<String> = (s.parts_b_per_node.iter())
            .map(|(k, b)| format!("{k} {b:.1}"))
            .collect();
        writeln!(out, "{:<10} the scene's parts, B: {}", "", parts.join(", "))?;
    }
    let (held, open, load) = r.ratios;
    writeln!(
        out,
        "instanced / plain: held {held:.2}×, open {open:.2}×, load {load:.2}×"
    )?;
    Ok(())
}

/// The level's follow and play lines.
fn print_follows(s: &SceneFigures, out: &mut dyn Write) -> Result<(), Failure> {
    if let (Some(f), Some(w)) = (s.follow_ms, s.follow_world_ms) {
        writeln!(
            out,
            "{:<10} follow the rewritten part {f:.1} ms + world update {w:.1} ms",
            ""
        )?;
    }
    for (change, f, w) in &s.structural {
        writeln!(
            out,
            "{:<10} follow a node {change} in the part {f:.1} ms + world update {w:.1} ms",
            ""
        )?;
    }
    if let Some((pose, world, grown)) = s.play {
        writeln!(
            out,
            "{:<10} play the part animated: pose {pose:.1} ms + world update {world:.1} ms; resident +{grown:.1} B per node after 31 frames",
            ""
        )?;
    }
    Ok(())
}

/// `graft bench instances-stage`: run one stage and print its figures as one JSON line.
pub fn run_stage_command(stage: &str, file: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    let run = run_stage(stage, file)?;
    let text = serde_json::to_string(&run).map_err(|e| Failure(e.to_string()))?;
    writeln!(out, "{text}")?;
    Ok(())
}
