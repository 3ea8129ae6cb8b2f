//! `graft recover`: the crash journal from a terminal (list what can be recovered, write a
//! recovered scene), and the hidden scripted editing session the kill tests run in a child.

use super::failure::Failure;
use crate::editor::session::Editor;
use crate::editor::session::clipboard::trs_to_text;
use crate::editor::session::command::{
    Command, EditCommand, HistoryCommand, NewNodePlace, PanelCommand, SelectionCommand,
    TransformSpace,
};
use crate::editor::session::journal_folder::{self, DISCARDED, EXTENSION};
use crate::editor::session::journal_recover::local_clock;
use crate::editor::session::journal_scan;
use crate::editor::view::pointer::MoveDrag;
use crate::model::document::Document;
use crate::model::journal;
use crate::model::math::Trs;
use crate::model::read_limit;
use crate::model::scene::{Keep, NodeId};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal folder: `--dir`, else where the window keeps it.
fn folder(dir: Option<PathBuf>) -> Result<PathBuf, Failure> {
    dir.or_else(journal_folder::journal_dir).ok_or_else(|| {
        Failure("graft recover: no journal folder (set GRAFT_JOURNAL_DIR or HOME)".into())
    })
}

/// `graft recover --list`: one line per journal with unsaved work: its id, its file (or
/// "untitled"), edits, when it was last written, and whether a running graft holds it; with
/// `all`, the journals set aside (discarded, or whose recovery stopped graft) too.
pub fn list(dir: Option<PathBuf>, all: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let dir = folder(dir)?;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| {
        p.extension()
            .is_some_and(|e| e == EXTENSION || all && e == DISCARDED)
    });
    paths.sort();
    let mut shown = 0;
    for path in paths {
        let id = path
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let bytes = read_limit::read_bounded(&path, read_limit::JOURNAL).unwrap_or_default();
        let when = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .map_or("?".into(), local_clock);
        match journal::summarize(&bytes) {
            Ok(summary) if summary.unsaved_changes == 0 => {}
            Ok(summary) => {
                let note = if path.extension().is_some_and(|e| e == DISCARDED) {
                    "  (set aside)"
                } else if journal_scan::is_held(&path) {
                    "  (open in a running graft)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "{id}  {}  {} edits ({} unsaved changes)  last at {when}{note}",
                    summary.path.as_deref().unwrap_or("untitled"),
                    summary.edits,
                    summary.unsaved_changes,
                )?;
                shown += 1;
            }
            Err(e) => {
                writeln!(out, "{id}  unreadable: {e}")?;
                shown += 1;
            }
        }
    }
    if shown == 0 {
        writeln!(out, "no journal with unsaved changes in {}", dir.display())?;
    }
    Ok(())
}

/// `graft recover ID -o out.ron`: rebuild the journal's scene and save it (the journal stays).
/// A journal that cannot be read writes nothing and fails.
pub fn recover_to(
    dir: Option<PathBuf>,
    id: &str,
    output: &Path,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let given = Path::new(id);
    let path = if given.exists() {
        given.to_path_buf()
    } else {
        let dir = folder(dir)?;
        let journal = dir.join(format!("{id}.{EXTENSION}"));
        let aside = dir.join(format!("{id}.{DISCARDED}"));
        if !journal.exists() && aside.exists() {
            aside
        } else {
            journal
        }
    };
    let bytes = read_limit::read_bounded(&path, read_limit::JOURNAL).map_err(|e| match e {
        crate::Error::Io { source, .. } => {
            Failure(format!("graft recover: {}: {source}", path.display()))
        }
        other => Failure(format!("graft recover: {other}")),
    })?;
    let recovered = journal::recover(&bytes)
        .map_err(|e| Failure(format!("graft recover: {}: {e}", path.display())))?;
    // Written elsewhere than the journal's file: its sprites still name the same images.
    let mut document = recovered.document;
    document.rebase_for_file(output);
    crate::model::file::save(document.scene(), output)?;
    let tail = match recovered.stop {
        journal::Stop::End => "",
        journal::Stop::Cut => " (its last record was cut short and was dropped)",
        journal::Stop::Corrupt => " (a damaged record ended it there)",
    };
    writeln!(
        out,
        "recovered {} changes from {}{tail}; wrote {}",
        recovered.changes,
        path.display(),
        output.display()
    )?;
    Ok(())
}

/// One scripted step of the drill, chosen by `rng` from what the scene holds now: the
/// commands a person would send for it (a node to delete or move is selected first).
pub fn drill_step(rng: &mut fastrand::Rng, editor: &Editor) -> Vec<Command> {
    let ids = editor.doc().scene().ids();
    if ids.is_empty() {
        return vec![Command::Edit(EditCommand::AddNode(NewNodePlace::Root))];
    }
    let pick = |rng: &mut fastrand::Rng| ids[rng.usize(..ids.len())];
    let node = pick(rng);
    let local = Trs {
        position: glam::Vec2::new(rng.f32() * 20.0 - 10.0, rng.f32() * 20.0 - 10.0),
        rotation: rng.f32() * 360.0 - 180.0,
        scale: glam::Vec2::new(0.5 + rng.f32(), 0.5 + rng.f32()),
        skew: 0.0,
    };
    let select = Command::Selection(SelectionCommand::Select(vec![node]));
    let one = |command: Command| vec![command];
    match rng.u32(..12) {
        0..=2 => one(Command::Panel(PanelCommand::PasteTransform {
            node,
            text: trs_to_text(&local),
            space: TransformSpace::Local,
        })),
        3..=4 => one(drag_to(editor, node, local.position)),
        5 => one(Command::History(HistoryCommand::EndGesture)),
        6 => one(Command::Edit(EditCommand::AddNode(NewNodePlace::ChildOf(
            node,
        )))),
        7 if ids.len() > 3 => vec![select, Command::Edit(EditCommand::Delete)],
        8 => {
            let parent = Some(pick(rng)).filter(|_| rng.bool());
            let keep = Keep::world_if(rng.bool());
            vec![select, Command::Edit(EditCommand::MoveTo { parent, keep })]
        }
        9 => one(Command::History(HistoryCommand::Undo)),
        10 => one(Command::History(HistoryCommand::Redo)),
        _ => one(Command::History(HistoryCommand::JumpHistory(
            rng.usize(..=editor.doc().history().labels().0.len()),
        ))),
    }
}

/// The viewport's drag of `node` by `by` (world units; continuous until EndGesture).
fn drag_to(editor: &Editor, node: NodeId, by: glam::Vec2) -> Command {
    let scene = editor.doc().scene();
    let starts = (scene.world(node).ok())
        .map(|w| (node, w.translation))
        .into_iter()
        .collect();
    let drag = MoveDrag {
        start_pointer: glam::DVec2::ZERO,
        starts,
    };
    Command::Panel(PanelCommand::MoveSelection {
        drag: std::sync::Arc::new(drag),
        pointer: by.as_dvec2(),
        snap: None,
    })
}

/// Apply `steps` drill commands from `seed` to `editor` (refusals are part of the script).
pub fn drill(editor: &mut Editor, seed: u64, steps: usize, mut after: impl FnMut(usize)) {
    let mut rng = fastrand::Rng::with_seed(seed);
    for step in 0..steps {
        for command in drill_step(&mut rng, editor) {
            let _ = editor.apply(command);
        }
        after(step);
    }
}

/// The hidden `graft journal-drill`: the sample scene (or `file`), journaled in `dir`, edited
/// by the script; prints each step's number once `apply` returned, and ends without a clean
/// end (the journal stays, as after a crash; with a file, as after a SIGTERM: the journal's
/// threads finish first, so a `GRAFT_KILL_AT` stage in them is reached).
pub fn journal_drill(
    dir: PathBuf,
    seed: u64,
    steps: usize,
    file: Option<&Path>,
) -> Result<(), Failure> {
    let document = match file {
        Some(path) => Document::open(path)?,
        None => Document::sample(),
    };
    let mut editor = Editor::new(document);
    editor.start_journal(dir);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    drill(&mut editor, seed, steps, |step| {
        let _ = writeln!(out, "{step}");
        let _ = out.flush();
    });
    if file.is_some() {
        editor.end_on_signal();
    }
    std::mem::forget(editor);
    Ok(())
}
