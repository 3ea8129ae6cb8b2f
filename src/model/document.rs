//! An open scene: the scene, its undo history, and the file it belongs to. No egui.

use crate::error::Result;
use crate::model::file;
use crate::model::file_stamp::{DiskState, FileStamp};
use crate::model::scene::edit::{Change, History, Op};
use crate::model::scene::{Scene, sprites};
use std::path::{Path, PathBuf};

/// The built-in sample shown when graft starts without a file (scenes/sword.ron).
pub const SWORD_SCENE: &str = include_str!("../../scenes/sword.ron");

/// The scenes shipped in `scenes/`, by file name, for Help and the built-in start.
pub const SAMPLE_SCENES: [&str; 5] = [
    "sword.ron",
    "shear.ron",
    "tank.ron",
    "solar.ron",
    "flip.ron",
];

/// A scene being edited: the model, its history and where it is saved. The scene changes only
/// through [`Document::perform`], undo and redo, so every change is in the history.
#[derive(Debug)]
pub struct Document {
    scene: Scene,
    history: History,
    path: Option<PathBuf>,
    /// Changes with every step, undo, redo or jump (a background save compares it).
    revision: u64,
    /// The file as graft last read or wrote it (None: untitled, or not known).
    stamp: Option<FileStamp>,
    /// A lesson's scene: its changes are never asked about (until Save As gives it a file).
    scratch: bool,
    /// Which document this is: unique in the process (a replaced document is a new one).
    serial: u64,
    /// What the history did last.
    last: HistoryMove,
}

/// What the history did last: what a screen reader says after it ("Undo: …", "Redo: …").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HistoryMove {
    /// Nothing yet.
    #[default]
    None,
    /// A new step (or a gesture's step grew).
    Step,
    /// One step undone.
    Undo,
    /// One step redone.
    Redo,
    /// A jump in the history window.
    Jump,
}

/// A serial for a new document.
fn next_serial() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Document {
    /// An untitled document holding `scene`, unmodified.
    pub fn untitled(scene: Scene) -> Self {
        Self {
            scene,
            history: History::new(),
            path: None,
            revision: 0,
            stamp: None,
            scratch: false,
            serial: next_serial(),
            last: HistoryMove::None,
        }
    }

    /// An untitled scratch document (a lesson's scene): moving on to another lesson never asks
    /// to save its changes; Save As makes it an ordinary document.
    pub fn scratch(scene: Scene) -> Self {
        Self {
            scratch: true,
            ..Self::untitled(scene)
        }
    }

    /// True for a scratch document that has no file yet.
    pub fn is_scratch(&self) -> bool {
        self.scratch && self.path.is_none()
    }

    /// The built-in sword scene, untitled.
    pub fn sample() -> Self {
        Self::untitled(file::parse(SWORD_SCENE, Path::new("sword.ron")).unwrap_or_default())
    }

    /// A document on a scene already loaded from `path` (by a background job), unmodified.
    pub fn opened(scene: Scene, path: &Path) -> Self {
        Self {
            scene,
            history: History::new(),
            path: Some(path.to_path_buf()),
            revision: 0,
            stamp: None,
            scratch: false,
            serial: next_serial(),
            last: HistoryMove::None,
        }
    }

    /// Open a file (nothing changes anywhere if it is bad).
    pub fn open(path: &Path) -> Result<Self> {
        // Stamped before it is read: a change made meanwhile shows as a change at save.
        let stamp = FileStamp::read(path).ok();
        let scene = file::load(path)?;
        Ok(Self {
            scene,
            history: History::new(),
            path: Some(path.to_path_buf()),
            revision: 0,
            stamp,
            scratch: false,
            serial: next_serial(),
            last: HistoryMove::None,
        })
    }

    /// A document rebuilt from a journal: `scene` is where its history starts, clean there.
    pub fn recovered(scene: Scene, path: Option<PathBuf>) -> Self {
        Self {
            scene,
            history: History::new(),
            path,
            revision: 0,
            stamp: None,
            scratch: false,
            serial: next_serial(),
            last: HistoryMove::None,
        }
    }

    /// Replay a journaled history change (all or nothing).
    pub fn replay(&mut self, change: &Change) -> Result<()> {
        self.revision += 1;
        self.history.replay(&mut self.scene, change)
    }

    /// The document now lives at `path` (or is untitled), as a journal recorded it.
    pub fn moved_to(&mut self, path: Option<PathBuf>) {
        self.path = path;
    }

    /// Start or stop collecting the history's changes for a journal.
    pub fn listen(&mut self, on: bool) {
        self.history.listen(on);
    }

    /// The history's changes since the last call (empty unless listening).
    pub fn take_changes(&mut self) -> Vec<Change> {
        self.history.take_changes()
    }

    /// Save to `path` (Save As when untitled is the caller's job). Into another folder, the
    /// relative sprite paths are rebased first, in the scene and its history alike (not an
    /// undo step: every state keeps naming the same images); a failed save takes that back.
    /// An untitled scene's absolute image and instance paths (an import's, a dropped file's)
    /// become relative to the file's folder, as `graft import` writes them.
    pub fn save_to(&mut self, path: &Path) -> Result<()> {
        let (from, to) = (self.sprite_folder(), sprites::folder_of(path));
        // Each path as it was, in the order the scene's paths are visited (None: unchanged),
        // so a failed save puts back exactly what changed.
        let mut was: Vec<Option<String>> = Vec::new();
        match &from {
            Some(from) => _ = self.rebase_between(from, &to),
            None => {
                self.scene.map_sprite_paths(|p| {
                    let relative = sprites::relative_path(p, &to);
                    was.push(relative.as_ref().map(|_| p.to_string()));
                    relative
                });
            }
        }
        if let Err(e) = file::save(&self.scene, path) {
            match &from {
                Some(from) => _ = self.rebase_between(&to, from),
                None => {
                    let mut back = was.into_iter();
                    self.scene.map_sprite_paths(|_| back.next().flatten());
                }
            }
            return Err(e);
        }
        self.path = Some(path.to_path_buf());
        self.stamp = FileStamp::read(path).ok();
        self.history.mark_clean();
        Ok(())
    }

    /// The file as graft last read or wrote it (None: untitled or unknown).
    pub fn stamp(&self) -> Option<&FileStamp> {
        self.stamp.as_ref()
    }

    /// Remember the file as it is now (after a load on a worker, a save, or a reload).
    pub fn set_stamp(&mut self, stamp: Option<FileStamp>) {
        self.stamp = stamp;
    }

    /// How the document's file on disk compares with what graft last read or wrote: None
    /// when there is nothing to compare (untitled, or never stamped).
    pub fn disk_state(&self) -> Option<DiskState> {
        Some(self.stamp.as_ref()?.on_disk(self.path.as_deref()?))
    }

    /// The folder the relative sprite paths are relative to: the file's, absolute; None when
    /// untitled (its paths are absolute, or the built-in scene's embedded images).
    pub fn sprite_folder(&self) -> Option<PathBuf> {
        self.path.as_deref().map(sprites::folder_of)
    }

    /// Rebase the relative sprite paths (scene and history) for a copy written to `file`:
    /// each names the same image from its folder. Not an undo step; returns how many of the
    /// scene's paths changed (none when untitled or in the same folder).
    pub fn rebase_for_file(&mut self, file: &Path) -> usize {
        match self.sprite_folder() {
            Some(from) => self.rebase_between(&from, &sprites::folder_of(file)),
            None => 0,
        }
    }

    /// Rebase the relative sprite paths from folder `from` to `to` (absolute, normalized).
    fn rebase_between(&mut self, from: &Path, to: &Path) -> usize {
        if from == to {
            return 0;
        }
        self.revision += 1;
        self.history.rebase_sprites(&mut self.scene, from, to)
    }

    /// The scene as it was before the history's first step (a journal begun after edits
    /// starts from it and replays the history): a copy, undone to the start.
    pub fn origin_scene(&self) -> Result<Scene> {
        let mut scene = self.scene.clone();
        let mut history = self.history.clone();
        history.listen(false);
        history.jump_to(&mut scene, 0)?;
        // As it was before any Save As rebased it (the history's changes rebase it again).
        history.unrebase(&mut scene);
        Ok(scene)
    }

    /// A number that changes with every step, undo, redo or history jump.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Which document this is: unique in the process, so a replaced document is told apart.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// What the history did last (a step, an undo, a redo, a jump).
    pub fn last_move(&self) -> HistoryMove {
        self.last
    }

    /// A copy of the scene was saved to `path` (on a worker) when the document was at
    /// `revision`: the document now lives there, and is clean unless it changed since.
    /// Returns true when it is clean.
    /// The copy was rebased for `path` ([`Document::rebase_for_file`]); so is the document
    /// now, with the edits made since.
    pub fn saved_as(&mut self, path: &Path, revision: u64, stamp: Option<FileStamp>) -> bool {
        let clean = revision == self.revision;
        match self.path {
            Some(_) => _ = self.rebase_for_file(path),
            None => _ = self.scene.relative_sprites(&sprites::folder_of(path)),
        }
        self.path = Some(path.to_path_buf());
        self.stamp = stamp;
        if clean {
            self.history.mark_clean();
        }
        clean
    }

    /// The scene (read-only: change it with [`Document::perform`]).
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The undo history (read-only).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The file, or None for "untitled".
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Recompute the world matrices of everything edited since the last call (once per frame);
    /// returns how many were recomputed. Changes no value the history records.
    pub fn update_world(&mut self) -> usize {
        self.scene.update_world()
    }

    /// Bring the scene's list of animated nodes up to date (one pass after the tree or the
    /// tracks changed, nothing otherwise), so reading it each frame costs nothing.
    pub fn refresh_animated(&mut self) {
        self.scene.refresh_animated();
    }

    /// Pose the animated nodes at playback time `t` (like Godot's AnimationPlayer: the locals
    /// change, the history does not). Returns how many locals changed.
    pub fn set_pose_at(&mut self, t: f32) -> usize {
        self.scene.set_pose_at(t)
    }

    /// End the current continuous gesture: the next step starts a new undo step.
    pub fn end_gesture(&mut self) {
        self.history.end_gesture();
    }

    /// Undo or redo until `done` steps are applied; all or nothing.
    pub fn jump_to(&mut self, done: usize) -> Result<()> {
        self.revision += 1;
        self.last = HistoryMove::Jump;
        self.history.jump_to(&mut self.scene, done)
    }

    /// Fresh ids for copies about to be inserted (they must not clash with any id in use).
    pub fn renumber_fresh(&self, subtrees: &mut [crate::model::scene::DetachedSubtree]) {
        self.scene.renumber_fresh(subtrees);
    }

    /// The history, for tests that inject faults into it (the `test-hooks` feature).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn history_mut(&mut self) -> &mut History {
        &mut self.history
    }

    /// True when there are changes not on disk.
    pub fn is_modified(&self) -> bool {
        !self.history.is_clean()
    }

    /// The file name, or "untitled".
    pub fn display_name(&self) -> String {
        self.path
            .as_deref()
            .and_then(|p| p.file_name())
            .map_or_else(
                || "untitled".to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
    }

    /// The window title: `name.ron — graft`, with `*` when modified.
    pub fn title(&self) -> String {
        let star = if self.is_modified() { "*" } else { "" };
        format!("{}{star} — graft", self.display_name())
    }

    /// Perform ops as one undo step.
    pub fn perform(&mut self, label: impl Into<String>, ops: Vec<Op>) -> Result<()> {
        crate::model::instance::edit::check_ops(&self.scene, &ops)?;
        self.revision += 1;
        self.last = HistoryMove::Step;
        self.history.perform(&mut self.scene, label, ops)
    }

    /// Perform ops as part of a continuous gesture (merged into one undo step).
    pub fn perform_gesture(
        &mut self,
        label: impl Into<String>,
        ops: Vec<Op>,
        gesture: u64,
    ) -> Result<()> {
        crate::model::instance::edit::check_ops(&self.scene, &ops)?;
        self.revision += 1;
        self.last = HistoryMove::Step;
        self.history
            .perform_gesture(&mut self.scene, label, ops, Some(gesture))
    }

    /// Follow the instances' sources as they are on disk now (one changed): every override
    /// kept, the expanded nodes keep their ids. One undo step (so the journal has it and
    /// recovery is exact) labelled `label`; a clean document whose file would not change
    /// stays clean. False when nothing changed.
    pub fn reload_instances(&mut self, label: &str) -> Result<bool> {
        if self
            .scene
            .instances()
            .is_none_or(|t| !t.in_use(&self.scene))
        {
            return Ok(false);
        }
        let host = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from("untitled.ron"));
        let ops = crate::model::instance::follow::follow_ops(&self.scene, &host)?;
        if ops.is_empty() {
            return Ok(false);
        }
        // Small scenes compare their text: following a source seldom changes the file.
        let small = self.scene.len() <= 20_000 && self.history.is_clean();
        let before = small.then(|| file::to_ron_string(&self.scene));
        self.perform(label, ops)?;
        if before.is_some_and(|t| t == file::to_ron_string(&self.scene)) {
            self.history.mark_clean();
        }
        Ok(true)
    }

    /// Undo one step; returns its label.
    pub fn undo(&mut self) -> Result<Option<String>> {
        self.revision += 1;
        self.last = HistoryMove::Undo;
        self.history.undo(&mut self.scene)
    }

    /// Redo one step; returns its label.
    pub fn redo(&mut self) -> Result<Option<String>> {
        self.revision += 1;
        self.last = HistoryMove::Redo;
        self.history.redo(&mut self.scene)
    }
}
