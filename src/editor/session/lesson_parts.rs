//! A lesson's parts: the sample scenes a lesson instances (`do: instance sample wheel under
//! car as front`) are files in a folder of the session's own, so the window treats them as
//! any source (the inspector's overrides, Open source, the disk watch). `do: edit sample …`
//! changes one value of a part's file as another window saving it would, and every instance
//! of it follows (the same ops as the disk watch's follow).

use crate::editor::lesson::eval::{Bindings, nodes_named};
use crate::editor::lesson::parse::{cut, error_at};
use crate::editor::lesson::play::set_op;
use crate::editor::lesson::{Action, Name};
use crate::editor::session::Editor;
use crate::error::{Error, Result};
use crate::model::instance::plan;
use crate::model::scene::NodeId;
use crate::model::scene::edit::Op;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The session's parts folder (made on first use, under the system's temporary folder;
/// removed with the session).
#[derive(Debug, Default)]
pub struct PartsDir(OnceLock<PathBuf>);

/// Parts folders made by this process (each session has its own).
static MADE: AtomicU32 = AtomicU32::new(0);

impl PartsDir {
    /// The folder, made (empty) on first use.
    fn folder(&self) -> Result<&Path> {
        if self.0.get().is_none() {
            let n = MADE.fetch_add(1, Ordering::Relaxed);
            let name = format!("graft-parts-{}-{n}", std::process::id());
            let dir = std::env::temp_dir().join(name);
            // A folder left by an earlier process with this id holds nothing of ours.
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir)
                .map_err(|e| Error::Refused(format!("{}: {e}", dir.display())))?;
            let _ = self.0.set(dir);
        }
        self.0
            .get()
            .map(PathBuf::as_path)
            .ok_or_else(|| Error::Refused("no parts folder".into()))
    }

    /// The file of the sample part `sample`, written from the sample when not there yet.
    pub fn file(&self, sample: &str) -> Result<PathBuf> {
        let text = crate::editor::lesson::course::sample_scene(sample)
            .ok_or_else(|| Error::Refused(format!("no sample scene is called {}", cut(sample))))?;
        let file = self.folder()?.join(format!("{sample}.ron"));
        if !file.exists() {
            std::fs::write(&file, text)
                .map_err(|e| Error::Refused(format!("{}: {e}", file.display())))?;
        }
        Ok(file)
    }
}

impl Drop for PartsDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Editor {
    /// The file of a lesson's part (the sample scene `sample`), written into the session's
    /// parts folder when not there yet: what Instance scene… or a drop picks.
    pub fn lesson_part(&self, sample: &str) -> Result<PathBuf> {
        self.lessons.parts.file(sample)
    }
}

/// The ops of a part action (`instance`, `edit sample`, `revert`), computed from the session
/// as it is now (None: another kind of action). `edit sample` writes the part's file first.
pub(super) fn part_ops(
    editor: &Editor,
    action: &Action,
    bindings: &Bindings,
    path: &Path,
) -> Result<Option<Vec<Op>>> {
    let scene = editor.doc().scene();
    let find = |name: &Name| super::lesson_play::node(editor, bindings, name, path);
    Ok(Some(match action {
        Action::Instance {
            sample,
            under,
            name,
        } => {
            let file = editor.lessons.parts.file(sample)?;
            let text = plan::source_text(editor.doc().path(), &file);
            let under = under.as_ref().map(find).transpose()?;
            let (mut ops, root) = plan::instance_ops(scene, &editor.host_file(), &text, under)?;
            if let Some(name) = name.clone() {
                ops.push(Op::Rename { node: root, name });
            }
            ops
        }
        Action::EditPart {
            sample,
            node,
            frame,
            value,
        } => {
            let file = editor.lessons.parts.file(sample)?;
            let mut part = crate::model::file::load(&file)?;
            let id = part_node(&part, node, sample, path)?;
            set_op(&part, id, *frame, *value)?.perform(&mut part)?;
            crate::model::file::save(&part, &file)?;
            plan::follow_ops(scene, &editor.host_file())?
        }
        Action::Revert(name) => plan::revert_ops(scene, find(name)?, u16::MAX)?,
        _ => return Ok(None),
    }))
}

/// The one node of a part called `name`, or an error at the name.
fn part_node(
    part: &crate::model::scene::Scene,
    name: &Name,
    sample: &str,
    path: &Path,
) -> Result<NodeId> {
    match nodes_named(part, &name.text).as_slice() {
        [id] => Ok(*id),
        found => Err(error_at(
            path,
            name.at,
            format!(
                "the part {sample} has {} nodes called `{}` (one is needed)",
                found.len(),
                cut(&name.text)
            ),
        )),
    }
}
