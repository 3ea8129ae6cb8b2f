//! The one command table: every command a person can invoke, keyed by its
//! [`CommandId`](crate::editor::vocabulary::CommandId), with its label, shortcut, menu, tooltip
//! and when it is enabled. Menus, keyboard shortcuts, Help ▸ Keyboard shortcuts and the command
//! palette are all generated from it; nothing lists a shortcut by hand, and nothing finds an
//! entry by a string. Names, labels and menus come from
//! [`vocabulary`](crate::editor::vocabulary), which lessons read without reaching the session.

use crate::editor::session::Editor;
use crate::editor::session::arrange::Step;
use crate::editor::session::command::{
    Command, EditCommand, FileCommand, HistoryCommand, JournalCommand, NewNodePlace,
    SelectionCommand, SettingCommand, ViewCommand, ViewOption, ViewSpace, Window, WindowCommand,
};
use crate::editor::view::handles::{Orientation, Tool};
pub use crate::editor::vocabulary::MENUS;
use crate::editor::vocabulary::{CommandId as Id, command_words};
use crate::model::math::MirrorAxis;

/// A key combination, egui-free: modifiers and a key named as egui names keys ("S", "F2",
/// "Delete", "Home").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortcut {
    /// Ctrl (⌘ on macOS).
    pub command: bool,
    /// Shift.
    pub shift: bool,
    /// Alt (Option on macOS).
    pub alt: bool,
    /// The key's name.
    pub key: &'static str,
}

impl Shortcut {
    const fn key(key: &'static str) -> Self {
        Self {
            command: false,
            shift: false,
            alt: false,
            key,
        }
    }

    const fn alt(key: &'static str) -> Self {
        Self {
            command: false,
            shift: false,
            alt: true,
            key,
        }
    }

    const fn shift(key: &'static str) -> Self {
        Self {
            command: false,
            shift: true,
            alt: false,
            key,
        }
    }

    const fn ctrl(key: &'static str) -> Self {
        Self {
            command: true,
            shift: false,
            alt: false,
            key,
        }
    }

    const fn ctrl_shift(key: &'static str) -> Self {
        Self {
            command: true,
            shift: true,
            alt: false,
            key,
        }
    }

    /// As people write it: "Ctrl+Shift+S", "F2", "Del", "Alt+Up".
    pub fn text(&self) -> String {
        let key = match self.key {
            "Delete" => "Del",
            "ArrowUp" => "Up",
            "ArrowDown" => "Down",
            "Equals" => "=",
            "Plus" => "+",
            "Minus" => "-",
            other => other,
        };
        let mut s = String::new();
        if self.command {
            s.push_str("Ctrl+");
        }
        if self.shift {
            s.push_str("Shift+");
        }
        if self.alt {
            s.push_str("Alt+");
        }
        s.push_str(key);
        s
    }
}

/// One entry of the command table.
#[derive(Clone, Debug)]
pub struct CommandSpec {
    /// Its key.
    pub id: Id,
    /// A stable name, e.g. "edit.duplicate" (the palette matches it too).
    pub name: &'static str,
    /// What menus and the palette show.
    pub label: &'static str,
    /// What it does, in a sentence.
    pub tooltip: &'static str,
    /// Its key combinations; the first is the one shown.
    pub shortcuts: Vec<Shortcut>,
    /// The menu it appears in (one of [`MENUS`]), or None for palette-only commands.
    pub menu: Option<&'static str>,
    /// The submenu of that menu it sits in (None: the menu itself).
    pub submenu: Option<&'static str>,
    /// Start a new group in its menu (a separator above it).
    pub separator_before: bool,
    /// The command it runs.
    pub command: Command,
    /// When it can run.
    pub enabled: fn(&Editor) -> bool,
    /// For toggles: whether it is on now (menus show a check mark).
    pub checked: Option<fn(&Editor) -> bool>,
    /// True when its shortcut works while a text field has the keyboard (Save, Open, …).
    pub global: bool,
}

fn always(_: &Editor) -> bool {
    true
}
fn has_selection(e: &Editor) -> bool {
    !e.selection().is_empty()
}
fn has_primary(e: &Editor) -> bool {
    e.primary().is_some()
}
/// A selected node is an instance or inside one.
fn in_instance(e: &Editor) -> bool {
    let scene = e.doc().scene();
    scene.instances().is_some()
        && (e.selection().iter())
            .any(|&id| scene.origin(id).is_some() || scene.instance_entry(id).is_some())
}
fn can_undo(e: &Editor) -> bool {
    e.doc().history().undo_label().is_some()
}
fn can_redo(e: &Editor) -> bool {
    e.doc().history().redo_label().is_some()
}
fn has_clipboard(e: &Editor) -> bool {
    !e.clipboard().is_empty()
}
fn has_file(e: &Editor) -> bool {
    e.doc().path().is_some()
}
fn has_nodes(e: &Editor) -> bool {
    !e.doc().scene().is_empty()
}

/// A table entry with the usual defaults (enabled always, not a toggle, not global); its name,
/// label and menu are the vocabulary's for `id`.
fn spec(id: Id, tooltip: &'static str, shortcuts: &[Shortcut], command: Command) -> CommandSpec {
    let words = command_words(id);
    CommandSpec {
        id,
        name: words.name,
        label: words.label,
        tooltip,
        shortcuts: shortcuts.to_vec(),
        menu: words.menu,
        submenu: words.submenu,
        separator_before: false,
        command,
        enabled: always,
        checked: None,
        global: false,
    }
}

impl CommandSpec {
    fn when(mut self, enabled: fn(&Editor) -> bool) -> Self {
        self.enabled = enabled;
        self
    }
    fn checked(mut self, checked: fn(&Editor) -> bool) -> Self {
        self.checked = Some(checked);
        self
    }
    fn global(mut self) -> Self {
        self.global = true;
        self
    }
    fn group(mut self) -> Self {
        self.separator_before = true;
        self
    }
}

static TABLE: std::sync::LazyLock<Vec<CommandSpec>> = std::sync::LazyLock::new(build_table);

/// The command table.
pub fn command_table() -> &'static [CommandSpec] {
    &TABLE
}

/// The table entry `id` (every id has one: `tests/command_vocabulary.rs`).
pub fn find_command(id: Id) -> Option<&'static CommandSpec> {
    // The table is in the vocabulary's order, so an id is its index.
    TABLE.get(id as usize).filter(|c| c.id == id)
}

/// Every command, menu by menu, in menu order.
fn build_table() -> Vec<CommandSpec> {
    [
        file_commands(),
        edit_commands(),
        node_commands(),
        view_commands(),
        motion_commands(),
        help_commands(),
    ]
    .concat()
}

/// The File menu.
#[rustfmt::skip]
fn file_commands() -> Vec<CommandSpec> {
    use Command as C;
    vec![
        spec(Id::FileNew, "Start a new, empty scene", &[Shortcut::ctrl("N")], C::File(FileCommand::New)).global(),
        spec(Id::FileOpen, "Open a scene file", &[Shortcut::ctrl("O")], C::File(FileCommand::Open)).global(),
        spec(Id::FileSave, "Save the scene to its file", &[Shortcut::ctrl("S")], C::File(FileCommand::Save)).global().group(),
        spec(Id::FileSaveAs, "Save the scene under a new name", &[Shortcut::ctrl_shift("S")], C::File(FileCommand::SaveAs)).global(),
        spec(Id::FileImport, "Open a Godot .tscn (Godot 3 or 4) or an SVG drawing as a new graft scene, with a report of what was approximated", &[Shortcut::ctrl("I")], C::File(FileCommand::Import)).global().group(),
        spec(Id::FileGenerate, "Make a big test scene (wide, chain or random, up to 10 million nodes) on a worker, with progress and Cancel", &[], C::Window(WindowCommand::Show(Window::Generate))).global(),
        spec(Id::FileExportGodot, "Write the scene as a .tscn under one root Node2D, for the Godot version chosen below (remembered)", &[Shortcut::ctrl_shift("E")], C::File(FileCommand::ExportGodot)).when(has_nodes),
        spec(Id::FileExportForGodot4, "Export as Godot scene writes a Godot 4 scene (format=3)", &[], C::Setting(SettingCommand::SetGodot3Export(false))).checked(|e| !e.godot3_export()),
        spec(Id::FileExportForGodot3, "Export as Godot scene writes a Godot 3 scene (format=2; skewed nodes go out as a transform matrix)", &[], C::Setting(SettingCommand::SetGodot3Export(true))).checked(|e| e.godot3_export()),
        spec(Id::FileExportGodotKeepInstances, "Export as Godot scene writes each instance as instance=ExtResource of its part (a .ron part, or a .tscn outside the project, written once beside the file), with its overrides", &[], C::Setting(SettingCommand::SetGodotFlatten(false))).checked(|e| !e.godot_flatten()),
        spec(Id::FileExportGodotFlatten, "Export as Godot scene writes every instance as plain nodes: one file, no link to the parts", &[], C::Setting(SettingCommand::SetGodotFlatten(true))).checked(|e| e.godot_flatten()),
        spec(Id::FileExportGodotPpu1, "Export as Godot scene keeps graft's units (a unit is one Godot pixel: the sword scene is ~6 px)", &[], C::Setting(SettingCommand::SetGodotPixelsPerUnit(1))).checked(|e| e.godot_pixels_per_unit() == 1),
        spec(Id::FileExportGodotPpu32, "Export as Godot scene multiplies positions and sizes by 32 (sprites scaled from their image size so Godot draws them as graft does)", &[], C::Setting(SettingCommand::SetGodotPixelsPerUnit(32))).checked(|e| e.godot_pixels_per_unit() == 32),
        spec(Id::FileExportGodotPpu64, "Export as Godot scene multiplies positions and sizes by 64 (sprites scaled from their image size so Godot draws them as graft does)", &[], C::Setting(SettingCommand::SetGodotPixelsPerUnit(64))).checked(|e| e.godot_pixels_per_unit() == 64),
        spec(Id::FileExportGodotPpu100, "Export as Godot scene multiplies positions and sizes by 100 (sprites scaled from their image size so Godot draws them as graft does)", &[], C::Setting(SettingCommand::SetGodotPixelsPerUnit(100))).checked(|e| e.godot_pixels_per_unit() == 100),
        spec(Id::FileExportGodot3, "Write the scene as a Godot 3 .tscn (format=2) once, whatever the choice above", &[], C::File(FileCommand::ExportGodot3)).when(has_nodes),
        spec(Id::FileExportAnimation, "Write the clip as animated SVG (plays in any browser, each node's group animating its local transform), an .html page with play, pause and a scrubber, or a .gif / .png (APNG) of the figure frame by frame", &[], C::File(FileCommand::ExportAnimation)).when(|e| !e.doc().scene().animated_nodes().is_empty()),
        spec(Id::FileExportSvg, "Write the scene as SVG: one named group per node carrying its local matrix (opens in Inkscape with the hierarchy intact)", &[], C::File(FileCommand::ExportSvg)).when(has_nodes),
        spec(Id::FileExportFigure, "A picture of what the viewport shows, as SVG or PNG: size, scale, layers, the selection's matrix chain as a caption", &[Shortcut::ctrl_shift("F")], C::Window(WindowCommand::Show(Window::Figure))).when(has_nodes),
        spec(Id::FileImportReport, "What the last import or export approximated, re-rooted, renamed or left out", &[], C::Window(WindowCommand::Show(Window::ImportReport))).when(|e| e.interchange_report().is_some()),
        spec(Id::FileCancelLoad, "Stop the load, save or generation running in the background; the current scene stays as it is", &[], C::File(FileCommand::CancelJob)).when(|e| e.job().is_some()),
        spec(Id::FileJournal, "Write every change to a journal as it happens, so a crash or a kill loses nothing (File > Save is still how work reaches the file)", &[], C::Journal(JournalCommand::ToggleJournal)).checked(|e| e.journal_wanted()).group(),
        spec(Id::FileJournalRetry, "Try again to write the crash journal after it could not start or stopped (a full disk, a read-only folder); graft also retries every 5 s", &[], C::Journal(JournalCommand::RetryJournal)).when(|e| matches!(e.journal_health(), crate::editor::session::journal::JournalHealth::Failing(_))),
        spec(Id::FileRevert, "Reload the scene's file, dropping unsaved changes", &[], C::File(FileCommand::Revert)).when(has_file),
        spec(Id::FileQuit, "Close graft", &[Shortcut::ctrl("Q")], C::File(FileCommand::Quit)).global().group(),
    ]
}

/// The Edit menu.
#[rustfmt::skip]
fn edit_commands() -> Vec<CommandSpec> {
    use Command as C;
    vec![
        spec(Id::EditUndo, "Take back the last change", &[Shortcut::ctrl("Z")], C::History(HistoryCommand::Undo)).when(can_undo),
        spec(Id::EditRedo, "Do again what was undone", &[Shortcut::ctrl_shift("Z"), Shortcut::ctrl("Y")], C::History(HistoryCommand::Redo)).when(can_redo),
        spec(Id::EditCopy, "Copy the selected nodes and their children", &[Shortcut::ctrl("C")], C::Edit(EditCommand::Copy)).when(has_selection).group(),
        spec(Id::EditPaste, "Paste the copied nodes under the selection (or as roots)", &[Shortcut::ctrl("V")], C::Edit(EditCommand::Paste)).when(has_clipboard),
        spec(Id::EditDuplicate, "Copy the selection next to itself", &[Shortcut::ctrl("D")], C::Edit(EditCommand::Duplicate)).when(has_selection),
        spec(Id::EditSelectAll, "Select every node (fast on a million: the selection is a set)", &[Shortcut::ctrl("A")], C::Selection(SelectionCommand::SelectAll)).when(has_nodes).group(),
        spec(Id::EditRename, "Rename the selected node in the hierarchy", &[Shortcut::key("F2")], C::View(ViewCommand::StartRename)).when(has_primary),
        spec(Id::EditDelete, "Delete the selection and its children (or the keys selected on the timeline)", &[Shortcut::key("Delete")], C::Edit(EditCommand::Delete)).when(|e| has_selection(e) || !e.selected_keys().is_empty()),
        spec(Id::EditHistory, "List every step; click one to go back or forward to it", &[Shortcut::ctrl("H")], C::Window(WindowCommand::Show(Window::History))).group(),
    ]
}

/// The Node menu.
#[rustfmt::skip]
fn node_commands() -> Vec<CommandSpec> {
    use Command as C;
    use crate::editor::session::command::InstanceCommand as I;
    vec![
        spec(Id::NodeAdd, "Add a root node (a unit square)", &[Shortcut::ctrl_shift("N")], C::Edit(EditCommand::AddNode(NewNodePlace::Root))),
        spec(Id::NodeAddChild, "Add a node under the selected one", &[Shortcut::ctrl_shift("A")], C::Edit(EditCommand::AddNode(NewNodePlace::ChildOfPrimary))).when(has_primary),
        spec(Id::NodeAddSibling, "Add a node right after the selected one", &[], C::Edit(EditCommand::AddNode(NewNodePlace::AfterPrimary))).when(has_primary),
        spec(Id::NodeMirrorH, "Flip the selection left to right about its own origin (its x scale negated; children flip with it)", &[], C::Edit(EditCommand::Mirror(MirrorAxis::Horizontal))).when(has_selection).group(),
        spec(Id::NodeMirrorV, "Flip the selection upside down about its own origin (its y scale negated; children flip with it)", &[], C::Edit(EditCommand::Mirror(MirrorAxis::Vertical))).when(has_selection),
        spec(Id::NodeResetLocal, "Set the selection's local position, rotation, scale and skew back to the identity", &[], C::Edit(EditCommand::ResetLocal)).when(has_selection),
        spec(Id::NodeGroup, "Put the selection under a new group node; nothing moves on screen", &[Shortcut::ctrl("G")], C::Edit(EditCommand::CreateParent)).when(has_selection).group(),
        spec(Id::NodeUnparent, "Make the selected nodes roots (keeping world transforms when the toggle is on)", &[Shortcut::ctrl_shift("G")], C::Edit(EditCommand::Unparent)).when(has_selection),
        spec(Id::NodeMoveTo, "Pick a new parent for the selection from a searchable list (Enter keeps world transforms as the toggle says, Shift+Enter the opposite)", &[Shortcut::ctrl_shift("M")], C::Window(WindowCommand::Show(Window::MoveTo))).when(has_selection).group(),
        spec(Id::NodeMoveUp, "Move the selection one place up among its siblings", &[Shortcut::alt("ArrowUp")], C::Edit(EditCommand::Reorder(Step::Back))).when(has_selection),
        spec(Id::NodeMoveDown, "Move the selection one place down among its siblings", &[Shortcut::alt("ArrowDown")], C::Edit(EditCommand::Reorder(Step::Forward))).when(has_selection),
        spec(Id::NodeKeepWorld, "Reparenting keeps nodes where they are on screen (Unity's worldPositionStays); off keeps the local numbers", &[], C::Setting(SettingCommand::ToggleKeepWorld)).checked(|e| e.keep_world()).group(),
        spec(Id::NodeInstance, "Put another scene file (.ron or .tscn) under the selected node as an instance: it follows its source, and your changes to it are kept as overrides", &[], C::Instance(I::InstanceHere)).group(),
        spec(Id::NodeSaveBranch, "Write the selected node and its children to a new scene file and put an instance of that file in their place (Undo puts the branch back; the file stays)", &[], C::Instance(I::SaveBranch(None))).when(has_primary),
        spec(Id::NodeMakeLocal, "Make the selected instance's nodes plain nodes of this scene, as they are (overrides applied); it stops following its source", &[], C::Instance(I::MakeLocal)).when(in_instance),
        spec(Id::NodeRevertSource, "Set every overridden value of the selected nodes back to their source's", &[], C::Instance(I::Revert { node: None, fields: u16::MAX })).when(in_instance),
        spec(Id::NodeOpenSource, "Open the selected instance's source scene in a new graft window", &[], C::Instance(I::OpenSource)).when(in_instance),
    ]
}

/// The View menu: framing, tools, what is drawn, spaces, grids, probes.
#[rustfmt::skip]
fn view_commands() -> Vec<CommandSpec> {
    use Command as C;
    let toggle = |name, tooltip, option: ViewOption| {
        spec(name, tooltip, &[], C::Setting(SettingCommand::ToggleView(option)))
    };
    vec![
        spec(Id::ViewFrameSelection, "Fit the selection in the viewport", &[Shortcut::key("F")], C::View(ViewCommand::FrameSelection)).when(has_selection),
        spec(Id::ViewFrameAll, "Fit the whole scene in the viewport", &[Shortcut::key("Home")], C::View(ViewCommand::FrameAll)).when(has_nodes),
        spec(Id::ViewToolMove, "Handles that move the selection along its axes", &[Shortcut::key("W")], C::Setting(SettingCommand::SetTool(Tool::Move))).checked(|e| e.tool() == Tool::Move).group(),
        spec(Id::ViewToolRotate, "A ring that turns the selection", &[Shortcut::key("E")], C::Setting(SettingCommand::SetTool(Tool::Rotate))).checked(|e| e.tool() == Tool::Rotate),
        spec(Id::ViewToolScale, "Handles that scale the selection", &[Shortcut::key("R")], C::Setting(SettingCommand::SetTool(Tool::Scale))).checked(|e| e.tool() == Tool::Scale),
        spec(Id::ViewWorldAxes, "Handles follow the world's x and y instead of the node's own axes (scaling a rotated node along them shears it)", &[Shortcut::key("X")], C::Setting(SettingCommand::ToggleOrientation)).checked(|e| e.orientation() == Orientation::World),
        toggle(Id::ViewAxes, "Draw each node's local x and y axes", ViewOption::Axes).checked(|e| e.view().shows(ViewOption::Axes)).group(),
        toggle(Id::ViewLinks, "Draw a line from each parent to its children", ViewOption::Links).checked(|e| e.view().shows(ViewOption::Links)),
        toggle(Id::ViewNames, "Draw node names", ViewOption::Names).checked(|e| e.view().shows(ViewOption::Names)),
        toggle(Id::ViewShear, "Outline sheared nodes, give the angle off 90° and ring the parent that causes it", ViewOption::Shear).checked(|e| e.view().shows(ViewOption::Shear)),
        spec(Id::ViewSpaceWorld, "The viewport shows the world's axes as the screen's", &[Shortcut::key("1")], C::View(ViewCommand::SetViewSpace(ViewSpace::World))).checked(|e| e.view_space() == ViewSpace::World).group(),
        spec(Id::ViewSpaceParent, "The viewport shows the scene as the selection's parent sees it: the space its local numbers are in", &[Shortcut::key("2")], C::View(ViewCommand::SetViewSpace(ViewSpace::ParentOfSelection))).checked(|e| e.view_space() == ViewSpace::ParentOfSelection),
        spec(Id::ViewSpaceSelection, "The viewport shows the scene as the selected node sees it: its axes become the screen's", &[Shortcut::key("3")], C::View(ViewCommand::SetViewSpace(ViewSpace::Selection))).checked(|e| e.view_space() == ViewSpace::Selection),
        spec(Id::ViewLocalGrid, "Draw the selected node's own coordinate grid through its world matrix: a sheared node shows a sheared grid", &[Shortcut::key("G")], C::Setting(SettingCommand::ToggleView(ViewOption::LocalGrid))).checked(|e| e.view().shows(ViewOption::LocalGrid)),
        spec(Id::ViewParentGrid, "Draw the grid of the selection's parent: the space its local numbers are measured in", &[Shortcut::shift("G")], C::Setting(SettingCommand::ToggleView(ViewOption::ParentGrid))).checked(|e| e.view().shows(ViewOption::ParentGrid)),
        spec(Id::ViewProbeMode, "A click in the viewport pins a point probe in the selected node's space; it reads out world, selection and parent coordinates (drag a pin to move it)", &[Shortcut::key("P")], C::Probe(crate::editor::session::command::ProbeCommand::ToggleMode)).checked(|e| e.probe_mode()),
        spec(Id::ViewNextPanel, "Give the keyboard to the next panel: hierarchy, viewport, inspector, timeline, lesson", &[Shortcut::key("F6")], C::View(ViewCommand::FocusPanel(Step::Forward))).global().group(),
        spec(Id::ViewPreviousPanel, "Give the keyboard to the previous panel", &[Shortcut::shift("F6")], C::View(ViewCommand::FocusPanel(Step::Back))).global(),
        spec(Id::ViewZoomIn, "Draw menus, panels and text bigger (remembered)", &[Shortcut::ctrl("Equals"), Shortcut::ctrl("Plus")], C::View(ViewCommand::StepUiScale(Step::Forward))).global(),
        spec(Id::ViewZoomOut, "Draw menus, panels and text smaller (remembered)", &[Shortcut::ctrl("Minus")], C::View(ViewCommand::StepUiScale(Step::Back))).global(),
        spec(Id::ViewZoomReset, "Draw the interface at its normal size", &[Shortcut::ctrl("0")], C::View(ViewCommand::SetUiScale(1.0))).global(),
        spec(Id::ViewHighContrast, "Black and white with strong outlines and focus rings, for low vision", &[], C::View(ViewCommand::ToggleHighContrast)).checked(|e| e.high_contrast()),
    ]
}

/// The View menu's animation part: playback, keys, trails and the motion overlays.
#[rustfmt::skip]
fn motion_commands() -> Vec<CommandSpec> {
    use Command as C;
    let toggle = |name, tooltip, option: ViewOption| {
        spec(name, tooltip, &[], C::Setting(SettingCommand::ToggleView(option)))
    };
    vec![
        spec(Id::AnimPlay, "Play the animation from the current time, or pause it", &[Shortcut::ctrl("Space")], C::Timeline(crate::editor::session::timeline::TimelineCommand::TogglePlay)).checked(|e| e.timeline().playing()).group(),
        spec(Id::AnimStop, "Stop and go back to 0 s", &[], C::Timeline(crate::editor::session::timeline::TimelineCommand::Stop)),
        spec(Id::AnimKey, "Key the selected nodes' local position, rotation and scale at the current time", &[Shortcut::key("K")], C::Timeline(crate::editor::session::timeline::TimelineCommand::KeySelection)).when(has_selection),
        spec(Id::AnimDeleteKeys, "Delete the keys selected on the timeline (Shift-click or drag a box to select several)", &[], C::Timeline(crate::editor::session::timeline::TimelineCommand::DeleteSelectedKeys)).when(|e| !e.selected_keys().is_empty()),
        spec(Id::AnimAutoKey, "While on, moving, turning or scaling a node writes keys at the current time", &[], C::Timeline(crate::editor::session::timeline::TimelineCommand::ToggleAutoKey)).checked(|e| e.timeline().auto_key()),
        spec(Id::AnimTrails, "Draw the path of the selected nodes' world origins over the clip, with time ticks", &[Shortcut::key("T")], C::Timeline(crate::editor::session::timeline::TimelineCommand::ToggleTrails)).checked(|e| e.timeline().trails()),
        toggle(Id::ViewAccumulated, "Faint ghosts where each node would be if position, rotation and scale were accumulated separately (no shear), with a line to its true place: they drift apart under a rotated, non-uniformly scaled parent", ViewOption::AccumulatedGhosts).checked(|e| e.view().shows(ViewOption::AccumulatedGhosts)),
        toggle(Id::ViewWorldBlend, "While animating, ghosts where blending the keyed world matrices (instead of the locals) would put each animated node: mid-way they shrink and shear", ViewOption::WorldBlendGhosts).checked(|e| e.view().shows(ViewOption::WorldBlendGhosts)),
        toggle(Id::ViewRecomputed, "Light up the nodes whose world matrix the last update recomputed (dirty flags made visible)", ViewOption::Recomputed).checked(|e| e.view().shows(ViewOption::Recomputed)),
        toggle(Id::ViewSubtreeBounds, "Draw each node's world bounding box of its whole subtree: the box culling tests", ViewOption::SubtreeBounds).checked(|e| e.view().shows(ViewOption::SubtreeBounds)),
        toggle(Id::ViewCulling, "A rectangle (drag it) standing for the camera: subtrees whose box misses it are skipped whole; counts nodes tested and drawn", ViewOption::Culling).checked(|e| e.view().shows(ViewOption::Culling)),
    ]
}

/// The Help menu.
#[rustfmt::skip]
fn help_commands() -> Vec<CommandSpec> {
    use Command as C;
    use crate::editor::session::lesson::LessonCommand as L;
    let lesson = |name, tooltip, command| spec(name, tooltip, &[], C::Lesson(command));
    vec![
        spec(Id::HelpPalette, "Find any command by typing part of its name", &[Shortcut::ctrl_shift("P"), Shortcut::key("F1")], C::Window(WindowCommand::Show(Window::Palette))).global(),
        spec(Id::HelpShortcuts, "Every shortcut and mouse gesture", &[], C::Window(WindowCommand::Show(Window::Shortcuts))),
        spec(Id::HelpLessons, "The built-in course on local and world space, and lesson files: tasks the editor checks as you work", &[], C::Window(WindowCommand::Show(Window::Lessons))),
        spec(Id::LessonRecord, "Teacher mode: the scene and view as they are now start a step; perform the solution, then Stop recording writes a .lesson with do: lines and suggested goals that passes graft lesson check", &[], C::Record(crate::editor::session::record::RecordCommand::Start)).when(|e| e.recording().is_none()),
        spec(Id::LessonRecordNext, "End the step being recorded and record another from here", &[], C::Record(crate::editor::session::record::RecordCommand::NextStep)).when(|e| e.recording().is_some_and(|r| !r.stopped())),
        spec(Id::LessonRecordStop, "End the recording, name the lesson and choose where to write it", &[], C::Record(crate::editor::session::record::RecordCommand::Stop)).when(|e| e.recording().is_some()),
        spec(Id::LessonRecordCancel, "Stop recording without writing anything", &[], C::Record(crate::editor::session::record::RecordCommand::Cancel)).when(|e| e.recording().is_some()),
        spec(Id::LessonRecordAsk, "The next edit becomes what the step asks the learner to predict before acting: where that node lands", &[], C::Record(crate::editor::session::record::RecordCommand::AskPrediction)).when(|e| e.recording().is_some_and(|r| !r.stopped())),
        lesson(Id::LessonExportProgress, "Write your lesson progress (steps done, time, hints, predictions) to one JSON file to hand in: nothing is sent anywhere", L::ExportProgress),
        spec(Id::HelpAbout, "What graft is and its conventions", &[], C::Window(WindowCommand::Show(Window::About))).group(),
        lesson(Id::LessonNext, "Go on to the next step (every goal of this one holds)", L::Next).when(|e| e.lesson().is_some_and(|r| r.step_done())),
        lesson(Id::LessonBack, "Go back to the previous step, from its start", L::Back).when(|e| e.lesson().is_some_and(|r| r.step_index() > 0)),
        lesson(Id::LessonHint, "Show the step's next hint", L::Hint).when(|e| e.lesson().is_some_and(|r| r.hints_shown().len() < r.step().hints.len())),
        lesson(Id::LessonShowMe, "Play the step's solution through the normal commands (one undo step)", L::ShowMe).when(|e| e.lesson().is_some_and(|r| !r.showing())),
        lesson(Id::LessonReset, "Put the step back as it started", L::Reset).when(|e| e.lesson().is_some()),
        lesson(Id::LessonClose, "Close the lesson panel (the scene stays)", L::Close).when(|e| e.lesson().is_some()),
    ]
}

/// Every shortcut of the command table and every gesture of the gesture table, the rows of
/// Help ▸ Keyboard shortcuts: (keys, what they do).
pub fn help_rows() -> Vec<(String, String)> {
    let mut rows = shortcut_rows();
    rows.extend(
        crate::editor::gesture_table::GESTURES
            .iter()
            .map(|g| (g.input.to_string(), g.does.to_string())),
    );
    rows
}

/// Every command with a shortcut: (its keys, its label).
pub fn shortcut_rows() -> Vec<(String, String)> {
    command_table()
        .iter()
        .filter(|spec| !spec.shortcuts.is_empty())
        .map(|spec| {
            let keys: Vec<String> = spec.shortcuts.iter().map(Shortcut::text).collect();
            (
                keys.join(" / "),
                spec.label.trim_end_matches('…').to_string(),
            )
        })
        .collect()
}

/// How well `query` matches `text` as a subsequence (case-insensitive), higher is better;
/// None when some letter of the query is missing. Consecutive letters, letters at the start of
/// a word, and the query appearing whole count extra, so "dup" ranks "Duplicate" above
/// "Delete update".
pub fn fuzzy_score(query: &str, text: &str) -> Option<i32> {
    let query: Vec<char> = query
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if query.is_empty() {
        return Some(0);
    }
    let text: Vec<char> = text.to_lowercase().chars().collect();
    let mut score = 0;
    let mut q = 0;
    let mut previous: Option<usize> = None;
    for (i, c) in text.iter().enumerate() {
        if q < query.len() && *c == query[q] {
            score += 1;
            if previous.is_some_and(|p| p + 1 == i) {
                score += 3;
            }
            if i == 0 || !text[i - 1].is_alphanumeric() {
                score += 5;
            }
            previous = Some(i);
            q += 1;
        }
    }
    if q < query.len() {
        return None;
    }
    // The query as one piece of the text counts most, at the start of a word even more.
    let needle: String = query.iter().collect();
    let haystack: String = text.iter().collect();
    if let Some(at) = haystack.find(&needle) {
        let word_start = haystack[..at]
            .chars()
            .last()
            .is_none_or(|c| !c.is_alphanumeric());
        score += if word_start { 20 } else { 10 };
    }
    // Word initials ("fs" for "Frame selection") count like a whole piece.
    let initials: Vec<char> = (0..text.len())
        .filter(|&i| text[i].is_alphanumeric() && (i == 0 || !text[i - 1].is_alphanumeric()))
        .map(|i| text[i])
        .collect();
    let mut rest = query.iter().peekable();
    for c in &initials {
        if rest.peek() == Some(&c) {
            rest.next();
        }
    }
    if rest.peek().is_none() {
        score += 15;
    }
    Some(score - text.len() as i32 / 8)
}

/// The palette's entries for a query: enabled commands whose label (or name) matches, best
/// first, ties in table order.
pub fn palette_matches(editor: &Editor, query: &str) -> Vec<&'static CommandSpec> {
    let mut hits: Vec<(i32, usize, &'static CommandSpec)> = TABLE
        .iter()
        .enumerate()
        .filter(|(_, spec)| (spec.enabled)(editor))
        .filter_map(|(k, spec)| {
            let score =
                fuzzy_score(query, spec.label).max(fuzzy_score(query, spec.name).map(|s| s - 2))?;
            Some((score, k, spec))
        })
        .collect();
    hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    hits.into_iter().map(|(_, _, spec)| spec).collect()
}
