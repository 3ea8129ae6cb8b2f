//! What the editor's commands are called and where the menu bar shows them: the menu titles
//! and, for every entry of the command table, its stable name, its label and its menu. Pure
//! data, below the session: lessons check `point: menu View > Names` against it at parse time,
//! and `table.rs` attaches to each name its command, shortcuts, tooltip and when it is enabled
//! (as rerun keeps `UICommand`'s text in a low crate and its handling in the app).

/// The top-level menus, in order.
pub const MENUS: [&str; 5] = ["File", "Edit", "Node", "View", "Help"];

/// What one command is called and where it appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandWords {
    /// A stable name, e.g. "edit.duplicate": the command table's key.
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

const fn w(name: &'static str, label: &'static str, place: Place) -> CommandWords {
    CommandWords {
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

/// Every command's words, in the command table's order (menu by menu, in menu order).
#[rustfmt::skip]
pub const COMMAND_WORDS: &[CommandWords] = &[
    w("file.new", "New", FILE),
    w("file.open", "Open…", FILE),
    w("file.save", "Save", FILE),
    w("file.save_as", "Save As…", FILE),
    w("file.import", "Import…", FILE),
    w("file.generate", "Generate scene…", FILE),
    w("file.export_godot", "Export as Godot scene…", FILE_EXPORT),
    w("file.export_for_godot4", "Godot export: Godot 4", FILE_EXPORT),
    w("file.export_for_godot3", "Godot export: Godot 3", FILE_EXPORT),
    w("file.export_godot_keep_instances", "Godot export: keep instances", FILE_EXPORT),
    w("file.export_godot_flatten", "Godot export: flatten instances", FILE_EXPORT),
    w("file.export_godot_ppu_1", "Godot export: 1 pixel per unit", FILE_EXPORT),
    w("file.export_godot_ppu_32", "Godot export: 32 pixels per unit", FILE_EXPORT),
    w("file.export_godot_ppu_64", "Godot export: 64 pixels per unit", FILE_EXPORT),
    w("file.export_godot_ppu_100", "Godot export: 100 pixels per unit", FILE_EXPORT),
    w("file.export_godot3", "Export as Godot 3 scene…", FILE_EXPORT),
    w("file.export_animation", "Export animation…", FILE_EXPORT),
    w("file.export_svg", "Export as SVG…", FILE_EXPORT),
    w("file.export_figure", "Export figure…", FILE_EXPORT),
    w("file.import_report", "Import / export report", FILE),
    w("file.cancel_load", "Cancel background work", FILE),
    w("file.journal", "Keep a crash journal", FILE),
    w("file.journal_retry", "Retry the crash journal", FILE),
    w("file.revert", "Revert", FILE),
    w("file.quit", "Quit", FILE),
    w("edit.undo", "Undo", EDIT),
    w("edit.redo", "Redo", EDIT),
    w("edit.copy", "Copy", EDIT),
    w("edit.paste", "Paste as child", EDIT),
    w("edit.duplicate", "Duplicate", EDIT),
    w("edit.select_all", "Select all", EDIT),
    w("edit.rename", "Rename", EDIT),
    w("edit.delete", "Delete", EDIT),
    w("edit.history", "History…", EDIT),
    w("node.add", "Add node", NODE),
    w("node.add_child", "Add child", NODE),
    w("node.add_sibling", "Add sibling", NODE),
    w("node.mirror_h", "Mirror horizontally", NODE),
    w("node.mirror_v", "Mirror vertically", NODE),
    w("node.reset_local", "Reset local transform", NODE),
    w("node.group", "Create parent for selection", NODE),
    w("node.unparent", "Unparent (to root)", NODE),
    w("node.move_to", "Move to…", NODE),
    w("node.move_up", "Move up", NODE),
    w("node.move_down", "Move down", NODE),
    w("node.keep_world", "Keep world transform", NODE),
    w("node.instance", "Instance scene…", NODE),
    w("node.save_branch", "Save branch as scene…", NODE_INSTANCES),
    w("node.make_local", "Make local", NODE_INSTANCES),
    w("node.revert_source", "Revert to source", NODE_INSTANCES),
    w("node.open_source", "Open source", NODE_INSTANCES),
    w("view.frame_selection", "Frame selection", VIEW),
    w("view.frame_all", "Frame all", VIEW),
    w("view.tool_move", "Move tool", VIEW),
    w("view.tool_rotate", "Rotate tool", VIEW),
    w("view.tool_scale", "Scale tool", VIEW),
    w("view.world_axes", "Handles along world axes", VIEW),
    w("view.axes", "Local axes", VIEW),
    w("view.links", "Parent-child links", VIEW),
    w("view.names", "Names", VIEW),
    w("view.shear", "Shear warning overlay", VIEW_OVERLAYS),
    w("view.space_world", "View from the world", VIEW_SPACES),
    w("view.space_parent", "View from the selection's parent", VIEW_SPACES),
    w("view.space_selection", "View from the selection", VIEW_SPACES),
    w("view.local_grid", "Local grid of the selection", VIEW_SPACES),
    w("view.parent_grid", "Parent's grid", VIEW_SPACES),
    w("view.probe_mode", "Place probes", VIEW),
    w("view.next_panel", "Focus next panel", VIEW_INTERFACE),
    w("view.previous_panel", "Focus previous panel", VIEW_INTERFACE),
    w("view.zoom_in", "Larger interface", VIEW_INTERFACE),
    w("view.zoom_out", "Smaller interface", VIEW_INTERFACE),
    w("view.zoom_reset", "Interface at 100 %", VIEW_INTERFACE),
    w("view.high_contrast", "High contrast", VIEW_INTERFACE),
    w("anim.play", "Play / pause", VIEW_ANIMATION),
    w("anim.stop", "Stop", VIEW_ANIMATION),
    w("anim.key", "Key selection", VIEW_ANIMATION),
    w("anim.delete_keys", "Delete selected keys", VIEW_ANIMATION),
    w("anim.auto_key", "Auto-key", VIEW_ANIMATION),
    w("anim.trails", "World-space trails", VIEW_ANIMATION),
    w("view.accumulated", "Composition side by side", VIEW_OVERLAYS),
    w("view.world_blend", "Interpolated world matrices", VIEW_OVERLAYS),
    w("view.recomputed", "Flash recomputed world matrices", VIEW_OVERLAYS),
    w("view.subtree_bounds", "Subtree bounds", VIEW_OVERLAYS),
    w("view.culling", "Culling rectangle", VIEW_OVERLAYS),
    w("help.palette", "Command palette…", HELP),
    w("help.shortcuts", "Keyboard shortcuts", HELP),
    w("help.lessons", "Lessons…", HELP),
    w("lesson.record", "Record a lesson…", HELP),
    w("lesson.record_next", "Record the next step", HELP),
    w("lesson.record_stop", "Stop recording…", HELP),
    w("lesson.record_cancel", "Drop the recording", HELP),
    w("lesson.record_ask", "Ask for a prediction here", HELP),
    w("lesson.export_progress", "Export my progress…", HELP),
    w("help.about", "About graft", HELP),
    w("lesson.next", "Lesson: next step", PALETTE),
    w("lesson.back", "Lesson: previous step", PALETTE),
    w("lesson.hint", "Lesson: hint", PALETTE),
    w("lesson.show_me", "Lesson: show me", PALETTE),
    w("lesson.reset", "Lesson: reset step", PALETTE),
    w("lesson.close", "Lesson: close", PALETTE),
];

/// The words of the command with this name.
pub fn command_words(name: &str) -> Option<&'static CommandWords> {
    COMMAND_WORDS.iter().find(|words| words.name == name)
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
