//! The session is a composition of parts (issue 47): `impl Editor` is written in three files
//! only (the struct and its read API, the router, the frame), and the session's other files do
//! not name `Editor` but for those listed with why. Both lists must match exactly, so they only
//! shrink: a part that needs another's data is handed it (`EditParts`, `FileParts`, …).

use graft::editor::session::Editor;
use graft::editor::session::Outcome;
use graft::editor::session::command::{
    Command, Effect, FileCommand, InstanceCommand, SelectionCommand,
};
use graft::editor::session::dialogs::DialogOutcome;
use graft::editor::session::lesson::LessonCommand;
use graft::model::document::Document;
use std::path::{Path, PathBuf};

/// The files of `src/editor/session/` that hold `impl Editor` blocks.
const IMPL_EDITOR_IN: &[&str] = &["mod.rs", "routes.rs", "tick.rs"];

/// The other files of `src/editor/session/` that name `Editor`, and why.
const NAMES_EDITOR: &[(&str, &str)] = &[
    (
        "announce.rs",
        "the screen reader's announcer reads the whole session after each command",
    ),
    (
        "lesson_check.rs",
        "the lesson walk plays each step on a scratch session",
    ),
    (
        "lesson_truth.rs",
        "a prediction's answer played on a scratch session",
    ),
    (
        "record_check.rs",
        "a recorded lesson replayed on a scratch session",
    ),
];

/// The code of a file: each line without its `//` comment, cut before its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let lines = text.lines().map(|l| l.split("//").next().unwrap_or(""));
    lines.collect::<Vec<_>>().join("\n")
}

/// True when `word` appears in `code` as a whole word.
fn names(code: &str, word: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.match_indices(word).any(|(at, _)| {
        !ident(code[..at].chars().next_back()) && !ident(code[at + word.len()..].chars().next())
    })
}

/// The session's files (relative to its folder) whose code passes `test`, sorted.
fn files_where(folder: &Path, test: impl Fn(&str) -> bool) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    paths.sort();
    let named = paths.into_iter().filter(|p| {
        let text = std::fs::read_to_string(p).unwrap();
        test(&code(&text))
    });
    let name = |p: PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
    named.map(name).collect()
}

#[test]
fn impl_editor_is_written_in_three_files() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/editor/session");
    let found = files_where(&folder, |code| code.contains("impl Editor"));
    assert_eq!(found, IMPL_EDITOR_IN, "files with impl Editor");
    let mut elsewhere = Vec::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for path in std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()) {
            if path.is_dir() && path != folder {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && code(&std::fs::read_to_string(&path).unwrap()).contains("impl Editor")
            {
                elsewhere.push(path.display().to_string());
            }
        }
    }
    assert!(
        elsewhere.is_empty(),
        "impl Editor outside the session: {elsewhere:?}"
    );
}

#[test]
fn the_session_s_parts_do_not_name_the_editor() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/editor/session");
    let found = files_where(&folder, |code| names(code, "Editor"));
    let mut allowed: Vec<&str> = IMPL_EDITOR_IN.to_vec();
    allowed.extend(NAMES_EDITOR.iter().map(|(f, _)| *f));
    allowed.sort_unstable();
    assert_eq!(
        found, allowed,
        "session files naming Editor (a part is handed the parts it needs instead)"
    );
}

#[test]
fn the_checks_see_code_not_comments_or_tests() {
    let text =
        "// impl Editor\nfn f(_: EditorState) {}\n#[cfg(test)]\nmod tests { fn g(_: Editor) {} }";
    assert!(!names(&code(text), "Editor"));
    assert!(names(&code("fn g(e: &Editor) {}"), "Editor"));
    assert!(code("impl Editor {}").contains("impl Editor"));
}

/// True when the outcome asks the app for a file dialog.
fn asks_for_a_file(outcome: &Outcome) -> bool {
    (outcome.effects.iter()).any(|e| matches!(e, Effect::ShowDialog(_)))
}

/// The file dialog ends with `path` picked.
fn pick(editor: &mut Editor, path: &Path) {
    let picked = DialogOutcome::Picked(path.to_path_buf());
    (editor.apply(Command::File(FileCommand::DialogClosed(picked)))).expect("carried out");
}

/// The file flows (`file_parts.rs`) hand a picked file whose purpose another part carries out
/// back to the router (`Back`): the learner's progress, a branch saved as a scene and an
/// instance of it each reach their part.
#[test]
fn a_picked_file_reaches_the_part_that_carries_it_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = Document::sample();
    doc.save_to(&dir.path().join("sword.ron")).unwrap();
    let mut editor = Editor::new(doc);
    let asked = editor.apply(Command::Lesson(LessonCommand::ExportProgress));
    assert!(asks_for_a_file(&asked.unwrap()));
    let progress = dir.path().join("progress.json");
    pick(&mut editor, &progress);
    let text = std::fs::read_to_string(&progress).expect("the progress is written");
    assert!(text.trim_start().starts_with('{'), "{text}");

    let node = *editor.doc().scene().ids().last().unwrap();
    let select = SelectionCommand::Select(vec![node]);
    editor.apply(Command::Selection(select)).unwrap();
    let asked = editor.apply(Command::Instance(InstanceCommand::SaveBranch(None)));
    assert!(asks_for_a_file(&asked.unwrap()));
    let branch = dir.path().join("branch.ron");
    pick(&mut editor, &branch);
    assert!(branch.exists(), "the branch is written");
    let root = editor.primary().expect("the instance is selected");
    assert!(editor.doc().scene().instance_entry(root).is_some());

    let before = editor.doc().scene().len();
    let instance = InstanceCommand::Instance {
        under: None,
        path: None,
    };
    assert!(asks_for_a_file(
        &editor.apply(Command::Instance(instance)).unwrap()
    ));
    pick(&mut editor, &branch);
    assert!(
        editor.doc().scene().len() > before,
        "an instance of it is added"
    );
}
