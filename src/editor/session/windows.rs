//! The floating windows part: which windows are open. Its commands open and close them,
//! dismiss the error window and say why something was refused.

use crate::editor::session::command::{Window, WindowCommand};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::error::{Error, Result};
use rustc_hash::FxHashSet;

/// Open and close floating windows, dismiss the error window, say why something was refused:
/// handed the set of open windows and the message log only.
pub(super) fn handle(
    windows: &mut FxHashSet<Window>,
    log: &mut MessageLog,
    command: WindowCommand,
) -> Result<Outcome> {
    match command {
        WindowCommand::Show(window) => {
            windows.insert(window);
        }
        WindowCommand::Close(window) => {
            windows.remove(&window);
        }
        WindowCommand::DismissError => log.dismiss_error(),
        WindowCommand::Refused(reason) => return Err(Error::Refused(reason)),
    }
    Ok(Outcome::default())
}
