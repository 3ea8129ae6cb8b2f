//! Issue 46: a journal folder too small for a big scene's base (a full disk, injected: every
//! base file fails with "no space left on device", as on a 300 KB tmpfs). The first edit's
//! record still reaches the journal that names the unchanged file; every retry leaves that
//! journal in place until a fresh one is whole on disk; the journal is said to be written
//! again only when it is (and then it holds every edit). One test: the injection is global.

use graft::editor::session::Editor;
use graft::editor::session::command::{Command, JournalCommand, PanelCommand};
use graft::editor::session::journal::{JournalHealth, RecoveryAnswer};
use graft::editor::session::journal_base::set_full_for_tests;
use graft::model::document::Document;
use graft::model::file;
use graft::model::journal;
use graft::model::scene::NodeId;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn rename(node: u32, name: &str) -> Command {
    Command::Panel(PanelCommand::Rename {
        node: NodeId(node),
        name: name.into(),
    })
}

/// The journals in `dir` and the edits each replays (every one must replay).
fn journals(dir: &Path) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    for path in std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()) {
        if path.extension().is_some_and(|e| e == "journal") {
            let bytes = std::fs::read(&path).unwrap();
            let recovered = journal::recover(&bytes)
                .unwrap_or_else(|e| panic!("{} cannot replay: {e}", path.display()));
            out.push((path, recovered.document.history().labels().0.len()));
        }
    }
    out
}

fn written_again(editor: &Editor) -> usize {
    editor
        .messages()
        .iter()
        .filter(|m| m.text.contains("written again"))
        .count()
}

/// Tick until a retry's fresh journal settled one way or the other (its thread ended).
fn settle(editor: &mut Editor) {
    let started = Instant::now();
    while editor.journal_retry_pending() {
        assert!(started.elapsed() < Duration::from_secs(60), "never settled");
        std::thread::sleep(Duration::from_millis(10));
        editor.tick(0.016);
    }
}

#[test]
fn a_full_journal_folder_never_loses_the_only_journal_and_never_says_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    let scene =
        graft::tools::generate::generate(graft::tools::generate::GenShape::Random, 30_000, 3);
    file::save(&scene, &path).unwrap();
    let journal_dir = dir.path().join("journal");
    let mut editor = Editor::new(Document::open(&path).unwrap());
    editor.start_journal(journal_dir.clone());
    assert_eq!(editor.journal_health(), JournalHealth::On);
    set_full_for_tests(true);
    editor.apply(rename(5, "first")).unwrap();
    assert!(
        matches!(editor.journal_health(), JournalHealth::Failing(ref why) if why.contains("No space left")),
        "{:?}",
        editor.journal_health()
    );
    // The journal naming the unchanged file holds the edit.
    assert_eq!(journals(&journal_dir).len(), 1);
    assert_eq!(journals(&journal_dir)[0].1, 1);
    editor.apply(rename(6, "second")).unwrap();
    for _ in 0..3 {
        editor
            .apply(Command::Journal(JournalCommand::RetryJournal))
            .unwrap();
        settle(&mut editor);
        assert!(
            matches!(editor.journal_health(), JournalHealth::Failing(_)),
            "{:?}",
            editor.journal_health()
        );
        assert_eq!(written_again(&editor), 0, "nothing is written");
        let found = journals(&journal_dir);
        assert_eq!(found.len(), 1, "the journal holding the edit stays");
        assert_eq!(found[0].1, 1);
    }
    // Room again: the next retry is said only once the fresh journal is whole, and then it
    // holds both edits; the stopped one goes.
    set_full_for_tests(false);
    editor
        .apply(Command::Journal(JournalCommand::RetryJournal))
        .unwrap();
    let started = Instant::now();
    while editor.journal_health() != JournalHealth::On {
        assert!(matches!(editor.journal_health(), JournalHealth::Failing(_)));
        assert_eq!(written_again(&editor), 0);
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
        editor.tick(0.016);
    }
    assert_eq!(written_again(&editor), 1);
    let found = journals(&journal_dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, 2, "the fresh journal holds every edit");
    editor.apply(rename(7, "third")).unwrap();
    let expected = file::to_ron_string(editor.doc().scene());
    drop(editor); // a crash
    let mut next = Editor::new(Document::sample());
    next.start_journal(journal_dir);
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert_eq!(file::to_ron_string(next.doc().scene()), expected);
}
