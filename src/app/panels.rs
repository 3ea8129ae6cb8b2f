//! The window's panels (timeline, hierarchy, inspector with the lesson above it, viewport), where
//! each was drawn (a press there gives it the keyboard) and the floating windows.

use super::{
    GraftApp, figure_window, generate_window, hierarchy, inspector, keyboard, lesson_panel,
    timeline, viewport, windows,
};
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
    /// their width whatever is selected: the content wraps instead of widening them.
    pub(super) fn panels(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        use crate::editor::session::arrange::Panel;
        let mut commands = Vec::new();
        self.panel_rects.clear();
        let timeline = egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(110.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    commands.extend(timeline::ui(ui, &self.editor, &mut self.timeline));
                });
            });
        self.panel_rects
            .set(Panel::Timeline, timeline.response.rect);
        // With a lesson open it shares the right column and the viewport keeps half the window.
        use crate::editor::view::layout::{MIN_HIERARCHY, MIN_RIGHT, max_hierarchy, max_right};
        let (window, lesson) = (ui.max_rect().width(), self.editor.lesson().is_some());
        let hierarchy = egui::Panel::left("hierarchy")
            .resizable(true)
            .default_size(260.0)
            .size_range(MIN_HIERARCHY..=max_hierarchy(window, lesson))
            .show(ui, |ui| {
                commands.extend(hierarchy::ui(ui, &self.editor, &mut self.hierarchy));
            })
            .response
            .rect;
        self.panel_rects.set(Panel::Hierarchy, hierarchy);
        let mut lesson_rect = None;
        let mut inspector = egui::Panel::right("inspector")
            .resizable(true)
            .default_size(440.0)
            .size_range(MIN_RIGHT..=max_right(window, hierarchy.width(), lesson))
            .show(ui, |ui| {
                if let Some(run) = self.editor.lesson() {
                    let (lesson, rect) = lesson_panel::above_inspector(ui, &self.editor, run);
                    commands.extend(lesson);
                    lesson_rect = Some(rect);
                }
                commands.extend(inspector::ui(ui, &self.editor, &mut self.inspector));
            })
            .response
            .rect;
        if let Some(rect) = lesson_rect {
            self.panel_rects.set(Panel::Lesson, rect);
            inspector.min.y = rect.max.y;
        }
        self.panel_rects.set(Panel::Inspector, inspector);
        let central = egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(viewport::ui(
                ui,
                &self.editor,
                &mut self.viewport,
                self.hierarchy.preview.as_ref(),
                self.inspector.hovered_factor,
            ));
        });
        self.panel_rects.set(Panel::Viewport, central.response.rect);
        commands
    }
}
