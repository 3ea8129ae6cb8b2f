//! The gesture table: every mouse gesture and panel key that is not a command of
//! [`crate::editor::table`], by the panel it works in. Help ▸ Keyboard shortcuts shows this
//! table, and README's list of gestures is checked against it (`tests/command_table.rs`), so
//! neither can leave one out.

/// Where a gesture works.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The 2D viewport in the middle.
    Viewport,
    /// The hierarchy tree on the left.
    Hierarchy,
    /// The inspector on the right.
    Inspector,
    /// The timeline at the bottom.
    Timeline,
}

impl Area {
    /// Every area, in the order Help lists them.
    pub const ALL: [Area; 4] = [
        Area::Viewport,
        Area::Hierarchy,
        Area::Inspector,
        Area::Timeline,
    ];

    /// The area's name as Help and README head it.
    pub fn title(self) -> &'static str {
        match self {
            Area::Viewport => "Viewport",
            Area::Hierarchy => "Hierarchy",
            Area::Inspector => "Inspector",
            Area::Timeline => "Timeline",
        }
    }
}

/// One gesture: where, what the hand does, what happens.
#[derive(Clone, Copy, Debug)]
pub struct Gesture {
    /// The panel it works in.
    pub area: Area,
    /// The input, alternatives separated by " / " (as shortcuts are).
    pub input: &'static str,
    /// What it does.
    pub does: &'static str,
}

const fn g(area: Area, input: &'static str, does: &'static str) -> Gesture {
    Gesture { area, input, does }
}

/// Every gesture graft knows, panel by panel.
pub const GESTURES: &[Gesture] = &[
    g(
        Area::Viewport,
        "Click",
        "Select the node under the pointer; on empty space, clear the selection",
    ),
    g(
        Area::Viewport,
        "Ctrl+click / Shift+click",
        "Add the node to the selection or take it out",
    ),
    g(
        Area::Viewport,
        "Drag a node",
        "Move the selection (children follow their parents), one undo step",
    ),
    g(
        Area::Viewport,
        "Drag on empty space",
        "Box select: the nodes whose origins are inside (Ctrl / Shift adds)",
    ),
    g(
        Area::Viewport,
        "Drag a handle",
        "Move, rotate or scale along the handle (W, E, R pick the tool)",
    ),
    g(
        Area::Viewport,
        "Ctrl while dragging",
        "Snap to the grid, 15° or 0.1",
    ),
    g(
        Area::Viewport,
        "Mouse wheel / pinch",
        "Zoom around the pointer",
    ),
    g(
        Area::Viewport,
        "Middle-drag / Space+drag",
        "Pan the viewport",
    ),
    g(
        Area::Viewport,
        "Click in probe mode",
        "Pin a probe in the selected node's space (P toggles the mode)",
    ),
    g(
        Area::Viewport,
        "Drag a probe's pin",
        "Move the probe (it stays in its node's space)",
    ),
    g(
        Area::Viewport,
        "Arrow keys / Shift+arrow keys",
        "Nudge the selection 0.1 / 1 unit while the viewport has the keyboard (F6), one undo step a press",
    ),
    g(Area::Hierarchy, "Click a row", "Select the node"),
    g(
        Area::Hierarchy,
        "Ctrl+click a row / Shift+click a row",
        "Add to the selection / select a range",
    ),
    g(
        Area::Hierarchy,
        "Drag a row onto a row",
        "Reparent under it (keeping world or local, as the toggle says)",
    ),
    g(
        Area::Hierarchy,
        "Drag a row between rows",
        "Reorder, or reparent next to that row",
    ),
    g(
        Area::Hierarchy,
        "Shift while dropping",
        "Invert “Keep world transform” for that drop",
    ),
    g(
        Area::Hierarchy,
        "Drop a scene file on a row",
        "Instance it under that row (a .ron or .tscn from the file manager), one undo step",
    ),
    g(Area::Hierarchy, "Double-click a row", "Rename"),
    g(Area::Hierarchy, "Up / Down", "Previous / next row"),
    g(
        Area::Hierarchy,
        "Left / Right",
        "Collapse (or go to the parent) / expand",
    ),
    g(
        Area::Hierarchy,
        "Click the breadcrumb",
        "Select that ancestor of the selection",
    ),
    g(
        Area::Inspector,
        "Drag a number",
        "Change it (local or world), one undo step per drag",
    ),
    g(Area::Inspector, "Click a number", "Type a value"),
    g(
        Area::Inspector,
        "Enter / Esc",
        "Finish / cancel a rename or a typed value",
    ),
    g(
        Area::Timeline,
        "Click the ruler / drag the ruler",
        "Set the time / scrub",
    ),
    g(Area::Timeline, "Click a key", "Select the key"),
    g(
        Area::Timeline,
        "Shift+click a key / Ctrl+click a key",
        "Add the key to the key selection or take it out",
    ),
    g(
        Area::Timeline,
        "Drag on empty rows",
        "Box select keys (Shift / Ctrl keeps those selected)",
    ),
    g(
        Area::Timeline,
        "Drag a selected key",
        "Move the selected keys in time, one undo step",
    ),
    g(
        Area::Timeline,
        "Right-click a key",
        "Delete the key (all the selected keys, if it is one of them)",
    ),
    g(
        Area::Timeline,
        "Ctrl+wheel",
        "Zoom the time axis around the pointer",
    ),
    g(Area::Timeline, "Shift+wheel", "Pan the time axis"),
];

/// The gestures of one area, in table order.
pub fn gestures_in(area: Area) -> impl Iterator<Item = &'static Gesture> {
    GESTURES.iter().filter(move |g| g.area == area)
}

/// The table as README's Markdown list (one bullet per area).
pub fn gestures_markdown() -> String {
    let mut out = String::new();
    for area in Area::ALL {
        let items: Vec<String> = gestures_in(area)
            .map(|g| format!("{}: {}", g.input, g.does.to_lowercase_first()))
            .collect();
        out.push_str(&format!("- **{}**: {}.\n", area.title(), items.join("; ")));
    }
    out
}

/// Lower-case the first letter (list items inside a sentence).
trait LowercaseFirst {
    fn to_lowercase_first(&self) -> String;
}

impl LowercaseFirst for str {
    fn to_lowercase_first(&self) -> String {
        let mut chars = self.chars();
        match chars.next() {
            Some(c) => c.to_lowercase().chain(chars).collect(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_area_has_gestures_and_no_input_repeats_in_an_area() {
        for area in Area::ALL {
            let inputs: Vec<&str> = gestures_in(area)
                .flat_map(|g| g.input.split(" / "))
                .collect();
            assert!(!inputs.is_empty(), "{area:?} has no gestures");
            let mut seen = std::collections::HashSet::new();
            for input in inputs {
                assert!(seen.insert(input), "{input} twice in {area:?}");
            }
        }
    }

    #[test]
    fn the_markdown_has_one_line_per_area_naming_every_gesture() {
        let md = gestures_markdown();
        assert_eq!(md.lines().count(), Area::ALL.len());
        for g in GESTURES {
            assert!(md.contains(g.input), "{} missing", g.input);
        }
    }
}
