//! `graft thumbnail`: a file manager's preview of a scene (`.ron`, or a Godot `.tscn`, told
//! apart by their first bytes) drawn by the figure renderer, square, at the requested size.
//!
//! File managers run it on whatever files they list, so it is built to fail safely: the file
//! must be a regular file under a size limit, the scene under a node limit and every sprite
//! image under a size and dimension limit; the process takes an address-space limit
//! (`setrlimit`), and a watchdog thread ends the whole process when the time limit passes.
//! The PNG is written to a temporary name and renamed at the very end, under the watchdog's
//! lock, so a broken, huge or hostile file leaves no output at all and the exit code is 1.

use super::failure::Failure;
use crate::editor::view::figure::png::render_png;
use crate::editor::view::figure::{FigureOptions, Layers, embedded_image, figure_svg};
use crate::model::file;
use crate::model::godot::import::import_text;
use crate::model::read_limit;
use crate::model::scene::Scene;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The largest sprite image file a thumbnail embeds, in bytes.
const MAX_IMAGE_BYTES: u64 = 8 << 20;
/// The largest sprite image side a thumbnail embeds, in pixels.
const MAX_IMAGE_SIDE: usize = 4096;

/// Arguments of `graft thumbnail`.
#[derive(Args, Debug)]
pub struct ThumbnailArgs {
    /// The scene: a graft `.ron` or a Godot `.tscn` (recognised by content).
    pub input: PathBuf,
    /// The PNG to write; nothing is written when the scene cannot be drawn.
    pub output: PathBuf,
    /// Width and height of the (square) thumbnail, in pixels.
    #[arg(short, long, default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=2048))]
    pub size: u32,
    /// Give up after this many seconds: the process exits with 1 and writes nothing.
    #[arg(long, default_value_t = 5.0, value_name = "SECONDS", value_parser = positive_seconds)]
    pub time_limit: f64,
    /// Address-space limit of the process in MiB (0: none).
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    pub memory_limit: u64,
    /// Refuse scene files larger than this many MiB.
    #[arg(long, default_value_t = 16, value_name = "MIB")]
    pub max_file_size: u64,
    /// Refuse scenes with more nodes than this.
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    pub max_nodes: usize,
}

/// A `--time-limit`: a finite number of seconds above zero (at most a day).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 86_400.0 => Ok(t),
        _ => Err(format!("`{text}` is not a number of seconds above 0")),
    }
}

/// `graft thumbnail`: check, load, draw and write, within the time and memory limits.
pub fn thumbnail(args: &ThumbnailArgs) -> Result<(), Failure> {
    let watchdog = Watchdog::start(
        Duration::from_secs_f64(args.time_limit),
        temporary_path(&args.output),
    )?;
    limit_memory(args.memory_limit)?;
    let scene = load_scene(&args.input, args.max_file_size << 20, args.max_nodes)?;
    let dir = args.input.parent().map(Path::to_path_buf);
    let png = draw(&scene, args.size, dir.as_deref())?;
    watchdog.commit(&args.output, &png)
}

/// The scene in `path`: a Godot scene when it starts like one, else a graft `.ron`.
fn load_scene(path: &Path, max_bytes: u64, max_nodes: usize) -> Result<Scene, Failure> {
    let shown = path.display();
    let limit = read_limit::Limit::new(max_bytes, "thumbnails");
    let text = read_limit::read_text_bounded(path, limit)?;
    let mut scene = if is_godot_scene(&text) {
        import_text(&text, path)?.scene
    } else {
        file::parse_with_node_limit(&text, path, max_nodes)?
    };
    if scene.len() > max_nodes {
        return Err(Failure(format!(
            "{shown}: {} nodes, more than the thumbnail limit of {max_nodes}",
            scene.len()
        )));
    }
    scene.update_world();
    Ok(scene)
}

/// Whether `text` begins like a Godot text scene (`[gd_scene …`), after a BOM and blank space.
pub fn is_godot_scene(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with("[gd_scene")
}

/// The scene framed in a `size`×`size` figure with its shapes and parent links, as PNG bytes.
fn draw(scene: &Scene, size: u32, dir: Option<&Path>) -> Result<Vec<u8>, Failure> {
    let options = FigureOptions {
        size: (size, size),
        scale: 1.0,
        layers: Layers {
            links: true,
            ..Layers::NONE
        },
        selection: Vec::new(),
        caption: false,
        camera: None,
        time: 0.0,
    };
    let svg = figure_svg(scene, &options, &|path| small_image(dir, path));
    Ok(render_png(&svg, 1.0)?)
}

/// A sprite's image as a data URI, only when it is a regular file within the image limits.
fn small_image(dir: Option<&Path>, path: &str) -> Option<String> {
    let file = dir.map_or_else(|| PathBuf::from(path), |d| d.join(path));
    let limit = read_limit::Limit::new(MAX_IMAGE_BYTES, "thumbnail images");
    let dims = read_limit::image_size(&file, limit).ok()?;
    if dims.width > MAX_IMAGE_SIDE || dims.height > MAX_IMAGE_SIDE {
        return None;
    }
    embedded_image(dir, path)
}

/// Where the PNG is written before it is renamed into place: beside it, named by the process.
fn temporary_path(output: &Path) -> PathBuf {
    let name = output
        .file_name()
        .map_or("thumbnail".into(), |n| n.to_string_lossy().into_owned());
    output.with_file_name(format!(".{name}.{}.graft-tmp", std::process::id()))
}

/// The process's address space now, in bytes (`VmSize` in /proc/self/status; 0 if unknown).
#[cfg(target_os = "linux")]
fn address_space_in_use() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kib| kib << 10)
}

/// Let the process's address space grow by at most `mib` MiB from what it uses now (0: no
/// limit), so an allocation past it fails (and the process aborts) instead of the machine
/// swapping. The limit is relative: mimalloc reserves about 1 GiB of address space before
/// `main`, so an absolute limit below that would fail every later allocation.
#[cfg(target_os = "linux")]
fn limit_memory(mib: u64) -> Result<(), Failure> {
    if mib == 0 {
        return Ok(());
    }
    let bytes = address_space_in_use().saturating_add(mib.saturating_mul(1 << 20)) as libc::rlim_t;
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct we pass and changes only this process's limits.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
        return Err(Failure(format!(
            "cannot set the memory limit: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// No address-space limit outside Linux: the size, node and time limits still apply.
#[cfg(not(target_os = "linux"))]
fn limit_memory(_mib: u64) -> Result<(), Failure> {
    Ok(())
}

/// The time limit: a thread that ends the process unless the output was committed first.
struct Watchdog {
    /// The temporary file, and whether the output has been committed; the watchdog and the
    /// committing thread take turns through this lock.
    state: Arc<Mutex<(PathBuf, bool)>>,
}

impl Watchdog {
    /// Start the thread: after `limit` it removes `temporary` and exits with 1, unless
    /// [`Watchdog::commit`] ran first.
    fn start(limit: Duration, temporary: PathBuf) -> Result<Self, Failure> {
        let state = Arc::new(Mutex::new((temporary, false)));
        let theirs = Arc::clone(&state);
        let (started, running) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("thumbnail-watchdog".into())
            .stack_size(64 << 10)
            .spawn(move || {
                let _ = started.send(());
                std::thread::sleep(limit);
                let guard = theirs.lock().unwrap_or_else(|e| e.into_inner());
                if !guard.1 {
                    let _ = std::fs::remove_file(&guard.0);
                    eprintln!("graft thumbnail: gave up after {} s", limit.as_secs_f64());
                    std::process::exit(1);
                }
            })
            .map_err(|e| Failure(format!("cannot start the watchdog: {e}")))?;
        // The thread has its stacks before the memory limit is set.
        running
            .recv()
            .map_err(|e| Failure(format!("the watchdog did not start: {e}")))?;
        Ok(Self { state })
    }

    /// Write `bytes` to the temporary file and rename it to `output`, holding the lock so the
    /// watchdog cannot end the process halfway.
    fn commit(&self, output: &Path, bytes: &[u8]) -> Result<(), Failure> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let temporary = guard.0.clone();
        let written = std::fs::File::create(&temporary)
            .and_then(|mut f| f.write_all(bytes))
            .and_then(|()| std::fs::rename(&temporary, output));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(Failure(format!("{}: {e}", output.display())));
        }
        guard.1 = true;
        Ok(())
    }
}
