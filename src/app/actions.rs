//! The one place intents are applied: edits with undo, selection, clipboard and file I/O,
//! behind the unsaved-changes guard.

use super::dialogs::{DialogKind, DialogOutcome};
use super::{DialogPurpose, FileAction, GraftApp, Intent, MAX_RECENT};
use crate::document::Document;
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene};
use std::path::PathBuf;

impl GraftApp {
    /// Apply one intent. Failures become messages; the scene is never left half-changed.
    pub fn apply(&mut self, intent: Intent) {
        match intent {
            Intent::Select(ids) => self.selection = ids,
            Intent::ToggleSelect(id) => {
                if let Some(at) = self.selection.iter().position(|s| *s == id) {
                    self.selection.remove(at);
                } else {
                    self.selection.push(id);
                }
            }
            Intent::Perform {
                label,
                ops,
                gesture,
            } => {
                let result = match gesture {
                    Some(g) => self.doc.perform_gesture(label, ops, g),
                    None => self.doc.perform(label, ops),
                };
                if let Err(e) = result {
                    self.error(e.to_string());
                }
            }
            Intent::EndGesture => self.doc.history.end_gesture(),
            Intent::Undo => match self.doc.undo() {
                Ok(Some(label)) => self.info(format!("Undid {label}")),
                Ok(None) => self.info("Nothing to undo"),
                Err(e) => self.error(format!("Undo failed: {e}")),
            },
            Intent::Redo => match self.doc.redo() {
                Ok(Some(label)) => self.info(format!("Redid {label}")),
                Ok(None) => self.info("Nothing to redo"),
                Err(e) => self.error(format!("Redo failed: {e}")),
            },
            Intent::JumpHistory(n) => {
                if let Err(e) = self.doc.history.jump_to(&mut self.doc.scene, n) {
                    self.error(format!("History jump failed: {e}"));
                }
            }
            Intent::New => self.request(FileAction::New),
            Intent::Open => self.request(FileAction::Open),
            Intent::OpenPath(path) => self.request(FileAction::OpenPath(path)),
            Intent::Revert => self.request(FileAction::Revert),
            Intent::Quit => self.request(FileAction::Quit),
            Intent::Save => {
                self.save(None);
            }
            Intent::SaveAs => self.start_dialog(DialogPurpose::SaveAs { then: None }),
            Intent::Copy => self.copy(),
            Intent::Paste => self.paste(),
            Intent::Duplicate => self.duplicate(),
            Intent::Delete => self.delete(),
            Intent::StartRename => {
                if let Some(id) = self.primary() {
                    self.hierarchy.start_rename(id, &self.doc.scene);
                }
            }
            Intent::FrameSelection => {
                let ids = self.selection.clone();
                self.viewport.frame(&self.doc.scene, &ids);
            }
            Intent::Refused(message) => self.error(message),
            Intent::FrameAll => {
                let ids = self.doc.scene.ids().to_vec();
                self.viewport.frame(&self.doc.scene, &ids);
            }
        }
    }

    /// Run a file action now, or first ask about unsaved changes.
    pub fn request(&mut self, action: FileAction) {
        if self.doc.is_modified() && !self.allow_close {
            self.pending_guard = Some(action);
        } else {
            self.run_action(action);
        }
    }

    /// The prompt's answer: save first, discard, or cancel (None).
    pub fn answer_guard(&mut self, save_first: Option<bool>) {
        let Some(action) = self.pending_guard.take() else {
            return;
        };
        match save_first {
            None => self.info("Cancelled: nothing was changed"),
            Some(false) => self.run_action(action),
            Some(true) => {
                if self.doc.path.is_none() {
                    self.start_dialog(DialogPurpose::SaveAs { then: Some(action) });
                } else if self.save(None) {
                    self.run_action(action);
                }
            }
        }
    }

    pub(super) fn run_action(&mut self, action: FileAction) {
        match action {
            FileAction::New => {
                self.replace_document(Document::untitled(Scene::new()));
                self.info("New scene");
            }
            FileAction::Open => self.start_dialog(DialogPurpose::Open),
            FileAction::OpenPath(path) => self.open_path(path),
            FileAction::Revert => match self.doc.path.clone() {
                Some(path) => self.open_path(path),
                None => self.error("Nothing to revert to: this scene has never been saved"),
            },
            FileAction::Quit => {
                self.allow_close = true;
                self.quit_requested = true;
            }
        }
    }

    /// Open a file; a bad file shows its message and the current scene stays.
    pub fn open_path(&mut self, path: PathBuf) {
        match Document::open(&path) {
            Ok(doc) => {
                self.replace_document(doc);
                self.remember(path.clone());
                self.info(format!("Opened {}", path.display()));
                self.viewport.frame_on_next_frame();
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn replace_document(&mut self, doc: Document) {
        self.doc = doc;
        self.selection.clear();
        self.allow_close = false;
        self.hierarchy = Default::default();
    }

    fn remember(&mut self, path: PathBuf) {
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }

    /// Save to `path` (or the document's own file; untitled asks where). True when saved.
    pub fn save(&mut self, path: Option<PathBuf>) -> bool {
        let Some(target) = path.or_else(|| self.doc.path.clone()) else {
            self.start_dialog(DialogPurpose::SaveAs { then: None });
            return false;
        };
        match self.doc.save_to(&target) {
            Ok(()) => {
                self.remember(target.clone());
                self.info(format!("Saved {}", target.display()));
                true
            }
            Err(e) => {
                self.error(format!("Could not save: {e}"));
                false
            }
        }
    }

    fn start_dialog(&mut self, purpose: DialogPurpose) {
        if self.dialogs.is_open() {
            self.info("A file dialog is already open");
            return;
        }
        let kind = match &purpose {
            DialogPurpose::Open => DialogKind::Open,
            DialogPurpose::SaveAs { .. } => DialogKind::Save {
                suggested: self.doc.display_name().replace("untitled", "scene.ron"),
            },
        };
        self.dialogs.request(kind);
        self.dialog_purpose = Some(purpose);
    }

    pub(super) fn poll_dialogs(&mut self) {
        let Some(outcome) = self.dialogs.poll() else {
            return;
        };
        let Some(purpose) = self.dialog_purpose.take() else {
            return;
        };
        match outcome {
            DialogOutcome::Picked(path) => self.finish_dialog(purpose, path),
            DialogOutcome::Cancelled => self.info("Cancelled"),
            DialogOutcome::Unavailable => {
                self.info("No file dialog could be shown here: type a path instead");
                let start = self
                    .doc
                    .path
                    .as_deref()
                    .map_or(String::new(), |p| p.display().to_string());
                self.path_prompt = Some((purpose, start));
            }
        }
    }

    pub(super) fn finish_dialog(&mut self, purpose: DialogPurpose, path: PathBuf) {
        match purpose {
            DialogPurpose::Open => self.open_path(path),
            DialogPurpose::SaveAs { then } => {
                if self.save(Some(path))
                    && let Some(action) = then
                {
                    self.run_action(action);
                }
            }
        }
    }

    /// Selected nodes whose ancestors are not also selected, in pre-order.
    fn selected_roots(&self) -> Vec<NodeId> {
        self.doc.scene.topmost(&self.selection)
    }

    fn label_for(&self, verb: &str, ids: &[NodeId]) -> String {
        match ids {
            [one] => format!(
                "{verb} {}",
                self.doc
                    .scene
                    .node(*one)
                    .map(|d| d.name.as_str())
                    .unwrap_or("node")
            ),
            many => format!("{verb} {} nodes", many.len()),
        }
    }

    fn copy(&mut self) {
        let roots = self.selected_roots();
        self.clipboard = roots
            .iter()
            .filter_map(|id| self.doc.scene.copy_subtree(*id).ok())
            .collect();
        if !self.clipboard.is_empty() {
            self.info(format!("Copied {}", self.label_for("", &roots).trim()));
        }
    }

    fn paste(&mut self) {
        if self.clipboard.is_empty() {
            return self.info("Nothing to paste");
        }
        let parent = self.primary();
        let mut copies = self.clipboard.clone();
        self.doc.scene.renumber_fresh(&mut copies);
        let count = self
            .doc
            .scene
            .children(parent)
            .map(|c| c.len())
            .unwrap_or(0);
        let ops = copies
            .iter()
            .enumerate()
            .map(|(k, c)| Op::Insert {
                subtree: crate::scene::DetachedSubtree {
                    parent,
                    index: count + k,
                    ..c.clone()
                },
            })
            .collect();
        let ids: Vec<NodeId> = copies.iter().map(|c| c.root()).collect();
        let label = self.label_for("Paste", &ids);
        self.insert_and_select(label, ops, ids);
    }

    fn duplicate(&mut self) {
        let roots = self.selected_roots();
        let mut copies: Vec<_> = roots
            .iter()
            .filter_map(|id| self.doc.scene.copy_subtree(*id).ok())
            .collect();
        self.doc.scene.renumber_fresh(&mut copies);
        // Insert from the last so earlier sibling indices stay valid.
        let mut ops: Vec<Op> = copies
            .iter()
            .map(|c| Op::Insert {
                subtree: crate::scene::DetachedSubtree {
                    index: c.index + 1,
                    ..c.clone()
                },
            })
            .collect();
        ops.reverse();
        let ids: Vec<NodeId> = copies.iter().map(|c| c.root()).collect();
        if ids.is_empty() {
            return;
        }
        let label = self.label_for("Duplicate", &roots);
        self.insert_and_select(label, ops, ids);
    }

    /// Insert copies as one undo step and select them (if the step was not refused).
    fn insert_and_select(&mut self, label: String, ops: Vec<Op>, ids: Vec<NodeId>) {
        self.apply(Intent::Perform {
            label,
            ops,
            gesture: None,
        });
        if ids.iter().all(|id| self.doc.scene.contains(*id)) {
            self.selection = ids;
        }
    }

    fn delete(&mut self) {
        let roots = self.selected_roots();
        if roots.is_empty() {
            return;
        }
        let label = self.label_for("Delete", &roots);
        let ops = roots
            .iter()
            .rev()
            .map(|&node| Op::Remove { node })
            .collect();
        self.apply(Intent::Perform {
            label,
            ops,
            gesture: None,
        });
        self.selection.retain(|id| self.doc.scene.contains(*id));
    }
}
