//! The continuous-edit counter the session keys undo steps by, and performing an edit on the
//! document it is handed (one undo step, or part of the open gesture; with auto-key, the moved
//! nodes keyed in the same step).

use crate::editor::session::timeline::TimelineState;
use crate::error::Result;
use crate::model::document::Document;
use crate::model::scene::NodeId;
use crate::model::scene::edit::Op;

/// The continuous-edit counter: a drag or a slider is one gesture, one undo step.
#[derive(Default)]
pub(super) struct Gestures {
    pub(super) open: Option<u64>,
    next: u64,
}

impl Gestures {
    /// The open gesture's key, or a new one (opened).
    pub(super) fn continue_or_open(&mut self) -> u64 {
        *self.open.get_or_insert_with(|| {
            self.next += 1;
            self.next
        })
    }

    /// A key no gesture had, not opened.
    pub(super) fn fresh(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Perform ops on `doc` as one undo step, or as part of the open continuous gesture. The
    /// gesture's key comes from this one counter: panels never make one up. The timeline is
    /// handed for auto-key (its switch and its time).
    pub(super) fn perform(
        &mut self,
        doc: &mut Document,
        timeline: &TimelineState,
        label: String,
        ops: Vec<Op>,
        continuous: bool,
    ) -> Result<()> {
        let keyed = timeline.auto_keyed_nodes(&ops);
        if !keyed.is_empty() {
            return self.perform_and_key(doc, timeline, (label, ops), continuous, &keyed);
        }
        if !continuous {
            // A refused step leaves the open gesture as it was: it changed nothing.
            doc.perform(label, ops)?;
            self.open = None;
            return Ok(());
        }
        let gesture = self.continue_or_open();
        doc.perform_gesture(label, ops, gesture)
    }

    /// With auto-key: perform the ops, then key the moved nodes at the current time, all as
    /// one undo step (one gesture, closed at once unless the edit is continuous).
    fn perform_and_key(
        &mut self,
        doc: &mut Document,
        timeline: &TimelineState,
        (label, ops): (String, Vec<Op>),
        continuous: bool,
        nodes: &[NodeId],
    ) -> Result<()> {
        let gesture = match self.open.filter(|_| continuous) {
            Some(g) => g,
            None => self.fresh(),
        };
        // The keys need the locals the edit leads to (a world edit is solved through the
        // parent): perform it alone, read the keys, take it back, then perform both as one
        // step, so a drag merges frame by frame as usual.
        doc.perform(label.clone(), ops.clone())?;
        let key_ops = timeline.key_ops(doc.scene(), nodes);
        doc.undo()?;
        let mut all = ops;
        all.extend(key_ops?);
        let keyed = doc.perform_gesture(label, all, gesture);
        if continuous {
            self.open = Some(gesture);
        } else {
            self.open = None;
            doc.end_gesture();
        }
        keyed
    }
}
