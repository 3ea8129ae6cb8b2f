//! The map of the code cannot drift from the code silently: every file path, folder and Rust
//! module path that ARCHITECTURE.md and `docs/*.md` name exists (a moved or renamed file, or a
//! module that is gone, fails here until the text follows), every dependency in Cargo.toml has
//! its reason in ARCHITECTURE.md, and ARCHITECTURE.md stays at most 300 lines.

use std::path::{Path, PathBuf};

#[path = "architecture_paths/names.rs"]
mod names;

use names::{code_spans_and_links, is_repo_path, missing_names, repo_files, rust_paths};

/// The most lines ARCHITECTURE.md may have (issue 36: a map, not a lab notebook).
const MAX_LINES: usize = 300;

/// The column where the tree's descriptions start: a line indented this far continues the
/// description above it.
const DESCRIPTION_COLUMN: usize = 20;

/// The names a tree line starts with (`a.rs, b.rs  description` or `name.rs description`):
/// its first word and every word after one ending in a comma; then the rest of the line.
fn leading_names(line: &str) -> (Vec<&str>, &str) {
    let mut names = Vec::new();
    let mut rest = line.trim_start();
    while let Some(word) = rest.split_whitespace().next() {
        rest = rest[rest.find(word).unwrap_or(0) + word.len()..].trim_start();
        names.push(word.trim_end_matches(','));
        if !word.ends_with(',') {
            break;
        }
    }
    (names, rest)
}

/// The paths the tree names, from the first code block after "## The tree": the first column
/// of each line (names ending in `.rs` or `/`, several separated by commas), placed under the
/// folder of the nearest less-indented line, and the `.rs` files and `folders/` its
/// description names (in the folder the line names, or beside the files it names).
fn tree_paths(text: &str) -> Vec<String> {
    let block = text
        .split("## The tree")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .unwrap_or("");
    let is_name =
        |w: &str| (w.ends_with(".rs") || w.ends_with('/')) && w.len() > 1 && !w.contains("//");
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut context = String::new();
    let mut paths = Vec::new();
    for line in block.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut description = line.trim_start();
        if indent < DESCRIPTION_COLUMN {
            let (names, rest) = leading_names(description);
            if names.is_empty() || !names.iter().all(|n| is_name(n)) {
                continue;
            }
            while stack.last().is_some_and(|(i, _)| *i >= indent) {
                stack.pop();
            }
            let parent = stack.last().map_or(String::new(), |(_, p)| p.clone());
            context = parent.clone();
            for name in &names {
                let path = format!("{parent}{name}");
                if name.ends_with('/') {
                    stack.push((indent, path.clone()));
                    if names.len() == 1 {
                        context = path.clone();
                    }
                }
                paths.push(path);
            }
            description = rest;
        }
        let words = description.split(|c: char| c.is_whitespace() || ",;:()".contains(c));
        for word in words.filter(|w| is_name(w)) {
            paths.push(format!("{context}{word}"));
        }
    }
    paths
}

/// The dependency names of Cargo.toml's dependency tables.
fn dependencies(cargo_toml: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_table = false;
    for line in cargo_toml.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line.ends_with("dependencies]");
            continue;
        }
        if in_table
            && !line.starts_with('#')
            && let Some((name, _)) = line.split_once('=')
        {
            names.push(name.trim().to_string());
        }
    }
    names
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn reader(root: PathBuf) -> impl Fn(&str) -> String {
    move |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_default()
}

/// ARCHITECTURE.md and every `docs/*.md`, with their text.
fn documents(root: &Path) -> Vec<(String, String)> {
    let mut docs = vec!["ARCHITECTURE.md".to_string()];
    let mut in_docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    in_docs.sort();
    docs.extend(in_docs);
    docs.into_iter()
        .map(|d| {
            let text = std::fs::read_to_string(root.join(&d)).expect("a document");
            (d, text)
        })
        .collect()
}

#[test]
fn every_path_in_the_architecture_tree_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = tree_paths(&text);
    assert!(
        paths.len() > 40,
        "only {} paths read: {paths:?}",
        paths.len()
    );
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's tree names paths that do not exist: {missing:?}"
    );
}

#[test]
fn every_path_and_module_path_the_documents_name_exists() {
    let root = root();
    let files = repo_files(&root);
    let read = reader(root.clone());
    let mut missing = Vec::new();
    let mut checked = 0;
    for (doc, text) in documents(&root) {
        let (spans, _) = code_spans_and_links(&text);
        checked += spans
            .iter()
            .filter(|(_, s)| is_repo_path(s, &files) || !rust_paths(s).is_empty())
            .count();
        missing.extend(missing_names(&doc, &text, &files, &read));
    }
    assert!(checked > 200, "only {checked} names checked");
    assert!(
        missing.is_empty(),
        "names that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Why a text is too long to be ARCHITECTURE.md, if it is.
fn too_long(text: &str) -> Option<String> {
    let lines = text.lines().count();
    (lines > MAX_LINES).then(|| format!("ARCHITECTURE.md has {lines} lines (at most {MAX_LINES})"))
}

#[test]
fn architecture_is_at_most_300_lines() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    assert_eq!(too_long(&text), None);
}

/// The crates a row of the dependency table names in its first cell (`| gif, png | …`,
/// `| eframe / egui 0.37 | …`, `| libc (Linux only) | …`); none for the header rows.
fn row_crates(row: &str) -> Vec<String> {
    let cell = row.split('|').nth(1).unwrap_or("");
    let mut plain = String::new();
    let mut depth = 0;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split([',', '/'])
        .filter_map(|part| part.split_whitespace().next())
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
}

/// What is wrong between Cargo.toml's dependencies and the reasons given: dependencies
/// without a reason, and reasons for crates that are no longer dependencies.
fn dependency_problems(cargo_toml: &str, architecture: &str) -> Vec<String> {
    let reasons = architecture
        .split("## Why each dependency")
        .nth(1)
        .unwrap_or("");
    let named: Vec<String> = reasons
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .flat_map(row_crates)
        .filter(|c| c != "crate")
        .collect();
    let names = dependencies(cargo_toml);
    let mut problems: Vec<String> = names
        .iter()
        .filter(|n| !named.contains(n))
        .map(|n| format!("{n} has no reason in ARCHITECTURE.md"))
        .collect();
    problems.extend(
        named
            .iter()
            .filter(|c| !names.contains(c))
            .map(|c| format!("{c} has a reason but is not in Cargo.toml")),
    );
    problems
}

#[test]
fn every_dependency_has_its_reason() {
    let root = root();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    assert!(
        dependencies(&cargo).len() > 20,
        "read {:?}",
        dependencies(&cargo)
    );
    assert_eq!(dependency_problems(&cargo, &text), Vec::<String>::new());
}

#[test]
fn a_dependency_without_a_reason_and_a_stale_reason_are_found() {
    let cargo =
        "[dependencies]\nglam = \"0.34\"\negui = \"0.37\"\n[dev-dependencies]\ntempfile = \"3\"\n";
    let text = "## Why each dependency\n\n| crate | why |\n|---|---|\n| glam | math |\n\
                | eframe / egui 0.37 | the window |\n";
    let problems = dependency_problems(cargo, text);
    assert_eq!(
        problems,
        vec![
            "tempfile has no reason in ARCHITECTURE.md",
            "eframe has a reason but is not in Cargo.toml",
        ]
    );
    assert_eq!(row_crates("| libc (Linux only) | x |"), vec!["libc"]);
    assert_eq!(row_crates("| image (png, webp, jpeg) | x |"), vec!["image"]);
}

/// The number written right after `marker` in a text, whitespace between words ignored
/// ("the command table (82 entries)").
fn number_after(text: &str, marker: &str) -> Option<usize> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = text.find(marker)? + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// How many lines the function whose signature starts with `signature` spans (to its first
/// closing brace at the start of a line), if the source has it.
fn function_lines(source: &str, signature: &str) -> Option<usize> {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(signature))?;
    let end = lines[start..].iter().position(|l| *l == "}")?;
    Some(end + 1)
}

#[test]
fn the_counts_architecture_states_are_the_code_s() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let entries = number_after(&text, "one entry of the command table (")
        .expect("ARCHITECTURE.md states the command table's size");
    let table = graft::editor::table::command_table().len();
    assert_eq!(
        entries, table,
        "ARCHITECTURE.md says {entries} commands; the table has {table}"
    );
    let said = number_after(&text, "(`fuzzy_score`, about ")
        .expect("ARCHITECTURE.md states the matcher's length");
    let source = std::fs::read_to_string(root.join("src/editor/table.rs")).expect("table.rs");
    let lines = function_lines(&source, "pub fn fuzzy_score").expect("fuzzy_score in table.rs");
    assert!(
        said.abs_diff(lines) <= said / 10,
        "ARCHITECTURE.md says the matcher is about {said} lines; it is {lines}"
    );
}

#[test]
fn a_stated_number_and_a_function_s_length_are_read() {
    let text = "is one entry of the command table (1,234\n  entries); the rest";
    assert_eq!(
        number_after(text, "one entry of the command table ("),
        Some(1234)
    );
    assert_eq!(number_after(text, "no such words ("), None);
    let source = "fn a() {}\npub fn long(x: u8) {\n    let y = x;\n    y;\n}\nfn b() {}\n";
    assert_eq!(function_lines(source, "pub fn long"), Some(4));
    assert_eq!(function_lines(source, "pub fn gone"), None);
}

/// A small repository for the checks below: the files and their text.
fn fixture() -> (Vec<String>, impl Fn(&str) -> String) {
    let files: Vec<String> = [
        "src/",
        "src/lib.rs",
        "src/editor/",
        "src/editor/mod.rs",
        "src/editor/view/",
        "src/editor/view/mod.rs",
        "src/editor/view/camera.rs",
        "docs/",
        "docs/model.md",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let read = |path: &str| match path {
        "src/lib.rs" => "pub mod editor;\n".to_string(),
        "src/editor/mod.rs" => {
            "pub mod view;\npub use view::camera::Camera;\npub fn elsewhere() {}\n".to_string()
        }
        "src/editor/view/mod.rs" => "pub mod camera;\n".to_string(),
        "src/editor/view/camera.rs" => {
            "pub struct Camera;\nimpl Camera {\n    pub fn fit() {}\n}\n".to_string()
        }
        _ => String::new(),
    };
    (files, read)
}

#[test]
fn the_checks_find_a_missing_file_a_missing_module_and_a_dead_link() {
    let (files, read) = fixture();
    let good = "`src/editor/view/camera.rs`, `view/camera.rs`, `editor/view`, \
                `editor::view::camera::Camera`, `crate::editor::Camera`, `camera::Camera`, \
                `Camera::fit`, `view/camera.rs::Camera`, [m](model.md)";
    assert_eq!(
        missing_names("docs/x.md", good, &files, &read),
        Vec::<String>::new()
    );
    let bad = [
        "`src/editor/view/gone.rs`",
        "`editor::frame_plan`",
        "`editor::view::camera::Gone`",
        "`figure_plan::plan`",
        "`Camera::vanished`",
        "`Camera::elsewhere`",
        "[m](gone.md)",
        "`view/camera.rs::nothing`",
        "`editor/gone`",
    ];
    let found = missing_names("docs/x.md", &bad.join("\n"), &files, &read);
    assert_eq!(found.len(), bad.len(), "{found:#?}");
    for line in 1..=bad.len() {
        let at = format!("docs/x.md:{line}:");
        assert!(
            found.iter().any(|f| f.starts_with(&at)),
            "nothing on line {line}: {found:#?}"
        );
    }
}

#[test]
fn a_code_span_wrapped_over_two_lines_is_one_span() {
    let text = "see `Scene::world_path(node,\ntimes)` and `a.rs`\n\nan open ` tick\n\n`b.rs`";
    let (spans, _) = code_spans_and_links(text);
    let spans: Vec<(usize, &str)> = spans.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_eq!(
        spans,
        vec![
            (1, "Scene::world_path(node, times)"),
            (2, "a.rs"),
            (6, "b.rs")
        ]
    );
}

#[test]
fn placeholders_mime_types_and_commands_are_not_paths() {
    let (files, _) = fixture();
    let not_paths = [
        "NAME.bak",
        "application/x-graft-scene",
        "graft figure big.ron -o f.svg",
        "//",
        "tests/snapshots/*.png",
        "../shared/godot-real",
        "/proc/self/status",
        ".ron",
        "1e-5",
    ];
    for not_a_path in not_paths {
        assert!(!is_repo_path(not_a_path, &files), "{not_a_path}");
    }
    let paths = [
        "session/jobs.rs",
        "editor/view/keys/",
        "tools/godot3/",
        "editor/view",
        "import.rs::parts_in_order",
    ];
    for path in paths {
        assert!(is_repo_path(path, &files), "{path}");
    }
}

#[test]
fn the_tree_reader_finds_a_missing_file() {
    let text = "## The tree\n```\nsrc/\n  model/            the model: mod.rs, scene/\n    \
                gone.rs, here.rs  two files, with side.rs\n                    and next.rs (a \
                description line)\n    a_long_name.rs one space, then words.rs\n  app/              \
                egui\n```\n";
    let paths = tree_paths(text);
    let expected = [
        "src/",
        "src/model/",
        "src/model/mod.rs",
        "src/model/scene/",
        "src/model/gone.rs",
        "src/model/here.rs",
        "src/model/side.rs",
        "src/model/next.rs",
        "src/model/a_long_name.rs",
        "src/model/words.rs",
        "src/app/",
    ];
    assert_eq!(paths, expected);
}

#[test]
fn a_long_architecture_is_refused_and_dependencies_are_read() {
    assert_eq!(too_long(&"line\n".repeat(MAX_LINES)), None);
    assert!(too_long(&"line\n".repeat(MAX_LINES + 1)).is_some());
    let cargo = "[dependencies]\nglam = \"0.34\"\n# a note\n[dev-dependencies]\ntempfile = \"3\"\n[features]\nx = []\n";
    assert_eq!(dependencies(cargo), vec!["glam", "tempfile"]);
}
