//! The window's panels (timeline, hierarchy, inspector with the lesson above it, viewport), where
//! each was drawn (a press there gives it the keyboard) and the floating windows.

use super::frame::FrameContext;
use super::{
    GraftApp, a11y, figure_window, generate_window, hierarchy, inspector, keyboard, lesson_panel,
    menus, status_bar, windows,
};
use crate::editor::session::command::Command;

impl GraftApp {
    /// The floating windows; what they answer is sent to be applied after them.
    pub(super) fn windows(&mut self, ctx: &egui::Context) {
        use crate::editor::session::command::Window;
        let fx = FrameContext::new(&self.editor, self.registers.wiring());
        windows::show(ctx, &fx, &mut self.windows);
        keyboard::move_to_window(ctx, &fx, &mut self.move_to);
        if fx.is_open(Window::Figure) {
            let view = (self.viewport.camera, self.viewport.last_rect);
            let figure = &mut self.figure_window;
            figure_window::show(ctx, &fx, figure, view);
        }
        if fx.is_open(Window::Generate) {
            let generate = &mut self.generate_window;
            generate_window::show(ctx, &fx, generate);
        }
    }

    /// The frame's panels: the keys, the menu bar and the status bar, the hierarchy (left),
    /// inspector (right), timeline (bottom) and viewport (centre), then the keyboard's focus.
    /// The side panels keep their width whatever is selected: the content wraps instead of
    /// widening them. What the panels read is built once here ([`FrameContext`]); what they
    /// ask for is sent, to be applied after them.
    pub(super) fn panels(&mut self, ui: &mut egui::Ui) {
        use crate::editor::session::arrange::Panel;
        let ctx = ui.ctx().clone();
        let fx = FrameContext::new(&self.editor, self.registers.wiring());
        keyboard::apply_look(&ctx, &fx, &mut self.look);
        menus::shortcuts(&ctx, &fx);
        keyboard::nudge_keys(&ctx, &fx);
        window_input(&ctx, &fx);
        egui::Panel::top("menu").show(ui, |ui| {
            a11y::name_panel(ui, "Menu bar");
            egui::MenuBar::new().ui(ui, |ui| menus::menus(ui, &fx));
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            a11y::name_panel(ui, "Status");
            status_bar::ui(ui, &fx, &self.viewport, self.last_recomputed);
        });
        self.panel_rects.clear();
        let timeline = egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(110.0)
            .show(ui, |ui| {
                a11y::name_panel(ui, "Timeline");
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.timeline.ui(ui, &fx);
                    a11y::scroll_focus_into_view(ui);
                });
            });
        self.panel_rects
            .set(Panel::Timeline, timeline.response.rect);
        let sides = Sides {
            hierarchy: &mut self.hierarchy,
            inspector: &mut self.inspector,
            lesson: &mut self.lesson_panel,
            rects: &mut self.panel_rects,
        };
        side_panels(ui, &fx, sides);
        let central = egui::CentralPanel::default().show(ui, |ui| {
            a11y::name_panel(ui, "Viewport");
            let preview = self.hierarchy.preview.as_ref();
            (self.viewport).ui(ui, &fx, preview, self.inspector.hovered_factor);
        });
        self.panel_rects.set(Panel::Viewport, central.response.rect);
        a11y::announce(&ctx, &fx, &mut self.announcements);
        keyboard::focus(&ctx, &fx, &mut self.panel_rects);
    }
}

/// The window's close button and files dropped on the window.
fn window_input(ctx: &egui::Context, fx: &FrameContext) {
    use crate::editor::session::command::FileCommand;
    if ctx.input(|i| i.viewport().close_requested()) {
        fx.send(Command::File(FileCommand::CloseRequested));
    }
    let dropped: Option<std::path::PathBuf> = ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .find(|p| !p.as_os_str().is_empty())
    });
    fx.send_all(dropped.map(|x| Command::File(FileCommand::OpenPath(x))));
}

/// The side panels' own state, and where each was drawn.
struct Sides<'s> {
    hierarchy: &'s mut hierarchy::HierarchyState,
    inspector: &'s mut inspector::InspectorState,
    lesson: &'s mut lesson_panel::LessonPanel,
    rects: &'s mut keyboard::PanelRects,
}

/// The hierarchy and the right column (the inspector, with the lesson above it). With a lesson
/// open it shares the right column and the viewport keeps half the window.
fn side_panels(ui: &mut egui::Ui, fx: &FrameContext, s: Sides) {
    use crate::editor::session::arrange::Panel;
    use crate::editor::view::layout::{MIN_HIERARCHY, max_hierarchy, max_right};
    let (window, lesson) = (ui.max_rect().width(), fx.lesson.is_some());
    let sides = SideWidths::for_window(window);
    // A lesson's point or gesture on a folded or scrolled-away row: unfold and scroll to it.
    let reveal = fx.wiring.overlay.take_rows_to_reveal();
    if !reveal.is_empty() {
        s.hierarchy.reveal(fx.scene, &reveal);
    }
    let hierarchy = egui::Panel::left("hierarchy")
        .resizable(true)
        .default_size(sides.hierarchy)
        .size_range(
            MIN_HIERARCHY.min(sides.hierarchy)
                ..=max_hierarchy(window, lesson).min(sides.hierarchy_max()),
        )
        .show(ui, |ui| {
            a11y::name_panel(ui, "Hierarchy");
            s.hierarchy.ui(ui, fx);
        })
        .response
        .rect;
    s.rects.set(Panel::Hierarchy, hierarchy);
    let mut lesson_rect = None;
    let mut inspector = egui::Panel::right("inspector")
        .resizable(true)
        .default_size(sides.right)
        .size_range(
            sides.right_min()
                ..=max_right(window, hierarchy.width(), lesson)
                    .min(sides.room - hierarchy.width())
                    .max(sides.right_min()),
        )
        .show(ui, |ui| {
            a11y::name_panel(ui, "Inspector");
            if let Some(run) = fx.lesson {
                lesson_rect = Some(s.lesson.ui(ui, fx, run));
            }
            s.inspector.ui(ui, fx);
        })
        .response
        .rect;
    if let Some(rect) = lesson_rect {
        s.rects.set(Panel::Lesson, rect);
        inspector.min.y = rect.max.y;
    }
    s.rects.set(Panel::Inspector, inspector);
}

impl GraftApp {
    /// The frame's end, after every panel and window: the lesson overlay, the dialogs' answers,
    /// the window's title, and the announcement spoken on the focus.
    pub(super) fn end_frame(&mut self, ctx: &egui::Context) {
        use crate::editor::session::command::{Command, FileCommand};
        self.registers.targets.finish_frame();
        let fx = FrameContext::new(&self.editor, self.registers.wiring());
        super::lesson_overlay::paint(ctx, &fx, &self.viewport);
        if let Some(outcome) = self.dialogs.poll() {
            self.run(Command::File(FileCommand::DialogClosed(outcome)));
        }
        for command in self.viewport_commands.drain(..) {
            ctx.send_viewport_cmd(command);
        }
        let title = self.editor.doc().title();
        if title != self.shown_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }
        // The window's name for screen readers: egui leaves its root node unnamed.
        ctx.accesskit_node_builder(egui::accesskit_root_id(), |node| {
            node.set_label(self.shown_title.as_str())
        });
        super::a11y::end_of_pass(ctx, &self.registers.ring, &mut self.announcements);
    }

    /// The lesson targets the widgets registered in the last complete frame.
    pub fn ui_targets(&self) -> &crate::app::ui_targets::UiTargets {
        self.registers.targets.last_frame()
    }

    /// What the lesson overlay painted in the last frame.
    pub fn lesson_painted(&self) -> crate::app::lesson_overlay::Painted {
        self.registers.overlay.painted()
    }
}

/// How wide the side panels start and may grow in a window `window` points wide: at their
/// usual widths (260 and 440) in a wide window, scaled down together in a narrow one (a small
/// window, or a big interface scale: 1280 pixels at 150 % are 853 points) so the viewport keeps
/// at least half the window, and never less than 580 points when the window is wider.
struct SideWidths {
    /// The hierarchy's starting width.
    hierarchy: f32,
    /// The right column's starting width.
    right: f32,
    /// What both side panels together may take.
    room: f32,
}

/// The side panels' usual widths.
const HIERARCHY_WIDTH: f32 = 260.0;
const RIGHT_WIDTH: f32 = 440.0;
/// The viewport width kept in a wide window.
const VIEWPORT_KEPT: f32 = 580.0;
/// What the panels' separators and margins take besides the panels' widths.
const SEPARATORS: f32 = 16.0;

impl SideWidths {
    fn for_window(window: f32) -> Self {
        let usual = HIERARCHY_WIDTH + RIGHT_WIDTH;
        let room = (window / 2.0 - SEPARATORS).max(window - VIEWPORT_KEPT);
        let share = (room / usual).min(1.0);
        Self {
            hierarchy: HIERARCHY_WIDTH * share,
            right: RIGHT_WIDTH * share,
            room,
        }
    }

    /// The narrowest the right column gets.
    fn right_min(&self) -> f32 {
        crate::editor::view::layout::MIN_RIGHT.min(self.right)
    }

    /// The widest the hierarchy gets, the right column at its narrowest.
    fn hierarchy_max(&self) -> f32 {
        (self.room - self.right_min()).max(self.hierarchy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewport_keeps_half_a_narrow_window_and_wide_ones_keep_their_panels() {
        // 1280 x 800 pixels at 150 %.
        let narrow = SideWidths::for_window(1280.0 / 1.5);
        let taken = narrow.hierarchy + narrow.right + SEPARATORS;
        assert!(taken <= 1280.0 / 1.5 / 2.0 + 1e-3, "{taken}");
        assert!(narrow.hierarchy_max() + narrow.right_min() <= narrow.room + 1e-3);
        let wide = SideWidths::for_window(1280.0);
        assert_eq!((wide.hierarchy, wide.right), (HIERARCHY_WIDTH, RIGHT_WIDTH));
        assert!(1280.0 - wide.room >= VIEWPORT_KEPT);
    }
}
