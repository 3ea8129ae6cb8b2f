//! `graft bench memory`'s report: the stages' peak and held memory per node, each stage's
//! checkpoints, and the per-node layout, as text or JSON.

use super::bench_memory::{Layout, PURGE_AT_ONCE, StageReport, StageRun, mb, memory};
use crate::tools::failure::Failure;
use std::io::Write;

/// A figure with its unit and one decimal, or `unavailable`.
fn figure(v: Option<f64>, unit: &str) -> String {
    v.map_or("unavailable".into(), |v| format!("{v:.1}{unit}"))
}

/// A bench report as one line of JSON.
pub fn print_json(report: &impl serde::Serialize, out: &mut dyn Write) -> Result<(), Failure> {
    let text = serde_json::to_string(report).map_err(|e| Failure(e.to_string()))?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// `graft bench memory`: the report as text or one JSON object.
pub fn run(nodes: usize, json: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let r = memory(nodes)?;
    if json {
        return print_json(&r, out);
    }
    writeln!(
        out,
        "{} nodes (random scene), .ron file {:.1} MB ({:.1} B/node); MB = 10^6 bytes, per-node figures minus the baseline process",
        r.nodes,
        r.file_bytes as f64 / 1e6,
        r.file_bytes as f64 / r.nodes as f64
    )?;
    for s in &r.stages {
        write_stage(s, r.nodes, out)?;
    }
    if let Some(l) = &r.layout {
        write_layout(l, out)?;
    }
    writeln!(
        out,
        "purge_delay=0: the stage run again with {}={} (mimalloc returns freed memory at once instead of after 1 s, so \"held\" is close to what is live)",
        PURGE_AT_ONCE.0, PURGE_AT_ONCE.1
    )?;
    if !r.rss_available {
        writeln!(
            out,
            "resident memory is unavailable here (no /proc/self/status)"
        )?;
    }
    Ok(())
}

/// One stage of the text report: its summary line, then its checkpoints, mesh and notes.
fn write_stage(s: &StageReport, nodes: usize, out: &mut dyn Write) -> Result<(), Failure> {
    let stage = match s.allocator.as_str() {
        "default" => s.stage.clone(),
        other => format!("{} ({other})", s.stage),
    };
    write!(
        out,
        "{:<24} peak {:>11}  held {:>11}",
        stage,
        figure(s.peak_rss_mb, " MB"),
        figure(s.rss_mb, " MB")
    )?;
    if s.stage != "baseline" {
        write!(
            out,
            "  peak {:>10}  held {:>10}",
            figure(s.peak_bytes_per_node, " B/node"),
            figure(s.rss_bytes_per_node, " B/node")
        )?;
    }
    if let Some(v) = s.peak_minus_file_bytes_per_node {
        write!(out, "  (peak − file) {v:.1} B/node")?;
    }
    if let Some((peak, held)) = s.over_empty_window {
        write!(
            out,
            "  over the empty window: peak {}, held {}",
            figure(peak, " B/node"),
            figure(held, " B/node")
        )?;
    }
    writeln!(out)?;
    write_stage_details(&s.run, nodes, out)
}

/// A stage run's indented lines: every checkpoint, the last frame's meshes, the notes.
fn write_stage_details(run: &StageRun, nodes: usize, out: &mut dyn Write) -> Result<(), Failure> {
    for c in &run.checkpoints {
        writeln!(
            out,
            "    {:<48} resident {:>11}, peak so far {:>11}",
            c.label,
            figure(mb(c.rss_bytes), " MB"),
            figure(mb(c.peak_rss_bytes), " MB")
        )?;
    }
    if let Some((v, i)) = run.mesh {
        writeln!(
            out,
            "    last frame: {v} vertices, {i} indices ({:.1} MB of CPU meshes, {:.1} B/node)",
            (v * 20 + i * 4) as f64 / 1e6,
            (v * 20 + i * 4) as f64 / nodes as f64
        )?;
    }
    for note in &run.notes {
        writeln!(out, "    note: {note}")?;
    }
    Ok(())
}

/// The layout lines of the text report: `size_of` figures and the scene's bytes per node.
fn write_layout(l: &Layout, out: &mut dyn Write) -> Result<(), Failure> {
    let sizes: Vec<String> = (l.sizes.iter())
        .map(|s| format!("{} {}", s.name.trim(), s.bytes))
        .collect();
    writeln!(out, "size_of (bytes): {}", sizes.join(", "))?;
    let arrays: Vec<String> = (l.arrays_per_node.iter())
        .map(|(name, b)| format!("{name} {b:.1}"))
        .collect();
    let (names, shapes, probes, tracks) = l.heap_per_node;
    writeln!(
        out,
        "the loaded scene, B/node: arrays {} + heap (names {names:.1} for {:.1} chars, shapes {shapes:.1}, probes {probes:.1}, tracks {tracks:.1}) = {:.1}",
        arrays.join(" + "),
        l.name_len_per_node,
        l.scene_per_node
    )?;
    Ok(())
}
