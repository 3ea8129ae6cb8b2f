//! The instance commands as ops, each list one undo step: instance a file under a node, make
//! an instance local, revert values to the source, save a branch as a scene file, and follow
//! sources changed on disk. The table changes travel as [`TableEdit`]s beside the node edits.

use super::overrides::{FieldSet, Override};
use super::table_edit::{Registration, TableEdit};
use crate::error::{Error, Result};
use crate::model::math::Trs;
use crate::model::scene::edit::Op;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::types::{Entry, Instances, Source};
use crate::model::scene::{DetachedSubtree, NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::Path;

/// How a scene saved as `host` names the file `file`: relative to its folder, or absolute
/// for an untitled scene (rebased like an image path when it is saved).
pub fn source_text(host: Option<&Path>, file: &Path) -> String {
    let abs = super::expand::absolute(file);
    let rel = host.and_then(|h| pathdiff::diff_paths(&abs, folder_of(h)));
    let path = rel.filter(|r| !r.as_os_str().is_empty()).unwrap_or(abs);
    let parts: Vec<String> = if path.is_absolute() {
        return path.to_string_lossy().into_owned();
    } else {
        (path.components())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    parts.join("/")
}

fn swap(root: NodeId, before: Option<Registration>, after: Option<Registration>) -> Op {
    Op::Instances(Box::new(TableEdit::Swap {
        root,
        before: before.map(Box::new),
        after: after.map(Box::new),
    }))
}

/// Instance `source` (as [`source_text`] names it) as the last child of `parent` in `scene`
/// (saved as `host`): the ops and the new instance root.
pub fn instance_ops(
    scene: &Scene,
    host: &Path,
    source: &str,
    parent: Option<NodeId>,
) -> Result<(Vec<Op>, NodeId)> {
    let prepared = super::edit::prepare(scene, host, source, parent)?;
    let (subtree, reg) = prepared.into_parts();
    let root = subtree.root();
    Ok((
        vec![Op::Insert { subtree }, swap(root, None, Some(reg))],
        root,
    ))
}

/// The instance `node` is the root of, or why it is none (a node inside one names it).
fn instance_root(scene: &Scene, node: NodeId) -> Result<&Entry> {
    scene.index(node)?;
    scene.instance_entry(node).ok_or_else(|| {
        Error::Refused(match scene.origin(node) {
            Some(o) => format!("node {node} is inside instance {}: make that local", o.root),
            None => format!("node {node} is not an instance"),
        })
    })
}

/// Make the instance rooted at `root` local: its nodes become plain, as they are. The ops
/// and how many overrides named nodes the source no longer has (dropped with it).
pub fn make_local_ops(scene: &Scene, root: NodeId) -> Result<(Vec<Op>, usize)> {
    let dangling = instance_root(scene, root)?.dangling.len();
    let reg = Registration::of(scene, root);
    Ok((vec![swap(root, reg, None)], dangling))
}

/// Remove the overrides kept on the instance rooted at `root` for a node its source no longer
/// has: the one of `chain`, or every one (None). Refused when there is none to remove.
pub fn remove_dangling_ops(scene: &Scene, root: NodeId, chain: Option<&[u32]>) -> Result<Vec<Op>> {
    let entry = instance_root(scene, root)?;
    let keep = |o: &Override| chain.is_some_and(|c| &*o.node != c);
    if entry.dangling.iter().all(keep) {
        return Err(Error::Refused(match chain {
            Some(c) => format!(
                "instance {root} keeps no override of node {} that its source lacks",
                Override::node_text(c)
            ),
            None => format!("instance {root} keeps no override its source lacks"),
        }));
    }
    let before = Registration::of(scene, root);
    let mut after = before.clone();
    if let Some(reg) = &mut after {
        reg.entry.dangling.retain(keep);
    }
    Ok(vec![swap(root, before, None), swap(root, None, after)])
}

/// The source node a node shows: its instance's entry, the source and its index there
/// (0: an instance root, whose look comes from the source's root).
fn source_of(scene: &Scene, node: NodeId) -> Option<(&Entry, &Source, usize)> {
    let (root, j) = match scene.origin(node) {
        Some(o) => (o.root, o.index as usize),
        None => (node, 0),
    };
    let entry = scene.instance_entry(root)?;
    let source = entry.source.as_ref().ok()?;
    Some((entry, source, j))
}

/// The fields of `node` that override its source (differ from it, or were loaded as
/// overrides); None for a node no source gives.
pub fn overrides_of_node(scene: &Scene, node: NodeId) -> Option<FieldSet> {
    let (entry, source, j) = source_of(scene, node)?;
    let chain = &source.chains[j];
    let sticky = entry.sticky.get(chain).copied().unwrap_or_default();
    let allowed = if j == 0 { FieldSet::ROOT } else { u16::MAX };
    let now = scene.node(node).ok()?;
    let diff = Override::diff(chain.clone(), source.scene.data_at(j), now, sticky, allowed);
    Some(diff.map_or(FieldSet::default(), |o| o.fields()))
}

/// The source's value of `node` (its look, for an instance root): what a revert gives back.
pub fn source_value(scene: &Scene, node: NodeId) -> Option<&NodeData> {
    let (_, source, j) = source_of(scene, node)?;
    Some(source.scene.data_at(j))
}

/// Set the fields `fields` of `node` back to its source's (and stop keeping them as
/// overrides). Empty when nothing of them is overridden.
pub fn revert_ops(scene: &Scene, node: NodeId, fields: u16) -> Result<Vec<Op>> {
    let Some((entry, source, j)) = source_of(scene, node) else {
        return Err(Error::Refused(format!(
            "node {node} does not come from a source: nothing to revert"
        )));
    };
    let on = overrides_of_node(scene, node).unwrap_or_default().0 & fields;
    let (base, now) = (source.scene.data_at(j), scene.node(node)?);
    let mut ops = super::values::value_ops(node, on, base, now);
    let chain = source.chains[j].clone();
    let before = entry.sticky.get(&chain).copied().unwrap_or_default();
    let after = FieldSet(before.0 & !on);
    if after != before {
        let root = entry.root;
        ops.push(Op::Instances(Box::new(TableEdit::Sticky {
            root,
            chain,
            before,
            after,
        })));
    }
    Ok(ops)
}

/// The branch rooted at `node` as a scene of its own, as it would be saved as `file` (sprite
/// and source paths rebased from `host`'s folder), its root at the origin.
fn branch_scene(scene: &Scene, host: &Path, node: NodeId, file: &Path) -> Result<Scene> {
    let mut nodes = scene.copy_subtree(node)?;
    nodes.parent = None;
    nodes.index = 0;
    nodes.data[0].local = Trs::IDENTITY;
    let mut branch = Scene::new();
    branch.insert_subtree(nodes)?;
    let roots: Vec<NodeId> = scene.instances().map_or(Vec::new(), |t| {
        (t.entries().iter())
            .map(|e| e.root)
            .filter(|r| branch.contains(*r))
            .collect()
    });
    if !roots.is_empty() {
        let table: &mut Instances = branch.instance_table_mut();
        for root in roots {
            if let Some(reg) = Registration::of(scene, root) {
                super::put_in(table, &reg);
            }
        }
    }
    branch.rebase_sprites(&folder_of(host), &folder_of(file));
    Ok(branch)
}

/// Save the branch rooted at `node` as the scene file `file` (written now; an undo leaves
/// it) and the ops that replace the branch by an instance of it, in its place with its
/// transform. Returns the ops and the instance root. Refused for a node a source gives and
/// for the scene's own file.
pub fn save_branch(
    scene: &Scene,
    host: &Path,
    node: NodeId,
    file: &Path,
) -> Result<(Vec<Op>, NodeId)> {
    if let Some(o) = scene.origin(node) {
        return Err(Error::Refused(format!(
            "node {node} belongs to instance {}: its branch is the source's (Make local first)",
            o.root
        )));
    }
    if super::expand::absolute(file) == super::expand::absolute(host) {
        return Err(Error::Refused(
            "a branch cannot be saved over the scene it is in".into(),
        ));
    }
    let branch = branch_scene(scene, host, node, file)?;
    crate::model::file::save(&branch, file)?;
    let text = source_text(Some(host), file);
    let (parent, index) = (scene.parent(node)?, scene.sibling_index(node)?);
    let prepared = super::edit::prepare(scene, host, &text, parent)?;
    let (mut subtree, reg): (DetachedSubtree, Registration) = prepared.into_parts();
    subtree.index = index;
    let here = scene.node(node)?;
    subtree.data[0].local = here.local;
    subtree.data[0].name = here.name.clone();
    let root = subtree.root();
    let ops = vec![
        Op::Remove { node },
        Op::Insert { subtree },
        swap(root, None, Some(reg)),
    ];
    Ok((ops, root))
}

/// The general path of a follow (`follow::follow_ops` tries the fast one first): each instance
/// whose nodes or source changed is replaced by the instance read again (its ids kept, every
/// override kept). Outer instances first: an instance inside one replaced (in a node added
/// under it) comes with its nodes, and only its rows are swapped if its source changed.
/// Empty when nothing changed.
pub fn replace_ops(scene: &Scene, host: &Path) -> Result<Vec<Op>> {
    let Some(table) = scene.instances() else {
        return Ok(Vec::new());
    };
    let fresh = super::edit::reload(scene, host)?;
    let mut roots: Vec<(usize, NodeId)> = (table.entries().iter())
        .filter(|e| fresh.contains(e.root))
        .filter_map(|e| Some((scene.index(e.root).ok()?, e.root)))
        .collect();
    roots.sort_unstable();
    // The end of the last replaced subtree: the roots before it come with its nodes.
    let mut replaced_to = 0;
    let mut ops = Vec::new();
    for (i, root) in roots {
        let (old, new) = (
            Registration::of(scene, root),
            Registration::of(&fresh, root),
        );
        if i < replaced_to {
            // Carried along: its rows change with its source only (not its sticky fields,
            // which a reload takes from the save: the fast path leaves them too).
            let source = |r: &Option<Registration>| r.as_ref().map(|r| r.entry.source.clone());
            if source(&old) != source(&new) {
                ops.push(swap(root, old, None));
                ops.push(swap(root, None, new));
                ops.extend(kept_op(scene, &fresh, root));
            }
            continue;
        }
        let (old_nodes, new_nodes) = (scene.copy_subtree(root)?, fresh.copy_subtree(root)?);
        if old == new && old_nodes == new_nodes {
            continue;
        }
        ops.push(swap(root, old, None));
        ops.push(Op::Remove { node: root });
        ops.push(Op::Insert { subtree: new_nodes });
        ops.push(swap(root, None, new));
        ops.extend(kept_op(scene, &fresh, root));
        replaced_to = i + scene.subtree_len_at(i);
    }
    Ok(ops)
}

/// The edit that gives the instance rooted at `root` the kept indexes it has in `fresh`
/// (the scene read again), if they differ.
fn kept_op(scene: &Scene, fresh: &Scene, root: NodeId) -> Option<Op> {
    let (before, after) = (kept_rows(scene, root), kept_rows(fresh, root));
    (before != after).then(|| {
        Op::Instances(Box::new(TableEdit::Kept {
            root,
            before,
            after,
        }))
    })
}

/// The kept sibling indexes (node, its parent then, the index) of the nodes added directly
/// under the instance rooted at `root` (under it or one of its source nodes) and of the nodes
/// the table has waiting for it, sorted by node: what a load sets and a follow replaces.
fn kept_rows(scene: &Scene, root: NodeId) -> Vec<(NodeId, NodeId, u32)> {
    let (Some(table), Ok(i)) = (scene.instances(), scene.index(root)) else {
        return Vec::new();
    };
    let of_instance =
        |p: usize| p == i || table.origin(scene.id_at(p)).is_some_and(|o| o.root == root);
    let added = (i + 1..i + scene.subtree_len_at(i))
        .filter(|&k| table.origin(scene.id_at(k)).is_none())
        .filter(|&k| scene.parent_index_at(k).is_some_and(of_instance))
        .map(|k| scene.id_at(k));
    let waiting = (table.pending.iter())
        .filter(|(_, (r, _))| *r == root)
        .map(|(id, _)| *id);
    super::carry::kept_of(scene, added.chain(waiting))
}

/// The rows of each instance whose root is among `ids` (nodes of `scene` being copied): what
/// a copy carries so that its paste is an instance again, not plain nodes.
pub fn rows_of(scene: &Scene, ids: &[NodeId]) -> Vec<Registration> {
    if scene.instances().is_none() {
        return Vec::new();
    }
    (ids.iter())
        .filter(|id| scene.instance_entry(**id).is_some())
        .filter_map(|id| Registration::of(scene, *id))
        .collect()
}

/// The ops that make copies instances (after the ops inserting them): `rows` as [`rows_of`]
/// took them, each node renumbered by `map` (old id → the copy's id); a row whose root was
/// not copied is left out. The source is shared with the original, every override kept;
/// `path` gives an entry its source's name as the scene pasted into names it.
pub fn register_copies(
    rows: &[Registration],
    map: &FxHashMap<NodeId, NodeId>,
    path: &dyn Fn(&Entry) -> Option<String>,
) -> Vec<Op> {
    let mut ops = Vec::new();
    for reg in rows {
        let Some(&root) = map.get(&reg.entry.root) else {
            continue;
        };
        let mut entry = reg.entry.clone();
        entry.root = root;
        if let Some(text) = path(&entry) {
            entry.path = text;
        }
        let origins = (reg.origins.iter())
            .filter_map(|(id, j)| Some((*map.get(id)?, *j)))
            .collect();
        let pending = (reg.pending.iter())
            .filter_map(|(id, c)| Some((*map.get(id)?, c.clone())))
            .collect();
        let copy = Registration {
            entry,
            origins,
            pending,
        };
        ops.push(swap(root, None, Some(copy)));
    }
    ops
}
