//! Following a source that gained, lost or moved nodes without removing and inserting each
//! instance: one [`TableEdit::Reshape`] per source rebuilds every instance's nodes in one pass
//! over the scene (`share.rs`: ids kept by chain, the new source's nodes shared; here its
//! plan, so the scene/instance circle does not reach the planning), and value ops beside it
//! give the nodes what loading the scene again would (the overrides as a save writes them,
//! applied to the new source; those whose node is gone kept as dangling). Nodes added under
//! an instance's source nodes are carried along to where a load puts them (`carry.rs`; the
//! edit is then a [`TableEdit::ReshapeCarrying`]). The result equals the general path's
//! (`plan::replace_ops`).

use super::carry;
use super::ids::Chain;
use super::overrides::{FieldSet, Override};
use super::share::{gone, index_map};
use super::table_edit::TableEdit;
use super::table_edit::{Carry, Reshaping, Row, Side};
use crate::model::scene::edit::Op;
use crate::model::scene::types::{Entry, Source};
use crate::model::scene::{NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// What a save writes for the instance rooted at index `i` and a load of it with `to` gives:
/// per node of `to` the overrides it gets, the sticky fields and the dangling overrides.
struct Loaded {
    applied: FxHashMap<u32, Vec<Override>>,
    sticky: FxHashMap<Chain, FieldSet>,
    dangling: Vec<Override>,
}

/// The overrides the save writes for the instance laid out at `at` (as `save::overrides_of`: the root's
/// look, the nodes in pre-order, the dangling ones), read back against `to` as the loader does.
fn loaded(scene: &Scene, entry: &Entry, at: &[usize], from: &Source, to: &Source) -> Loaded {
    let sticky = |chain: &[u32]| entry.sticky.get(chain).copied().unwrap_or_default();
    let mut written = Vec::new();
    let root_chain = &from.chains[0];
    let root = scene.data_at(at[0]);
    let base = from.scene.data_at(0);
    written.extend(Override::diff(
        root_chain.clone(),
        base,
        root,
        sticky(root_chain),
        FieldSet::ROOT,
    ));
    for (k, &here) in at.iter().enumerate().skip(1) {
        let chain = &from.chains[k];
        if scene.is_shared_at(here) && !entry.sticky.contains_key(chain) {
            continue;
        }
        let was = from.scene.data_at(k);
        // A shared node shows its source's node (posed or not: a pose is no override).
        let now = if scene.is_shared_at(here) {
            was
        } else {
            scene.data_at(here)
        };
        written.extend(Override::diff(
            chain.clone(),
            was,
            now,
            sticky(chain),
            u16::MAX,
        ));
    }
    written.extend(entry.dangling.iter().cloned());
    let mut out = Loaded {
        applied: FxHashMap::default(),
        sticky: FxHashMap::default(),
        dangling: Vec::new(),
    };
    for o in written {
        match to.index_of(&o.node) {
            Some(j) => {
                let fields = out.sticky.entry(o.node.clone()).or_default();
                fields.0 |= o.fields().0;
                out.applied.entry(j as u32).or_default().push(o);
            }
            None => out.dangling.push(o),
        }
    }
    out
}

/// The node as loading gives it: `base` with `overrides` applied.
fn with(base: &NodeData, overrides: Option<&Vec<Override>>) -> NodeData {
    let mut data = base.clone();
    for o in overrides.into_iter().flatten() {
        o.apply(&mut data);
    }
    data
}

/// The value ops that take the node `id` from what it shows to what it should.
fn settle_ops(
    id: NodeId,
    chain: &Chain,
    shows: &NodeData,
    wanted: &NodeData,
    allowed: u16,
) -> Vec<Op> {
    match Override::diff(chain.clone(), shows, wanted, FieldSet(0), allowed) {
        Some(on) => super::values::value_ops(id, on.fields().0, wanted, shows),
        None => Vec::new(),
    }
}

/// The reshape of one source's instances: the table edit and the value ops that follow it.
pub(crate) struct Planned {
    /// The [`TableEdit::Reshape`].
    pub(crate) edit: Op,
    /// The value ops (after every reshape of the follow).
    pub(crate) values: Vec<Op>,
}

/// Plan the reshape of `entries` (every instance in the scene of one source file) from
/// `from` to `to`; `fresh` gives each root the ids of the nodes only `to` has. Nodes added
/// under an instance's source nodes are carried to where a load would put them. None when an
/// instance's nodes are not its source's (moved, or an added subtree holds an instance of the
/// same file) or the part is not shared as `from` (the general path then).
pub(crate) fn plan(
    scene: &Scene,
    entries: &[&Entry],
    (from, to): (&Arc<Source>, &Arc<Source>),
    fresh: &mut FxHashMap<NodeId, Vec<NodeId>>,
) -> Option<Planned> {
    let part = scene.shared_part(&from.path)?;
    let same = part.len() == from.scene.len()
        && (0..part.len()).all(|j| same_but_pose(&part[j], from.scene.data_at(j)));
    if !same {
        return None;
    }
    let map = index_map(from, to);
    let gone = gone(from, to);
    let work: Vec<(&Entry, Vec<NodeId>)> = (entries.iter())
        .map(|e| (*e, fresh.remove(&e.root).unwrap_or_default()))
        .collect();
    let pending = carry::pending_by_root(scene);
    // Each instance planned from the scene as it is: on both cores for a big scene.
    let threads = crate::model::scene::threads_for(scene.len());
    let planned = crate::model::pool::map_in_pieces(&work, threads, &|(entry, ids)| {
        let i = scene.index(entry.root).ok()?;
        let layout = carry::layout(scene, i, from, &from.path)?;
        let loaded = loaded(scene, entry, &layout.at, from, to);
        let values = value_ops(scene, &layout.at, to, &map, ids, &loaded);
        let waiting = pending.get(&entry.root).map_or(&[][..], Vec::as_slice);
        let carry = carry_of(scene, &layout, (from, to), (&map, waiting), ids);
        let row = row_of(scene, entry, &layout.at, &gone, ids.clone(), loaded);
        Some((values, carry, row))
    });
    let mut rows = Vec::with_capacity(entries.len());
    let mut carried = Vec::with_capacity(entries.len());
    let mut values = Vec::new();
    for one in planned {
        let (v, carry, row) = one?;
        values.extend(v);
        carried.push(carry);
        rows.push(row);
    }
    let edit = reshape_edit(entries.first()?.root, (from, to), rows, carried);
    Some(Planned { edit, values })
}

/// The row of the instance laid out at `at`: the ids and own data of the nodes only `from`
/// has (`gone`), then the new nodes' `ids`, and the entry's fields before and as `loaded`.
fn row_of(
    scene: &Scene,
    entry: &Entry,
    at: &[usize],
    gone: &[usize],
    ids: Vec<NodeId>,
    loaded: Loaded,
) -> Row {
    let own = (gone.iter())
        .filter(|&&j| !scene.is_shared_at(at[j]))
        .map(|&j| (scene.id_at(at[j]), scene.data_at(at[j]).clone()))
        .collect();
    let sorted = |m: &FxHashMap<Chain, FieldSet>| {
        let mut v: Vec<(Chain, FieldSet)> = m.iter().map(|(c, f)| (c.clone(), *f)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    Row {
        root: entry.root,
        before: Side {
            ids: gone.iter().map(|&j| scene.id_at(at[j])).collect(),
            own,
            sticky: sorted(&entry.sticky),
            dangling: entry.dangling.clone(),
        },
        after: Side {
            ids,
            own: Vec::new(),
            sticky: sorted(&loaded.sticky),
            dangling: loaded.dangling,
        },
    }
}

/// The table edit of a reshape: a [`TableEdit::Reshape`] when no instance has added nodes
/// (the journal's format 5 record), else a [`TableEdit::ReshapeCarrying`].
fn reshape_edit(
    root: NodeId,
    (from, to): (&Arc<Source>, &Arc<Source>),
    rows: Vec<Row>,
    carried: Vec<Carry>,
) -> Op {
    let edit = Reshaping {
        root,
        key: from.path.clone(),
        before: Ok(Arc::clone(from)),
        after: Ok(Arc::clone(to)),
        rows,
    };
    let edit = if carried.iter().all(|c| *c == Carry::default()) {
        TableEdit::Reshape(edit)
    } else {
        TableEdit::ReshapeCarrying(edit, carried)
    };
    Op::Instances(Box::new(edit))
}

/// Where the added subtrees of the instance laid out as `layout` are now and where a load
/// against `to` puts them (`waiting`: the nodes the table has waiting for it, all dropped
/// but those a load leaves waiting; `fresh`: the ids of the nodes only `to` has, in its
/// pre-order).
fn carry_of(
    scene: &Scene,
    layout: &carry::Layout,
    (from, to): (&Source, &Source),
    (map, waiting): (&[Option<u32>], &[(NodeId, Chain)]),
    fresh: &[NodeId],
) -> Carry {
    if layout.added.is_empty() && waiting.is_empty() {
        return Carry::default();
    }
    let root = scene.id_at(layout.at[0]);
    let mut fresh = fresh.iter();
    let to_ids: Vec<NodeId> = (map.iter().enumerate())
        .map(|(j, kept)| match (j, *kept) {
            (0, _) => root,
            (_, Some(old)) => scene.id_at(layout.at[old as usize]),
            (_, None) => fresh.next().copied().unwrap_or(NodeId(0)),
        })
        .collect();
    Carry {
        before: carry::placing_now(scene, layout, root, waiting),
        after: carry::placing_loaded(scene, layout, (from, to), &to_ids),
    }
}

/// True when a shared part's node is its source's node, or that node posed by playing (only
/// the local differs, and the node has keyed tracks).
fn same_but_pose(part: &NodeData, source: &NodeData) -> bool {
    part == source
        || (crate::model::anim::is_keyed(&source.tracks) && {
            let mut unposed = part.clone();
            unposed.local = source.local;
            &unposed == source
        })
}

/// The value ops that give the instance laid out at `at`, once reshaped, what a load gives: the root's
/// look from `to`'s root with its override, each node `to`'s with its overrides.
fn value_ops(
    scene: &Scene,
    at: &[usize],
    to: &Source,
    map: &[Option<u32>],
    fresh: &[NodeId],
    loaded: &Loaded,
) -> Vec<Op> {
    let mut ops = Vec::new();
    let i = at[0];
    let root = scene.data_at(i);
    let mut wanted = root.clone();
    let look = to.scene.data_at(0);
    wanted.shape = look.shape.clone();
    wanted.color = look.color;
    wanted.probes = look.probes.clone();
    wanted.tracks = look.tracks.clone();
    let wanted = with(&wanted, loaded.applied.get(&0));
    ops.extend(settle_ops(
        scene.id_at(i),
        &to.chains[0],
        root,
        &wanted,
        FieldSet::ROOT,
    ));
    let mut fresh = fresh.iter();
    for (j, kept) in map.iter().enumerate().skip(1) {
        let overrides = loaded.applied.get(&(j as u32));
        let (id, shows) = match *kept {
            Some(old) => {
                let k = at[old as usize];
                let own = !scene.is_shared_at(k);
                if !own && overrides.is_none() {
                    continue;
                }
                let shows = if own {
                    scene.data_at(k)
                } else {
                    to.scene.data_at(j)
                };
                (scene.id_at(k), shows)
            }
            None => {
                let id = fresh.next().copied().unwrap_or(NodeId(0));
                if overrides.is_none() {
                    continue;
                }
                (id, to.scene.data_at(j))
            }
        };
        let wanted = with(to.scene.data_at(j), overrides);
        ops.extend(settle_ops(id, &to.chains[j], shows, &wanted, u16::MAX));
    }
    ops
}

/// Give the roots of the instances to reshape (each with how many nodes only its new source
/// has) the ids a load would: counted up from the scene's next id, the roots in pre-order.
pub(crate) fn fresh_ids(
    scene: &Scene,
    wanted: &[(NodeId, usize)],
) -> FxHashMap<NodeId, Vec<NodeId>> {
    let mut order: Vec<(usize, NodeId, usize)> = (wanted.iter())
        .filter_map(|&(root, n)| Some((scene.index(root).ok()?, root, n)))
        .collect();
    order.sort_unstable();
    let mut next = scene.next_id().0;
    let mut out = FxHashMap::default();
    for (_, root, n) in order {
        out.insert(root, (next..next + n as u32).map(NodeId).collect());
        next += n as u32;
    }
    out
}

/// The number of nodes only `to` has (what each instance needs fresh ids for).
pub(crate) fn added(from: &Source, to: &Source) -> usize {
    index_map(from, to)
        .iter()
        .skip(1)
        .filter(|k| k.is_none())
        .count()
}
