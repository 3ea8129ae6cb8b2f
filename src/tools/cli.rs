//! The headless command line: print, point, check, fmt, reparent, import, export, generate,
//! bench, and for the desktop: thumbnail, completions and man.

use crate::editor::view::spaces::{carry_point, from_world, resolve_space};
use crate::error::{Error, Result};
use crate::model::file;
use crate::model::math::{ShearMetrics, Trs, decompose_like, rows, shear_metrics};
use crate::model::scene::{NodeId, Scene};
use crate::tools::bench;
use crate::tools::generate::GenShape;
use clap::{Args, Parser, Subcommand};
use glam::DVec2;
use serde_json::json;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// graft: build 2D transform hierarchies and see local versus world space.
#[derive(Parser, Debug)]
#[command(name = "graft", version, about, long_about = None, after_help = "\
Examples:
  graft                         open the editor on the built-in sword scene
  graft scenes/shear.ron        open a scene in the editor
  graft print scenes/sword.ron  list every node's local and world transform
  graft check scenes/*.ron      validate scene files")]
pub struct Cli {
    /// A scene file to open in the editor.
    pub file: Option<PathBuf>,
    /// Do not keep the crash journal of unsaved changes (see README: "Never lose work").
    #[arg(long)]
    pub no_journal: bool,
    /// A headless command instead of the editor.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The headless subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print every node in pre-order: local TRS+skew, world TRS+skew, shear and determinant.
    #[command(
        after_help = "Examples:\n  graft print scenes/sword.ron\n  graft print scenes/shear.ron --json > shear.json\n  graft print scenes/solar.ron --time 1.5"
    )]
    Print {
        /// The scene file.
        file: PathBuf,
        /// One JSON array of objects instead of a table.
        #[arg(long)]
        json: bool,
        /// Show each node's transform relative to this node's space (a name, an id, or world)
        /// instead of the world.
        #[arg(long, value_name = "NAME|ID")]
        space: Option<String>,
        /// Pose the animation at this playback time (seconds, mapped onto the clip by its loop
        /// mode) before printing.
        #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = finite_seconds)]
        time: Option<f32>,
    },
    /// Carry a point from one space to another (a node's local space, or world).
    #[command(
        after_help = "Examples:\n  graft point scenes/sword.ron --from sword --to world 0 0\n  graft point scenes/sword.ron --from world --to body 2 3 --json"
    )]
    Point {
        /// The scene file.
        file: PathBuf,
        /// The space the point is given in: a node's name, its id, or world.
        #[arg(long, value_name = "NAME|ID")]
        from: String,
        /// The space to express it in.
        #[arg(long, value_name = "NAME|ID")]
        to: String,
        /// The point's x.
        #[arg(allow_negative_numbers = true)]
        x: f64,
        /// The point's y.
        #[arg(allow_negative_numbers = true)]
        y: f64,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Validate scene files; each problem is printed as `path:line:col: message` on stderr.
    #[command(after_help = "Examples:\n  graft check scenes/*.ron")]
    Check {
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrite scene files in canonical form (atomically, keeping NAME.ron.bak).
    #[command(
        after_help = "Examples:\n  graft fmt scenes/*.ron\n  graft fmt --check scenes/*.ron\n  graft fmt messy.ron -o clean.ron"
    )]
    Fmt {
        /// The files to rewrite.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only report files that are not canonical (exit 1 if any).
        #[arg(long)]
        check: bool,
        /// Write the result here instead of in place (one input file only).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Move a node under another parent, keeping its world transform or its local numbers.
    #[command(
        after_help = "Examples:\n  graft reparent scenes/sword.ron --node 4 --parent 1 --keep-world -o sheathed.ron\n  graft reparent scene.ron --node 7 --parent root --index 0 --keep-local"
    )]
    Reparent(ReparentArgs),
    /// Import a Godot text scene (.tscn, Godot 3 or 4) or an SVG drawing (.svg: every group a
    /// node) as a graft scene; the report (what was approximated, re-rooted, skipped or
    /// missing) goes to stderr.
    #[command(
        after_help = "Examples:\n  graft import level.tscn -o level.ron\n  graft import ~/game/player/player.tscn -o player.ron\n  graft import drawing.svg -o drawing.ron"
    )]
    Import {
        /// The .tscn file (instanced scenes and textures are found from the folder holding
        /// project.godot).
        file: PathBuf,
        /// The .ron file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Export a graft scene as a Godot 4 text scene (.tscn, under one root Node2D) or as SVG
    /// that keeps the hierarchy (.svg: one group per node with its local matrix).
    #[command(
        after_help = "Examples:\n  graft export scenes/sword.ron -o ~/game/sword.tscn\n  graft export scene.ron -o out.tscn --project ~/game\n  graft export scenes/sword.ron -o sword.svg [--link-images]"
    )]
    Export {
        /// The .ron scene.
        file: PathBuf,
        /// The .tscn or .svg file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// The Godot project folder, for res:// image paths (default: the folder holding
        /// project.godot above the output).
        #[arg(long)]
        project: Option<PathBuf>,
        /// SVG: link sprite images by relative path instead of embedding them.
        #[arg(long)]
        link_images: bool,
    },
    /// Draw a figure of a scene (what the viewport shows) as SVG or PNG, without a window.
    #[command(
        after_help = "Examples:\n  graft figure scenes/shear.ron -o shear.svg\n  graft figure scenes/sword.ron -o sword.png --size 1200x800 --scale 2 --select hand --layers grid,axes,names"
    )]
    Figure(FigureArgs),
    /// Write a big generated scene (for benchmarks and demos).
    #[command(
        after_help = "Examples:\n  graft generate --shape random --nodes 100000 -o big.ron\n  graft generate --shape chain --nodes 1000 --seed 7 -o chain.ron"
    )]
    Generate {
        /// wide (one root, √N children, the rest below them), chain (N deep) or random.
        #[arg(long)]
        shape: GenShape,
        /// How many nodes.
        #[arg(long)]
        nodes: usize,
        /// Seed for the random shape.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Measure propagation or file I/O.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Write a square PNG preview of a scene (.ron or .tscn), as file managers ask for one;
    /// a broken, huge or slow scene writes nothing and exits with 1.
    #[command(
        after_help = "Examples:\n  graft thumbnail --size 256 scenes/sword.ron sword.png\n  graft thumbnail -s 128 level.tscn level.png --time-limit 2"
    )]
    Thumbnail(super::thumbnail::ThumbnailArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  graft completions bash > ~/.local/share/bash-completion/completions/graft\n  graft completions zsh > ~/.zfunc/_graft\n  graft completions fish > ~/.config/fish/completions/graft.fish"
    )]
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// List the crash journals with unsaved changes, or write one's recovered scene.
    #[command(
        after_help = "Examples:\n  graft recover --list\n  graft recover 18c2f0a1b2c3d4e5-4242-0a1b2c3d -o rescued.ron"
    )]
    Recover {
        /// List the journals with unsaved changes: id, file, edits, last write.
        #[arg(long, conflicts_with_all = ["id", "output"])]
        list: bool,
        /// The journal's id (as --list prints it) or its path.
        #[arg(required_unless_present = "list")]
        id: Option<String>,
        /// Where to write the recovered scene (.ron).
        #[arg(short, long, required_unless_present = "list")]
        output: Option<PathBuf>,
        /// The journal folder (default: GRAFT_JOURNAL_DIR, else the user's data folder).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// A scripted editing session with a journal, for the kill tests.
    #[command(hide = true)]
    JournalDrill {
        /// The journal folder.
        #[arg(long)]
        dir: PathBuf,
        /// The script's seed.
        #[arg(long)]
        seed: u64,
        /// How many commands.
        #[arg(long)]
        steps: usize,
    },
    /// Write the man pages (graft.1 and one per subcommand) into a folder (packaging uses it).
    #[command(hide = true)]
    Man {
        /// The folder to write them into (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Arguments of `graft figure`.
#[derive(Args, Debug)]
pub struct FigureArgs {
    /// The scene file (.ron or .tscn).
    pub file: PathBuf,
    /// The figure to write: .svg or .png.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Width x height in CSS pixels.
    #[arg(long, default_value = "1600x1000")]
    pub size: String,
    /// Device pixels per CSS pixel (PNG).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
    /// Highlight this node (a name or an id) and caption its matrix chain.
    #[arg(long, value_name = "NAME|ID")]
    pub select: Option<String>,
    /// Comma list of grid, axes, links, names, shear, selection (or all, none).
    #[arg(long, default_value = "all")]
    pub layers: String,
    /// Leave out the matrix-chain caption.
    #[arg(long)]
    pub no_caption: bool,
}

/// Arguments of `graft reparent`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["keep_world", "keep_local"])))]
pub struct ReparentArgs {
    /// The scene file.
    pub file: PathBuf,
    /// The id of the node to move.
    #[arg(long)]
    pub node: u32,
    /// The id of the new parent, or `root`.
    #[arg(long)]
    pub parent: String,
    /// Position among the new siblings (default: last).
    #[arg(long)]
    pub index: Option<usize>,
    /// Keep the world transform (Unity's worldPositionStays): nothing moves.
    #[arg(long)]
    pub keep_world: bool,
    /// Keep the local numbers: the node jumps.
    #[arg(long)]
    pub keep_local: bool,
    /// Write the result here instead of in place.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

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
    /// One stage of `graft bench memory`, run in a child process.
    #[command(hide = true)]
    MemoryStage {
        /// baseline, check or editor.
        stage: String,
        /// The scene file.
        file: Option<PathBuf>,
    },
}

/// What a failed command reports: 1 for bad input or a refused operation.
pub struct Failure(pub String);

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure(e.to_string())
    }
}

/// Run a headless command, writing results to `out`: one short arm per subcommand.
pub fn run(command: Command, out: &mut dyn Write) -> Result<(), Failure> {
    match command {
        Command::Print {
            file,
            json,
            space,
            time,
        } => print_file(&file, json, space, time, out),
        Command::Point {
            file,
            from,
            to,
            x,
            y,
            json,
        } => point(&file, (&from, &to), DVec2::new(x, y), json, out),
        Command::Check { files } => check(&files, out),
        Command::Fmt {
            files,
            check,
            output,
        } => fmt(&files, check, output.as_deref(), out),
        Command::Reparent(args) => reparent(&args, out),
        Command::Import { file, output } => {
            super::interchange::import(&file, &output, out, &mut io::stderr())
        }
        Command::Export {
            file,
            output,
            project,
            link_images,
        } => super::interchange::export(
            &file,
            &output,
            (project.as_deref(), link_images),
            out,
            &mut io::stderr(),
        ),
        Command::Figure(args) => super::interchange::figure(&args, out),
        Command::Generate {
            shape,
            nodes,
            seed,
            output,
        } => generate(shape, nodes, seed, &output, out),
        Command::Bench(command) => run_bench(command, out),
        Command::Thumbnail(args) => super::thumbnail::thumbnail(&args),
        Command::Completions { shell } => super::desktop::completions(shell, out),
        Command::Man { out: dir } => super::desktop::man(&dir, out),
        Command::Recover {
            list,
            id,
            output,
            dir,
        } => match (list, id, output) {
            (false, Some(id), Some(output)) => super::recover::recover_to(dir, &id, &output, out),
            _ => super::recover::list(dir, out),
        },
        Command::JournalDrill { dir, seed, steps } => {
            super::recover::journal_drill(dir, seed, steps)
        }
    }
}

/// Run a `graft bench` subcommand: one short arm per bench.
fn run_bench(command: BenchCommand, out: &mut dyn Write) -> Result<(), Failure> {
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
        BenchCommand::Memory { nodes, json } => super::bench_memory::run(nodes, json, out),
        BenchCommand::MemoryStage { stage, file } => {
            super::bench_memory::run_stage_command(&stage, file.as_deref(), out)
        }
    }
}

/// `graft print`: load the scene, pose it at `time`, and print it in world or in `space`.
fn print_file(
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

/// `graft generate`: write a generated scene of `nodes` nodes (at most [`file::MAX_NODES`]).
fn generate(
    shape: GenShape,
    nodes: usize,
    seed: u64,
    output: &Path,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if nodes > file::MAX_NODES {
        return Err(Failure(format!("at most {} nodes", file::MAX_NODES)));
    }
    let len = super::progress::generate_and_save(shape, nodes, seed, output)?;
    writeln!(out, "wrote {} ({len} nodes, {shape})", output.display())?;
    Ok(())
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
    for i in 0..scene.len() {
        depth[i] = scene.parent_index_at(i).map_or(0, |p| depth[p] + 1);
        let row = print_row(scene, i, into_space);
        if json {
            if i > 0 {
                out.write_all(b",")?;
            }
            print_json_row(&row, &column, out)?;
        } else {
            print_text_row(&row, depth[i], out)?;
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
fn print_json_row(row: &PrintRow, column: &str, out: &mut dyn Write) -> Result<(), Failure> {
    // f32 → the f64 with the same shortest decimal form (71.2367, not 71.23670959472656).
    let j = |v: f32| v.to_string().parse::<f64>().unwrap_or(v as f64);
    let (local, world) = (&row.local, &row.world);
    let m = rows(&row.world_m).map(|r| r.map(j));
    let value = json!({
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
    serde_json::to_writer(&mut *out, &value).map_err(|e| Failure(e.to_string()))?;
    Ok(())
}

/// One print row as a table line, its name indented by `depth` (at most 20 levels).
fn print_text_row(row: &PrintRow, depth: usize, out: &mut dyn Write) -> Result<(), Failure> {
    let name = format!("{}{}", "  ".repeat(depth.min(20)), row.name);
    let parent_text = row.parent.map_or("-".to_string(), |p| p.to_string());
    writeln!(
        out,
        "{:>6} {:<24} {:>6}  {:<44} {:<44} {:>9} {:>9}",
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

/// A `--time` value: a finite number of seconds.
fn finite_seconds(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(t) if t.is_finite() => Ok(t),
        _ => Err(format!("`{text}` is not a finite number of seconds")),
    }
}

/// `graft point`: a point carried from one space to another, with its world position.
fn point(
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
fn short(v: f32) -> String {
    let rounded = (v as f64 * 1e5).round() / 1e5;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    format!("{rounded}")
}

fn check(files: &[PathBuf], out: &mut dyn Write) -> Result<(), Failure> {
    let mut problems = Vec::new();
    for path in files {
        match super::progress::load(path) {
            Ok(scene) => writeln!(out, "{}: ok ({} nodes)", path.display(), scene.len())?,
            Err(e) => problems.push(e.to_string()),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Failure(problems.join("\n")))
    }
}

fn fmt(
    files: &[PathBuf],
    check: bool,
    output: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if output.is_some() && files.len() != 1 {
        return Err(Failure("-o/--output takes exactly one input file".into()));
    }
    let mut not_canonical = Vec::new();
    for path in files {
        let (text, canonical) = super::progress::read_and_format(path)?;
        if check {
            if text != canonical {
                not_canonical.push(format!(
                    "{}: not in canonical form (run `graft fmt`)",
                    path.display()
                ));
            }
            continue;
        }
        let target = output.unwrap_or(path);
        if output.is_some() || text != canonical {
            super::progress::write(target, canonical.as_bytes())?;
            writeln!(out, "formatted {}", target.display())?;
        }
    }
    if not_canonical.is_empty() {
        Ok(())
    } else {
        Err(Failure(not_canonical.join("\n")))
    }
}

fn reparent(args: &ReparentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut scene = super::progress::load(&args.file)?;
    let node = NodeId(args.node);
    let parent = match args.parent.as_str() {
        "root" => None,
        text => Some(NodeId(text.parse().map_err(|_| {
            Failure(format!("--parent {text:?}: expected a node id or `root`"))
        })?)),
    };
    let undo = scene.reparent(node, parent, args.index, args.keep_world)?;
    let local = scene.node(node)?.local;
    let target = args.output.as_deref().unwrap_or(&args.file);
    super::progress::save(&scene, target)?;
    let name = |p: Option<NodeId>| p.map_or("root".to_string(), |p| p.to_string());
    writeln!(
        out,
        "node {node}: parent {} → {}, local position ({}, {}) → ({}, {}), rotation {}° → {}°; wrote {}",
        name(undo.old_parent),
        name(parent),
        short(undo.old_local.position.x),
        short(undo.old_local.position.y),
        short(local.position.x),
        short(local.position.y),
        short(undo.old_local.rotation),
        short(local.rotation),
        target.display()
    )?;
    Ok(())
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
    writeln!(out, "  journal start (base scene){:>10.1} ms", r.start_ms)?;
    writeln!(
        out,
        "  one append + fdatasync    {:>10.1} µs (median of 50)",
        r.fdatasync_us
    )?;
    Ok(())
}
