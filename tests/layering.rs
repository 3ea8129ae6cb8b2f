//! The layers stay apart:
//! - egui, eframe and rfd are named only under `src/app/` (the model, the editor and the tools
//!   build without the `editor` feature — `.ci/run` also checks that with
//!   `cargo check --lib --no-default-features`);
//! - no file imports a higher layer: `model` (with `error.rs` and `lib.rs`) < `editor/view` <
//!   `editor/session`, `editor/lesson` (and the rest of `editor`) < `tools`, `app`, and `tools`
//!   and `app` do not import each other;
//! - no import circle joins files of different folders (a module file `x.rs` belongs to its
//!   folder `x/`).
//!
//! The import graph is read from the sources (`layering/graph.rs`).

#[path = "layering/graph.rs"]
mod graph;

use graph::{Graph, graph};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn egui_eframe_and_rfd_appear_only_in_the_app_folder() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    assert!(files.len() > 20, "found the sources");
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with("src/app")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if [
                "egui::",
                "eframe::",
                "rfd::",
                "use egui",
                "use eframe",
                "use rfd",
            ]
            .iter()
            .any(|p| code.contains(p))
            {
                offenders.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    // main.rs starts the window through `graft::app::run` behind the feature; nothing else may.
    offenders.retain(|o| !o.starts_with("src/main.rs"));
    assert!(
        offenders.is_empty(),
        "egui outside src/app:\n{}",
        offenders.join("\n")
    );
}

/// A file's layer: 0 the model (with `error.rs` and `lib.rs`), 1 `editor/view`, 2 the rest of
/// `editor`, 3 `tools` and `app` (which must not import each other).
fn layer(file: &str) -> (u8, &'static str) {
    match file.split('/').next().unwrap_or("") {
        "model" | "error.rs" | "lib.rs" => (0, "model"),
        "editor" if file.starts_with("editor/view/") => (1, "editor/view"),
        "editor" => (2, "editor"),
        "tools" => (3, "tools"),
        "app" => (3, "app"),
        _ => (9, "unknown"),
    }
}

/// The folder a file belongs to: `x.rs` beside a folder `x/` belongs to `x/`.
fn folder(src: &Path, file: &str) -> String {
    let stem = file.trim_end_matches(".rs");
    if src.join(stem).is_dir() {
        stem.to_string()
    } else {
        file.rsplit_once('/').map_or("", |(dir, _)| dir).to_string()
    }
}

/// What breaks the layering under `src`: each upward or sideways import, and each import
/// circle that joins files of different folders (with its cross-folder imports).
fn problems(src: &Path) -> Vec<String> {
    let g = graph(src);
    let mut out = Vec::new();
    for (i, targets) in g.edges.iter().enumerate() {
        let (from, from_room) = layer(&g.files[i]);
        for &j in targets {
            let (to, to_room) = layer(&g.files[j]);
            if to > from || (to == from && from == 3 && to_room != from_room) {
                out.push(format!(
                    "upward: {} ({from_room}) imports {} ({to_room})",
                    g.files[i], g.files[j]
                ));
            }
        }
    }
    for circle in strong_sets(&g) {
        let folders: BTreeSet<String> = circle.iter().map(|&j| folder(src, &g.files[j])).collect();
        if folders.len() > 1 {
            let crossing: Vec<String> = circle
                .iter()
                .flat_map(|&a| g.edges[a].iter().map(move |&b| (a, b)))
                .filter(|(a, b)| {
                    circle.contains(b) && folder(src, &g.files[*a]) != folder(src, &g.files[*b])
                })
                .map(|(a, b)| format!("{} -> {}", g.files[a], g.files[b]))
                .collect();
            out.push(format!(
                "circle of {} files across {}: {}",
                circle.len(),
                folders.into_iter().collect::<Vec<_>>().join(", "),
                crossing.join("; ")
            ));
        }
    }
    out
}

/// The files `start` reaches through imports (itself included only through a circle).
fn reachable(g: &Graph, start: usize) -> BTreeSet<usize> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(f) = todo.pop() {
        for &t in &g.edges[f] {
            if seen.insert(t) {
                todo.push(t);
            }
        }
    }
    seen
}

#[test]
fn no_import_goes_up_a_layer_or_closes_a_circle_across_folders() {
    let src = Path::new("src");
    let g = graph(src);
    let edges: usize = g.edges.iter().map(BTreeSet::len).sum();
    assert!(
        g.files.len() > 100 && edges > 500,
        "read the graph: {} files, {edges} imports",
        g.files.len()
    );
    let index = |f: &str| g.files.iter().position(|x| x == f).unwrap();
    // Re-exports are followed: the app names `crate::editor::session::Editor` (session/mod.rs)
    // and lessons name the model's spaces through `crate::model::spaces`.
    assert!(g.edges[index("app/mod.rs")].contains(&index("editor/session/mod.rs")));
    assert!(g.edges[index("editor/lesson/eval.rs")].contains(&index("model/spaces.rs")));
    // No exceptions: the instance/scene circle of issue 48 (the Scene holds its instance table,
    // whose sources hold scenes) is gone since issue 47 defined those types together in
    // model/scene/types.rs, and the loader is passed in to the expansion.
    let found = problems(src);
    assert!(
        found.is_empty(),
        "{} layering problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_checker_finds_a_circle_across_folders_and_an_upward_import() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("lib.rs", "pub mod model;\npub mod editor;\n"),
        // A circle through a path that names a child module (`sub::`) and `super::super::`.
        (
            "model/mod.rs",
            "pub mod a;\npub mod c;\npub mod sub;\npub struct M;\nfn m() -> sub::e::E { sub::e::E }\n",
        ),
        (
            "model/a.rs",
            "use crate::model::sub::b::B;\npub struct A;\n",
        ),
        ("model/sub/mod.rs", "pub mod b;\npub mod e;\n"),
        (
            "model/sub/e.rs",
            "pub struct E;\nfn n(_: super::super::M) {}\n",
        ),
        // A circle across folders, through `super::` and a string that only looks like a path.
        (
            "model/sub/b.rs",
            "pub struct B;\nfn f() { let _ = \"crate::editor\"; super::super::a::A; }\n",
        ),
        // Upward through a re-export: `crate::editor::Editor` is editor/session.rs; `e::E`
        // names no child of c.rs, so no import.
        (
            "model/c.rs",
            "// use crate::editor::Editor;\nfn g(_: crate::editor::Editor) { e::E; }\n",
        ),
        (
            "editor/mod.rs",
            "pub mod session;\npub mod view;\npub use session::Editor;\n",
        ),
        ("editor/session.rs", "pub struct Editor;\n"),
        (
            "editor/view.rs",
            "#[cfg(test)]\nmod tests { use crate::editor::Editor; }\n",
        ),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let found = problems(dir.path());
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(
        found.contains(
            &"circle of 2 files across model, model/sub: model/mod.rs -> model/sub/e.rs; \
              model/sub/e.rs -> model/mod.rs"
                .to_string()
        ),
        "{found:#?}"
    );
    assert!(
        found
            .contains(&"upward: model/c.rs (model) imports editor/session.rs (editor)".to_string()),
        "{found:#?}"
    );
    assert!(
        found.iter().any(
            |p| p.starts_with("circle of 2 files across model, model/sub")
                && p.contains("model/a.rs -> model/sub/b.rs")
                && p.contains("model/sub/b.rs -> model/a.rs")
        ),
        "{found:#?}"
    );
}

/// The files that import each other in a circle, each set once (a file in no circle is a set
/// of one, itself not reached).
fn strong_sets(g: &Graph) -> Vec<BTreeSet<usize>> {
    let reach: Vec<BTreeSet<usize>> = (0..g.files.len()).map(|i| reachable(g, i)).collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for i in 0..g.files.len() {
        if seen.contains(&i) {
            continue;
        }
        let circle: BTreeSet<usize> = reach[i]
            .iter()
            .copied()
            .filter(|&j| reach[j].contains(&i))
            .collect();
        seen.extend(circle.iter().copied());
        out.push(circle);
    }
    out
}

/// Every import circle under `src`, inside a folder or across: each as its files, sorted.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let g = graph(src);
    let mut out: Vec<Vec<String>> = strong_sets(&g)
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|c| {
            let mut files: Vec<String> = c.iter().map(|&j| g.files[j].clone()).collect();
            files.sort();
            files
        })
        .collect();
    out.sort();
    out
}

/// The circles inside one folder that are still to be taken apart (issue 47), each named by
/// its first file and its size. A new circle, or a known one that grows, fails; so does one
/// that is gone and still listed, so the list only shrinks.
const KNOWN_CIRCLES: &[(&str, usize)] = &[];

#[test]
fn no_new_import_circle_even_inside_a_folder() {
    let found: Vec<(String, usize)> = circles(Path::new("src"))
        .into_iter()
        .map(|c| (c[0].clone(), c.len()))
        .collect();
    let known: Vec<(String, usize)> = KNOWN_CIRCLES
        .iter()
        .map(|(f, n)| (f.to_string(), *n))
        .collect();
    let all: Vec<Vec<String>> = circles(Path::new("src"));
    assert_eq!(found, known, "import circles now: {all:#?}");
}

/// The session's methods that take `&mut self` and the app may see (`pub`, `pub(crate)`).
fn session_mutators(src: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&src.join("editor/session"), &mut files);
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for line in text.lines().map(str::trim_start) {
            let rest = line
                .strip_prefix("pub fn ")
                .or_else(|| line.strip_prefix("pub(crate) fn "));
            if let Some((name, args)) = rest.and_then(|r| r.split_once('('))
                && args.starts_with("&mut self")
            {
                names.insert(name.split('<').next().unwrap_or(name).to_string());
            }
        }
    }
    names
}

/// The app changes the session only through `apply` and `tick` (issue 47.1): no app file calls
/// another of the session's `&mut self` methods (the journal's start and end, the background
/// thresholds and the end on a signal are `Command::Lifecycle` now).
#[test]
fn the_app_changes_the_session_only_through_apply_and_tick() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mutators = session_mutators(&src);
    assert!(
        mutators.contains("apply") && mutators.contains("tick"),
        "{mutators:?}"
    );
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    let mut calls = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        // `editor.name(` and `editor\n    .name(` (rustfmt splits a long call over lines).
        for (at, _) in text.match_indices("editor") {
            let rest = text[at + "editor".len()..].trim_start();
            let Some(rest) = rest.strip_prefix('.') else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let called = rest[name.len()..].starts_with('(');
            if called && mutators.contains(&name) && name != "apply" && name != "tick" {
                let line = text[..at].lines().count();
                calls.push(format!("{}:{line}: {name}", file.display()));
            }
        }
    }
    assert!(
        calls.is_empty(),
        "the app changes the session around apply/tick: {calls:#?}"
    );
}

/// The app takes its colours from the one palette (`editor/view/palette.rs`) or the theme
/// (`app/theme.rs`): no colour written as numbers or named (`Color32::RED`) anywhere else under
/// `src/app/` (issue 47); only the neutral constants: no paint, the identity tint of an image,
/// and the colour a text is laid out in only to measure it.
#[test]
fn the_app_writes_no_colour_outside_the_palette_and_the_theme() {
    let mut files = Vec::new();
    rust_files(Path::new("src/app"), &mut files);
    let makers = [
        "from_rgb(",
        "from_rgba_unmultiplied(",
        "from_rgba_premultiplied(",
        "from_gray(",
        "from_black_alpha(",
        "from_white_alpha(",
    ];
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("theme.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let literal = makers.iter().any(|m| {
                code.match_indices(m).any(|(at, _)| {
                    let rest = code[at + m.len()..].trim_start();
                    rest.starts_with(|c: char| c.is_ascii_digit())
                })
            });
            let named = code.match_indices("Color32::").any(|(at, _)| {
                let rest = &code[at + "Color32::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                name.starts_with(|c: char| c.is_ascii_uppercase())
                    && !["TRANSPARENT", "WHITE", "PLACEHOLDER"].contains(&name.as_str())
            });
            if literal || named {
                offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "colours outside the palette:\n{}",
        offenders.join("\n")
    );
}

/// The files under `src/app/` that keep state in egui's memory (`data` / `data_mut`), how many
/// lines do, and why it stays there: each is one widget's or one function's own memory, written
/// and read in the same place. What one part of the window hands another (lesson targets, the
/// keyboard's landing control, the lesson overlay, announcements) is owned by the app and passed
/// in signatures (`app/frame.rs`, issue 47).
const OWN_MEMORY: &[(&str, usize, &str)] = &[
    (
        "app/number_field.rs",
        5,
        "the field's own focus and Escape state",
    ),
    (
        "app/lesson_predict.rs",
        2,
        "the prediction field's own text between frames",
    ),
    (
        "app/windows/close.rs",
        1,
        "when focus_on_open last saw each window shown",
    ),
    (
        "app/viewport/draw.rs",
        1,
        "text_width's own cache of measured widths",
    ),
    (
        "app/a11y.rs",
        1,
        "place_among_siblings' own cache, keyed by the tree's version",
    ),
];

/// The lines of `text` that reach egui's memory for data, outside comments.
fn memory_lines(text: &str) -> usize {
    let uses = ["data_mut(", ".data(|", "memory_mut(|m| m.data"];
    let code = |line: &str| line.split("//").next().unwrap_or("").to_string();
    text.lines()
        .map(code)
        .filter(|c| uses.iter().any(|u| c.contains(u)))
        .count()
}

/// Each file under `src/app/` that uses egui's memory for data more than its allowance.
fn memory_offenders(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    let mut offenders = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let found = memory_lines(&std::fs::read_to_string(&file).unwrap());
        let allowed = OWN_MEMORY
            .iter()
            .find(|(f, ..)| *f == name)
            .map_or(0, |a| a.1);
        if found > allowed {
            offenders.push(format!(
                "{name}: {found} lines use egui's memory (allowed {allowed})"
            ));
        }
    }
    offenders
}

/// No state passes between parts of the window through egui's temp memory (issue 47): a new
/// `ctx.data_mut(…)` under `src/app/` fails here unless it is a widget's own memory, added to
/// [`OWN_MEMORY`] with its reason.
#[test]
fn no_state_passes_between_app_parts_through_egui_memory() {
    let offenders = memory_offenders(Path::new("src"));
    assert!(
        offenders.is_empty(),
        "state kept in egui's memory (pass it in signatures, or add a widget's own memory to OWN_MEMORY with why):\n{}",
        offenders.join("\n")
    );
    for (file, ..) in OWN_MEMORY {
        assert!(
            Path::new("src").join(file).exists(),
            "{file} is gone: drop it from OWN_MEMORY"
        );
    }
}

#[test]
fn the_memory_check_finds_a_use_and_skips_comments() {
    let text = "// ctx.data_mut(|d| d.insert_temp(id, 1));\nlet x = ctx.data(|d| d.get_temp::<u8>(id));\nui.data_mut(|d| d.clear());";
    assert_eq!(memory_lines(text), 2);
    let dir = std::env::temp_dir().join(format!("graft-memory-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("app")).unwrap();
    std::fs::write(dir.join("app/panel.rs"), text).unwrap();
    let offenders = memory_offenders(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        offenders,
        ["app/panel.rs: 2 lines use egui's memory (allowed 0)"]
    );
}

/// The only files under `src/app/` that name the session's `Editor` (issue 47): the app, which
/// owns it and applies the commands, and the frame context, built from it. Every panel, window,
/// menu and key of the app reads the `FrameContext` (`app/frame.rs`) and sends commands.
const EDITOR_NAMED_IN: &[&str] = &["app/mod.rs", "app/frame.rs"];

/// The lines under `src/` of `folder` that name the session's `Editor`, outside comments.
fn editor_mentions(src: &Path, folder: &str) -> Vec<String> {
    let mut files = Vec::new();
    let path = src.join(folder);
    if path.is_file() {
        files.push(path);
    } else {
        rust_files(&path, &mut files);
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let named = code.match_indices("Editor").any(|(at, _)| {
                !word(code[at + "Editor".len()..].chars().next())
                    && !word(code[..at].chars().next_back())
            });
            if named {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_app_s_panels_windows_and_keys_read_the_frame_context_not_the_editor() {
    let src = Path::new("src");
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    assert!(files.len() > 50, "found the app's files");
    let mut found = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if !EDITOR_NAMED_IN.contains(&name.as_str()) {
            found.extend(editor_mentions(src, &name));
        }
    }
    assert!(
        found.is_empty(),
        "parts of the app reach the whole Editor (read it through FrameContext):\n{}",
        found.join("\n")
    );
    for file in EDITOR_NAMED_IN {
        assert!(
            !editor_mentions(src, file).is_empty(),
            "{file} no longer names the Editor: drop it from EDITOR_NAMED_IN"
        );
    }
    let dir = std::env::temp_dir().join(format!("graft-editor-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("app/panel")).unwrap();
    let text = "// an Editor in a comment\nfn ui(editor: &Editor) {}\nstruct EditorState;";
    std::fs::write(dir.join("app/panel/mod.rs"), text).unwrap();
    let found = editor_mentions(&dir, "app/panel");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "the check finds a use: {found:?}");
}

/// No module is mounted through `#[path]` (issue 47): a file's place in the tree is its place
/// in the module tree, which the import graph above reads.
#[test]
fn no_module_is_mounted_through_a_path_attribute() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mounted: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            text.lines().any(|l| l.trim_start().starts_with("#[path"))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(files.len() > 100, "read {} files", files.len());
    assert!(mounted.is_empty(), "#[path] in {mounted:?}");
}
