//! Which part of the window has the keyboard (F6 / Shift+F6 go through them) and a step forward
//! or back: the words the view and arrange commands carry, with no session state.

/// A part of the window that can have the keyboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Panel {
    /// The hierarchy tree (arrows move the selection).
    #[default]
    Hierarchy,
    /// The 2D viewport (arrows nudge the selection).
    Viewport,
    /// The inspector (Tab moves between its fields).
    Inspector,
    /// The timeline (Tab moves between its controls).
    Timeline,
    /// The lesson panel, while a lesson is open.
    Lesson,
}

impl Panel {
    /// The panel's name, as a screen reader and the status bar say it.
    pub fn title(self) -> &'static str {
        match self {
            Panel::Hierarchy => "Hierarchy",
            Panel::Viewport => "Viewport",
            Panel::Inspector => "Inspector",
            Panel::Timeline => "Timeline",
            Panel::Lesson => "Lesson",
        }
    }
}

/// One step forward or back (F6 / Shift+F6; Alt+Down / Alt+Up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Back: the previous panel, or up among the siblings.
    Back,
    /// Forward: the next panel, or down among the siblings.
    Forward,
}

/// The panels F6 goes through, in order (the lesson panel only while a lesson is open).
pub fn panel_cycle(lesson_open: bool) -> Vec<Panel> {
    let mut panels = vec![
        Panel::Hierarchy,
        Panel::Viewport,
        Panel::Inspector,
        Panel::Timeline,
    ];
    if lesson_open {
        panels.push(Panel::Lesson);
    }
    panels
}

/// The panel after (or before) `current` in the cycle, wrapping around.
pub fn next_panel(current: Panel, step: Step, lesson_open: bool) -> Panel {
    let panels = panel_cycle(lesson_open);
    let at = panels.iter().position(|p| *p == current).unwrap_or(0);
    let n = panels.len();
    let to = match step {
        Step::Forward => (at + 1) % n,
        Step::Back => (at + n - 1) % n,
    };
    panels[to]
}
