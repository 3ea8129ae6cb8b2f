//! The lesson overlay's memory between frames ([`LessonOverlay`], owned by the app and handed
//! to the panels in the frame's registers) and what it painted last: a leaf the frame's
//! context names without reaching the painting.

use crate::editor::session::settings::ViewOptions;
use crate::model::scene::NodeId;
use egui::{Context, Pos2, Rect};
use std::cell::RefCell;
use std::path::PathBuf;

/// Frames after an action in which the state may still change because of it.
pub(super) const SETTLE_FRAMES: u8 = 2;

/// What the overlay painted in the last frame (tests read it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Painted {
    /// The highlighted rect of the current point (None: nothing highlighted).
    pub highlight: Option<Rect>,
    /// The bubble's text.
    pub bubble: Option<String>,
    /// Where the bubble was painted.
    pub bubble_rect: Option<Rect>,
    /// The rest of the window was dimmed.
    pub dimmed: bool,
    /// Where the ghost pointer's tip was, while a gesture plays.
    pub ghost: Option<Pos2>,
    /// The gesture's start and end rects, while it plays.
    pub gesture: Option<(Rect, Rect)>,
}

/// What changes when the learner acts: the scene, the selection, the toggles, the view, the
/// clip, the checklist.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Fingerprint {
    pub(super) revision: u64,
    pub(super) selection: u64,
    pub(super) keep_world: bool,
    pub(super) view: ViewOptions,
    pub(super) clip: (bool, bool),
    pub(super) checklist: Vec<bool>,
}

/// The overlay's memory between frames (the window's, not the session's).
#[derive(Clone, Debug, Default)]
pub(super) struct OverlayState {
    /// The lesson and step it is pointing for (a new step starts from its first point).
    pub(super) step: Option<(PathBuf, usize)>,
    /// The point shown (past the last: none).
    pub(super) point: usize,
    /// The state when the current point was first shown exactly.
    pub(super) baseline: Option<Fingerprint>,
    /// Frames left in which the baseline is taken again: what the last action changes a frame
    /// late (the checklist is evaluated at the start of the next frame) is not a new action.
    pub(super) settle: u8,
    /// When Show the gesture was pressed (egui's clock).
    pub(super) gesture_started: Option<f64>,
    /// The rows the hierarchy is asked to bring into view at the next frame (a gesture's end
    /// folded under a collapsed parent or scrolled away), and whether it was asked already in
    /// this play.
    pub(super) reveal: Vec<NodeId>,
    pub(super) revealed: bool,
    /// The point last shown first (its row, if hidden then, was asked to be brought into view).
    pub(super) point_checked: Option<usize>,
    /// The point whose inspector field was last looked for with its node selected (scrolled
    /// into view if it was not shown then).
    pub(super) field_checked: Option<usize>,
    pub(super) painted: Painted,
}

/// The lesson overlay, owned by the app (`GraftApp`): the lesson panel asks it to point
/// again or play a gesture, the hierarchy takes the rows it wants shown, and it paints at the
/// frame's end.
#[derive(Debug, Default)]
pub struct LessonOverlay {
    pub(super) state: RefCell<OverlayState>,
}

impl LessonOverlay {
    /// Play the step's gestures from the start (the lesson panel's **Show the gesture**).
    pub fn show_gesture(&self, ctx: &Context) {
        let mut state = self.state.borrow_mut();
        state.gesture_started = Some(ctx.input(|i| i.time));
        state.revealed = false;
        ctx.request_repaint();
    }

    /// Show the step's points again from the first (**Where?**, Reset step).
    pub fn point_again(&self, ctx: &Context) {
        let mut state = self.state.borrow_mut();
        state.point = 0;
        state.baseline = None;
        state.settle = SETTLE_FRAMES;
        state.point_checked = None;
        state.field_checked = None;
        ctx.request_repaint();
    }

    /// True while a gesture is playing.
    pub fn gesture_playing(&self) -> bool {
        self.state.borrow().gesture_started.is_some()
    }

    /// The rows a point or gesture needs shown, once: the hierarchy expands their parents and
    /// scrolls to them before it draws (the gesture then plays from its start).
    pub fn take_rows_to_reveal(&self) -> Vec<NodeId> {
        std::mem::take(&mut self.state.borrow_mut().reveal)
    }

    /// What the overlay painted in the last frame.
    pub fn painted(&self) -> Painted {
        self.state.borrow().painted.clone()
    }
}
