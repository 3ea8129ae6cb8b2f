//! The command table: every command is reachable (menu or palette), no two commands share a
//! shortcut, Help lists every shortcut, and the palette finds commands by fuzzy typing. No egui.

use graft::editor::session::command::Command;
use graft::editor::table::{GESTURES, command_table, fuzzy_score, help_rows, palette_matches};
use graft::editor::{Editor, session::Message};
use graft::model::document::Document;
use std::collections::HashSet;
use std::path::Path;

fn sword_editor() -> Editor {
    let scene = graft::model::file::load(Path::new("scenes/sword.ron")).unwrap();
    Editor::new(Document::untitled(scene))
}

#[test]
fn every_command_is_in_a_menu_or_the_palette_and_names_are_unique() {
    let editor = sword_editor();
    let mut names = HashSet::new();
    for spec in command_table() {
        assert!(names.insert(spec.name), "{} twice", spec.name);
        let in_palette = palette_matches(&editor, spec.label)
            .iter()
            .any(|s| s.name == spec.name)
            || !(spec.enabled)(&editor);
        assert!(
            spec.menu.is_some() || in_palette,
            "{} is reachable neither from a menu nor from the palette",
            spec.name
        );
        assert!(!spec.tooltip.is_empty(), "{} has a tooltip", spec.name);
    }
}

#[test]
fn no_two_commands_share_a_shortcut_and_gestures_do_not_collide() {
    let mut seen = HashSet::new();
    for spec in command_table() {
        for s in &spec.shortcuts {
            assert!(
                seen.insert(s.text()),
                "{} is used twice ({})",
                s.text(),
                spec.name
            );
        }
    }
    for (keys, _) in GESTURES {
        for key in keys.split(" / ") {
            assert!(!seen.contains(key), "gesture {key} collides with a command");
        }
    }
}

#[test]
fn the_fuzzy_matcher_ranks_word_starts_and_runs_first() {
    assert!(fuzzy_score("dup", "Duplicate").is_some());
    assert!(fuzzy_score("dpl", "Duplicate").is_some());
    assert_eq!(fuzzy_score("xyz", "Duplicate"), None);
    assert!(fuzzy_score("dup", "Duplicate") > fuzzy_score("dup", "Delete update"));
    assert!(fuzzy_score("fs", "Frame selection") > fuzzy_score("fs", "Undo of a sfs"));
    let mut editor = sword_editor();
    editor
        .apply(Command::Select(vec![graft::model::scene::NodeId(3)]))
        .unwrap();
    let hits = palette_matches(&editor, "dup");
    assert_eq!(hits.first().map(|s| s.name), Some("edit.duplicate"));
    let hits = palette_matches(&editor, "fs");
    assert_eq!(hits.first().map(|s| s.name), Some("view.frame_selection"));
    // Disabled commands are not offered: nothing to undo yet.
    assert!(
        palette_matches(&editor, "undo")
            .iter()
            .all(|s| s.name != "edit.undo")
    );
    // Everything enabled is offered for an empty query.
    assert!(palette_matches(&editor, "").len() > 20);
}

#[test]
fn refused_commands_say_why_and_change_nothing() {
    let mut editor = sword_editor();
    let before = editor.doc().scene().clone();
    let error = editor
        .apply(Command::Refused("Cannot drop here".into()))
        .unwrap_err();
    assert_eq!(error.to_string(), "Cannot drop here");
    assert_eq!(
        editor.last_message(),
        Some(&Message {
            text: "Cannot drop here".into(),
            is_error: true
        })
    );
    assert_eq!(editor.error(), Some("Cannot drop here"));
    editor.apply(Command::DismissError).unwrap();
    assert_eq!(editor.error(), None);
    assert!(*editor.doc().scene() == before);
}

#[test]
fn help_lists_every_shortcut_and_gesture() {
    let rows = help_rows();
    for spec in command_table() {
        for s in &spec.shortcuts {
            assert!(
                rows.iter()
                    .any(|(keys, _)| keys.split(" / ").any(|k| k == s.text())),
                "Help lacks {} ({})",
                s.text(),
                spec.name
            );
        }
    }
    for (keys, _) in GESTURES {
        assert!(rows.iter().any(|(k, _)| k == keys));
    }
    for key in ["W", "E", "R", "Up / Down", "Ctrl+Shift+P / F1"] {
        assert!(
            rows.iter().any(|(k, _)| k == key || k.starts_with(key)),
            "Help lists {key}"
        );
    }
}
