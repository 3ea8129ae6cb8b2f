//! `graft bench`: its subcommands (propagation, playback, file I/O, memory, the journal) and
//! how each prints its figures.

use super::failure::Failure;
use crate::model::file;
use crate::model::generate::GenShape;
use crate::tools::bench;
use clap::Subcommand;
use std::io::Write;
use std::path::PathBuf;

/// `graft bench` subcommands.
#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// World-matrix propagation: graft against a flat loop and a naive pointer tree.
    #[command(
        after_help = "Examples:\n  graft bench propagate --nodes 1000000 --shape wide --json\n  graft bench propagate --nodes 1000000 --shape chain --threads 2"
    )]
    Propagate {
        /// How many nodes.
        #[arg(long, default_value_t = 1_000_000)]
        nodes: usize,
        /// wide or chain.
        #[arg(long, default_value = "wide")]
        shape: GenShape,
        /// How many interleaved rounds (the median is reported).
        #[arg(long, default_value_t = 15)]
        rounds: usize,
        /// Threads for graft's full update (0: as many as the machine has; 1: one).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// One playback frame: sampling, posing and propagating a random scene with some nodes
    /// animated.
    #[command(after_help = "Examples:\n  graft bench animate --nodes 100000 --animated 10000")]
    Animate {
        /// Nodes in the scene.
        #[arg(long, default_value_t = 100_000)]
        nodes: usize,
        /// Nodes with a rotation track.
        #[arg(long, default_value_t = 10_000)]
        animated: usize,
        /// Frames measured (the median is reported).
        #[arg(long, default_value_t = 120)]
        frames: usize,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// What the crash journal costs a drag: frame time with it off and on, bytes written.
    #[command(
        after_help = "Examples:\n  graft bench journal --nodes 100000\n  graft bench journal --nodes 1000000 --dragged 1 --json"
    )]
    Journal {
        /// Nodes in the (wide) scene.
        #[arg(long, default_value_t = 100_000)]
        nodes: usize,
        /// Nodes dragged: 1 drags the root (the whole scene); more drag the root's children.
        #[arg(long, default_value_t = 1)]
        dragged: usize,
        /// Drag frames measured (half with the journal, interleaved).
        #[arg(long, default_value_t = 300)]
        frames: usize,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load and save times of a generated random scene, as .ron and as an exported .tscn.
    #[command(after_help = "Examples:\n  graft bench io --nodes 100000 --json")]
    Io {
        /// How many nodes.
        #[arg(long, default_value_t = 100_000)]
        nodes: usize,
        /// How many interleaved rounds (the median is reported).
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Peak and held resident memory of `graft check` and of the editor opening a generated
    /// random scene, each stage in its own process, with the per-node arithmetic.
    #[command(after_help = "Examples:\n  graft bench memory --nodes 1000000 --json")]
    Memory {
        /// How many nodes.
        #[arg(long, default_value_t = 100_000)]
        nodes: usize,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Many instances of one part beside a plain scene of as many nodes, in one run: memory
    /// per node, open time in the (headless) window, following a rewritten part.
    #[command(
        after_help = "Examples:\n  graft bench instances --instances 10000 --part 100\n  graft bench instances --instances 10000 --part 100 --added"
    )]
    Instances {
        /// Instances in the level.
        #[arg(long, default_value_t = 10_000)]
        instances: usize,
        /// Nodes in the part.
        #[arg(long, default_value_t = 100)]
        part: usize,
        /// Give every instance one node added inside a source node (`index: 0`): the follow
        /// stages then carry added nodes along.
        #[arg(long)]
        added: bool,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// One stage of `graft bench instances`, run in a child process.
    #[command(hide = true)]
    InstancesStage {
        /// baseline, check, window or follow.
        stage: String,
        /// The scene file.
        file: PathBuf,
    },
    /// One stage of `graft bench memory`, run in a child process.
    #[command(hide = true)]
    MemoryStage {
        /// baseline, check or editor.
        stage: String,
        /// The scene file.
        file: Option<PathBuf>,
    },
}

/// Run a `graft bench` subcommand: one short arm per bench.
pub fn run_bench(command: BenchCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match command {
        BenchCommand::Propagate {
            nodes,
            shape,
            rounds,
            threads,
            json,
        } => bench_propagate(shape, nodes, (rounds, threads), json, out),
        BenchCommand::Animate {
            nodes,
            animated,
            frames,
            json,
        } => bench_animate(nodes, animated, frames, json, out),
        BenchCommand::Io {
            nodes,
            rounds,
            json,
        } => bench_io(nodes, rounds, json, out),
        BenchCommand::Journal {
            nodes,
            dragged,
            frames,
            json,
        } => bench_journal(nodes, dragged, frames, json, out),
        BenchCommand::Memory { nodes, json } => super::bench_memory_print::run(nodes, json, out),
        BenchCommand::Instances {
            instances,
            part,
            added,
            json,
        } => super::bench_instances::print((instances, part, added), json, out),
        BenchCommand::InstancesStage { stage, file } => {
            super::bench_instances::run_stage_command(&stage, &file, out)
        }
        BenchCommand::MemoryStage { stage, file } => {
            super::bench_memory::run_stage_command(&stage, file.as_deref(), out)
        }
    }
}

/// `graft bench propagate`: graft's update against a flat loop and a naive tree (wide or chain).
fn bench_propagate(
    shape: GenShape,
    nodes: usize,
    (rounds, threads): (usize, usize),
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if shape == GenShape::Random {
        return Err(Failure(
            "bench propagate takes --shape wide or chain".into(),
        ));
    }
    let r = bench::propagate(shape, nodes, rounds, threads);
    report(out, json, &r, |r| {
        format!(
            "{} nodes, {}, {} thread(s): full {:.2} ns/node, flat {:.2} ns/node ({:.2}×); in cache: full {:.2}, flat {:.2} ({:.2}×); naive {:.2} ns/node ({:.2}× slower than full), leaf edit + update {:.0} ns, clean update {:.0} ns; this machine's {}-thread ratio on the flat loop in cache: {:.2}×",
            r.nodes,
            r.shape,
            r.threads,
            r.full_ns_per_node,
            r.flat_ns_per_node,
            r.full_ns_per_node / r.flat_ns_per_node,
            r.full_warm_ns_per_node,
            r.flat_warm_ns_per_node,
            r.full_warm_ns_per_node / r.flat_warm_ns_per_node,
            r.naive_ns_per_node,
            r.naive_ns_per_node / r.full_ns_per_node,
            r.leaf_edit_ns,
            r.clean_update_ns,
            r.threads,
            r.machine_ratio
        )
    })
}

/// `graft bench animate`: one playback frame's pose and propagate times.
fn bench_animate(
    nodes: usize,
    animated: usize,
    frames: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let r = super::bench_anim::animate(nodes.min(file::MAX_NODES), animated, frames);
    report(out, json, &r, |r| {
        format!(
            "{} nodes, {} animated: pose {:.0} µs + propagate {:.0} µs per frame ({} world matrices recomputed)",
            r.nodes, r.animated, r.pose_us, r.propagate_us, r.recomputed
        )
    })
}

fn bench_io(nodes: usize, rounds: usize, json: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let r = super::bench_io::io(nodes, rounds)?;
    report(out, json, &r, |r| {
        format!(
            "{} nodes: .ron {} bytes, load {:.1} ms (read {:.1} + parse {:.1} + build {:.1}; ron floor {:.1} ms, {:.3}x it), save {:.1} ms; .tscn {} bytes, export {:.1} ms, import {:.1} ms ({:.2}x the .ron load)",
            r.nodes,
            r.ron_bytes,
            r.ron_load_ms,
            r.ron_read_ms,
            r.ron_parse_ms,
            r.ron_build_ms,
            r.ron_floor_ms,
            r.load_vs_floor,
            r.ron_save_ms,
            r.tscn_bytes,
            r.tscn_export_ms,
            r.tscn_import_ms,
            r.tscn_vs_ron
        )
    })
}

/// A bench's figures: one JSON object, or one line of text.
fn report<T: serde::Serialize>(
    out: &mut dyn Write,
    json: bool,
    r: &T,
    line: impl FnOnce(&T) -> String,
) -> Result<(), Failure> {
    let text = if json {
        serde_json::to_string(r).map_err(|e| Failure(e.to_string()))?
    } else {
        line(r)
    };
    writeln!(out, "{text}")?;
    Ok(())
}

/// `graft bench journal`: the drag with the journal off and on.
fn bench_journal(
    nodes: usize,
    dragged: usize,
    frames: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let r = super::bench_journal::run(nodes, dragged, frames);
    if json {
        writeln!(out, "{}", serde_json::to_string(&r).unwrap_or_default())?;
        return Ok(());
    }
    writeln!(
        out,
        "journal bench: {} nodes, {} dragged, {} frames",
        r.nodes, r.dragged, r.frames
    )?;
    writeln!(
        out,
        "  drag frame, journal off   {:>10.1} µs (median)",
        r.frame_off_us
    )?;
    writeln!(
        out,
        "  drag frame, journal on    {:>10.1} µs (median, ratio {:.3})",
        r.frame_on_us,
        r.frame_on_us / r.frame_off_us.max(1e-9)
    )?;
    writeln!(
        out,
        "  journal bytes per frame   {:>10.0} ({:.0} B/s at 60 fps)",
        r.bytes_per_frame, r.bytes_per_second_at_60fps
    )?;
    writeln!(out, "  journal start (UI waits)  {:>10.1} ms", r.start_ms)?;
    writeln!(
        out,
        "  one append + fdatasync    {:>10.1} µs (median of 50)",
        r.fdatasync_us
    )?;
    Ok(())
}
