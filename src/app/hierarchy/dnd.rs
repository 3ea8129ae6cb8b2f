//! Drag and drop in the hierarchy: drop zones, the reparent ops a drop performs, the refused and
//! warning indicators, and the preview the viewport draws as ghosts.

use super::{HierarchyState, Intent};
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene};

/// Where a drop would put the dragged nodes, relative to the row under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropZone {
    /// Before the row, as its sibling (upper edge).
    Before(NodeId),
    /// After the row, as its sibling (lower edge).
    After(NodeId),
    /// Inside the row, as its last child (middle).
    Into(NodeId),
    /// Empty space: roots.
    Root,
}

/// A drag in progress over a drop target.
#[derive(Clone, Debug, PartialEq)]
pub struct DropPreview {
    /// The dragged nodes (topmost, pre-order).
    pub dragged: Vec<NodeId>,
    /// Where they would go.
    pub zone: DropZone,
    /// Whether this drop keeps world transforms (the toggle, inverted by Shift).
    pub keep_world: bool,
    /// False when the drop is refused.
    pub allowed: bool,
}

/// The parent a drop in this zone gives (None = root).
pub fn drop_parent(scene: &Scene, zone: DropZone) -> Option<NodeId> {
    match zone {
        DropZone::Into(t) => Some(t),
        DropZone::Before(t) | DropZone::After(t) => scene.parent(t).ok().flatten(),
        DropZone::Root => None,
    }
}

/// Why keeping the world transform under `parent` changes the kind of a dragged node's local:
/// it needs skew (the parent's world is sheared, or non-uniformly scaled under a rotation) or
/// it flips a mirror. None when the new local is an ordinary TRS like the old one.
pub fn keep_world_warning(
    scene: &Scene,
    dragged: &[NodeId],
    parent: Option<NodeId>,
) -> Option<&'static str> {
    let parent_world = parent
        .map_or(Ok(glam::Affine2::IDENTITY), |p| scene.world(p))
        .ok()?;
    let inverse = crate::math::try_inverse(&parent_world).ok()?;
    dragged.iter().find_map(|&d| {
        let old = scene.node(d).ok()?.local;
        let new = crate::math::decompose_like(&(inverse * scene.world(d).ok()?), &old);
        let mirrored = |t: &crate::math::Trs| t.scale.x * t.scale.y < 0.0;
        if (new.skew - old.skew).abs() > 0.01 {
            Some("needs skew")
        } else if mirrored(&old) != mirrored(&new) || (old.scale.x < 0.0) != (new.scale.x < 0.0) {
            Some("flips mirror")
        } else {
            None
        }
    })
}

/// The nodes being dragged in the hierarchy (topmost selected nodes, pre-order).
#[derive(Clone, Debug, PartialEq)]
pub struct DraggedNodes(pub Vec<NodeId>);

/// The zone of a row for a pointer at `y`: the upper and lower quarters are before/after.
pub fn zone_for(row_rect: egui::Rect, y: f32, id: NodeId) -> DropZone {
    let t = (y - row_rect.top()) / row_rect.height().max(1.0);
    if t < 0.25 {
        DropZone::Before(id)
    } else if t > 0.75 {
        DropZone::After(id)
    } else {
        DropZone::Into(id)
    }
}

/// The reparent ops that a drop performs, or an error message when it is refused (a node onto
/// itself or its own descendant). Dragged nodes keep their order.
pub fn drop_ops(
    scene: &Scene,
    dragged: &[NodeId],
    zone: DropZone,
    keep_world: bool,
) -> Result<Vec<Op>, String> {
    let target = match zone {
        DropZone::Before(t) | DropZone::After(t) | DropZone::Into(t) => Some(t),
        DropZone::Root => None,
    };
    if target.is_some_and(|t| dragged.contains(&t)) {
        return Err(String::new()); // back onto itself: refused quietly
    }
    if let Some(t) = target
        && let Some(&d) = dragged
            .iter()
            .find(|&&d| scene.is_ancestor_or_self(d, t).unwrap_or(false))
    {
        let name = scene.node(d).map(|n| n.name.clone()).unwrap_or_default();
        return Err(format!(
            "Cannot drop {name} onto itself or its own descendant"
        ));
    }
    let (parent, first_index) = match zone {
        DropZone::Root => (None, None),
        DropZone::Into(t) => (Some(t), None),
        DropZone::Before(t) | DropZone::After(t) => {
            let parent = scene.parent(t).map_err(|e| e.to_string())?;
            let siblings = scene.children(parent).map_err(|e| e.to_string())?;
            let before = siblings
                .iter()
                .take_while(|&&s| s != t)
                .filter(|s| !dragged.contains(s))
                .count();
            (
                parent,
                Some(before + usize::from(matches!(zone, DropZone::After(_)))),
            )
        }
    };
    Ok(dragged
        .iter()
        .enumerate()
        .map(|(k, &node)| Op::Reparent {
            node,
            parent,
            index: first_index.map(|i| i + k),
            keep_world,
        })
        .collect())
}

/// While something is dragged over this row: show where it would land, and drop it on release.
pub(super) fn drop_target(
    ui: &egui::Ui,
    scene: &Scene,
    state: &mut HierarchyState,
    rect: egui::Rect,
    id: NodeId,
    out: &mut Vec<Intent>,
) {
    let Some(dragged) = egui::DragAndDrop::payload::<DraggedNodes>(ui.ctx()) else {
        return;
    };
    let Some(pointer) = ui.ctx().pointer_latest_pos().filter(|p| rect.contains(*p)) else {
        return;
    };
    let zone = zone_for(rect, pointer.y, id);
    let shift = ui.input(|i| i.modifiers.shift);
    let keep_world = state.keep_world != shift;
    let result = drop_ops(scene, &dragged.0, zone, keep_world);
    state.preview = Some(DropPreview {
        dragged: dragged.0.clone(),
        zone,
        keep_world,
        allowed: result.is_ok(),
    });
    let painter = ui.painter();
    let color = if result.is_ok() {
        ui.visuals().selection.stroke.color
    } else {
        ui.visuals().error_fg_color
    };
    let stroke = egui::Stroke::new(2.0, color);
    match zone {
        DropZone::Before(_) => painter.hline(rect.x_range(), rect.top(), stroke),
        DropZone::After(_) => painter.hline(rect.x_range(), rect.bottom(), stroke),
        _ => painter.rect_stroke(rect, 2.0, stroke, egui::StrokeKind::Inside),
    };
    let badge = match &result {
        Err(_) => Some(("⛔".to_string(), color)),
        Ok(_) if keep_world => keep_world_warning(scene, &dragged.0, drop_parent(scene, zone))
            .map(|w| (format!("⚠ {w}"), ui.visuals().warn_fg_color)),
        Ok(_) => None,
    };
    if let Some((badge, badge_color)) = badge {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let at = rect.right_center() - egui::vec2(6.0, 0.0);
        painter.text(at, egui::Align2::RIGHT_CENTER, badge, font, badge_color);
    }
    if ui.input(|i| i.pointer.any_released()) {
        egui::DragAndDrop::clear_payload(ui.ctx());
        state.preview = None;
        push_drop(scene, &dragged.0, result, keep_world, out);
    }
}

pub(super) fn push_drop(
    scene: &Scene,
    dragged: &[NodeId],
    result: Result<Vec<Op>, String>,
    keep_world: bool,
    out: &mut Vec<Intent>,
) {
    match result {
        Ok(ops) => {
            let what = match dragged {
                [one] => scene.node(*one).map(|d| d.name.clone()).unwrap_or_default(),
                many => format!("{} nodes", many.len()),
            };
            let how = if keep_world { "" } else { " (keep local)" };
            out.push(Intent::Perform {
                label: format!("Reparent {what}{how}"),
                ops,
                gesture: None,
            });
        }
        Err(message) if message.is_empty() => {}
        Err(message) => out.push(Intent::Refused(message)),
    }
}
