//! Issue 49 in the window: importing a `.tscn` that instances other Godot scenes asks, at once,
//! whether the instances keep reading the `.tscn` files or graft writes each as a `.ron` in a
//! folder (what `graft import --sources DIR` does). Writing them gives the same scene, its
//! instances naming the written parts; an answer after an edit is refused with nothing lost.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::Editor;
use graft::editor::session::command::{Command, FileCommand, SelectionCommand};
use graft::editor::session::dialogs::{DialogKind, DialogOutcome};
use graft::editor::session::interchange::SourcesAnswer;
use graft::model::document::Document;
use graft::model::scene::Scene;
use std::path::{Path, PathBuf};

/// The Godot fixture project copied to a temp folder; the path of its instancing main scene.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/godot");
    std::fs::copy(from.join("project.godot"), dir.path().join("project.godot")).unwrap();
    std::fs::create_dir(dir.path().join("instances")).unwrap();
    for file in std::fs::read_dir(from.join("instances")).unwrap() {
        let file = file.unwrap().path();
        let to = dir.path().join("instances").join(file.file_name().unwrap());
        std::fs::copy(&file, to).unwrap();
    }
    let main = dir.path().join("instances/main.tscn");
    (dir, main)
}

fn imported(main: &Path) -> Editor {
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    let open = Command::File(FileCommand::OpenPath(main.to_path_buf()));
    editor.apply(open).unwrap();
    editor
}

fn answer(answer: SourcesAnswer) -> Command {
    Command::File(FileCommand::AnswerSources(answer))
}

/// Each node's world matrix by its path of names.
fn worlds(scene: &Scene) -> std::collections::BTreeMap<String, glam::Affine2> {
    let mut scene = scene.clone();
    scene.update_world();
    let path = |mut i: usize| {
        let mut names = vec![scene.data_at(i).name.to_string()];
        while let Some(p) = scene.parent_index_at(i) {
            names.push(scene.data_at(p).name.to_string());
            i = p;
        }
        names.reverse();
        names.join("/")
    };
    (0..scene.len())
        .map(|i| (path(i), scene.world_at(i)))
        .collect()
}

fn assert_same_worlds(a: &Scene, b: &Scene) {
    let (a, b) = (worlds(a), worlds(b));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, m) in &a {
        assert!(
            m.abs_diff_eq(b[name], 1e-4),
            "{name}: {m:?} vs {:?}",
            b[name]
        );
    }
}

#[test]
fn an_import_with_instances_asks_and_writing_the_parts_keeps_the_scene() {
    let (dir, main) = project();
    let mut editor = imported(&main);
    let question = editor.sources_question().expect("asked").clone();
    assert_eq!(question.imported, "main.tscn");
    assert!(
        question.sources.iter().any(|p| p.ends_with("ball.tscn")),
        "{question:?}"
    );
    let before = editor.doc().scene().clone();
    let names_before = editor.doc().scene().len();
    // Write: the dialog is a folder picker; the picked folder gets one .ron per source.
    let outcome = editor.apply(answer(SourcesAnswer::Write(None))).unwrap();
    assert!(
        format!("{outcome:?}").contains("Folder"),
        "a folder dialog: {outcome:?}"
    );
    let parts = dir.path().join("parts");
    editor
        .apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(parts.clone()),
        )))
        .unwrap();
    assert!(editor.sources_question().is_none(), "answered");
    assert!(parts.join("ball.ron").exists());
    let scene = editor.doc().scene();
    assert_eq!(scene.len(), names_before);
    let sources = scene.instances().unwrap().source_files();
    assert!(
        sources
            .iter()
            .all(|p| p.extension().is_some_and(|e| e == "ron")),
        "{sources:?}"
    );
    assert_same_worlds(&before, scene);
    // Saved next to the parts and read back: the instances name them.
    let out = dir.path().join("main.ron");
    editor
        .apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(out.clone()),
        )))
        .ok();
    let _ = editor.apply(Command::File(FileCommand::SaveAs));
    editor
        .apply(Command::File(FileCommand::DialogClosed(
            DialogOutcome::Picked(out.clone()),
        )))
        .unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("instance: \"parts/ball.ron\""), "{text}");
    let back = graft::model::file::load(&out).unwrap();
    assert_same_worlds(&before, &back);
}

#[test]
fn keeping_the_tscn_files_or_answering_after_an_edit_changes_nothing() {
    let (dir, main) = project();
    let mut editor = imported(&main);
    editor.apply(answer(SourcesAnswer::Keep)).unwrap();
    assert!(editor.sources_question().is_none());
    let sources = editor.doc().scene().instances().unwrap().source_files();
    assert!(
        sources
            .iter()
            .all(|p| p.extension().is_some_and(|e| e == "tscn"))
    );
    // An edit, then an answer that would replace the scene: refused, the edit kept.
    let mut editor = imported(&main);
    let first = editor.doc().scene().id_at(0);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![first])))
        .unwrap();
    editor
        .apply(Command::Edit(
            graft::editor::session::command::EditCommand::Delete,
        ))
        .unwrap();
    let edited = editor.doc().scene().len();
    let refused = editor
        .apply(answer(SourcesAnswer::Write(Some(dir.path().join("p")))))
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("changed or was saved since the import"),
        "{refused}"
    );
    assert_eq!(editor.doc().scene().len(), edited, "the edit stays");
    assert!(!dir.path().join("p").exists(), "nothing written");
}

#[test]
fn the_window_asks_with_the_keep_button_focused_and_write_opens_a_folder_dialog() {
    let (dir, main) = project();
    let fake = FakeDialogs::new([DialogOutcome::Picked(dir.path().join("parts"))]);
    let app_fake = fake.clone();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(main.clone()), Box::new(app_fake)));
    h.run_steps(6);
    assert!(h.state().editor().sources_question().is_some());
    h.get_by_label_contains("instances 2 Godot scene");
    h.get_by_label("Write them as graft scenes…").click();
    h.run_steps(6);
    assert!(
        fake.requests()
            .iter()
            .any(|k| matches!(k, DialogKind::Folder { .. })),
        "{:?}",
        fake.requests()
    );
    assert!(h.state().editor().sources_question().is_none());
    assert!(dir.path().join("parts/ball.ron").exists());
}

#[test]
fn after_writing_the_parts_the_journal_records_the_next_edit() {
    use graft::editor::session::command::{EditCommand, JournalCommand};
    use graft::editor::session::journal::RecoveryAnswer;
    let (dir, main) = project();
    let journals = dir.path().join("journals");
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    editor.start_journal(journals.clone());
    editor
        .apply(Command::File(FileCommand::OpenPath(main.clone())))
        .unwrap();
    let parts = dir.path().join("parts");
    editor
        .apply(answer(SourcesAnswer::Write(Some(parts.clone()))))
        .unwrap();
    let first = editor.doc().scene().id_at(0);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![first])))
        .unwrap();
    editor.apply(Command::Edit(EditCommand::Delete)).unwrap();
    assert!(editor.doc().scene().is_empty(), "the root and all under it");
    drop(editor); // a crash: no clean end (dropping leaves the journal)
    let mut next = Editor::new(Document::untitled(Scene::new()));
    next.start_journal(journals);
    let offer = next.recovery_offer().expect("the edit is offered");
    assert_eq!(offer.edits, 1, "{offer:?}");
    next.apply(Command::Journal(JournalCommand::AnswerRecovery(
        RecoveryAnswer::Recover,
    )))
    .unwrap();
    assert!(next.doc().scene().is_empty(), "the delete came back");
    next.apply(Command::History(
        graft::editor::session::command::HistoryCommand::Undo,
    ))
    .unwrap();
    let sources = next.doc().scene().instances().unwrap().source_files();
    assert!(
        sources.iter().all(|p| p.starts_with(&parts)),
        "the recovered scene names the written parts: {sources:?}"
    );
}

/// A Godot scene big enough to open on a worker asks the same question when it arrives (it
/// was asked only of one imported at once).
#[test]
fn a_tscn_imported_on_a_worker_asks_about_its_instanced_scenes_too() {
    use graft::editor::session::command::Lifecycle;
    let (_dir, main) = project();
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    editor
        .apply(Command::Lifecycle(Lifecycle::BackgroundBytes(0)))
        .unwrap();
    editor
        .apply(Command::File(FileCommand::OpenPath(main.clone())))
        .unwrap();
    assert!(editor.job().is_some(), "imported on a worker");
    for _ in 0..2000 {
        if editor.job().is_none() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        editor.poll_job().unwrap();
    }
    assert!(editor.job().is_none(), "the import finished");
    let question = editor.sources_question().expect("asked");
    assert_eq!(question.imported, "main.tscn");
    assert_eq!(question.sources.len(), 2, "{:?}", question.sources);
}
