//! `graft bench memory`: where a big scene's bytes go. The parent writes a generated random
//! scene to a temporary `.ron` and runs each stage in a fresh child process (this same
//! executable, `graft bench memory-stage STAGE FILE`), so every stage reports its own peak
//! resident memory (`VmHWM` in `/proc/self/status`) and what it still holds at the end
//! (`VmRSS`); elsewhere than Linux the figures are "unavailable".
//!
//! Stages: `baseline` (the process doing nothing), `check` (exactly what `graft check FILE`
//! does: `file::load`, holding the scene), `editor` (with the `editor` feature, through the
//! [`WindowStage`] the binary sets: the app opening the file as the window does — on the loading worker for files of 2 MB or more — then whole
//! frames run headless through an `egui::Context` and tessellated; nothing is uploaded to a
//! GPU; without the feature: the editor session opening it and computing world matrices).
//! The report adds the `size_of` of the per-node structures and the heap bytes the loaded
//! scene's nodes own, so the measured bytes per node can be laid next to the arithmetic.

use crate::editor::session::command::FileCommand;
use crate::model::anim::{Key, Track};
use crate::model::file;
use crate::model::generate::{GenShape, generate};
use crate::model::math::Trs;
use crate::model::scene::{Color, NodeData, NodeId, NodeSpec, Scene, Shape, Sprite};
use crate::tools::failure::Failure;
use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::mem::size_of;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thin_vec::ThinVec;

/// The stages, in the order they run.
pub const STAGES: [&str; 3] = ["baseline", "check", "editor"];

/// mimalloc keeps freed memory resident for `purge_delay` (1 s by default) before it returns
/// it to the OS, so a stage's resident memory right after loading still counts the parse's
/// garbage. `check` and `editor` run a second time with this setting, which returns freed
/// memory at once: their resident memory is then close to what is live.
pub const PURGE_AT_ONCE: (&str, &str) = ("MIMALLOC_PURGE_DELAY", "0");

/// Resident memory at one point of a stage.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// What had happened by then.
    pub label: String,
    /// Resident now (`VmRSS`), bytes.
    pub rss_bytes: Option<u64>,
    /// Resident at most so far (`VmHWM`), bytes.
    pub peak_rss_bytes: Option<u64>,
}

/// Heap bytes the nodes of a scene own (outside the scene's arrays), rounded up to mimalloc's
/// size classes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct NodeHeap {
    /// Name bytes (lengths).
    pub name_len: u64,
    /// Name allocations (capacities in size classes).
    pub names: u64,
    /// Sprite paths and polygon points.
    pub shapes: u64,
    /// Probe lists.
    pub probes: u64,
    /// Track lists and their keys.
    pub tracks: u64,
}

impl NodeHeap {
    fn total(&self) -> u64 {
        self.names + self.shapes + self.probes + self.tracks
    }
}

/// A scene's own arrays: allocated bytes of each per-node array (the id index included).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SceneArrays {
    /// (array, allocated bytes).
    pub arrays: Vec<(String, u64)>,
}

/// What one child process prints (one JSON line).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StageRun {
    /// The stage.
    pub stage: String,
    /// Nodes the stage held at the end.
    pub nodes: usize,
    /// Resident memory as the stage went on.
    pub checkpoints: Vec<Checkpoint>,
    /// The checkpoint at which the stage held everything it measures (the "held" figure);
    /// the peak is the last checkpoint's.
    pub held_at: usize,
    /// `check`: heap bytes owned by the loaded scene's nodes.
    pub heap: Option<NodeHeap>,
    /// `check`: the loaded scene's arrays.
    pub arrays: Option<SceneArrays>,
    /// `editor`: vertices and indices of the last frame's tessellated meshes.
    pub mesh: Option<(usize, usize)>,
    /// `editor`: frames run.
    pub frames: usize,
    /// What this stage did and did not measure.
    pub notes: Vec<String>,
}

/// One stage in the report.
#[derive(Clone, Debug, Serialize)]
pub struct StageReport {
    /// The stage.
    pub stage: String,
    /// `default`, or `purge_delay=0` (mimalloc returning freed memory at once).
    pub allocator: String,
    /// Peak resident memory, MB (10^6 bytes).
    pub peak_rss_mb: Option<f64>,
    /// Resident at the end, still holding everything, MB.
    pub rss_mb: Option<f64>,
    /// (peak − baseline peak) / nodes.
    pub peak_bytes_per_node: Option<f64>,
    /// (resident at the end − baseline resident) / nodes.
    pub rss_bytes_per_node: Option<f64>,
    /// `check`: (peak − baseline peak − file size) / nodes.
    pub peak_minus_file_bytes_per_node: Option<f64>,
    /// `editor`: the same two per-node figures measured from the window already running on an
    /// empty scene (egui, fonts and panels subtracted).
    pub over_empty_window: Option<(Option<f64>, Option<f64>)>,
    /// The child's checkpoints, raw.
    pub run: StageRun,
}

/// `size_of` of one structure, and how many a node has.
#[derive(Clone, Debug, Serialize)]
pub struct SizeOf {
    /// The type.
    pub name: String,
    /// `size_of`, bytes.
    pub bytes: usize,
}

/// The arithmetic: per-node structures and what the loaded scene allocates.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    /// `size_of` of the structures a node is made of.
    pub sizes: Vec<SizeOf>,
    /// The scene's per-node arrays, allocated bytes per node, by array.
    pub arrays_per_node: Vec<(String, f64)>,
    /// Heap owned by the nodes, bytes per node: names, shapes, probes, tracks.
    pub heap_per_node: (f64, f64, f64, f64),
    /// Average name length.
    pub name_len_per_node: f64,
    /// Everything above, bytes per node: what the scene should hold.
    pub scene_per_node: f64,
}

/// Figures of one `graft bench memory` run.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryReport {
    /// Nodes in the scene.
    pub nodes: usize,
    /// Size of its `.ron` file, bytes.
    pub file_bytes: u64,
    /// False when resident memory cannot be read here (not Linux).
    pub rss_available: bool,
    /// The stages, in order.
    pub stages: Vec<StageReport>,
    /// The per-node arithmetic.
    pub layout: Option<Layout>,
}

/// Resident memory now and at its peak (`VmRSS`, `VmHWM`), bytes; None where
/// `/proc/self/status` does not exist.
pub fn resident() -> (Option<u64>, Option<u64>) {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return (None, None);
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .and_then(|kb| kb.trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn checkpoint(label: &str) -> Checkpoint {
    let (rss_bytes, peak_rss_bytes) = resident();
    Checkpoint {
        label: label.into(),
        rss_bytes,
        peak_rss_bytes,
    }
}

/// An allocation of `n` bytes as mimalloc serves it: 8-byte steps up to 64, then four size
/// classes per power of two.
fn size_class(n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    if n <= 64 {
        return n.div_ceil(8) as u64 * 8;
    }
    let step = 1usize << ((usize::BITS - 1 - (n - 1).leading_zeros()) - 2);
    (n.div_ceil(step) * step) as u64
}

/// A `ThinVec`'s allocation: a 16-byte header (length, capacity), then the elements; none
/// while it has never held anything.
fn thin_vec_bytes(capacity: usize, each: usize) -> u64 {
    match capacity {
        0 => 0,
        n => size_class(16 + n * each),
    }
}

/// Heap bytes the nodes own.
fn node_heap(scene: &Scene) -> NodeHeap {
    let mut heap = NodeHeap::default();
    for i in 0..scene.len() {
        let d = scene.data_at(i);
        heap.name_len += d.name.len() as u64;
        if d.name.is_heap_allocated() {
            heap.names += size_class(d.name.capacity());
        }
        heap.shapes += match &d.shape {
            Shape::Sprite(s) => size_class(size_of::<Sprite>()) + size_class(s.path.capacity()),
            Shape::Polygon { points } => thin_vec_bytes(points.capacity(), 8),
            _ => 0,
        };
        heap.probes += thin_vec_bytes(d.probes.capacity(), 8);
        heap.tracks += thin_vec_bytes(d.tracks.capacity(), size_of::<Track>())
            + (d.tracks.iter())
                .map(|t| size_class(t.keys.capacity() * size_of::<Key>()))
                .sum::<u64>();
    }
    heap
}

/// Allocated bytes of the scene's arrays and its id map (hashbrown: a power-of-two number of
/// buckets, 7/8 usable, one control byte each plus one group).
fn scene_arrays(scene: &Scene) -> SceneArrays {
    // The id index is one of the arrays (4 B an entry when ids are dense, a hash map's
    // bucket otherwise).
    SceneArrays {
        arrays: (scene.array_capacities().into_iter())
            .map(|(name, cap, each)| (name.to_string(), (cap * each) as u64))
            .collect(),
    }
}

/// Run one stage in this process: what the child prints.
pub fn run_stage(stage: &str, file: Option<&Path>) -> Result<StageRun, Failure> {
    let mut run = StageRun {
        stage: stage.into(),
        ..Default::default()
    };
    let need_file = || file.ok_or_else(|| Failure(format!("stage {stage} needs a file")));
    match stage {
        "baseline" => run.checkpoints.push(checkpoint("started, nothing done")),
        "check" => {
            let scene = file::load(need_file()?)?;
            run.checkpoints
                .push(checkpoint("loaded, holding the scene"));
            run.nodes = scene.len();
            run.heap = Some(node_heap(&scene));
            run.arrays = Some(scene_arrays(&scene));
            drop(scene);
            run.checkpoints
                .push(checkpoint("scene dropped (what the allocator kept)"));
            run.held_at = 0;
        }
        "editor" => editor_stage(need_file()?, &mut run)?,
        other => {
            return Err(Failure(format!(
                "unknown stage {other:?} (one of {})",
                STAGES.join(", ")
            )));
        }
    }
    Ok(run)
}

/// How long the editor stage waits for the loading worker.
const LOAD_TIMEOUT: Duration = Duration::from_secs(900);

/// What the window's stage ran: frames, the scene's nodes, the last frame's tessellated
/// vertices and indices.
pub type WindowRun = (usize, usize, (usize, usize));

/// Open a file in a headless window, calling `mark` at each checkpoint.
pub type OpenWindow = fn(&Path, &mut dyn FnMut(&str)) -> Result<WindowRun, String>;

/// The window's part of the memory bench: open a file in a headless window, calling `mark` at
/// each checkpoint. The binary sets it (`tools` does not import the app); without it the
/// `editor` stage measures the session alone.
#[derive(Clone, Copy, Debug)]
pub struct WindowStage {
    /// Open the file and run frames.
    pub run: OpenWindow,
    /// The `size_of` of the window's per-row structures.
    pub sizes: fn() -> Vec<(&'static str, usize)>,
}

static WINDOW_STAGE: std::sync::OnceLock<WindowStage> = std::sync::OnceLock::new();

/// Give the memory bench the window's stage (once, at start; later calls are ignored).
pub fn set_window_stage(stage: WindowStage) {
    let _ = WINDOW_STAGE.set(stage);
}

/// The editor stage: the window's when the binary gave it, else the session's.
fn editor_stage(path: &Path, run: &mut StageRun) -> Result<(), Failure> {
    let Some(window) = WINDOW_STAGE.get() else {
        return session_stage(path, run);
    };
    let checkpoints = &mut run.checkpoints;
    let (frames, nodes, mesh) =
        (window.run)(path, &mut |label| checkpoints.push(checkpoint(label))).map_err(Failure)?;
    run.frames = frames;
    run.held_at = run.checkpoints.len().saturating_sub(1);
    run.nodes = nodes;
    run.mesh = Some(mesh);
    run.notes.push(
        "frames run headless through an egui Context and are tessellated on the CPU; no GPU \
         upload (wgpu's vertex buffers and textures are not counted; the real window on \
         lavapipe adds ~28 B/node at 1M: see docs/measurements.md, \"Memory\")"
            .into(),
    );
    Ok(())
}

/// Open `path` as the window does (headless; the session alone without the `editor`
/// feature), calling `mark` at each checkpoint: frames run, nodes, the last frame's mesh.
pub(crate) fn run_window(path: &Path, mark: &mut dyn FnMut(&str)) -> Result<WindowRun, Failure> {
    if let Some(window) = WINDOW_STAGE.get() {
        return (window.run)(path, mark).map_err(Failure);
    }
    let mut run = StageRun::default();
    mark("window running, empty scene (the session only: no window feature)");
    session_stage(path, &mut run)?;
    mark("file opened: world matrices computed");
    Ok((0, run.nodes, (0, 0)))
}

/// Without the window: the editor session opening the file (on its worker for big files) and
/// computing the world matrices.
fn session_stage(path: &Path, run: &mut StageRun) -> Result<(), Failure> {
    use crate::editor::{Command, Editor};
    use crate::model::document::Document;
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    run.checkpoints
        .push(checkpoint("session on an empty scene"));
    editor.apply(Command::File(FileCommand::OpenPath(path.to_path_buf())))?;
    let start = Instant::now();
    while editor.job().is_some() && start.elapsed() < LOAD_TIMEOUT {
        std::thread::sleep(Duration::from_millis(10));
        editor.poll_job()?;
    }
    editor.update_world();
    run.checkpoints
        .push(checkpoint("file opened, world matrices computed"));
    run.held_at = run.checkpoints.len() - 1;
    run.nodes = editor.doc().scene().len();
    run.notes.push(
        "without the window (built without the `editor` feature): the session only, no egui frames"
            .into(),
    );
    Ok(())
}

/// Run one stage in a fresh child process of this executable.
fn child_stage(
    exe: &Path,
    stage: &str,
    file: &Path,
    purge_at_once: bool,
) -> Result<StageRun, Failure> {
    let mut command = std::process::Command::new(exe);
    command.args(["bench", "memory-stage", stage]).arg(file);
    if purge_at_once {
        command.env(PURGE_AT_ONCE.0, PURGE_AT_ONCE.1);
    }
    let output = command
        .output()
        .map_err(|e| Failure(format!("cannot run {}: {e}", exe.display())))?;
    if !output.status.success() {
        return Err(Failure(format!(
            "stage {stage} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(text.trim()).map_err(|e| {
        Failure(format!(
            "stage {stage} printed something unexpected ({e}): {text}"
        ))
    })
}

pub(super) fn mb(bytes: Option<u64>) -> Option<f64> {
    bytes.map(|b| b as f64 / 1e6)
}

/// (a − b) / n, when both are known.
fn per_node(a: Option<u64>, b: Option<u64>, n: usize) -> Option<f64> {
    Some((a? as f64 - b? as f64) / n.max(1) as f64)
}

/// `size_of` of every per-node structure.
fn sizes() -> Vec<SizeOf> {
    let list = vec![
        ("NodeData", size_of::<NodeData>()),
        ("  CompactString (name)", size_of::<CompactString>()),
        ("  Trs", size_of::<Trs>()),
        ("  Shape", size_of::<Shape>()),
        ("  Color", size_of::<Color>()),
        ("  ThinVec<Vec2> (probes)", size_of::<ThinVec<glam::Vec2>>()),
        ("  ThinVec<Track>", size_of::<ThinVec<Track>>()),
        ("Sprite (boxed in Shape)", size_of::<Sprite>()),
        ("Track", size_of::<Track>()),
        ("Key", size_of::<Key>()),
        ("NodeId", size_of::<NodeId>()),
        ("Affine2 (local_mat, world)", size_of::<glam::Affine2>()),
        ("NodeSpec (load: the flat list)", size_of::<NodeSpec>()),
        (
            "Option<NodeSpec> (load: the slots)",
            size_of::<Option<NodeSpec>>(),
        ),
        (
            "FileNode (load: the parse tree)",
            file::parse_tree_node_bytes(),
        ),
    ];
    let window = WINDOW_STAGE.get().map(|w| (w.sizes)()).unwrap_or_default();
    let list = [list, window].concat();
    list.into_iter()
        .map(|(name, bytes)| SizeOf {
            name: name.into(),
            bytes,
        })
        .collect()
}

fn layout(check: &StageRun) -> Option<Layout> {
    let (heap, arrays) = (check.heap.as_ref()?, check.arrays.as_ref()?);
    let n = check.nodes.max(1) as f64;
    let arrays_per_node: Vec<(String, f64)> = (arrays.arrays.iter())
        .map(|(name, bytes)| (name.clone(), *bytes as f64 / n))
        .collect();
    let scene_per_node =
        arrays_per_node.iter().map(|(_, b)| b).sum::<f64>() + heap.total() as f64 / n;
    Some(Layout {
        sizes: sizes(),
        arrays_per_node,
        heap_per_node: (
            heap.names as f64 / n,
            heap.shapes as f64 / n,
            heap.probes as f64 / n,
            heap.tracks as f64 / n,
        ),
        name_len_per_node: heap.name_len as f64 / n,
        scene_per_node,
    })
}

/// Generate, save, run every stage in its own process, and put the figures together.
pub fn memory(nodes: usize) -> Result<MemoryReport, Failure> {
    if nodes == 0 || nodes > file::MAX_NODES {
        return Err(Failure(format!(
            "--nodes must be 1 to {} (got {nodes})",
            file::MAX_NODES
        )));
    }
    let exe = std::env::current_exe().map_err(|e| Failure(format!("cannot find graft: {e}")))?;
    let dir = std::env::temp_dir().join(format!("graft-bench-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Failure(format!("{}: {e}", dir.display())))?;
    let path: PathBuf = dir.join("scene.ron");
    let runs = run_stages(&exe, &path, nodes);
    let _ = std::fs::remove_dir_all(&dir);
    let (file_bytes, runs) = runs?;
    let base =
        stage_end(&runs[0].0).ok_or_else(|| Failure("the baseline measured nothing".into()))?;
    let stages = (runs.iter())
        .map(|(run, purge)| stage_report(run, *purge, &base, file_bytes, nodes))
        .collect();
    let check = runs.iter().map(|(r, _)| r).find(|r| r.stage == "check");
    Ok(MemoryReport {
        nodes,
        file_bytes,
        rss_available: base.peak_rss_bytes.is_some(),
        stages,
        layout: check.and_then(layout),
    })
}

/// Save a generated scene at `path`, then run every stage on it (plain, then settled): the
/// file's size and each run with whether it purged at once.
fn run_stages(
    exe: &Path,
    path: &Path,
    nodes: usize,
) -> Result<(u64, Vec<(StageRun, bool)>), Failure> {
    file::save(&generate(GenShape::Random, nodes, 1), path)?;
    let file_bytes = std::fs::metadata(path)?.len();
    let plain = STAGES.iter().map(|&stage| (stage, false));
    let settled = STAGES[1..].iter().map(|&stage| (stage, true));
    let runs = (plain.chain(settled))
        .map(|(stage, purge)| Ok((child_stage(exe, stage, path, purge)?, purge)))
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok((file_bytes, runs))
}

/// A stage's end figures: held from the checkpoint the stage names, the peak from its last one.
fn stage_end(r: &StageRun) -> Option<Checkpoint> {
    let last = r.checkpoints.last()?;
    let held = r.checkpoints.get(r.held_at).unwrap_or(last);
    Some(Checkpoint {
        label: held.label.clone(),
        rss_bytes: held.rss_bytes,
        peak_rss_bytes: last.peak_rss_bytes,
    })
}

/// One stage's report: its figures, and per node over the baseline `base`.
fn stage_report(
    run: &StageRun,
    purge: bool,
    base: &Checkpoint,
    file_bytes: u64,
    nodes: usize,
) -> StageReport {
    let last = stage_end(run).unwrap_or_else(|| checkpoint("none"));
    let peak_per_node = per_node(last.peak_rss_bytes, base.peak_rss_bytes, nodes);
    let minus_file = (run.stage == "check")
        .then(|| peak_per_node.map(|p| p - file_bytes as f64 / nodes as f64))
        .flatten();
    let over_empty = (run.stage == "editor").then(|| {
        let empty = run.checkpoints.first().cloned().unwrap_or(last.clone());
        (
            per_node(last.peak_rss_bytes, empty.peak_rss_bytes, nodes),
            per_node(last.rss_bytes, empty.rss_bytes, nodes),
        )
    });
    let is_base = run.stage == "baseline";
    StageReport {
        stage: run.stage.clone(),
        allocator: if purge { "purge_delay=0" } else { "default" }.into(),
        peak_rss_mb: mb(last.peak_rss_bytes),
        rss_mb: mb(last.rss_bytes),
        peak_bytes_per_node: peak_per_node.filter(|_| !is_base),
        rss_bytes_per_node: per_node(last.rss_bytes, base.rss_bytes, nodes).filter(|_| !is_base),
        peak_minus_file_bytes_per_node: minus_file,
        over_empty_window: over_empty,
        run: run.clone(),
    }
}

/// `graft bench memory-stage`: run one stage and print its figures as one JSON line.
pub fn run_stage_command(
    stage: &str,
    file: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let run = run_stage(stage, file)?;
    let text = serde_json::to_string(&run).map_err(|e| Failure(e.to_string()))?;
    writeln!(out, "{text}")?;
    Ok(())
}
