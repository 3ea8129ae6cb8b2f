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
