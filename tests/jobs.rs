//! Big files open on a worker: the editor keeps working while it loads, the new scene swaps in
//! with one step, Cancel leaves everything exactly as it was, and edits made while loading are
//! never dropped without the unsaved-changes prompt.

mod common;

use graft::editor::session::command::{
    Command, EditCommand, FileCommand, GuardAnswer, SelectionCommand,
};
use graft::editor::session::{Editor, FileAction};
use graft::model::document::Document;
use graft::tools::generate::{GenShape, generate};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn big_file(nodes: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    graft::model::file::save(&generate(GenShape::Random, nodes, 5), &path).unwrap();
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

/// Wait until every worker thread `e` started has returned, cancelled ones included, so a
/// check of what a cancelled worker left behind (a file, a scene swapped in) sees its final
/// state instead of racing it. A worker that never ends fails the test rather than hanging it.
fn workers_done(e: &Editor) {
    let start = Instant::now();
    while e.workers_running() > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{} worker(s) still running after two minutes",
            e.workers_running()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_big_file_loads_on_a_worker_and_swaps_in_whole() {
    let (_dir, path) = big_file(20_000);
    let mut e = editor();
    let before = e.doc().scene().clone();
    e.apply(Command::File(FileCommand::OpenPath(path.clone())))
        .unwrap();
    let view = e.job().expect("loading in the background");
    assert_eq!(view.title, "Opening big.ron");
    assert!(
        *e.doc().scene() == before,
        "the current scene stays until the new one is ready"
    );
    // The session keeps working meanwhile.
    e.apply(Command::Selection(SelectionCommand::Select(vec![
        graft::model::scene::NodeId(2),
    ])))
    .unwrap();
    finish(&mut e);
    assert!(e.job().is_none());
    assert_eq!(e.doc().path(), Some(path.as_path()));
    assert!(*e.doc().scene() == graft::model::file::load(&path).unwrap());
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
    e.apply(Command::File(FileCommand::OpenPath(path))).unwrap();
    e.apply(Command::File(FileCommand::CancelJob)).unwrap();
    assert!(e.job().is_none());
    // The worker has really ended (not "probably, after a while"): had the cancel not reached
    // it, it would have finished loading, and nothing it sent may swap in.
    workers_done(&e);
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
        e.apply(Command::File(FileCommand::OpenPath(path.clone())))
            .unwrap();
        e.apply(Command::Selection(SelectionCommand::Select(vec![
            graft::model::scene::NodeId(1),
        ])))
        .unwrap();
        e.apply(Command::Edit(EditCommand::Delete)).unwrap();
        let edited = e.doc().scene().clone();
        finish(&mut e);
        assert_eq!(e.pending_guard(), Some(&FileAction::SwapLoaded));
        e.apply(Command::File(FileCommand::AnswerGuard(answer)))
            .unwrap();
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
    e.apply(Command::File(FileCommand::OpenPath(path))).unwrap();
    finish(&mut e);
    assert!(*e.doc().scene() == before);
    let message = e.last_message().unwrap();
    assert!(
        message.is_error && message.text.contains("bad.ron:3:"),
        "{}",
        message.text
    );
    assert!(
        e.apply(Command::File(FileCommand::CancelJob)).is_ok(),
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
        e.apply(common::paste_local(id, local)).unwrap();
    };
    moved(&mut e, 12.5);
    assert!(e.doc().is_modified());
    let saved = e.doc().scene().clone();
    e.apply(Command::File(FileCommand::Save)).unwrap();
    let view = e.job().expect("saving in the background");
    assert_eq!(view.title, "Saving big.ron");
    finish(&mut e);
    assert!(!e.doc().is_modified(), "saved and nothing changed since");
    assert!(graft::model::file::load(&path).unwrap() == saved);

    // An edit while saving: the file gets the state at Save, the document stays modified.
    moved(&mut e, 13.5);
    let at_save = e.doc().scene().clone();
    e.apply(Command::File(FileCommand::Save)).unwrap();
    moved(&mut e, 14.5);
    finish(&mut e);
    assert!(e.doc().is_modified(), "the later edit is not on disk");
    assert!(graft::model::file::load(&path).unwrap() == at_save);

    // Cancelled before it writes: the file stays as it was.
    moved(&mut e, 15.5);
    e.apply(Command::File(FileCommand::Save)).unwrap();
    e.apply(Command::File(FileCommand::CancelJob)).unwrap();
    finish(&mut e);
    workers_done(&e);
    let on_disk = graft::model::file::load(&path).unwrap();
    assert!(on_disk == at_save || on_disk == *e.doc().scene());
    assert!(e.doc().is_modified());
}

/// File ▸ Generate scene: small ones at once, big ones on a worker with progress; the result is
/// the scene `graft generate` makes from the same shape and seed; Cancel changes nothing.
#[test]
fn a_generated_scene_swaps_in_and_matches_the_command_line() {
    use graft::editor::session::generate::GenerateRequest;
    let mut e = editor();
    let request = GenerateRequest {
        shape: GenShape::Random,
        nodes: 500,
        seed: 3,
    };
    e.apply(Command::File(FileCommand::Generate(request)))
        .unwrap();
    assert!(e.job().is_none(), "500 nodes are made at once");
    let mut expected = generate(GenShape::Random, 500, 3);
    expected.update_world();
    assert!(*e.doc().scene() == expected);
    assert_eq!(e.doc().path(), None);
    assert_eq!(
        e.last_message().unwrap().text,
        "Generated a 500-node random scene (seed 3)"
    );

    // From the threshold on, on a worker: the scene stays until the new one is ready.
    e.set_background_save_nodes(1_000);
    let wide = GenerateRequest {
        shape: GenShape::Wide,
        nodes: 30_000,
        seed: 1,
    };
    e.apply(Command::File(FileCommand::Generate(wide))).unwrap();
    let view = e.job().expect("generating in the background");
    assert_eq!(view.title, "Generating a 30,000-node wide scene (seed 1)");
    assert!(
        *e.doc().scene() == expected,
        "the old scene stays meanwhile"
    );
    finish(&mut e);
    let mut expected = generate(GenShape::Wide, 30_000, 1);
    expected.update_world();
    assert!(*e.doc().scene() == expected);
    for i in [0, 29_999] {
        let world = e.doc().scene().cached_world_at(i);
        assert_eq!(world, expected.world_at(i), "world matrices computed");
    }

    // Cancelled: nothing changes, and nothing swaps in later.
    let snapshot = common::snapshot(e.doc().scene());
    e.apply(Command::File(FileCommand::Generate(GenerateRequest {
        nodes: 3_000_000,
        ..wide
    })))
    .unwrap();
    e.apply(Command::File(FileCommand::CancelJob)).unwrap();
    assert!(e.job().is_none());
    workers_done(&e);
    e.poll_job().unwrap();
    assert_eq!(common::snapshot(e.doc().scene()), snapshot);
}

#[test]
fn generating_asks_about_unsaved_changes_and_refuses_bad_counts() {
    use graft::editor::session::generate::{GenerateRequest, MAX_GENERATED_NODES};
    let mut e = editor();
    let before = common::snapshot(e.doc().scene());
    for nodes in [0, MAX_GENERATED_NODES + 1] {
        let err = e
            .apply(Command::File(FileCommand::Generate(GenerateRequest {
                nodes,
                ..GenerateRequest::default()
            })))
            .unwrap_err();
        assert!(err.to_string().contains("1 to 10,000,000 nodes"), "{err}");
    }
    assert_eq!(common::snapshot(e.doc().scene()), before);

    e.apply(Command::Selection(SelectionCommand::Select(vec![
        graft::model::scene::NodeId(1),
    ])))
    .unwrap();
    e.apply(Command::Edit(EditCommand::Delete)).unwrap();
    let edited = e.doc().scene().clone();
    let request = GenerateRequest {
        nodes: 50,
        ..GenerateRequest::default()
    };
    e.apply(Command::File(FileCommand::Generate(request)))
        .unwrap();
    assert_eq!(e.pending_guard(), Some(&FileAction::Generate(request)));
    assert!(
        *e.doc().scene() == edited,
        "nothing generated before the answer"
    );
    e.apply(Command::File(FileCommand::AnswerGuard(GuardAnswer::Cancel)))
        .unwrap();
    assert!(*e.doc().scene() == edited);
    e.apply(Command::File(FileCommand::Generate(request)))
        .unwrap();
    e.apply(Command::File(FileCommand::AnswerGuard(
        GuardAnswer::Discard,
    )))
    .unwrap();
    assert_eq!(e.doc().scene().len(), 50);
    assert!(!e.doc().is_modified());
}

/// Exports of a big scene run on a worker too: the file holds the scene as it was when the
/// export began, and a cancel before the write leaves no file.
#[test]
fn big_exports_run_on_a_worker_and_cancel_writes_nothing() {
    let export = |e: &mut Editor, command: Command, to: &std::path::Path| {
        e.apply(command).unwrap();
        let picked = graft::editor::session::dialogs::DialogOutcome::Picked(to.to_path_buf());
        e.apply(Command::File(FileCommand::DialogClosed(picked)))
            .unwrap();
    };
    let (dir, path) = big_file(20_000);
    let mut e = Editor::new(Document::open(&path).unwrap());
    e.set_background_save_nodes(0);
    let tscn = dir.path().join("big.tscn");
    export(&mut e, Command::File(FileCommand::ExportGodot), &tscn);
    assert_eq!(e.job().expect("exporting").title, "Exporting big.tscn");
    finish(&mut e);
    let back = graft::model::godot::import::import_file(&tscn).unwrap();
    assert_eq!(back.scene.len(), 20_001, "the nodes under one root Node2D");
    assert!(e.last_message().unwrap().text.starts_with("Exported"));
    assert!(e.interchange_report().is_some());

    let svg = dir.path().join("big.svg");
    export(&mut e, Command::File(FileCommand::ExportSvg), &svg);
    finish(&mut e);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.matches("<g ").count() >= 20_000);

    // A bigger scene cancelled at once: formatting it takes far longer than the cancel.
    let (_dir2, path2) = big_file(150_000);
    let mut e = Editor::new(Document::open(&path2).unwrap());
    e.set_background_save_nodes(0);
    let never = dir.path().join("never.tscn");
    export(&mut e, Command::File(FileCommand::ExportGodot), &never);
    e.apply(Command::File(FileCommand::CancelJob)).unwrap();
    // Wait for the worker itself to end, not for a guessed time: it formats, sees the cancel
    // and returns without writing. If the cancel were lost it would write the file before it
    // returns, so the check below fails then (a sleep could end before a slow write and pass).
    workers_done(&e);
    e.poll_job().unwrap();
    assert!(!never.exists(), "cancelled before the write: no file");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|f| f.file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with("never"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file left: {leftovers:?}"
    );
}

/// The wait above can fail: a worker that is not cancelled writes its file before it counts as
/// ended, so waiting for the workers shows the file (here an export left running on purpose).
#[test]
fn waiting_for_the_workers_sees_what_an_uncancelled_export_writes() {
    let (dir, path) = big_file(20_000);
    let mut e = Editor::new(Document::open(&path).unwrap());
    e.set_background_save_nodes(0);
    let out = dir.path().join("written.tscn");
    e.apply(Command::File(FileCommand::ExportGodot)).unwrap();
    let picked = graft::editor::session::dialogs::DialogOutcome::Picked(out.clone());
    e.apply(Command::File(FileCommand::DialogClosed(picked)))
        .unwrap();
    assert!(e.job().is_some(), "exporting in the background");
    workers_done(&e);
    assert!(out.exists(), "the worker ended only after writing");
    e.poll_job().unwrap();
    assert!(e.job().is_none());
}

/// A background export that cannot write (its folder does not exist) reports the error and
/// changes nothing.
#[test]
fn a_background_export_that_cannot_write_reports_it() {
    let (dir, path) = big_file(5_000);
    let mut e = Editor::new(Document::open(&path).unwrap());
    e.set_background_save_nodes(0);
    let before = e.doc().scene().clone();
    for command in [
        Command::File(FileCommand::ExportGodot),
        Command::File(FileCommand::ExportSvg),
    ] {
        let bad = dir.path().join("no such folder").join("out.file");
        e.apply(command).unwrap();
        let picked = graft::editor::session::dialogs::DialogOutcome::Picked(bad.clone());
        e.apply(Command::File(FileCommand::DialogClosed(picked)))
            .unwrap();
        assert!(e.job().is_some(), "exporting in the background");
        let start = Instant::now();
        let mut result = Ok(Default::default());
        while e.job().is_some() && start.elapsed() < Duration::from_secs(60) {
            result = e.poll_job();
            std::thread::sleep(Duration::from_millis(5));
        }
        let err = result.expect_err("the export failed");
        assert!(err.to_string().contains("Could not export"), "{err}");
        assert!(e.last_message().unwrap().is_error);
        assert!(!bad.exists());
        assert!(*e.doc().scene() == before);
        assert!(!e.doc().is_modified());
    }
}
