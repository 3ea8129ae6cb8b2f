//! Issue 46's torture loop (ignored: minutes; `cargo test --test journal_torture -- --ignored
//! --nocapture`, `GRAFT_TORTURE_ROUNDS` rounds, 200 by default). Each round a child edits a
//! scene file with its journal on (`graft journal-drill --file`: a small file, or a big one whose
//! journal names the file until the first edit copies it), and is killed (SIGKILL or SIGTERM)
//! after a random number of printed steps and a random delay; then another program may rewrite
//! the file (same size or not, its time put back or not), delete it, or put a symlink to another
//! version in its place. The next start recovers: the state after the last printed step (or the
//! one being made), bit for bit, or nothing offered only when nothing was printed; then Save must
//! ask before overwriting a file it did not write. Counted: edits lost, files overwritten unasked
//! (both must be 0), and what each round met.

use graft::editor::session::Editor;
use graft::editor::session::command::{FileCommand, JournalCommand};
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file;
use graft::tools::generate::{GenShape, generate};
use graft::tools::recover::drill_step;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

/// The scene text after each of the first `steps` drill steps of `seed` on `path`.
fn states(path: &Path, seed: u64, steps: usize) -> Vec<String> {
    let mut editor = Editor::new(Document::open(path).unwrap());
    let mut out = vec![file::to_ron_string(editor.doc().scene())];
    let mut script = fastrand::Rng::with_seed(seed);
    for _ in 0..steps {
        for command in drill_step(&mut script, &editor) {
            let _ = editor.apply(command);
        }
        out.push(file::to_ron_string(editor.doc().scene()));
    }
    out
}

/// Run the drill and kill it after `after` printed steps and `delay`; the last step printed.
fn run_and_kill(
    scene: &Path,
    journal: &Path,
    seed: u64,
    steps: usize,
    after: usize,
    delay: Duration,
    term: bool,
) -> Option<usize> {
    let mut child = Process::new(env!("CARGO_BIN_EXE_graft"))
        .args(["journal-drill", "--seed", &seed.to_string(), "--steps"])
        .arg(steps.to_string())
        .arg("--dir")
        .arg(journal)
        .arg("--file")
        .arg(scene)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut last = None;
    while last.is_none_or(|k| k < after) {
        match lines.next() {
            Some(Ok(line)) => last = line.trim().parse::<usize>().ok().or(last),
            _ => break,
        }
    }
    std::thread::sleep(delay);
    if term {
        let _ = Process::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
    } else {
        let _ = child.kill();
    }
    let _ = child.wait();
    for line in lines.map_while(Result::ok) {
        if let Ok(k) = line.trim().parse::<usize>() {
            last = Some(k);
        }
    }
    last
}

#[derive(Default, Debug)]
struct Counts {
    rounds: usize,
    big: usize,
    sigterm: usize,
    recovered: usize,
    nothing_to_recover: usize,
    outside_writes: usize,
    asked_before_saving: usize,
    edits_lost: usize,
    overwritten_unasked: usize,
}

/// Another program's doing after the kill: what the file is now, if it changed.
fn outside(rng: &mut fastrand::Rng, scene: &Path, original: &str) -> bool {
    let other = file::to_ron_string(Document::sample().scene());
    match rng.u32(..6) {
        0 => {
            std::fs::write(scene, &other).unwrap();
            true
        }
        1 => {
            // The same size, its time put back (`touch -r`).
            let time = std::fs::metadata(scene).unwrap().modified().unwrap();
            let mut same = original.as_bytes().to_vec();
            let at = same.iter().rposition(|b| b.is_ascii_digit()).unwrap();
            same[at] = if same[at] == b'1' { b'2' } else { b'1' };
            std::fs::write(scene, &same).unwrap();
            let f = std::fs::File::options().write(true).open(scene).unwrap();
            f.set_modified(time).unwrap();
            same != original.as_bytes()
        }
        2 => {
            std::fs::remove_file(scene).unwrap();
            true
        }
        3 => {
            let elsewhere = scene.with_extension("other.ron");
            std::fs::write(&elsewhere, &other).unwrap();
            std::fs::remove_file(scene).unwrap();
            std::os::unix::fs::symlink(&elsewhere, scene).unwrap();
            true
        }
        _ => false,
    }
}

fn one_round(rng: &mut fastrand::Rng, big_text: &str, counts: &mut Counts) {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("scene.ron");
    let journal = dir.path().join("journal");
    let big = rng.u32(..10) < 3;
    let text = if big {
        big_text.to_string()
    } else {
        file::to_ron_string(Document::sample().scene()).replace("\"body\"", "\"torso\"")
    };
    std::fs::write(&scene, &text).unwrap();
    let seed = rng.u64(..);
    let steps = if big { 8 } else { 40 };
    let expected = states(&scene, seed, steps);
    let term = rng.bool();
    let after = rng.usize(..steps);
    let delay = Duration::from_micros(rng.u64(..30_000));
    let last = run_and_kill(&scene, &journal, seed, steps, after, delay, term);
    let changed = outside(rng, &scene, &text);
    let on_disk = std::fs::read(&scene).ok();
    let mut next = Editor::new(Document::sample());
    next.start_journal(journal);
    counts.rounds += 1;
    counts.big += usize::from(big);
    counts.sigterm += usize::from(term);
    counts.outside_writes += usize::from(changed);
    let done = last.map_or(0, |k| k + 1);
    if next.recovery_offer().is_none() {
        counts.nothing_to_recover += 1;
        if expected[done] != expected[0] {
            eprintln!("LOST: seed {seed}, printed {last:?}, nothing offered");
            counts.edits_lost += 1;
        }
        return;
    }
    let answer = next.apply(graft::editor::session::command::Command::Journal(
        JournalCommand::AnswerRecovery(RecoveryAnswer::Recover),
    ));
    let got = answer.ok().map(|_| file::to_ron_string(next.doc().scene()));
    let fine = got
        .as_ref()
        .is_some_and(|g| *g == expected[done] || expected.get(done + 1) == Some(g));
    if !fine {
        eprintln!("LOST: seed {seed}, printed {last:?}, recovered another state or none");
        counts.edits_lost += 1;
        return;
    }
    counts.recovered += 1;
    next.apply(graft::editor::session::command::Command::File(
        FileCommand::Save,
    ))
    .unwrap();
    if next.disk_conflict().is_some() {
        counts.asked_before_saving += 1;
    }
    let now = std::fs::read(&scene).ok();
    if changed && next.disk_conflict().is_none() && now != on_disk && on_disk.is_some() {
        eprintln!("OVERWRITTEN: seed {seed}, a file graft did not write, without a question");
        counts.overwritten_unasked += 1;
    }
    next.end_journal();
}

#[test]
#[ignore = "minutes: run by hand, its counts go in the issue's note"]
fn torture_kills_outside_writes_and_links_lose_nothing() {
    let rounds = std::env::var("GRAFT_TORTURE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let big_text = file::to_ron_string(&generate(GenShape::Random, 25_000, 9));
    let mut rng = fastrand::Rng::with_seed(46);
    let mut counts = Counts::default();
    for _ in 0..rounds {
        one_round(&mut rng, &big_text, &mut counts);
    }
    eprintln!("{counts:#?}");
    assert_eq!(counts.edits_lost, 0, "{counts:#?}");
    assert_eq!(counts.overwritten_unasked, 0, "{counts:#?}");
}
