//! The frame every closable floating window shares (`windows.rs`'s and the lessons window).

use crate::editor::session::command::{Command, Window, WindowCommand};

/// A window with a close button; answers `Close(window)` when it was closed.
pub(crate) fn closable(
    ctx: &egui::Context,
    title: &str,
    which: Window,
    body: impl FnOnce(&mut egui::Ui),
) -> Option<Command> {
    let mut open = true;
    let mut content = egui::Rect::NOTHING;
    let shown = egui::Window::new(title).open(&mut open).show(ctx, |ui| {
        body(ui);
        content = ui.min_rect();
    });
    if let Some(shown) = shown {
        focus_on_open(ctx, shown.response.layer_id, content);
    }
    (!open).then_some(Command::Window(WindowCommand::Close(which)))
}

/// A window just opened (not shown on the pass before) takes the keyboard unless a control
/// of its own has it: its first control in `content` (the window's body, not its close
/// button), so a screen reader reads the window and Tab starts inside it.
pub(crate) fn focus_on_open(ctx: &egui::Context, layer: egui::LayerId, content: egui::Rect) {
    let pass = ctx.cumulative_pass_nr();
    let key = egui::Id::unique("graft-window-shown").with(layer.id);
    let before = ctx.data_mut(|d| {
        let before = d.get_temp::<u64>(key);
        d.insert_temp(key, pass);
        before
    });
    let on_layer = |id| ctx.viewport(|v| v.this_pass.widgets.get(id).map(|w| w.layer_id));
    let inside = ctx.memory(|m| m.focused()).and_then(on_layer) == Some(layer);
    if before.is_some_and(|b| b + 1 >= pass) || inside {
        return;
    }
    let first = ctx.viewport(|v| {
        v.this_pass
            .widgets
            .get_layer(layer)
            .find(|w| {
                w.enabled && w.visible && w.sense.is_focusable() && content.intersects(w.rect)
            })
            .map(|w| w.id)
    });
    if let Some(id) = first {
        ctx.memory_mut(|m| m.request_focus(id));
    }
}
