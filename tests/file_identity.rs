//! Issue 46, a file is the file it is, whatever names reach it: a journal names its file
//! absolutely (a recovery from another folder saves to the file that was edited); a recovered
//! or edited document compares the file's bytes before it overwrites them (another version
//! carrying an older time, or a same-size change with its time put back, is asked about); a
//! symlink or a hard link to an open file warns "also open"; saving through a symlink writes
//! its target and leaves the link a link; `.bak` is always a regular file of its own; sprite
//! paths and the command line follow the kernel's `..`; a second recovery asks before it
//! replaces unsaved recovered work; the changed-on-disk question goes with its document.

use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, FileCommand, GuardAnswer, JournalCommand, PanelCommand,
};
use graft::editor::session::disk_watch::ConflictReason;
use graft::editor::session::journal::RecoveryAnswer;
use graft::model::document::Document;
use graft::model::file;
use graft::model::scene::edit::Op;
use graft::model::scene::{NodeId, Shape};
use std::os::unix::fs::{MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command as Process;

fn rename(node: u32, name: &str) -> Command {
    Command::Panel(PanelCommand::Rename {
        node: NodeId(node),
        name: name.into(),
    })
}

/// The sample's text with node 1 renamed: a distinct version of a file.
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

fn name_on_disk(path: &Path, id: u32) -> String {
    let doc = Document::open(path).unwrap();
    doc.scene().node(NodeId(id)).unwrap().name.to_string()
}

fn graft(args: &[&str], cwd: &Path) -> std::process::Output {
    Process::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

#[test]
fn a_journal_begun_from_a_relative_path_recovers_to_the_same_file_from_anywhere() {
    let a = tempfile::tempdir().unwrap();
    std::fs::create_dir(a.path().join("scenes")).unwrap();
    let scene = a.path().join("scenes/x46.ron");
    std::fs::write(&scene, version("A's")).unwrap();
    let journal = a.path().join("journal");
    // `cd A && graft scenes/x46.ron`, an edit, then a kill (the drill ends without a clean end).
    let out = Process::new(env!("CARGO_BIN_EXE_graft"))
        .args(["journal-drill", "--seed", "7", "--steps", "6", "--file"])
        .arg("scenes/x46.ron")
        .arg("--dir")
        .arg(&journal)
        .current_dir(a.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // Another folder (this test's), with no such file: the recovery names A's file.
    let mut next = Editor::new(Document::sample());
    next.start_journal(journal);
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    let real = std::fs::canonicalize(&scene).unwrap();
    assert_eq!(next.doc().path(), Some(real.as_path()));
    let expected = file::to_ron_string(next.doc().scene());
    next.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(next.disk_conflict().is_none());
    assert_eq!(std::fs::read_to_string(&scene).unwrap(), expected);
}

#[test]
fn a_recovery_over_a_file_replaced_with_an_older_time_says_so_and_asks_before_saving() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("scene.ron");
    std::fs::write(&scene, version("first")).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    editor.start_journal(dir.path().join("journal"));
    editor.apply(rename(2, "unsaved")).unwrap();
    drop(editor); // kill -9
    // `cp -p`, `rsync -a`, `tar`: other contents, carrying a time older than the journal.
    std::fs::write(&scene, version("someone else's")).unwrap();
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&scene)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.path().join("journal"));
    let offer = next.recovery_offer().expect("offered");
    assert!(offer.older_than_file.is_none(), "the time says nothing");
    let note = offer
        .file_changed
        .expect("the prompt says the file changed");
    assert!(
        note.contains("not the file this journal was editing"),
        "{note}"
    );
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    next.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(next.disk_conflict().is_some(), "the save asks first");
    assert_eq!(name_on_disk(&scene, 1), "someone else's");
}

#[test]
fn a_same_size_change_with_its_time_put_back_is_noticed_and_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("scene.ron");
    std::fs::write(&scene, version("aaaa")).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    let old_time = std::fs::metadata(&scene).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    // Another program writes the same number of bytes and puts the time back (`touch -r`).
    std::fs::write(&scene, version("bbbb")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&scene)
        .unwrap()
        .set_modified(old_time)
        .unwrap();
    assert_eq!(
        std::fs::metadata(&scene).unwrap().modified().unwrap(),
        old_time
    );
    editor.tick(0.016);
    assert_eq!(
        editor.disk_conflict().map(|c| c.reason.clone()),
        Some(ConflictReason::Noticed),
        "the window notices"
    );
    editor
        .apply(Command::File(FileCommand::AnswerConflict(
            graft::editor::session::disk_watch::ConflictAnswer::Cancel,
        )))
        .unwrap();
    editor.apply(rename(2, "mine")).unwrap();
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(editor.disk_conflict().is_some(), "the save asks");
    assert_eq!(name_on_disk(&scene, 1), "bbbb");
}

#[test]
fn links_to_an_open_file_warn_also_open() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal");
    let b = dir.path().join("b.ron");
    std::fs::write(&b, version("b")).unwrap();
    std::fs::create_dir(dir.path().join("link")).unwrap();
    symlink("../b.ron", dir.path().join("link/b.ron")).unwrap();
    let c = dir.path().join("c.ron");
    std::fs::write(&c, version("c")).unwrap();
    std::fs::hard_link(&c, dir.path().join("c2.ron")).unwrap();
    for (first, second) in [("b.ron", "link/b.ron"), ("c.ron", "c2.ron")] {
        let mut one = Editor::new(Document::sample());
        one.start_journal(journal.clone());
        one.apply(Command::File(FileCommand::OpenPath(dir.path().join(first))))
            .unwrap();
        let mut two = Editor::new(Document::sample());
        two.start_journal(journal.clone());
        two.apply(Command::File(FileCommand::OpenPath(
            dir.path().join(second),
        )))
        .unwrap();
        let said = two.error().unwrap_or_default().to_string();
        assert!(
            said.contains("also open in another graft window"),
            "{second}: {said:?}"
        );
        one.end_journal();
        two.end_journal();
    }
}

#[test]
fn saving_through_a_symlink_writes_its_target_and_backups_are_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("b.ron");
    std::fs::write(&b, version("b")).unwrap();
    std::fs::create_dir(dir.path().join("link")).unwrap();
    let link = dir.path().join("link/b.ron");
    symlink("../b.ron", &link).unwrap();
    let mut editor = Editor::new(Document::open(&link).unwrap());
    for k in 0..2 {
        editor
            .apply(rename(2, &format!("through the link {k}")))
            .unwrap();
        editor.apply(Command::File(FileCommand::Save)).unwrap();
        assert!(editor.disk_conflict().is_none());
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );
        assert_eq!(name_on_disk(&b, 2), format!("through the link {k}"));
    }
    let bak = dir.path().join("b.ron.bak");
    assert!(
        std::fs::symlink_metadata(&bak)
            .unwrap()
            .file_type()
            .is_file()
    );
    assert_eq!(name_on_disk(&bak, 2), "through the link 0");
    assert!(!dir.path().join("link/b.ron.bak").exists());
    // Hard links: each name's backup is a file of its own, not the other name's old inode.
    let c = dir.path().join("c.ron");
    let c2 = dir.path().join("c2.ron");
    std::fs::write(&c, version("c")).unwrap();
    std::fs::hard_link(&c, &c2).unwrap();
    for path in [&c, &c2] {
        let mut editor = Editor::new(Document::open(path).unwrap());
        editor.apply(rename(2, "saved")).unwrap();
        editor.apply(Command::File(FileCommand::Save)).unwrap();
    }
    let ino = |p: &Path| std::fs::metadata(p).unwrap().ino();
    let (bak, bak2) = (dir.path().join("c.ron.bak"), dir.path().join("c2.ron.bak"));
    assert_ne!(ino(&bak), ino(&bak2), "two backups, two files");
    assert_eq!(std::fs::metadata(&bak).unwrap().nlink(), 1);
    assert_eq!(name_on_disk(&bak, 1), "c");
}

#[test]
fn a_dot_dot_after_a_link_is_the_kernels_for_sprites_and_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("t4/src");
    std::fs::create_dir_all(&real).unwrap();
    symlink(&real, dir.path().join("lnk")).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let target = dir.path().join("lnk/../f2.ron");
    let out = graft(
        &["fmt", "scenes/sword.ron", "-o", target.to_str().unwrap()],
        &repo,
    );
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    let written = std::fs::canonicalize(dir.path().join("t4/f2.ron")).unwrap();
    assert!(written.exists());
    assert!(said.contains(written.to_str().unwrap()), "{said}");
    // Its sprite names the sample's image from where the file really is.
    let doc = Document::open(&written).unwrap();
    let scene = doc.scene();
    let sprite = scene
        .ids()
        .iter()
        .find_map(|&id| match &scene.node(id).unwrap().shape {
            Shape::Sprite(sprite) => Some(sprite.path.clone()),
            _ => None,
        })
        .expect("a sprite");
    assert!(
        written.parent().unwrap().join(&sprite).exists(),
        "{sprite} from {}",
        written.display()
    );
}

#[test]
fn a_second_recovery_asks_before_replacing_unsaved_recovered_work() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["first crash", "second crash"] {
        let mut crashed = Editor::new(Document::sample());
        crashed.start_journal(dir.path().to_path_buf());
        crashed.apply(rename(2, name)).unwrap();
        drop(crashed);
    }
    let mut next = Editor::new(Document::sample());
    next.start_journal(dir.path().to_path_buf());
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    let recovered = next.doc().scene().node(NodeId(2)).unwrap().name.to_string();
    assert!(next.doc().is_modified());
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert!(next.pending_guard().is_some(), "asked first");
    assert_eq!(
        next.doc().scene().node(NodeId(2)).unwrap().name.as_str(),
        recovered,
        "nothing replaced yet"
    );
    next.apply(Command::File(FileCommand::AnswerGuard(
        GuardAnswer::Discard,
    )))
    .unwrap();
    assert_ne!(
        next.doc().scene().node(NodeId(2)).unwrap().name.as_str(),
        recovered
    );
    // The first recovered scene's journal was set aside: `--list --all` shows it.
    let listed = graft(
        &[
            "recover",
            "--list",
            "--all",
            "--dir",
            dir.path().to_str().unwrap(),
        ],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(text.contains("(set aside)"), "{text}");
    let plain = graft(
        &["recover", "--list", "--dir", dir.path().to_str().unwrap()],
        dir.path(),
    );
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("(set aside)"));
}

#[test]
fn the_changed_on_disk_question_goes_with_its_document() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("scene.ron");
    std::fs::write(&scene, version("one")).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    std::fs::write(&scene, version("another program's")).unwrap();
    editor.tick(0.016);
    assert!(editor.disk_conflict().is_some());
    editor.apply(Command::File(FileCommand::New)).unwrap();
    assert!(editor.disk_conflict().is_none(), "not about the new scene");
}

/// `text` padded with blank lines past the size whose bytes are compared before every save.
fn padded(text: &str) -> String {
    let big = (16 << 20) + 1024; // file_stamp::ALWAYS_COMPARE_BYTES and a little
    format!("{text}\n{}\n", " ".repeat(big))
}

/// Tick until the watch's worker has answered (bounded: a test never hangs).
fn tick_until_compared(editor: &mut Editor) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while editor.comparing_file() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
        editor.tick(0.016);
    }
    assert!(!editor.comparing_file(), "the worker answered");
}

#[test]
fn a_big_files_bytes_are_compared_on_a_worker_and_a_kept_time_does_not_hide_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("big.ron");
    std::fs::write(&scene, padded(&version("aaaa"))).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    let old_time = std::fs::metadata(&scene).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    // Another program writes the same number of bytes and puts the time back.
    std::fs::write(&scene, padded(&version("bbbb"))).unwrap();
    let file = std::fs::File::options().write(true).open(&scene).unwrap();
    file.set_modified(old_time).unwrap();
    editor.tick(0.016);
    assert!(
        editor.comparing_file() && editor.disk_conflict().is_none(),
        "the frame that saw the write did not read 17 MB: a worker does"
    );
    tick_until_compared(&mut editor);
    assert_eq!(
        editor.disk_conflict().map(|c| c.reason.clone()),
        Some(ConflictReason::Noticed),
        "the worker's answer asks Reload?"
    );
}

#[test]
fn a_touched_big_file_is_taken_quietly_and_a_save_uses_the_workers_answer() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("big.ron");
    let text = padded(&version("aaaa"));
    std::fs::write(&scene, &text).unwrap();
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&scene, &text).unwrap(); // the same bytes, written again
    editor.tick(0.016);
    assert!(editor.comparing_file());
    tick_until_compared(&mut editor);
    assert!(
        editor.disk_conflict().is_none(),
        "the same bytes: no question"
    );
    let stamp = *editor.doc().stamp().unwrap();
    assert!(stamp.untouched(&scene), "re-stamped at the file's new stat");
    // Another version seen by the watch first: the save takes its worker's answer.
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&scene, padded(&version("bbbb"))).unwrap();
    editor.tick(0.016);
    assert!(editor.comparing_file(), "the watch started a worker");
    editor.apply(rename(2, "mine")).unwrap();
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(!editor.comparing_file(), "the save took its answer");
    assert!(
        editor.disk_conflict().is_some(),
        "and asks: the bytes differ"
    );
    assert_eq!(name_on_disk(&scene, 1), "bbbb");
    // And one the watch has not looked at: the save reads the bytes itself, and asks.
    let mut editor = Editor::new(Document::open(&scene).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&scene, padded(&version("cccc"))).unwrap();
    editor.apply(rename(2, "mine")).unwrap();
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    assert!(editor.disk_conflict().is_some(), "the save asks");
    assert_eq!(name_on_disk(&scene, 1), "cccc");
}

#[test]
fn a_file_reached_through_a_link_finds_its_images_beside_the_file_it_leads_to() {
    let dir = tempfile::tempdir().unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let real = dir.path().join("real/scenes");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::create_dir_all(dir.path().join("real/assets")).unwrap();
    std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    std::fs::copy(repo.join("scenes/sword.ron"), real.join("sword.ron")).unwrap();
    let image = repo.join("assets/sword.png");
    std::fs::copy(&image, dir.path().join("real/assets/sword.png")).unwrap();
    let link = dir.path().join("elsewhere/link.ron");
    symlink("../real/scenes/sword.ron", &link).unwrap();
    // The command line: no image is missing.
    let out = graft(&["check", link.to_str().unwrap()], dir.path());
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success() && !said.contains("missing"), "{said}");
    // The window: the same, and a save through the link keeps the image's path.
    let mut editor = Editor::new(Document::open(&link).unwrap());
    let folder = editor.doc().sprite_folder().unwrap();
    assert_eq!(folder, std::fs::canonicalize(&real).unwrap());
    editor.apply(rename(2, "saved")).unwrap();
    editor.apply(Command::File(FileCommand::Save)).unwrap();
    let text = std::fs::read_to_string(real.join("sword.ron")).unwrap();
    assert!(text.contains("\"../assets/sword.png\""), "{text}");
}

#[test]
fn a_failed_first_save_leaves_an_untitled_scenes_image_paths_as_they_were() {
    let sprites = |doc: &Document| -> Vec<String> {
        let scene = doc.scene();
        (0..scene.len())
            .filter_map(|i| match &scene.data_at(i).shape {
                Shape::Sprite(sprite) => Some(sprite.path.clone()),
                _ => None,
            })
            .collect()
    };
    let mut doc = Document::sample();
    let before = sprites(&doc);
    assert!(!before.is_empty(), "the sample draws a sprite");
    let dir = tempfile::tempdir().unwrap();
    // A folder where the file cannot be written: its name is taken by a plain file.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "a file, not a folder").unwrap();
    assert!(doc.save_to(&blocked.join("scene.ron")).is_err());
    assert_eq!(sprites(&doc), before, "nothing changed by the failed save");
    assert!(doc.path().is_none(), "still untitled");
}
