//! The command line's progress bar: what it says for each stage, that it appears only after the
//! delay and is cleared at the end, and that without a terminal nothing of it reaches stdout or
//! stderr.

use graft::model::file::{load_with_progress, parse_with_progress, save_with_progress};
use graft::model::progress::{Progress, Stage};
use graft::tools::generate::{GenShape, generate};
use graft::tools::progress::{BarView, bar_view, with_progress_on};
use indicatif::{ProgressDrawTarget, TermLike};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[test]
fn the_bar_says_the_stage_and_how_far() {
    assert_eq!(
        bar_view("big.ron", Stage::Reading, 45_100_000, 223_070_670),
        BarView {
            message: "big.ron: reading 45.1 of 223.1 MB".into(),
            fraction: Some((45_100_000, 223_070_670)),
        }
    );
    assert_eq!(
        bar_view("big.ron", Stage::Parsing, 412_000, 0),
        BarView {
            message: "big.ron: parsing 412,000 nodes".into(),
            fraction: None,
        }
    );
    assert_eq!(
        bar_view("big.ron", Stage::Formatting, 8192, 1_000_000),
        BarView {
            message: "big.ron: formatting 8,192 of 1,000,000 nodes".into(),
            fraction: Some((8192, 1_000_000)),
        }
    );
    assert_eq!(
        bar_view("big.ron", Stage::Parsing, 1_234_567_890, 0).message,
        "big.ron: parsing 1,234,567,890 nodes"
    );
    // Nothing counted yet, or a stage that cannot count: the stage alone, no fill.
    for (stage, text) in [
        (Stage::Parsing, "parsing"),
        (Stage::Building, "building the scene"),
        (Stage::Propagating, "computing world matrices"),
        (Stage::Generating, "generating"),
        (Stage::Formatting, "formatting"),
        (Stage::Writing, "writing"),
        (Stage::Reading, "reading"),
    ] {
        assert_eq!(
            bar_view("a.ron", stage, 0, 0),
            BarView {
                message: format!("a.ron: {text}"),
                fraction: None,
            }
        );
    }
    // A count past its total (a file that grew while read) fills the bar, no more.
    assert_eq!(
        bar_view("a.ron", Stage::Writing, 120, 100).fraction,
        Some((100, 100))
    );
}

/// A terminal that records what is drawn on it.
#[derive(Debug, Default, Clone)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Recorder {
    fn log(&self, event: String) -> std::io::Result<()> {
        self.0.lock().unwrap().push(event);
        Ok(())
    }
    fn events(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl TermLike for Recorder {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.log(format!("up {n}"))
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.log(format!("down {n}"))
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.log(format!("right {n}"))
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.log(format!("left {n}"))
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.log(format!("line {s}"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.log(format!("str {s}"))
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.log("clear".into())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

fn on(recorder: &Recorder) -> ProgressDrawTarget {
    ProgressDrawTarget::term_like(Box::new(recorder.clone()))
}

#[test]
fn a_long_run_shows_each_stage_then_clears_the_bar() {
    let recorder = Recorder::default();
    let watching = recorder.clone();
    // Each stage waits until the bar has drawn it (the drawing is the signal, not a sleep):
    // a bar that never draws a stage fails after 20 s instead of passing by luck.
    let drawn_soon = |text: &str| {
        let started = std::time::Instant::now();
        while !watching.events().iter().any(|e| e.contains(text)) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "never drawn: {text}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let answer = with_progress_on(on(&recorder), Duration::ZERO, "big.ron", |p: &Progress| {
        p.enter(Stage::Reading, 2_000_000);
        p.set_done(1_000_000);
        drawn_soon("reading 1.0 of 2.0 MB");
        p.enter(Stage::Parsing, 0);
        p.set_done(8192);
        drawn_soon("parsing 8,192 nodes");
        42
    });
    assert_eq!(answer, 42, "the work's own result comes back");
    let events = recorder.events();
    let drawn = events.join("\n");
    assert!(
        drawn.contains("big.ron: reading 1.0 of 2.0 MB") && drawn.contains("50%"),
        "{drawn}"
    );
    assert!(drawn.contains("big.ron: parsing 8,192 nodes"), "{drawn}");
    // The last thing done to the terminal is clearing the bar's line.
    let last_text = events.iter().rposition(|e| e.contains("big.ron")).unwrap();
    assert!(
        events[last_text..].iter().any(|e| e == "clear"),
        "the bar is not cleared at the end: {events:?}"
    );
}

#[test]
fn a_short_run_draws_nothing() {
    let recorder = Recorder::default();
    let started = std::time::Instant::now();
    with_progress_on(on(&recorder), Duration::from_secs(10), "a.ron", |p| {
        p.enter(Stage::Reading, 100);
        std::thread::sleep(Duration::from_millis(150));
    });
    assert!(recorder.events().is_empty(), "{:?}", recorder.events());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the end of the work does not wait for the delay"
    );
}

fn graft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        // The bar would show at once on a terminal; stderr here is a pipe.
        .env("GRAFT_PROGRESS_DELAY_MS", "0")
        .env("TERM", "xterm-256color")
        .output()
        .expect("the graft binary runs")
}

#[test]
fn without_a_terminal_the_cli_prints_no_progress() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("gen.ron");
    let scene = scene.to_str().unwrap();
    let expect = |o: &Output, stdout: &str| {
        assert!(o.status.success(), "{o:?}");
        assert_eq!(String::from_utf8_lossy(&o.stdout), stdout);
        assert_eq!(String::from_utf8_lossy(&o.stderr), "", "stderr stays empty");
    };
    let o = graft(&[
        "generate", "--shape", "random", "--nodes", "5000", "-o", scene,
    ]);
    expect(&o, &format!("wrote {scene} (5000 nodes, random)\n"));
    let o = graft(&["check", scene]);
    expect(&o, &format!("{scene}: ok (5000 nodes)\n"));
    let o = graft(&["fmt", "--check", scene]);
    expect(&o, "");
    let copy = dir.path().join("copy.ron");
    let copy = copy.to_str().unwrap();
    let o = graft(&[
        "reparent",
        scene,
        "--node",
        "3",
        "--parent",
        "root",
        "--keep-world",
        "-o",
        copy,
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("node 3: parent"));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    let tscn = dir.path().join("gen.tscn");
    let o = graft(&["export", scene, "-o", tscn.to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

fn stages(p: &Progress) -> Vec<Stage> {
    p.stage_times().into_iter().map(|(s, _)| s).collect()
}

#[test]
fn loads_and_saves_report_their_stages_and_stop_when_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.ron");
    let scene = generate(GenShape::Wide, 10_000, 1);
    let p = Progress::new();
    save_with_progress(&scene, &path, &p).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert_eq!(stages(&p), [Stage::Formatting, Stage::Writing]);
    assert_eq!((p.done(), p.total()), (size, size));

    let p = Progress::new();
    let loaded = load_with_progress(&path, &p).unwrap().unwrap();
    assert_eq!(loaded, scene);
    assert_eq!(
        stages(&p),
        [Stage::Reading, Stage::Parsing, Stage::Building]
    );

    // Parsing counts nodes as it goes (every 4096) and stops once cancelled.
    let text = std::fs::read_to_string(&path).unwrap();
    let p = Progress::new();
    let watcher = p.clone();
    let parsed = std::thread::scope(|s| {
        let parse = s.spawn(|| parse_with_progress(&text, Path::new("wide.ron"), Some(&p)));
        while watcher.done() < 4096 && !parse.is_finished() {
            std::thread::yield_now();
        }
        watcher.cancel();
        parse.join().unwrap()
    });
    assert!(
        matches!(parsed, Ok(None)) || watcher.stage() == Stage::Building,
        "a parse cancelled midway returns nothing"
    );
    let p = Progress::new();
    p.cancel();
    assert!(matches!(
        parse_with_progress(&text, Path::new("wide.ron"), Some(&p)),
        Ok(None)
    ));
    assert!(matches!(load_with_progress(&path, &p), Ok(None)));
}

#[test]
fn a_file_that_is_not_utf8_is_refused_with_the_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    std::fs::write(&path, b"(format: 1, nodes: [(id: 1, name: \"a\xff\")])").unwrap();
    let err = graft::model::file::load(&path).unwrap_err().to_string();
    assert!(err.contains("not UTF-8 text (byte 36)"), "{err}");
}
