//! An open scene: the scene, its undo history, and the file it belongs to. No egui.

use crate::error::Result;
use crate::model::file;
use crate::model::scene::Scene;
use crate::model::scene::edit::{Change, History, Op};
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
}

impl Document {
    /// An untitled document holding `scene`, unmodified.
    pub fn untitled(scene: Scene) -> Self {
        Self {
            scene,
            history: History::new(),
            path: None,
            revision: 0,
        }
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
        }
    }

    /// Open a file (nothing changes anywhere if it is bad).
    pub fn open(path: &Path) -> Result<Self> {
        let scene = file::load(path)?;
        Ok(Self {
            scene,
            history: History::new(),
            path: Some(path.to_path_buf()),
            revision: 0,
        })
    }

    /// A document rebuilt from a journal: `scene` is where its history starts, clean there.
    pub fn recovered(scene: Scene, path: Option<PathBuf>) -> Self {
        Self {
            scene,
            history: History::new(),
            path,
            revision: 0,
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

    /// Save to the document's file (Save As when untitled is the caller's job).
    pub fn save_to(&mut self, path: &Path) -> Result<()> {
        file::save(&self.scene, path)?;
        self.path = Some(path.to_path_buf());
        self.history.mark_clean();
        Ok(())
    }

    /// A number that changes with every step, undo, redo or history jump.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// A copy of the scene was saved to `path` (on a worker) when the document was at
    /// `revision`: the document now lives there, and is clean unless it changed since.
    /// Returns true when it is clean.
    pub fn saved_as(&mut self, path: &Path, revision: u64) -> bool {
        self.path = Some(path.to_path_buf());
        if revision == self.revision {
            self.history.mark_clean();
        }
        revision == self.revision
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
        self.history.jump_to(&mut self.scene, done)
    }

    /// Fresh ids for copies about to be inserted (they must not clash with any id in use).
    pub fn renumber_fresh(&self, subtrees: &mut [crate::model::scene::DetachedSubtree]) {
        self.scene.renumber_fresh(subtrees);
    }

    /// The history, for tests that inject faults into it.
    #[doc(hidden)]
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
        self.revision += 1;
        self.history.perform(&mut self.scene, label, ops)
    }

    /// Perform ops as part of a continuous gesture (merged into one undo step).
    pub fn perform_gesture(
        &mut self,
        label: impl Into<String>,
        ops: Vec<Op>,
        gesture: u64,
    ) -> Result<()> {
        self.revision += 1;
        self.history
            .perform_gesture(&mut self.scene, label, ops, Some(gesture))
    }

    /// Undo one step; returns its label.
    pub fn undo(&mut self) -> Result<Option<String>> {
        self.revision += 1;
        self.history.undo(&mut self.scene)
    }

    /// Redo one step; returns its label.
    pub fn redo(&mut self) -> Result<Option<String>> {
        self.revision += 1;
        self.history.redo(&mut self.scene)
    }
}
