//! What clicks, drags and arrow keys in the hierarchy and the viewport ask for, without egui:
//! Ctrl and Shift clicks on rows, the arrow keys in the tree, what a drag that starts on a row
//! carries, and what a click, a rubber band or a drag start in the viewport selects. The panels read the
//! input and the geometry (which row, which node is under the pointer), call these and send
//! what they return.

use crate::editor::session::command::{Command, SelectionCommand};
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::pointer::{MoveDrag, box_pick};
use crate::editor::view::rows::Row;
use crate::model::scene::{NodeId, Scene};
use glam::{DVec2, Vec2};

/// The modifier keys the rules read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// Ctrl (⌘ on macOS).
    pub ctrl: bool,
    /// Shift.
    pub shift: bool,
}

/// A click on a row (of the rows shown, in order): Ctrl toggles the row's node, Shift selects
/// every shown row from the anchor to it, a plain click selects it alone and makes it the
/// anchor. Returns the command and the anchor afterwards.
pub fn row_click(
    scene: &Scene,
    rows: &[Row],
    anchor: Option<NodeId>,
    row: Row,
    mods: Mods,
) -> (Option<Command>, Option<NodeId>) {
    let id = scene.id_at(row.index);
    if mods.ctrl {
        return (
            Some(Command::Selection(SelectionCommand::ToggleSelect(id))),
            anchor,
        );
    }
    if mods.shift
        && let Some(from) = anchor
    {
        let a = rows.iter().position(|r| scene.id_at(r.index) == from);
        let b = rows.iter().position(|r| r.index == row.index);
        let range = a.zip(b).map(|(a, b)| {
            let ids = rows[a.min(b)..=a.max(b)].iter();
            Command::Selection(SelectionCommand::Select(
                ids.map(|r| scene.id_at(r.index)).collect(),
            ))
        });
        return (range, anchor);
    }
    (
        Some(Command::Selection(SelectionCommand::Select(vec![id]))),
        Some(id),
    )
}

/// An arrow key in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// The row above.
    Up,
    /// The row below.
    Down,
    /// Collapse, or go to the parent.
    Left,
    /// Expand.
    Right,
}

/// What an arrow key does in the tree.
#[derive(Clone, Debug, PartialEq)]
pub enum RowKey {
    /// Send this command (select another row).
    Command(Command),
    /// Show (false) or hide (true) this node's children: the panel's own state.
    SetCollapsed(NodeId, bool),
}

/// An arrow key with the primary selection's row shown: Up / Down select the row above or
/// below, Right expands a row with children, Left collapses an expanded one or else selects
/// the parent. With no row selected, Down (or Right) selects the first row and Up the last.
/// None when the key does nothing here (the first row and Up, a leaf and Right).
pub fn row_key(
    scene: &Scene,
    rows: &[Row],
    selection: &[NodeId],
    collapsed: impl Fn(NodeId) -> bool,
    arrow: Arrow,
) -> Option<RowKey> {
    let select = |index: usize| {
        RowKey::Command(Command::Selection(SelectionCommand::Select(vec![
            scene.id_at(index),
        ])))
    };
    let shown = |current: &NodeId| rows.iter().position(|r| scene.id_at(r.index) == *current);
    let Some((current, pos)) = selection.last().and_then(|c| Some((*c, shown(c)?))) else {
        // Nothing selected (or its row hidden): Down starts at the first row, Up at the last.
        return match arrow {
            Arrow::Down | Arrow::Right => rows.first().map(|r| select(r.index)),
            Arrow::Up => rows.last().map(|r| select(r.index)),
            Arrow::Left => None,
        };
    };
    let has_children = scene.subtree_len_at(rows[pos].index) > 1;
    match arrow {
        Arrow::Up => pos.checked_sub(1).map(|k| select(rows[k].index)),
        Arrow::Down => rows.get(pos + 1).map(|r| select(r.index)),
        Arrow::Right => has_children.then_some(RowKey::SetCollapsed(current, false)),
        Arrow::Left if has_children && !collapsed(current) => {
            Some(RowKey::SetCollapsed(current, true))
        }
        Arrow::Left => scene.parent_index_at(rows[pos].index).map(select),
    }
}

/// A drag that starts on a row carries the topmost selected nodes when the row is selected;
/// otherwise it carries the row's node alone, which is selected first.
pub fn row_drag(
    scene: &Scene,
    selection: &[NodeId],
    row_selected: bool,
    id: NodeId,
) -> (Vec<NodeId>, Option<Command>) {
    if row_selected {
        (scene.topmost(selection), None)
    } else {
        (
            vec![id],
            Some(Command::Selection(SelectionCommand::Select(vec![id]))),
        )
    }
}

/// A click in the viewport on `hit` (or on empty space): it selects the node alone, or with
/// Ctrl / Shift (`extending`) toggles it; empty space clears the selection unless extending.
pub fn viewport_click(hit: Option<NodeId>, extending: bool) -> Option<Command> {
    match hit {
        Some(id) if extending => Some(Command::Selection(SelectionCommand::ToggleSelect(id))),
        Some(id) => Some(Command::Selection(SelectionCommand::Select(vec![id]))),
        None if !extending => Some(Command::Selection(SelectionCommand::Select(Vec::new()))),
        None => None,
    }
}

/// A rubber band from `a` to `b` (screen points) released: the nodes whose origins are inside
/// it, added to the selection when extending (Ctrl / Shift), else instead of it.
pub fn band_selection(
    scene: &Scene,
    view: (Camera, ScreenRect),
    (a, b): (Vec2, Vec2),
    selection: &[NodeId],
    extending: bool,
) -> Command {
    let kept = if extending { selection } else { &[] };
    Command::Selection(SelectionCommand::Select(box_pick(
        scene,
        view,
        (a, b),
        kept,
    )))
}

/// What a primary drag that starts in the viewport does.
#[derive(Clone, Debug, PartialEq)]
pub struct DragStart {
    /// Select this first (the node under the pointer was not selected).
    pub select: Option<Command>,
    /// Move these nodes with the pointer (the topmost of those moving: children follow).
    pub drag: Option<MoveDrag>,
    /// Nothing under the pointer: draw a rubber band.
    pub band: bool,
}

/// A drag starting at `pointer` (world) on `hit`: on a selected node it moves the selection, on
/// another node it selects that node and moves it, on empty space it starts a rubber band.
pub fn viewport_drag(
    scene: &Scene,
    selection: &[NodeId],
    is_selected: impl Fn(NodeId) -> bool,
    hit: Option<NodeId>,
    pointer: DVec2,
) -> DragStart {
    let (moving, select) = match hit {
        Some(id) if is_selected(id) => (selection.to_vec(), None),
        Some(id) => (
            vec![id],
            Some(Command::Selection(SelectionCommand::Select(vec![id]))),
        ),
        None => (Vec::new(), None),
    };
    let starts: Vec<_> = scene
        .topmost(&moving)
        .into_iter()
        .filter_map(|id| scene.world(id).ok().map(|w| (id, w.translation)))
        .collect();
    DragStart {
        select,
        drag: (!starts.is_empty()).then_some(MoveDrag {
            start_pointer: pointer,
            starts,
        }),
        band: hit.is_none(),
    }
}
