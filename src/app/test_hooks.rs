//! What only tests and benches use (the `test-hooks` feature): ops no panel sends, sent from
//! the window. Not a panel: `tests/panel_rules.rs` leaves this file out of the panels' rules.

use super::GraftApp;
use crate::model::scene::edit::Op;

impl GraftApp {
    /// [`crate::editor::Editor::perform_ops`] from the window, as [`GraftApp::run`] applies a
    /// command (a drag's raw steps in the viewport's tests and the frame benches).
    pub fn perform_ops(&mut self, label: impl Into<String>, ops: Vec<Op>, continuous: bool) {
        if let Ok(outcome) = self.editor.perform_ops(label, ops, continuous) {
            self.carry_out(outcome);
        }
    }
}
