//! Every file and folder in ARCHITECTURE.md's tree of `src/` exists: the map of the code
//! cannot drift from the code silently (a moved or renamed file fails here until the map
//! follows).

/// The paths the tree names: the first word of each line (a name ending in `.rs` or `/`),
/// placed under the folder of the nearest less-indented line.
fn tree_paths(text: &str) -> Vec<String> {
    let block = text
        .split("## Layers")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .unwrap_or("");
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut paths = Vec::new();
    for line in block.lines() {
        let indent = line.len() - line.trim_start().len();
        let Some(first) = line.split_whitespace().next() else {
            continue;
        };
        let first = first.trim_end_matches(',');
        // Description lines are indented past the names' column.
        if indent >= 16 || !(first.ends_with(".rs") || first.ends_with('/')) {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let parent = stack.last().map_or(String::new(), |(_, p)| p.clone());
        let path = format!("{parent}{first}");
        if first.ends_with('/') {
            stack.push((indent, path.clone()));
        }
        paths.push(path);
    }
    paths
}

#[test]
fn every_path_in_the_architecture_tree_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = tree_paths(&text);
    assert!(
        paths.len() > 20,
        "only {} paths read: {paths:?}",
        paths.len()
    );
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_tree_reader_finds_a_missing_file() {
    let text = "## Layers\n```\nsrc/\n  model/\n    gone.rs   nothing\n```\n";
    assert_eq!(
        tree_paths(text),
        vec!["src/", "src/model/", "src/model/gone.rs"]
    );
}
