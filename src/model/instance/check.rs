//! What does not resolve in a scene's instances, placed at `FILE:LINE:COL` in its text: a
//! source that could not be read, an override whose node the source no longer has, a node
//! added under a source node that is not there. None of them loses anything: the file keeps
//! them, and they apply again when the source has the node.

use super::overrides::Override;
use crate::model::scene::{NodeId, Scene};

/// One thing that does not resolve.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The node whose line it is on (an instance root, or an added node).
    pub node: NodeId,
    /// What to look for on that line to place it (`instance:`, `node: [7]`, `inside:`).
    pub near: String,
    /// What is wrong, for a person.
    pub message: String,
}

/// Every problem of `scene`'s instances whose line is in the scene, in file order of their
/// instances.
pub fn problems(scene: &Scene) -> Vec<Problem> {
    let Some(table) = scene.instances() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in table.entries() {
        if !scene.contains(entry.root) {
            continue;
        }
        match &entry.source {
            Err(why) => out.push(Problem {
                node: entry.root,
                near: "instance:".into(),
                message: format!(
                    "instance of {} is a placeholder ({} overrides kept): {why}",
                    entry.path,
                    entry.dangling.len()
                ),
            }),
            Ok(_) => out.extend(entry.dangling.iter().map(|o| Problem {
                node: entry.root,
                near: format!(
                        "node: [{}]",
                        o.node
                            .iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                message: format!(
                    "override of node {}, no longer in {}",
                    Override::node_text(&o.node),
                    entry.path
                ),
            })),
        }
    }
    let mut pending: Vec<_> = table
        .pending
        .iter()
        .filter(|(id, _)| scene.contains(**id))
        .collect();
    pending.sort_by_key(|(id, _)| scene.index(**id).unwrap_or(usize::MAX));
    for (id, (root, chain)) in pending {
        let path = table.entry(*root).map_or("its source", |e| e.path.as_str());
        out.push(Problem {
            node: *id,
            near: "inside:".into(),
            message: format!(
                "node {id}: its parent, node {} of {path}, is not there (kept under instance {root})",
                Override::node_text(chain)
            ),
        });
    }
    out
}

/// Where a problem is in the scene's text: 1-based line and column of `near` on the node's
/// entry (the entry's start when `near` is not found; 1:1 when the node is not found).
pub fn locate(text: &str, problem: &Problem) -> (usize, usize) {
    let Some(start) = node_start(text, problem.node) else {
        return (1, 1);
    };
    let end = text[start..]
        .find("\n        (")
        .map_or(text.len(), |k| start + k);
    let at = text[start..end]
        .find(&problem.near)
        .map_or(start, |k| start + k);
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at]
        .rsplit('\n')
        .next()
        .map_or(0, |l| l.chars().count())
        + 1;
    (line, col)
}

/// The byte offset of node `id`'s entry: the `(` before `id: N`.
fn node_start(text: &str, id: NodeId) -> Option<usize> {
    let digits = id.0.to_string();
    let mut from = 0;
    while let Some(k) = text[from..].find("id:") {
        let at = from + k;
        from = at + 3;
        let rest = text[from..].trim_start();
        let Some(after) = rest.strip_prefix(digits.as_str()) else {
            continue;
        };
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let before = text[..at].trim_end();
        if before.ends_with('(') {
            return Some(before.len() - 1);
        }
    }
    None
}

/// Each problem as `FILE:LINE:COL: message`, for `graft check` and the window.
pub fn report(scene: &Scene, text: &str, file: &std::path::Path) -> Vec<String> {
    problems(scene)
        .iter()
        .map(|p| {
            let (line, col) = locate(text, p);
            format!("{}:{line}:{col}: {}", file.display(), p.message)
        })
        .collect()
}
