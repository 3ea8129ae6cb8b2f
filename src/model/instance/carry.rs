//! Nodes added under an instance's source nodes, carried along when a reshape rebuilds the
//! instance (`share.rs`): where each instance's source nodes and added subtrees sit now
//! ([`Layout`]), where they sit after a load of the scene against the new source
//! ([`placing_loaded`]: the loader's rules, so the one pass equals loading again), and the
//! new subtree built in one pre-order walk with the added subtrees at their recorded places
//! ([`emit`]). Placements travel in the table edit (`table_edit.rs` [`Placing`]), so undo puts
//! every added node back where it was.

use super::ids::Chain;
use super::table_edit::{Placed, Placing};
use crate::model::scene::block::{BlockNode, Fill};
use crate::model::scene::types::{Instances, Source};
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::Path;

/// Where the nodes of the instance rooted at index `i` are: each source node's index in the
/// scene, and the added subtrees (their roots' indices, in pre-order).
pub(crate) struct Layout {
    /// Source index → pre-order index in the scene (0: the root).
    pub(crate) at: Vec<usize>,
    /// The roots of the added subtrees, in pre-order.
    pub(crate) added: Vec<usize>,
}

/// The layout of the instance rooted at index `i`, when its nodes are `source`'s nodes in
/// its order and places, with whole subtrees added under them (none holding an instance of
/// the file `key`, which the same reshape rebuilds). None otherwise.
pub(crate) fn layout(scene: &Scene, i: usize, source: &Source, key: &Path) -> Option<Layout> {
    let root = scene.id_at(i);
    let end = i + scene.subtree_len_at(i);
    let mut at = Vec::with_capacity(source.scene.len());
    at.push(i);
    let mut added = Vec::new();
    let mut k = i + 1;
    while k < end {
        match scene.origin(scene.id_at(k)) {
            Some(o) if o.root == root => {
                let j = o.index as usize;
                let parent = source.scene.parent_index_at(j).and_then(|p| at.get(p));
                if j != at.len() || parent.copied() != scene.parent_index_at(k) {
                    return None;
                }
                at.push(k);
                k += 1;
            }
            _ => {
                let len = scene.subtree_len_at(k);
                if !carriable(scene, k..k + len, root, key) {
                    return None;
                }
                added.push(k);
                k += len;
            }
        }
    }
    (at.len() == source.scene.len()).then_some(Layout { at, added })
}

/// True when no node of the added subtree `range` belongs to the instance `root` itself or
/// is an instance of `key` (nor a node of one).
fn carriable(scene: &Scene, range: std::ops::Range<usize>, root: NodeId, key: &Path) -> bool {
    let of_key = |r: NodeId| {
        (scene.instance_entry(r)).is_some_and(|e| e.source.as_ref().is_ok_and(|s| s.path == key))
    };
    range.into_iter().all(|k| {
        let id = scene.id_at(k);
        match scene.origin(id) {
            Some(o) => o.root != root && !of_key(o.root),
            None => !of_key(id),
        }
    })
}

/// The added subtrees' places now: each root's parent and index among its siblings, and
/// the nodes of instance `root` the table has waiting (`pending`, from [`pending_by_root`]:
/// wherever they are now, as the general path's rows of the instance hold them).
pub(crate) fn placing_now(
    scene: &Scene,
    layout: &Layout,
    root: NodeId,
    pending: &[(NodeId, Chain)],
) -> Placing {
    let placed = (layout.added.iter())
        .map(|&x| {
            let p = scene.parent_index_at(x);
            let index = scene.child_indices(p).position(|c| c == x).unwrap_or(0);
            Placed {
                node: scene.id_at(x),
                parent: p.map_or(root, |p| scene.id_at(p)),
                index: index as u32,
            }
        })
        .collect();
    let added = layout.added.iter().map(|&x| scene.id_at(x));
    let kept = kept_of(scene, added.chain(pending.iter().map(|(id, _)| *id)));
    Placing {
        placed,
        pending: pending.to_vec(),
        kept,
    }
}

/// The table's kept indexes (node, its parent then, the index) of the nodes `ids`, sorted by
/// node: what a load sets and a follow replaces (here and in `plan::replace_ops`).
pub(crate) fn kept_of(
    scene: &Scene,
    ids: impl Iterator<Item = NodeId>,
) -> Vec<(NodeId, NodeId, u32)> {
    let Some(table) = scene.instances() else {
        return Vec::new();
    };
    let mut out: Vec<(NodeId, NodeId, u32)> = ids
        .filter_map(|id| table.kept_index.get(&id).map(|&(p, k)| (id, p, k)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// True when the added subtrees of `layout` are where `placing` records them: the same
/// nodes under the same parents at the same indices (a replayed edit over an added node
/// moved since is refused, not put back). The waiting entries are not compared: another
/// source's reshape in the same follow may have changed one for a node moved between
/// instances.
pub(crate) fn recorded(scene: &Scene, layout: &Layout, placing: &Placing) -> bool {
    let now = placing_now(scene, layout, scene.id_at(layout.at[0]), &[]);
    let sorted = |p: &[Placed]| {
        let mut v = p.to_vec();
        v.sort_unstable_by_key(|p| p.node);
        v
    };
    sorted(&now.placed) == sorted(&placing.placed)
}

/// The nodes the table has waiting, by instance root (each list sorted by id).
pub(crate) fn pending_by_root(scene: &Scene) -> FxHashMap<NodeId, Vec<(NodeId, Chain)>> {
    let mut out: FxHashMap<NodeId, Vec<(NodeId, Chain)>> = FxHashMap::default();
    for (id, (root, chain)) in scene.instances().map(|t| &t.pending).into_iter().flatten() {
        out.entry(*root).or_default().push((*id, chain.clone()));
    }
    for list in out.values_mut() {
        list.sort_by_key(|(id, _)| *id);
    }
    out
}

/// One added subtree on its way through a load: where the file puts it.
struct Bound {
    /// Its root's pre-order index now.
    x: usize,
    /// The new source's node it goes under (0: the instance root).
    dest: usize,
    /// The `index` the save writes for it, when the load places it by that.
    index: Option<u32>,
    /// The `index` the save writes for it (a load keeps it for a node left waiting).
    written: Option<u32>,
    /// The chain it waits for, when it stays pending.
    pending: Option<Chain>,
}

/// Where loading the scene (saved now) against `to` puts the added subtrees of the instance
/// at `layout` (its source `from`; `to_ids`: the id of each node of `to` after the reshape):
/// the save's `inside` and `index` (`save.rs`), then the loader's placing (`expand.rs`): the
/// source's children first, the added nodes after them in file order, then each indexed one
/// moved to its index, smallest first.
pub(crate) fn placing_loaded(
    scene: &Scene,
    layout: &Layout,
    (from, to): (&Source, &Source),
    to_ids: &[NodeId],
) -> Placing {
    let (i, table) = (layout.at[0], scene.instances());
    let root = scene.id_at(i);
    let mut bound = Vec::with_capacity(layout.added.len());
    for &x in &layout.added {
        let p = scene.parent_index_at(x).unwrap_or(i);
        let waiting = table.and_then(|t| t.pending(scene.id_at(x)));
        // `at` is in pre-order, so the parent's source index is found by a binary search.
        let chain: Option<&[u32]> = match layout.at.binary_search(&p) {
            Ok(0) => waiting.filter(|(r, _)| *r == root).map(|(_, c)| c),
            Ok(a) => Some(&from.chains[a]),
            Err(_) => None,
        };
        let found = chain.map(|c| (c, to.index_of(c)));
        let (dest, pending) = match found {
            Some((_, Some(j))) => (j, None),
            Some((c, None)) => (0, Some(Chain::from(c))),
            None => (0, None),
        };
        // Pending here: waiting under this root (an entry left by a move elsewhere is not).
        let here = waiting.is_some_and(|(r, _)| r == scene.id_at(p));
        let index = written_index(scene, table, x, p, here);
        bound.push(Bound {
            x,
            dest,
            index: index.filter(|_| pending.is_none()),
            written: index,
            pending,
        });
    }
    let placed = placed_loaded(scene, &bound, to, to_ids);
    let mut pending: Vec<(NodeId, Chain)> = (bound.iter())
        .filter_map(|b| Some((scene.id_at(b.x), b.pending.clone()?)))
        .collect();
    pending.sort_by_key(|(id, _)| *id);
    Placing {
        placed,
        pending,
        kept: kept_loaded(scene, &bound, root),
    }
}

/// Each added subtree's parent and index among its children after a load, sorted by node.
fn placed_loaded(scene: &Scene, bound: &[Bound], to: &Source, to_ids: &[NodeId]) -> Vec<Placed> {
    let mut placed = Vec::with_capacity(bound.len());
    let mut by_dest: FxHashMap<usize, Vec<&Bound>> = FxHashMap::default();
    for b in bound {
        by_dest.entry(b.dest).or_default().push(b);
    }
    for (dest, list) in by_dest {
        let sources = children_count(&to.scene, dest);
        for (b, index) in loaded_order(sources, &list) {
            placed.push(Placed {
                node: scene.id_at(b.x),
                parent: to_ids[dest],
                index,
            });
        }
    }
    placed.sort_by_key(|p| p.node);
    placed
}

/// The kept indexes a load gives: the index written for each node it leaves waiting under
/// `root` (`expand.rs` `indexed_slots`), sorted by node.
fn kept_loaded(scene: &Scene, bound: &[Bound], root: NodeId) -> Vec<(NodeId, NodeId, u32)> {
    let mut kept: Vec<(NodeId, NodeId, u32)> = (bound.iter())
        .filter(|b| b.pending.is_some())
        .filter_map(|b| Some((scene.id_at(b.x), root, b.written?)))
        .collect();
    kept.sort_unstable();
    kept
}

/// The `index` a save writes for the added node at `x` under the node at `p`
/// (`save::sibling_indexes`): the one its file gave it while it stays under that parent,
/// else its place when a source node comes after it (not for a node pending there).
fn written_index(
    scene: &Scene,
    table: Option<&Instances>,
    x: usize,
    p: usize,
    pending_here: bool,
) -> Option<u32> {
    let id = scene.id_at(x);
    if let Some(&(then, index)) = table.and_then(|t| t.kept_index.get(&id))
        && then == scene.id_at(p)
    {
        return Some(index);
    }
    if pending_here {
        return None;
    }
    let children: Vec<usize> = scene.child_indices(Some(p)).collect();
    let at = children.iter().position(|&c| c == x)?;
    let from_source = |c: usize| scene.origin(scene.id_at(c)).is_some();
    children[at + 1..]
        .iter()
        .any(|&c| from_source(c))
        .then_some(at as u32)
}

/// The number of children of the node at `j` in `scene`.
fn children_count(scene: &Scene, j: usize) -> usize {
    scene.child_indices(Some(j)).count()
}

/// Each added subtree's index among its new parent's children after a load: `sources`
/// source children first, the added ones after them in their order now, then each indexed
/// one moved to its index (clamped), smallest index first (`expand.rs` `put_at_indexes`).
fn loaded_order<'a>(sources: usize, list: &[&'a Bound]) -> Vec<(&'a Bound, u32)> {
    let mut slots: Vec<Option<&Bound>> = vec![None; sources];
    slots.extend(list.iter().filter(|b| b.index.is_none()).map(|b| Some(*b)));
    let mut moved: Vec<(u32, usize, &Bound)> = (list.iter().enumerate())
        .filter_map(|(n, b)| Some((b.index?, n, *b)))
        .collect();
    moved.sort_by_key(|(index, n, _)| (*index, *n));
    for (index, _, b) in moved {
        slots.insert((index as usize).min(slots.len()), Some(b));
    }
    (slots.iter().enumerate())
        .filter_map(|(n, s)| Some(((*s)?, n as u32)))
        .collect()
}

/// The nodes below a reshaped instance's root in pre-order: `to`'s nodes (the id and fill of
/// each from `node_of`) with the added subtrees of `placing` at their indices among their
/// parents' children (`to_ids`: each node of `to`'s id, so a placement's parent is found).
pub(crate) fn emit(
    scene: &Scene,
    to: &Source,
    to_ids: &[NodeId],
    placing: &Placing,
    mut node_of: impl FnMut(usize) -> Option<(NodeId, Fill)>,
) -> Option<Vec<BlockNode>> {
    let parents: rustc_hash::FxHashSet<NodeId> = placing.placed.iter().map(|p| p.parent).collect();
    let dest_of: FxHashMap<NodeId, usize> = (to_ids.iter().enumerate())
        .filter(|(_, id)| parents.contains(id))
        .map(|(j, id)| (*id, j))
        .collect();
    let mut waiting: FxHashMap<usize, Vec<(u32, usize)>> = FxHashMap::default();
    for p in &placing.placed {
        let x = scene.index(p.node).ok()?;
        waiting
            .entry(*dest_of.get(&p.parent)?)
            .or_default()
            .push((p.index, x));
    }
    let mut has = vec![false; to.scene.len()];
    for (j, list) in waiting.iter_mut() {
        has[*j] = true;
        list.sort_unstable_by(|a, b| b.cmp(a)); // popped smallest first
    }
    let mut out = Emitter {
        scene,
        nodes: Vec::with_capacity(to.scene.len()),
        waiting,
        has,
        // Open parents: (node of `to`, its block index, children so far).
        open: vec![(0, 0, 0)],
    };
    for j in 1..to.scene.len() {
        let parent = to.scene.parent_index_at(j)?;
        while out.open.last()?.0 != parent {
            out.close();
        }
        out.flush(false);
        let (id, fill) = node_of(j)?;
        let block = out.push(id, out.open.last()?.1, fill);
        out.open.push((j, block, 0));
    }
    while !out.open.is_empty() {
        out.close();
    }
    Some(out.nodes)
}

/// The walk of [`emit`].
struct Emitter<'a> {
    scene: &'a Scene,
    nodes: Vec<BlockNode>,
    waiting: FxHashMap<usize, Vec<(u32, usize)>>,
    /// Whether a node of `to` (by index) has added subtrees waiting (most have none).
    has: Vec<bool>,
    open: Vec<(usize, u32, u32)>,
}

impl Emitter<'_> {
    /// Add a node under the block node `parent`; its block index.
    fn push(&mut self, id: NodeId, parent: u32, fill: Fill) -> u32 {
        self.nodes.push(BlockNode { id, parent, fill });
        if let Some(top) = self.open.last_mut() {
            top.2 += 1;
        }
        self.nodes.len() as u32
    }

    /// Add the innermost open parent's added subtrees whose index has come (all, `all`).
    fn flush(&mut self, all: bool) {
        let Some(&(j, block, _)) = self.open.last() else {
            return;
        };
        if !self.has.get(j).copied().unwrap_or(false) {
            return;
        }
        loop {
            let count = self.open.last().map_or(0, |t| t.2);
            let Some(list) = self.waiting.get_mut(&j) else {
                return;
            };
            match list.last() {
                Some(&(index, x)) if all || index <= count => {
                    list.pop();
                    self.carry(x, block);
                }
                _ => return,
            }
        }
    }

    /// Add the added subtree rooted at `x` (the scene's index) under the block node `parent`.
    fn carry(&mut self, x: usize, parent: u32) {
        let scene = self.scene;
        let base = self.push(scene.id_at(x), parent, Fill::Carried { old: x as u32 });
        for k in x + 1..x + scene.subtree_len_at(x) {
            let p = scene.parent_index_at(k).unwrap_or(x);
            let node = BlockNode {
                id: scene.id_at(k),
                parent: base + (p - x) as u32,
                fill: Fill::Carried { old: k as u32 },
            };
            self.nodes.push(node);
        }
    }

    /// Close the innermost open parent: its added subtrees not placed yet go last.
    fn close(&mut self) {
        self.flush(true);
        self.open.pop();
    }
}
