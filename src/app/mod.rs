//! The egui application. Everything egui / eframe / rfd lives in this module and only here.
//!
//! Each panel reads the frame's [`frame::FrameContext`] (built from the [`Editor`] once a
//! frame; no other part of the app names the `Editor`) and sends [`Command`]s through it;
//! after the panels, and again after the windows, [`GraftApp::run`] hands each to
//! [`Editor::apply`] (the one place anything changes) and carries out the UI-side effects
//! (a rename field, the camera, a native dialog, the window). Menus, shortcuts, Help and the
//! palette are generated from the command table in `crate::editor::table`.

mod a11y;
pub mod dialogs;
mod figure_window;
pub mod frame;
mod generate_window;
pub mod headless;
pub mod hierarchy;
pub mod inspector;
mod key_queue;
mod keyboard;
pub mod lesson_overlay;
mod lesson_panel;
mod lesson_predict;
mod lesson_window;
pub mod memory_stage;
mod menus;
mod number_field;
mod panels;
mod recovery;
mod signals;
mod status_bar;
#[cfg(any(test, feature = "test-hooks"))]
mod test_hooks;
mod theme;
pub mod timeline;
pub mod ui_targets;
pub mod viewport;
mod windows;

use crate::editor::session::Editor;
use crate::editor::session::command::{
    Command, Effect, FileCommand, Lifecycle, SettingCommand, ViewCommand, WindowCommand,
};
use crate::model::document::Document;
use crate::model::scene::{NodeId, Scene};
use dialogs::FileDialogs;
use std::path::PathBuf;

/// The graft editor window: the session plus what only the UI keeps (panel state, the camera,
/// the native dialogs).
pub struct GraftApp {
    editor: Editor,
    dialogs: Box<dyn FileDialogs>,
    hierarchy: hierarchy::HierarchyState,
    inspector: inspector::InspectorState,
    lesson_panel: lesson_panel::LessonPanel,
    /// The viewport's camera and interaction state.
    pub viewport: viewport::ViewportState,
    windows: windows::WindowsState,
    figure_window: figure_window::FigureWindowState,
    generate_window: generate_window::GenerateWindowState,
    /// The timeline panel's state (tests read where its track area is).
    pub timeline: timeline::TimelinePanel,
    /// How many world matrices the last frame recomputed.
    pub last_recomputed: usize,
    shown_title: String,
    viewport_commands: Vec<egui::ViewportCommand>,
    /// Whether the journal setting was on when the window opened.
    journal_at_start: bool,
    /// Where each panel was drawn (a press there gives it the keyboard).
    panel_rects: keyboard::PanelRects,
    move_to: keyboard::MoveToState,
    /// What the parts hand each other in a frame: lesson targets, keyboard landings, the overlay.
    registers: frame::Registers,
    /// What was announced to screen readers, and where it is spoken.
    announcements: a11y::Announcements,
    /// The interface scale and high contrast egui was last given.
    look: Option<(f32, bool)>,
    /// Key presses held back for later frames: one key a frame ([`key_queue`]).
    keys: key_queue::KeyQueue,
    /// True when keys are held: the next frame comes at once.
    keys_held: bool,
}

const RECENT_KEY: &str = "graft.recent";
/// The storage key of the Godot version File ▸ Export as Godot scene writes for.
const GODOT3_KEY: &str = "graft.godot3_export";
const GODOT_FLATTEN_KEY: &str = "graft.godot_flatten";
/// The storage key of the Godot export's pixels per unit.
const GODOT_PPU_KEY: &str = "graft.godot_pixels_per_unit";
/// The storage key of the "Keep a crash journal" setting.
const JOURNAL_KEY: &str = "graft.journal";
/// The storage key of the learner's progress through lessons.
const LESSONS_KEY: &str = "graft.lessons";
/// The storage key of the interface scale (Ctrl+= / Ctrl+- / Ctrl+0).
const UI_SCALE_KEY: &str = "graft.ui_scale";
/// The storage key of the high-contrast theme.
const HIGH_CONTRAST_KEY: &str = "graft.high_contrast";

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
        // With a file to open, start on an empty scene: the file may load in the background.
        let start = if file.is_some() {
            Document::untitled(Scene::new())
        } else {
            Document::sample()
        };
        let progress = cc
            .storage
            .and_then(|s| eframe::get_value::<String>(s, LESSONS_KEY))
            .map(|text| crate::editor::lesson::progress::CourseProgress::from_text(&text))
            .unwrap_or_default();
        let editor = Editor::new(start)
            .with_recent(recent)
            .with_lesson_progress(progress);
        let mut app = Self::with_editor(editor, dialogs);
        // Remembered choices that are off unless stored on.
        use SettingCommand as S;
        for (key, on) in [
            (GODOT3_KEY, S::SetGodot3Export(true)),
            (GODOT_FLATTEN_KEY, S::SetGodotFlatten(true)),
        ] {
            if cc.storage.and_then(|s| eframe::get_value::<bool>(s, key)) == Some(true) {
                app.run(Command::Setting(on));
            }
        }
        let ppu = cc
            .storage
            .and_then(|s| eframe::get_value::<u32>(s, GODOT_PPU_KEY));
        if let Some(pixels) = ppu {
            app.run(Command::Setting(S::SetGodotPixelsPerUnit(pixels)));
        }
        app.restore_look(cc.storage);
        if let Some(path) = file {
            app.run(Command::File(FileCommand::OpenPath(path)));
        }
        app
    }

    /// [`GraftApp::new`] with a crash journal in `journal` (the window's normal start; `None`
    /// with `--no-journal` or the setting off): journals left by a graft that did not close
    /// cleanly are offered for recovery before anything else.
    pub fn new_journaled(
        cc: &eframe::CreationContext<'_>,
        file: Option<PathBuf>,
        dialogs: Box<dyn FileDialogs>,
        journal: Option<PathBuf>,
    ) -> Self {
        let mut app = Self::new(cc, None, dialogs);
        let seed = crate::editor::lesson::progress::run_seed();
        app.run(Command::Lifecycle(Lifecycle::DrawLessonSeed(seed)));
        signals::set_context(&cc.egui_ctx);
        let wanted = cc
            .storage
            .and_then(|s| eframe::get_value::<bool>(s, JOURNAL_KEY))
            .unwrap_or(true);
        if let Some(dir) = journal.filter(|_| wanted) {
            app.run(Command::Lifecycle(Lifecycle::StartJournal(dir)));
        }
        app.journal_at_start = app.editor.journal_wanted();
        if let Some(path) = file {
            app.run(Command::File(FileCommand::OpenPath(path)));
        }
        app
    }

    /// The editor on a document, without eframe (tests and benches).
    pub fn with_document(doc: Document, dialogs: Box<dyn FileDialogs>) -> Self {
        Self::with_editor(Editor::new(doc), dialogs)
    }

    /// The app on an editor already set up (progress, recent files), without eframe.
    pub fn with_editor(editor: Editor, dialogs: Box<dyn FileDialogs>) -> Self {
        Self {
            editor,
            dialogs,
            hierarchy: Default::default(),
            inspector: Default::default(),
            lesson_panel: Default::default(),
            viewport: Default::default(),
            windows: Default::default(),
            figure_window: Default::default(),
            generate_window: Default::default(),
            timeline: Default::default(),
            last_recomputed: 0,
            shown_title: String::new(),
            viewport_commands: Vec::new(),
            journal_at_start: false,
            panel_rects: Default::default(),
            move_to: Default::default(),
            registers: Default::default(),
            announcements: Default::default(),
            look: None,
            keys: Default::default(),
            keys_held: false,
        }
    }

    /// The interface scale and theme remembered from the last run.
    fn restore_look(&mut self, storage: Option<&dyn eframe::Storage>) {
        let scale = storage.and_then(|s| eframe::get_value::<f32>(s, UI_SCALE_KEY));
        if let Some(scale) = scale {
            self.run(Command::View(ViewCommand::SetUiScale(scale)));
        }
        let high_contrast = storage.and_then(|s| eframe::get_value::<bool>(s, HIGH_CONTRAST_KEY));
        if high_contrast == Some(true) {
            self.run(Command::View(ViewCommand::SetHighContrast(true)));
        }
    }

    /// The editing session (read-only: change it with [`GraftApp::run`]).
    pub fn editor(&self) -> &Editor {
        &self.editor
    }

    /// Scenes with at least this many nodes save and generate on a worker (tests set 0).
    #[doc(hidden)]
    pub fn set_background_save_nodes(&mut self, nodes: usize) {
        self.run(Command::Lifecycle(Lifecycle::BackgroundSaveNodes(nodes)));
    }

    /// Files at least this big open on a worker (tests set 0).
    #[doc(hidden)]
    pub fn set_background_bytes(&mut self, bytes: u64) {
        self.run(Command::Lifecycle(Lifecycle::BackgroundBytes(bytes)));
    }

    /// The open document.
    pub fn doc(&self) -> &Document {
        self.editor.doc()
    }

    /// The open scene.
    pub fn scene(&self) -> &Scene {
        self.editor.doc().scene()
    }

    /// Selected nodes; the last one is the primary selection.
    pub fn selection(&self) -> &[NodeId] {
        self.editor.selection()
    }

    /// Apply a command and carry out what it asks of the UI. A refusal is already shown to the
    /// person (status bar and error window); nothing else happens.
    pub fn run(&mut self, command: Command) {
        let Ok(outcome) = self.editor.apply(command) else {
            return;
        };
        self.carry_out(outcome);
    }

    /// Do what an outcome asks of the UI.
    fn carry_out(&mut self, outcome: crate::editor::Outcome) {
        for effect in outcome.effects {
            match effect {
                Effect::StartRename(id) => {
                    self.hierarchy.start_rename(id, self.editor.doc().scene())
                }
                Effect::Frame(ids) => self.viewport.frame(&ids),
                Effect::FrameWithPoints(framed) => self.viewport.frame_with_points(framed),
                Effect::FrameAllNextFrame => self.viewport.frame_on_next_frame(),
                Effect::ShowDialog(kind) => self.dialogs.request(kind),
                Effect::CancelClose => self
                    .viewport_commands
                    .push(egui::ViewportCommand::CancelClose),
                Effect::CloseWindow => self.viewport_commands.push(egui::ViewportCommand::Close),
                Effect::OpenWindow(path) => {
                    if let Err(why) = windows::open_window(&path) {
                        self.run(Command::Window(WindowCommand::Refused(why)));
                    }
                }
                Effect::SceneReplaced => {
                    self.hierarchy = Default::default();
                    self.viewport.forget_textures();
                }
            }
        }
    }

    /// The whole frame: menus, panels, windows, shortcuts (eframe calls it; benches call it headless).
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.end_if_terminated();
        if self.keys_held {
            ctx.request_repaint();
        }
        let tick = self.editor.tick(ctx.input(|i| i.stable_dt));
        self.carry_out(tick.outcome);
        if let Some(after) = tick.repaint_after {
            ctx.request_repaint_after(after);
        }
        self.last_recomputed = tick.recomputed;
        self.registers.start_frame();
        self.panels(ui);
        self.apply_sent();
        // Windows after the commands: a window opened this frame shows on this frame.
        self.windows(&ctx);
        self.apply_sent();
        self.end_frame(&ctx);
    }

    /// Apply the commands the panels sent ([`frame::CommandSender`]), in the order sent, each
    /// as [`GraftApp::run`] does: the one place a frame's panels change the session.
    fn apply_sent(&mut self) {
        let mut commands = self.registers.take_commands();
        if std::mem::take(&mut self.hierarchy.took_file_drop) {
            // Dropped on a row: instanced there, not opened.
            commands.retain(|c| !matches!(c, Command::File(FileCommand::OpenPath(_))));
        }
        for command in commands {
            self.run(command);
        }
    }

    /// A logout or `kill` arrived: end now, no prompt; unsaved work stays in the journal.
    fn end_if_terminated(&mut self) {
        if signals::terminated() {
            self.run(Command::Lifecycle(Lifecycle::EndOnSignal));
            std::process::exit(0);
        }
    }

    /// True when the window may close (nothing unsaved, or the person said so).
    pub fn may_close(&self) -> bool {
        self.editor.may_close()
    }
}

impl eframe::App for GraftApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    /// One key press a frame: the others wait for the next ([`key_queue`]).
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.keys_held = (self.keys).one_key_per_frame(raw_input, ctx.text_edit_focused());
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, RECENT_KEY, &self.editor.recent().to_vec());
        eframe::set_value(storage, GODOT3_KEY, &self.editor.godot3_export());
        eframe::set_value(storage, GODOT_FLATTEN_KEY, &self.editor.godot_flatten());
        eframe::set_value(storage, GODOT_PPU_KEY, &self.editor.godot_pixels_per_unit());
        eframe::set_value(storage, UI_SCALE_KEY, &self.editor.ui_scale());
        eframe::set_value(storage, HIGH_CONTRAST_KEY, &self.editor.high_contrast());
        eframe::set_value(
            storage,
            LESSONS_KEY,
            &self.editor.lesson_progress().to_text(),
        );
        // Stored only when changed in this run: `--no-journal` does not turn the setting off.
        if self.editor.journal_wanted() != self.journal_at_start {
            eframe::set_value(storage, JOURNAL_KEY, &self.editor.journal_wanted());
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean end: the journal goes (or is set aside when changes were discarded).
        self.run(Command::Lifecycle(Lifecycle::EndJournal));
    }
}

/// The window's icon: the 256 px hicolor icon the package installs (packaging/make-icons.sh
/// draws it with `graft figure` from packaging/icon/graft-icon.ron).
const WINDOW_ICON: &[u8] =
    include_bytes!("../../packaging/icons/hicolor/256x256/apps/io.github.graft.Graft.png");

/// The window's viewport: size, title, the application id (so the desktop entry, the taskbar
/// and the window match, under X11 and Wayland) and the icon.
fn window_viewport() -> egui::ViewportBuilder {
    let viewport = egui::ViewportBuilder::default()
        .with_inner_size([1280.0, 800.0])
        .with_title("graft")
        .with_app_id(crate::APP_ID);
    match eframe::icon_data::from_png_bytes(WINDOW_ICON) {
        Ok(icon) => viewport.with_icon(icon),
        Err(_) => viewport,
    }
}

/// Open the editor window. Tries wgpu first, then glow, before giving up with a message. A
/// file opened from the file manager starts its own process: a running graft simply gets a
/// second window.
pub fn run(file: Option<PathBuf>, journal: bool) -> Result<(), String> {
    let journal_dir = journal
        .then(crate::editor::session::journal_folder::journal_dir)
        .flatten();
    if let Some(dir) = &journal_dir {
        install_panic_report(dir.clone());
    }
    signals::install();
    let mut last_error = String::new();
    for renderer in [eframe::Renderer::Wgpu, eframe::Renderer::Glow] {
        let options = eframe::NativeOptions {
            renderer,
            viewport: window_viewport(),
            // The app id would move eframe's storage; keep the recent files where they were.
            persistence_path: eframe::storage_dir("graft").map(|d| d.join("app.ron")),
            ..Default::default()
        };
        let file = file.clone();
        let journal_dir = journal_dir.clone();
        let result = eframe::run_native(
            "graft",
            options,
            Box::new(move |cc| {
                Ok(Box::new(GraftApp::new_journaled(
                    cc,
                    file,
                    Box::new(dialogs::NativeDialogs::default()),
                    journal_dir.clone(),
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

/// On a panic anywhere in the window, write its message and place into the journal folder
/// (the journal itself is already on disk), where the next start shows it; then panic as usual.
fn install_panic_report(dir: PathBuf) {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into());
        let file = info.location().map_or("", |l| l.file());
        if signals::is_display_lost(file, &message) {
            default(info);
            return;
        }
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        crate::editor::session::journal::write_panic_report(
            &dir,
            &format!("panic{place}: {message}"),
            None,
        );
        default(info);
    }));
}
