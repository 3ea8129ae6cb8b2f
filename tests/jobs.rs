//! Big files open on a worker: the editor keeps working while it loads, the new scene swaps in
//! with one step, Cancel leaves everything exactly as it was, and edits made while loading are
//! never dropped without the unsaved-changes prompt.

mod common;

use graft::document::Document;
use graft::editor::command::{Command, GuardAnswer};
use graft::editor::session::{Editor, FileAction};
use graft::generate::{GenShape, generate};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn big_file(nodes: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    graft::file::save(&generate(GenShape::Random, nodes, 5), &path).unwrap();
    (dir, path)
}

fn editor() -> Editor {
    let mut e = Editor::new(Document::untitled(common::sword_scene()));
    e.set_background_bytes(0); // every file on the worker
    e
}

/// Poll until the job is done (or a minute passes); returns how many polls it took.
fn finish(e: &mut Editor) -> usize {
    let start = Instant::now();
    let mut polls = 0;
    while e.job().is_some() && start.elapsed() < Duration::from_secs(60) {
        e.poll_job().ok();
        polls += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    polls
}

#[test]
fn a_big_file_loads_on_a_worker_and_swaps_in_whole() {
    let (_dir, path) = big_file(20_000);
    let mut e = editor();
    let before = e.doc().scene().clone();
    e.apply(Command::OpenPath(path.clone())).unwrap();
    let view = e.job().expect("loading in the background");
    assert_eq!(view.title, "Opening big.ron");
    assert!(
        *e.doc().scene() == before,
        "the current scene stays until the new one is ready"
    );
    // The session keeps working meanwhile.
    e.apply(Command::Select(vec![graft::NodeId(2)])).unwrap();
    finish(&mut e);
    assert!(e.job().is_none());
    assert_eq!(e.doc().path(), Some(path.as_path()));
    assert!(*e.doc().scene() == graft::file::load(&path).unwrap());
    assert!(!e.doc().is_modified());
    assert!(
        e.selection().is_empty(),
        "a new scene starts with nothing selected"
    );
}

#[test]
fn cancel_leaves_everything_exactly_as_it_was() {
    let (_dir, path) = big_file(20_000);
    let mut e = editor();
    let before = e.doc().scene().clone();
    let snapshot = common::snapshot(&before);
    e.apply(Command::OpenPath(path)).unwrap();
    e.apply(Command::CancelJob).unwrap();
    assert!(e.job().is_none());
    std::thread::sleep(Duration::from_millis(300));
    e.poll_job().unwrap();
    assert_eq!(common::snapshot(e.doc().scene()), snapshot);
    assert_eq!(e.doc().path(), None);
    assert!(e.last_message().unwrap().text.contains("Cancelled"));
}

#[test]
fn edits_made_while_loading_are_asked_about() {
    let (_dir, path) = big_file(20_000);
    for answer in [GuardAnswer::Cancel, GuardAnswer::Discard] {
        let mut e = editor();
        e.apply(Command::OpenPath(path.clone())).unwrap();
        e.apply(Command::Select(vec![graft::NodeId(1)])).unwrap();
        e.apply(Command::Delete).unwrap();
        let edited = e.doc().scene().clone();
        finish(&mut e);
        assert_eq!(e.pending_guard(), Some(&FileAction::SwapLoaded));
        e.apply(Command::AnswerGuard(answer)).unwrap();
        match answer {
            GuardAnswer::Cancel => assert!(*e.doc().scene() == edited, "the edits stay"),
            _ => assert_eq!(e.doc().path(), Some(path.as_path())),
        }
    }
}

#[test]
fn a_bad_big_file_is_refused_and_the_scene_stays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    std::fs::write(&path, "(\n  format: 1,\n  nodes: [(id: 1 name: \"x\")],\n)").unwrap();
    let mut e = editor();
    let before = e.doc().scene().clone();
    e.apply(Command::OpenPath(path)).unwrap();
    finish(&mut e);
    assert!(*e.doc().scene() == before);
    let message = e.last_message().unwrap();
    assert!(
        message.is_error && message.text.contains("bad.ron:3:"),
        "{}",
        message.text
    );
    assert!(
        e.apply(Command::CancelJob).is_ok(),
        "nothing to cancel is fine"
    );
}

/// A big scene saves on a worker: the window keeps working, the file holds the scene as it was
/// when Save was pressed, and the document is clean only if nothing changed meanwhile.
#[test]
fn a_big_scene_saves_on_a_worker() {
    let (_dir, path) = big_file(20_000);
    let mut e = Editor::new(Document::open(&path).unwrap());
    e.set_background_save_nodes(0);
    let moved = |e: &mut Editor, x: f32| {
        let id = e.doc().scene().id_at(1);
        let mut local = e.doc().scene().node(id).unwrap().local;
        local.position.x = x;
        e.apply(Command::Perform {
            label: "Move".into(),
            ops: vec![graft::scene::edit::Op::SetLocal { node: id, local }],
            continuous: false,
        })
        .unwrap();
    };
    moved(&mut e, 12.5);
    assert!(e.doc().is_modified());
    let saved = e.doc().scene().clone();
    e.apply(Command::Save).unwrap();
    let view = e.job().expect("saving in the background");
    assert_eq!(view.title, "Saving big.ron");
    finish(&mut e);
    assert!(!e.doc().is_modified(), "saved and nothing changed since");
    assert!(graft::file::load(&path).unwrap() == saved);

    // An edit while saving: the file gets the state at Save, the document stays modified.
    moved(&mut e, 13.5);
    let at_save = e.doc().scene().clone();
    e.apply(Command::Save).unwrap();
    moved(&mut e, 14.5);
    finish(&mut e);
    assert!(e.doc().is_modified(), "the later edit is not on disk");
    assert!(graft::file::load(&path).unwrap() == at_save);

    // Cancelled before it writes: the file stays as it was.
    moved(&mut e, 15.5);
    e.apply(Command::Save).unwrap();
    e.apply(Command::CancelJob).unwrap();
    finish(&mut e);
    std::thread::sleep(Duration::from_millis(300));
    let on_disk = graft::file::load(&path).unwrap();
    assert!(on_disk == at_save || on_disk == *e.doc().scene());
    assert!(e.doc().is_modified());
}
