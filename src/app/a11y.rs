//! Names for screen readers where a widget's own text does not say what it is: an icon button
//! ("✖"), a number field ("x"), two fields that both end in "s".

/// Give a widget the name a screen reader says for it.
pub fn name(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx()
        .accesskit_node_builder(response.id, |node| node.set_label(name));
}

/// The id of the node that reads announcements out.
fn announcement_id() -> egui::Id {
    egui::Id::unique("graft-announcement")
}

/// Look at the session and put what changed ([`Announcer`]) in a polite live region: a status
/// node a screen reader reads out whenever its text changes (AT-SPI "object:announcement"),
/// without moving the keyboard. Returns the text.
///
/// [`Announcer`]: crate::editor::session::announce::Announcer
pub fn announce(ctx: &egui::Context, editor: &crate::editor::session::Editor) -> String {
    use crate::editor::session::announce::Announcer;
    let id = announcement_id();
    let text = ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Announcer>(id)
            .observe(editor)
            .to_owned()
    });
    ctx.accesskit_node_builder(id, |node| {
        node.set_role(egui::accesskit::Role::Status);
        node.set_live(egui::accesskit::Live::Polite);
        if !text.is_empty() {
            node.set_label(text.as_str());
        }
    });
    text
}

/// Name the dialog (an `egui::Modal`) `ui` is drawn in: egui reads a modal as a dialog without
/// a name, so a screen reader would say only "dialog".
pub fn name_dialog(ui: &egui::Ui, name: &str) {
    name_enclosing(ui, |kind| kind == egui::UiKind::Modal, name);
}

/// Name the panel `ui` is drawn in (egui reads each as an unnamed "panel"): "Hierarchy"…
pub fn name_panel(ui: &egui::Ui, name: &str) {
    use egui::UiKind::{BottomPanel, CentralPanel, LeftPanel, RightPanel, TopPanel};
    let is_panel = |kind| {
        matches!(
            kind,
            LeftPanel | RightPanel | TopPanel | BottomPanel | CentralPanel
        )
    };
    name_enclosing(ui, is_panel, name);
}

/// Name the innermost `Ui` around `ui` (itself included) of a kind `is_kind` accepts.
fn name_enclosing(ui: &egui::Ui, is_kind: impl Fn(egui::UiKind) -> bool, name: &str) {
    let enclosing = ui
        .stack()
        .iter()
        .find(|s| s.kind().is_some_and(&is_kind))
        .map(|s| (s.unique_id, s.max_rect));
    if let Some((id, rect)) = enclosing {
        ui.ctx().accesskit_node_builder(id, |node| {
            node.set_label(name);
            // Where it is, for a magnifier or a screen reader's review (egui gives containers none).
            node.set_bounds(egui::accesskit::Rect {
                x0: rect.min.x.into(),
                y0: rect.min.y.into(),
                x1: rect.max.x.into(),
                y1: rect.max.y.into(),
            });
        });
    }
}

/// Read a lesson goal's line as what it is: a check box (read-only: the goal's state is not
/// set by pressing it) named by the goal, checked when it holds, instead of "☑ goal" text.
pub fn goal(ui: &egui::Ui, line: &egui::Response, label: &str, holds: bool) {
    ui.ctx().accesskit_node_builder(line.id, |node| {
        node.set_role(egui::accesskit::Role::CheckBox);
        node.clear_value();
        node.set_label(label);
        node.set_read_only();
        node.set_toggled(if holds {
            egui::accesskit::Toggled::True
        } else {
            egui::accesskit::Toggled::False
        });
    });
}
