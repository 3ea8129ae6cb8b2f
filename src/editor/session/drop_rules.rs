//! Drag and drop in the hierarchy, without egui: drop zones, which parent a drop gives, the
//! verdict on a drop (where the nodes go, or why it is refused), what the row draws for it and
//! the keep-world warnings. The reparent ops are built only by the applier, from the verdict.

use crate::model::scene::Keep;
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

/// What a drop in a zone would do: planned while the pointer hovers, drawn by the row and the
/// viewport's ghosts, and turned into reparent ops by the applier on release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropVerdict {
    /// The dragged nodes go under `parent` (None: roots), the first at sibling `index` (None:
    /// last), the others after it in order.
    Allowed {
        /// The new parent.
        parent: Option<NodeId>,
        /// Where the first dragged node goes among the siblings left (None: last).
        index: Option<usize>,
    },
    /// Refused, with why (a node onto its own descendant).
    Refused(String),
    /// Refused without a word: a node dropped back onto itself.
    RefusedQuietly,
}

/// What a drop target's row draws besides the indicator line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropBadge {
    /// The drop is refused: why (empty when refused quietly).
    Refused(String),
    /// Keeping world transforms there changes the kind of a local (needs skew, flips mirror).
    Warning(&'static str),
}

impl DropBadge {
    /// The badge's text: "⛔ why", "⛔" or "⚠ needs skew".
    pub fn text(&self) -> String {
        match self {
            DropBadge::Refused(why) if why.is_empty() => "⛔".to_string(),
            DropBadge::Refused(why) => format!("⛔ {why}"),
            DropBadge::Warning(warning) => format!("⚠ {warning}"),
        }
    }
}

/// A drag in progress over a drop target, with its verdict: planned once while the pointer
/// hovers, and carried by [`crate::editor::session::command::PanelCommand::DropRows`] on release
/// (the rows, the target and the verdict; the applier builds the ops).
#[derive(Clone, Debug, PartialEq)]
pub struct DropPreview {
    /// The dragged nodes (topmost, pre-order).
    pub dragged: Vec<NodeId>,
    /// Where they would go.
    pub zone: DropZone,
    /// What this drop keeps (the toggle, inverted by Shift).
    pub keep: Keep,
    /// Where the nodes go, or why not, from [`drop_verdict`].
    pub verdict: DropVerdict,
    /// The scene's structure version the verdict was planned at.
    pub structure: u64,
}

impl DropPreview {
    /// Plan a drop of `dragged` in `zone` (runs [`drop_verdict`] once).
    pub fn plan(scene: &Scene, dragged: &[NodeId], zone: DropZone, keep: Keep) -> Self {
        Self {
            dragged: dragged.to_vec(),
            zone,
            keep,
            verdict: drop_verdict(scene, dragged, zone),
            structure: scene.structure_version(),
        }
    }

    /// True when the drop would be carried out.
    pub fn allowed(&self) -> bool {
        matches!(self.verdict, DropVerdict::Allowed { .. })
    }

    /// The verdict at `scene`: as planned, or planned again when the tree changed since (a
    /// verdict depends only on the tree: parents, sibling places).
    pub fn verdict_at(&self, scene: &Scene) -> DropVerdict {
        if self.structure == scene.structure_version() {
            self.verdict.clone()
        } else {
            drop_verdict(scene, &self.dragged, self.zone)
        }
    }

    /// What the target row draws: why a refused drop is refused, or the keep-world warning.
    pub fn badge(&self, scene: &Scene) -> Option<DropBadge> {
        match &self.verdict {
            DropVerdict::Refused(why) => Some(DropBadge::Refused(why.clone())),
            DropVerdict::RefusedQuietly => Some(DropBadge::Refused(String::new())),
            DropVerdict::Allowed { parent, .. } if self.keep == Keep::World => {
                keep_world_warning(scene, &self.dragged, *parent).map(DropBadge::Warning)
            }
            DropVerdict::Allowed { .. } => None,
        }
    }
}

/// What a drop keeps: the "Keep world transform" toggle, inverted while Shift is held (the one
/// place this rule is written).
pub fn drop_keep(toggle: bool, shift: bool) -> Keep {
    Keep::world_if(toggle != shift)
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

/// Where a drop puts the dragged nodes, or why it is refused (a node onto itself: quietly;
/// onto its own descendant: with a message). Dragged nodes keep their order.
pub fn drop_verdict(scene: &Scene, dragged: &[NodeId], zone: DropZone) -> DropVerdict {
    let target = match zone {
        DropZone::Before(t) | DropZone::After(t) | DropZone::Into(t) => Some(t),
        DropZone::Root => None,
    };
    if target.is_some_and(|t| dragged.contains(&t)) {
        return DropVerdict::RefusedQuietly;
    }
    if let Some(t) = target
        && let Some(&d) = dragged
            .iter()
            .find(|&&d| scene.is_ancestor_or_self(d, t).unwrap_or(false))
    {
        return DropVerdict::Refused(format!(
            "Cannot drop {} onto itself or its own descendant",
            scene.label(d)
        ));
    }
    match zone {
        DropZone::Root => DropVerdict::Allowed {
            parent: None,
            index: None,
        },
        DropZone::Into(t) => DropVerdict::Allowed {
            parent: Some(t),
            index: None,
        },
        DropZone::Before(t) | DropZone::After(t) => {
            let siblings = scene
                .parent(t)
                .and_then(|parent| Ok((parent, scene.children(parent)?)));
            let (parent, siblings) = match siblings {
                Ok(found) => found,
                Err(e) => return DropVerdict::Refused(e.to_string()),
            };
            let before = siblings
                .iter()
                .take_while(|&&s| s != t)
                .filter(|s| !dragged.contains(s))
                .count();
            let index = before + usize::from(matches!(zone, DropZone::After(_)));
            DropVerdict::Allowed {
                parent,
                index: Some(index),
            }
        }
    }
}
