//! `graft instance` and `graft make-local`, and what `graft print` and `graft check` say
//! about instances.

use super::failure::Failure;
use crate::model::instance::{self, FieldSet};
use crate::model::scene::sprites::folder_of;
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;
use std::io::Write;
use std::path::Path;

/// A `--parent` value: a node id, or `root`.
pub(super) fn parent_arg(text: &str) -> Result<Option<NodeId>, Failure> {
    match text {
        "root" => Ok(None),
        text => Ok(Some(NodeId(text.parse().map_err(|_| {
            Failure(format!("--parent {text:?}: expected a node id or `root`"))
        })?))),
    }
}

/// `graft instance`: instance `source` (a path as given, from here) under `parent` in
/// `file`, written to `output` (or in place).
pub(super) fn instance(
    file: &Path,
    source: &Path,
    parent: Option<NodeId>,
    output: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut scene = super::progress::load(file)?;
    let target = output.unwrap_or(file);
    let abs = crate::model::instance::expand::absolute(source);
    let folder = folder_of(file);
    let relative = pathdiff::diff_paths(&abs, &folder).unwrap_or(abs);
    let relative = relative.to_string_lossy().replace('\\', "/");
    let root = instance::edit::add_instance(&mut scene, file, &relative, parent)?;
    scene.rebase_sprites(&folder, &folder_of(target));
    super::progress::save(&scene, target)?;
    let count = scene.index(root).map_or(0, |i| scene.subtree_len_at(i));
    writeln!(
        out,
        "node {root}: an instance of {relative} ({count} nodes); wrote {}",
        target.display()
    )?;
    Ok(())
}

/// `graft make-local`: the instance rooted at `node` becomes plain nodes.
pub(super) fn make_local(
    file: &Path,
    node: NodeId,
    output: Option<&Path>,
    out: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<(), Failure> {
    let mut scene = super::progress::load(file)?;
    let target = output.unwrap_or(file);
    let dropped = instance::edit::make_local(&mut scene, node)?;
    for o in &dropped {
        writeln!(
            report,
            "{}: the override of node {} named no node of the source: not applied",
            file.display(),
            instance::Override::node_text(&o.node)
        )?;
    }
    scene.rebase_sprites(&folder_of(file), &folder_of(target));
    super::progress::save(&scene, target)?;
    writeln!(out, "node {node}: made local; wrote {}", target.display())?;
    Ok(())
}

/// What `graft print` adds to a node's row in a scene with instances: its source, where it
/// came from, what it overrides.
pub(super) struct Marks {
    overridden: FxHashMap<NodeId, FieldSet>,
}

impl Marks {
    /// The marks of `scene` (None when it instances nothing: its rows stay as they were).
    pub(super) fn of(scene: &Scene) -> Option<Self> {
        scene.instances()?;
        Some(Self {
            overridden: instance::save::overridden(scene),
        })
    }

    /// `instance parts/wheel.ron`, `from 5: 7`, `overrides rotation, name`: the row's marks.
    pub(super) fn text(&self, scene: &Scene, id: NodeId) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(entry) = scene.instance_entry(id) {
            let missing = if entry.source.is_err() {
                " (missing)"
            } else {
                ""
            };
            out.push(format!("instance {}{missing}", entry.path));
        }
        let table = scene.instances();
        if let Some(o) = table.and_then(|t| t.origin(id)) {
            let chain = table.and_then(|t| t.chain_of(o)).unwrap_or(&[]);
            out.push(format!(
                "from {}: {}",
                o.root,
                instance::Override::node_text(chain)
            ));
        }
        if let Some((root, chain)) = table.and_then(|t| t.pending(id)) {
            out.push(format!(
                "inside {root}: {} (not in the source)",
                instance::Override::node_text(chain)
            ));
        }
        if let Some(f) = self.overridden.get(&id) {
            out.push(format!("overrides {}", f.names().join(", ")));
        }
        out
    }
}

/// A load error that is an instance cycle, placed at the instance line that starts it
/// (`FILE:LINE:COL: node 5: instance cycle: a.ron -> b.ron -> a.ron`); others as they are.
pub(super) fn placed_cycle(path: &Path, message: String) -> String {
    use crate::model::instance::check::{Problem, locate};
    let prefix = format!("{}: node ", path.display());
    let node = message
        .strip_prefix(&prefix)
        .filter(|rest| rest.contains(": instance cycle: "))
        .and_then(|rest| rest.split(':').next()?.parse().ok());
    let text =
        crate::model::read_limit::read_text_bounded(path, crate::model::read_limit::SCENE).ok();
    match (node, text) {
        (Some(node), Some(text)) => {
            let problem = Problem {
                node: NodeId(node),
                near: "instance:".into(),
                message: String::new(),
            };
            let (line, col) = locate(&text, &problem);
            let rest = &message[prefix.len() - "node ".len()..];
            format!("{}:{line}:{col}: {rest}", path.display())
        }
        _ => message,
    }
}
