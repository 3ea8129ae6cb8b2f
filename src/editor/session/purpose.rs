//! The session's small vocabulary of file flows and results: the file actions that may first
//! ask about unsaved changes, what an open file dialog is for, and what a command asks of the app.

use crate::error::{Error, Result};
use crate::model::file_kind::{self, FileKind};
use crate::model::generate::GenShape;
use crate::model::progress::grouped;
use crate::model::scene::NodeId;
use std::path::PathBuf;

/// File actions that may first need the unsaved-changes prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum FileAction {
    /// Start a new, empty scene.
    New,
    /// Show the Open dialog.
    Open,
    /// Show the dialog that picks a Godot scene to import.
    Import,
    /// Open this file.
    OpenPath(PathBuf),
    /// Reload the file from disk.
    Revert,
    /// Close the window.
    Quit,
    /// Swap in the scene a background job loaded (the current one was edited meanwhile).
    SwapLoaded,
    /// Replace the scene with a generated one.
    Generate(GenerateRequest),
    /// Start a lesson (its scene replaces the current one).
    OpenLesson(Box<crate::editor::lesson::Lesson>),
    /// Recover the journal the recovery prompt offers (its scene replaces the current one).
    Recover,
}

/// What an open file dialog (or the typed-path field that replaces it) is for.
#[derive(Clone, Debug, PartialEq)]
pub enum DialogPurpose {
    /// Open the picked file.
    Open,
    /// Open the picked lesson file.
    OpenLesson,
    /// Write the stopped recording as a lesson to the picked file.
    SaveLesson,
    /// Write the learner's lesson progress as JSON to the picked file.
    ExportProgress,
    /// Import the picked Godot scene.
    Import,
    /// Export the scene as a Godot scene to the picked file.
    ExportGodot,
    /// Export the scene as a Godot 3 scene to the picked file.
    ExportGodot3,
    /// Export the scene as SVG groups to the picked file.
    ExportSvg,
    /// Export the clip as animated SVG or an HTML player to the picked file.
    ExportAnimation,
    /// Write the figure to the picked file (.svg or .png).
    ExportFigure,
    /// Save to the picked file, then go on with `then`.
    SaveAs {
        /// The action waiting for the save.
        then: Option<FileAction>,
    },
    /// Set the picked image as this sprite's.
    ChooseImage {
        /// The sprite's node.
        node: NodeId,
    },
    /// Write an import's instanced Godot scenes as graft scenes in the picked folder.
    ImportSources,
    /// Instance the picked scene under this node (None: a root).
    InstanceScene {
        /// The parent.
        under: Option<NodeId>,
    },
    /// Save this node's branch as the picked scene file, replaced by an instance of it.
    SaveBranch {
        /// The branch's root.
        node: NodeId,
    },
}

/// What applying a command asks of the app, besides drawing the new state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// UI-side follow-ups, in order.
    pub effects: Vec<Effect>,
}

impl Outcome {
    pub(super) fn with(effect: Effect) -> Self {
        Self {
            effects: vec![effect],
        }
    }
}

impl DialogPurpose {
    /// The kinds of file the purpose takes (its dialog's filters, its typed-path prompt).
    pub fn kinds(&self) -> &'static [FileKind] {
        match self {
            Self::Open => file_kind::OPENABLE,
            Self::OpenLesson | Self::SaveLesson => file_kind::LESSON,
            Self::Import => file_kind::IMPORTABLE,
            Self::ExportGodot | Self::ExportGodot3 => file_kind::GODOT_EXPORT,
            Self::ExportSvg => file_kind::SVG_EXPORT,
            Self::ExportAnimation => file_kind::ANIMATION_EXPORT,
            Self::ExportFigure => file_kind::FIGURE_EXPORT,
            Self::SaveAs { .. } | Self::SaveBranch { .. } => file_kind::SCENE,
            Self::ChooseImage { .. } => file_kind::SPRITE_IMAGES,
            Self::InstanceScene { .. } => file_kind::INSTANCE_SOURCES,
            Self::ExportProgress => file_kind::PROGRESS_EXPORT,
            Self::ImportSources => &[],
        }
    }

    /// What the typed-path prompt asks: "Export animation: type a .svg, .html, .gif or .png path".
    pub fn prompt(&self) -> String {
        let what = match self {
            Self::Open => "Open scene",
            Self::OpenLesson => "Open a lesson",
            Self::SaveLesson => "Write the recorded lesson",
            Self::SaveAs { .. } => "Save scene as",
            Self::Import => "Import",
            Self::ExportGodot => "Export as Godot scene",
            Self::ExportGodot3 => "Export as Godot 3 scene",
            Self::ExportSvg => "Export as SVG",
            Self::ExportAnimation => "Export animation",
            Self::ExportFigure => "Export figure",
            Self::ChooseImage { .. } => "Choose image",
            Self::InstanceScene { .. } => "Instance scene",
            Self::SaveBranch { .. } => "Save branch as scene",
            Self::ExportProgress => "Export my progress",
            Self::ImportSources => return "Write the instanced scenes: type a folder path".into(),
        };
        format!("{what}: type {}", file_kind::prompt_words(self.kinds()))
    }
}

/// What the app must do after a command, beyond drawing the new state: things that live in
/// the UI (a panel's rename field, the camera, a native dialog, the window).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Put the hierarchy row of this node into rename mode.
    StartRename(NodeId),
    /// Frame these nodes in the viewport.
    Frame(Vec<NodeId>),
    /// Frame these nodes and world points (a lesson step's subject) in the viewport.
    FrameWithPoints(crate::editor::view::framing::Framed),
    /// Frame the whole scene on the next frame (a new scene arrived).
    FrameAllNextFrame,
    /// Show a native file dialog.
    ShowDialog(crate::editor::session::dialogs::DialogKind),
    /// Refuse the window's close request (unsaved changes; the prompt is up).
    CancelClose,
    /// Close the window.
    CloseWindow,
    /// Forget per-scene UI state (collapsed rows, caches): another scene was loaded.
    SceneReplaced,
    /// Open this scene file in a new graft window (another process).
    OpenWindow(PathBuf),
}

/// The most nodes a generated scene may have (about 2.5 GB held in the editor).
pub const MAX_GENERATED_NODES: usize = 10_000_000;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateRequest {
    /// Wide, chain or random.
    pub shape: GenShape,
    /// How many nodes.
    pub nodes: usize,
    /// The random seed (the same seed makes the same scene).
    pub seed: u64,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        Self {
            shape: GenShape::Random,
            nodes: 100_000,
            seed: 1,
        }
    }
}

impl GenerateRequest {
    /// "a 1,000,000-node random scene (seed 1)".
    pub fn describe(&self) -> String {
        format!(
            "a {}-node {} scene (seed {})",
            grouped(self.nodes as u64),
            self.shape,
            self.seed
        )
    }

    /// Refused when the node count is out of range.
    pub fn check(&self) -> Result<()> {
        if (1..=MAX_GENERATED_NODES).contains(&self.nodes) {
            Ok(())
        } else {
            Err(Error::Refused(format!(
                "A generated scene has 1 to {} nodes, not {}",
                grouped(MAX_GENERATED_NODES as u64),
                grouped(self.nodes as u64)
            )))
        }
    }
}

/// The answer to "FILE changed on disk since graft read it".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictAnswer {
    /// Write this version over the other one (the other stays in `FILE.bak`).
    Overwrite,
    /// Save this version under another name; the file on disk stays.
    SaveAs,
    /// Drop this version and load the file as it is on disk now.
    Reload,
    /// Do nothing now (a save later asks again).
    Cancel,
}

/// The answer to "Keep the instanced Godot scenes, or write them as graft scenes?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourcesAnswer {
    /// Keep the `.tscn` sources.
    Keep,
    /// Write each source as a `.ron` in this folder (None: pick the folder in a dialog).
    Write(Option<PathBuf>),
}
