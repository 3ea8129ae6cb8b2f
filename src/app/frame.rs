//! What the window's parts hand each other in a frame, owned by the app (`GraftApp`) and passed
//! down in signatures rather than kept in egui's memory: the lesson targets the panels register
//! and the overlay reads, the control each panel names for the keyboard (F6), and the lesson
//! overlay the lesson panel asks to point again or play a gesture. And [`FrameContext`]: what
//! the panels read, built once a frame.

use crate::app::a11y::OwnRing;
use crate::app::keyboard::PrimaryControls;
use crate::app::lesson_overlay::LessonOverlay;
use crate::app::ui_targets::Targets;
use crate::editor::lesson::progress::CourseProgress;
use crate::editor::session::Editor;
use crate::editor::session::arrange::Panel;
use crate::editor::session::lesson::LessonRun;
use crate::editor::session::probes::ProbeReading;
use crate::editor::session::selection::Selection;
use crate::editor::session::settings::ViewOptions;
use crate::editor::session::timeline::{KeyRef, TimelineState};
use crate::model::scene::{NodeId, Scene};

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
    /// The focused control that rings itself: the focus ring at the frame's end leaves it.
    pub ring: &'a OwnRing,
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
    /// The focused control that rings itself this frame.
    pub ring: OwnRing,
}

impl Registers {
    /// The registers as the panels get them.
    pub fn wiring(&self) -> Wiring<'_> {
        Wiring {
            primary: &self.primary,
            overlay: &self.overlay,
            targets: &self.targets,
            ring: &self.ring,
        }
    }

    /// A new frame: forget the controls the panels named in the last one.
    pub fn start_frame(&mut self) {
        self.primary.clear();
        self.ring.clear();
    }

    /// The controls the panels named this frame (the keyboard's focus reads them).
    pub fn primary(&self) -> &PrimaryControls {
        &self.primary
    }
}

/// What the panels read in one frame, built once (`GraftApp::panels`) from the session, as
/// rerun's `ViewerContext`: the scene, the selection, the settings and view options, the lesson,
/// the probes' readings, and the registers the panels write. A panel that takes it sees only
/// this, not the whole `Editor`, and changes nothing but by the commands it returns.
pub struct FrameContext<'a> {
    /// The document's scene.
    pub scene: &'a Scene,
    /// The selected nodes, in the order picked (the last is the primary).
    pub selection: &'a Selection,
    /// The primary selection, if it is still in the scene.
    pub primary: Option<NodeId>,
    /// A number that changes whenever the selection does (panels key caches on it).
    pub selection_version: u64,
    /// Reparenting keeps world transforms (the setting; Shift inverts it for one drop).
    pub keep_world: bool,
    /// The view options (grid, names, spaces…).
    pub view: &'a ViewOptions,
    /// The panel that has the keyboard.
    pub focused_panel: Panel,
    /// The lesson being followed.
    pub lesson: Option<&'a LessonRun>,
    /// The learner's progress through the course.
    pub lesson_progress: &'a CourseProgress,
    /// Help ▸ Lessons… is open.
    pub lessons_open: bool,
    /// The probes' readings this frame.
    pub probe_readings: Vec<ProbeReading>,
    /// The clip's playback state (time, playing, trails, auto-key).
    pub timeline: &'a TimelineState,
    /// The selected keyframes.
    pub selected_keys: Vec<KeyRef>,
    /// The registers the panels write (lesson targets, F6's landing, the overlay).
    pub wiring: Wiring<'a>,
}

impl<'a> FrameContext<'a> {
    /// Read what the panels show from `editor`, once for the frame.
    pub fn new(editor: &'a Editor, wiring: Wiring<'a>) -> Self {
        use crate::editor::session::command::Window;
        Self {
            scene: editor.doc().scene(),
            selection: editor.selected(),
            primary: editor.primary(),
            selection_version: editor.selection_version(),
            keep_world: editor.keep_world(),
            view: editor.view(),
            focused_panel: editor.focused_panel(),
            lesson: editor.lesson(),
            lesson_progress: editor.lesson_progress(),
            lessons_open: editor.is_open(Window::Lessons),
            probe_readings: editor.probe_readings(),
            timeline: editor.timeline(),
            selected_keys: editor.selected_keys(),
            wiring,
        }
    }
}
