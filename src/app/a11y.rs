//! Names for screen readers where a widget's own text does not say what it is: an icon button
//! ("✖"), a number field ("x"), two fields that both end in "s".

/// Give a widget the name a screen reader says for it.
pub fn name(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx()
        .accesskit_node_builder(response.id, |node| node.set_label(name));
}
