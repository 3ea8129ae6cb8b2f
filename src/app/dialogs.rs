//! Native file dialogs (rfd) on a worker thread, so a stuck desktop portal never freezes the
//! window. The trait, the dialog kinds and the scripted fake are egui-free, in
//! `crate::editor::session::dialogs`.

pub use crate::editor::session::dialogs::{DialogKind, DialogOutcome, FakeDialogs, FileDialogs};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// Native dialogs through rfd, each run on its own thread.
#[derive(Default)]
pub struct NativeDialogs {
    pending: Option<Receiver<DialogOutcome>>,
}

/// A dialog that returns nothing faster than this most likely could not be shown at all.
const TOO_FAST: Duration = Duration::from_millis(250);

impl FileDialogs for NativeDialogs {
    fn request(&mut self, kind: DialogKind) {
        let (tx, rx) = channel();
        self.pending = Some(rx);
        let spawned = std::thread::Builder::new()
            .name("file-dialog".into())
            .spawn(move || {
                let started = Instant::now();
                let picked = show(kind);
                let outcome = match picked {
                    Some(path) => DialogOutcome::Picked(path),
                    None if started.elapsed() < TOO_FAST => DialogOutcome::Unavailable,
                    None => DialogOutcome::Cancelled,
                };
                let _ = tx.send(outcome);
            });
        if spawned.is_err() {
            let (tx, rx) = channel();
            let _ = tx.send(DialogOutcome::Unavailable);
            self.pending = Some(rx);
        }
    }

    fn poll(&mut self) -> Option<DialogOutcome> {
        let rx = self.pending.as_ref()?;
        match rx.try_recv() {
            Ok(outcome) => {
                self.pending = None;
                Some(outcome)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.pending = None;
                Some(DialogOutcome::Unavailable)
            }
        }
    }

    fn is_open(&self) -> bool {
        self.pending.is_some()
    }
}

/// Show the native dialog of `kind` (blocking: run on the dialog's thread); the picked path.
/// Its filters come from the table of file kinds (`model::file_kind`): for a choice of
/// several, one filter for all of them first, then one per kind.
fn show(kind: DialogKind) -> Option<std::path::PathBuf> {
    let dialog = filters(rfd::FileDialog::new(), kind.kinds());
    match kind {
        DialogKind::Open => dialog.set_title("Open scene").pick_file(),
        DialogKind::OpenLesson => dialog.set_title("Open a lesson").pick_file(),
        DialogKind::Save { suggested } => dialog
            .set_title("Save scene")
            .set_file_name(suggested)
            .save_file(),
        DialogKind::Image => dialog.set_title("Choose the sprite's image").pick_file(),
        DialogKind::InstanceSource => dialog.set_title("Instance a scene").pick_file(),
        DialogKind::Import => dialog
            .set_title("Import a Godot scene or an SVG drawing")
            .pick_file(),
        DialogKind::Export { suggested } => dialog
            .set_title("Export as Godot scene")
            .set_file_name(suggested)
            .save_file(),
        DialogKind::SaveLesson { suggested, folder } => {
            let dialog = dialog
                .set_title("Save the recorded lesson")
                .set_file_name(suggested);
            match folder {
                Some(folder) => dialog.set_directory(folder),
                None => dialog,
            }
            .save_file()
        }
        DialogKind::Folder { title } => dialog.set_title(title).pick_folder(),
        DialogKind::ExportFile { suggested, .. } => dialog
            .set_title("Export")
            .set_file_name(suggested)
            .save_file(),
    }
}

/// The dialog's filters for `kinds`.
fn filters(
    dialog: rfd::FileDialog,
    kinds: &[crate::model::file_kind::FileKind],
) -> rfd::FileDialog {
    let all: Vec<&str> = kinds.iter().flat_map(|k| k.extensions()).copied().collect();
    let dialog = if kinds.len() > 1 {
        dialog.add_filter("Everything it takes", &all)
    } else {
        dialog
    };
    kinds
        .iter()
        .fold(dialog, |d, k| d.add_filter(k.label(), k.extensions()))
}
