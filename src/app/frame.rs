//! What the window's parts hand each other in a frame, owned by the app (`GraftApp`) and passed
//! down in signatures rather than kept in egui's memory: the lesson targets the panels register
//! and the overlay reads, the control each panel names for the keyboard (F6), and the lesson
//! overlay the lesson panel asks to point again or play a gesture. And [`FrameContext`]: what
//! the panels read, built once a frame.

use crate::app::lesson_overlay::LessonOverlay;
use crate::app::ui_targets::Targets;
use crate::editor::Command;
use crate::editor::lesson::progress::CourseProgress;
use crate::editor::session::arrange::Panel;
use crate::editor::session::jobs::JobView;
use crate::editor::session::lesson::LessonRun;
use crate::editor::session::probes::ProbeReading;
use crate::editor::session::record::Recording;
use crate::editor::session::selection::Selection;
use crate::editor::session::settings::ViewOptions;
use crate::editor::session::timeline::{KeyRef, TimelineState};
use crate::editor::session::{DialogPurpose, Editor, FileAction, Message};
use crate::editor::view::figure::FigureOptions;
use crate::editor::view::handles::{Orientation, Tool};
use crate::editor::view::options::ViewSpace;
use crate::model::document::Document;
use crate::model::scene::{NodeId, Scene};
use std::cell::RefCell;
use std::path::PathBuf;

mod queries;

/// The control each panel named for the keyboard this frame ([`PrimaryControls::name`]),
/// owned by the app and handed to the panels; `keyboard::focus` reads it.
#[derive(Debug, Default)]
pub struct PrimaryControls {
    named: std::cell::RefCell<Vec<(Panel, egui::Id)>>,
}

impl PrimaryControls {
    /// Name the control the keyboard lands on when `panel` gets it (F6), this frame: the
    /// lesson's Start, Next or first goal rather than its close button, which is first in
    /// drawing order (Enter there would close the lesson).
    pub fn name(&self, panel: Panel, id: egui::Id) {
        let mut named = self.named.borrow_mut();
        named.retain(|(p, _)| *p != panel);
        named.push((panel, id));
    }

    /// The control named for `panel` this frame.
    pub fn of(&self, panel: Panel) -> Option<egui::Id> {
        let named = self.named.borrow();
        named.iter().find(|(p, _)| *p == panel).map(|(_, id)| *id)
    }

    /// Forget the last frame's names (at the frame's start).
    pub fn clear(&mut self) {
        self.named.get_mut().clear();
    }
}

/// The focused control that shows its focus itself this pass (a hierarchy row's ring inside
/// it, the viewport's canvas inside the panel's ring), owned by the app and handed to the
/// widgets that ring themselves: [`ring_the_focus`](crate::app::a11y::ring_the_focus) leaves it.
#[derive(Debug, Default)]
pub struct OwnRing {
    id: std::cell::Cell<Option<egui::Id>>,
}

impl OwnRing {
    /// Note that the focused control `id` rings itself this pass.
    pub fn note(&self, id: egui::Id) {
        self.id.set(Some(id));
    }

    /// The control noted this pass.
    pub fn noted(&self) -> Option<egui::Id> {
        self.id.get()
    }

    /// Forget the last pass's (at the pass's start).
    pub fn clear(&mut self) {
        self.id.set(None);
    }
}

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
    /// Where the panels send their commands; the app applies them after the panels ran.
    pub sender: &'a CommandSender,
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
    /// The commands the panels sent this frame, not yet applied.
    sender: CommandSender,
}

impl Registers {
    /// The registers as the panels get them.
    pub fn wiring(&self) -> Wiring<'_> {
        Wiring {
            primary: &self.primary,
            overlay: &self.overlay,
            targets: &self.targets,
            ring: &self.ring,
            sender: &self.sender,
        }
    }

    /// The commands sent since the last call, in the order sent (the app applies them).
    pub fn take_commands(&mut self) -> Vec<Command> {
        std::mem::take(self.sender.queue.get_mut())
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

/// Where the panels send [`Command`]s while they draw (as rerun's `CommandSender`): kept in
/// the order sent and applied by the app in one place once the panels ran
/// ([`Registers::take_commands`]), each as one step of its own.
#[derive(Debug, Default)]
pub struct CommandSender {
    queue: RefCell<Vec<Command>>,
}

impl CommandSender {
    /// Ask for `command` to be applied after the panels ran.
    pub fn send(&self, command: Command) {
        self.queue.borrow_mut().push(command);
    }

    /// Ask for each of `commands`, in order.
    pub fn send_all(&self, commands: impl IntoIterator<Item = Command>) {
        self.queue.borrow_mut().extend(commands);
    }
}

/// What the panels read in one frame, built once (`GraftApp::panels`) from the session, as
/// rerun's `ViewerContext`: the document, the selection, the settings and view options, the
/// lesson, the jobs' status, the recording, the probes' readings, and the registers the panels
/// write, with the command sender. A panel that takes it sees only this (and the few questions
/// its methods answer, in `frame/queries.rs`), not the whole `Editor`, and changes nothing
/// but by the commands it sends ([`FrameContext::send`]).
pub struct FrameContext<'a> {
    /// The open document (its scene, history, path).
    pub doc: &'a Document,
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
    /// The handle tool.
    pub tool: Tool,
    /// The handles' axes: the node's own or the world's.
    pub orientation: Orientation,
    /// The space the viewport looks from.
    pub view_space: ViewSpace,
    /// The node the viewport looks from (None: the world), its view matrix, and why it cannot
    /// be looked from when its world matrix is singular.
    pub view_node: (Option<NodeId>, glam::DAffine2, Option<String>),
    /// A click in the viewport drops a probe.
    pub probe_mode: bool,
    /// A drag (one undo step) is under way.
    pub gesture_open: bool,
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
    /// The running job (a load, save, export or generation on a worker).
    pub job: Option<JobView>,
    /// The lesson being recorded.
    pub recording: Option<&'a Recording>,
    /// The recent files, newest first.
    pub recent: &'a [PathBuf],
    /// File ▸ Export figure's options.
    pub figure_options: &'a FigureOptions,
    /// What waits for the unsaved-changes question's answer.
    pub pending_guard: Option<&'a FileAction>,
    /// The typed-path prompt shown instead of a native dialog.
    pub path_prompt: Option<&'a DialogPurpose>,
    /// The error shown in the Problem window.
    pub error: Option<&'a str>,
    /// The status bar's last message.
    pub last_message: Option<&'a Message>,
    /// The interface scale.
    pub ui_scale: f32,
    /// The high-contrast theme is on.
    pub high_contrast: bool,
    /// The registers the panels write (lesson targets, F6's landing, the overlay, commands).
    pub wiring: Wiring<'a>,
    /// The session, for the questions in `frame/queries.rs` only (private: a panel cannot
    /// reach it).
    editor: &'a Editor,
}

impl<'a> FrameContext<'a> {
    /// Read what the panels show from `editor`, once for the frame.
    pub fn new(editor: &'a Editor, wiring: Wiring<'a>) -> Self {
        use crate::editor::session::command::Window;
        Self {
            doc: editor.doc(),
            scene: editor.doc().scene(),
            selection: editor.selected(),
            primary: editor.primary(),
            selection_version: editor.selection_version(),
            keep_world: editor.keep_world(),
            view: editor.view(),
            tool: editor.tool(),
            orientation: editor.orientation(),
            view_space: editor.view_space(),
            view_node: editor.view_node(),
            probe_mode: editor.probe_mode(),
            gesture_open: editor.gesture_open(),
            focused_panel: editor.focused_panel(),
            lesson: editor.lesson(),
            lesson_progress: editor.lesson_progress(),
            lessons_open: editor.is_open(Window::Lessons),
            probe_readings: editor.probe_readings(),
            timeline: editor.timeline(),
            selected_keys: editor.selected_keys(),
            job: editor.job(),
            recording: editor.recording(),
            recent: editor.recent(),
            figure_options: editor.figure_options(),
            pending_guard: editor.pending_guard(),
            path_prompt: editor.path_prompt(),
            error: editor.error(),
            last_message: editor.last_message(),
            ui_scale: editor.ui_scale(),
            high_contrast: editor.high_contrast(),
            wiring,
            editor,
        }
    }

    /// Ask for `command` to be applied once the panels ran (one undo step of its own, as if
    /// returned).
    pub fn send(&self, command: Command) {
        self.wiring.sender.send(command);
    }

    /// Ask for each of `commands`, in order.
    pub fn send_all(&self, commands: impl IntoIterator<Item = Command>) {
        self.wiring.sender.send_all(commands);
    }

    /// The selected nodes' ids, in the order picked.
    pub fn selected_ids(&self) -> &'a [NodeId] {
        self.selection.ids()
    }

    /// True when `id` is selected.
    pub fn is_selected(&self, id: NodeId) -> bool {
        self.selection.contains(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::session::command::HistoryCommand as H;

    #[test]
    fn sent_commands_come_back_once_in_the_order_sent() {
        let mut registers = Registers::default();
        let wiring = registers.wiring();
        wiring.sender.send(Command::History(H::Undo));
        let more = [H::Redo, H::JumpHistory(2)].map(Command::History);
        wiring.sender.send_all(more);
        let sent = [H::Undo, H::Redo, H::JumpHistory(2)].map(Command::History);
        assert_eq!(registers.take_commands(), sent);
        assert!(registers.take_commands().is_empty(), "taken once");
    }
}
