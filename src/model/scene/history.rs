//! Undo history: labelled steps of edits, each performed, undone and redone atomically.
//!
//! A step, an undo and a redo apply several edits in order. If one of them is refused, the
//! ones already applied are taken back in reverse with their exact inverses, so the scene is
//! left as it was (ids, order, names, data, local numbers bit for bit, and so the world
//! matrices after the next update) and the stacks are unchanged. Scene operations refuse before
//! changing anything, and an edit's inverse replays stored numbers, so taking back cannot fail
//! in practice; if it ever did, the error says so ([`Error::RollbackFailed`]).

use super::Scene;
use super::edit::{Edit, Op};
use crate::error::{Error, Result};

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

    /// Test hook: from now on, the applied edits numbered `at` and rollback edits `back_at` fail.
    #[doc(hidden)]
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
        let next_id = scene.next_id;
        let mut edits = Vec::with_capacity(ops.len());
        for op in ops {
            match self.faults.check(false).and_then(|()| op.perform(scene)) {
                Ok(edit) => edits.push(edit),
                Err(e) => return Err(self.take_back(scene, &edits, next_id, e)),
            }
        }
        if edits.is_empty() {
            return Ok(());
        }
        self.record(Step {
            label: label.into(),
            edits,
            gesture,
        });
        Ok(())
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
        if let Some(last) = self.done.last_mut() {
            last.gesture = None;
        }
    }

    /// Take back the last step; returns its label. All or nothing: on an error the scene and
    /// both stacks are as they were.
    pub fn undo(&mut self, scene: &mut Scene) -> Result<Option<String>> {
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
                self.undo(scene)?;
            }
            while self.done.len() < done && !self.undone.is_empty() {
                self.redo(scene)?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(()),
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
    }

    /// True when the scene matches what was last saved or opened.
    pub fn is_clean(&self) -> bool {
        self.clean == Some(self.done.len())
    }
}
