//! Undo history: labelled steps of edits, each performed, undone and redone atomically.
//!
//! A step, an undo and a redo apply several edits in order. If one of them is refused, the
//! ones already applied are taken back in reverse with their exact inverses, so the scene is
//! left as it was (ids, order, names, data, local numbers bit for bit, and so the world
//! matrices after the next update) and the stacks are unchanged. Scene operations refuse before
//! changing anything, and an edit's inverse replays stored numbers, so taking back cannot fail
//! in practice; if it ever did, the error says so ([`Error::RollbackFailed`]).

use super::edit_op::{Edit, Op};
use super::types::Scene;
use crate::error::{Error, Result};
use std::path::Path;

/// One undoable step: a label and the edits it made, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// What the step did, e.g. "Reparent sword".
    pub label: String,
    /// The edits, in the order they were made.
    pub edits: Vec<Edit>,
    /// Steps with the same gesture key merge (one step per drag or slider gesture).
    gesture: Option<u64>,
}

/// Undo and redo stacks with a clean mark (the step that matches the file on disk).
#[derive(Clone, Debug, Default)]
pub struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
    /// `done.len()` when the scene last matched its file; None when that state is gone.
    clean: Option<usize>,
    /// Failures injected by tests; empty otherwise.
    faults: Faults,
    /// What changed since the journal last took it, when a journal listens (None otherwise).
    changes: Option<Vec<Change>>,
    /// The sprite-path rebases applied to the whole history (Save As into other folders), in
    /// order: [`History::as_changes`] starts with them.
    rebases: Vec<(String, String)>,
}

/// One change of the history, as a journal records it: replaying the changes in order on the
/// scene the history started from gives the same scene and the same history.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Change {
    /// Edits made by one perform (merged into the last step when its gesture continues).
    Step {
        /// The step's label.
        label: String,
        /// The edits, in order, with their results.
        edits: Vec<Edit>,
        /// The gesture key (continuous drags merge into one step).
        gesture: Option<u64>,
    },
    /// The current gesture ended.
    EndGesture,
    /// One step undone.
    Undo,
    /// One step redone.
    Redo,
    /// A jump to this many applied steps.
    Jump(u64),
    /// The current state was saved (the clean mark).
    Clean,
    /// Every relative sprite path, in the scene and in every step, rebased from folder `from`
    /// to folder `to` (absolute): the document moved there (Save As). Not a step: undo keeps
    /// naming the same images.
    Rebase {
        /// The old folder.
        from: String,
        /// The new folder.
        to: String,
    },
}

/// The test hook's state: edits applied and taken back since it was set, and where to fail.
#[derive(Clone, Debug, Default)]
struct Faults {
    applied: usize,
    taken_back: usize,
    fail_at: Vec<usize>,
    fail_back_at: Vec<usize>,
}

impl Faults {
    /// Count one edit about to be applied (or taken back); refuse it if a test asked for that.
    fn check(&mut self, taking_back: bool) -> Result<()> {
        let (count, fail_at) = if taking_back {
            (&mut self.taken_back, &self.fail_back_at)
        } else {
            (&mut self.applied, &self.fail_at)
        };
        let k = *count;
        *count += 1;
        if fail_at.contains(&k) {
            return Err(Error::Injected(k));
        }
        Ok(())
    }
}

impl History {
    /// An empty history whose current state is clean.
    pub fn new() -> Self {
        Self {
            clean: Some(0),
            ..Self::default()
        }
    }

    /// Test hook (the `test-hooks` feature): from now on, the applied edits numbered `at` and
    /// rollback edits `back_at` fail.
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn inject_faults(&mut self, at: &[usize], back_at: &[usize]) {
        self.faults = Faults {
            fail_at: at.to_vec(),
            fail_back_at: back_at.to_vec(),
            ..Faults::default()
        };
    }

    /// Perform `ops` as one labelled step. If any op is refused, the ones already performed are
    /// taken back and the error is returned: the scene is left exactly as it was.
    pub fn perform(
        &mut self,
        scene: &mut Scene,
        label: impl Into<String>,
        ops: Vec<Op>,
    ) -> Result<()> {
        self.perform_gesture(scene, label, ops, None)
    }

    /// Like [`History::perform`], but consecutive steps with the same `gesture` key become one.
    pub fn perform_gesture(
        &mut self,
        scene: &mut Scene,
        label: impl Into<String>,
        ops: Vec<Op>,
        gesture: Option<u64>,
    ) -> Result<()> {
        let label: String = label.into();
        let next_id = scene.next_id;
        let mut edits = Vec::with_capacity(ops.len());
        for op in ops {
            match self.faults.check(false).and_then(|()| op.perform(scene)) {
                Ok(edit) => edits.push(edit),
                Err(e) => return Err(self.take_back(scene, &edits, next_id, e)),
            }
        }
        // A gesture's frame that changed nothing (a drag with no movement yet) is no step.
        if edits.is_empty() || (gesture.is_some() && edits.iter().all(Edit::is_noop)) {
            return Ok(());
        }
        if let Some(changes) = &mut self.changes {
            changes.push(Change::Step {
                label: label.clone(),
                edits: edits.clone(),
                gesture,
            });
        }
        self.record(Step {
            label,
            edits,
            gesture,
        });
        Ok(())
    }

    /// Start (or stop) collecting [`Change`]s for a journal.
    pub fn listen(&mut self, on: bool) {
        self.changes = on.then(Vec::new);
    }

    /// The changes since the last call (empty when nobody listens).
    pub fn take_changes(&mut self) -> Vec<Change> {
        self.changes
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn note(&mut self, change: Change) {
        if let Some(changes) = &mut self.changes {
            changes.push(change);
        }
    }

    /// Replay a journaled change on `scene`, the scene this history is at: the same result as
    /// when it was first made. All or nothing.
    pub fn replay(&mut self, scene: &mut Scene, change: &Change) -> Result<()> {
        match change {
            Change::Step {
                label,
                edits,
                gesture,
            } => {
                self.apply_all(scene, edits)?;
                self.note(change.clone());
                self.record(Step {
                    label: label.clone(),
                    edits: edits.clone(),
                    gesture: *gesture,
                });
                Ok(())
            }
            Change::EndGesture => {
                self.end_gesture();
                Ok(())
            }
            Change::Undo => self.undo(scene).map(drop),
            Change::Redo => self.redo(scene).map(drop),
            Change::Jump(done) => {
                let done = usize::try_from(*done).unwrap_or(usize::MAX);
                self.jump_to(scene, done)
            }
            Change::Clean => {
                self.mark_clean();
                Ok(())
            }
            Change::Rebase { from, to } => {
                self.rebase_sprites(scene, Path::new(from), Path::new(to));
                Ok(())
            }
        }
    }

    /// Rebase every relative sprite path from folder `from` to folder `to` (absolute), in the
    /// scene and in every step done or undone, so undo and redo after a move keep naming the
    /// same images; not a step of its own. Returns how many scene paths changed.
    pub fn rebase_sprites(&mut self, scene: &mut Scene, from: &Path, to: &Path) -> usize {
        use super::edit_op::map_edit;
        use super::sprites::{normalize, rebase_path};
        if normalize(from) == normalize(to) {
            return 0;
        }
        let mut map = |p: &str| rebase_path(p, from, to);
        let steps = self.done.iter_mut().chain(self.undone.iter_mut());
        for edit in steps.flat_map(|s| s.edits.iter_mut()) {
            map_edit(edit, &mut map);
        }
        let (from, to) = (from.to_string_lossy(), to.to_string_lossy());
        self.rebases.push((from.clone().into(), to.clone().into()));
        self.note(Change::Rebase {
            from: from.into(),
            to: to.into(),
        });
        scene.map_sprite_paths(map)
    }

    /// Take the sprite-path rebases back on `scene`, newest first: the history undone to its
    /// start is its first scene rebased, and [`History::as_changes`] rebases again (the
    /// paths may be written differently, e.g. `./a.png` as `a.png`, but name the same files
    /// and rebase to the same text).
    pub fn unrebase(&self, scene: &mut Scene) {
        for (from, to) in self.rebases.iter().rev() {
            scene.rebase_sprites(Path::new(to), Path::new(from));
        }
    }

    /// The history as changes that rebuild it from its first scene: every step in order (their
    /// gesture keys kept), the clean mark where it is, and the undos back to where it stands.
    pub fn as_changes(&self) -> Vec<Change> {
        let steps: Vec<&Step> = self.done.iter().chain(self.undone.iter().rev()).collect();
        let mut out = Vec::with_capacity(steps.len() + self.undone.len() + 1);
        // The rebased steps replay on the first scene rebased the same way.
        out.extend(self.rebases.iter().map(|(from, to)| Change::Rebase {
            from: from.clone(),
            to: to.clone(),
        }));
        if self.clean == Some(0) {
            out.push(Change::Clean);
        }
        for (k, step) in steps.iter().enumerate() {
            out.push(Change::Step {
                label: step.label.clone(),
                edits: step.edits.clone(),
                gesture: step.gesture,
            });
            if self.clean == Some(k + 1) {
                out.push(Change::Clean);
            }
        }
        out.extend(std::iter::repeat_n(Change::Undo, self.undone.len()));
        out
    }

    /// Apply `edits` in order, all or none: on a refusal the applied ones are taken back.
    fn apply_all(&mut self, scene: &mut Scene, edits: &[Edit]) -> Result<()> {
        let next_id = scene.next_id;
        for (k, edit) in edits.iter().enumerate() {
            if let Err(e) = self.faults.check(false).and_then(|()| edit.apply(scene)) {
                return Err(self.take_back(scene, &edits[..k], next_id, e));
            }
        }
        Ok(())
    }

    /// Take back `applied` in reverse after `error`; returns the error to report.
    fn take_back(
        &mut self,
        scene: &mut Scene,
        applied: &[Edit],
        next_id: u32,
        error: Error,
    ) -> Error {
        let mut failed = None;
        for edit in applied.iter().rev() {
            let undone = self
                .faults
                .check(true)
                .and_then(|()| edit.inverse().apply(scene));
            if let Err(e) = undone {
                // Keep going: the other edits are still worth taking back.
                failed.get_or_insert(e);
            }
        }
        // An Add that was taken back leaves its id unused again.
        scene.next_id = next_id;
        match failed {
            None => error,
            Some(rollback) => Error::RollbackFailed {
                error: Box::new(error),
                rollback: Box::new(rollback),
            },
        }
    }

    /// Record an already performed step.
    fn record(&mut self, step: Step) {
        self.undone.clear();
        if self.clean.is_some_and(|c| c > self.done.len()) {
            self.clean = None;
        }
        let clean_here = self.clean == Some(self.done.len());
        if let (Some(g), Some(last)) = (step.gesture, self.done.last_mut())
            && last.gesture == Some(g)
            && !clean_here
            && step.edits.len() == last.edits.len()
            && last
                .edits
                .iter()
                .zip(&step.edits)
                .all(|(a, b)| a.can_absorb(b))
        {
            for (a, b) in last.edits.iter_mut().zip(&step.edits) {
                a.absorb(b);
            }
            return;
        }
        self.done.push(step);
    }

    /// End the current gesture: the next step starts a new undo entry even with the same key.
    pub fn end_gesture(&mut self) {
        if let Some(last) = self.done.last_mut()
            && last.gesture.take().is_some()
        {
            self.note(Change::EndGesture);
        }
    }

    /// Take back the last step; returns its label. All or nothing: on an error the scene and
    /// both stacks are as they were.
    pub fn undo(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let label = self.undo_step(scene)?;
        if label.is_some() {
            self.note(Change::Undo);
        }
        Ok(label)
    }

    fn undo_step(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let Some(step) = self.done.pop() else {
            return Ok(None);
        };
        let inverses: Vec<Edit> = step.edits.iter().rev().map(Edit::inverse).collect();
        if let Err(e) = self.apply_all(scene, &inverses) {
            self.done.push(step);
            return Err(e);
        }
        let label = step.label.clone();
        self.undone.push(step);
        Ok(Some(label))
    }

    /// Do the last undone step again; returns its label. All or nothing, like [`History::undo`].
    pub fn redo(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let label = self.redo_step(scene)?;
        if label.is_some() {
            self.note(Change::Redo);
        }
        Ok(label)
    }

    fn redo_step(&mut self, scene: &mut Scene) -> Result<Option<String>> {
        let Some(step) = self.undone.pop() else {
            return Ok(None);
        };
        if let Err(e) = self.apply_all(scene, &step.edits) {
            self.undone.push(step);
            return Err(e);
        }
        let label = step.label.clone();
        self.done.push(step);
        Ok(Some(label))
    }

    /// Undo or redo until exactly `done` steps are applied. All or nothing: if a step on the
    /// way fails, the steps already passed are walked back (as a rollback), so the scene and
    /// both stacks are as they were.
    pub fn jump_to(&mut self, scene: &mut Scene, done: usize) -> Result<()> {
        let start = self.done.len();
        let result = (|| {
            while self.done.len() > done {
                self.undo_step(scene)?;
            }
            while self.done.len() < done && !self.undone.is_empty() {
                self.redo_step(scene)?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                if self.done.len() != start {
                    self.note(Change::Jump(self.done.len() as u64));
                }
                Ok(())
            }
            Err(error) => match self.walk_back(scene, start) {
                Ok(()) => Err(error),
                Err(rollback) => Err(Error::RollbackFailed {
                    error: Box::new(error),
                    rollback: Box::new(rollback),
                }),
            },
        }
    }

    /// Return to `start` applied steps after a failed jump, counting as rollback edits.
    fn walk_back(&mut self, scene: &mut Scene, start: usize) -> Result<()> {
        while self.done.len() < start {
            let Some(step) = self.undone.pop() else { break };
            for edit in &step.edits {
                self.faults.check(true).and_then(|()| edit.apply(scene))?;
            }
            self.done.push(step);
        }
        while self.done.len() > start {
            let Some(step) = self.done.pop() else { break };
            for edit in step.edits.iter().rev() {
                self.faults
                    .check(true)
                    .and_then(|()| edit.inverse().apply(scene))?;
            }
            self.undone.push(step);
        }
        Ok(())
    }

    /// The labels of all steps, oldest first, and how many of them are applied.
    pub fn labels(&self) -> (Vec<&str>, usize) {
        let labels = self
            .done
            .iter()
            .chain(self.undone.iter().rev())
            .map(|s| s.label.as_str())
            .collect();
        (labels, self.done.len())
    }

    /// True when the scene is the history's first: no step ever recorded, no sprites rebased.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty() && self.undone.is_empty() && self.rebases.is_empty()
    }

    /// True when any step was recorded (done or undone).
    pub fn has_steps(&self) -> bool {
        !self.done.is_empty() || !self.undone.is_empty()
    }

    /// Label of the step Undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.done.last().map(|s| s.label.as_str())
    }

    /// Label of the step Redo would do again.
    pub fn redo_label(&self) -> Option<&str> {
        self.undone.last().map(|s| s.label.as_str())
    }

    /// Mark the current state as the one on disk.
    pub fn mark_clean(&mut self) {
        self.clean = Some(self.done.len());
        self.end_gesture();
        self.note(Change::Clean);
    }

    /// True when the scene matches what was last saved or opened.
    pub fn is_clean(&self) -> bool {
        self.clean == Some(self.done.len())
    }
}
