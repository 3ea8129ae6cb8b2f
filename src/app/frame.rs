//! What the window's parts hand each other in a frame, owned by the app (`GraftApp`) and passed
//! down in signatures rather than kept in egui's memory: the lesson targets the panels register
//! and the overlay reads, the control each panel names for the keyboard (F6), and the lesson
//! overlay the lesson panel asks to point again or play a gesture.

use crate::app::keyboard::PrimaryControls;
use crate::app::lesson_overlay::LessonOverlay;
use crate::app::ui_targets::Targets;
use crate::editor::session::arrange::Panel;

/// The app's shared per-frame registers, handed to the panels that write them (each a
/// `RefCell` inside: panels hold `&Wiring` while they draw).
#[derive(Clone, Copy)]
pub struct Wiring<'a> {
    /// Where the panels name the control their keyboard lands on; `keyboard::focus` reads it.
    pub primary: &'a PrimaryControls,
    /// The lesson overlay: asked to point again or play a gesture.
    pub overlay: &'a LessonOverlay,
    /// The lesson targets' register: filled as widgets draw, read by the overlay.
    pub targets: &'a Targets,
}

impl Wiring<'_> {
    /// Name the control F6 gives the keyboard to in `panel` (the last named wins).
    pub fn name_primary(&self, panel: Panel, id: egui::Id) {
        self.primary.name(panel, id);
    }
}

/// The registers behind a [`Wiring`], owned by the app (`GraftApp`); benches and tests that
/// draw one panel make their own.
#[derive(Debug, Default)]
pub struct Registers {
    primary: PrimaryControls,
    /// The lesson overlay (the app paints it at the frame's end).
    pub overlay: LessonOverlay,
    /// The lesson targets' register.
    pub targets: Targets,
}

impl Registers {
    /// The registers as the panels get them.
    pub fn wiring(&self) -> Wiring<'_> {
        Wiring {
            primary: &self.primary,
            overlay: &self.overlay,
            targets: &self.targets,
        }
    }

    /// A new frame: forget the controls the panels named in the last one.
    pub fn start_frame(&mut self) {
        self.primary.clear();
    }

    /// The controls the panels named this frame (the keyboard's focus reads them).
    pub fn primary(&self) -> &PrimaryControls {
        &self.primary
    }
}
