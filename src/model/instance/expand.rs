//! Expanding instances while a scene loads: each source read once per load (`.ron` through
//! the loader, its own instances expanded first; `.tscn` through the Godot importer), a cycle
//! through any number of files refused with the chain named, and every instance's nodes added
//! below its root with its overrides applied. A source that cannot be read leaves a
//! placeholder that keeps the instance's overrides verbatim.

use super::ids::{Chain, Origin};
use super::overrides::{FieldSet, Override};
use crate::error::{Error, Result};
use crate::model::file_node::NodeInstance;
use crate::model::scene::column::Column;
use crate::model::scene::sprites::{folder_of, normalize};
use crate::model::scene::types::{Entry, Instances, Source};
use crate::model::scene::{NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a load knows about sources: the files being read (a cycle check), the sources read
/// so far, and for a reload the ids the expanded nodes had.
pub(crate) struct Resolver {
    /// Reads a `.ron` source file as a scene, expanding its own instances through this
    /// resolver: the loader (`file_load::load_source`), passed in so that the expansion does
    /// not import the loader back.
    load: Load,
    stack: Vec<PathBuf>,
    cache: FxHashMap<PathBuf, std::result::Result<Arc<Source>, String>>,
    /// Set when a cycle was found (its message): every file on the way refuses to load
    /// with it.
    cycle: Option<String>,
    /// For the outermost scene only: ids to give the expanded nodes again.
    pub(crate) reuse: Option<Reuse>,
    /// For the outermost scene only: each instance root's source as given (a journal's
    /// snapshot), used instead of reading the file.
    pub(crate) given: Option<FxHashMap<NodeId, std::result::Result<Arc<Source>, String>>>,
}

/// How a resolver reads a `.ron` source file (called once per file read, never per node).
pub(crate) type Load = fn(&Path, &mut Resolver) -> Result<Scene>;

/// The ids a reload gives back: by (instance root, chain), and the next fresh id.
#[derive(Default)]
pub(crate) struct Reuse {
    pub(crate) ids: FxHashMap<(NodeId, Chain), NodeId>,
    pub(crate) next: u32,
}

/// A file's path absolute and normalized, so one file is one key.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

impl Resolver {
    /// A resolver that reads source files with `load`.
    pub(crate) fn new(load: Load) -> Self {
        Self {
            load,
            stack: Vec::new(),
            cache: FxHashMap::default(),
            cycle: None,
            reuse: None,
            given: None,
        }
    }

    /// A resolver that refuses sources leading back to `files` (the scene being edited).
    pub(crate) fn within(files: &[&Path], load: Load) -> Self {
        Self {
            stack: files.iter().map(|p| absolute(p)).collect(),
            ..Self::new(load)
        }
    }

    /// Put the file being expanded on the stack unless it is there (the outermost scene);
    /// true when it was put there.
    pub(crate) fn stack_push(&mut self, abs: &Path) -> bool {
        let fresh = self.stack.last().is_none_or(|p| p != abs);
        if fresh {
            self.stack.push(abs.to_path_buf());
        }
        fresh
    }

    /// Take back what [`Resolver::stack_push`] put there.
    pub(crate) fn stack_pop(&mut self, pushed: bool) {
        if pushed {
            self.stack.pop();
        }
    }

    /// The chain of files from `abs`'s first appearance on the stack, named from the first
    /// file's folder: `a.ron -> b.ron -> a.ron`.
    fn cycle_text(&self, abs: &Path) -> String {
        let base = self.stack.first().map(|p| folder_of(p)).unwrap_or_default();
        let start = self.stack.iter().position(|p| p == abs).unwrap_or(0);
        let name = |p: &Path| {
            pathdiff::diff_paths(p, &base)
                .unwrap_or_else(|| p.to_path_buf())
                .display()
                .to_string()
        };
        let mut names: Vec<String> = self.stack[start..].iter().map(|p| name(p)).collect();
        names.push(name(abs));
        names.join(" -> ")
    }

    /// The source at `abs`: read once, or why it cannot be used (`Ok(Err)`: a placeholder).
    /// A cycle is an error.
    pub(crate) fn source(
        &mut self,
        abs: &Path,
    ) -> Result<std::result::Result<Arc<Source>, String>> {
        if self.stack.iter().any(|p| p == abs) {
            let message = format!("instance cycle: {}", self.cycle_text(abs));
            self.cycle = Some(message.clone());
            return Err(Error::Format(message));
        }
        if let Some(known) = self.cache.get(abs) {
            return Ok(known.clone());
        }
        self.stack.push(abs.to_path_buf());
        let reuse = self.reuse.take();
        let read = self.read(abs);
        self.reuse = reuse;
        self.stack.pop();
        let read = read?.map(Arc::new);
        self.cache.insert(abs.to_path_buf(), read.clone());
        Ok(read)
    }

    /// Read and expand one source file.
    fn read(&mut self, abs: &Path) -> Result<std::result::Result<Source, String>> {
        let tscn = crate::model::file_kind::FileKind::GodotText.is(abs);
        let scene = if tscn {
            crate::model::godot::import::import_file(abs).map(|i| i.scene)
        } else {
            (self.load)(abs, self)
        };
        let scene = match scene {
            Ok(scene) => scene,
            Err(_) if self.cycle.is_some() => {
                return Err(Error::Format(self.cycle.clone().unwrap_or_default()));
            }
            Err(e) => return Ok(Err(e.to_string())),
        };
        let roots = scene.child_indices(None).count();
        if roots != 1 {
            return Ok(Err(format!(
                "{} has {roots} roots (an instanced scene has one)",
                abs.display()
            )));
        }
        Ok(Ok(Source::from_scene(scene, abs)))
    }
}

/// The columns of a scene with its instances expanded (the expanded nodes first, so they
/// come before nodes added beside them), and its instance table.
pub(crate) struct Expanded {
    pub(crate) ids: Vec<NodeId>,
    pub(crate) parents: Vec<Option<NodeId>>,
    pub(crate) data: Column,
    pub(crate) table: Instances,
}

/// The file's own columns and instance marks, expanded: see [`Expanded`].
pub(crate) fn expand(
    host: &Path,
    mut columns: Expanded,
    marks: Vec<(u32, NodeInstance)>,
    resolver: &mut Resolver,
) -> Result<Expanded> {
    let max_host = columns.ids.iter().map(|id| id.0).max().unwrap_or(0);
    let mut fresh = Fresh {
        next: max_host
            .saturating_add(1)
            .max(resolver.reuse.as_ref().map_or(0, |r| r.next)),
        reuse: resolver.reuse.take(),
    };
    let mut front = Expanded {
        ids: Vec::new(),
        parents: Vec::new(),
        data: Column::default(),
        table: Instances::default(),
    };
    let new_ids = expand_instances(host, &mut columns, &marks, resolver, &mut front, &mut fresh)?;
    place_inside(&mut columns, &marks, &mut front.table, &new_ids)?;
    if front.ids.len() + columns.ids.len() > crate::model::file_format::MAX_NODES {
        return Err(Error::Format(format!(
            "the instances expand to more than {} nodes",
            crate::model::file_format::MAX_NODES
        )));
    }
    let indexed = indexed_slots(&marks, &columns, &mut front.table, front.ids.len())?;
    front.ids.append(&mut columns.ids);
    front.parents.append(&mut columns.parents);
    front.data.append(columns.data);
    if !indexed.is_empty() {
        put_at_indexes(&mut front, &indexed);
    }
    Ok(front)
}

/// The added nodes a file gives a sibling index (`index: n`), as (position in the combined
/// list, index). A node that cannot be placed among the source's nodes (its `inside` node is
/// gone, or its instance is a placeholder) keeps its index in the table, to be written back;
/// an index under a parent that is no instance nor a node of one is refused.
fn indexed_slots(
    marks: &[(u32, NodeInstance)],
    columns: &Expanded,
    table: &mut Instances,
    offset: usize,
) -> Result<Vec<(usize, u32)>> {
    let mut out = Vec::new();
    for (slot, mark) in marks {
        let Some(index) = mark.index else { continue };
        let k = *slot as usize;
        let (id, parent) = (columns.ids[k], columns.parents[k]);
        let Some(parent) = parent else { continue }; // refused at parse: `index` needs a parent
        let placeholder = table.entry(parent).is_some_and(|e| e.source.is_err());
        if table.pending(id).is_some() {
            table.kept_index.insert(id, (parent, index)); // stays where it waits
            continue;
        } else if placeholder {
            table.kept_index.insert(id, (parent, index)); // placed among the added nodes
        } else if table.entry(parent).is_none() && table.origin(parent).is_none() {
            return Err(Error::Format(format!(
                "node {id}: `index` needs its parent to be an instance or a node of one"
            )));
        }
        out.push((offset + k, index));
    }
    Ok(out)
}

/// Move each indexed node among its siblings to its index (clamped), smallest index first
/// so each lands where the file says; only the slots of those siblings are permuted, so
/// every other parent's children keep their order.
fn put_at_indexes(list: &mut Expanded, indexed: &[(usize, u32)]) {
    let mut by_parent: FxHashMap<NodeId, Vec<(u32, usize)>> = FxHashMap::default();
    for &(k, index) in indexed {
        if let Some(p) = list.parents[k] {
            by_parent.entry(p).or_default().push((index, k));
        }
    }
    let mut siblings: FxHashMap<NodeId, Vec<usize>> = FxHashMap::default();
    for (k, parent) in list.parents.iter().enumerate() {
        if let Some(p) = parent.filter(|p| by_parent.contains_key(p)) {
            siblings.entry(p).or_default().push(k);
        }
    }
    let mut order: Vec<usize> = (0..list.ids.len()).collect();
    for (parent, mut moved) in by_parent {
        moved.sort_unstable();
        let slots = siblings.remove(&parent).unwrap_or_default();
        let mut placed: Vec<usize> = slots
            .iter()
            .copied()
            .filter(|k| !moved.iter().any(|m| m.1 == *k))
            .collect();
        for (index, k) in moved {
            placed.insert((index as usize).min(placed.len()), k);
        }
        for (slot, k) in slots.iter().zip(placed) {
            order[*slot] = k;
        }
    }
    list.ids = order.iter().map(|&k| list.ids[k]).collect();
    list.parents = order.iter().map(|&k| list.parents[k]).collect();
    list.data = std::mem::take(&mut list.data).permuted(&order);
}

/// Read each instance's source and put its nodes in `front`, overrides applied; returns
/// each instance's ids by source index.
fn expand_instances(
    host: &Path,
    columns: &mut Expanded,
    marks: &[(u32, NodeInstance)],
    resolver: &mut Resolver,
    front: &mut Expanded,
    fresh: &mut Fresh,
) -> Result<FxHashMap<NodeId, Vec<NodeId>>> {
    let folder = folder_of(host);
    let mut mapped: FxHashMap<PathBuf, Arc<Source>> = FxHashMap::default();
    let mut new_ids: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    for (slot, mark) in marks {
        let Some(path) = &mark.source else { continue };
        let k = *slot as usize;
        let root = columns.ids[k];
        let abs = absolute(&folder.join(path));
        let outermost = resolver.stack.len() == 1;
        let given = (resolver.given.as_ref())
            .filter(|_| outermost)
            .and_then(|g| g.get(&root).cloned());
        let source = match given {
            Some(source) => source,
            None => read_source(resolver, &abs, root, outermost, &mut mapped, &folder)?,
        };
        let mut entry = Entry {
            root,
            path: path.clone(),
            source,
            sticky: FxHashMap::default(),
            dangling: Vec::new(),
        };
        if let Ok(source) = entry.source.clone() {
            let root_data = columns.data.get_mut(k);
            let ids = place(&source, root, root_data, front, fresh);
            apply_overrides(&source, &mark.overrides, &mut entry, root_data, front, &ids)?;
            new_ids.insert(root, ids);
        } else {
            entry.dangling = mark.overrides.clone();
        }
        front.table.push(entry);
    }
    Ok(new_ids)
}

/// The source at `abs` as the instance rooted at `root` uses it: read once per load, its
/// sprite paths rebased to the folder of the scene being loaded (once per file).
fn read_source(
    resolver: &mut Resolver,
    abs: &Path,
    root: NodeId,
    outermost: bool,
    mapped: &mut FxHashMap<PathBuf, Arc<Source>>,
    folder: &Path,
) -> Result<std::result::Result<Arc<Source>, String>> {
    let read = resolver.source(abs).map_err(|e| match e {
        // The scene being loaded names where its cycle starts.
        Error::Format(m) if outermost => Error::Format(format!("node {root}: {m}")),
        other => other,
    });
    Ok(read?.map(|raw| {
        Arc::clone(mapped.entry(abs.to_path_buf()).or_insert_with(|| {
            let mut copy = Source::clone(&raw);
            copy.scene.rebase_sprites(&folder_of(&raw.path), folder);
            Arc::new(copy)
        }))
    }))
}

/// Give each node written `inside` a source node that node as its parent; one whose node
/// the source lacks stays under the instance root, pending.
fn place_inside(
    columns: &mut Expanded,
    marks: &[(u32, NodeInstance)],
    table: &mut Instances,
    new_ids: &FxHashMap<NodeId, Vec<NodeId>>,
) -> Result<()> {
    for (slot, mark) in marks {
        let Some(chain) = &mark.inside else { continue };
        let k = *slot as usize;
        let (id, parent) = (columns.ids[k], columns.parents[k]);
        let Some(root) = parent.filter(|p| table.entry(*p).is_some()) else {
            return Err(Error::Format(format!(
                "node {id}: `inside` needs its parent to be an instance"
            )));
        };
        let source = table.entry(root).and_then(|e| e.source.as_ref().ok());
        match source.and_then(|s| s.index_of(chain)) {
            Some(j) => columns.parents[k] = Some(new_ids[&root][j]),
            None => {
                table.pending.insert(id, (root, chain.clone()));
            }
        }
    }
    Ok(())
}

/// Where expanded nodes get their ids: given back by a reload, else counted up.
struct Fresh {
    next: u32,
    reuse: Option<Reuse>,
}

impl Fresh {
    fn id(&mut self, root: NodeId, chain: &[u32]) -> NodeId {
        if let Some(id) = self
            .reuse
            .as_mut()
            .and_then(|r| r.ids.remove(&(root, chain.into())))
        {
            return id;
        }
        let id = NodeId(self.next);
        self.next += 1;
        id
    }
}

/// Add the source's nodes below `root` (the root's look from the source's root); returns
/// each source index's id in this scene (index 0: the root).
fn place(
    source: &Source,
    root: NodeId,
    root_data: &mut NodeData,
    out: &mut Expanded,
    fresh: &mut Fresh,
) -> Vec<NodeId> {
    let base = source.scene.data_at(0);
    root_data.shape = base.shape.clone();
    root_data.color = base.color;
    root_data.probes = base.probes.clone();
    root_data.tracks = base.tracks.clone();
    let n = source.scene.len();
    let part = out.data.part(&source.path, || {
        (0..n).map(|j| source.scene.data_at(j).clone()).collect()
    });
    let mut ids = Vec::with_capacity(n);
    ids.push(root);
    for j in 1..n {
        let id = fresh.id(root, &source.chains[j]);
        ids.push(id);
        let parent = source.scene.parent_index_at(j).map_or(root, |p| ids[p]);
        out.ids.push(id);
        out.parents.push(Some(parent));
        match part {
            Some(part) => out.data.push_shared(part, j as u32),
            None => out
                .data
                .append(vec![source.scene.data_at(j).clone()].into()),
        }
        out.table.origins.insert(
            id,
            Origin {
                root,
                index: j as u32,
            },
        );
    }
    ids
}

/// Apply an instance's overrides to its nodes (the last `ids.len() - 1` of `out`), keeping
/// which fields each set; those whose node the source lacks are kept as dangling.
fn apply_overrides(
    source: &Source,
    overrides: &[Override],
    entry: &mut Entry,
    root_data: &mut NodeData,
    out: &mut Expanded,
    ids: &[NodeId],
) -> Result<()> {
    let first = out.data.len() + 1 - ids.len();
    for o in overrides {
        let Some(j) = source.index_of(&o.node) else {
            entry.dangling.push(o.clone());
            continue;
        };
        let fields = o.fields();
        if j == 0 {
            if fields.0 & !FieldSet::ROOT != 0 {
                return Err(Error::Format(format!(
                    "node {}: the override of node {} (the source's root) may set only shape, \
                     color, probes and tracks (the instance's own line holds its name and \
                     transform)",
                    entry.root,
                    Override::node_text(&o.node)
                )));
            }
            o.apply(root_data);
        } else {
            o.apply(out.data.get_mut(first + j - 1));
            let local = out.data.get(first + j - 1).local.to_affine();
            out.data.set_local(first + j - 1, local);
        }
        let sticky = entry.sticky.entry(o.node.clone()).or_default();
        sticky.0 |= fields.0;
    }
    Ok(())
}
