//! The menu bar and the keyboard, both generated from the command table.

use crate::editor::session::Editor;
use crate::editor::session::command::{Command, EditCommand, FileCommand};
use crate::editor::table::{CommandSpec, MENUS, Shortcut, command_table};
use crate::editor::vocabulary::CommandId;
use egui::{Key, KeyboardShortcut, Modifiers};

/// An egui key combination for a table shortcut (None if egui has no key of that name, which a
/// test rules out).
pub fn egui_shortcut(shortcut: &Shortcut) -> Option<KeyboardShortcut> {
    let key = Key::from_name(shortcut.key)?;
    let mut modifiers = Modifiers::NONE;
    if shortcut.command {
        modifiers |= Modifiers::COMMAND;
    }
    if shortcut.shift {
        modifiers |= Modifiers::SHIFT;
    }
    if shortcut.alt {
        modifiers |= Modifiers::ALT;
    }
    Some(KeyboardShortcut::new(modifiers, key))
}

/// The commands whose shortcuts were pressed this frame. While a text field has the keyboard
/// only the global ones (Save, Open, the palette, …) count, so typing never runs a command.
/// Shortcuts with more modifiers are tried first, so Ctrl+Shift+Z is not taken for Ctrl+Z.
pub fn shortcuts(ctx: &egui::Context, editor: &Editor) -> Vec<Command> {
    let typing = ctx.text_edit_focused();
    let mut keyed: Vec<(KeyboardShortcut, &CommandSpec)> = command_table()
        .iter()
        .filter(|spec| spec.global || !typing)
        .flat_map(|spec| {
            spec.shortcuts
                .iter()
                .filter_map(move |s| egui_shortcut(s).map(|k| (k, spec)))
        })
        .collect();
    keyed.sort_by_key(|(k, _)| {
        std::cmp::Reverse(
            k.modifiers.shift as u8 + k.modifiers.command as u8 + k.modifiers.alt as u8,
        )
    });
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        for (shortcut, spec) in keyed {
            if i.consume_shortcut(&shortcut) && (spec.enabled)(editor) {
                out.push(spec.command.clone());
            }
        }
    });
    // Copy and paste arrive as events, not key presses, on most platforms.
    if !typing {
        ctx.input(|i| {
            for event in &i.events {
                match event {
                    egui::Event::Copy => out.push(Command::Edit(EditCommand::Copy)),
                    egui::Event::Paste(_) => out.push(Command::Edit(EditCommand::Paste)),
                    _ => {}
                }
            }
        });
    }
    out
}

/// The label a menu shows for an entry: Undo and Redo name the step they would take.
fn menu_label(spec: &CommandSpec, editor: &Editor) -> String {
    let history = editor.doc().history();
    match spec.id {
        CommandId::EditUndo => history
            .undo_label()
            .map_or_else(|| spec.label.to_string(), |l| format!("Undo {l}")),
        CommandId::EditRedo => history
            .redo_label()
            .map_or_else(|| spec.label.to_string(), |l| format!("Redo {l}")),
        _ => spec.label.to_string(),
    }
}

/// One menu entry: a button (or a check mark for toggles) with its shortcut and tooltip.
fn entry(ui: &mut egui::Ui, spec: &CommandSpec, editor: &Editor, out: &mut Vec<Command>) {
    let shortcut = spec
        .shortcuts
        .first()
        .map(Shortcut::text)
        .unwrap_or_default();
    let name = menu_label(spec, editor);
    let checked = spec.checked.map(|checked| checked(editor));
    let label = match checked {
        Some(on) => format!("{} {name}", if on { "☑" } else { "☐" }),
        None => name.clone(),
    };
    let enabled = (spec.enabled)(editor);
    let response = ui
        .add_enabled(enabled, egui::Button::new(label).shortcut_text(shortcut))
        .on_hover_text(spec.tooltip);
    if let Some(on) = checked {
        // A check item to a screen reader ("Names, check menu item, checked"), not a button
        // named with a glyph.
        crate::app::a11y::check_item(ui, &response, &name, on);
    }
    super::ui_targets::menu_item(ui, spec.menu, spec.label, &response);
    if response.clicked() {
        out.push(spec.command.clone());
        if spec.checked.is_none() {
            ui.close();
        }
    }
}

/// The menu bar: every table entry under its menu (in its submenu, if it has one), and
/// File ▸ Open Recent.
pub fn menus(ui: &mut egui::Ui, editor: &Editor) -> Vec<Command> {
    let mut out = Vec::new();
    crate::app::a11y::name_menus(ui, "Main menu");
    for menu in MENUS {
        let opened = ui.menu_button(menu, |ui| menu_items(ui, menu, editor, &mut out));
        super::ui_targets::register(ui, super::ui_targets::Key::Menu(menu), &opened.response);
    }
    out
}

/// One menu's entries: each submenu where its first entry would be, holding all of its own.
fn menu_items(ui: &mut egui::Ui, menu: &'static str, editor: &Editor, out: &mut Vec<Command>) {
    let specs: Vec<&CommandSpec> = command_table()
        .iter()
        .filter(|s| s.menu == Some(menu))
        .collect();
    let mut drawn: Vec<&str> = Vec::new();
    for spec in &specs {
        if spec.submenu.is_some_and(|s| drawn.contains(&s)) {
            continue;
        }
        if spec.separator_before {
            ui.separator();
        }
        let Some(submenu) = spec.submenu else {
            entry(ui, spec, editor, out);
            if spec.id == CommandId::FileOpen {
                recent_menu(ui, editor, out);
            }
            continue;
        };
        drawn.push(submenu);
        let opened = ui.menu_button(submenu, |ui| {
            let inside = specs.iter().filter(|s| s.submenu == Some(submenu));
            for (k, spec) in inside.enumerate() {
                if k > 0 && spec.separator_before {
                    ui.separator();
                }
                entry(ui, spec, editor, out);
            }
        });
        let key = super::ui_targets::Key::Submenu(menu, submenu);
        super::ui_targets::register(ui, key, &opened.response);
    }
}

fn recent_menu(ui: &mut egui::Ui, editor: &Editor, out: &mut Vec<Command>) {
    ui.menu_button("Open Recent", |ui| {
        if editor.recent().is_empty() {
            ui.label("(none yet)");
        }
        for path in editor.recent() {
            if ui.button(path.display().to_string()).clicked() {
                out.push(Command::File(FileCommand::OpenPath(path.clone())));
            }
        }
    });
}
