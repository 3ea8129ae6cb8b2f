//! The map of the code cannot drift from the code silently: every file path, folder and Rust
//! module path that ARCHITECTURE.md and `docs/*.md` name exists (a moved or renamed file, or a
//! module that is gone, fails here until the text follows), every dependency in Cargo.toml has
//! its reason in ARCHITECTURE.md, and ARCHITECTURE.md stays at most 300 lines.

use std::path::{Path, PathBuf};

/// The most lines ARCHITECTURE.md may have (issue 36: a map, not a lab notebook).
const MAX_LINES: usize = 300;

/// Crates a module path may start with that are not graft's own modules.
#[rustfmt::skip]
const EXTERNAL: &[&str] = &[
    "std", "core", "alloc", "glam", "egui", "eframe", "epaint", "rfd", "serde", "ron", "resvg",
    "usvg", "tiny_skia", "image", "clap", "indicatif", "postcard", "rayon", "libc", "wgpu",
    "f32", "f64", "u8", "u16", "u32", "u64", "usize", "i32", "i64", "str", "char", "bool",
];

/// Every file and folder under `root` (paths relative to it, with `/`), build output and
/// version control left out.
fn repo_files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if name == "target" || name == ".git" {
                continue;
            }
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative = relative.to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                out.push(format!("{relative}/"));
                walk(&path, root, out);
            } else {
                out.push(relative);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// A name a document uses, with the 1-based line it is on.
type Named = (usize, String);

/// The inline code spans of a markdown text (`like this`, possibly wrapped over two lines of
/// a paragraph), and the targets of its links and images (`[text](target)`), each with the
/// 1-based line it starts on.
fn code_spans_and_links(text: &str) -> (Vec<Named>, Vec<Named>) {
    let (mut spans, mut links) = (Vec::new(), Vec::new());
    let mut in_block = false;
    let mut open: Option<Named> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            open = None;
            continue;
        }
        if in_block || line.trim().is_empty() {
            open = None; // a backtick left open at a paragraph's end is a plain backtick
            continue;
        }
        for (k, piece) in line.split('`').enumerate() {
            if k > 0 {
                match open.take() {
                    Some((start, span)) => spans.push((start, span)),
                    None => open = Some((n + 1, String::new())),
                }
            }
            if let Some((_, span)) = open.as_mut() {
                if !span.is_empty() || k == 0 {
                    span.push(' ');
                }
                span.push_str(piece);
            }
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            links.push((n + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    let spans = spans
        .into_iter()
        .map(|(n, s)| (n, s.trim().to_string()))
        .collect();
    (spans, links)
}

/// Whether a code span names a file or folder of this repository: one word of path
/// characters that ends in a source or document extension, or ends with `/`, or starts with a
/// top folder of the repository or with the name of one of its folders (`editor/view`).
/// Placeholders (`NAME.bak`), globs, commands, absolute paths, paths outside the repository and
/// MIME types are not paths to check.
fn is_repo_path(span: &str, files: &[String]) -> bool {
    const EXTENSIONS: &[&str] = &[
        ".rs", ".md", ".ron", ".png", ".sh", ".gd", ".toml", ".lesson",
    ];
    const TOP: &[&str] = &[
        "src/",
        "tests/",
        "docs/",
        "tools/",
        "scenes/",
        "assets/",
        "fuzz/",
        "benches/",
        "packaging/",
        "examples/",
        ".ci/",
    ];
    let path_chars = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let file = span.split("::").next().unwrap_or(span);
    if file.is_empty()
        || !file.chars().all(path_chars)
        || file.starts_with(['/', '-'])
        || file.starts_with("..")
        || (file.starts_with('.') && !file.starts_with(".ci/"))
        || file.contains("//")
        || !file.chars().any(|c| c.is_ascii_lowercase())
    {
        return false;
    }
    let placeholder = file
        .chars()
        .take_while(|c| *c != '.')
        .all(|c| !c.is_ascii_lowercase());
    let first = file.split('/').next().unwrap_or("");
    let a_folder = file.contains('/')
        && files
            .iter()
            .any(|f| f == &format!("{first}/") || f.ends_with(&format!("/{first}/")));
    !placeholder
        && (EXTENSIONS.iter().any(|e| file.ends_with(e))
            || (file.ends_with('/') && file.len() > 1)
            || TOP.iter().any(|t| file.starts_with(t))
            || a_folder)
}

/// Where a named path is: itself from the repository root, under `src/`, relative to `base`
/// (the folder of the document naming it), or, for a short path such as `session/jobs.rs`,
/// the end of some file's path. None when no file or folder matches.
fn find_path<'a>(files: &'a [String], base: &str, path: &str) -> Option<&'a String> {
    let path = path.trim_start_matches("./");
    let wanted = [
        path.to_string(),
        format!("src/{path}"),
        format!("{base}{path}"),
    ];
    let folder = format!("{}/", path.trim_end_matches('/'));
    files.iter().find(|f| {
        wanted.contains(f)
            || wanted.iter().any(|w| **f == format!("{w}/"))
            || f.ends_with(&format!("/{path}"))
            || f.ends_with(&format!("/{folder}"))
    })
}

/// Whether `name` is declared in a module's source: as an item (`fn`, `struct`, `enum`,
/// `trait`, `type`, `const`, `static`, `mod`, `macro_rules!`), an enum variant or field
/// (a line starting with it), or brought in by a `use` (a re-export).
fn declares(source: &str, name: &str) -> bool {
    let source = &without_comments(source);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = source[from..].find(name).map(|i| i + from) {
        from = at + name.len();
        let before_ok = !source[..at].ends_with(is_word);
        let after_ok = !source[from..].starts_with(is_word);
        if !(before_ok && after_ok) {
            continue;
        }
        let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
        let head = source[line_start..at].trim();
        let head = head.strip_prefix("pub(crate)").unwrap_or(head);
        let head = head.strip_prefix("pub(super)").unwrap_or(head);
        let head = head.strip_prefix("pub").unwrap_or(head).trim();
        let keyword = head.split_whitespace().last().unwrap_or("");
        let items = [
            "fn", "struct", "enum", "trait", "type", "const", "static", "mod",
        ];
        if head.is_empty() || items.contains(&keyword) || keyword == "macro_rules!" {
            return true;
        }
        let statement_start = source[..at].rfind([';', '}']).map_or(0, |i| i + 1);
        let statement = source[statement_start..at].trim_start();
        let statement = statement.trim_start_matches(['#', '\n']);
        if ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .any(|u| statement.starts_with(u))
        {
            return true;
        }
    }
    false
}

/// A source with its `//` comments blanked (so a `;` in a comment does not end a statement).
fn without_comments(source: &str) -> String {
    source
        .lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `name` is declared as a type (`struct`, `enum`, `trait`, `type`) in a source.
fn declares_type(source: &str, name: &str) -> bool {
    ["struct ", "enum ", "trait ", "type "]
        .iter()
        .any(|keyword| {
            source
                .match_indices(&format!("{keyword}{name}"))
                .any(|(at, found)| {
                    let next = source[at + found.len()..].chars().next().unwrap_or(' ');
                    !(next.is_ascii_alphanumeric() || next == '_')
                })
        })
}

/// The module a source file is (`src/editor/view/mod.rs` → `src/editor/view`), as the folder
/// its submodules live in.
fn module_folder(file: &str) -> String {
    let stem = file.trim_end_matches(".rs");
    match stem.strip_suffix("/mod") {
        Some(folder) => folder.to_string(),
        None if stem == "src/lib" => "src".to_string(),
        None => stem.to_string(),
    }
}

/// Checks a Rust path (`crate::editor::view::camera::Camera`, `frame_plan::plan`,
/// `Scene::topmost`) against the sources: its modules are files or folders, and the first
/// name that is not a module is declared in the last module. A path starting with a type
/// needs the type declared somewhere in `src/` and the member named in `src/`.
fn check_module_path(
    files: &[String],
    read: &dyn Fn(&str) -> String,
    path: &str,
) -> Result<(), String> {
    let segments: Vec<&str> = path
        .split("::")
        .filter(|s| !["crate", "graft", "self", "super"].contains(s))
        .collect();
    let Some(first) = segments.first() else {
        return Ok(());
    };
    let sources: Vec<&String> = files
        .iter()
        .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
        .collect();
    if first.starts_with(|c: char| c.is_ascii_uppercase()) {
        let Some(member) = segments.get(1) else {
            return Ok(());
        };
        if !sources.iter().any(|f| declares_type(&read(f), first)) {
            return Ok(()); // a type of another crate (`TSTransform`, `ViewportBuilder`)
        }
        return if sources.iter().any(|f| declares(&read(f), member)) {
            Ok(())
        } else {
            Err(format!(
                "`{first}::{member}`: no `{member}` declared in src/"
            ))
        };
    }
    if EXTERNAL.contains(first) {
        return Ok(());
    }
    // Where the first module may be: a top module, else any module of that name.
    let top = [format!("src/{first}.rs"), format!("src/{first}/mod.rs")];
    let mut starts: Vec<String> = sources
        .iter()
        .filter(|f| top.contains(f))
        .map(|f| module_folder(f))
        .collect();
    if starts.is_empty() {
        starts = sources
            .iter()
            .filter(|f| {
                f.ends_with(&format!("/{first}.rs")) || f.ends_with(&format!("/{first}/mod.rs"))
            })
            .map(|f| module_folder(f))
            .collect();
    }
    if starts.is_empty() {
        return Err(format!("no module `{first}` in src/"));
    }
    let resolves = |start: &String| {
        let mut folder = start.clone();
        for segment in &segments[1..] {
            let sub = [
                format!("{folder}/{segment}.rs"),
                format!("{folder}/{segment}/mod.rs"),
            ];
            if let Some(file) = files.iter().find(|f| sub.contains(f)) {
                folder = module_folder(file);
                continue;
            }
            let mut source = read(&format!("{folder}.rs")) + &read(&format!("{folder}/mod.rs"));
            if folder == "src" {
                source += &read("src/lib.rs");
            }
            return declares(&source, segment);
        }
        true
    };
    if starts.iter().any(resolves) {
        Ok(())
    } else {
        Err(format!(
            "`{path}` does not resolve to a module or item in src/"
        ))
    }
}

/// The Rust paths in a code span: runs of `name::name…` (a leading `crate::` kept), a `.rs`
/// file's items (`import.rs::parts_in_order`) left to the file check.
fn rust_paths(span: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    span.split(|c: char| !word(c))
        .filter(|w| w.contains("::") && !w.starts_with(':') && !w.ends_with(':'))
        .filter(|w| {
            w.split("::")
                .all(|s| !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(str::to_string)
        .collect()
}

/// Everything a document names that does not exist, as `doc:line: what`.
fn missing_names(
    doc: &str,
    text: &str,
    files: &[String],
    read: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let base = doc
        .rsplit_once('/')
        .map_or(String::new(), |(folder, _)| format!("{folder}/"));
    let (spans, links) = code_spans_and_links(text);
    let mut missing = Vec::new();
    for (line, span) in &spans {
        if is_repo_path(span, files) {
            let file = span.split("::").next().unwrap_or(span);
            match find_path(files, &base, file) {
                None => missing.push(format!("{doc}:{line}: no file or folder `{file}`")),
                Some(found) => {
                    if let Some((_, item)) = span.split_once(".rs::") {
                        let item = item.split("::").next().unwrap_or(item);
                        if !declares(&read(found), item) {
                            missing.push(format!("{doc}:{line}: `{found}` declares no `{item}`"));
                        }
                    }
                }
            }
            continue;
        }
        for path in rust_paths(span) {
            if let Err(why) = check_module_path(files, read, &path) {
                missing.push(format!("{doc}:{line}: {why}"));
            }
        }
    }
    for (line, link) in &links {
        let target = link.split('#').next().unwrap_or("");
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let target = target.trim_start_matches("./");
        let relative = normalize(&format!("{base}{target}"));
        if !files
            .iter()
            .any(|f| *f == relative || *f == format!("{relative}/"))
        {
            missing.push(format!("{doc}:{line}: link to `{link}` leads nowhere"));
        }
    }
    missing
}

/// `docs/../ARCHITECTURE.md` → `ARCHITECTURE.md`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The column where the tree's descriptions start: a line indented this far continues the
/// description above it.
const DESCRIPTION_COLUMN: usize = 20;

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
            let (column, rest) = description.split_once("  ").unwrap_or((description, ""));
            let names: Vec<&str> = column
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect();
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

#[test]
fn every_dependency_has_its_reason() {
    let root = root();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let reasons = text.split("## Why each dependency").nth(1).unwrap_or("");
    let rows: Vec<&str> = reasons.lines().filter(|l| l.starts_with('|')).collect();
    let names = dependencies(&cargo);
    assert!(names.len() > 20, "read {names:?}");
    let without: Vec<&String> = names
        .iter()
        .filter(|name| {
            !rows.iter().any(|row| {
                let first = row.split('|').nth(1).unwrap_or("");
                first.split([',', '/', ' ']).any(|w| w == name.as_str())
            })
        })
        .collect();
    assert!(
        without.is_empty(),
        "dependencies without a reason in ARCHITECTURE.md: {without:?}"
    );
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
        "src/editor/mod.rs" => "pub mod view;\npub use view::camera::Camera;\n".to_string(),
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
                description line)\n  app/              egui\n```\n";
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
