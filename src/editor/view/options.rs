//! What the viewport shows and the space it looks from, as the View menu and lessons name
//! them (the session keeps which are on; the view and lessons read them).

use crate::model::scene::NodeId;

/// A view option the View menu toggles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewOption {
    /// Each node's local x/y axes.
    Axes,
    /// Parent → child links.
    Links,
    /// Node names.
    Names,
    /// The shear warning overlay.
    Shear,
    /// Flash the world matrices the last update recomputed.
    Recomputed,
    /// The primary selection's own coordinate grid.
    LocalGrid,
    /// The grid of the primary selection's parent: the space its local numbers are in.
    ParentGrid,
    /// Ghosts where each node would be if position, rotation and scale were accumulated
    /// separately (no shear), with a line to its true place.
    AccumulatedGhosts,
    /// Each node's world bounding box of its whole subtree.
    SubtreeBounds,
    /// The culling rectangle: which subtrees are skipped whole, nodes tested versus drawn.
    Culling,
    /// Ghosts of the animated nodes where a linear blend of their keyed *world* matrices would
    /// put them: mid-way it shrinks and shears, which is why engines interpolate locals.
    WorldBlendGhosts,
}

/// The space the viewport looks from: its axes become the screen's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViewSpace {
    /// The world.
    #[default]
    World,
    /// The primary selection's parent (the space its local numbers are in).
    ParentOfSelection,
    /// The primary selection's own space.
    Selection,
    /// A chosen node's space.
    Node(NodeId),
}
