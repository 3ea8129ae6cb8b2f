//! The hierarchy panel: the tree in pre-order, selection, rename in place, a context menu and
//! the "Keep world transform" toggle. Reads a FrameContext, sends commands. Which rows show, how
//! far they are indented and what the breadcrumb fits are decided in
//! [`crate::editor::view::rows`]; what clicks, arrow keys and drags mean in
//! [`crate::editor::session::picking`]; what a drop does in [`crate::editor::session::drop_rules`].
//! This only draws the rows and reads the input.
//!
//! Deep trees stay readable: past a few levels the indentation per level shrinks so that a row
//! at any depth keeps room for its name inside the panel, the breadcrumb above the rows shows
//! the selected node's ancestors (click one to select it), and the list scrolls to a node
//! selected elsewhere.

mod context_menu;
mod crumbs;
mod drop_indicator;
mod keys;
mod reveal;
mod state;

use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::editor::session::command::{Command, NewNodePlace};
use crate::editor::session::command::{EditCommand, InstanceCommand, PanelCommand, SettingCommand};
use crate::editor::session::drop_rules::DropZone;
use crate::editor::session::picking::{Mods, row_click, row_drag};
use crate::editor::view::rows::{Indent, ListView};
pub use crate::editor::view::rows::{Row, visible_rows};
use crate::model::scene::name::MAX_NAME_BYTES;
use crate::model::scene::{NodeId, Scene, Shape};
pub use drop_indicator::DraggedNodes;
use drop_indicator::drop_target;
use egui::Key;
pub use state::HierarchyState;

fn icon(shape: &Shape) -> &'static str {
    match shape {
        Shape::None => "◎",
        Shape::Rect { .. } => "⬛",
        Shape::Ellipse { .. } => "⚫",
        Shape::Sprite { .. } => "🖼",
        Shape::Polygon { .. } => "🔷",
    }
}

impl HierarchyState {
    /// Draw the panel (lesson targets and F6's row go to `fx.wiring`); what it asks for is sent.
    pub fn ui(&mut self, ui: &mut egui::Ui, fx: &FrameContext) {
        let state = self;
        ui.set_min_width(ui.available_width()); // the panel keeps its width whatever is shown
        let out = fx.wiring.sender;
        let scene = fx.scene;
        header(ui, fx, state, out);
        let cache = state.take_rows(scene);
        let rows = &cache.rows;
        filter_count(ui, state, cache.matches, scene.len());
        if fx.focused_panel == crate::editor::session::arrange::Panel::Hierarchy {
            keys::keyboard_navigation(ui, scene, fx.selection.ids(), rows, state, out);
        }
        let row_height = ui.spacing().interact_size.y;
        let gap = ui.spacing().item_spacing.y;
        let view = ListView {
            rows: rows.len(),
            pitch: row_height + gap,
            gap,
            offset: state.scroll_y,
            height: ui.available_height(),
        };
        let selection_moved = fx.selection.last() != state.followed;
        let jump = follow_selection(scene, fx.selection.ids(), rows, state, view)
            .or_else(|| reveal::jump(scene, rows, state, view));
        if fx.selection.last() != state.followed {
            ui.ctx().request_repaint(); // a folded row was opened: follow it on the next frame
        }
        state.preview = None;
        (state.primary_row, state.stray_focus) = (None, false);
        let mut area = egui::ScrollArea::vertical().auto_shrink([false, false]);
        if let Some(y) = jump {
            area = area.vertical_scroll_offset(y);
        }
        let scroll = area.show_rows(ui, row_height, rows.len(), |ui, range| {
            let screen_reader = ui
                .ctx()
                .accesskit_node_builder(ui.unique_id(), |node| {
                    node.set_role(egui::accesskit::Role::Tree);
                    node.set_label("Scene hierarchy");
                })
                .is_some();
            for row in &rows[range] {
                // Each row's group tells a screen reader its sibling count; without one (the
                // tree above is None when AccessKit is off) the group is skipped: it is a child
                // Ui per row, a third of a small scene's hierarchy frame.
                if screen_reader {
                    let node = scene.id_at(row.index);
                    crate::app::a11y::tree_row_group(ui, node, |ui| {
                        row_ui(ui, fx, state, rows, *row, out)
                    });
                } else {
                    row_ui(ui, fx, state, rows, *row, out);
                }
            }
        });
        state.scroll_y = scroll.state.clamped_offset().y;
        follow_with_focus(ui, state, selection_moved);
        drop_below_rows(ui, fx, state, scroll.inner_rect, out);
        state.keep_rows(cache);
    }
}

/// The title with its add button, the "Keep world transform" toggle and the filter field.
fn header(ui: &mut egui::Ui, fx: &FrameContext, state: &mut HierarchyState, out: &CommandSender) {
    ui.horizontal(|ui| {
        ui.heading("Hierarchy");
        let add = ui.button("✚");
        crate::app::a11y::name(ui, &add, "Add a root node");
        if add
            .on_hover_text("Add a root node (Ctrl+Shift+N)")
            .clicked()
        {
            out.send(Command::Edit(EditCommand::AddNode(NewNodePlace::Root)));
        }
    });
    use crate::app::ui_targets::Targeted as _;
    let mut keep_world = fx.keep_world;
    if ui
        .checkbox(&mut keep_world, "Keep world transform")
        .lesson_target(ui, fx.wiring.targets, crate::editor::lesson::targets::Control::KeepWorld)
        .on_hover_text("On: a reparented node stays where it is on screen (its local numbers change).\nOff: its local numbers stay and it jumps.\nHold Shift while dropping to do the opposite once.")
        .changed()
    {
        out.send(Command::Setting(SettingCommand::ToggleKeepWorld));
    }
    let filter = ui.add(
        egui::TextEdit::singleline(&mut state.filter)
            .hint_text("🔍 Filter by name")
            .char_limit(MAX_NAME_BYTES),
    );
    crate::app::a11y::name(ui, &filter, "Filter rows by name");
    state.filter_field = Some(filter.id);
    crumbs::breadcrumb(ui, fx, &mut state.path, out);
    ui.separator();
}

/// While filtering, the filter field tells a screen reader how many nodes match ("2 of 5 nodes
/// match"), as it is typed.
fn filter_count(ui: &egui::Ui, state: &HierarchyState, matches: usize, nodes: usize) {
    if let Some(field) = state
        .filter_field
        .filter(|_| !state.filter.trim().is_empty())
    {
        let said = format!("{matches} of {nodes} nodes match");
        ui.ctx()
            .accesskit_node_builder(field, |node| node.set_description(said));
    }
}

/// When the primary selection changed (a click in the viewport, the breadcrumb, a key), the
/// offset that brings its row into view, if it is out of view.
fn follow_selection(
    scene: &Scene,
    selection: &[NodeId],
    rows: &[Row],
    state: &mut HierarchyState,
    view: ListView,
) -> Option<f32> {
    let current = selection.last().copied();
    if current == state.followed {
        return None;
    }
    let index = current.and_then(|id| scene.index(id).ok());
    // Rows are in pre-order.
    match index.map(|index| rows.binary_search_by_key(&index, |r| r.index)) {
        Some(Ok(pos)) => {
            state.followed = current;
            view.scroll_to(pos)
        }
        // Folded under a collapsed parent (the row above a deleted last row, a node picked in
        // the viewport): its parents open now and it is followed, keyboard included, on the
        // next frame, when its row shows.
        Some(Err(_)) if current.is_some_and(|id| state.unfold(scene, id)) => None,
        _ => {
            state.followed = current;
            None
        }
    }
}

/// How rows are indented in this panel: 14 points a level while there is room, and always room
/// for about ten characters of the name after the expand arrow and the icon.
fn indent(ui: &egui::Ui) -> Indent {
    Indent {
        step: 14.0,
        lead: 4.0,
        before_name: ui.spacing().interact_size.y + ICON_WIDTH,
        name_room: 80.0,
    }
}

/// The room of a row's icon, before its name.
const ICON_WIDTH: f32 = 20.0;

/// Dropping on empty space below the rows makes the dragged nodes roots.
fn drop_below_rows(
    ui: &egui::Ui,
    fx: &FrameContext,
    state: &mut HierarchyState,
    area: egui::Rect,
    out: &CommandSender,
) {
    if let Some(dragged) = egui::DragAndDrop::payload::<DraggedNodes>(ui.ctx())
        && state.preview.is_none()
        && ui
            .ctx()
            .pointer_latest_pos()
            .is_some_and(|p| area.contains(p))
    {
        let preview = drop_indicator::plan(ui, fx, &dragged.0, DropZone::Root);
        let stroke = egui::Stroke::new(1.5, ui.visuals().selection.stroke.color);
        ui.painter()
            .rect_stroke(area, 2.0, stroke, egui::StrokeKind::Inside);
        drop_indicator::hold_or_drop(ui, state, preview, out);
    }
}

/// One row this frame: which node, where it is, and how it responded.
struct RowCtx<'a> {
    fx: &'a FrameContext<'a>,
    rows: &'a [Row],
    row: Row,
    id: NodeId,
    rect: egui::Rect,
    response: egui::Response,
    selected: bool,
}

/// How one row's text is painted this frame.
struct RowPaint {
    painter: egui::Painter,
    font: egui::FontId,
    text_color: egui::Color32,
    /// Row height (also the expand arrow's square).
    height: f32,
    /// Where the row's content starts after the depth indent.
    x: f32,
}

/// One row: background, expand arrow, icon and name (or the rename field), and its click, drag,
/// drop and context-menu behaviour.
fn row_ui(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    state: &mut HierarchyState,
    rows: &[Row],
    row: Row,
    out: &CommandSender,
) {
    let scene = fx.scene;
    let id = scene.id_at(row.index);
    let data = scene.data_at(row.index);
    let height = ui.spacing().interact_size.y;
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), height),
        egui::Sense::click_and_drag(),
    );
    if fx.lesson.is_some() {
        // Only a lesson points at rows: no register per row and frame otherwise.
        fx.wiring.targets.row(ui, id, rect);
    }
    let selected = fx.selection.contains(id);
    let label = crate::editor::session::arrange::row_label(scene, row.index);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TreeItem, true, &label));
    let cx = RowCtx {
        fx,
        rows,
        row,
        id,
        rect,
        response,
        selected,
    };
    let has_children = scene.subtree_len_at(row.index) > 1;
    let open = has_children.then(|| !state.is_collapsed(id));
    tree_item_node(ui, &cx, open, &state.filter);
    row_focus(ui, state, &cx);
    let look = row_paint(ui, &cx);
    crate::app::a11y::row_focus_ring(ui, cx.fx.wiring.ring, &cx.response);
    if has_children {
        expand_arrow(ui, state, &cx, &look, &label);
    }
    let icon_pos = egui::pos2(look.x + height, rect.center().y);
    let (align, font) = (egui::Align2::LEFT_CENTER, look.font.clone());
    look.painter
        .text(icon_pos, align, icon(&data.shape), font, look.text_color);
    let text_rect =
        egui::Rect::from_min_max(egui::pos2(icon_pos.x + ICON_WIDTH, rect.top()), rect.max);
    if rename_field(ui, state, text_rect, id, &data.name, out) {
        return;
    }
    paint_name(ui, &cx, &look, text_rect, label);
    row_input(ui, state, &cx, out);
}

/// The row's name, elided with "…" when it is wider than the row has room for (the whole name
/// is then its tooltip). The row's accessibility bounds are where the name is painted.
fn paint_name(ui: &egui::Ui, cx: &RowCtx, look: &RowPaint, text_rect: egui::Rect, label: String) {
    let mut job =
        egui::text::LayoutJob::simple_singleline(label, look.font.clone(), look.text_color);
    job.wrap = egui::text::TextWrapping::truncate_at_width(text_rect.width().max(0.0));
    let galley = look.painter.layout_job(job);
    let at = text_rect.left_center() - egui::vec2(0.0, galley.size().y / 2.0);
    let name_rect = egui::Rect::from_min_size(at, galley.size());
    if galley.elided {
        cx.response.clone().on_hover_text(galley.job.text.as_str());
    }
    look.painter.galley(at, galley, look.text_color);
    ui.ctx().accesskit_node_builder(cx.response.id, |node| {
        node.set_bounds(egui::accesskit::Rect {
            x0: name_rect.min.x.into(),
            y0: name_rect.min.y.into(),
            x1: name_rect.max.x.into(),
            y1: name_rect.max.y.into(),
        })
    });
}

/// The row's background (selected or hovered) and what its text is painted with.
fn row_paint(ui: &egui::Ui, cx: &RowCtx) -> RowPaint {
    let rect = cx.rect;
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    if cx.selected {
        painter.rect_filled(rect, 2.0, visuals.selection.bg_fill);
    } else if cx.response.hovered() {
        painter.rect_filled(rect, 2.0, visuals.widgets.hovered.weak_bg_fill);
    }
    let text_color = if cx.selected {
        visuals.selection.stroke.color
    } else {
        visuals.text_color()
    };
    RowPaint {
        painter,
        font: egui::TextStyle::Button.resolve(ui.style()),
        text_color,
        height: ui.spacing().interact_size.y,
        x: rect.left() + indent(ui).offset(cx.row.depth, rect.width()),
    }
}

/// When the selection moved while another row had the keyboard, the keyboard goes to the
/// primary selection's row (the screen reader reads the row the arrows selected).
fn follow_with_focus(ui: &egui::Ui, state: &HierarchyState, selection_moved: bool) {
    if let Some(row) = state
        .primary_row
        .filter(|_| state.stray_focus && selection_moved)
    {
        ui.memory_mut(|m| m.request_focus(row));
    }
}

/// The keyboard on the rows: the primary selection's row (else the first row shown) is where
/// F6 and a lost focus land; a focused row keeps the arrow keys from egui's focus moves (they
/// walk the rows), and when the selection moved while a row had the keyboard, the keyboard
/// follows it to the new primary row.
fn row_focus(ui: &egui::Ui, state: &mut HierarchyState, cx: &RowCtx) {
    use crate::editor::session::arrange::Panel;
    let selection = cx.fx.selection.ids();
    let primary = selection.last() == Some(&cx.id);
    if primary || (selection.is_empty() && state.primary_row.is_none()) {
        state.primary_row = Some(cx.response.id);
        cx.fx.wiring.name_primary(Panel::Hierarchy, cx.response.id);
    }
    if cx.response.has_focus() {
        crate::app::keyboard::keep_arrows(ui.ctx(), cx.response.id);
        let keyboard_here = cx.fx.focused_panel == Panel::Hierarchy;
        state.stray_focus |= keyboard_here && !primary && !selection.is_empty();
    }
}

/// What a screen reader says of a row: a tree item at its level (1 for a root), selected or
/// not, expanded or collapsed when `open` says it has children, its place among its siblings
/// (those shown, under `filter`).
fn tree_item_node(ui: &egui::Ui, cx: &RowCtx, open: Option<bool>, filter: &str) {
    let at = crate::app::a11y::TreeRow {
        scene: cx.fx.scene,
        index: cx.row.index,
        depth: cx.row.depth,
        selected: cx.selected,
        open,
        shown: (filter, cx.rows),
    };
    crate::app::a11y::tree_row(ui, cx.response.id, &at);
}

/// The ⏷ / ⏵ arrow of a row with children; a click shows or hides them.
fn expand_arrow(
    ui: &egui::Ui,
    state: &mut HierarchyState,
    cx: &RowCtx,
    look: &RowPaint,
    name: &str,
) {
    let arrow_rect = egui::Rect::from_min_size(
        egui::pos2(look.x, cx.rect.top()),
        egui::vec2(look.height, look.height),
    );
    let arrow = ui.interact(
        arrow_rect,
        ui.scope_id().with(("expand", cx.id)),
        egui::Sense::click(),
    );
    let open = !state.is_collapsed(cx.id);
    let verb = if open { "Collapse" } else { "Expand" };
    arrow.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{verb} {name}"))
    });
    look.painter.text(
        arrow_rect.center(),
        egui::Align2::CENTER_CENTER,
        if open { "⏷" } else { "⏵" },
        look.font.clone(),
        look.text_color,
    );
    if arrow.clicked() {
        if open {
            state.set_collapsed(cx.id, true);
        } else {
            state.set_collapsed(cx.id, false);
        }
    }
}

/// The in-place rename field when this row is being renamed (Esc cancels, losing focus
/// commits); returns true when it was shown.
fn rename_field(
    ui: &mut egui::Ui,
    state: &mut HierarchyState,
    text_rect: egui::Rect,
    id: NodeId,
    old_name: &str,
    out: &CommandSender,
) -> bool {
    let Some((renaming, text)) = &mut state.renaming else {
        return false;
    };
    if *renaming != id {
        return false;
    }
    let edit = ui.put(
        text_rect,
        egui::TextEdit::singleline(text).char_limit(MAX_NAME_BYTES),
    );
    if state.focus_rename {
        // F2 selects the whole name: typing replaces it (as a file manager's rename does).
        edit.request_focus();
        let mut field = egui::text_edit::TextEditState::load(ui.ctx(), edit.id).unwrap_or_default();
        let all = egui::text_selection::CCursorRange::select_all_str(text);
        field.cursor.set_char_range(Some(all));
        field.store(ui.ctx(), edit.id);
        state.focus_rename = false;
    }
    if ui.input(|i| i.key_pressed(Key::Escape)) {
        state.renaming = None;
    } else if edit.lost_focus() {
        let name = text.clone();
        state.renaming = None;
        if name != old_name {
            out.send(Command::Panel(PanelCommand::Rename { node: id, name }));
        }
    }
    true
}

/// A row's pointer input: double-click renames, click selects, dragging starts a hierarchy
/// drag; then the drop indicator and the context menu.
fn row_input(ui: &egui::Ui, state: &mut HierarchyState, cx: &RowCtx, out: &CommandSender) {
    let (fx, id, response) = (cx.fx, cx.id, &cx.response);
    let scene = fx.scene;
    if response.double_clicked() {
        state.start_rename(id, scene);
    } else if response.clicked() {
        let modifiers = ui.input(|i| i.modifiers);
        let mods = Mods {
            ctrl: modifiers.command,
            shift: modifiers.shift,
        };
        let (command, anchor) = row_click(scene, cx.rows, state.anchor, cx.row, mods);
        out.send_all(command);
        state.anchor = anchor;
    }
    if response.drag_started() {
        let (dragged, select) = row_drag(scene, fx.selection.ids(), cx.selected, id);
        out.send_all(select);
        egui::DragAndDrop::set_payload(ui.ctx(), DraggedNodes(dragged));
    }
    drop_target(ui, fx, state, cx.rect, id, out);
    file_drop(ui, state, cx, out);
    response.context_menu(|ui| context_menu::context_menu(ui, fx, state, id, out));
}

/// Scene files dragged from the file manager over this row: the row is outlined, and on the
/// drop each is instanced under the row's node (Node ▸ Instance scene…).
fn file_drop(ui: &egui::Ui, state: &mut HierarchyState, cx: &RowCtx, out: &CommandSender) {
    let over = |i: &egui::InputState| i.pointer.latest_pos().is_some_and(|p| cx.rect.contains(p));
    let (hovering, dropped) = ui.input(|i| {
        let paths = |files: Vec<Option<std::path::PathBuf>>| -> Vec<std::path::PathBuf> {
            files
                .into_iter()
                .flatten()
                .filter(|p| is_scene_file(p))
                .collect()
        };
        let hovered = paths(i.raw.hovered_files.iter().map(|f| f.path.clone()).collect());
        let dropped = (i.raw.dropped_files.iter())
            .map(|f| Some(f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()))
            .collect();
        let dropped = paths(dropped);
        (
            over(i) && !hovered.is_empty(),
            if over(i) { dropped } else { Vec::new() },
        )
    });
    if hovering {
        let stroke = egui::Stroke::new(2.0, ui.visuals().selection.stroke.color);
        ui.painter()
            .rect_stroke(cx.rect, 2.0, stroke, egui::StrokeKind::Inside);
    }
    for path in dropped {
        state.took_file_drop = true;
        out.send(Command::Instance(InstanceCommand::Instance {
            under: Some(cx.id),
            path: Some(path),
        }));
    }
}

/// A file an instance can name: a graft scene or a Godot scene.
fn is_scene_file(path: &std::path::Path) -> bool {
    use crate::model::file_kind::{INSTANCE_SOURCES, accepts};
    accepts(INSTANCE_SOURCES, path)
}
