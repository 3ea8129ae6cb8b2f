//! Floating windows: the unsaved-changes prompt, the typed-path fallback, errors, history,
//! keyboard shortcuts and About.

use super::{DialogPurpose, FileAction, GraftApp, Intent};
use crate::document::SAMPLE_SCENES;
use std::path::PathBuf;

/// Every shortcut, for Help ▸ Keyboard shortcuts.
pub const SHORTCUTS: [(&str, &str); 17] = [
    ("Ctrl+N", "New scene"),
    ("Ctrl+O", "Open…"),
    ("Ctrl+S", "Save"),
    ("Ctrl+Shift+S", "Save As…"),
    ("Ctrl+Q", "Quit"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    ("Ctrl+C", "Copy selected nodes"),
    ("Ctrl+V", "Paste as child of the selection"),
    ("Ctrl+D", "Duplicate"),
    ("Del", "Delete"),
    ("F2 / double-click", "Rename"),
    ("F", "Frame selection"),
    ("Home", "Frame all"),
    ("Mouse wheel", "Zoom around the pointer"),
    ("Middle-drag / Space+drag", "Pan the viewport"),
    (
        "Shift while dropping",
        "Invert “Keep world transform” for that drop",
    ),
];

impl GraftApp {
    pub(super) fn windows(&mut self, ctx: &egui::Context) -> Vec<Intent> {
        let mut out = Vec::new();
        if self.quit_requested {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.guard_window(ctx);
        self.path_prompt_window(ctx);
        if let Some(text) = self.error_window.clone() {
            let mut open = true;
            egui::Window::new("⚠ Problem")
                .id(egui::Id::unique("graft-error"))
                .open(&mut open)
                .collapsible(false)
                .anchor(egui::Align2::RIGHT_TOP, [-12.0, 40.0])
                .show(ctx, |ui| {
                    ui.colored_label(ui.visuals().error_fg_color, &text);
                    if ui.button("OK").clicked() {
                        self.error_window = None;
                    }
                });
            if !open {
                self.error_window = None;
            }
        }
        if self.show_history {
            let (labels, applied) = self.doc.history.labels();
            let mut open = true;
            egui::Window::new("History")
                .open(&mut open)
                .default_width(260.0)
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        if ui.selectable_label(applied == 0, "(opened)").clicked() {
                            out.push(Intent::JumpHistory(0));
                        }
                        for (k, label) in labels.iter().enumerate() {
                            let text = if k < applied {
                                label.to_string()
                            } else {
                                format!("⟳ {label}")
                            };
                            if ui.selectable_label(k + 1 == applied, text).clicked() {
                                out.push(Intent::JumpHistory(k + 1));
                            }
                        }
                    });
                });
            self.show_history = open;
        }
        if self.show_shortcuts {
            let mut open = true;
            egui::Window::new("Keyboard shortcuts")
                .open(&mut open)
                .show(ctx, |ui| {
                    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                        for (keys, what) in SHORTCUTS {
                            ui.monospace(keys);
                            ui.label(what);
                            ui.end_row();
                        }
                    });
                });
            self.show_shortcuts = open;
        }
        if self.show_about {
            let mut open = true;
            egui::Window::new("About graft").open(&mut open).show(ctx, |ui| {
                ui.heading("graft");
                ui.label("An editor for 2D scene graphs: build transform hierarchies by drag and drop, see every node's local and world transform side by side, reparent exactly, and see where shear comes from.");
                ui.label(format!("Sample scenes (in the scenes/ folder next to graft): {}.", SAMPLE_SCENES.join(", ")));
                ui.label("World = parentWorld · local, y up, degrees counter-clockwise.");
            });
            self.show_about = open;
        }
        out
    }

    fn guard_window(&mut self, ctx: &egui::Context) {
        let Some(action) = self.pending_guard.clone() else {
            return;
        };
        let what = match action {
            FileAction::New => "starting a new scene",
            FileAction::Open | FileAction::OpenPath(_) => "opening another scene",
            FileAction::Revert => "reverting to the saved file",
            FileAction::Quit => "closing",
        };
        let mut answer = None;
        egui::Modal::new(egui::Id::unique("graft-unsaved")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "Save the changes to {} before {what}?",
                self.doc.display_name()
            ));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    answer = Some(Some(true));
                }
                if ui.button("Discard").clicked() {
                    answer = Some(Some(false));
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    answer = Some(None);
                }
            });
        });
        if let Some(answer) = answer {
            self.answer_guard(answer);
        }
    }

    fn path_prompt_window(&mut self, ctx: &egui::Context) {
        let Some((purpose, mut text)) = self.path_prompt.take() else {
            return;
        };
        let title = match purpose {
            DialogPurpose::Open => "Open scene: type a path",
            DialogPurpose::SaveAs { .. } => "Save scene as: type a path",
        };
        let mut done = None;
        egui::Modal::new(egui::Id::unique("graft-path-prompt")).show(ctx, |ui| {
            ui.heading(title);
            let edit = ui.add(
                egui::TextEdit::singleline(&mut text)
                    .desired_width(420.0)
                    .hint_text("scenes/sword.ron"),
            );
            if !edit.has_focus() && !edit.lost_focus() {
                edit.request_focus();
            }
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button("OK").clicked() || entered {
                    done = Some(true);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    done = Some(false);
                }
            });
        });
        match done {
            Some(true) if !text.trim().is_empty() => {
                self.finish_dialog(purpose, PathBuf::from(text.trim()))
            }
            Some(_) => self.info("Cancelled"),
            None => self.path_prompt = Some((purpose, text)),
        }
    }
}
