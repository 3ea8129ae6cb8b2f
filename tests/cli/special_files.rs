//! Endless and special files (issue 35, item 6): `/dev/zero`, `/dev/urandom`, a fifo, a
//! socket, a folder and a (sparse) file past the limit, given as a scene, a lesson, a lesson's
//! `scene:`, a `.tscn`, an `.svg` and a figure's sprite: each run exits 1 within seconds with
//! a message naming the file, and its peak memory stays small.

use std::io::Read;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a refused run may take (it takes milliseconds; the margin is for a loaded machine).
const MAX_TIME: Duration = Duration::from_secs(5);
/// The most resident memory a refused run may reach.
const MAX_RSS_BYTES: u64 = 200 << 20;

/// One finished run: exit code, stderr, wall time, peak resident memory.
struct Run {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
    max_rss: u64,
}

/// Run graft with `args`, reaped with `wait4` for its own peak RSS; killed past 20 s.
#[allow(
    clippy::zombie_processes,
    reason = "reaped by wait4, which reports its rusage"
)]
fn run(args: &[&str]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the graft binary runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our child, not yet reaped; status and usage are valid for writes.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(reaped >= 0, "wait4 failed");
        if reaped == pid {
            break;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("graft {args:?} still runs after 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = start.elapsed();
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .map(|mut e| e.read_to_string(&mut stderr));
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        stderr,
        elapsed,
        // Linux reports ru_maxrss in KiB.
        max_rss: usage.ru_maxrss as u64 * 1024,
    }
}

/// The special files, each named `name` in its own folder under `root`: (label, path). The
/// devices are reached through symbolic links so they carry the extension the command wants.
fn specials(root: &Path, name: &str, limit: u64) -> Vec<(&'static str, PathBuf)> {
    let mut out = Vec::new();
    let mut place = |label: &'static str| {
        let dir = root.join(label);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        out.push((label, path.clone()));
        path
    };
    std::os::unix::fs::symlink("/dev/zero", place("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", place("urandom")).unwrap();
    let fifo = place("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // The listener is leaked: the socket file stays a live socket for the test's life.
    std::mem::forget(UnixListener::bind(place("socket")).unwrap());
    std::fs::create_dir(place("folder")).unwrap();
    // Sparse: one byte past the limit costs no disk.
    let big = std::fs::File::create(place("big")).unwrap();
    big.set_len(limit + 1).unwrap();
    out
}

/// Every run of `args_for(path)` over the special files exits 1 fast and small, naming the
/// path `shown(path)` and why; the runs' times and peaks are printed.
fn refuses_all(what: &str, files: &[(&str, PathBuf)], args_for: impl Fn(&Path) -> Vec<String>) {
    for (label, path) in files {
        let args = args_for(path);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args);
        eprintln!(
            "{what} {label}: exit {:?} in {:?}, peak RSS {} MiB: {}",
            r.code,
            r.elapsed,
            r.max_rss >> 20,
            r.stderr.trim()
        );
        assert_eq!(r.code, Some(1), "{what} {label}: {}", r.stderr);
        assert!(r.elapsed < MAX_TIME, "{what} {label}: took {:?}", r.elapsed);
        assert!(
            r.max_rss < MAX_RSS_BYTES,
            "{what} {label}: peak RSS {} MiB",
            r.max_rss >> 20
        );
        let name = path.to_str().unwrap();
        assert!(r.stderr.contains(name), "{what} {label}: {}", r.stderr);
        let why = if *label == "big" {
            "is larger than the"
        } else {
            "is not a regular file"
        };
        assert!(r.stderr.contains(why), "{what} {label}: {}", r.stderr);
    }
}

fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn special_and_oversized_scenes_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let files = specials(
        dir.path(),
        "scene.ron",
        graft::model::read_limit::SCENE.bytes,
    );
    refuses_all("check", &files, |p| owned(&["check", p.to_str().unwrap()]));
}

#[test]
fn special_and_oversized_lessons_and_lesson_scenes_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let files = specials(
        &dir.path().join("lessons"),
        "x.lesson",
        graft::model::read_limit::LESSON.bytes,
    );
    refuses_all("lesson check", &files, |p| {
        owned(&["lesson", "check", p.to_str().unwrap()])
    });
    let scenes = specials(
        &dir.path().join("scenes"),
        "scene.ron",
        graft::model::read_limit::SCENE.bytes,
    );
    refuses_all("lesson scene:", &scenes, |scene| {
        let lesson = scene.with_extension("lesson");
        let text = format!(
            "graft lesson 1\ntitle: Special\n\nstep: One\nscene: {}\n\ngoal: keep-world is off\ndo: keep-world off\n",
            scene.display()
        );
        std::fs::write(&lesson, text).unwrap();
        owned(&["lesson", "check", lesson.to_str().unwrap()])
    });
}

#[test]
fn special_and_oversized_tscn_and_svg_imports_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ron");
    let out = out.to_str().unwrap();
    let tscn = specials(
        &dir.path().join("godot"),
        "x.tscn",
        graft::model::read_limit::TSCN.bytes,
    );
    refuses_all("import .tscn", &tscn, |p| {
        owned(&["import", p.to_str().unwrap(), "-o", out])
    });
    let svg = specials(
        &dir.path().join("svg"),
        "x.svg",
        graft::model::read_limit::SVG.bytes,
    );
    refuses_all("import .svg", &svg, |p| {
        owned(&["import", p.to_str().unwrap(), "-o", out])
    });
    assert!(!Path::new(out).exists(), "a refused import wrote nothing");
}

#[test]
fn a_figure_with_a_special_or_oversized_sprite_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let images = specials(
        &dir.path().join("images"),
        "x.png",
        graft::model::read_limit::IMAGE.bytes,
    );
    let png = dir.path().join("figure.png");
    let png_arg = png.to_str().unwrap().to_string();
    refuses_all("figure sprite", &images, |image| {
        let scene = image.with_file_name("scene.ron");
        let text = format!(
            "(\n    format: 1,\n    nodes: [\n        (id: 1, name: \"pic\", shape: Sprite(path: {:?}, size: (2.0, 1.0))),\n    ],\n)\n",
            image.to_str().unwrap()
        );
        std::fs::write(&scene, text).unwrap();
        owned(&["figure", scene.to_str().unwrap(), "-o", &png_arg])
    });
    assert!(!png.exists(), "a refused figure wrote nothing");
}
