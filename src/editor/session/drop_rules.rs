//! Drag and drop in the hierarchy, without egui: drop zones, which parent a drop gives, the
//! reparent ops it performs (or why it is refused), and the keep-world warnings.

use crate::model::scene::Keep;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeId, Scene};

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

/// A drag in progress over a drop target, with the ops a drop there performs: planned once
/// while the pointer hovers, and carried by [`crate::editor::session::command::PanelCommand::DropRows`] on release.
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
    /// The reparent ops, or why the drop is refused (empty: quietly), from [`drop_ops`].
    pub ops: Result<Vec<Op>, String>,
    /// The scene's structure version the ops were planned at.
    pub structure: u64,
}

impl DropPreview {
    /// Plan a drop of `dragged` in `zone` (runs [`drop_ops`] once).
    pub fn plan(scene: &Scene, dragged: &[NodeId], zone: DropZone, keep_world: bool) -> Self {
        let ops = drop_ops(scene, dragged, zone, keep_world);
        Self {
            dragged: dragged.to_vec(),
            zone,
            keep_world,
            allowed: ops.is_ok(),
            ops,
            structure: scene.structure_version(),
        }
    }

    /// The planned ops, planned again only when the tree changed since (a drop's ops depend
    /// only on the tree: parents, sibling places).
    pub fn into_ops(self, scene: &Scene) -> Result<Vec<Op>, String> {
        if self.structure == scene.structure_version() {
            self.ops
        } else {
            drop_ops(scene, &self.dragged, self.zone, self.keep_world)
        }
    }
}

/// Whether a drop keeps world transforms: the "Keep world transform" toggle, inverted while
/// Shift is held (the one place this rule is written).
pub fn drop_keeps_world(toggle: bool, shift: bool) -> bool {
    toggle != shift
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
    let inverse = crate::model::math::try_inverse(&parent_world).ok()?;
    dragged.iter().find_map(|&d| {
        let old = scene.node(d).ok()?.local;
        let new = crate::model::math::decompose_like(&(inverse * scene.world(d).ok()?), &old);
        let mirrored = |t: &crate::model::math::Trs| t.scale.x * t.scale.y < 0.0;
        if (new.skew - old.skew).abs() > 0.01 {
            Some("needs skew")
        } else if mirrored(&old) != mirrored(&new) || (old.scale.x < 0.0) != (new.scale.x < 0.0) {
            Some("flips mirror")
        } else {
            None
        }
    })
}

/// The zone of a row (its top and height on screen) for a pointer at `y`: the upper and lower
/// quarters are before/after, the middle is into.
pub fn zone_for(row_top: f32, row_height: f32, y: f32, id: NodeId) -> DropZone {
    let t = (y - row_top) / row_height.max(1.0);
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
            keep: Keep::world_if(keep_world),
        })
        .collect())
}
