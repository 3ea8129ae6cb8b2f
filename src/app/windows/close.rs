//! The frame every closable floating window shares (`windows.rs`'s and the lessons window).

use crate::editor::session::command::{Command, Window};

/// A window with a close button; answers `Close(window)` when it was closed.
pub(crate) fn closable(
    ctx: &egui::Context,
    title: &str,
    which: Window,
    body: impl FnOnce(&mut egui::Ui),
) -> Option<Command> {
    let mut open = true;
    egui::Window::new(title).open(&mut open).show(ctx, body);
    (!open).then_some(Command::Close(which))
}
