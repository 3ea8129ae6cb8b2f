//! The headless command line: print, point, check, fmt, reparent, import, export, generate,
//! bench, and for the desktop: thumbnail, completions and man.

use super::cli_args::{FigureArgs, finite_seconds, pixels_per_unit};
pub use super::cli_bench::BenchCommand;
use super::cli_bench::run_bench;
use super::cli_print::{point, print_file, short};
pub use super::failure::Failure;
use crate::error::Result;
use crate::model::atomic_write::Backup;
use crate::model::file;
use crate::model::generate::GenShape;
use crate::model::read_limit;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::{Keep, NodeId};
use clap::{Args, CommandFactory, Parser, Subcommand};
use glam::DVec2;
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
    #[command(
        after_help = "A sprite whose image is missing or cannot be read is a warning on stderr\n(path:line:col: warning: node …): warnings do not change the exit code.\n\nExamples:\n  graft check scenes/*.ron"
    )]
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
    /// Add an instance of another scene file (.ron, or .tscn read through the importer)
    /// under a node; its nodes are read from that file whenever the scene loads.
    #[command(
        after_help = "Examples:\n  graft instance car.ron --source parts/wheel.ron --parent 1\n  graft instance level.ron --source car.ron --parent root -o level2.ron"
    )]
    Instance {
        /// The scene file.
        file: PathBuf,
        /// The scene file to instance (a path from here; written relative to FILE's folder).
        #[arg(long)]
        source: PathBuf,
        /// The node to put it under: an id, or `root`.
        #[arg(long)]
        parent: String,
        /// Write the result here instead of in place.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Make an instance local: its nodes become the scene's own, overrides applied.
    #[command(after_help = "Examples:\n  graft make-local car.ron --node 5 -o car-flat.ron")]
    MakeLocal {
        /// The scene file.
        file: PathBuf,
        /// The instance's root node id.
        #[arg(long)]
        node: u32,
        /// Write the result here instead of in place.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Move a node under another parent, keeping its world transform or its local numbers.
    #[command(
        after_help = "Examples:\n  graft reparent scenes/sword.ron --node 4 --parent 1 --keep-world -o sheathed.ron\n  graft reparent scene.ron --node 7 --parent root --index 0 --keep-local"
    )]
    Reparent(ReparentArgs),
    /// Mirror nodes about their own origins (x or y scale negated; their subtrees flip with them).
    #[command(
        after_help = "Examples:\n  graft mirror scenes/sword.ron --node 4 --axis x\n  graft mirror scene.ron --node 2,3 --axis y -o flipped.ron"
    )]
    Mirror {
        /// Which of the node's own axes to flip: x (left and right) or y (up and down).
        #[arg(long, value_enum)]
        axis: super::cli_edit::AxisArg,
        #[command(flatten)]
        nodes: super::cli_edit::NodeEditArgs,
    },
    /// Set nodes' local transforms back to the identity (position 0, rotation 0, scale 1, skew 0).
    #[command(after_help = "Examples:\n  graft reset-local scenes/sword.ron --node 4 -o reset.ron")]
    ResetLocal(super::cli_edit::NodeEditArgs),
    /// Import a Godot text scene (.tscn, Godot 3 or 4) or an SVG drawing (.svg: every group a
    /// node) as a graft scene; the report (what was approximated, re-rooted, skipped or
    /// missing) goes to stderr.
    #[command(
        after_help = "Examples:\n  graft import level.tscn -o level.ron\n  graft import level.tscn -o level.ron --sources parts\n  graft import ~/game/player/player.tscn -o player.ron\n  graft import drawing.svg -o drawing.ron"
    )]
    Import {
        /// The .tscn file (instanced scenes and textures are found from the folder holding
        /// project.godot).
        file: PathBuf,
        /// The .ron file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// .tscn: Godot pixels per graft unit (positions and sizes divided by it; the value the
        /// scene was exported with).
        #[arg(long, value_name = "N", value_parser = pixels_per_unit)]
        pixels_per_unit: Option<f32>,
        /// .tscn: write each instanced scene as a .ron in DIR and make the instances name
        /// those (default: the instances name the .tscn files, read through the importer).
        #[arg(long, value_name = "DIR")]
        sources: Option<PathBuf>,
    },
    /// Export a graft scene as a Godot 4 text scene (.tscn, under one root Node2D) or as SVG
    /// that keeps the hierarchy (.svg: one group per node with its local matrix), animated
    /// with --animate (SMIL: plays in any browser), or as an HTML page that plays it (.html).
    #[command(
        after_help = "Examples:\n  graft export scenes/sword.ron -o ~/game/sword.tscn\n  graft export scene.ron -o out.tscn --project ~/game\n  graft export scenes/sword.ron -o sword.svg [--link-images]\n  graft export scenes/solar.ron -o solar.svg --animate\n  graft export scenes/solar.ron -o solar.html --animate   (a page with play, pause and a scrubber)"
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
        /// .tscn: the Godot version to write for: 4 (format=3) or 3 (format=2; skewed nodes
        /// go out as a transform line).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
        godot: u8,
        /// SVG: play the clip (each animated node's tracks as SMIL animateTransform).
        #[arg(long)]
        animate: bool,
        /// Write the animated SVG inside a self-contained HTML page with play, pause and a time
        /// scrubber (implied by an .html output).
        #[arg(long)]
        html: bool,
        /// .tscn: Godot pixels per graft unit (positions and sizes multiplied by it; sprites
        /// scaled so Godot draws them at their graft size).
        #[arg(long, value_name = "N", value_parser = pixels_per_unit)]
        pixels_per_unit: Option<f32>,
        /// .tscn: write instances as plain nodes (default: `instance=` of their sources, a
        /// .ron source written once as its own .tscn beside the output).
        #[arg(long)]
        flatten: bool,
    },
    /// Draw a figure of a scene (what the viewport shows) as SVG or PNG, without a window.
    #[command(
        after_help = "Examples:\n  graft figure scenes/shear.ron -o shear.svg\n  graft figure scenes/sword.ron -o sword.png --size 1200x800 --scale 2 --select hand --layers grid,axes,names\n  graft figure scenes/solar.ron -o solar.gif --animate --fps 30 --size 800x500\n  graft figure scenes/sword.ron -o sword.png --animate   (an animated PNG)\n  graft figure scenes/solar.ron -o solar-3s.png --time 3"
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
    /// Check lesson files (their solutions played headless) or list the built-in course.
    #[command(subcommand)]
    Lesson(super::lesson::LessonCommand),
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
        after_help = "Examples:\n  graft recover --list\n  graft recover --list --all\n  graft recover 18c2f0a1b2c3d4e5-4242-0a1b2c3d -o rescued.ron"
    )]
    Recover {
        /// List the journals with unsaved changes: id, file, edits, last write.
        #[arg(long, conflicts_with_all = ["id", "output"])]
        list: bool,
        /// With --list: also the journals set aside (discarded, or whose recovery stopped
        /// graft), kept a week.
        #[arg(long, requires = "list")]
        all: bool,
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
        /// Edit this scene file instead of the sample (its journal ends as at a SIGTERM).
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Write the man pages (graft.1 and one per subcommand) into a folder (packaging uses it).
    #[command(hide = true)]
    Man {
        /// The folder to write them into (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
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

/// Run a headless command, writing results to `out`: one short arm per subcommand, each only
/// unpacking its arguments into the function that does the work (a table, kept one arm a line).
#[rustfmt::skip]
pub fn run(command: Command, out: &mut dyn Write) -> Result<(), Failure> {
    use super::{cli_edit, cli_instance, interchange, recover};
    let err = &mut io::stderr();
    match command {
        Command::Print { file, json, space, time } => print_file(&file, json, space, time, out),
        Command::Point { file, from, to, x, y, json } => {
            point(&file, (&from, &to), DVec2::new(x, y), json, out)
        }
        Command::Check { files } => check(&files, out, err),
        Command::Fmt { files, check, output } => fmt(&files, check, output.as_deref(), out),
        Command::Reparent(args) => reparent(&args, out),
        Command::Mirror { axis, nodes } => cli_edit::edit_nodes(&nodes, Some(axis), out),
        Command::ResetLocal(args) => cli_edit::edit_nodes(&args, None, out),
        Command::Instance { file, source, parent, output } => {
            let parent = cli_instance::parent_arg(&parent)?;
            cli_instance::instance(&file, &source, parent, output.as_deref(), out)
        }
        Command::MakeLocal { file, node, output } => {
            cli_instance::make_local(&file, NodeId(node), output.as_deref(), out, err)
        }
        Command::Import { file, output, pixels_per_unit, sources } => {
            let flags = interchange::ImportFlags { pixels_per_unit, sources: sources.as_deref() };
            interchange::import(&file, &output, &flags, out, err)
        }
        Command::Export { file, output, project, link_images, godot, animate, html, pixels_per_unit, flatten } => {
            let flags = interchange::ExportFlags {
                project: project.as_deref(), link_images, godot3: godot == 3, animate, html,
                pixels_per_unit, flatten,
            };
            interchange::export(&file, &output, &flags, out, err)
        }
        Command::Figure(args) => interchange::figure(&args, out),
        Command::Generate { shape, nodes, seed, output } => generate(shape, nodes, seed, &output, out),
        Command::Bench(command) => run_bench(command, out),
        Command::Lesson(command) => super::lesson::run(command, out),
        Command::Thumbnail(args) => super::thumbnail::thumbnail(&args),
        Command::Completions { shell } => super::desktop::completions(shell, Cli::command(), out),
        Command::Man { out: dir } => super::desktop::man(Cli::command(), &dir, out),
        Command::Recover { list, all, id, output, dir } => match (list, id, output) {
            (false, Some(id), Some(output)) => recover::recover_to(dir, &id, &output, out),
            _ => recover::list(dir, all, out),
        },
        Command::JournalDrill { dir, seed, steps, file } => {
            recover::journal_drill(dir, seed, steps, file.as_deref())
        }
    }
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

fn check(files: &[PathBuf], out: &mut dyn Write, report: &mut dyn Write) -> Result<(), Failure> {
    use crate::editor::session::sprites::{missing_images, place_missing};
    let mut problems = Vec::new();
    for path in files {
        match super::progress::load(path) {
            Ok(scene) => {
                writeln!(out, "{}: ok ({} nodes)", path.display(), scene.len())?;
                let mut missing = missing_images(&scene, &folder_of(path));
                if let Some(text) = (!missing.is_empty())
                    .then(|| read_limit::read_text_bounded(path, read_limit::SCENE).ok())
                    .flatten()
                {
                    place_missing(&mut missing, &text);
                }
                for m in &missing {
                    writeln!(report, "{}", m.message(path))?;
                }
                if scene.instances().is_some() {
                    let text = read_limit::read_text_bounded(path, read_limit::SCENE)?;
                    let found = crate::model::instance::check::report(&scene, &text, path);
                    problems.extend(found);
                }
            }
            Err(e) => problems.push(super::cli_instance::placed_cycle(path, e.to_string())),
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
        if let Some(target) = output.filter(|o| !check && folder_of(o) != folder_of(path)) {
            // Into another folder: relative sprite paths rebased to name the same images.
            let mut scene = super::progress::load(path)?;
            scene.rebase_sprites(&folder_of(path), &folder_of(target));
            super::progress::save(&scene, target)?;
            writeln!(out, "formatted {}", written(target))?;
            continue;
        }
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
            super::progress::write(target, canonical.as_bytes(), Backup::Keep)?;
            writeln!(out, "formatted {}", written(target))?;
        }
    }
    if not_canonical.is_empty() {
        Ok(())
    } else {
        Err(Failure(not_canonical.join("\n")))
    }
}

/// A written file as the command line names it: as given, and where it really is when links
/// or a `..` after a link lead elsewhere than the text says.
fn written(target: &Path) -> String {
    let real = crate::model::file_stamp::canonical(target);
    let said = crate::model::scene::sprites::folder_of(Path::new("x"))
        .join(crate::model::scene::sprites::normalize(target));
    if real == said || real == crate::model::scene::sprites::normalize(target) {
        return target.display().to_string();
    }
    format!("{} (written to {})", target.display(), real.display())
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
    let undo = scene.reparent(node, parent, args.index, Keep::world_if(args.keep_world))?;
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
