//! File dialogs as the editor sees them: what to ask, how it ended, and a trait the app's
//! native dialogs (rfd, in `app`) and the scripted fake for tests both implement.

use crate::model::file_kind::{self, FileKind};
use std::collections::VecDeque;
use std::path::PathBuf;

/// Which dialog to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogKind {
    /// Pick a scene to open.
    Open,
    /// Pick a lesson file to open (titled and filtered for lessons).
    OpenLesson,
    /// Pick where to save, suggesting a file name.
    Save {
        /// The suggested file name.
        suggested: String,
    },
    /// Pick a Godot scene (`.tscn`) to import.
    Import,
    /// Pick where to write a Godot scene, suggesting a file name.
    Export {
        /// The suggested file name.
        suggested: String,
    },
    /// Pick an image for a sprite.
    Image,
    /// Pick a scene to instance (a `.ron` or a `.tscn`).
    InstanceSource,
    /// Pick where to write a recorded lesson, starting in the scene's folder.
    SaveLesson {
        /// The suggested file name.
        suggested: String,
        /// The folder it opens in (the recorded scene's; None: the dialog's own choice).
        folder: Option<PathBuf>,
    },
    /// Pick a folder.
    Folder {
        /// The dialog's title.
        title: String,
    },
    /// Pick where to write an export (SVG groups, an animation, a figure, progress).
    ExportFile {
        /// The suggested file name.
        suggested: String,
        /// The kinds offered, the first the default.
        kinds: Vec<FileKind>,
    },
}

impl DialogKind {
    /// The kinds of file the dialog offers, in the order its filters list them
    /// ([`file_kind`] has the table).
    pub fn kinds(&self) -> &[FileKind] {
        match self {
            Self::Open => file_kind::OPENABLE,
            Self::OpenLesson | Self::SaveLesson { .. } => file_kind::LESSON,
            Self::Save { .. } => file_kind::SCENE,
            Self::Import => file_kind::IMPORTABLE,
            Self::Export { .. } => file_kind::GODOT_EXPORT,
            Self::Image => file_kind::SPRITE_IMAGES,
            Self::InstanceSource => file_kind::INSTANCE_SOURCES,
            Self::ExportFile { kinds, .. } => kinds,
            Self::Folder { .. } => &[],
        }
    }
}

/// How a dialog ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogOutcome {
    /// A file was picked.
    Picked(PathBuf),
    /// The person closed the dialog.
    Cancelled,
    /// No dialog could be shown (no desktop portal, no display): offer a path field instead.
    Unavailable,
}

/// Something that can ask the person for a file, without blocking the UI.
pub trait FileDialogs {
    /// Start showing a dialog (at most one at a time).
    fn request(&mut self, kind: DialogKind);
    /// The outcome, once the dialog has ended.
    fn poll(&mut self) -> Option<DialogOutcome>;
    /// True while a dialog is open.
    fn is_open(&self) -> bool;
}

/// Scripted dialogs for tests: each request takes the next outcome from the queue
/// (`Unavailable` once it is empty) and records what was asked. Clones share one script, so a
/// test keeps a clone to add outcomes and read requests while the app owns the other.
#[derive(Clone, Default)]
pub struct FakeDialogs {
    script: std::rc::Rc<std::cell::RefCell<FakeScript>>,
}

#[derive(Default)]
struct FakeScript {
    outcomes: VecDeque<DialogOutcome>,
    requests: Vec<DialogKind>,
    ready: Option<DialogOutcome>,
}

impl FakeDialogs {
    /// A fake that answers with these outcomes, in order.
    pub fn new(outcomes: impl IntoIterator<Item = DialogOutcome>) -> Self {
        let fake = Self::default();
        fake.script.borrow_mut().outcomes = outcomes.into_iter().collect();
        fake
    }

    /// Queue the answer to a later request.
    pub fn push(&self, outcome: DialogOutcome) {
        self.script.borrow_mut().outcomes.push_back(outcome);
    }

    /// Every request made so far.
    pub fn requests(&self) -> Vec<DialogKind> {
        self.script.borrow().requests.clone()
    }
}

impl FileDialogs for FakeDialogs {
    fn request(&mut self, kind: DialogKind) {
        let mut script = self.script.borrow_mut();
        script.requests.push(kind);
        script.ready = Some(
            script
                .outcomes
                .pop_front()
                .unwrap_or(DialogOutcome::Unavailable),
        );
    }

    fn poll(&mut self) -> Option<DialogOutcome> {
        self.script.borrow_mut().ready.take()
    }

    fn is_open(&self) -> bool {
        self.script.borrow().ready.is_some()
    }
}
