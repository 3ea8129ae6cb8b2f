//! The import graph of a crate's sources, read without a parser: every `use` (its tree
//! expanded) and every path written inline that starts with `crate::`, `super::`, `self::` or
//! a child module's name (`viewport::ui(…)` in `app/mod.rs`), outside comments, strings and
//! `#[cfg(test)]` modules. A path names the file of its longest module prefix, followed through
//! `pub use` re-exports to the file that defines the name.

use super::rust_files;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path: the segments after `crate`.
pub type ModPath = Vec<String>;

/// Code without comments, string and char literals (each replaced by a space, so words stay
/// apart), cut before the first `#[cfg(test)]` module.
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_char_before(&b, i)
        {
            i = skip_raw_string(&b, i);
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            out.push(c);
            i += 1;
        }
    }
    match find_test_module(&out) {
        Some(at) => out[..at].to_string(),
        None => out,
    }
}

fn ident_char_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The index just past a raw string starting at `i` (`r"…"`, `r#"…"#`, …).
fn skip_raw_string(b: &[char], i: usize) -> usize {
    let mut j = i + 1;
    let mut hashes = 0;
    while b.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if b.get(j) != Some(&'"') {
        return i + 1;
    }
    j += 1;
    while j < b.len() {
        if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
            return j + 1 + hashes;
        }
        j += 1;
    }
    j
}

fn find_test_module(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let at = from + at;
        let after = code[at + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") || after.starts_with("pub mod ") {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `a::{b, c::{d}}` as the paths it names (`self` inside braces names the prefix; an alias
/// `x as y` names `x`).
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("");
        let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
        return if path.is_empty() {
            Vec::new()
        } else {
            vec![path]
        };
    };
    let prefix: String = tree[..open]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    let mut out = Vec::new();
    for part in parts {
        for path in expand(part) {
            if path == "self" {
                out.push(prefix.trim_end_matches(':').to_string());
            } else {
                out.push(format!("{prefix}{path}"));
            }
        }
    }
    out
}

/// The `use` statements of stripped code: each tree, whether it re-exports (`pub use`,
/// `pub(crate) use`…), and the code with the statements blanked out.
fn use_statements(code: &str) -> (Vec<(String, bool)>, String) {
    let mut uses = Vec::new();
    let mut rest = String::with_capacity(code.len());
    let mut from = 0;
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut k = 0;
    while let Some(at) = code[k..].find("use") {
        let at = k + at;
        k = at + 3;
        let starts_word = at == 0 || !is_ident(bytes[at - 1]);
        let ends_word = bytes.get(at + 3).is_some_and(|b| b.is_ascii_whitespace());
        if !(starts_word && ends_word) {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            break;
        };
        let end = at + end;
        let mut before = code[..at].trim_end();
        if before.ends_with(')')
            && let Some(open) = before.rfind('(')
        {
            before = before[..open].trim_end();
        }
        let is_pub = before.ends_with("pub")
            && (before.len() == 3 || !is_ident(before.as_bytes()[before.len() - 4]));
        uses.push((code[at + 3..end].to_string(), is_pub));
        rest.push_str(&code[from..at]);
        rest.push(' ');
        from = end + 1;
        k = end + 1;
    }
    rest.push_str(&code[from..]);
    (uses, rest)
}

/// Paths written inline: every path of two segments or more (`crate::a::b`, `super::x`,
/// `child::item`); which of them name the crate's modules is [`absolute`]'s to say.
fn inline_paths(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(at) = code[k..].find("::") {
        let at = k + at;
        k = at + 2;
        let mut start = at;
        while start > 0 && is_ident(bytes[start - 1]) {
            start -= 1;
        }
        let continues = start > 0 && bytes[start - 1] == b':';
        if start == at || continues {
            continue;
        }
        let mut end = at;
        while end < bytes.len() && (is_ident(bytes[end]) || bytes[end] == b':') {
            end += 1;
        }
        out.push(code[start..end].trim_end_matches(':').to_string());
        k = end.max(k);
    }
    out
}

/// The module a file is: `lib.rs` the crate, `a/mod.rs` and `a.rs` the module `a`.
fn module_of(rel: &str) -> ModPath {
    let mut segs: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if segs == ["lib"] {
        return Vec::new();
    }
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

/// A path as absolute module segments, from inside `module` (None: not a crate path).
fn absolute(path: &str, module: &ModPath, modules: &BTreeMap<ModPath, usize>) -> Option<ModPath> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let first = *segs.first()?;
    let (mut base, mut rest) = (module.clone(), &segs[..]);
    match first {
        "crate" => {
            base.clear();
            rest = &segs[1..];
        }
        "super" | "self" => {
            while let Some(s) = rest.first().filter(|s| **s == "super" || **s == "self") {
                if *s == "super" {
                    base.pop();
                }
                rest = &rest[1..];
            }
        }
        child => {
            let mut inner = module.clone();
            inner.push(child.to_string());
            modules.get(&inner)?;
        }
    }
    base.extend(rest.iter().map(|s| s.to_string()));
    Some(base)
}

/// The crate's files and which files each one imports.
pub struct Graph {
    /// Paths relative to the source folder, with `/`.
    pub files: Vec<String>,
    /// For each file, the files it imports (never itself).
    pub edges: Vec<BTreeSet<usize>>,
}

/// Each file's module, with `#[path = "…"] mod name;` followed.
fn modules(src: &Path, files: &[String], texts: &[String]) -> Vec<ModPath> {
    let mut of: Vec<ModPath> = files.iter().map(|f| module_of(f)).collect();
    for (i, text) in texts.iter().enumerate() {
        for piece in text.split("#[path = \"").skip(1) {
            let Some((target, after)) = piece.split_once("\"]") else {
                continue;
            };
            let Some(name) = after.split("mod ").nth(1).and_then(|s| s.split(';').next()) else {
                continue;
            };
            let dir = Path::new(&files[i]).parent().unwrap_or(Path::new(""));
            let joined = src.join(dir).join(target);
            let Ok(full) = joined.canonicalize() else {
                continue;
            };
            let Ok(root) = src.canonicalize() else {
                continue;
            };
            let Ok(rel) = full.strip_prefix(root) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if let Some(j) = files.iter().position(|f| *f == rel) {
                let mut module = of[i].clone();
                module.push(name.trim().to_string());
                of[j] = module;
            }
        }
    }
    of
}

/// The import graph of the crate whose sources are under `src` (`main.rs` left out).
pub fn graph(src: &Path) -> Graph {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let mut files: Vec<String> = paths
        .iter()
        .map(|p| {
            p.strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|f| f != "main.rs")
        .collect();
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(src.join(f)).unwrap())
        .collect();
    let module = modules(src, &files, &texts);
    let by_module: BTreeMap<ModPath, usize> = module
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, m)| (m, i))
        .collect();
    let mut named: Vec<Vec<ModPath>> = vec![Vec::new(); files.len()];
    let mut reexports: BTreeMap<ModPath, BTreeMap<String, ModPath>> = BTreeMap::new();
    for (i, text) in texts.iter().enumerate() {
        let (uses, rest) = use_statements(&strip(text));
        for (tree, is_pub) in uses {
            for path in expand(&tree) {
                let Some(target) = absolute(&path, &module[i], &by_module) else {
                    continue;
                };
                if is_pub && let Some(name) = target.last().filter(|n| *n != "*") {
                    let exported = reexports.entry(module[i].clone()).or_default();
                    exported.insert(name.clone(), target.clone());
                }
                named[i].push(target);
            }
        }
        for path in inline_paths(&rest) {
            named[i].extend(absolute(&path, &module[i], &by_module));
        }
    }
    let edges = named
        .iter()
        .enumerate()
        .map(|(i, paths)| {
            let found = paths
                .iter()
                .filter_map(|p| resolve(p, &by_module, &reexports, 0));
            found.filter(|&j| j != i).collect()
        })
        .collect();
    Graph { files, edges }
}

/// The file a path names: its longest module prefix, followed through re-exports.
fn resolve(
    path: &[String],
    modules: &BTreeMap<ModPath, usize>,
    reexports: &BTreeMap<ModPath, BTreeMap<String, ModPath>>,
    depth: usize,
) -> Option<usize> {
    let n = (0..=path.len())
        .rev()
        .find(|&n| modules.contains_key(&path[..n]))?;
    let (module, rest) = (&path[..n], &path[n..]);
    if depth < 8
        && let Some(target) = rest
            .first()
            .and_then(|name| reexports.get(module)?.get(name))
            .filter(|t| t.as_slice() != path)
    {
        let mut further = target.clone();
        further.extend(rest[1..].iter().cloned());
        return resolve(&further, modules, reexports, depth + 1);
    }
    modules.get(module).copied()
}
