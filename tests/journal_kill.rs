//! `kill -9` at random moments: a child process runs a scripted editing session with the
//! journal on (the hidden `graft journal-drill`) and prints each step's number once `apply`
//! returned; the test kills it (SIGKILL) after a random number of steps and a random delay,
//! then recovers the journal. The recovered scene must be the state after the last printed
//! step, or after the one that was being made (it may have reached the journal before the
//! print), bit for bit; undo back to the start must give the start scene.

use graft::editor::session::Editor;
use graft::editor::session::command::{Command, HistoryCommand, JournalCommand};
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file::to_ron_string;
use graft::model::journal;
use graft::tools::recover::drill_step;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::Duration;

/// How many children are killed.
const KILLS: u64 = 200;
/// Steps each child's script has (it is killed before the end, mostly).
const STEPS: usize = 400;

/// The scene text and next id after each of the first `steps` commands of `seed`'s script.
fn states(seed: u64, steps: usize) -> Vec<(String, u32)> {
    let mut editor = Editor::new(Document::sample());
    let state = |e: &Editor| (to_ron_string(e.doc().scene()), e.doc().scene().next_id().0);
    let mut out = vec![state(&editor)];
    let mut script = fastrand::Rng::with_seed(seed);
    for _ in 0..steps {
        for command in drill_step(&mut script, &editor) {
            let _ = editor.apply(command);
        }
        out.push(state(&editor));
    }
    out
}

fn the_journal(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "journal"))
}

/// Run one child, kill it after `after` printed steps plus `delay`; the last step it printed.
fn run_and_kill(dir: &Path, seed: u64, after: usize, delay: Duration) -> Option<usize> {
    let mut child = Process::new(env!("CARGO_BIN_EXE_graft"))
        .args(["journal-drill", "--seed", &seed.to_string(), "--steps"])
        .arg(STEPS.to_string())
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut last = None;
    while last.is_none_or(|k| k < after) {
        match lines.next() {
            Some(Ok(line)) => last = Some(line.trim().parse::<usize>().unwrap()),
            _ => break,
        }
    }
    std::thread::sleep(delay);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    // What it printed before it died is still in the pipe: the last whole line is the last
    // step known to have returned.
    for line in lines.map_while(Result::ok) {
        if let Ok(k) = line.trim().parse::<usize>() {
            last = Some(k);
        }
    }
    last
}

#[test]
fn a_session_killed_at_any_moment_recovers_up_to_its_last_step() {
    let mut rng = fastrand::Rng::with_seed(2026);
    let mut exact = 0;
    let mut one_more = 0;
    for kill in 0..KILLS {
        let dir = std::env::temp_dir().join(format!("graft-kill-{}-{kill}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let seed = 1000 + kill;
        let after = rng.usize(..300);
        let delay = Duration::from_micros(rng.u64(..3000));
        let printed = run_and_kill(&dir, seed, after, delay);
        let Some(path) = the_journal(&dir) else {
            assert!(
                printed.is_none(),
                "kill {kill}: steps printed but no journal"
            );
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let Ok(recovered) = journal::recover(&bytes) else {
            // Killed while the first records were written: nothing was printed yet.
            assert!(
                printed.is_none(),
                "kill {kill}: an unreadable journal after steps"
            );
            continue;
        };
        // After step k (printed as k) the state is states[k + 1].
        let done = printed.map_or(0, |k| k + 1);
        let expected = states(seed, (done + 1).min(STEPS));
        let got = (
            to_ron_string(recovered.document.scene()),
            recovered.document.scene().next_id().0,
        );
        if got == expected[done] {
            exact += 1;
        } else {
            assert_eq!(
                expected.get(done + 1),
                Some(&got),
                "kill {kill} (seed {seed}, last printed step {printed:?}): the recovered scene \
                 is neither the state after the last printed step nor after the next one"
            );
            one_more += 1;
        }
        if kill % 20 == 0 {
            undo_all_through_the_editor(&dir, &expected[0].0);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    eprintln!(
        "{KILLS} kills: {exact} recovered exactly the last printed step, {one_more} a later one"
    );
    assert!(exact > KILLS / 4, "most kills land between steps: {exact}");
}

/// Recover through the editor's prompt and undo everything: the start scene again.
fn undo_all_through_the_editor(dir: &Path, start: &str) {
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.to_path_buf());
    if editor.recovery_offer().is_none() {
        return; // killed before any unsaved change
    }
    editor
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    while editor.doc().history().undo_label().is_some() {
        editor
            .apply(Command::History(HistoryCommand::Undo))
            .unwrap();
    }
    assert_eq!(to_ron_string(editor.doc().scene()), start);
    editor.end_journal();
}
