//! The command table and the vocabulary lessons read agree entry for entry: the same names in
//! the same order, each with the vocabulary's label and menu, so a lesson's `point: menu …`
//! is checked against the menu bar the window builds from the table.

use graft::editor::lesson::parse::menu_entry;
use graft::editor::table::{MENUS, command_table, find_command};
use graft::editor::vocabulary::{COMMAND_WORDS, command_named, command_words, menu_items};
use std::collections::BTreeSet;

#[test]
fn table_and_vocabulary_name_the_same_commands_in_the_same_order() {
    let table: Vec<&str> = command_table().iter().map(|spec| spec.name).collect();
    let words: Vec<&str> = COMMAND_WORDS.iter().map(|words| words.name).collect();
    let only_table: Vec<&&str> = table.iter().filter(|n| !words.contains(n)).collect();
    let only_words: Vec<&&str> = words.iter().filter(|n| !table.contains(n)).collect();
    assert!(
        only_table.is_empty() && only_words.is_empty(),
        "in the table only: {only_table:?}; in the vocabulary only: {only_words:?}"
    );
    assert_eq!(table, words, "the same commands, in the same order");
    let unique: BTreeSet<&str> = words.iter().copied().collect();
    assert_eq!(unique.len(), words.len(), "every name once");
    // Every id is its words' index, and names the table entry of that name.
    for (k, (words, spec)) in COMMAND_WORDS.iter().zip(command_table()).enumerate() {
        assert_eq!(words.id as usize, k, "{}", words.name);
        assert_eq!(spec.id, words.id, "{}", words.name);
        assert_eq!(command_named(words.name), Some(words.id));
        assert_eq!(find_command(words.id).map(|s| s.name), Some(words.name));
    }
    assert_eq!(
        command_named("edit.duplicat"),
        None,
        "a misspelt name is no command"
    );
}

#[test]
fn every_table_entry_shows_its_vocabulary_label_in_its_vocabulary_menu() {
    for spec in command_table() {
        let words = command_words(spec.id);
        assert_eq!(
            (spec.label, spec.menu),
            (words.label, words.menu),
            "{}",
            spec.name
        );
    }
}

#[test]
fn every_vocabulary_menu_is_a_menu_of_the_bar_and_every_menu_has_items() {
    for words in COMMAND_WORDS {
        if let Some(menu) = words.menu {
            assert!(MENUS.contains(&menu), "{} sits in `{menu}`", words.name);
        }
    }
    for menu in MENUS {
        assert!(
            menu_items(menu).next().is_some(),
            "the {menu} menu is empty"
        );
    }
}

#[test]
fn a_lesson_can_point_at_every_menu_item_the_window_shows_and_nothing_else() {
    for spec in command_table() {
        let Some(menu) = spec.menu else { continue };
        assert_eq!(
            menu_entry(menu, Some(spec.label)),
            Ok((menu, Some(spec.label))),
            "{}",
            spec.name
        );
        let bare = spec.label.trim_end_matches('…');
        assert_eq!(menu_entry(menu, Some(bare)), Ok((menu, Some(spec.label))));
    }
    let palette_only = command_table().iter().find(|spec| spec.menu.is_none());
    let palette_only = palette_only.expect("the table has palette-only commands");
    for menu in MENUS {
        let refused = menu_entry(menu, Some(palette_only.label));
        assert!(refused.is_err(), "{menu} > {} accepted", palette_only.label);
    }
    let unknown = menu_entry("Window", None).expect_err("no Window menu");
    assert!(unknown.contains(&MENUS.join(", ")), "{unknown}");
}
