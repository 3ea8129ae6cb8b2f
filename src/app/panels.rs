//! The window's panels (timeline, hierarchy, inspector with the lesson above it, viewport), where
//! each was drawn (a press there gives it the keyboard) and the floating windows.

use super::frame::FrameContext;
use super::{
    GraftApp, a11y, figure_window, generate_window, hierarchy, inspector, keyboard, lesson_panel,
    timeline, viewport, windows,
};
use crate::editor::session::Editor;
use crate::editor::session::command::Command;

impl GraftApp {
    /// The floating windows, and what they answered.
    pub(super) fn windows(&mut self, ctx: &egui::Context) -> Vec<Command> {
        use crate::editor::session::command::Window;
        let mut commands = windows::show(ctx, &self.editor, &mut self.windows);
        commands.extend(keyboard::move_to_window(
            ctx,
            &self.editor,
            &mut self.move_to,
        ));
        if self.editor.is_open(Window::Figure) {
            let view = (self.viewport.camera, self.viewport.last_rect);
            let figure = &mut self.figure_window;
            commands.extend(figure_window::show(ctx, &self.editor, figure, view));
        }
        if self.editor.is_open(Window::Generate) {
            let generate = &mut self.generate_window;
            commands.extend(generate_window::show(ctx, &self.editor, generate));
        }
        commands
    }

    /// The hierarchy (left), inspector (right) and viewport (centre). The side panels keep
    /// their width whatever is selected: the content wraps instead of widening them. What the
    /// panels read is built once here ([`FrameContext`]).
    pub(super) fn panels(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        use crate::editor::session::arrange::Panel;
        let mut commands = Vec::new();
        self.panel_rects.clear();
        let fx = FrameContext::new(&self.editor, self.registers.wiring());
        let timeline = egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(110.0)
            .show(ui, |ui| {
                a11y::name_panel(ui, "Timeline");
                egui::ScrollArea::vertical().show(ui, |ui| {
                    commands.extend(timeline::ui(ui, &fx, &mut self.timeline));
                    a11y::scroll_focus_into_view(ui);
                });
            });
        self.panel_rects
            .set(Panel::Timeline, timeline.response.rect);
        let sides = Sides {
            hierarchy: &mut self.hierarchy,
            inspector: &mut self.inspector,
            rects: &mut self.panel_rects,
        };
        commands.extend(side_panels(ui, &fx, &self.editor, sides));
        let central = egui::CentralPanel::default().show(ui, |ui| {
            a11y::name_panel(ui, "Viewport");
            commands.extend(viewport::ui(
                ui,
                &self.editor,
                &mut self.viewport,
                self.hierarchy.preview.as_ref(),
                self.inspector.hovered_factor,
                (fx.wiring.primary, fx.wiring.ring),
            ));
        });
        self.panel_rects.set(Panel::Viewport, central.response.rect);
        a11y::announce(ui.ctx(), &self.editor, &mut self.announcements);
        commands
    }
}

/// The side panels' own state, and where each was drawn.
struct Sides<'s> {
    hierarchy: &'s mut hierarchy::HierarchyState,
    inspector: &'s mut inspector::InspectorState,
    rects: &'s mut keyboard::PanelRects,
}

/// The hierarchy and the right column (the inspector, with the lesson above it). With a lesson
/// open it shares the right column and the viewport keeps half the window.
fn side_panels(ui: &mut egui::Ui, fx: &FrameContext, editor: &Editor, s: Sides) -> Vec<Command> {
    use crate::editor::session::arrange::Panel;
    use crate::editor::view::layout::{MIN_HIERARCHY, max_hierarchy, max_right};
    let mut commands = Vec::new();
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
            commands.extend(hierarchy::ui(ui, fx, s.hierarchy));
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
                let (lesson, rect) = lesson_panel::above_inspector(ui, editor, run, fx.wiring);
                commands.extend(lesson);
                lesson_rect = Some(rect);
            }
            commands.extend(inspector::ui(ui, fx, s.inspector));
        })
        .response
        .rect;
    if let Some(rect) = lesson_rect {
        s.rects.set(Panel::Lesson, rect);
        inspector.min.y = rect.max.y;
    }
    s.rects.set(Panel::Inspector, inspector);
    commands
}

impl GraftApp {
    /// The frame's end, after every panel and window: the lesson overlay, the dialogs' answers,
    /// the window's title, and the announcement spoken on the focus.
    pub(super) fn end_frame(&mut self, ctx: &egui::Context) {
        use crate::editor::session::command::{Command, FileCommand};
        let registers = &mut self.registers;
        let (overlay, targets) = (&mut registers.overlay, &mut registers.targets);
        super::lesson_overlay::paint(ctx, &self.editor, &self.viewport, overlay, targets);
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

/// While a lesson is being recorded, the status bar's lasting mark: which step is recorded,
/// with Stop recording… (and Record the next step) at hand; once stopped, that the lesson
/// waits for its file. What was pressed.
pub(super) fn recording_mark(ui: &mut egui::Ui, editor: &Editor) -> Option<Command> {
    use crate::editor::session::record::RecordCommand;
    let recording = editor.recording()?;
    let red = crate::app::viewport::c32(crate::editor::view::palette::RECORDING);
    let mut pressed = None;
    ui.horizontal(|ui| {
        if recording.stopped() {
            let text = "⚫ Recording stopped: choose where to write the lesson";
            ui.colored_label(red, text);
            return;
        }
        let text = format!("⚫ Recording lesson step {}", recording.steps());
        ui.colored_label(red, egui::RichText::new(text).strong())
            .on_hover_text("Perform the solution in the editor: each command becomes a do: line");
        if ui.button("Stop recording…").clicked() {
            pressed = Some(Command::Record(RecordCommand::Stop));
        }
        if ui.button("Record the next step").clicked() {
            pressed = Some(Command::Record(RecordCommand::NextStep));
        }
    });
    pressed
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
