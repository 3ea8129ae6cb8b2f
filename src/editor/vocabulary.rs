//! What the editor's commands are called and where the menu bar shows them: the menu titles
//! and, for every entry of the command table, its id, stable name, label and menu. Pure
//! data, below the session: lessons check `point: menu View > Names` against it at parse time,
//! and `table.rs` attaches to each name its command, shortcuts, tooltip and when it is enabled
//! (as rerun keeps `UICommand`'s text in a low crate and its handling in the app).

/// The top-level menus, in order.
pub const MENUS: [&str; 5] = ["File", "Edit", "Node", "View", "Help"];

/// What one command is called and where it appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandWords {
    /// The command table's key.
    pub id: CommandId,
    /// A stable name, e.g. "edit.duplicate" (the palette matches it, lessons and tests print it).
    pub name: &'static str,
    /// What menus and the palette show.
    pub label: &'static str,
    /// The menu it appears in (one of [`MENUS`]), or None for palette-only commands.
    pub menu: Option<&'static str>,
    /// The submenu of that menu it sits in (None: the menu itself). Submenus keep every menu
    /// short enough to fit a 1024×768 window at 150 % (`tests/menus_ui.rs`).
    pub submenu: Option<&'static str>,
}

/// Where an entry sits: a menu and maybe one of its submenus.
type Place = (Option<&'static str>, Option<&'static str>);

const fn w(id: CommandId, name: &'static str, label: &'static str, place: Place) -> CommandWords {
    CommandWords {
        id,
        name,
        label,
        menu: place.0,
        submenu: place.1,
    }
}

const FILE: Place = (Some("File"), None);
const FILE_EXPORT: Place = (Some("File"), Some("Export"));
const EDIT: Place = (Some("Edit"), None);
const NODE: Place = (Some("Node"), None);
const NODE_INSTANCES: Place = (Some("Node"), Some("Instances"));
const VIEW: Place = (Some("View"), None);
const VIEW_SPACES: Place = (Some("View"), Some("Spaces"));
const VIEW_ANIMATION: Place = (Some("View"), Some("Animation"));
const VIEW_OVERLAYS: Place = (Some("View"), Some("Overlays"));
const VIEW_INTERFACE: Place = (Some("View"), Some("Interface"));
const HELP: Place = (Some("Help"), None);
const PALETTE: Place = (None, None);

/// Declares [`CommandId`] and [`COMMAND_WORDS`] from one list, in the same order, so every id
/// has its words (`COMMAND_WORDS[id as usize]`) and a new command needs one line.
macro_rules! vocabulary {
    ($($id:ident = $name:literal, $label:literal, $place:expr;)*) => {
        /// Every command of the command table by key: menus, the palette, shortcuts and the
        /// hierarchy's context menu name an entry by its id, so a misspelt one does not compile.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum CommandId {
            $(#[doc = concat!("`", $name, "`: ", $label)] $id,)*
        }

        /// Every command's words, in the command table's order (menu by menu, in menu order).
        pub const COMMAND_WORDS: &[CommandWords] = &[$(w(CommandId::$id, $name, $label, $place),)*];
    };
}

#[rustfmt::skip]
vocabulary! {
    FileNew = "file.new", "New", FILE;
    FileOpen = "file.open", "Open…", FILE;
    FileSave = "file.save", "Save", FILE;
    FileSaveAs = "file.save_as", "Save As…", FILE;
    FileImport = "file.import", "Import…", FILE;
    FileGenerate = "file.generate", "Generate scene…", FILE;
    FileExportGodot = "file.export_godot", "Export as Godot scene…", FILE_EXPORT;
    FileExportForGodot4 = "file.export_for_godot4", "Godot export: Godot 4", FILE_EXPORT;
    FileExportForGodot3 = "file.export_for_godot3", "Godot export: Godot 3", FILE_EXPORT;
    FileExportGodotKeepInstances = "file.export_godot_keep_instances", "Godot export: keep instances", FILE_EXPORT;
    FileExportGodotFlatten = "file.export_godot_flatten", "Godot export: flatten instances", FILE_EXPORT;
    FileExportGodotPpu1 = "file.export_godot_ppu_1", "Godot export: 1 pixel per unit", FILE_EXPORT;
    FileExportGodotPpu32 = "file.export_godot_ppu_32", "Godot export: 32 pixels per unit", FILE_EXPORT;
    FileExportGodotPpu64 = "file.export_godot_ppu_64", "Godot export: 64 pixels per unit", FILE_EXPORT;
    FileExportGodotPpu100 = "file.export_godot_ppu_100", "Godot export: 100 pixels per unit", FILE_EXPORT;
    FileExportGodot3 = "file.export_godot3", "Export as Godot 3 scene…", FILE_EXPORT;
    FileExportAnimation = "file.export_animation", "Export animation…", FILE_EXPORT;
    FileExportSvg = "file.export_svg", "Export as SVG…", FILE_EXPORT;
    FileExportFigure = "file.export_figure", "Export figure…", FILE_EXPORT;
    FileImportReport = "file.import_report", "Import / export report", FILE;
    FileCancelLoad = "file.cancel_load", "Cancel background work", FILE;
    FileJournal = "file.journal", "Keep a crash journal", FILE;
    FileJournalRetry = "file.journal_retry", "Retry the crash journal", FILE;
    FileRevert = "file.revert", "Revert", FILE;
    FileQuit = "file.quit", "Quit", FILE;
    EditUndo = "edit.undo", "Undo", EDIT;
    EditRedo = "edit.redo", "Redo", EDIT;
    EditCopy = "edit.copy", "Copy", EDIT;
    EditPaste = "edit.paste", "Paste as child", EDIT;
    EditDuplicate = "edit.duplicate", "Duplicate", EDIT;
    EditSelectAll = "edit.select_all", "Select all", EDIT;
    EditRename = "edit.rename", "Rename", EDIT;
    EditDelete = "edit.delete", "Delete", EDIT;
    EditHistory = "edit.history", "History…", EDIT;
    NodeAdd = "node.add", "Add node", NODE;
    NodeAddChild = "node.add_child", "Add child", NODE;
    NodeAddSibling = "node.add_sibling", "Add sibling", NODE;
    NodeMirrorH = "node.mirror_h", "Mirror horizontally", NODE;
    NodeMirrorV = "node.mirror_v", "Mirror vertically", NODE;
    NodeResetLocal = "node.reset_local", "Reset local transform", NODE;
    NodeGroup = "node.group", "Create parent for selection", NODE;
    NodeUnparent = "node.unparent", "Unparent (to root)", NODE;
    NodeMoveTo = "node.move_to", "Move to…", NODE;
    NodeMoveUp = "node.move_up", "Move up", NODE;
    NodeMoveDown = "node.move_down", "Move down", NODE;
    NodeKeepWorld = "node.keep_world", "Keep world transform", NODE;
    NodeInstance = "node.instance", "Instance scene…", NODE;
    NodeSaveBranch = "node.save_branch", "Save branch as scene…", NODE_INSTANCES;
    NodeMakeLocal = "node.make_local", "Make local", NODE_INSTANCES;
    NodeRevertSource = "node.revert_source", "Revert to source", NODE_INSTANCES;
    NodeOpenSource = "node.open_source", "Open source", NODE_INSTANCES;
    ViewFrameSelection = "view.frame_selection", "Frame selection", VIEW;
    ViewFrameAll = "view.frame_all", "Frame all", VIEW;
    ViewToolMove = "view.tool_move", "Move tool", VIEW;
    ViewToolRotate = "view.tool_rotate", "Rotate tool", VIEW;
    ViewToolScale = "view.tool_scale", "Scale tool", VIEW;
    ViewWorldAxes = "view.world_axes", "Handles along world axes", VIEW;
    ViewAxes = "view.axes", "Local axes", VIEW;
    ViewLinks = "view.links", "Parent-child links", VIEW;
    ViewNames = "view.names", "Names", VIEW;
    ViewShear = "view.shear", "Shear warning overlay", VIEW_OVERLAYS;
    ViewSpaceWorld = "view.space_world", "View from the world", VIEW_SPACES;
    ViewSpaceParent = "view.space_parent", "View from the selection's parent", VIEW_SPACES;
    ViewSpaceSelection = "view.space_selection", "View from the selection", VIEW_SPACES;
    ViewLocalGrid = "view.local_grid", "Local grid of the selection", VIEW_SPACES;
    ViewParentGrid = "view.parent_grid", "Parent's grid", VIEW_SPACES;
    ViewProbeMode = "view.probe_mode", "Place probes", VIEW;
    ViewNextPanel = "view.next_panel", "Focus next panel", VIEW_INTERFACE;
    ViewPreviousPanel = "view.previous_panel", "Focus previous panel", VIEW_INTERFACE;
    ViewZoomIn = "view.zoom_in", "Larger interface", VIEW_INTERFACE;
    ViewZoomOut = "view.zoom_out", "Smaller interface", VIEW_INTERFACE;
    ViewZoomReset = "view.zoom_reset", "Interface at 100 %", VIEW_INTERFACE;
    ViewHighContrast = "view.high_contrast", "High contrast", VIEW_INTERFACE;
    AnimPlay = "anim.play", "Play / pause", VIEW_ANIMATION;
    AnimStop = "anim.stop", "Stop", VIEW_ANIMATION;
    AnimKey = "anim.key", "Key selection", VIEW_ANIMATION;
    AnimDeleteKeys = "anim.delete_keys", "Delete selected keys", VIEW_ANIMATION;
    AnimAutoKey = "anim.auto_key", "Auto-key", VIEW_ANIMATION;
    AnimTrails = "anim.trails", "World-space trails", VIEW_ANIMATION;
    ViewAccumulated = "view.accumulated", "Composition side by side", VIEW_OVERLAYS;
    ViewWorldBlend = "view.world_blend", "Interpolated world matrices", VIEW_OVERLAYS;
    ViewRecomputed = "view.recomputed", "Flash recomputed world matrices", VIEW_OVERLAYS;
    ViewSubtreeBounds = "view.subtree_bounds", "Subtree bounds", VIEW_OVERLAYS;
    ViewCulling = "view.culling", "Culling rectangle", VIEW_OVERLAYS;
    HelpPalette = "help.palette", "Command palette…", HELP;
    HelpShortcuts = "help.shortcuts", "Keyboard shortcuts", HELP;
    HelpLessons = "help.lessons", "Lessons…", HELP;
    LessonRecord = "lesson.record", "Record a lesson…", HELP;
    LessonRecordNext = "lesson.record_next", "Record the next step", HELP;
    LessonRecordStop = "lesson.record_stop", "Stop recording…", HELP;
    LessonRecordCancel = "lesson.record_cancel", "Drop the recording", HELP;
    LessonRecordAsk = "lesson.record_ask", "Ask for a prediction here", HELP;
    LessonExportProgress = "lesson.export_progress", "Export my progress…", HELP;
    HelpAbout = "help.about", "About graft", HELP;
    LessonNext = "lesson.next", "Lesson: next step", PALETTE;
    LessonBack = "lesson.back", "Lesson: previous step", PALETTE;
    LessonHint = "lesson.hint", "Lesson: hint", PALETTE;
    LessonShowMe = "lesson.show_me", "Lesson: show me", PALETTE;
    LessonReset = "lesson.reset", "Lesson: reset step", PALETTE;
    LessonClose = "lesson.close", "Lesson: close", PALETTE;
}

/// The words of the command `id`.
pub fn command_words(id: CommandId) -> &'static CommandWords {
    &COMMAND_WORDS[id as usize]
}

/// The command named `name` ("edit.duplicate"), for text that names commands (a lesson, a
/// test's output); None for a name no command has.
pub fn command_named(name: &str) -> Option<CommandId> {
    COMMAND_WORDS.iter().find(|w| w.name == name).map(|w| w.id)
}

/// The submenu of `menu` holding the item labelled `label` (None: the menu itself, or no such
/// item).
pub fn submenu_of(menu: &str, label: &str) -> Option<&'static str> {
    COMMAND_WORDS
        .iter()
        .find(|words| words.menu == Some(menu) && words.label == label)
        .and_then(|words| words.submenu)
}

/// The labels of `menu`'s items (its submenus' included), in menu order (none for a title that is not a menu).
pub fn menu_items(menu: &str) -> impl Iterator<Item = &'static str> {
    COMMAND_WORDS
        .iter()
        .filter(move |words| words.menu == Some(menu))
        .map(|words| words.label)
}
