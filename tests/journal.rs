//! The crash journal end to end: a session journaled, dropped without a clean end (a crash),
//! then recovered by a new session with its scene and whole undo history; clean ends, Discard,
//! Later, two sessions, cut and damaged journals, a newer format, and `graft recover`.

mod common;

use graft::editor::session::Editor;
use graft::editor::session::command::{Command, FileCommand, HistoryCommand, JournalCommand};
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file::to_ron_string;
use graft::model::journal::{self, Stop};
use graft::tools::recover::drill;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "graft-journal-test-{name}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn journals(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    found.sort();
    found
}

/// The scene as text (floats written exactly) and its next id: equal means bit-equal.
fn state(doc: &Document) -> (String, u32) {
    (to_ron_string(doc.scene()), doc.scene().next_id().0)
}

/// A journaled session on the sample, edited by the drill script, then "crashed" (dropped
/// without a clean end). Returns the states after every step.
fn crashed_session(dir: &Path, seed: u64, steps: usize) -> Vec<(String, u32)> {
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.to_path_buf());
    assert!(editor.journal_path().is_some(), "{:?}", editor.messages());
    let mut states = vec![state(editor.doc())];
    drill(&mut editor, seed, steps, |_| {});
    states.push(state(editor.doc()));
    drop(editor);
    states
}

#[test]
fn a_crashed_session_comes_back_with_its_whole_history() {
    let dir = temp_dir("whole");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    let mut states = vec![state(editor.doc())];
    drill(&mut editor, 7, 300, |_| {});
    states.push(state(editor.doc()));
    let (labels, done) = {
        let (labels, done) = editor.doc().history().labels();
        (
            labels.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            done,
        )
    };
    assert!(done > 5, "the drill made history: {done}");
    drop(editor); // a crash: no end_journal

    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    let offer = next
        .recovery_offer()
        .expect("the crashed journal is offered");
    assert_eq!(offer.document, "untitled");
    assert!(offer.edits > 0 && offer.unsaved_changes > 0, "{offer:?}");
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert!(next.recovery_offer().is_none());
    assert_eq!(state(next.doc()), states[1], "the scene, bit for bit");
    let (got, got_done) = next.doc().history().labels();
    assert_eq!(
        (got.len(), got_done),
        (labels.len(), done),
        "the same history"
    );
    assert!(next.doc().is_modified(), "recovered work is unsaved");
    let message = &next.last_message().unwrap().text;
    assert!(message.starts_with("Recovered "), "{message}");

    // Undo goes back through all of it, to the sample; redo comes back.
    while next.doc().history().undo_label().is_some() {
        next.apply(Command::History(HistoryCommand::Undo)).unwrap();
    }
    // (ids are never given out twice, so only the next free id stays where the session left it)
    assert_eq!(state(next.doc()).0, states[0].0, "undo all = the start");
    next.apply(Command::History(HistoryCommand::JumpHistory(done)))
        .unwrap();
    assert_eq!(state(next.doc()), states[1], "redo = the end");

    // The recovered session goes on journaling into the same file; quitting without saving
    // sets it aside.
    let path = next.journal_path().unwrap().to_path_buf();
    assert!(path.exists());
    next.end_journal();
    assert!(!path.exists());
    assert_eq!(journals(&dir, "discarded").len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_recovered_session_that_crashes_again_recovers_again() {
    let dir = temp_dir("twice");
    let first = crashed_session(&dir, 11, 120);
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    editor
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    assert_eq!(state(editor.doc()), first[1]);
    drill(&mut editor, 12, 80, |_| {});
    let second = state(editor.doc());
    drop(editor);
    let mut again = Editor::new(Document::sample());
    again.start_journal(dir.clone());
    again
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    assert_eq!(state(again.doc()), second);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_clean_end_leaves_nothing_to_recover() {
    let dir = temp_dir("clean");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    assert_eq!(journals(&dir, "journal").len(), 1);
    editor.end_journal();
    assert!(journals(&dir, "journal").is_empty());
    assert!(
        journals(&dir, "discarded").is_empty(),
        "nothing was unsaved"
    );
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    assert!(next.recovery_offer().is_none());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn quitting_with_discarded_changes_sets_the_journal_aside() {
    let dir = temp_dir("quit-discard");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    drill(&mut editor, 3, 40, |_| {});
    assert!(editor.doc().is_modified());
    editor.end_journal();
    assert!(journals(&dir, "journal").is_empty());
    assert_eq!(journals(&dir, "discarded").len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn discard_keeps_the_journal_aside_and_later_asks_again() {
    let dir = temp_dir("answers");
    crashed_session(&dir, 5, 60);
    let mut later = Editor::new(Document::sample());
    later.start_journal(dir.clone());
    assert!(later.recovery_offer().is_some());
    later
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Later,
        )))
        .unwrap();
    let before = state(later.doc());
    assert_eq!(before, state(&Document::sample()), "Later changes nothing");
    later.end_journal();

    let mut discard = Editor::new(Document::sample());
    discard.start_journal(dir.clone());
    assert!(discard.recovery_offer().is_some(), "Later asks again");
    discard
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Discard,
        )))
        .unwrap();
    assert_eq!(journals(&dir, "discarded").len(), 1, "kept, not deleted");
    discard.end_journal();

    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    assert!(
        next.recovery_offer().is_none(),
        "a discarded journal is not offered"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_live_session_is_never_offered_to_another() {
    let dir = temp_dir("live");
    let mut first = Editor::new(Document::sample());
    first.start_journal(dir.clone());
    drill(&mut first, 9, 30, |_| {});
    let mut second = Editor::new(Document::sample());
    second.start_journal(dir.clone());
    assert!(
        second.recovery_offer().is_none(),
        "the first session holds its journal"
    );
    assert_ne!(first.journal_path(), second.journal_path());
    // Both write their own journal: a crash of the first is still recovered whole.
    let end = state(first.doc());
    drop(first);
    second.end_journal();
    let mut third = Editor::new(Document::sample());
    third.start_journal(dir.clone());
    third
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    assert_eq!(state(third.doc()), end);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn opening_a_file_another_session_journals_says_so() {
    let dir = temp_dir("elsewhere");
    let scene = dir.join("scene.ron");
    graft::model::file::save(Document::sample().scene(), &scene).unwrap();
    let mut first = Editor::new(Document::sample());
    first.start_journal(dir.clone());
    first
        .apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    assert!(first.error().is_none(), "{:?}", first.error());
    let mut second = Editor::new(Document::sample());
    second.start_journal(dir.clone());
    second
        .apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    let error = second.error().expect("told it is open elsewhere");
    assert!(
        error.contains("also open in another graft window"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_newer_journal_is_refused_and_left_in_place() {
    let dir = temp_dir("newer");
    crashed_session(&dir, 1, 20);
    let path = journals(&dir, "journal").remove(0);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&(journal::FORMAT + 1).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    assert!(editor.recovery_offer().is_none());
    let said = editor
        .messages()
        .iter()
        .any(|m| m.text.contains("newer graft"));
    assert!(said, "{:?}", editor.messages());
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "left as it was");
    let _ = std::fs::remove_dir_all(dir);
}

/// A journal an older graft wrote (format 4: no follow's table edits) is still read: the
/// same scene comes back.
#[test]
fn a_format_4_journal_is_still_recovered() {
    assert_eq!(journal::FORMAT, 6);
    let dir = temp_dir("format4");
    let states = crashed_session(&dir, 31, 40);
    let path = journals(&dir, "journal").remove(0);
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        bytes[8..12],
        6u32.to_le_bytes(),
        "this graft writes format 6"
    );
    bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    assert!(editor.recovery_offer().is_some(), "{:?}", editor.messages());
    editor
        .apply(Command::Journal(JournalCommand::AnswerRecovery(
            RecoveryAnswer::Recover,
        )))
        .unwrap();
    assert_eq!(state(editor.doc()), states[1], "the scene, bit for bit");
    let _ = std::fs::remove_dir_all(dir);
}

/// The states a drill passes through, from the sample, without a journal (the same script
/// as `drill`, a state kept after each command).
fn drill_states(seed: u64, steps: usize) -> Vec<(String, u32)> {
    let mut editor = Editor::new(Document::sample());
    let mut states = vec![state(editor.doc())];
    let mut script = fastrand::Rng::with_seed(seed);
    for _ in 0..steps {
        for command in graft::tools::recover::drill_step(&mut script, &editor) {
            let _ = editor.apply(command);
        }
        states.push(state(editor.doc()));
    }
    states
}

/// One small journal and the state after each of its changes.
fn small_journal() -> (Vec<u8>, Vec<(String, u32)>) {
    let dir = temp_dir("small");
    crashed_session(&dir, 21, 25);
    let bytes = std::fs::read(journals(&dir, "journal").remove(0)).unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (bytes, drill_states(21, 25))
}

#[test]
fn a_journal_cut_at_any_byte_recovers_a_state_the_session_passed_through() {
    let (bytes, states) = small_journal();
    let whole = journal::recover(&bytes).unwrap();
    assert_eq!(whole.stop, Stop::End);
    assert_eq!(&state(&whole.document), states.last().unwrap());
    let mut last_changes = 0;
    let base_end = {
        let mut frames = journal::Frames::new(&bytes).unwrap();
        frames.next_payload().unwrap();
        frames.next_payload().unwrap();
        frames.offset()
    };
    for cut in 0..bytes.len() {
        match journal::recover(&bytes[..cut]) {
            Ok(got) => {
                assert!(cut >= base_end, "recovered without its base at {cut}");
                assert!(states.contains(&state(&got.document)), "cut at {cut}");
                assert!(
                    got.changes >= last_changes,
                    "a longer prefix never recovers less"
                );
                assert_eq!(got.stop == Stop::End, got.whole_bytes == cut);
                last_changes = got.changes;
            }
            Err(e) => assert!(cut < base_end, "cut at {cut} refused: {e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn a_damaged_journal_never_panics_and_never_invents_a_state(
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
    ) {
        let (mut bytes, states) = SMALL.with(|s| s.clone());
        let k = at.index(bytes.len());
        bytes[k] ^= 1 << bit;
        if let Ok(got) = journal::recover(&bytes) {
            prop_assert!(states.contains(&state(&got.document)), "flip at byte {}", k);
        }
        let _ = journal::summarize(&bytes);
    }
}

thread_local! {
    static SMALL: (Vec<u8>, Vec<(String, u32)>) = small_journal();
}

#[test]
fn graft_recover_lists_and_writes_and_refuses_garbage() {
    let dir = temp_dir("cli");
    // A running session first (a later start would hold the crashed journal as its offer).
    let mut live = Editor::new(Document::sample());
    live.start_journal(dir.clone());
    drill(&mut live, 6, 10, |_| {});
    let live_path = live.journal_path().unwrap().to_path_buf();
    let states = crashed_session(&dir, 4, 50);
    let id = journals(&dir, "journal")
        .into_iter()
        .find(|p| *p != live_path)
        .unwrap()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let graft = env!("CARGO_BIN_EXE_graft");
    let listed = std::process::Command::new(graft)
        .args(["recover", "--list", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.status.success());
    assert!(text.contains(&id) && text.contains("untitled"), "{text}");
    let crashed_line = text.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(!crashed_line.contains("running graft"), "{text}");
    let live_line = text
        .lines()
        .find(|l| !l.starts_with(&id))
        .expect("the live journal");
    assert!(live_line.contains("(open in a running graft)"), "{text}");
    drop(live);
    let out = dir.join("out.ron");
    let wrote = std::process::Command::new(graft)
        .args(["recover", &id, "-o"])
        .arg(&out)
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        wrote.status.success(),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    let back = graft::model::file::load(&out).unwrap();
    assert_eq!(to_ron_string(&back), states[1].0);

    let garbage = dir.join("garbage.journal");
    std::fs::write(&garbage, b"not a journal at all").unwrap();
    let refused_out = dir.join("nothing.ron");
    let refused = std::process::Command::new(graft)
        .args(["recover", "garbage", "-o"])
        .arg(&refused_out)
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a graft journal"));
    assert!(!refused_out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn debug_summary() {
    let dir = temp_dir("dbg");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    drill(&mut editor, 7, 300, |_| {});
    eprintln!(
        "msgs {:?}",
        editor
            .messages()
            .iter()
            .filter(|m| m.is_error)
            .take(3)
            .collect::<Vec<_>>()
    );
    eprintln!("journal {:?}", editor.journal_path());
    drop(editor);
    for p in journals(&dir, "journal") {
        let b = std::fs::read(&p).unwrap();
        let s = journal::summarize(&b).unwrap();
        eprintln!(
            "{} bytes {:?} edits {} changes {} unsaved {} stop {:?}",
            b.len(),
            p,
            s.edits,
            s.changes,
            s.unsaved_changes,
            s.stop
        );
    }
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    eprintln!(
        "offer {:?} msgs {:?}",
        next.recovery_offer(),
        next.messages()
    );
}

#[test]
fn compaction_merges_a_drag_and_recovers_the_same_scene_and_history() {
    use graft::editor::session::journal_store::JournalFile;
    use graft::model::math::Trs;
    use graft::model::scene::NodeId;
    use graft::model::scene::edit::Op;
    let dir = temp_dir("compact");
    let mut doc = Document::sample();
    let mut file = JournalFile::create(&dir, &doc).unwrap();
    doc.listen(true);
    for frame in 0..2000 {
        let local = Trs {
            position: glam::Vec2::new(frame as f32 * 0.01, 1.0),
            ..Trs::default()
        };
        let op = Op::SetLocal {
            node: NodeId(2),
            local,
        };
        doc.perform_gesture("Drag arm", vec![op], 1).unwrap();
        file.record(&mut doc).unwrap();
    }
    doc.end_gesture();
    doc.undo().unwrap();
    doc.redo().unwrap();
    file.record(&mut doc).unwrap();
    let long = file.len();
    file.compact(&doc).unwrap();
    let short = file.len();
    assert!(
        short * 20 < long,
        "2000 drag frames compact to one step: {long} -> {short} bytes"
    );
    // Appending goes on after a compaction.
    doc.undo().unwrap();
    file.record(&mut doc).unwrap();
    let path = file.path().to_path_buf();
    drop(file);
    let recovered = journal::recover(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(recovered.stop, Stop::End);
    assert_eq!(state(&recovered.document), state(&doc));
    assert_eq!(
        recovered.document.history().labels(),
        doc.history().labels(),
        "the same undo and redo stacks"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_big_scene_is_journaled_from_a_thread_and_recovers() {
    let dir = temp_dir("big");
    let scene =
        graft::tools::generate::generate(graft::tools::generate::GenShape::Random, 30_000, 3);
    let mut editor = Editor::new(Document::untitled(scene));
    editor.start_journal(dir.clone());
    drill(&mut editor, 8, 40, |_| {});
    let end = state(editor.doc());
    drop(editor); // waits for the base, writes what waited, keeps the journal
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(state(next.doc()), end);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn reopening_the_crashed_file_is_not_open_elsewhere() {
    let dir = temp_dir("reopen");
    let scene = dir.join("scene.ron");
    graft::model::file::save(Document::sample().scene(), &scene).unwrap();
    let mut first = Editor::new(Document::sample());
    first.start_journal(dir.clone());
    first
        .apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    drill(&mut first, 2, 10, |_| {});
    drop(first); // a crash
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    next.apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    assert!(next.recovery_offer().is_some());
    assert!(
        next.error().is_none(),
        "the orphan is ours, not another window's: {:?}",
        next.error()
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_save_is_the_clean_point_the_journal_remembers() {
    let dir = temp_dir("save");
    let scene = dir.join("scene.ron");
    graft::model::file::save(Document::sample().scene(), &scene).unwrap();
    // Edits, then a save, then a crash: nothing unsaved, nothing offered.
    let mut saved = Editor::new(Document::sample());
    saved.start_journal(dir.clone());
    saved
        .apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    drill(&mut saved, 31, 20, |_| {});
    saved.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(!saved.doc().is_modified());
    drop(saved);
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    assert!(next.recovery_offer().is_none(), "everything was saved");
    // Edits after a save: those are offered, and undo back to the save is clean again.
    next.apply(Command::File(FileCommand::OpenPath(scene.clone())))
        .unwrap();
    drill(&mut next, 32, 12, |_| {});
    next.apply(Command::File(FileCommand::Save)).unwrap();
    let at_save = state(next.doc());
    let done_at_save = next.doc().history().labels().1;
    let rng = &mut fastrand::Rng::with_seed(33);
    let mut edits = 0;
    while edits < 3 {
        let before = state(next.doc());
        for command in graft::tools::recover::drill_step(rng, &next) {
            let _ = next.apply(command);
        }
        edits += usize::from(state(next.doc()) != before);
    }
    assert!(next.doc().is_modified());
    drop(next);
    let mut last = Editor::new(Document::sample());
    last.start_journal(dir.clone());
    let offer = last.recovery_offer().expect("the edits after the save");
    assert!(offer.document.ends_with("scene.ron"), "{offer:?}");
    last.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert!(last.doc().is_modified());
    assert_eq!(last.doc().path(), Some(scene.as_path()));
    last.apply(Command::History(HistoryCommand::JumpHistory(done_at_save)))
        .unwrap();
    assert_eq!(state(last.doc()).0, at_save.0);
    assert!(!last.doc().is_modified(), "the saved state is clean");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn save_as_moves_the_journaled_document_and_a_recovery_keeps_the_new_file() {
    use graft::editor::session::dialogs::DialogOutcome;
    let dir = temp_dir("save-as");
    let target = dir.join("renamed.ron");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    drill(&mut editor, 41, 10, |_| {});
    editor.apply(Command::File(FileCommand::SaveAs)).unwrap();
    editor
        .apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(target.clone()),
        )))
        .unwrap();
    assert_eq!(editor.doc().path(), Some(target.as_path()));
    let rng = &mut fastrand::Rng::with_seed(42);
    while !editor.doc().is_modified() {
        for command in graft::tools::recover::drill_step(rng, &editor) {
            let _ = editor.apply(command);
        }
    }
    let end = state(editor.doc());
    drop(editor);
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    let offer = next
        .recovery_offer()
        .expect("unsaved edits after the Save As");
    assert_eq!(
        offer.document,
        target.to_string_lossy(),
        "the file it lives in now"
    );
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(next.doc().path(), Some(target.as_path()));
    assert_eq!(state(next.doc()), end);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_journal_that_cannot_be_replayed_is_refused_and_left_in_place() {
    let dir = temp_dir("bad-base");
    // Whole, checksummed records, but the base scene is not a scene: the summary reads, the
    // recovery cannot.
    let mut bytes = journal::header();
    let begin = journal::Begin {
        path: None,
        started: 0,
        graft: "test".into(),
    };
    bytes.extend(journal::frame(&journal::Record::Begin(begin)).unwrap());
    let base = journal::Record::Base {
        ron: "(format: 3, nodes: [(id: 1, parent: Some(9))])".into(),
        next_id: 2,
    };
    bytes.extend(journal::frame(&base).unwrap());
    bytes.extend(
        journal::frame(&journal::Record::Change(
            graft::model::scene::edit::Change::Undo,
        ))
        .unwrap(),
    );
    let path = dir.join("broken.journal");
    std::fs::write(&path, &bytes).unwrap();
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    assert!(
        editor.recovery_offer().is_some(),
        "it has an unsaved change to offer"
    );
    let refused = editor.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )));
    let message = refused.expect_err("cannot be recovered").to_string();
    assert!(message.contains("left in place"), "{message}");
    assert_eq!(
        state(editor.doc()),
        state(&Document::sample()),
        "the scene is untouched"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the journal is as it was"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn far_and_extreme_numbers_come_back_bit_for_bit() {
    use graft::model::math::Trs;
    use graft::model::scene::NodeId;
    let dir = temp_dir("far");
    let mut editor = Editor::new(Document::sample());
    editor.start_journal(dir.clone());
    let values = [
        (1e7, -1e7, 1e-6, 37.12346),
        (1e5, 3.3e5, 1e6, -179.9999),
        (-1.234_568e7, 7.654_321e6, 2.5e-6, 0.000_1),
    ];
    for (k, (x, y, s, r)) in values.into_iter().enumerate() {
        let local = Trs::new(glam::Vec2::new(x, y), r, glam::Vec2::new(s, -s), 0.25);
        let node = NodeId(1 + k as u32);
        editor.apply(common::paste_local(node, local)).unwrap();
    }
    let end = state(editor.doc());
    drop(editor);
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.clone());
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(state(next.doc()), end);
    for k in 0..3u32 {
        let (a, b) = (next.doc().scene().node(NodeId(1 + k)).unwrap().local, {
            let (x, y, s, r) = values[k as usize];
            Trs::new(glam::Vec2::new(x, y), r, glam::Vec2::new(s, -s), 0.25)
        });
        assert_eq!(
            (
                a.position.x.to_bits(),
                a.scale.y.to_bits(),
                a.rotation.to_bits()
            ),
            (
                b.position.x.to_bits(),
                b.scale.y.to_bits(),
                b.rotation.to_bits()
            )
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A journal on the sample scene holding one step of `edits` (checksums right, as the fuzz
/// target writes them), and the sample's text.
fn journal_with_one_step(
    label: &str,
    edits: Vec<graft::model::scene::edit::Edit>,
) -> (Vec<u8>, String) {
    use graft::model::journal::{Begin, Record};
    use graft::model::scene::edit::Change;
    let base = to_ron_string(Document::sample().scene());
    let records = [
        Record::Begin(Begin {
            path: None,
            started: 0,
            graft: "fuzz".into(),
        }),
        Record::Base {
            ron: base.clone(),
            next_id: 100,
        },
        Record::Change(Change::Step {
            label: label.into(),
            edits,
            gesture: None,
        }),
    ];
    let mut bytes = journal::header();
    for record in &records {
        bytes.extend(journal::frame(record).unwrap());
    }
    (bytes, base)
}

/// Found by `cargo fuzz run journal` (fuzz/README.md): a journal whose checksums hold but
/// whose step removes a subtree with no node (no graft writes one; a buggy or hand-made
/// journal can) panicked the recovery, indexing the subtree's missing root. The step is now
/// refused like any change that does not replay: recovery stops there, with the base scene.
#[test]
fn a_journal_removing_a_subtree_with_no_node_is_refused_not_a_panic() {
    use graft::model::scene::DetachedSubtree;
    use graft::model::scene::edit::Edit;
    let (bytes, base) = journal_with_one_step(
        "Delete",
        vec![Edit::Remove(DetachedSubtree {
            parent: None,
            index: 0,
            ids: Vec::new(),
            data: Vec::new(),
            parents: Vec::new(),
        })],
    );
    let summary = journal::summarize(&bytes).expect("summarizes");
    assert_eq!(summary.edits, 1);
    let recovered = journal::recover(&bytes).expect("recovers what came before");
    assert_eq!(recovered.stop, Stop::Corrupt);
    assert_eq!(recovered.changes, 0);
    assert_eq!(to_ron_string(recovered.document.scene()), base);
}

/// Found by `cargo fuzz run journal` (fuzz/README.md): a journal whose checksums hold but
/// whose step inserts a node with a rect of width -inf replayed it (an insert checked only the
/// local transform), so the recovered scene saved a file that does not load ("shape size is
/// not finite"). An insert now refuses what the setters refuse; recovery stops there.
#[test]
fn a_journal_inserting_a_non_finite_shape_is_refused_and_the_scene_still_loads() {
    use graft::model::scene::edit::Edit;
    use graft::model::scene::{DetachedSubtree, NodeId, Shape};
    let mut data = Document::sample().scene().data_at(0).clone();
    data.shape = Shape::Rect {
        size: glam::Vec2::new(f32::NEG_INFINITY, 1.0),
    };
    let (bytes, base) = journal_with_one_step(
        "Add node",
        vec![Edit::Insert(DetachedSubtree {
            parent: None,
            index: 0,
            ids: vec![NodeId(100)],
            data: vec![data],
            parents: vec![u32::MAX],
        })],
    );
    let recovered = journal::recover(&bytes).expect("recovers what came before");
    assert_eq!(recovered.stop, Stop::Corrupt);
    assert_eq!(recovered.changes, 0);
    let saved = to_ron_string(recovered.document.scene());
    assert_eq!(saved, base);
    graft::model::file::parse(&saved, Path::new("recovered.ron")).expect("loads");
}
