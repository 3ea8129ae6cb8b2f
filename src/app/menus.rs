//! The menu bar and the keyboard, both generated from the command table.

use super::frame::FrameContext;
use super::ui_targets::Key as Target;
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
pub fn shortcuts(ctx: &egui::Context, fx: &FrameContext) {
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
    ctx.input_mut(|i| {
        for (shortcut, spec) in keyed {
            if i.consume_shortcut(&shortcut) && fx.enabled(spec) {
                fx.send(spec.command.clone());
            }
        }
    });
    // Copy and paste arrive as events, not key presses, on most platforms.
    if !typing {
        ctx.input(|i| {
            for event in &i.events {
                match event {
                    egui::Event::Copy => fx.send(Command::Edit(EditCommand::Copy)),
                    egui::Event::Paste(_) => fx.send(Command::Edit(EditCommand::Paste)),
                    _ => {}
                }
            }
        });
    }
}

/// The label a menu shows for an entry: Undo and Redo name the step they would take.
fn menu_label(spec: &CommandSpec, fx: &FrameContext) -> String {
    let history = fx.doc.history();
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
fn entry(ui: &mut egui::Ui, spec: &CommandSpec, fx: &FrameContext) {
    let shortcut = spec
        .shortcuts
        .first()
        .map(Shortcut::text)
        .unwrap_or_default();
    let name = menu_label(spec, fx);
    let checked = fx.checked(spec);
    let label = match checked {
        Some(on) => format!("{} {name}", if on { "☑" } else { "☐" }),
        None => name.clone(),
    };
    let enabled = fx.enabled(spec);
    let response = ui
        .add_enabled(enabled, egui::Button::new(label).shortcut_text(shortcut))
        .on_hover_text(spec.tooltip);
    if let Some(on) = checked {
        // A check item to a screen reader ("Names, check menu item, checked"), not a button
        // named with a glyph.
        crate::app::a11y::check_item(ui, &response, &name, on);
    }
    fx.wiring
        .targets
        .menu_item(ui, spec.menu, spec.label, &response);
    if response.clicked() {
        fx.send(spec.command.clone());
        if spec.checked.is_none() {
            ui.close();
        }
    }
}

/// The menu bar: every table entry under its menu (in its submenu, if it has one), and
/// File ▸ Open Recent. Menus and their items register as lesson targets in `targets`.
pub fn menus(ui: &mut egui::Ui, fx: &FrameContext) {
    crate::app::a11y::name_menus(ui, "Main menu");
    for menu in MENUS {
        let opened = ui.menu_button(menu, |ui| menu_items(ui, menu, fx));
        (fx.wiring.targets).register(ui, Target::Menu(menu), &opened.response);
    }
}

/// One menu's entries: each submenu where its first entry would be, holding all of its own.
fn menu_items(ui: &mut egui::Ui, menu: &'static str, fx: &FrameContext) {
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
            entry(ui, spec, fx);
            if spec.id == CommandId::FileOpen {
                recent_menu(ui, fx);
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
                entry(ui, spec, fx);
            }
        });
        (fx.wiring.targets).register(ui, Target::Submenu(menu, submenu), &opened.response);
    }
}

fn recent_menu(ui: &mut egui::Ui, fx: &FrameContext) {
    ui.menu_button("Open Recent", |ui| {
        if fx.recent.is_empty() {
            ui.label("(none yet)");
        }
        for path in fx.recent {
            if ui.button(path.display().to_string()).clicked() {
                fx.send(Command::File(FileCommand::OpenPath(path.clone())));
            }
        }
    });
}
