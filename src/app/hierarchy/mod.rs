//! The hierarchy panel: the tree in pre-order, selection, rename in place, a context menu and
//! the "Keep world transform" toggle. Reads the editor, returns commands.

mod dnd;

use crate::editor::command::{Command, NewNodePlace};
use crate::editor::dnd::{DropPreview, DropZone, drop_ops};
use crate::editor::session::Editor;
use crate::editor::table::{Shortcut, find_command};
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene, Shape};
pub use dnd::DraggedNodes;
use dnd::drop_target;
use egui::{Key, Modifiers};
use rustc_hash::FxHashSet;

/// What the hierarchy remembers between frames.
#[derive(Default)]
pub struct HierarchyState {
    /// Nodes whose children are hidden.
    collapsed: FxHashSet<NodeId>,
    /// The rows of the last frame, and what they were computed from.
    rows_cache: Option<RowsCache>,
    collapsed_version: u64,
    /// The node being renamed and the text typed so far.
    pub renaming: Option<(NodeId, String)>,
    focus_rename: bool,
    /// Only nodes whose name contains this (and their ancestors) are shown.
    pub filter: String,
    /// The row Shift+click extends from.
    anchor: Option<NodeId>,
    /// Where the current drag would drop (for the indicator and the viewport's ghost).
    pub preview: Option<DropPreview>,
}

/// Visible rows and the inputs they were computed from.
struct RowsCache {
    scene_version: u64,
    collapsed_version: u64,
    filter: String,
    rows: Vec<Row>,
}

impl HierarchyState {
    /// Show or hide a node's children.
    pub fn set_collapsed(&mut self, id: NodeId, collapsed: bool) {
        let changed = if collapsed {
            self.collapsed.insert(id)
        } else {
            self.collapsed.remove(&id)
        };
        if changed {
            self.collapsed_version += 1;
        }
    }

    /// True when a node's children are hidden.
    pub fn is_collapsed(&self, id: NodeId) -> bool {
        self.collapsed.contains(&id)
    }

    /// The visible rows, recomputed only when the tree, the collapsed set or the filter changed:
    /// an ordinary frame costs nothing per hidden or off-screen row. Returns the rows and what
    /// they were computed from (hand both back to [`Self::keep_rows`]).
    fn take_rows(&mut self, scene: &Scene) -> RowsCache {
        match self.rows_cache.take() {
            Some(c)
                if c.scene_version == scene.structure_version()
                    && c.collapsed_version == self.collapsed_version
                    && c.filter == self.filter =>
            {
                c
            }
            _ => RowsCache {
                scene_version: scene.structure_version(),
                collapsed_version: self.collapsed_version,
                filter: self.filter.clone(),
                rows: visible_rows(scene, &self.collapsed, &self.filter),
            },
        }
    }

    fn keep_rows(&mut self, rows: RowsCache) {
        self.rows_cache = Some(rows);
    }

    /// Begin renaming a node in place (F2).
    pub fn start_rename(&mut self, id: NodeId, scene: &Scene) {
        let name = scene.node(id).map(|d| d.name.clone()).unwrap_or_default();
        self.renaming = Some((id, name));
        self.focus_rename = true;
    }
}

/// One visible row: pre-order index and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Pre-order index in the scene.
    pub index: usize,
    /// Depth (roots are 0).
    pub depth: usize,
}

/// The rows to show: pre-order, skipping collapsed subtrees, and with a filter only matching
/// nodes and their ancestors. One pass over the scene, no recursion.
pub fn visible_rows(scene: &Scene, collapsed: &FxHashSet<NodeId>, filter: &str) -> Vec<Row> {
    let n = scene.len();
    let filter = filter.trim().to_lowercase();
    let keep: Option<Vec<bool>> = (!filter.is_empty()).then(|| {
        let mut keep: Vec<bool> = (0..n)
            .map(|i| scene.data_at(i).name.to_lowercase().contains(&filter))
            .collect();
        for i in (0..n).rev() {
            if keep[i]
                && let Some(p) = scene.parent_index_at(i)
            {
                keep[p] = true;
            }
        }
        keep
    });
    let mut rows = Vec::new();
    let mut depth_stack: Vec<usize> = Vec::new(); // end index of each open ancestor
    let mut i = 0;
    while i < n {
        while depth_stack.last().is_some_and(|&end| i >= end) {
            depth_stack.pop();
        }
        let len = scene.subtree_len_at(i);
        if keep.as_ref().is_some_and(|k| !k[i]) {
            i += len;
            continue;
        }
        rows.push(Row {
            index: i,
            depth: depth_stack.len(),
        });
        // While filtering, everything that matches is shown even under collapsed nodes.
        if keep.is_none() && len > 1 && collapsed.contains(&scene.id_at(i)) {
            i += len;
        } else {
            depth_stack.push(i + len);
            i += 1;
        }
    }
    rows
}

fn icon(shape: &Shape) -> &'static str {
    match shape {
        Shape::None => "◎",
        Shape::Rect { .. } => "⬛",
        Shape::Ellipse { .. } => "⚫",
        Shape::Sprite { .. } => "🖼",
    }
}

/// Draw the panel; returns what the person asked for.
pub fn ui(ui: &mut egui::Ui, editor: &Editor, state: &mut HierarchyState) -> Vec<Command> {
    let mut out = Vec::new();
    let scene = editor.doc().scene();
    let selection = editor.selection();
    ui.horizontal(|ui| {
        ui.heading("Hierarchy");
        if ui
            .button("✚")
            .on_hover_text("Add a root node (Ctrl+Shift+N)")
            .clicked()
        {
            out.push(Command::AddNode(NewNodePlace::Root));
        }
    });
    let mut keep_world = editor.keep_world();
    if ui
        .checkbox(&mut keep_world, "Keep world transform")
        .on_hover_text("On: a reparented node stays where it is on screen (its local numbers change).\nOff: its local numbers stay and it jumps.\nHold Shift while dropping to do the opposite once.")
        .changed()
    {
        out.push(Command::ToggleKeepWorld);
    }
    ui.add(egui::TextEdit::singleline(&mut state.filter).hint_text("🔍 Filter by name"));
    ui.separator();
    let cache = state.take_rows(scene);
    let rows = &cache.rows;
    keyboard_navigation(ui, scene, selection, rows, state, &mut out);
    let row_height = ui.spacing().interact_size.y;
    state.preview = None;
    let scroll = egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in &rows[range] {
                row_ui(ui, editor, state, rows, *row, &mut out);
            }
        });
    // Dropping on empty space below the rows makes the dragged nodes roots.
    if let Some(dragged) = egui::DragAndDrop::payload::<DraggedNodes>(ui.ctx())
        && state.preview.is_none()
        && ui
            .ctx()
            .pointer_latest_pos()
            .is_some_and(|p| scroll.inner_rect.contains(p))
    {
        let keep_world = editor.keep_world() != ui.input(|i| i.modifiers.shift);
        let result = drop_ops(scene, &dragged.0, DropZone::Root, keep_world);
        let stroke = egui::Stroke::new(1.5, ui.visuals().selection.stroke.color);
        ui.painter()
            .rect_stroke(scroll.inner_rect, 2.0, stroke, egui::StrokeKind::Inside);
        state.preview = Some(DropPreview {
            dragged: dragged.0.clone(),
            zone: DropZone::Root,
            keep_world,
            allowed: result.is_ok(),
        });
        if ui.input(|i| i.pointer.any_released()) {
            egui::DragAndDrop::clear_payload(ui.ctx());
            out.push(Command::Drop {
                dragged: dragged.0.clone(),
                zone: DropZone::Root,
                keep_world,
            });
        }
    }
    state.keep_rows(cache);
    out
}

fn keyboard_navigation(
    ui: &egui::Ui,
    scene: &Scene,
    selection: &[NodeId],
    rows: &[Row],
    state: &mut HierarchyState,
    out: &mut Vec<Command>,
) {
    if ui.ctx().text_edit_focused() || state.renaming.is_some() {
        return;
    }
    let Some(&current) = selection.last() else {
        return;
    };
    let Some(pos) = rows.iter().position(|r| scene.id_at(r.index) == current) else {
        return;
    };
    let (up, down, left, right) = ui.input(|i| {
        let plain = i.modifiers == Modifiers::NONE;
        (
            plain && i.key_pressed(Key::ArrowUp),
            plain && i.key_pressed(Key::ArrowDown),
            plain && i.key_pressed(Key::ArrowLeft),
            plain && i.key_pressed(Key::ArrowRight),
        )
    });
    let select = |k: usize, out: &mut Vec<Command>| {
        out.push(Command::Select(vec![scene.id_at(rows[k].index)]))
    };
    if up && pos > 0 {
        select(pos - 1, out);
    }
    if down && pos + 1 < rows.len() {
        select(pos + 1, out);
    }
    let has_children = scene.subtree_len_at(rows[pos].index) > 1;
    if right && has_children {
        state.set_collapsed(current, false);
    }
    if left {
        if has_children && !state.is_collapsed(current) {
            state.set_collapsed(current, true);
        } else if let Some(p) = scene.parent_index_at(rows[pos].index) {
            out.push(Command::Select(vec![scene.id_at(p)]));
        }
    }
}

fn row_ui(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut HierarchyState,
    rows: &[Row],
    row: Row,
    out: &mut Vec<Command>,
) {
    let scene = editor.doc().scene();
    let selection = editor.selection();
    let id = scene.id_at(row.index);
    let data = scene.data_at(row.index);
    let has_children = scene.subtree_len_at(row.index) > 1;
    let height = ui.spacing().interact_size.y;
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), height),
        egui::Sense::click_and_drag(),
    );
    let selected = selection.contains(&id);
    let label = if data.name.is_empty() {
        format!("({id})")
    } else {
        data.name.clone()
    };
    response.widget_info(|| egui::WidgetInfo::selected(egui::Role::Tab, true, selected, &label));
    let visuals = ui.visuals().clone();
    let painter = ui.painter_at(rect);
    if selected {
        painter.rect_filled(rect, 2.0, visuals.selection.bg_fill);
    } else if response.hovered() {
        painter.rect_filled(rect, 2.0, visuals.widgets.hovered.weak_bg_fill);
    }
    let x = rect.left() + 4.0 + row.depth as f32 * 14.0;
    let text_color = if selected {
        visuals.selection.stroke.color
    } else {
        visuals.text_color()
    };
    let font = egui::TextStyle::Button.resolve(ui.style());
    if has_children {
        let arrow_rect =
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(height, height));
        let arrow = ui.interact(
            arrow_rect,
            ui.scope_id().with(("expand", id)),
            egui::Sense::click(),
        );
        let open = !state.is_collapsed(id);
        painter.text(
            arrow_rect.center(),
            egui::Align2::CENTER_CENTER,
            if open { "⏷" } else { "⏵" },
            font.clone(),
            text_color,
        );
        if arrow.clicked() {
            if open {
                state.set_collapsed(id, true);
            } else {
                state.set_collapsed(id, false);
            }
        }
    }
    let icon_pos = egui::pos2(x + height, rect.center().y);
    painter.text(
        icon_pos,
        egui::Align2::LEFT_CENTER,
        icon(&data.shape),
        font.clone(),
        text_color,
    );
    let text_rect = egui::Rect::from_min_max(egui::pos2(icon_pos.x + 20.0, rect.top()), rect.max);
    if let Some((renaming, text)) = &mut state.renaming
        && *renaming == id
    {
        let edit = ui.put(text_rect, egui::TextEdit::singleline(text));
        if state.focus_rename {
            edit.request_focus();
            state.focus_rename = false;
        }
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            state.renaming = None;
        } else if edit.lost_focus() {
            let name = text.clone();
            state.renaming = None;
            if name != data.name {
                out.push(Command::Perform {
                    label: format!("Rename {} to {name}", data.name),
                    ops: vec![Op::Rename { node: id, name }],
                    continuous: false,
                });
            }
        }
        return;
    }
    painter.text(
        text_rect.left_center(),
        egui::Align2::LEFT_CENTER,
        &label,
        font,
        text_color,
    );
    if response.double_clicked() {
        state.start_rename(id, scene);
    } else if response.clicked() {
        click(ui, scene, state, rows, row, id, out);
    }
    if response.drag_started() {
        let dragged = if selected {
            scene.topmost(selection)
        } else {
            vec![id]
        };
        if !selected {
            out.push(Command::Select(vec![id]));
        }
        egui::DragAndDrop::set_payload(ui.ctx(), DraggedNodes(dragged));
    }
    drop_target(ui, editor, state, rect, id, out);
    response.context_menu(|ui| context_menu(ui, editor, state, id, out));
}

fn click(
    ui: &egui::Ui,
    scene: &Scene,
    state: &mut HierarchyState,
    rows: &[Row],
    row: Row,
    id: NodeId,
    out: &mut Vec<Command>,
) {
    let modifiers = ui.input(|i| i.modifiers);
    if modifiers.command {
        out.push(Command::ToggleSelect(id));
    } else if modifiers.shift
        && let Some(anchor) = state.anchor
    {
        let a = rows.iter().position(|r| scene.id_at(r.index) == anchor);
        let b = rows.iter().position(|r| r.index == row.index);
        if let (Some(a), Some(b)) = (a, b) {
            let (lo, hi) = (a.min(b), a.max(b));
            out.push(Command::Select(
                rows[lo..=hi].iter().map(|r| scene.id_at(r.index)).collect(),
            ));
        }
    } else {
        out.push(Command::Select(vec![id]));
        state.anchor = Some(id);
    }
}

/// The row's context menu: entries of the command table (with their shortcuts), acting on
/// the row's node (selected first when it was not).
fn context_menu(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut HierarchyState,
    id: NodeId,
    out: &mut Vec<Command>,
) {
    if !editor.selection().contains(&id) {
        out.push(Command::Select(vec![id]));
    }
    let entry = |ui: &mut egui::Ui, name: &str, command: Command, out: &mut Vec<Command>| {
        let Some(spec) = find_command(name) else {
            return false;
        };
        let shortcut = spec
            .shortcuts
            .first()
            .map(Shortcut::text)
            .unwrap_or_default();
        let clicked = ui
            .add(egui::Button::new(spec.label).shortcut_text(shortcut))
            .on_hover_text(spec.tooltip)
            .clicked();
        if clicked {
            out.push(command);
        }
        clicked
    };
    if entry(
        ui,
        "node.add_child",
        Command::AddNode(NewNodePlace::ChildOf(id)),
        out,
    ) {
        state.set_collapsed(id, false);
    }
    entry(
        ui,
        "node.add_sibling",
        Command::AddNode(NewNodePlace::After(id)),
        out,
    );
    entry(ui, "node.group", Command::CreateParent, out);
    entry(ui, "node.unparent", Command::Unparent, out);
    ui.separator();
    for name in [
        "edit.rename",
        "edit.duplicate",
        "edit.copy",
        "edit.paste",
        "edit.delete",
    ] {
        if let Some(spec) = find_command(name) {
            entry(ui, name, spec.command.clone(), out);
        }
    }
}
