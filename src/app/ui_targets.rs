//! Where the widgets a lesson can point at were drawn this frame: each registers its rect with
//! a one-line call (a hierarchy row, an inspector field, the keep-world toggle, the timeline's
//! controls, a menu and its items, the lesson panel) in the app's [`Targets`], handed down to
//! them. The lesson overlay (`lesson_overlay/mod.rs`) resolves a lesson's targets
//! (`editor/lesson/targets.rs`) to these rects at the end of the frame, then starts the next
//! frame's register empty.

use crate::editor::lesson::targets::Control;
use crate::model::scene::NodeId;
use egui::{Context, Rect, Response, Ui};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// What a registered rect belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A node's row in the hierarchy.
    Row(NodeId),
    /// An inspector field of the selected node: its column (`local` / `world`) and row
    /// (`position`, `rotation`, `scale`, `skew`).
    Field(&'static str, &'static str),
    /// A control.
    Control(Control),
    /// A menu's button in the menu bar, by its title.
    Menu(&'static str),
    /// A submenu's button in an open menu: the menu's title and the submenu's.
    Submenu(&'static str, &'static str),
    /// An item of an open menu: the menu's title and the item's label.
    MenuItem(&'static str, &'static str),
    /// The lesson panel (never dimmed).
    LessonPanel,
}

/// The rects registered in one frame.
#[derive(Clone, Debug, Default)]
pub struct UiTargets {
    rects: FxHashMap<Key, Rect>,
}

impl UiTargets {
    /// Where the widget with this key was drawn (the union of its parts: both fields of a
    /// position), if it was.
    pub fn rect(&self, key: &Key) -> Option<Rect> {
        self.rects.get(key).copied()
    }

    /// Every registered rect with its key.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, Rect)> {
        self.rects.iter().map(|(key, rect)| (key, *rect))
    }

    /// How many widgets registered.
    pub fn len(&self) -> usize {
        self.rects.len()
    }

    /// True when nothing registered.
    pub fn is_empty(&self) -> bool {
        self.rects.is_empty()
    }
}

/// The lesson targets' register, owned by the app (`GraftApp`) and handed to the panels that
/// draw targets: filled as they draw, read by the lesson overlay at the frame's end.
#[derive(Debug, Default)]
pub struct Targets {
    /// The register being filled this frame.
    current: RefCell<UiTargets>,
    /// The last complete frame's register.
    last: UiTargets,
    /// The widget the lesson overlay asked to scroll into view when next drawn.
    reveal: RefCell<Option<Key>>,
}

impl Targets {
    /// Register `rect` (cut to what `ui` shows; nothing when it is scrolled out of view) for `key`.
    pub fn register_rect(&self, ui: &Ui, key: Key, rect: Rect) {
        let shown = rect.intersect(ui.clip_rect());
        if !shown.is_positive() {
            return;
        }
        let mut targets = self.current.borrow_mut();
        let entry = targets.rects.entry(key).or_insert(shown);
        *entry = entry.union(shown);
    }

    /// Register a widget's response for `key`.
    pub fn register(&self, ui: &Ui, key: Key, response: &Response) {
        self.register_rect(ui, key, response.rect);
    }

    /// A hierarchy row.
    pub fn row(&self, ui: &Ui, id: NodeId, rect: Rect) {
        self.register_rect(ui, Key::Row(id), rect);
    }

    /// An inspector number field of the column `column` in the row `row`; scrolled into view
    /// when the lesson overlay asked for it ([`Targets::bring_into_view`]).
    pub fn field(&self, ui: &Ui, column: &'static str, row: &'static str, response: &Response) {
        self.revealable(ui, Key::Field(column, row), response);
    }

    /// Register `key`, scrolling it into view first when the lesson overlay asked for it.
    fn revealable(&self, ui: &Ui, key: Key, response: &Response) {
        let asked = self.reveal.borrow().as_ref() == Some(&key);
        if asked {
            self.reveal.replace(None);
            ui.scroll_to_rect(response.rect, Some(egui::Align::Center));
        }
        self.register(ui, key, response);
    }

    /// Ask the widget registered as `key` to scroll itself into view when it is next drawn (an
    /// inspector field a lesson points at, scrolled away).
    pub fn bring_into_view(&self, ctx: &Context, key: Key) {
        self.reveal.replace(Some(key));
        ctx.request_repaint();
    }

    /// A control; scrolled into view when the lesson overlay asked for it.
    pub fn control(&self, ui: &Ui, control: Control, response: &Response) {
        self.revealable(ui, Key::Control(control), response);
    }

    /// A menu entry (items of the menu bar's menus; `menu` None for palette-only commands).
    pub fn menu_item(
        &self,
        ui: &Ui,
        menu: Option<&'static str>,
        label: &'static str,
        response: &Response,
    ) {
        if let Some(menu) = menu {
            self.register(ui, Key::MenuItem(menu, label), response);
        }
    }

    /// End the frame: what registered becomes [`Targets::last_frame`], and the next frame
    /// starts empty.
    pub fn finish_frame(&mut self) {
        self.last = self.current.take();
    }

    /// The rects registered in the last complete frame (tests compare them with the widgets').
    pub fn last_frame(&self) -> &UiTargets {
        &self.last
    }
}

impl From<Control> for Key {
    fn from(control: Control) -> Self {
        Key::Control(control)
    }
}

/// Chained registration: `ui.checkbox(…).lesson_target(ui, targets, Control::KeepWorld)`.
pub trait Targeted {
    /// Register this response's rect for `key` and hand it back.
    fn lesson_target(self, ui: &Ui, targets: &Targets, key: impl Into<Key>) -> Response;
}

impl Targeted for Response {
    fn lesson_target(self, ui: &Ui, targets: &Targets, key: impl Into<Key>) -> Response {
        targets.register(ui, key.into(), &self);
        self
    }
}
