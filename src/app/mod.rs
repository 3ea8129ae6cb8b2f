//! The egui application. Everything egui / eframe / rfd lives in this module and only here.
//!
//! Panels read `&Scene` and return [`Intent`]s; [`GraftApp::apply`] (in `actions.rs`) is the one
//! place that changes the document, records undo and does file I/O.

mod actions;
pub mod dialogs;
pub mod hierarchy;
pub mod inspector;
pub mod viewport;
mod windows;

use crate::document::Document;
use crate::editor::numbers::{format_number, format_significant};
use crate::scene::edit::Op;
use crate::scene::{DetachedSubtree, NodeId};
use dialogs::FileDialogs;
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::PathBuf;

/// What a panel, menu or shortcut asks the application to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Replace the selection.
    Select(Vec<NodeId>),
    /// Add a node to the selection, or take it out.
    ToggleSelect(NodeId),
    /// Change the scene as one undo step (merged with the previous one of the same gesture).
    Perform {
        /// The undo label, e.g. "Move arm".
        label: String,
        /// What to do.
        ops: Vec<Op>,
        /// Continuous gestures (drags, slider moves) share a key and become one step.
        gesture: Option<u64>,
    },
    /// The current drag or slider gesture ended.
    EndGesture,
    /// Undo one step.
    Undo,
    /// Redo one step.
    Redo,
    /// Undo or redo until this many steps are applied.
    JumpHistory(usize),
    /// File ▸ New.
    New,
    /// File ▸ Open… (dialog).
    Open,
    /// Open this file.
    OpenPath(PathBuf),
    /// File ▸ Save.
    Save,
    /// File ▸ Save As….
    SaveAs,
    /// File ▸ Revert.
    Revert,
    /// File ▸ Quit.
    Quit,
    /// Copy the selected subtrees.
    Copy,
    /// Paste the copied subtrees under the selection.
    Paste,
    /// Duplicate the selection.
    Duplicate,
    /// Delete the selection.
    Delete,
    /// Start renaming the selected node in the hierarchy.
    StartRename,
    /// Frame the selection in the viewport.
    FrameSelection,
    /// Frame the whole scene.
    FrameAll,
    /// Something the person tried was refused: say why (nothing changed).
    Refused(String),
}

/// A line for the status bar (and the error window when it is an error).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// What happened.
    pub text: String,
    /// True for failures.
    pub is_error: bool,
}

/// File actions that may first need the unsaved-changes prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum FileAction {
    /// Start a new, empty scene.
    New,
    /// Show the Open dialog.
    Open,
    /// Open this file.
    OpenPath(PathBuf),
    /// Reload the file from disk.
    Revert,
    /// Close the window.
    Quit,
}

/// What the dialog (or the path field that replaces it) is for.
#[derive(Clone, Debug, PartialEq)]
enum DialogPurpose {
    Open,
    SaveAs { then: Option<FileAction> },
}

/// The graft editor.
pub struct GraftApp {
    /// The open scene, its history and file.
    pub doc: Document,
    /// Selected nodes; the last one is the primary selection.
    pub selection: Vec<NodeId>,
    /// Status-bar messages, newest last.
    pub messages: Vec<Message>,
    /// Recently opened files, newest first (kept across runs).
    pub recent: Vec<PathBuf>,
    /// An action waiting for Save / Discard / Cancel.
    pub pending_guard: Option<FileAction>,
    /// Copied subtrees (Ctrl+C).
    pub clipboard: Vec<DetachedSubtree>,
    /// How many world matrices the last frame recomputed.
    pub last_recomputed: usize,
    /// How many the most recent update that did any work recomputed (what the last edit cost).
    pub last_edit_recomputed: usize,
    dialogs: Box<dyn FileDialogs>,
    dialog_purpose: Option<DialogPurpose>,
    /// A typed path, shown when no native dialog can be.
    path_prompt: Option<(DialogPurpose, String)>,
    error_window: Option<String>,
    allow_close: bool,
    /// Set when the window should close (Quit, or a confirmed close).
    pub quit_requested: bool,
    shown_title: String,
    show_history: bool,
    show_shortcuts: bool,
    show_about: bool,
    hierarchy: hierarchy::HierarchyState,
    inspector: inspector::InspectorState,
    /// The viewport's camera and view settings.
    pub viewport: viewport::ViewportState,
}

const RECENT_KEY: &str = "graft.recent";
const MAX_RECENT: usize = 10;

impl GraftApp {
    /// The editor on `file` (or the built-in sword scene), with these file dialogs.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        file: Option<PathBuf>,
        dialogs: Box<dyn FileDialogs>,
    ) -> Self {
        let recent = cc
            .storage
            .and_then(|s| eframe::get_value::<Vec<PathBuf>>(s, RECENT_KEY))
            .unwrap_or_default();
        let mut app = Self::with_document(Document::sample(), dialogs);
        app.recent = recent;
        if let Some(path) = file {
            app.open_path(path);
        }
        app
    }

    /// The editor on a document, without eframe (tests and benches).
    pub fn with_document(doc: Document, dialogs: Box<dyn FileDialogs>) -> Self {
        Self {
            doc,
            selection: Vec::new(),
            messages: Vec::new(),
            recent: Vec::new(),
            pending_guard: None,
            clipboard: Vec::new(),
            last_recomputed: 0,
            last_edit_recomputed: 0,
            dialogs,
            dialog_purpose: None,
            path_prompt: None,
            error_window: None,
            allow_close: false,
            quit_requested: false,
            shown_title: String::new(),
            show_history: false,
            show_shortcuts: false,
            show_about: false,
            hierarchy: Default::default(),
            inspector: Default::default(),
            viewport: Default::default(),
        }
    }

    /// The newest status message.
    pub fn last_message(&self) -> Option<&Message> {
        self.messages.last()
    }

    /// The primary selection, if it still exists.
    pub fn primary(&self) -> Option<NodeId> {
        self.selection
            .last()
            .copied()
            .filter(|id| self.doc.scene.contains(*id))
    }

    fn info(&mut self, text: impl Into<String>) {
        self.messages.push(Message {
            text: text.into(),
            is_error: false,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.error_window = Some(text.clone());
        self.messages.push(Message {
            text,
            is_error: true,
        });
    }

    /// The whole frame: menus, panels, windows, shortcuts (eframe calls it; benches call it headless).
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.last_recomputed = self.doc.scene.update_world();
        if self.last_recomputed > 0 {
            self.last_edit_recomputed = self.last_recomputed;
        }
        self.selection.retain(|id| self.doc.scene.contains(*id));
        let mut intents = self.shortcuts(&ctx);
        self.handle_close_request(&ctx);
        self.handle_dropped_files(&ctx);
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| intents.extend(self.menus(ui)));
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::left("hierarchy")
            .resizable(true)
            .default_size(260.0)
            .show(ui, |ui| {
                intents.extend(hierarchy::ui(
                    ui,
                    &self.doc.scene,
                    &self.selection,
                    &mut self.hierarchy,
                ));
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| {
                intents.extend(inspector::ui(
                    ui,
                    &self.doc.scene,
                    &self.selection,
                    &mut self.inspector,
                ));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            intents.extend(viewport::ui(
                ui,
                &self.doc,
                &self.selection,
                &mut self.viewport,
                self.hierarchy.preview.as_ref(),
                self.inspector.hovered_factor,
            ));
        });
        intents.extend(self.windows(&ctx));
        for intent in intents {
            self.apply(intent);
        }
        self.poll_dialogs();
        let title = self.doc.title();
        if title != self.shown_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }
    }

    fn menus(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let mut out = Vec::new();
        let item = |ui: &mut egui::Ui,
                    text: &str,
                    shortcut: &str,
                    intent: Intent,
                    out: &mut Vec<Intent>| {
            if ui
                .add(egui::Button::new(text).shortcut_text(shortcut))
                .clicked()
            {
                out.push(intent);
            }
        };
        ui.menu_button("File", |ui| {
            item(ui, "New", "Ctrl+N", Intent::New, &mut out);
            item(ui, "Open…", "Ctrl+O", Intent::Open, &mut out);
            ui.menu_button("Open Recent", |ui| {
                if self.recent.is_empty() {
                    ui.label("(none yet)");
                }
                for path in &self.recent {
                    item(
                        ui,
                        &path.display().to_string(),
                        "",
                        Intent::OpenPath(path.clone()),
                        &mut out,
                    );
                }
            });
            ui.separator();
            item(ui, "Save", "Ctrl+S", Intent::Save, &mut out);
            item(ui, "Save As…", "Ctrl+Shift+S", Intent::SaveAs, &mut out);
            item(ui, "Revert", "", Intent::Revert, &mut out);
            ui.separator();
            item(ui, "Quit", "Ctrl+Q", Intent::Quit, &mut out);
        });
        ui.menu_button("Edit", |ui| {
            let undo = self
                .doc
                .history
                .undo_label()
                .map_or("Undo".into(), |l| format!("Undo {l}"));
            let redo = self
                .doc
                .history
                .redo_label()
                .map_or("Redo".into(), |l| format!("Redo {l}"));
            item(ui, &undo, "Ctrl+Z", Intent::Undo, &mut out);
            item(ui, &redo, "Ctrl+Shift+Z", Intent::Redo, &mut out);
            ui.separator();
            item(ui, "Copy", "Ctrl+C", Intent::Copy, &mut out);
            item(ui, "Paste as child", "Ctrl+V", Intent::Paste, &mut out);
            item(ui, "Duplicate", "Ctrl+D", Intent::Duplicate, &mut out);
            item(ui, "Rename", "F2", Intent::StartRename, &mut out);
            item(ui, "Delete", "Del", Intent::Delete, &mut out);
            ui.separator();
            if ui.button("History…").clicked() {
                self.show_history = true;
            }
        });
        ui.menu_button("View", |ui| {
            item(ui, "Frame selection", "F", Intent::FrameSelection, &mut out);
            item(ui, "Frame all", "Home", Intent::FrameAll, &mut out);
            ui.separator();
            viewport::view_menu(ui, &mut self.viewport);
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard shortcuts").clicked() {
                self.show_shortcuts = true;
            }
            if ui.button("About graft").clicked() {
                self.show_about = true;
            }
        });
        out
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let name = self.doc.path.as_deref().map_or_else(|| "untitled".into(), |p| p.display().to_string());
            let star = if self.doc.is_modified() { " *" } else { "" };
            ui.label(format!("{name}{star}"));
            ui.separator();
            ui.label(format!("{} nodes", self.doc.scene.len()));
            ui.separator();
            ui.label(format!(
                "{} world matrices recomputed last frame (last change: {})",
                self.last_recomputed, self.last_edit_recomputed
            ))
            .on_hover_text("How many world matrices the update pass recomputed: only the edited nodes and their subtrees (dirty flags at work).");
            ui.separator();
            let camera = self.viewport.camera;
            let pointer = self.viewport.pointer_world.map_or(String::new(), |p| {
                format!("({}, {})  ", format_number(p.x), format_number(p.y))
            });
            ui.label(format!("{pointer}zoom {} px/unit", format_significant(camera.zoom, 3)))
                .on_hover_text("The world point under the pointer, and how many pixels one world unit spans.");
            if let Some(m) = self.messages.last() {
                ui.separator();
                let color = if m.is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
                ui.colored_label(color, &m.text);
            }
        });
    }

    /// Keyboard shortcuts (Unity/Godot habits). Text fields keep their keys.
    fn shortcuts(&mut self, ctx: &egui::Context) -> Vec<Intent> {
        let typing = ctx.text_edit_focused();
        let mut out = Vec::new();
        ctx.input_mut(|i| {
            let cmd = Modifiers::COMMAND;
            let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
            let mut press = |m: Modifiers, k: Key, intent: Intent, out: &mut Vec<Intent>| {
                if i.consume_shortcut(&KeyboardShortcut::new(m, k)) {
                    out.push(intent);
                }
            };
            press(cmd_shift, Key::S, Intent::SaveAs, &mut out);
            press(cmd, Key::S, Intent::Save, &mut out);
            press(cmd, Key::N, Intent::New, &mut out);
            press(cmd, Key::O, Intent::Open, &mut out);
            press(cmd, Key::Q, Intent::Quit, &mut out);
            if typing {
                return;
            }
            press(cmd_shift, Key::Z, Intent::Redo, &mut out);
            press(cmd, Key::Z, Intent::Undo, &mut out);
            press(cmd, Key::Y, Intent::Redo, &mut out);
            press(cmd, Key::C, Intent::Copy, &mut out);
            press(cmd, Key::V, Intent::Paste, &mut out);
            press(cmd, Key::D, Intent::Duplicate, &mut out);
            press(Modifiers::NONE, Key::Delete, Intent::Delete, &mut out);
            press(Modifiers::NONE, Key::F2, Intent::StartRename, &mut out);
            press(Modifiers::NONE, Key::F, Intent::FrameSelection, &mut out);
            press(Modifiers::NONE, Key::Home, Intent::FrameAll, &mut out);
        });
        // Copy and paste arrive as events, not key presses, on most platforms.
        if !typing {
            ctx.input(|i| {
                for event in &i.events {
                    match event {
                        egui::Event::Copy => out.push(Intent::Copy),
                        egui::Event::Paste(_) => out.push(Intent::Paste),
                        _ => {}
                    }
                }
            });
        }
        out
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && !self.allow_close
            && self.doc.is_modified()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending_guard = Some(FileAction::Quit);
        }
    }

    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.request(FileAction::OpenPath(path));
        }
    }

    /// True when the window may close (nothing unsaved, or the person said so).
    pub fn may_close(&self) -> bool {
        self.allow_close || !self.doc.is_modified()
    }
}

impl eframe::App for GraftApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, RECENT_KEY, &self.recent);
    }
}

/// Open the editor window. Tries wgpu first, then glow, before giving up with a message.
pub fn run(file: Option<PathBuf>) -> Result<(), String> {
    let mut last_error = String::new();
    for renderer in [eframe::Renderer::Wgpu, eframe::Renderer::Glow] {
        let options = eframe::NativeOptions {
            renderer,
            viewport: egui::ViewportBuilder::default()
                .with_inner_size([1280.0, 800.0])
                .with_title("graft"),
            ..Default::default()
        };
        let file = file.clone();
        let result = eframe::run_native(
            "graft",
            options,
            Box::new(move |cc| {
                Ok(Box::new(GraftApp::new(
                    cc,
                    file,
                    Box::new(dialogs::NativeDialogs::default()),
                )))
            }),
        );
        match result {
            Ok(()) => return Ok(()),
            Err(e) => {
                eprintln!("graft: the {renderer:?} renderer could not start: {e}");
                last_error = e.to_string();
            }
        }
    }
    Err(format!(
        "graft could not open a window (tried wgpu and glow): {last_error}"
    ))
}
