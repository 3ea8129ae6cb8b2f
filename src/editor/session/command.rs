//! Every user action as a value. Panels, menus, shortcuts, the palette and windows all produce
//! [`Command`]s; [`crate::editor::Editor::apply`] is the one place that carries them out.

use crate::editor::session::dialogs::DialogOutcome;
pub use crate::editor::session::purpose::Effect;
use crate::editor::view::handles::{Orientation, Tool};
pub use crate::editor::view::options::{ViewOption, ViewSpace};
use crate::model::scene::NodeId;
use std::path::PathBuf;

/// Which of a node's transforms an edit is typed into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformSpace {
    /// The local transform (relative to the parent).
    Local,
    /// The world transform.
    World,
}

/// A floating window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Window {
    /// The undo history.
    History,
    /// Help ▸ Keyboard shortcuts.
    Shortcuts,
    /// Help ▸ About.
    About,
    /// The command palette.
    Palette,
    /// The last import's or export's report.
    ImportReport,
    /// File > Export figure: settings and a preview.
    Figure,
    /// File > Generate scene: shape, node count, seed.
    Generate,
    /// Help ▸ Lessons…: the built-in course and lesson files.
    Lessons,
    /// Node ▸ Move to…: a searchable list of parents for the selection.
    MoveTo,
}

/// The answer to "Save the changes before …?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardAnswer {
    /// Save first, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Do nothing.
    Cancel,
}

/// Where a new node goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewNodePlace {
    /// A new root, last.
    Root,
    /// The last child of this node.
    ChildOf(NodeId),
    /// Right after this node, as its sibling.
    After(NodeId),
    /// The last child of the primary selection (refused with nothing selected).
    ChildOfPrimary,
    /// Right after the primary selection (refused with nothing selected).
    AfterPrimary,
}

/// Everything a person can ask graft to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Select, add to or take from the selection.
    Selection(SelectionCommand),
    /// Tools, toggles and remembered choices.
    Setting(SettingCommand),
    /// Floating windows and the message log.
    Window(WindowCommand),
    /// Undo, redo, history jumps and gesture ends.
    History(HistoryCommand),
    /// Panels' intents, made into edits and undo labels by the session.
    Panel(PanelCommand),
    /// Structural edits and the keyboard's moves.
    Edit(EditCommand),
    /// Files, dialogs, prompts, background jobs and changes on disk.
    File(FileCommand),
    /// Framing, spaces, focus and the interface's look.
    View(ViewCommand),
    /// The crash journal: on, off, retry, and the answer about recovery.
    Journal(JournalCommand),
    /// Play, scrub, key, move or delete keys.
    Timeline(crate::editor::session::timeline_command::TimelineCommand),
    /// Drop, move or remove a point probe, or turn probe placing on and off.
    Probe(ProbeCommand),
    /// The session's start and end, and its thresholds: what the app asks of the session
    /// outside any menu (so it changes the session only through `apply` and `tick`).
    Lifecycle(Lifecycle),
    /// Open, step through, hint, show or reset a lesson.
    Lesson(crate::editor::session::lesson_command::LessonCommand),
    /// Start, step, stop or drop the recording of a lesson (Help > Record a lesson).
    Record(crate::editor::session::lesson_command::RecordCommand),
    /// Instance a scene, save a branch as one, make local, revert to source, open a source.
    Instance(InstanceCommand),
}

/// Select, add to or take from the selection.
#[derive(Clone, Debug, PartialEq)]
pub enum SelectionCommand {
    /// Replace the selection.
    Select(Vec<NodeId>),
    /// Add a node to the selection, or take it out.
    ToggleSelect(NodeId),
    /// Select every node (in pre-order, the last one primary).
    SelectAll,
}

/// Tools, toggles and remembered choices.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingCommand {
    /// Choose the Godot version Export as Godot scene writes for (true: Godot 3); remembered.
    SetGodot3Export(bool),
    /// Export as Godot scene writes instances as plain nodes (true) or keeps them (false).
    SetGodotFlatten(bool),
    /// Choose how many Godot pixels one graft unit becomes in Export as Godot scene (1: as
    /// is); remembered.
    SetGodotPixelsPerUnit(u32),
    /// Choose the viewport's handle.
    SetTool(Tool),
    /// Switch the handles between the node's axes and the world's.
    ToggleOrientation,
    /// Set the handles' axes.
    SetOrientation(Orientation),
    /// Turn "Keep world transform" on or off.
    ToggleKeepWorld,
    /// Show or hide something in the viewport.
    ToggleView(ViewOption),
}

/// Floating windows and the message log.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowCommand {
    /// Open a window.
    Show(Window),
    /// Close a window.
    Close(Window),
    /// Close the error window.
    DismissError,
    /// Something the person tried was refused: say why (nothing changed).
    Refused(String),
}

/// Undo, redo, history jumps and gesture ends.
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryCommand {
    /// The current drag or slider gesture ended.
    EndGesture,
    /// Undo one step.
    Undo,
    /// Redo one step.
    Redo,
    /// Undo or redo until this many steps are applied.
    JumpHistory(usize),
}

/// The crash journal: on, off, retry, and the answer about recovery.
#[derive(Clone, Debug, PartialEq)]
pub enum JournalCommand {
    /// Turn the crash journal on or off.
    ToggleJournal,
    /// Try again to write a crash journal that could not start or stopped.
    RetryJournal,
    /// The answer to "Recover the unsaved changes …?" after an unclean end.
    AnswerRecovery(crate::editor::session::journal_recover::RecoveryAnswer),
}

/// Framing, spaces, focus and the interface's look.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewCommand {
    /// Change the figure's settings (size, scale, layers, caption, view).
    SetFigure(Box<crate::editor::view::figure::FigureOptions>),
    /// Start renaming the primary selection in the hierarchy.
    StartRename,
    /// Frame the selection in the viewport.
    FrameSelection,
    /// Frame the whole scene.
    FrameAll,
    /// Look at the scene from a space (refused for a node whose world matrix is singular).
    SetViewSpace(ViewSpace),
    /// Give the keyboard to the next or previous panel (F6 / Shift+F6).
    FocusPanel(crate::editor::session::focus::Step),
    /// Give the keyboard to this panel (a click in it).
    SetFocusedPanel(crate::editor::session::focus::Panel),
    /// Make the interface bigger or smaller (Ctrl+= / Ctrl+-).
    StepUiScale(crate::editor::session::focus::Step),
    /// Set the interface scale (1.0: 100 %; Ctrl+0, or restored at start).
    SetUiScale(f32),
    /// Turn the high-contrast theme on or off.
    SetHighContrast(bool),
    /// High contrast on if off, off if on.
    ToggleHighContrast,
}

/// Files, dialogs, prompts, background jobs and changes on disk.
#[derive(Clone, Debug, PartialEq)]
pub enum FileCommand {
    /// A new, empty scene (asks about unsaved changes first).
    New,
    /// Show the Open dialog (asks about unsaved changes first).
    Open,
    /// Open this file (asks about unsaved changes first); a `.tscn` is imported.
    OpenPath(PathBuf),
    /// Show the dialog that picks a Godot scene to import (asks about unsaved changes first).
    Import,
    /// Show the dialog that picks where to export the scene as a Godot scene.
    ExportGodot,
    /// Show the dialog that picks where to export the scene as a Godot 3 scene (`format=2`).
    ExportGodot3,
    /// Show the dialog that picks where to export the scene as SVG (one group per node).
    ExportSvg,
    /// Show the dialog that picks where to export the clip as animated SVG (.svg) or as an
    /// HTML page that plays it (.html).
    ExportAnimation,
    /// Show the dialog that picks where to write the figure (.svg or .png).
    SaveFigure,
    /// Save to the scene's file (asks where when untitled).
    Save,
    /// Save under a new name.
    SaveAs,
    /// Pick a sprite's image in a file dialog (one undoable step).
    ChooseImage(NodeId),
    /// Reload the scene's file (asks about unsaved changes first).
    Revert,
    /// Quit (asks about unsaved changes first).
    Quit,
    /// The window's close button was pressed.
    CloseRequested,
    /// The answer to the unsaved-changes prompt.
    AnswerGuard(GuardAnswer),
    /// A file dialog (or the typed-path field that replaces it) ended.
    DialogClosed(DialogOutcome),
    /// Stop the file being loaded in the background (the current scene stays).
    CancelJob,
    /// Replace the scene with a generated one (asks about unsaved changes first).
    Generate(crate::editor::session::purpose::GenerateRequest),
    /// The answer to "the file changed on disk since graft read it".
    AnswerConflict(crate::editor::session::purpose::ConflictAnswer),
    /// The answer to "keep the imported scene's instanced Godot scenes, or write them as graft
    /// scenes?".
    AnswerSources(crate::editor::session::purpose::SourcesAnswer),
}

/// Panels' intents, made into edits and undo labels by the session.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelCommand {
    /// Rename a node (the hierarchy's row, the inspector's name field).
    Rename {
        /// Which node.
        node: NodeId,
        /// The new name.
        name: String,
    },
    /// Change a node's shape and colour, as one continuous step until [`HistoryCommand::EndGesture`].
    SetLook {
        /// Which node.
        node: NodeId,
        /// The new shape.
        shape: crate::model::scene::Shape,
        /// The new colour (sRGBA, unmultiplied).
        color: [u8; 4],
    },
    /// Paste a transform written as text onto a node's local or world transform.
    PasteTransform {
        /// Which node.
        node: NodeId,
        /// The text, as "Copy local" writes it.
        text: String,
        /// Onto the local or the world transform.
        space: TransformSpace,
    },
    /// The inspector's local or world column was edited: set `value` on the primary selection
    /// and, on the other selected nodes, only the numbers that differ from `before` (continuous).
    SetTransform {
        /// Which column.
        space: TransformSpace,
        /// The transform the column showed before the edit.
        before: crate::model::math::Trs,
        /// The transform it shows now.
        value: crate::model::math::Trs,
        /// "Keep scale uniform": an edited scale component brings the other along.
        lock_scale: bool,
    },
    /// A handle of the primary selection is dragged to a world point (continuous).
    DragHandle {
        /// The drag, as it began.
        drag: Box<crate::editor::view::handles::HandleDrag>,
        /// The pointer, in world coordinates.
        pointer: glam::DVec2,
        /// Ctrl: snap to the grid, 15° or 0.1.
        snap: bool,
        /// The grid step on screen now.
        grid_step: f64,
    },
    /// The dragged nodes follow the pointer (continuous).
    MoveSelection {
        /// The drag, as it began.
        drag: std::sync::Arc<crate::editor::view::pointer::MoveDrag>,
        /// The pointer, in world coordinates.
        pointer: glam::DVec2,
        /// Ctrl: the first node lands on a grid of this step.
        snap: Option<f64>,
    },
    /// Set the clip's length and loop mode (continuous until [`HistoryCommand::EndGesture`]).
    SetClip(crate::model::anim::ClipSettings),
    /// Drop rows dragged in the hierarchy where the preview planned them (planned again only
    /// if the tree changed since); the applier builds the reparent ops.
    DropRows(Box<crate::editor::session::drop_rules::DropPreview>),
}

/// Structural edits and the keyboard's moves.
#[derive(Clone, Debug, PartialEq)]
pub enum EditCommand {
    /// Copy the selected subtrees.
    Copy,
    /// Paste the copied subtrees under the primary selection.
    Paste,
    /// Duplicate the selection next to itself.
    Duplicate,
    /// Delete the selection.
    Delete,
    /// Add a node and select it.
    AddNode(NewNodePlace),
    /// Mirror the selection about each node's own origin (its subtree flips with it).
    Mirror(crate::model::math::MirrorAxis),
    /// Set the selection's local transforms to the identity.
    ResetLocal,
    /// Put the selection under a new group node (keeping world transforms).
    CreateParent,
    /// Move the selection to the root.
    Unparent,
    /// Move the selection one place up or down among its siblings (Alt+Up / Alt+Down).
    Reorder(crate::editor::session::focus::Step),
    /// Move the selection under a parent (None: roots), keeping world transforms or not.
    MoveTo {
        /// The new parent.
        parent: Option<NodeId>,
        /// What the move keeps (the toggle, inverted by Shift).
        keep: crate::model::scene::Keep,
    },
    /// Move the selection one step along the screen's axes (x right, y up); `big` with Shift.
    Nudge {
        /// The direction on screen: (-1, 0) left, (0, 1) up.
        direction: (i8, i8),
        /// A big step.
        big: bool,
    },
}

/// What can be done with point probes.
#[derive(Clone, Debug, PartialEq)]
pub enum ProbeCommand {
    /// Turn "a click in the viewport drops a probe" on or off.
    ToggleMode,
    /// A new probe in the primary selection's space, at this world point.
    Add {
        /// Where, in world coordinates (f64).
        world: glam::DVec2,
    },
    /// Move a probe to a world point (kept in its node's space).
    Move {
        /// Which probe.
        probe: ProbeRef,
        /// Where, in world coordinates.
        world: glam::DVec2,
        /// Part of a drag (merged into one undo step until EndGesture).
        continuous: bool,
    },
    /// Type a probe's coordinates in its node's space.
    SetLocal {
        /// Which probe.
        probe: ProbeRef,
        /// The new local coordinates.
        local: glam::Vec2,
        /// Part of a drag on a number field.
        continuous: bool,
    },
    /// Delete a probe.
    Remove(ProbeRef),
}

/// One probe: the node whose space it lives in and its place in that node's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProbeRef {
    /// The node that carries it.
    pub node: NodeId,
    /// Its index in the node's probe list.
    pub index: usize,
}

/// Which instance command.
#[derive(Clone, Debug, PartialEq)]
pub enum InstanceCommand {
    /// Instance a scene file as the last child of `under` (None: a root); without a path,
    /// the Open dialog asks for one.
    Instance {
        /// The parent.
        under: Option<NodeId>,
        /// The scene file (`.ron` or `.tscn`).
        path: Option<PathBuf>,
    },
    /// Instance a scene file, asked for by the Open dialog, under the primary selection (a
    /// root with nothing selected).
    InstanceHere,
    /// Write the primary selection's branch to a new scene file and put an instance of it in
    /// its place; without a path, the Save dialog asks for one.
    SaveBranch(Option<PathBuf>),
    /// Make the selected instances local (a node inside one: that instance).
    MakeLocal,
    /// Set `fields` of `node` back to its source (None: every selected node, every field).
    Revert {
        /// The node (None: the selection).
        node: Option<NodeId>,
        /// The fields ([`crate::model::instance::FieldSet`] bits).
        fields: u16,
    },
    /// Open the primary selection's instance's source in a new graft window.
    OpenSource,
    /// Remove the overrides the instance rooted at `root` keeps for a node its source no
    /// longer has: the one of that node (its chain), or all of them (None).
    RemoveDangling {
        /// The instance root.
        root: NodeId,
        /// The source node the override names (None: every such override).
        chain: Option<Vec<u32>>,
    },
}

/// The session's start and end, and its thresholds for background work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// Journal every change in this folder; journals left by an unclean end are offered first.
    StartJournal(std::path::PathBuf),
    /// A clean end: the journal goes (or is set aside when changes were discarded).
    EndJournal,
    /// An end without a prompt (SIGTERM, a logout): unsaved work stays in the journal.
    EndOnSignal,
    /// Scenes with at least this many nodes save and generate on a worker (tests set 0).
    BackgroundSaveNodes(usize),
    /// Files at least this big open on a worker (tests set 0).
    BackgroundBytes(u64),
    /// The learner's lesson seed for this run (`GRAFT_LESSON_SEED`; None: the one kept in
    /// their progress, drawn once).
    DrawLessonSeed(Option<u64>),
}
