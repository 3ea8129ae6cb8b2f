//! graft on the Linux accessibility bus (AT-SPI), read the way a screen reader reads it:
//! `tools/a11y/atspi_tree.py` starts a private desktop (Xvfb, a session D-Bus, the AT-SPI bus
//! with accessibility switched on), starts the debug graft on `scenes/sword.ron`, reads graft's
//! tree through python3-pyatspi, presses Ctrl+A then Up with xdotool and reads it again.
//!
//! Without the tools (python3-pyatspi, at-spi2-core, dbus, xvfb, xdotool) the test says
//! "skipped" and checks nothing, unless GRAFT_REQUIRE_ATSPI is set (`.ci/run` sets it when it
//! installed them).

mod peer_run;

use peer_run::PeerRun;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The whole run (desktop, graft, two reads) must end within this.
const LIMIT: Duration = Duration::from_secs(90);

/// A Python that has pyatspi (Debian's, not a pyenv or venv one without it).
fn python() -> Option<&'static str> {
    ["/usr/bin/python3", "python3"].into_iter().find(|py| {
        Command::new(py)
            .args(["-c", "import pyatspi"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn skip(why: &str) {
    assert!(
        std::env::var_os("GRAFT_REQUIRE_ATSPI").is_none(),
        "GRAFT_REQUIRE_ATSPI is set but {why}"
    );
    eprintln!(
        "skipped: {why} (apt-get install python3-pyatspi at-spi2-core dbus xvfb xdotool); \
         the accessibility tree is not checked"
    );
}

/// One private desktop at a time: two at once on a loaded machine let keys arrive before a
/// frame has acted on the previous one.
static ONE_DESKTOP: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// graft's accessibility tree on `scene` before and after `keys`, or None when the tools are
/// missing.
fn read_tree(scene: &Path, keys: &str) -> Option<Value> {
    let home = tempfile::tempdir().expect("a temporary home");
    read_tree_in(scene, keys, (home.path(), false))
}

/// As [`read_tree`], with `home` as the home folder (graft's recent files, settings and crash
/// journal are kept there between runs) and the journal on when `journal`.
fn read_tree_in(scene: &Path, keys: &str, (home, journal): (&Path, bool)) -> Option<Value> {
    let _one = ONE_DESKTOP.lock().unwrap_or_else(|e| e.into_inner());
    let Some(py) = python() else {
        skip("python3-pyatspi is not installed");
        return None;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut command = Command::new(py);
    command
        .arg(root.join("tools/a11y/atspi_tree.py"))
        .args(["run", "--timeout", "40", "--keys", keys, "--"])
        .arg(env!("CARGO_BIN_EXE_graft"))
        .arg(scene)
        .args((!journal).then_some("--no-journal"))
        // graft remembers recent files: keep them out of the real home.
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"));
    // Dropped on any way out, the run stops its desktop and graft.
    let started = Instant::now();
    let out = PeerRun::start(command).wait(LIMIT, "the accessibility reader");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) {
        skip(stderr.trim());
        return None;
    }
    eprintln!(
        "accessibility tree read in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "graft never appeared on the bus:\n{stderr}"
    );
    Some(serde_json::from_slice(&out.stdout).expect("the reader prints JSON"))
}

fn nodes(tree: &Value) -> &[Value] {
    tree.as_array().map_or(&[], |a| a.as_slice())
}

fn text<'a>(node: &'a Value, key: &str) -> &'a str {
    node[key].as_str().unwrap_or("")
}

fn has_state(node: &Value, state: &str) -> bool {
    nodes(&node["states"]).iter().any(|s| s == state)
}

/// The first node with this role and name.
fn find<'a>(tree: &'a [Value], role: &str, name: &str) -> &'a Value {
    tree.iter()
        .find(|n| text(n, "role") == role && text(n, "name") == name)
        .unwrap_or_else(|| panic!("no {role} named {name:?} in {}", outline(tree)))
}

/// The tree as indented "role 'name'" lines, for failure messages.
fn outline(tree: &[Value]) -> String {
    let line = |n: &Value| {
        let depth = n["depth"].as_u64().unwrap_or(0) as usize;
        format!(
            "{}{} {:?}",
            "  ".repeat(depth),
            text(n, "role"),
            text(n, "name")
        )
    };
    tree.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// The tree items right under the tree called "Scene hierarchy", in order.
fn rows(tree: &[Value]) -> Vec<&Value> {
    let hierarchy = find(tree, "tree", "Scene hierarchy");
    let path = format!("{}/", text(hierarchy, "path"));
    tree.iter()
        .filter(|n| text(n, "role") == "tree item" && text(n, "path").starts_with(&path))
        .collect()
}

const SWORD_ROWS: [&str; 5] = ["body", "arm", "hand", "sword", "scabbard"];

/// The window, the menu bar, the hierarchy rows and the keep-world check box as a screen
/// reader sees graft just opened on the sword scene.
fn check_opened(tree: &[Value]) {
    let app = &tree[0];
    assert_eq!(
        (text(app, "role"), text(app, "name")),
        ("application", "graft")
    );
    let frame = tree
        .iter()
        .find(|n| text(n, "role") == "frame" && n["depth"] == 1)
        .unwrap_or_else(|| panic!("no window under graft:\n{}", outline(tree)));
    assert_eq!(
        text(frame, "name"),
        "sword.ron — graft",
        "the window is named"
    );
    find(tree, "push button", "File");
    // The menu bar's inner row of menus is named too (egui leaves it a nameless "menu").
    find(tree, "menu", "Main menu");
    let names: Vec<&str> = rows(tree).iter().map(|n| text(n, "name")).collect();
    assert_eq!(
        names,
        SWORD_ROWS,
        "the hierarchy's rows:\n{}",
        outline(tree)
    );
    for row in rows(tree) {
        assert!(has_state(row, "selectable") && !has_state(row, "selected"));
    }
    let keep = find(tree, "check box", "Keep world transform");
    assert!(has_state(keep, "checkable") && has_state(keep, "checked"));
    check_rows_place(tree);
}

/// What each row of `scene` should say beyond its name, from `graft print --json`: its
/// name, then (position among its siblings from 1, number of siblings, level, whether it has
/// children).
fn places_in(scene: &Path) -> Vec<(String, (u64, u64, u64, bool))> {
    let out = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(["print", "--json"])
        .arg(scene)
        .output()
        .expect("graft print runs");
    let nodes: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let nodes = nodes.as_array().expect("a list of nodes");
    let parent_of = |n: &Value| n["parent"].as_u64();
    let level = |n: &Value| {
        let mut level = 1;
        let mut parent = parent_of(n);
        while let Some(p) = parent {
            level += 1;
            parent = nodes.iter().find(|m| m["id"] == p).and_then(parent_of);
        }
        level
    };
    let place = |n: &Value| {
        let siblings: Vec<&Value> = nodes
            .iter()
            .filter(|m| parent_of(m) == parent_of(n))
            .collect();
        let position = siblings
            .iter()
            .position(|m| m["id"] == n["id"])
            .unwrap_or(0);
        let children = nodes.iter().any(|m| parent_of(m) == n["id"].as_u64());
        (
            position as u64 + 1,
            siblings.len() as u64,
            level(n),
            children,
        )
    };
    nodes
        .iter()
        .map(|n| (text(n, "name").to_owned(), place(n)))
        .collect()
}

/// Each row of the sword scene says its place among its siblings ("posinset" and "setsize",
/// what Orca reads as "2 of 2"), its level as the AT-SPI attribute "level" and in its
/// description (Orca 43 reads a native row's level only from relations), and, when it has
/// children, the states expandable and expanded (graft's patched accesskit_atspi_common).
fn check_rows_place(tree: &[Value]) {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sword.ron");
    let wanted = places_in(&scene);
    assert_eq!(wanted.len(), 5);
    // The scabbard is the body's second child: not every row is "1 of 1".
    assert!(
        wanted
            .iter()
            .any(|(_, (at, of, _, _))| (*at, *of) == (2, 2))
    );
    let rows = rows(tree);
    for (row, (name, (at, of, level, children))) in rows.iter().zip(&wanted) {
        assert_eq!(text(row, "name"), name);
        let said = (
            row["posinset"].as_u64(),
            row["setsize"].as_u64(),
            row["level"].as_u64(),
            text(row, "description"),
        );
        let description = format!("level {level}");
        let want = (Some(*at), Some(*of), Some(*level), description.as_str());
        assert_eq!(
            said, want,
            "{name}: (posinset, setsize, level, description)"
        );
        // Every row is expanded when the scene opens.
        let states = (has_state(row, "expandable"), has_state(row, "expanded"));
        assert_eq!(
            states,
            (*children, *children),
            "{name}: (expandable, expanded)"
        );
    }
}

/// After Ctrl+A then Up (select all, then the row above the last): only the sword is selected
/// and the inspector shows it.
fn check_sword_selected(tree: &[Value]) {
    for row in rows(tree) {
        let selected = has_state(row, "selected");
        assert_eq!(selected, text(row, "name") == "sword", "{row}");
    }
    find(tree, "label", "parent: hand (id 3)");
}

/// The text fields, the two canvases and Play, each with a role and a name (they were unnamed
/// "unknown" objects, and Play was read with its glyph); no object is left "unknown", no
/// control's name starts with a glyph.
fn check_named_controls(tree: &[Value]) {
    for name in [
        "Filter rows by name",
        "sword, name",
        "Transform to paste, as text",
    ] {
        find(tree, "entry", name);
    }
    find(tree, "canvas", "Viewport: 5 nodes, selected: sword");
    let tracks = tree
        .iter()
        .find(|n| text(n, "role") == "canvas" && text(n, "name").starts_with("Keyframe tracks"));
    assert!(tracks.is_some(), "no timeline canvas in\n{}", outline(tree));
    find(tree, "push button", "Play");
    find(tree, "push button", "Copy local");
    find(tree, "check box", "Keep scale uniform");
    // No button or check box is read with a glyph before its name ("▶ Play", "📋 Copy local").
    let controls = ["push button", "toggle button", "check box"];
    for n in tree.iter().filter(|n| controls.contains(&text(n, "role"))) {
        let first = text(n, "name").chars().next();
        assert!(first.is_some_and(char::is_alphanumeric), "{n}");
    }
    let unknown: Vec<&Value> = tree
        .iter()
        .filter(|n| text(n, "role") == "unknown")
        .collect();
    assert!(unknown.is_empty(), "objects read as unknown: {unknown:?}");
}

#[test]
fn a_screen_reader_reads_graft_on_the_accessibility_bus() {
    let started = Instant::now();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sword.ron");
    let Some(out) = read_tree(&scene, "ctrl+a Up") else {
        return;
    };
    check_opened(nodes(&out["nodes"]));
    check_sword_selected(nodes(&out["after_keys"]));
    check_named_controls(nodes(&out["after_keys"]));
    eprintln!("a11y peer test: {:.1} s", started.elapsed().as_secs_f64());
}

/// Left on an expanded row collapses it, and AT-SPI says so: the hand's row stays expandable
/// and is no longer expanded (its sword row is gone), the arm above it is still expanded.
#[test]
fn a_collapsed_row_is_expandable_and_not_expanded_on_the_bus() {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sword.ron");
    // Select the sword, then the hand above it, then fold the hand.
    let Some(out) = read_tree(&scene, "ctrl+a Up Up Left") else {
        return;
    };
    let tree = nodes(&out["after_keys"]);
    let names: Vec<&str> = rows(tree).iter().map(|n| text(n, "name")).collect();
    assert_eq!(
        names,
        ["body", "arm", "hand", "scabbard"],
        "{}",
        outline(tree)
    );
    let state = |name: &str| {
        let row = rows(tree).into_iter().find(|r| text(r, "name") == name);
        let row = row.unwrap_or_else(|| panic!("no row {name}"));
        (
            has_state(row, "expandable"),
            has_state(row, "expanded"),
            row["level"].as_u64(),
        )
    };
    assert_eq!(state("hand"), (true, false, Some(3)), "the folded hand");
    assert_eq!(state("arm"), (true, true, Some(2)));
    assert_eq!(state("scabbard"), (false, false, Some(2)));
}

/// `wanted` were announced on the bus ("object:announcement", what Orca reads out), in this
/// order (each the whole announcement or how it starts: a step goes on with its text), and the
/// live region that said them is a status bar.
fn check_announced(out: &Value, wanted: &[&str]) {
    let said: Vec<&str> = nodes(&out["announced"])
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    let mut rest = said.iter();
    for want in wanted {
        assert!(
            rest.any(|s| s.starts_with(want)),
            "{want:?} was not announced after the ones before it: {said:?}"
        );
    }
    let tree = nodes(&out["after_keys"]);
    assert!(
        tree.iter().any(|n| text(n, "role") == "status bar"),
        "no live region (status bar) in\n{}",
        outline(tree)
    );
}

/// The sword scene and its sprite copied into a temporary folder (a save writes there).
fn sword_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (from, to) in [
        ("scenes/sword.ron", "scenes"),
        ("assets/sword.png", "assets"),
    ] {
        let to = dir.path().join(to);
        std::fs::create_dir_all(&to).expect("a folder");
        let name = Path::new(from).file_name().expect("a file name");
        std::fs::copy(root.join(from), to.join(name)).expect("copied");
    }
    let scene = dir.path().join("scenes/sword.ron");
    (dir, scene)
}

/// The sword's parent and world position in a saved scene, as `graft print --json` reads it.
fn sword_in(scene: &Path) -> (Value, (f64, f64)) {
    let out = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(["print", "--json"])
        .arg(scene)
        .output()
        .expect("graft print runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let nodes: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sword = nodes
        .as_array()
        .and_then(|a| a.iter().find(|n| n["name"] == "sword"))
        .expect("the sword is in the file")
        .clone();
    let p = &sword["world"]["position"];
    let at = (
        p[0].as_f64().unwrap_or(f64::NAN),
        p[1].as_f64().unwrap_or(f64::NAN),
    );
    (sword["parent"].clone(), at)
}

/// From the keyboard alone, through the window: select the sword (Ctrl+A, Up), Node > Move
/// to… (Ctrl+Shift+M), type "body", Enter (keep world is on), save (Ctrl+S). The file then
/// has the sword under the body, still at world (2, 3); the inspector, read on the bus,
/// names the sword's world position fields; and the selection and the reparent were
/// announced.
#[test]
fn the_sword_is_reparented_onto_the_body_from_the_keyboard_alone() {
    let (_dir, scene) = sword_copy();
    let keys = "ctrl+a Up ctrl+shift+m b o d y Return ctrl+s";
    let Some(out) = read_tree(&scene, keys) else {
        return;
    };
    let after = nodes(&out["after_keys"]);
    for name in ["sword, world position x", "sword, world position y"] {
        assert!(
            after.iter().any(|n| text(n, "name") == name),
            "no field named {name:?} in\n{}",
            outline(after)
        );
    }
    check_announced(
        &out,
        &[
            "sword selected, world position (2, 3)",
            "sword reparented to body, keeping world position (2, 3)",
        ],
    );
    let (parent, (x, y)) = sword_in(&scene);
    assert_eq!(parent, 1, "the sword's parent is the body (id 1)");
    assert!(
        (x - 2.0).abs() < 1e-4 && (y - 3.0).abs() < 1e-4,
        "world ({x}, {y})"
    );
}

/// The node with this role and name under `parent` (by path).
fn find_under<'a>(tree: &'a [Value], parent: &Value, role: &str, name: &str) -> &'a Value {
    let path = format!("{}/", text(parent, "path"));
    tree.iter()
        .find(|n| {
            text(n, "path").starts_with(&path) && text(n, "role") == role && text(n, "name") == name
        })
        .unwrap_or_else(|| panic!("no {role} {name:?} under {parent}:\n{}", outline(tree)))
}

/// A nudge, then Ctrl+N: the unsaved-changes prompt is a dialog named for what it asks, with
/// its three buttons.
#[test]
fn the_unsaved_changes_prompt_is_a_named_dialog_on_the_bus() {
    let (_dir, scene) = sword_copy();
    let Some(out) = read_tree(&scene, "ctrl+a Up F6 Right ctrl+n") else {
        return;
    };
    let after = nodes(&out["after_keys"]);
    let dialog = find(after, "dialog", "Unsaved changes");
    for button in ["Save", "Discard", "Cancel"] {
        find_under(after, dialog, "push button", button);
    }
    check_announced(&out, &["Nudge sword, world position (2.1, 3)"]);
}

/// An edit left unsaved when graft was ended (SIGTERM keeps its journal): the next start asks
/// first, in a dialog a screen reader reads by name with its choices.
#[test]
fn the_recovery_prompt_is_a_named_dialog_on_the_bus() {
    let (dir, scene) = sword_copy();
    let home = dir.path().join("home");
    if read_tree_in(&scene, "ctrl+a Up F6 Right", (&home, true)).is_none() {
        return;
    }
    let journal = home.join("data/graft/journal");
    let kept = std::fs::read_dir(&journal).map_or(0, |d| d.count());
    assert!(kept > 0, "no journal kept in {}", journal.display());
    let Some(out) = read_tree_in(&scene, "", (&home, true)) else {
        return;
    };
    let tree = nodes(&out["nodes"]);
    let dialog = find(tree, "dialog", "Recover unsaved changes");
    let under = format!("{}/", text(dialog, "path"));
    let buttons: Vec<&str> = (tree.iter())
        .filter(|n| text(n, "role") == "push button")
        .filter(|n| text(n, "path").starts_with(&under))
        .map(|n| text(n, "name"))
        .collect();
    assert_eq!(
        buttons,
        ["Recover", "Discard", "Later"],
        "the dialog's choices"
    );
}

/// Ctrl+Shift+P then Down: the palette is a window with a named search field and a list of
/// commands; the field keeps the keys and names the highlighted command its active
/// descendant, so the screen reader's focus is on that command (the second, "Open…"),
/// selected, not on the field.
#[test]
fn the_command_palette_is_named_with_a_named_focused_field_on_the_bus() {
    let (_dir, scene) = sword_copy();
    let Some(out) = read_tree(&scene, "ctrl+shift+p Down") else {
        return;
    };
    let after = nodes(&out["after_keys"]);
    let palette = find(after, "frame", "Command palette");
    find_under(after, palette, "entry", "Command: type part of its name");
    let list = find_under(after, palette, "list box", "Commands");
    let focused: Vec<&Value> = after.iter().filter(|n| has_state(n, "focused")).collect();
    assert_eq!(focused.len(), 1, "one focused object: {focused:?}");
    let option = focused[0];
    assert_eq!(text(option, "role"), "list item", "{option}");
    assert!(text(option, "name").starts_with("Open"), "{option}");
    assert!(has_state(option, "selected"), "{option}");
    assert!(
        text(option, "path").starts_with(text(list, "path")),
        "{option}"
    );
    for panel in [
        "Menu bar",
        "Timeline",
        "Hierarchy",
        "Inspector",
        "Viewport",
        "Status",
    ] {
        find(after, "panel", panel);
    }
}

/// A lesson from the keyboard: Shift+F6 gives the lesson panel the keyboard and lands on
/// "Start step 1" (not on "Close the lesson", first in drawing order), Enter starts it; F6
/// away and Shift+F6 back land on the first goal (Next is not lit), which Enter cannot close.
/// The panel, its step buttons and each goal (a check box, not yet checked) are read on the
/// bus, and the step was announced.
#[test]
fn the_lesson_panel_its_steps_and_goals_are_read_on_the_bus() {
    let lesson = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/lessons/01-local-world.lesson");
    let keys = "shift+F6 Return F6 shift+F6 Return";
    let Some(out) = read_tree(&lesson, keys) else {
        return;
    };
    let after = nodes(&out["after_keys"]);
    let panel = find(after, "panel", "Lesson");
    find_under(after, panel, "toggle button", "Step 1: Two columns");
    let goal = find_under(after, panel, "check box", "Select the hand");
    assert!(!has_state(goal, "checked"), "{goal}");
    assert!(
        has_state(goal, "focused"),
        "the first goal has the keyboard: {goal}"
    );
    check_announced(
        &out,
        &["Lesson has the keyboard", "Step 1 of 4: Two columns"],
    );
}
