//! What a markdown document names, and whether it exists: inline code spans and links read
//! from the text, file paths found in the repository, Rust module paths resolved through the
//! sources' files and declarations.

use std::path::Path;

/// Crates a module path may start with that are not graft's own modules.
#[rustfmt::skip]
pub const EXTERNAL: &[&str] = &[
    "std", "core", "alloc", "glam", "egui", "eframe", "epaint", "rfd", "serde", "ron", "resvg",
    "usvg", "tiny_skia", "image", "clap", "indicatif", "postcard", "rayon", "libc", "wgpu",
    "f32", "f64", "u8", "u16", "u32", "u64", "usize", "i32", "i64", "str", "char", "bool",
];

/// Every file and folder under `root` (paths relative to it, with `/`), build output and
/// version control left out.
pub fn repo_files(root: &Path) -> Vec<String> {
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
pub type Named = (usize, String);

/// The inline code spans of a markdown text (`like this`, possibly wrapped over two lines of
/// a paragraph), and the targets of its links and images (`[text](target)`), each with the
/// 1-based line it starts on.
pub fn code_spans_and_links(text: &str) -> (Vec<Named>, Vec<Named>) {
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
pub fn is_repo_path(span: &str, files: &[String]) -> bool {
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
pub fn find_path<'a>(files: &'a [String], base: &str, path: &str) -> Option<&'a String> {
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
pub fn declares(source: &str, name: &str) -> bool {
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
pub fn without_comments(source: &str) -> String {
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
pub fn declares_type(source: &str, name: &str) -> bool {
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
pub fn module_folder(file: &str) -> String {
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
pub fn check_module_path(
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
        // The member is declared where the type is, or in one of its `impl` blocks.
        let homes = sources.iter().map(|f| read(f)).filter(|text| {
            declares_type(text, first)
                || [
                    format!("impl {first} "),
                    format!("impl {first}<"),
                    format!(" for {first} "),
                ]
                .iter()
                .any(|i| text.contains(i.as_str()))
        });
        return if homes.into_iter().any(|text| declares(&text, member)) {
            Ok(())
        } else {
            Err(format!(
                "`{first}::{member}`: `{first}` declares no `{member}`"
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
pub fn rust_paths(span: &str) -> Vec<String> {
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
pub fn missing_names(
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
pub fn normalize(path: &str) -> String {
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
