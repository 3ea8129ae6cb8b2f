//! Lessons: the text format of `docs/lesson-format.md` as data ([`parse`]), the built-in course
//! ([`course`]), goals evaluated over a read-only view of the session ([`eval::SessionView`]),
//! and a step's scene and names ([`play`]). No egui, and nothing from `editor/session`: the
//! session implements the view, turns set-ups and solutions into commands
//! (`editor/session/lesson_play.rs`) and keeps the running lesson (`editor/session/lesson.rs`);
//! the panel is `app/lesson_panel.rs`.

pub mod claims;
pub mod course;
pub mod eval;
pub mod explain;
pub mod names;
pub mod parse;
pub mod play;
pub mod predict;
pub mod progress;
pub mod record;
pub mod samples;
pub mod targets;
pub mod text;
pub mod vary;

pub use names::{Name, Pos, ValueSpace};

use crate::editor::view::options::ViewOption;
use std::path::PathBuf;

/// A parsed lesson file.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Progress is remembered under this id.
    pub id: String,
    /// Its name in the list.
    pub title: String,
    /// One sentence under the title.
    pub about: String,
    /// Paragraphs before the first step.
    pub intro: Vec<String>,
    /// The steps, at least one.
    pub steps: Vec<Step>,
    /// The file it came from (errors name it; scene paths are relative to its folder).
    pub path: PathBuf,
}

/// Where a step's scene comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneSource {
    /// One of graft's sample scenes, by name ("sword").
    Sample(String),
    /// A scene file, resolved against the lesson's folder.
    File(PathBuf),
    /// A scene file's text written inside the lesson (with the line it starts on).
    Inline(String, usize),
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Its title.
    pub title: String,
    /// Where `step:` was written.
    pub at: Pos,
    /// Its scene; None continues with the scene the previous step left.
    pub scene: Option<(SceneSource, Pos)>,
    /// What is set when the step starts or is reset.
    pub setup: Setup,
    /// Paragraphs of text (inline markup as written; see [`text`]).
    pub text: Vec<String>,
    /// Where each paragraph's lines start: (byte offset in the paragraph, place in the file).
    pub text_at: Vec<Vec<(usize, Pos)>>,
    /// Tasks: each must not hold at the start and must hold at the end.
    pub goals: Vec<Goal>,
    /// Conditions that hold at the start and must still hold at the end.
    pub keeps: Vec<Goal>,
    /// Hints, shown one at a time.
    pub hints: Vec<String>,
    /// The solution, in order.
    pub solution: Vec<(Action, Pos)>,
    /// Where the step points at the editor (`point:`, `gesture:`).
    pub pointing: targets::Pointing,
    /// The value the learner predicts before acting (`predict:`, `mistake:`).
    pub predict: Option<predict::Predict>,
    /// Numbers drawn per learner when the step starts (`vary:`).
    pub vary: Vec<vary::Vary>,
    /// The step's `goal:`, `keep:`, `do:`, `hint:`, `predict:` and `mistake:` lines as
    /// written, in order, when one of them or the text has a `{…}` placeholder (read again
    /// once the numbers are known; until then with every placeholder read as 1).
    pub templated: Vec<vary::Line>,
}

/// A step's set-up: only what is stated is set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// The selection (the last is primary); `Some(empty)` clears it.
    pub select: Option<Vec<Name>>,
    /// Keep world on or off.
    pub keep_world: Option<bool>,
    /// Exactly these view options are shown.
    pub show: Option<Vec<ViewOption>>,
    /// The space the view looks from.
    pub look_from: Option<Space>,
    /// The clip time.
    pub time: Option<f32>,
    /// Playing or not.
    pub play: Option<bool>,
    /// Trails on or off.
    pub trails: Option<bool>,
    /// Frame the whole scene (true) or the selection (false).
    pub frame_all: Option<bool>,
    /// Frame these nodes (and keep them in view while the step runs).
    pub frame_nodes: Option<Vec<Name>>,
}

/// A space the view can look from.
#[derive(Clone, Debug, PartialEq)]
pub enum Space {
    /// The world.
    World,
    /// The primary selection's parent.
    Parent,
    /// The primary selection.
    Selection,
    /// A node's space.
    Node(Name),
}

/// A transform value: position, rotation, scale or skew.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Property {
    /// A position.
    Position(glam::Vec2),
    /// A rotation in degrees.
    Rotation(f32),
    /// A scale.
    Scale(glam::Vec2),
    /// A skew in degrees.
    Skew(f32),
}

/// A goal or keep: a predicate and how the checklist shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// What must hold.
    pub predicate: Predicate,
    /// The checklist's line (the label, or the predicate as written).
    pub label: String,
    /// The predicate as written (what is checked, shown under a label).
    pub check: String,
    /// Where it was written.
    pub at: Pos,
}

/// Something that holds or not of the document and the editor state.
#[derive(Clone, Debug, PartialEq)]
pub enum Predicate {
    /// A node's local or world value is within `tolerance`.
    Transform {
        /// The node.
        node: Name,
        /// Local or world.
        frame: ValueSpace,
        /// The wanted value.
        value: Property,
        /// How far off it may be.
        tolerance: f32,
    },
    /// A node's parent (None: a root).
    Parent {
        /// The node.
        node: Name,
        /// Its wanted parent.
        parent: Option<Name>,
    },
    /// A node with this name exists.
    Exists(Name),
    /// The node is gone.
    Deleted(Name),
    /// A node's world axes are perpendicular (`zero`) or not.
    Shear {
        /// The node.
        node: Name,
        /// True for "is zero".
        zero: bool,
    },
    /// The node is the primary selection.
    Selected(Name),
    /// The keep-world toggle.
    KeepWorld(bool),
    /// A view option is on (true) or off.
    View(ViewOption, bool),
    /// The view looks from this space.
    LooksFrom(Space),
    /// Some probe carried by `node` reads `value` in `space` (None: the world).
    Probe {
        /// The node carrying it.
        node: Name,
        /// The space it is read in (None: the world).
        space: Option<Name>,
        /// The wanted coordinates.
        value: glam::Vec2,
        /// How far off they may be.
        tolerance: f32,
    },
    /// The clip time is at least this.
    TimePast(f32),
    /// Trails are shown.
    Trails(bool),
    /// The clip is playing.
    Playing(bool),
    /// The last world update that did any work recomputed `count` matrices (or at most).
    Recomputed {
        /// The count.
        count: usize,
        /// "at most" rather than exactly.
        at_most: bool,
    },
    /// The predicate does not hold.
    Not(Box<Predicate>),
}

/// One line of a solution.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Select these nodes (empty: none).
    Select(Vec<Name>),
    /// Move a node under another (None: root), with keep-world chosen or as the toggle says.
    Reparent {
        /// The node.
        node: Name,
        /// The new parent.
        to: Option<Name>,
        /// Keep world, keep local, or as the toggle says (None).
        keep: Option<crate::model::scene::Keep>,
    },
    /// Set one local or world value.
    Set {
        /// The node.
        node: Name,
        /// Local or world.
        frame: ValueSpace,
        /// The value.
        value: Property,
    },
    /// A new node under a parent (None: root).
    Add {
        /// Its name.
        name: String,
        /// Its parent.
        under: Option<Name>,
    },
    /// Rename a node.
    Rename {
        /// The node.
        node: Name,
        /// The new name.
        name: String,
    },
    /// Delete a node and its subtree.
    Delete(Name),
    /// Mirror a node about its own origin (Node ▸ Mirror horizontally / vertically).
    Mirror {
        /// The node.
        node: Name,
        /// Which of its axes flips.
        axis: crate::model::math::MirrorAxis,
    },
    /// Drop a probe at local coordinates of a node.
    Probe {
        /// The node.
        node: Name,
        /// Where, in its space.
        at: glam::Vec2,
    },
    /// Keep world on or off.
    KeepWorld(bool),
    /// A view option on or off.
    View(ViewOption, bool),
    /// Look from a space.
    LookFrom(Space),
    /// Go to a clip time.
    Time(f32),
    /// Play (true) or pause.
    Play(bool),
    /// Trails on or off.
    Trails(bool),
    /// Instance a sample scene as a part (Node ▸ Instance scene…; the part is a file in the
    /// session's parts folder) under a node, its root given a name or the part's.
    Instance {
        /// The sample scene.
        sample: String,
        /// The parent (None: a root).
        under: Option<Name>,
        /// The instance root's name (None: the part's root's).
        name: Option<String>,
    },
    /// Change one value of a node of a part's file, as another window saving it would: every
    /// instance of it follows.
    EditPart {
        /// The sample scene the part is.
        sample: String,
        /// The node's name in the part.
        node: Name,
        /// Local or world.
        frame: ValueSpace,
        /// The value.
        value: Property,
    },
    /// Set every overridden value of a node back to its source's (Revert to source).
    Revert(Name),
}

/// The view options by their names in lesson files.
pub const VIEW_OPTION_NAMES: [(&str, ViewOption); 11] = [
    ("axes", ViewOption::Axes),
    ("links", ViewOption::Links),
    ("names", ViewOption::Names),
    ("shear", ViewOption::Shear),
    ("recomputed", ViewOption::Recomputed),
    ("local-grid", ViewOption::LocalGrid),
    ("parent-grid", ViewOption::ParentGrid),
    ("accumulated-ghosts", ViewOption::AccumulatedGhosts),
    ("world-blend-ghosts", ViewOption::WorldBlendGhosts),
    ("subtree-bounds", ViewOption::SubtreeBounds),
    ("culling", ViewOption::Culling),
];

/// Default tolerance of positions, scales and probe coordinates.
pub const LENGTH_TOLERANCE: f32 = 0.01;
/// Default tolerance of rotations and skews, in degrees.
pub const ANGLE_TOLERANCE: f32 = 0.5;
/// Axes within this many degrees of perpendicular count as unsheared.
pub const SHEAR_TOLERANCE_DEGREES: f32 = 0.01;
