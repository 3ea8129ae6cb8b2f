//! Recovery of a scene with instances is exact whatever happened to its sources on disk
//! (issue 48): the journal's base carries the sources as the session held them and the ids
//! of their nodes, so a source saved by another program after the crash (or after a follow)
//! changes nothing in what is recovered. Killed with SIGKILL too (the kill harness of
//! tests/journal_kill.rs).

mod common;

use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, HistoryCommand, JournalCommand, NewNodePlace,
};
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file;
use graft::model::journal;
use graft::model::math::Trs;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeId, Scene};
use graft::tools::recover::drill_step;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::Duration;

/// The part every instance test instances: a wheel, its hub and a spoke (ids 1, 2, 3).
const WHEEL: &str = include_str!("fixtures/wheel-part.ron");

/// The wheel as another program saves it later: a new node first, the hub moved, the spoke
/// renamed.
const WHEEL_CHANGED: &str = r#"(
    format: 1,
    nodes: [
        (id: 1, name: "wheel", shape: Ellipse(size: (2.0, 2.0))),
        (id: 4, name: "bolt", parent: Some(1), position: (0.3, 0.3)),
        (id: 2, name: "hub", parent: Some(1), position: (0.0, 2.0)),
        (id: 3, name: "ray", parent: Some(2), position: (1.0, 0.0), shape: Rect(size: (1.0, 0.1))),
    ],
)
"#;

/// The wheel changed once more (the bolt gone, a nut under the hub).
const WHEEL_AGAIN: &str = r#"(
    format: 1,
    nodes: [
        (id: 1, name: "wheel", shape: Ellipse(size: (2.0, 2.0))),
        (id: 2, name: "hub", parent: Some(1), position: (0.0, -1.0)),
        (id: 5, name: "nut", parent: Some(2)),
        (id: 3, name: "ray", parent: Some(2), position: (1.0, 0.0), shape: Rect(size: (1.0, 0.1))),
    ],
)
"#;

const CAR: &str = r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body"),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0)),
        (id: 20, name: "back", parent: Some(1), instance: "parts/wheel.ron", position: (-2.0, 0.0)),
    ],
)
"#;

/// A folder with `car.ron` (two wheels) and `parts/wheel.ron`.
fn car_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("parts")).expect("parts");
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL).expect("wheel");
    let car = dir.path().join("car.ron");
    fs::write(&car, CAR).expect("car");
    (dir, car)
}

/// The scene as text, its next id, and every node's id, origin and world matrix bits.
type State = (String, u32, Vec<(NodeId, Option<(NodeId, u32)>, [u32; 6])>);

fn state(scene: &Scene) -> State {
    let mut scene = scene.clone();
    scene.update_world();
    let nodes = scene
        .ids()
        .iter()
        .map(|&id| {
            let origin = scene.origin(id).map(|o| (o.root, o.index));
            let world = scene.world(id).expect("world");
            (id, origin, common::affine_bits(&world))
        })
        .collect();
    (file::to_ron_string(&scene), scene.next_id().0, nodes)
}

/// The node of instance `root` that is node `chain` of its source.
fn inner(scene: &Scene, root: NodeId, chain: &[u32]) -> NodeId {
    let table = scene.instances().expect("instances");
    *scene
        .ids()
        .iter()
        .find(|id| {
            table
                .origin(**id)
                .is_some_and(|o| o.root == root && table.chain_of(o) == Some(chain))
        })
        .unwrap_or_else(|| panic!("no node {chain:?} in instance {root}"))
}

fn turn(editor: &mut Editor, node: NodeId, degrees: f32) {
    let mut local = editor.doc().scene().node(node).expect("node").local;
    local.rotation = degrees;
    editor
        .apply(common::paste_local(node, local))
        .expect("turn");
}

fn labels_of(editor: &Editor) -> (Vec<String>, usize) {
    let (labels, at) = editor.doc().history().labels();
    (labels.into_iter().map(str::to_string).collect(), at)
}

/// Open `car` in a new editor with the journal folder and recover what it offers.
fn recover(car: &Path, journals: &Path) -> Editor {
    let mut next = Editor::new(Document::open(car).expect("open"));
    next.start_journal(journals.to_path_buf());
    assert!(next.recovery_offer().is_some(), "the journal is offered");
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .expect("recover");
    next
}

#[test]
fn a_source_changed_after_a_crash_does_not_change_what_is_recovered() {
    let (dir, car) = car_folder();
    let journals = dir.path().join("journals");
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.start_journal(journals.clone());
    // A node of the scene's own takes the id after the expanded ones, then an override.
    let hub = inner(editor.doc().scene(), NodeId(10), &[2]);
    editor
        .apply(Command::Edit(EditCommand::AddNode(NewNodePlace::ChildOf(
            hub,
        ))))
        .expect("add under the hub");
    let spoke = inner(editor.doc().scene(), NodeId(20), &[3]);
    turn(&mut editor, spoke, 30.0);
    let live = state(editor.doc().scene());
    let labels = labels_of(&editor);
    drop(editor); // a crash: no clean end
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL_CHANGED).unwrap();

    let next = recover(&car, &journals);
    assert_eq!(
        state(next.doc().scene()),
        live,
        "recovered as it was, not from the wheel on disk now"
    );
    assert_eq!(labels_of(&next), labels, "every step replayed");
}

/// The window looks at its files every 2 s (`WATCH_FILE_EVERY`), with no input needed.
fn wait_for_the_watch(editor: &mut Editor) {
    std::thread::sleep(graft::editor::session::disk_watch::WATCH_FILE_EVERY);
    std::thread::sleep(Duration::from_millis(100));
    editor.tick(0.016);
}

#[test]
fn a_followed_source_changed_again_after_a_crash_recovers_the_follow_exactly() {
    let (dir, car) = car_folder();
    let journals = dir.path().join("journals");
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.start_journal(journals.clone());
    editor.tick(0.016); // the first look: the sources as they are
    let spoke = inner(editor.doc().scene(), NodeId(10), &[3]);
    turn(&mut editor, spoke, 45.0);
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL_CHANGED).unwrap();
    wait_for_the_watch(&mut editor);
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Follow wheel.ron")
    );
    editor
        .apply(Command::Edit(EditCommand::AddNode(NewNodePlace::ChildOf(
            NodeId(1),
        ))))
        .expect("add");
    let live = state(editor.doc().scene());
    drop(editor); // a crash
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL_AGAIN).unwrap();

    let mut next = recover(&car, &journals);
    assert_eq!(
        state(next.doc().scene()),
        live,
        "the follow replayed exactly"
    );
    // Undo all the way: the car as it was opened, with the wheel as it was then.
    while next.doc().history().undo_label().is_some() {
        next.apply(Command::History(HistoryCommand::Undo))
            .expect("undo");
    }
    let (first_dir, first_car) = car_folder();
    let first = Document::open(&first_car).expect("open");
    assert_eq!(state(next.doc().scene()).0, state(first.scene()).0);
    drop(first_dir);
}

/// How many children are killed.
const KILLS: u64 = 8;
/// Steps each child's script has (it is killed before the end, mostly).
const STEPS: usize = 120;

/// The state after each of the first `steps` commands of `seed`'s script on `car`.
fn states(car: &Path, seed: u64, steps: usize) -> Vec<State> {
    let mut editor = Editor::new(Document::open(car).expect("open"));
    let mut out = vec![state(editor.doc().scene())];
    let mut script = fastrand::Rng::with_seed(seed);
    for _ in 0..steps {
        for command in drill_step(&mut script, &editor) {
            let _ = editor.apply(command);
        }
        out.push(state(editor.doc().scene()));
    }
    out
}

fn the_journal(dir: &Path) -> Option<PathBuf> {
    fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "journal"))
}

/// Run the drill on `car` in a child, SIGKILL it after `after` printed steps and `delay`;
/// the last step it printed.
fn run_and_kill(car: &Path, dir: &Path, seed: u64, after: usize, delay: Duration) -> Option<usize> {
    let mut child = Process::new(env!("CARGO_BIN_EXE_graft"))
        .args(["journal-drill", "--seed", &seed.to_string(), "--steps"])
        .arg(STEPS.to_string())
        .arg("--dir")
        .arg(dir)
        .arg("--file")
        .arg(car)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut last = None;
    while last.is_none_or(|k| k < after) {
        match lines.next() {
            Some(Ok(line)) => last = line.trim().parse::<usize>().ok(),
            _ => break,
        }
    }
    std::thread::sleep(delay);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    for line in lines.map_while(Result::ok) {
        if let Ok(k) = line.trim().parse::<usize>() {
            last = Some(k);
        }
    }
    last
}

#[test]
fn killed_after_override_edits_then_the_source_changes_recovery_is_exact() {
    let mut rng = fastrand::Rng::with_seed(48);
    let mut recovered_some = 0;
    for kill in 0..KILLS {
        let (dir, car) = car_folder();
        let journals = dir.path().join("journals");
        let seed = 4800 + kill;
        let after = rng.usize(5..100);
        let expected = states(&car, seed, STEPS);
        let printed = run_and_kill(&car, &journals, seed, after, Duration::from_micros(500));
        fs::write(dir.path().join("parts/wheel.ron"), WHEEL_CHANGED).unwrap();
        let Some(path) = the_journal(&journals) else {
            assert!(printed.is_none(), "kill {kill}: steps printed, no journal");
            continue;
        };
        let bytes = fs::read(&path).unwrap();
        let got = journal::recover(&bytes).expect("the journal reads");
        let got = state(got.document.scene());
        let done = printed.map_or(0, |k| k + 1);
        assert!(
            got == expected[done] || expected.get(done + 1) == Some(&got),
            "kill {kill} (seed {seed}, last printed {printed:?}): not the state after the \
             last printed step nor the next"
        );
        recovered_some += usize::from(done > 0);
    }
    assert!(recovered_some > 0, "some kills came after edits");
}

#[test]
fn a_journal_without_sources_still_recovers_from_the_files() {
    // A journal of format 3 (before sources were carried): its base is read as it was, the
    // sources from disk.
    let (dir, car) = car_folder();
    let journals = dir.path().join("journals");
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.start_journal(journals.clone());
    let spoke = inner(editor.doc().scene(), NodeId(10), &[3]);
    turn(&mut editor, spoke, 15.0);
    let live = state(editor.doc().scene());
    let path = editor.journal_path().expect("journaling").to_path_buf();
    drop(editor);
    let old = without_sources(&fs::read(&path).unwrap());
    assert!(
        old.len() < fs::read(&path).unwrap().len(),
        "a record was taken out"
    );
    let got = journal::recover(&old).expect("a format 3 journal reads");
    assert_eq!(state(got.document.scene()), live);
}

/// The journal as format 3 wrote it: the same records but the sources.
fn without_sources(bytes: &[u8]) -> Vec<u8> {
    let mut frames = journal::Frames::new(bytes).expect("a journal");
    let mut out = journal::MAGIC.to_vec();
    out.extend_from_slice(&3u32.to_le_bytes());
    while let Ok(payload) = frames.next_payload() {
        if journal::kind(payload) == Some(journal::Kind::Sources) {
            continue;
        }
        let record = journal::decode(payload).expect("decodes");
        out.extend(journal::frame(&record).expect("frames"));
    }
    out
}

#[test]
fn the_sources_record_is_written_only_for_scenes_with_instances() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.ron");
    fs::write(&plain, "(format: 1, nodes: [(id: 1, name: \"a\")])").unwrap();
    let mut editor = Editor::new(Document::open(&plain).expect("open"));
    editor.start_journal(dir.path().join("journals"));
    let local = Trs::new(glam::Vec2::new(1.0, 0.0), 0.0, glam::Vec2::ONE, 0.0);
    editor.apply(common::paste_local(NodeId(1), local)).unwrap();
    let bytes = fs::read(editor.journal_path().unwrap()).unwrap();
    let mut frames = journal::Frames::new(&bytes).unwrap();
    while let Ok(payload) = frames.next_payload() {
        assert_ne!(journal::kind(payload), Some(journal::Kind::Sources));
    }
    editor.end_journal();
}

#[test]
fn a_big_scene_whose_base_is_its_own_file_carries_its_sources_too() {
    // From 20k nodes the journal names the file (then a copy of it) instead of holding it.
    let (dir, car) = car_folder();
    let mut text =
        String::from("(\n    format: 4,\n    nodes: [\n        (id: 1, name: \"body\"),\n");
    text.push_str(
        "        (id: 10, name: \"front\", parent: Some(1), instance: \"parts/wheel.ron\"),\n",
    );
    let many = graft::editor::session::journal_store::BACKGROUND_START_NODES as u32;
    for id in 100..100 + many {
        text.push_str(&format!(
            "        (id: {id}, name: \"n\", parent: Some(1)),\n"
        ));
    }
    text.push_str("    ],\n)\n");
    fs::write(&car, text).unwrap();
    let journals = dir.path().join("journals");
    let mut editor = Editor::new(Document::open(&car).expect("open"));
    editor.start_journal(journals.clone());
    let spoke = inner(editor.doc().scene(), NodeId(10), &[3]);
    turn(&mut editor, spoke, 60.0);
    let live = state(editor.doc().scene());
    let path = editor.journal_path().expect("journaling").to_path_buf();
    drop(editor);
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL_CHANGED).unwrap();
    let got = journal::recover(&fs::read(path).unwrap()).expect("recovers");
    assert_eq!(state(got.document.scene()), live);
}

#[test]
fn a_resumed_journal_compacts_with_its_sources() {
    use graft::editor::session::journal_store::JournalFile;
    let (dir, car) = car_folder();
    let journals = dir.path().join("journals");
    let mut doc = Document::open(&car).expect("open");
    let mut file = JournalFile::create(&journals, &doc).expect("journal");
    doc.listen(true);
    let spoke = inner(doc.scene(), NodeId(10), &[3]);
    let mut local = doc.scene().node(spoke).unwrap().local;
    local.rotation = 75.0;
    let ops = vec![Op::SetLocal { node: spoke, local }];
    doc.perform("turn", ops).unwrap();
    file.record(&mut doc).unwrap();
    let path = file.path().to_path_buf();
    drop(file);
    // Recovered and continued (as the window does), then compacted.
    let bytes = fs::read(&path).unwrap();
    let recovered = journal::recover(&bytes).expect("recovers");
    let handle = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut file =
        JournalFile::resume(path.clone(), handle, &bytes, recovered.whole_bytes).expect("resumes");
    let live = state(recovered.document.scene());
    file.compact(&recovered.document).expect("compacts");
    drop(file);
    fs::write(dir.path().join("parts/wheel.ron"), WHEEL_CHANGED).unwrap();
    let again = journal::recover(&fs::read(&path).unwrap()).expect("recovers");
    assert_eq!(state(again.document.scene()), live);
}

#[test]
fn a_sources_record_that_does_not_decode_is_refused_plainly() {
    let (dir, car) = car_folder();
    let journals = dir.path().join("journals");
    let doc = Document::open(&car).expect("open");
    let file = graft::editor::session::journal_store::JournalFile::create(&journals, &doc)
        .expect("journal");
    let path = file.path().to_path_buf();
    drop(file);
    let bytes = fs::read(&path).unwrap();
    let mut frames = journal::Frames::new(&bytes).unwrap();
    frames.next_payload().unwrap(); // Begin
    frames.next_payload().unwrap(); // Base
    let cut = frames.offset();
    // A record of the Sources kind with a right checksum but nothing a snapshot decodes from.
    let payload = [6u8, 0xff, 0xff, 0xff, 0xff, 0xff];
    let mut bad = bytes[..cut].to_vec();
    bad.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bad.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    bad.extend_from_slice(&payload);
    let err = journal::recover(&bad).expect_err("refused");
    assert!(
        err.to_string().contains("instance sources cannot be read"),
        "{err}"
    );
}

/// The car with nodes added under its front wheel: 30 inside the hub before the spoke (index
/// 0) with a child 31 of its own, and 32 inside node 7, which the wheel does not have yet (it
/// waits under the instance root).
const CAR_ADDED: &str = r#"(
    format: 5,
    nodes: [
        (id: 1, name: "body"),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", position: (2.0, 0.0)),
        (id: 30, name: "cap", parent: Some(10), inside: [2], index: 0, position: (0.2, 0.1), rotation: 20.0),
        (id: 31, name: "pin", parent: Some(30), position: (0.0, 0.3)),
        (id: 32, name: "tag", parent: Some(10), inside: [7], position: (0.5, 0.5)),
        (id: 20, name: "back", parent: Some(1), instance: "parts/wheel.ron", position: (-2.0, 0.0)),
    ],
)
"#;

/// The wheel gaining a level above the hub: node 7 (`mid`), the hub moved under it.
const WHEEL_DEEPER: &str = r#"(
    format: 1,
    nodes: [
        (id: 1, name: "wheel", shape: Ellipse(size: (2.0, 2.0))),
        (id: 7, name: "mid", parent: Some(1), position: (0.0, 1.0), rotation: 45.0),
        (id: 2, name: "hub", parent: Some(7), position: (0.0, 0.5)),
        (id: 3, name: "spoke", parent: Some(2), position: (1.0, 0.0), shape: Rect(size: (1.0, 0.1))),
    ],
)
"#;

/// [`state`], every node's parent and data too.
fn full_state(
    scene: &Scene,
) -> (
    State,
    Vec<Option<usize>>,
    Vec<graft::model::scene::NodeData>,
) {
    let parents = (0..scene.len()).map(|i| scene.parent_index_at(i)).collect();
    let data = (0..scene.len()).map(|i| scene.data_at(i).clone()).collect();
    (state(scene), parents, data)
}

/// The last step replaced no instance (the fast path's one table edit, not the general
/// path's rows taken out and put in again).
fn fast(doc: &Document) -> bool {
    use graft::model::instance::TableEdit;
    use graft::model::scene::edit::{Change, Edit};
    let changes = doc.history().as_changes();
    let last = changes.iter().rev().find_map(|c| match c {
        Change::Step { edits, .. } => Some(edits),
        _ => None,
    });
    let swap = |e: &Edit| matches!(e, Edit::Instances(t) if matches!(**t, TableEdit::Swap { .. }));
    last.is_some_and(|edits| !edits.iter().any(swap))
}

#[test]
fn a_follow_that_carries_added_nodes_recovers_exactly() {
    use graft::editor::session::journal_store::JournalFile;
    let (dir, car) = car_folder();
    fs::write(&car, CAR_ADDED).unwrap();
    let wheel = dir.path().join("parts/wheel.ron");
    let mut doc = Document::open(&car).expect("open");
    let mut file = JournalFile::create(&dir.path().join("journals"), &doc).expect("journal");
    doc.listen(true);
    let spoke = inner(doc.scene(), NodeId(20), &[3]);
    let mut local = doc.scene().node(spoke).unwrap().local;
    local.rotation = 75.0;
    doc.perform("turn", vec![Op::SetLocal { node: spoke, local }])
        .unwrap();
    file.record(&mut doc).unwrap();
    let before = full_state(doc.scene());
    fs::write(&wheel, WHEEL_DEEPER).unwrap();
    assert!(doc.reload_instances("Follow wheel.ron").expect("follows"));
    let s = doc.scene();
    let (hub, mid) = (inner(s, NodeId(10), &[2]), inner(s, NodeId(10), &[7]));
    assert_eq!(
        s.parent(NodeId(30)).unwrap(),
        Some(hub),
        "the cap stays on the hub"
    );
    assert_eq!(s.sibling_index(NodeId(30)).unwrap(), 0, "before the spoke");
    assert_eq!(s.parent(NodeId(32)).unwrap(), Some(mid), "the tag placed");
    assert!(
        fast(&doc),
        "the follow rebuilt the instances in one pass (what is journaled)"
    );
    let live = full_state(doc.scene());
    doc.undo().expect("undo the follow");
    let undone = full_state(doc.scene());
    let mut was = before.clone();
    was.0.1 = undone.0.1; // the ids the follow gave stay taken
    assert_eq!(undone, was, "the follow undone exactly");
    doc.redo().expect("redo the follow");
    assert_eq!(full_state(doc.scene()), live, "and redone");
    file.record(&mut doc).unwrap();
    let path = file.path().to_path_buf();
    drop(file); // a crash
    fs::write(&wheel, WHEEL_AGAIN).unwrap();

    let bytes = fs::read(&path).unwrap();
    let mut got = journal::recover(&bytes).expect("recovers").document;
    assert_eq!(full_state(got.scene()), live, "recovered as it was");
    got.undo().expect("undo the follow");
    assert_eq!(
        full_state(got.scene()),
        undone,
        "the follow undone as before the crash"
    );
    got.redo().expect("redo the follow");
    assert_eq!(full_state(got.scene()), live, "and redone");
    // Continued after recovery (as the window does) and compacted: the same again.
    let recovered = journal::recover(&bytes).expect("recovers");
    let handle = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut file =
        JournalFile::resume(path.clone(), handle, &bytes, recovered.whole_bytes).expect("resumes");
    file.compact(&recovered.document).expect("compacts");
    drop(file);
    let mut again = journal::recover(&fs::read(&path).unwrap())
        .expect("recovers")
        .document;
    assert_eq!(full_state(again.scene()), live, "compacted");
    again.undo().expect("undo the follow");
    assert_eq!(full_state(again.scene()), undone, "compacted, undone");
}
