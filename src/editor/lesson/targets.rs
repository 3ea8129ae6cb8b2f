//! Where a lesson points at the editor: a node's row in the hierarchy, a node in the viewport,
//! an inspector field, a control (the keep-world toggle, trails, play, the time field) or a
//! menu item; and the drags a ghost pointer plays between two of them ("Show the gesture").
//! Read from `point:` and `gesture:` lines (`parse/pointing.rs`, which checks menus against
//! `editor/vocabulary.rs`); node names are checked against the step's scene with its other
//! names (`play::bind_step`). The window resolves targets to the rects its widgets registered
//! (`app/ui_targets.rs`). No egui.

use super::{Name, Pos, ValueSpace};

/// A row of the inspector's transform grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldRow {
    /// The position (x and y).
    Position,
    /// The rotation.
    Rotation,
    /// The scale (x and y).
    Scale,
    /// The skew.
    Skew,
}

/// The transform grid's rows by the names lessons (and the inspector) give them.
pub const FIELD_ROWS: [(&str, FieldRow); 4] = [
    ("position", FieldRow::Position),
    ("rotation", FieldRow::Rotation),
    ("scale", FieldRow::Scale),
    ("skew", FieldRow::Skew),
];

impl FieldRow {
    /// Its name: the inspector's row label.
    pub fn name(self) -> &'static str {
        FIELD_ROWS
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("position", |(n, _)| n)
    }
}

/// A control of the editor a lesson can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// The hierarchy's "Keep world transform" checkbox.
    KeepWorld,
    /// The timeline's trails checkbox.
    Trails,
    /// The timeline's play / pause button.
    Play,
    /// The timeline's time field.
    Time,
    /// The inspector's "Select cause (…)" button under a shear warning.
    SelectCause,
}

/// The controls as lessons write them: kind, name, control, and what the learner sees.
pub const CONTROLS: [(&str, &str, Control, &str); 5] = [
    (
        "toggle",
        "keep-world",
        Control::KeepWorld,
        "the Keep world transform toggle",
    ),
    ("toggle", "trails", Control::Trails, "the trails checkbox"),
    ("button", "play", Control::Play, "the Play button"),
    ("field", "time", Control::Time, "the time field"),
    (
        "button",
        "select-cause",
        Control::SelectCause,
        "the shear warning's Select cause button",
    ),
];

/// The control names of one kind (`toggle`: keep-world, trails).
pub fn control_names(kind: &str) -> Vec<&'static str> {
    CONTROLS
        .iter()
        .filter(|(k, ..)| *k == kind)
        .map(|(_, n, ..)| *n)
        .collect()
}

/// The control of this kind and name.
pub fn control(kind: &str, name: &str) -> Option<Control> {
    CONTROLS
        .iter()
        .find(|(k, n, ..)| *k == kind && *n == name)
        .map(|(_, _, c, _)| *c)
}

/// A place in the editor's window.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A node's row in the hierarchy: `row NODE`.
    Row(Name),
    /// A node in the viewport: `node NODE`.
    Node(Name),
    /// An inspector field of a node: `field NODE world position` (shown while it is selected).
    Field {
        /// The node.
        node: Name,
        /// The local or the world column.
        frame: ValueSpace,
        /// Which row.
        row: FieldRow,
    },
    /// A control: `toggle keep-world`, `toggle trails`, `button play`, `field time`.
    Control(Control),
    /// A menu, or an item of it: `menu View`, `menu Edit > Duplicate`.
    Menu {
        /// The menu's title, as in the menu bar.
        menu: &'static str,
        /// The item's label, as the menu shows it.
        item: Option<&'static str>,
    },
}

impl Target {
    /// The node it is about, if any.
    pub fn node(&self) -> Option<&Name> {
        match self {
            Target::Row(n) | Target::Node(n) | Target::Field { node: n, .. } => Some(n),
            Target::Control(_) | Target::Menu { .. } => None,
        }
    }

    /// What it is, in words ("the sword's row in the hierarchy"): the bubble's default text.
    pub fn describe(&self) -> String {
        match self {
            Target::Row(n) => format!("{}'s row in the hierarchy", n.text),
            Target::Node(n) => format!("{} in the viewport", n.text),
            Target::Field { node, frame, row } => {
                let column = match frame {
                    ValueSpace::World => "World",
                    ValueSpace::Local => "Local",
                };
                format!("{}'s {column} {}", node.text, row.name())
            }
            Target::Control(c) => CONTROLS
                .iter()
                .find(|(_, _, k, _)| k == c)
                .map_or_else(String::new, |(.., words)| words.to_string()),
            Target::Menu { menu, item: None } => format!("the {menu} menu"),
            Target::Menu {
                menu,
                item: Some(item),
            } => format!("{menu} > {item}"),
        }
    }
}

/// A `point:` line: highlight a target (the rest dimmed) until the learner acts.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// What to highlight.
    pub target: Target,
    /// The bubble's text (after `|`); None: the target described.
    pub label: Option<String>,
    /// Where the line's value starts.
    pub at: Pos,
}

impl Point {
    /// The bubble's text.
    pub fn text(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.target.describe())
    }
}

/// A `gesture: drag FROM -> TO` line: the ghost pointer drags from one target to another.
#[derive(Clone, Debug, PartialEq)]
pub struct Gesture {
    /// Where the drag starts.
    pub from: Target,
    /// Where it drops.
    pub to: Target,
    /// Where the line's value starts.
    pub at: Pos,
}

/// A step's pointing: its highlights in order, and its gestures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pointing {
    /// Shown one after the other, each until the learner acts.
    pub points: Vec<Point>,
    /// Played on "Show the gesture", one after the other.
    pub gestures: Vec<Gesture>,
}

impl Pointing {
    /// True when the step points at nothing.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty() && self.gestures.is_empty()
    }

    /// Every node name its targets use (they must name nodes of the step's scene).
    pub fn names(&self) -> impl Iterator<Item = &Name> {
        let points = self.points.iter().map(|p| &p.target);
        let gestures = self.gestures.iter().flat_map(|g| [&g.from, &g.to]);
        points.chain(gestures).filter_map(Target::node)
    }
}
