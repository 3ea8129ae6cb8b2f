//! The command table: every command is reachable (a menu of the menu bar, a shortcut or a
//! palette name), no two commands share a shortcut, Help lists every shortcut, and the palette
//! finds commands by fuzzy typing. No egui.
//!
//! The reachability rule is a function ([`reachability_problems`]) run on the real table and on
//! made-up entries, so the test that it rejects an unreachable command is part of the suite.
//! Help is checked against a list written out here and against the README, not against the
//! table it is generated from: a shortcut dropped from the table (or from Help) fails it.

use graft::editor::gesture_table::{GESTURES, gestures_markdown};
use graft::editor::session::command::{Command, SelectionCommand, WindowCommand};
use graft::editor::table::{
    CommandSpec, MENUS, Shortcut, command_table, find_command, fuzzy_score, help_rows,
    palette_matches,
};
use graft::editor::{Editor, session::Message};
use graft::model::document::Document;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

fn sword_editor() -> Editor {
    let scene = graft::model::file::load(Path::new("scenes/sword.ron")).unwrap();
    Editor::new(Document::untitled(scene))
}

/// A palette name: a label with something to type (the palette matches labels and names).
fn has_palette_name(spec: &CommandSpec) -> bool {
    spec.label.chars().any(char::is_alphanumeric)
}

/// Why a person could not invoke `spec`, if they could not. An entry with a menu must name a
/// menu of the menu bar ([`MENUS`]: the menus show only those); an entry without one needs a
/// shortcut (with a key) or a palette name.
fn unreachable(spec: &CommandSpec) -> Option<String> {
    match spec.menu {
        Some(menu) if !MENUS.contains(&menu) => Some(format!(
            "{}: its menu {menu:?} is not in the menu bar",
            spec.name
        )),
        Some(_) => None,
        None => {
            let has_shortcut = spec.shortcuts.iter().any(|s| !s.key.is_empty());
            (!has_shortcut && !has_palette_name(spec)).then(|| {
                format!(
                    "{}: no menu, no shortcut and no palette name: nobody can run it",
                    spec.name
                )
            })
        }
    }
}

/// Every reachability problem of a table.
fn reachability_problems(table: &[CommandSpec]) -> Vec<String> {
    table.iter().filter_map(unreachable).collect()
}

#[test]
fn every_command_is_reachable_and_names_are_unique() {
    let problems = reachability_problems(command_table());
    assert!(problems.is_empty(), "{problems:#?}");
    let mut names = HashSet::new();
    for spec in command_table() {
        assert!(names.insert(spec.name), "{} twice", spec.name);
        assert!(!spec.tooltip.is_empty(), "{} has a tooltip", spec.name);
    }
    // The palette really offers what the rule above counts on: every command enabled here is
    // found by typing its label.
    let mut editor = sword_editor();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            graft::model::scene::NodeId(3),
        ])))
        .unwrap();
    let mut offered = 0;
    for spec in command_table().iter().filter(|s| (s.enabled)(&editor)) {
        assert!(
            palette_matches(&editor, spec.label)
                .iter()
                .any(|s| s.name == spec.name),
            "the palette does not find {} by its label {:?}",
            spec.name,
            spec.label
        );
        offered += 1;
    }
    assert!(offered > 20, "only {offered} commands enabled");
}

/// The rule above can fail: entries nobody can invoke are rejected, reachable ones are not.
#[test]
fn the_reachability_check_rejects_a_command_nobody_can_invoke() {
    let base = find_command(graft::editor::vocabulary::CommandId::EditDuplicate)
        .unwrap()
        .clone();
    assert_eq!(unreachable(&base), None, "in the Edit menu");
    let palette_only = CommandSpec {
        menu: None,
        shortcuts: vec![],
        ..base.clone()
    };
    assert_eq!(unreachable(&palette_only), None, "the palette finds it");
    let shortcut_only = CommandSpec {
        menu: None,
        label: "",
        ..base.clone()
    };
    assert_eq!(unreachable(&shortcut_only), None, "Ctrl+D runs it");

    let nowhere = CommandSpec {
        name: "test.nowhere",
        label: "",
        menu: None,
        shortcuts: vec![],
        ..base.clone()
    };
    let untypable = CommandSpec {
        name: "test.untypable",
        label: "…",
        ..nowhere.clone()
    };
    let keyless = CommandSpec {
        name: "test.keyless",
        shortcuts: vec![Shortcut {
            command: true,
            shift: false,
            alt: false,
            key: "",
        }],
        ..nowhere.clone()
    };
    let bad_menu = CommandSpec {
        name: "test.bad_menu",
        menu: Some("Tools"),
        ..base.clone()
    };
    for spec in [&nowhere, &untypable, &keyless, &bad_menu] {
        assert!(unreachable(spec).is_some(), "{} is rejected", spec.name);
    }
    // One bad entry among the real ones is found and named.
    let mut table = command_table().to_vec();
    table.insert(7, nowhere);
    let problems = reachability_problems(&table);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with("test.nowhere:"), "{problems:#?}");
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
    for gesture in GESTURES {
        for key in gesture.input.split(" / ") {
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
        .apply(Command::Selection(SelectionCommand::Select(vec![
            graft::model::scene::NodeId(3),
        ])))
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
        .apply(Command::Window(WindowCommand::Refused(
            "Cannot drop here".into(),
        )))
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
    editor
        .apply(Command::Window(WindowCommand::DismissError))
        .unwrap();
    assert_eq!(editor.error(), None);
    assert!(*editor.doc().scene() == before);
}

/// What Help ▸ Keyboard shortcuts must show, written out by hand rather than derived from the
/// command table: (keys, what). A shortcut dropped from the table, a row Help leaves out or
/// adds, or a relabelled command fails the comparison below. Add a row here when a command
/// gets a shortcut.
const EXPECTED_COMMAND_ROWS: [(&str, &str); 45] = [
    ("Ctrl+N", "New"),
    ("Ctrl+O", "Open"),
    ("Ctrl+S", "Save"),
    ("Ctrl+Shift+S", "Save As"),
    ("Ctrl+I", "Import"),
    ("Ctrl+Shift+E", "Export as Godot scene"),
    ("Ctrl+Shift+F", "Export figure"),
    ("Ctrl+Q", "Quit"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    ("Ctrl+C", "Copy"),
    ("Ctrl+V", "Paste as child"),
    ("Ctrl+D", "Duplicate"),
    ("Ctrl+A", "Select all"),
    ("F2", "Rename"),
    ("Del", "Delete"),
    ("Ctrl+H", "History"),
    ("Ctrl+Shift+N", "Add node"),
    ("Ctrl+Shift+A", "Add child"),
    ("Ctrl+G", "Create parent for selection"),
    ("Ctrl+Shift+G", "Unparent (to root)"),
    ("Ctrl+Shift+M", "Move to"),
    ("Alt+Up", "Move up"),
    ("Alt+Down", "Move down"),
    ("F", "Frame selection"),
    ("Home", "Frame all"),
    ("W", "Move tool"),
    ("E", "Rotate tool"),
    ("R", "Scale tool"),
    ("X", "Handles along world axes"),
    ("1", "View from the world"),
    ("2", "View from the selection's parent"),
    ("3", "View from the selection"),
    ("G", "Local grid of the selection"),
    ("Shift+G", "Parent's grid"),
    ("P", "Place probes"),
    ("F6", "Focus next panel"),
    ("Shift+F6", "Focus previous panel"),
    ("Ctrl+= / Ctrl++", "Larger interface"),
    ("Ctrl+-", "Smaller interface"),
    ("Ctrl+0", "Interface at 100 %"),
    ("Ctrl+Space", "Play / pause"),
    ("K", "Key selection"),
    ("T", "World-space trails"),
    ("Ctrl+Shift+P / F1", "Command palette"),
];

/// The mouse gestures and panel keys Help lists besides the commands (their wording may
/// change; the keys are what people look up).
const EXPECTED_GESTURE_KEYS: [&str; 32] = [
    "Click",
    "Arrow keys / Shift+arrow keys",
    "Ctrl+click / Shift+click",
    "Drag a node",
    "Drag on empty space",
    "Drag a handle",
    "Ctrl while dragging",
    "Mouse wheel / pinch",
    "Middle-drag / Space+drag",
    "Click in probe mode",
    "Drag a probe's pin",
    "Click a row",
    "Ctrl+click a row / Shift+click a row",
    "Drag a row onto a row",
    "Drag a row between rows",
    "Shift while dropping",
    "Drop a scene file on a row",
    "Double-click a row",
    "Up / Down",
    "Left / Right",
    "Click the breadcrumb",
    "Drag a number",
    "Click a number",
    "Enter / Esc",
    "Click the ruler / drag the ruler",
    "Click a key",
    "Shift+click a key / Ctrl+click a key",
    "Drag on empty rows",
    "Drag a selected key",
    "Right-click a key",
    "Ctrl+wheel",
    "Shift+wheel",
];

/// Help's rows against the hand-written list: the same rows, no more, no fewer. This fails if
/// the table loses a shortcut or Help stops listing one, which comparing Help with the table it
/// is generated from could not notice.
#[test]
fn help_shows_exactly_the_expected_shortcuts_and_gestures() {
    let rows = help_rows();
    let count = |pairs: &mut dyn Iterator<Item = (String, String)>| {
        let mut m = BTreeMap::<(String, String), usize>::new();
        pairs.for_each(|p| *m.entry(p).or_default() += 1);
        m
    };
    let gestures: HashSet<&str> = EXPECTED_GESTURE_KEYS.into_iter().collect();
    let got = count(&mut rows.iter().map(|(k, what)| {
        // Gesture rows are compared by their keys only.
        let what = if gestures.contains(k.as_str()) {
            ""
        } else {
            what
        };
        (k.clone(), what.to_string())
    }));
    let want = count(
        &mut EXPECTED_COMMAND_ROWS
            .iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .chain(
                EXPECTED_GESTURE_KEYS
                    .iter()
                    .map(|k| (k.to_string(), String::new())),
            ),
    );
    let missing: Vec<_> = want
        .keys()
        .filter(|k| got.get(*k) != want.get(*k))
        .collect();
    let extra: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "Help differs from the expected list.\nmissing or doubled: {missing:#?}\nunexpected: {extra:#?}"
    );
    assert_eq!(
        rows.len(),
        EXPECTED_COMMAND_ROWS.len() + EXPECTED_GESTURE_KEYS.len()
    );
    assert!(
        rows.iter().all(|(_, what)| !what.is_empty()),
        "every row says what it does"
    );
}

/// The key combinations a text names ("Ctrl+Shift+E", "Shift+G"): tokens of modifiers and a
/// key that starts with a capital or a digit ("Ctrl+wheel" and "Space+drag" are gestures).
fn named_shortcuts(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '+'))
        .filter_map(|token| {
            let token = token.trim_end_matches('+');
            let parts: Vec<&str> = token.split('+').collect();
            let (key, modifiers) = parts.split_last()?;
            let is_key = key
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            (!modifiers.is_empty()
                && modifiers.iter().all(|m| *m == "Ctrl" || *m == "Shift")
                && is_key)
                .then(|| token.to_string())
        })
        .collect()
}

/// Every key combination the README promises is one Help lists: a second source, written for
/// people, that the table does not generate.
#[test]
fn help_lists_every_shortcut_the_readme_names() {
    assert_eq!(
        named_shortcuts("Ctrl+Shift+E, Ctrl+wheel, Space+drag, (Shift+G) Ctrl+click F2"),
        ["Ctrl+Shift+E", "Shift+G"]
    );
    let readme = std::fs::read_to_string("README.md").unwrap();
    let named = named_shortcuts(&readme);
    assert!(named.len() >= 8, "the README names shortcuts: {named:?}");
    let keys: HashSet<String> = help_rows()
        .iter()
        .flat_map(|(keys, _)| keys.split(" / ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    let missing: Vec<&String> = named.iter().filter(|s| !keys.contains(*s)).collect();
    assert!(
        missing.is_empty(),
        "README names shortcuts Help lacks: {missing:?}"
    );
}

/// Help is generated from the table: every shortcut of every entry is in it (with the count
/// check above, Help is the table's shortcuts, the gestures and nothing else).
#[test]
fn help_lists_every_shortcut_of_the_table_and_every_gesture() {
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
    for gesture in GESTURES {
        assert!(
            rows.iter()
                .any(|(k, what)| k == gesture.input && what == gesture.does),
            "Help lacks {}",
            gesture.input
        );
    }
}

/// README's list of gestures is the gesture table's, word for word: a gesture added to the
/// table and not to README (or the other way round) fails here.
#[test]
fn readme_lists_the_gesture_table() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let (begin, end) = ("<!-- gestures:begin -->\n", "<!-- gestures:end -->");
    let start = readme.find(begin).expect("README marks its gesture list") + begin.len();
    let stop = readme[start..].find(end).expect("the list's end marker") + start;
    let expected = gestures_markdown();
    assert_eq!(
        &readme[start..stop],
        expected,
        "README's gesture list differs from the gesture table; it should read:\n{expected}"
    );
}

/// The table's entries are plain commands: those that act on "the selected node" name it as a
/// place the applier resolves (no placeholder id patched in by the caller).
#[test]
fn entries_that_act_on_the_selection_are_resolved_by_the_applier() {
    use graft::editor::vocabulary::CommandId;
    use graft::model::scene::NodeId;
    let run = |editor: &mut Editor, id: CommandId| {
        let command = find_command(id).unwrap().command.clone();
        editor.apply(command)
    };
    let mut editor = sword_editor();
    let refused = run(&mut editor, CommandId::NodeAddChild).unwrap_err();
    assert!(
        refused.to_string().contains("select a node first"),
        "{refused}"
    );
    let hand = NodeId(3);
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hand])))
        .unwrap();
    let before = editor.doc().scene().len();
    run(&mut editor, CommandId::NodeAddChild).unwrap();
    let scene = editor.doc().scene();
    let added = editor.primary().unwrap();
    assert_eq!(scene.len(), before + 1);
    assert_eq!(
        scene.parent(added).unwrap(),
        Some(hand),
        "under the selection"
    );
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![hand])))
        .unwrap();
    run(&mut editor, CommandId::NodeAddSibling).unwrap();
    let sibling = editor.primary().unwrap();
    let scene = editor.doc().scene();
    assert_eq!(scene.parent(sibling).unwrap(), scene.parent(hand).unwrap());
    assert_eq!(
        scene.sibling_index(sibling).unwrap(),
        scene.sibling_index(hand).unwrap() + 1
    );
    // A toggle the table runs as is: on, then off.
    let contrast = editor.high_contrast();
    run(&mut editor, CommandId::ViewHighContrast).unwrap();
    assert_eq!(editor.high_contrast(), !contrast);
    run(&mut editor, CommandId::ViewHighContrast).unwrap();
    assert_eq!(editor.high_contrast(), contrast);
}
