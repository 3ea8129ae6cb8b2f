//! Issue 35, in the form of each failure users met: a kill at every stage of a save leaves a
//! whole file and a whole `.bak` (and the next save sweeps the killed save's temporaries); a
//! journal that stopped (a full disk) never reverts a saved file; a second window's save never
//! overwrites newer work without asking; a big scene's edits reach the journal with no frame;
//! a 5 MB name never panics, in the window, the file or the journal; a recovery that stopped
//! graft is not offered again; the prompt says when a journal is older than the file.

use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, FileCommand, GuardAnswer, HistoryCommand, JournalCommand, PanelCommand,
    SelectionCommand,
};
use graft::editor::session::disk_watch::{ConflictAnswer, ConflictReason};
use graft::editor::session::journal::{JournalHealth, RecoveryAnswer};
use graft::model::document::Document;
use graft::model::file;
use graft::model::journal;
use graft::model::scene::NodeId;
use graft::model::scene::edit::Op;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::{Duration, Instant};

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The name of node `id` in the scene file at `path` now.
fn name_on_disk(path: &Path, id: u32) -> String {
    let doc = Document::open(path).unwrap();
    doc.scene().node(NodeId(id)).unwrap().name.to_string()
}

fn rename(node: u32, name: &str) -> Command {
    Command::Panel(PanelCommand::Rename {
        node: NodeId(node),
        name: name.into(),
    })
}

/// A scene's text with one node renamed (a distinct, valid version of the file).
fn version(name: &str) -> String {
    let mut doc = Document::sample();
    doc.perform(
        "Rename",
        vec![Op::Rename {
            node: NodeId(1),
            name: name.into(),
        }],
    )
    .unwrap();
    file::to_ron_string(doc.scene())
}

#[test]
fn a_kill_at_every_stage_of_a_save_leaves_a_whole_file_and_a_whole_backup() {
    let stages = [
        "written",
        "synced",
        "backup-linked",
        "backup-renamed",
        "renamed",
    ];
    for stage in stages {
        let dir = tempfile::tempdir().unwrap();
        let (oldest, old, new) = (version("oldest"), version("old"), version("new"));
        let target = dir.path().join("scene.ron");
        let bak = dir.path().join("scene.ron.bak");
        let input = dir.path().join("input.ron");
        std::fs::write(&target, &old).unwrap();
        std::fs::write(&bak, &oldest).unwrap();
        std::fs::write(&input, &new).unwrap();
        let killed = Process::new(env!("CARGO_BIN_EXE_graft"))
            .args([
                "fmt",
                input.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ])
            .env("GRAFT_KILL_AT", stage)
            .output()
            .unwrap();
        assert!(!killed.status.success(), "{stage}: the save was killed");
        let now = std::fs::read_to_string(&target).unwrap();
        let backup = std::fs::read_to_string(&bak).unwrap();
        assert!(now == old || now == new, "{stage}: the file is whole");
        assert!(
            backup == oldest || backup == old,
            "{stage}: the backup is whole"
        );
        if now == new {
            assert_eq!(
                backup, old,
                "{stage}: a replaced file's backup is its old version"
            );
        }
        // The next save sweeps the killed save's temporaries and keeps a whole backup.
        let again = Process::new(env!("CARGO_BIN_EXE_graft"))
            .args([
                "fmt",
                input.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(again.status.success(), "{stage}: {again:?}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), new);
        assert_eq!(
            files_in(dir.path()),
            ["input.ron", "scene.ron", "scene.ron.bak"],
            "{stage}: no temporary file is left"
        );
    }
}

#[test]
fn exports_leave_no_backup_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sword.svg");
    for _ in 0..2 {
        let o = Process::new(env!("CARGO_BIN_EXE_graft"))
            .args(["export", "scenes/sword.ron", "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
    }
    assert_eq!(files_in(dir.path()), ["sword.svg"]);
}

/// A journaled session on a saved copy of the sample.
fn journaled_on_file(dir: &Path) -> (Editor, PathBuf) {
    let scene = dir.join("scene.ron");
    std::fs::write(&scene, version("body")).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    editor.start_journal(dir.join("journal"));
    assert_eq!(editor.journal_health(), JournalHealth::On);
    (editor, scene)
}

#[test]
fn a_journal_stopped_by_a_full_disk_never_reverts_the_saved_file() {
    let dir = tempfile::tempdir().unwrap();
    let (mut editor, scene) = journaled_on_file(dir.path());
    editor.apply(rename(2, "before the disk filled")).unwrap();
    // The disk fills: every write fails with "no space left on device".
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    editor
        .journal_file_for_tests()
        .unwrap()
        .write_into_for_tests(full);
    editor.apply(rename(2, "after")).unwrap();
    assert!(
        matches!(editor.journal_health(), JournalHealth::Failing(ref why) if why.contains("No space left")),
        "{:?}",
        editor.journal_health()
    );
    for k in 0..5 {
        editor.apply(rename(3, &format!("edit {k}"))).unwrap();
    }
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    // The save ended the stale journal and started a good one.
    assert_eq!(editor.journal_health(), JournalHealth::On);
    editor.end_journal(); // a clean quit
    assert_eq!(files_in(&dir.path().join("journal")), Vec::<String>::new());
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.path().join("journal"));
    assert!(next.recovery_offer().is_none(), "nothing older is offered");
    assert_eq!(name_on_disk(&scene, 3), "edit 4");
}

#[test]
fn a_journal_that_cannot_start_says_so_leaves_nothing_and_retries() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("journal");
    std::fs::write(&blocked, "a file where the folder should be").unwrap();
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(blocked.clone());
    let JournalHealth::Failing(why) = editor.journal_health() else {
        panic!("{:?}", editor.journal_health());
    };
    assert!(why.contains("could not start"), "{why}");
    assert!(
        editor
            .messages()
            .iter()
            .any(|m| m.is_error && m.text.contains("crash journal"))
    );
    editor.apply(rename(2, "unsaved")).unwrap();
    // The folder becomes writable: the retry journals the document, its unsaved edit included.
    std::fs::remove_file(&blocked).unwrap();
    editor
        .apply(Command::Journal(JournalCommand::RetryJournal))
        .unwrap();
    assert_eq!(editor.journal_health(), JournalHealth::On);
    assert!(
        files_in(&blocked).iter().all(|f| f.ends_with(".journal")),
        "{:?}",
        files_in(&blocked)
    );
    drop(editor); // a crash
    let mut next = Editor::new(Document::sample());
    next.start_journal(blocked);
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(
        next.doc().scene().node(NodeId(2)).unwrap().name.as_str(),
        "unsaved"
    );
    assert!(next.doc().is_modified(), "recovered work is unsaved work");
}

#[test]
fn a_second_window_asks_before_overwriting_newer_work() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.ron");
    std::fs::write(&path, version("first")).unwrap();
    let mut b = Editor::new(Document::open(&path).unwrap());
    let mut c = Editor::new(Document::open(&path).unwrap());
    c.apply(rename(2, "saved by C")).unwrap();
    c.apply(Command::File(FileCommand::Save)).unwrap();
    b.apply(rename(3, "edited in B")).unwrap();
    b.apply(Command::File(FileCommand::Save)).unwrap();
    let conflict = b
        .disk_conflict()
        .expect("B asks before overwriting C's save");
    assert_eq!(conflict.reason, ConflictReason::Saving);
    assert_eq!(name_on_disk(&path, 2), "saved by C");
    // Quit → Save waits for the answer; Overwrite saves, then quits.
    b.apply(Command::File(FileCommand::AnswerConflict(
        ConflictAnswer::Cancel,
    )))
    .unwrap();
    b.apply(Command::File(FileCommand::Quit)).unwrap();
    b.apply(Command::File(FileCommand::AnswerGuard(GuardAnswer::Save)))
        .unwrap();
    assert!(
        b.disk_conflict().is_some() && !b.quit_requested(),
        "nothing was overwritten"
    );
    b.apply(Command::File(FileCommand::AnswerConflict(
        ConflictAnswer::Overwrite,
    )))
    .unwrap();
    assert!(b.quit_requested(), "the quit went on after the save");
    assert_eq!(name_on_disk(&path, 3), "edited in B");
    // C now notices B's save by itself and can reload it.
    c.tick(0.016);
    assert_eq!(
        c.disk_conflict().map(|c| c.reason.clone()),
        Some(ConflictReason::Noticed)
    );
    c.apply(Command::File(FileCommand::AnswerConflict(
        ConflictAnswer::Reload,
    )))
    .unwrap();
    assert_eq!(
        c.doc().scene().node(NodeId(3)).unwrap().name.as_str(),
        "edited in B"
    );
    // A touch with the same bytes is not a change.
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(std::time::SystemTime::now() + Duration::from_secs(3))
        .unwrap();
    c.apply(rename(2, "C again")).unwrap();
    c.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(c.disk_conflict().is_none());
}

#[test]
fn a_big_scenes_edits_reach_the_journal_with_no_frame_or_event() {
    let dir = tempfile::tempdir().unwrap();
    let scene = graft::tools::generate::generate(graft::tools::generate::GenShape::Wide, 40_000, 1);
    let mut editor = Editor::new(Document::untitled(scene));
    editor.start_journal(dir.path().to_path_buf());
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            5,
        )])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Duplicate)).unwrap();
    editor.apply(Command::Edit(EditCommand::Duplicate)).unwrap();
    let journal_path = editor.journal_path().unwrap().to_path_buf();
    let started = Instant::now();
    // No tick, no command: only the journal's own threads may write.
    let edits = loop {
        let bytes = std::fs::read(&journal_path).unwrap_or_default();
        let edits = journal::summarize(&bytes).map_or(0, |s| s.edits);
        if edits == 2 || started.elapsed() > Duration::from_secs(20) {
            break edits;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    eprintln!(
        "two duplicates in the journal after {:?}",
        started.elapsed()
    );
    assert_eq!(edits, 2);
    drop(editor);
}

#[test]
fn a_five_megabyte_name_is_refused_everywhere_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "x".repeat(5 << 20);
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.path().to_path_buf());
    let err = editor.apply(rename(2, &huge)).expect_err("refused");
    assert!(
        err.to_string().len() < 300,
        "the message does not echo the name"
    );
    assert_eq!(editor.doc().history().labels().1, 0, "nothing changed");
    editor.apply(rename(2, "short")).unwrap();
    drop(editor);
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.path().to_path_buf());
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(
        next.doc().scene().node(NodeId(2)).unwrap().name.as_str(),
        "short"
    );
    // A file holding such a name is refused with a message, not a panic.
    let text = file::to_ron_string(Document::sample().scene()).replacen(
        "\"body\"",
        &format!("\"{huge}\""),
        1,
    );
    let path = dir.path().join("huge.ron");
    std::fs::write(&path, text).unwrap();
    let err = Document::open(&path).expect_err("refused");
    assert!(err.to_string().contains("4096 bytes"), "{err}");
    assert!(err.to_string().len() < 600);
}

#[test]
fn a_recovery_that_stopped_graft_is_set_aside_not_offered_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut crashed = Editor::new(Document::sample());
    crashed.start_journal(dir.path().to_path_buf());
    crashed.apply(rename(2, "lost?")).unwrap();
    let journal_path = crashed.journal_path().unwrap().to_path_buf();
    drop(crashed);
    // The next start recovers, and graft dies drawing the result (the mark stays).
    let mut second = Editor::new(Document::sample());
    second.start_journal(dir.path().to_path_buf());
    second
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    assert!(journal_path.with_extension("recovering").exists());
    drop(second);
    let mut third = Editor::new(Document::sample());
    third.start_journal(dir.path().to_path_buf());
    assert!(third.recovery_offer().is_none(), "not offered in a loop");
    assert!(
        journal_path.with_extension("discarded").exists(),
        "{:?}",
        files_in(dir.path())
    );
    assert!(
        third
            .messages()
            .iter()
            .any(|m| m.text.contains("set aside"))
    );
    // A recovery that draws fine lifts its mark after a few frames.
    let mut fourth_dir_session = Editor::new(Document::sample());
    let other = tempfile::tempdir().unwrap();
    fourth_dir_session.start_journal(other.path().to_path_buf());
    fourth_dir_session.apply(rename(2, "fine")).unwrap();
    drop(fourth_dir_session);
    let mut fine = Editor::new(Document::sample());
    fine.start_journal(other.path().to_path_buf());
    fine.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    for _ in 0..4 {
        fine.tick(0.016);
    }
    assert!(
        files_in(other.path())
            .iter()
            .all(|f| !f.ends_with(".recovering"))
    );
}

#[test]
fn the_prompt_says_when_a_journal_is_older_than_the_saved_file_and_counts_a_drag_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut editor, scene) = journaled_on_file(dir.path());
    // The viewport's drag of the arm ("Move arm"), 18 frames.
    let from = editor.doc().scene().world(NodeId(2)).unwrap().translation;
    let drag = std::sync::Arc::new(graft::editor::view::pointer::MoveDrag {
        start_pointer: glam::DVec2::ZERO,
        starts: vec![(NodeId(2), from)],
    });
    for k in 1..=18 {
        let command = PanelCommand::MoveSelection {
            drag: std::sync::Arc::clone(&drag),
            pointer: glam::DVec2::new(f64::from(k), 0.0),
            snap: None,
        };
        editor.apply(Command::Panel(command)).unwrap();
    }
    editor
        .apply(Command::History(HistoryCommand::EndGesture))
        .unwrap();
    drop(editor);
    // Another program saves the file after the journal's last write.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&scene, version("newer")).unwrap();
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.path().join("journal"));
    let offer = next.recovery_offer().expect("offered");
    assert_eq!(offer.edits, 1, "a drag of 18 frames is one edit");
    assert!(offer.older_than_file.is_some(), "{offer:?}");
    // Recovered anyway, its first save asks before overwriting the newer file.
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    next.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(next.disk_conflict().is_some(), "the save asks first");
    assert_eq!(name_on_disk(&scene, 1), "newer");
}

#[test]
fn a_drag_that_never_moved_makes_no_undo_step() {
    let mut editor = Editor::new(Document::sample());
    let arm = editor.doc().scene().node(NodeId(2)).unwrap().local;
    for _ in 0..3 {
        editor
            .perform_ops(
                "Move arm",
                vec![Op::SetLocal {
                    node: NodeId(2),
                    local: arm,
                }],
                true,
            )
            .unwrap();
    }
    editor
        .apply(Command::History(HistoryCommand::EndGesture))
        .unwrap();
    assert_eq!(editor.doc().history().labels().0.len(), 0);
}

#[test]
fn a_killed_window_is_offered_to_a_window_that_was_already_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut running = Editor::new(Document::sample());
    running.start_journal(dir.path().to_path_buf());
    assert!(running.recovery_offer().is_none());
    let mut killed = Editor::new(Document::sample());
    killed.start_journal(dir.path().to_path_buf());
    killed.apply(rename(2, "killed")).unwrap();
    let killed_journal = killed.journal_path().unwrap().to_path_buf();
    drop(killed); // kill -9
    // The journal's lock goes with its last file handle; a child another test forks in this
    // process may hold a copy until it execs (two grafts are two processes: never so there).
    let started = Instant::now();
    while graft::editor::session::journal_scan::is_held(&killed_journal) {
        assert!(started.elapsed() < Duration::from_secs(10), "still locked");
        std::thread::sleep(Duration::from_millis(10));
    }
    running.tick(0.016);
    let offer = running.recovery_offer().expect("offered without a restart");
    assert_eq!(offer.edits, 1);
}

/// A 30,000-node scene (above the size whose journal names its file) saved in `dir`.
fn big_file(dir: &Path) -> PathBuf {
    let scene =
        graft::tools::generate::generate(graft::tools::generate::GenShape::Random, 30_000, 3);
    let path = dir.join("big.ron");
    file::save(&scene, &path).unwrap();
    path
}

/// A journaled session on [`big_file`]: the editor, the file and the journal folder.
fn big_session(dir: &Path) -> (Editor, PathBuf, PathBuf) {
    let path = big_file(dir);
    let journal_dir = dir.join("journal");
    let mut editor = Editor::new(Document::open(&path).unwrap());
    editor.start_journal(journal_dir.clone());
    (editor, path, journal_dir)
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Wait until the journal's summary shows `edits` edits (its threads write by themselves).
fn wait_for_edits(journal_path: &Path, edits: usize) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let bytes = std::fs::read(journal_path).unwrap_or_default();
        if journal::summarize(&bytes).is_ok_and(|s| s.edits == edits) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the journal never showed {edits} edits");
}

#[test]
fn opening_a_big_file_without_edits_writes_almost_nothing_to_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let (mut editor, path, journal_dir) = big_session(dir.path());
    editor.tick(0.016);
    let written = folder_bytes(&journal_dir);
    eprintln!(
        "journal folder after opening a {} byte file: {written} bytes",
        std::fs::metadata(&path).unwrap().len()
    );
    assert!(written < 4096, "{written} bytes");
    editor.end_journal();
    assert_eq!(files_in(&journal_dir), Vec::<String>::new());
}

#[test]
fn a_big_files_edits_recover_exactly_even_when_the_file_is_rewritten_or_deleted() {
    for after_the_edit in ["rewritten", "deleted"] {
        let dir = tempfile::tempdir().unwrap();
        let (mut editor, path, journal_dir) = big_session(dir.path());
        editor.apply(rename(5, "edited")).unwrap();
        editor.apply(rename(6, "edited too")).unwrap();
        let journal_path = editor.journal_path().unwrap().to_path_buf();
        wait_for_edits(&journal_path, 2);
        let expected = file::to_ron_string(editor.doc().scene());
        // Another program changes the file after the first edit, then graft is killed.
        match after_the_edit {
            "rewritten" => std::fs::write(&path, version("someone else's")).unwrap(),
            _ => std::fs::remove_file(&path).unwrap(),
        }
        drop(editor);
        let mut next = Editor::new(Document::sample());
        next.start_journal(journal_dir.clone());
        next.apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
        assert_eq!(
            file::to_ron_string(next.doc().scene()),
            expected,
            "{after_the_edit}"
        );
        assert_eq!(
            next.doc().history().labels().1,
            2,
            "{after_the_edit}: undo goes back through both"
        );
        next.end_journal();
    }
}

#[test]
fn a_big_file_saved_before_its_first_edit_still_recovers_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = big_file(dir.path());
    // A hand-made file: the first save rewrites its bytes (the comment goes).
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("// made by hand\n{text}")).unwrap();
    let journal_dir = dir.path().join("journal");
    let mut editor = Editor::new(Document::open(&path).unwrap());
    editor.start_journal(journal_dir.clone());
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    editor.apply(rename(5, "after the save")).unwrap();
    let journal_path = editor.journal_path().unwrap().to_path_buf();
    wait_for_edits(&journal_path, 1);
    let expected = file::to_ron_string(editor.doc().scene());
    drop(editor);
    let mut next = Editor::new(Document::sample());
    next.start_journal(journal_dir);
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(file::to_ron_string(next.doc().scene()), expected);
}

#[test]
fn a_big_journal_whose_base_is_gone_or_changed_says_so_plainly() {
    for (what, said) in [("deleted", "cannot be read"), ("changed", "changed since")] {
        let dir = tempfile::tempdir().unwrap();
        let (mut editor, _path, journal_dir) = big_session(dir.path());
        editor.apply(rename(5, "edited")).unwrap();
        let journal_path = editor.journal_path().unwrap().to_path_buf();
        wait_for_edits(&journal_path, 1);
        drop(editor); // waits for the copy of the base
        for entry in std::fs::read_dir(&journal_dir).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "base") {
                match what {
                    "deleted" => std::fs::remove_file(entry.path()).unwrap(),
                    _ => std::fs::write(entry.path(), version("another scene")).unwrap(),
                }
            }
        }
        let mut next = Editor::new(Document::sample());
        next.start_journal(journal_dir);
        let err = next
            .apply(Command::Journal(JournalCommand::AnswerRecovery(
                RecoveryAnswer::Recover,
            )))
            .expect_err("the base is not the journal's");
        assert!(err.to_string().contains(said), "{what}: {err}");
    }
}

#[test]
fn the_window_refuses_endless_and_special_files_at_once_and_keeps_its_scene() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.ron");
    let made = Process::new("mkfifo").arg(&fifo).status();
    let zero_tscn = dir.path().join("zero.tscn");
    std::os::unix::fs::symlink("/dev/zero", &zero_tscn).unwrap();
    let mut inputs = vec![
        PathBuf::from("/dev/zero"),
        PathBuf::from("/dev/urandom"),
        zero_tscn,
        dir.path().to_path_buf(),
    ];
    if made.is_ok_and(|s| s.success()) {
        inputs.push(fifo);
    }
    let mut editor = Editor::new(Document::sample());
    let before = file::to_ron_string(editor.doc().scene());
    for input in inputs {
        let started = Instant::now();
        let result = editor.apply(Command::File(FileCommand::OpenPath(input.clone())));
        assert!(result.is_err(), "{} was opened", input.display());
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{}",
            input.display()
        );
        let message = &editor.messages().last().unwrap().text;
        assert!(
            message.contains("not a regular file") || message.contains("folder"),
            "{message}"
        );
        assert_eq!(file::to_ron_string(editor.doc().scene()), before);
    }
}
