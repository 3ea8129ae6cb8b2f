//! The continuous-edit counter the session keys undo steps by (edits are performed with it by
//! [`perform`](crate::editor::session::timeline::perform), which auto-keys them).

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
}
