//! Following a changed source without rebuilding its instances: when the source read again
//! has the same nodes in the same places (only their data changed), one [`TableEdit::Follow`]
//! gives every instance the new source — the nodes that share it see it at once — and value
//! ops carry the change to the nodes an override made their own, keeping what they override.
//! A source that gained, lost or moved nodes is followed by one [`TableEdit::Reshape`]
//! (`reshape.rs`: every instance rebuilt in one pass, nodes added under its source nodes
//! carried along). Anything else (a source missing or back, an added node holding an
//! instance of the same file) takes the general path (`plan::replace_ops`: each instance
//! replaced).

use super::expand::{Resolver, absolute};
use super::overrides::{FieldSet, Override};
use super::reshape;
use super::table_edit::TableEdit;
use crate::error::Result;
use crate::model::file_load::load_source;
use crate::model::scene::edit::Op;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::types::{Entry, Source};
use crate::model::scene::{NodeId, Scene};
use std::path::Path;
use std::sync::Arc;

/// The ops that make `scene` (saved as `host`) follow its sources as they are on disk now: one
/// swap or one reshape of each changed source's instances, else each changed instance
/// replaced (`plan::replace_ops`). Empty when nothing changed.
pub fn follow_ops(scene: &Scene, host: &Path) -> Result<Vec<Op>> {
    match fast_follow_ops(scene, host)? {
        Some(ops) => Ok(ops),
        None => super::plan::replace_ops(scene, host),
    }
}

/// The instances in use, grouped by source (each group's entries sharing one source); None
/// when one is a placeholder or two of one file hold different sources (the general path).
fn groups(scene: &Scene) -> Option<Vec<(Arc<Source>, Vec<&Entry>)>> {
    let table = scene.instances()?;
    let mut groups: Vec<(Arc<Source>, Vec<&Entry>)> = Vec::new();
    for entry in table.entries().iter().filter(|e| scene.contains(e.root)) {
        let source = entry.source.as_ref().ok()?;
        match groups.iter_mut().find(|(s, _)| s.path == source.path) {
            Some((s, list)) if Arc::ptr_eq(s, source) => list.push(entry),
            Some(_) => return None,
            None => groups.push((Arc::clone(source), vec![entry])),
        }
    }
    Some(groups)
}

/// True when `new` has `old`'s nodes in `old`'s places (only their data may differ).
fn same_places(old: &Source, new: &Source) -> bool {
    old.chains == new.chains
        && (0..old.scene.len())
            .all(|j| old.scene.parent_index_at(j) == new.scene.parent_index_at(j))
}

/// The follow as ops: per changed source that kept its nodes in their places one
/// [`TableEdit::Follow`] and the value ops of the instances' own nodes; per source that gained,
/// lost or moved nodes one [`TableEdit::Reshape`] (`reshape.rs`), its value ops after every
/// table edit. None when the general path is needed.
pub(crate) fn fast_follow_ops(scene: &Scene, host: &Path) -> Result<Option<Vec<Op>>> {
    let Some(groups) = groups(scene) else {
        return Ok(None);
    };
    let mut resolver = Resolver::within(&[host], load_source);
    let folder = folder_of(host);
    let mut read = Vec::with_capacity(groups.len());
    for (old, entries) in &groups {
        let Ok(raw) = resolver.source(&absolute(&old.path))? else {
            return Ok(None);
        };
        let mut copy = Source::clone(&raw);
        copy.scene.rebase_sprites(&folder_of(&raw.path), &folder);
        read.push((old, entries, Arc::new(copy)));
    }
    let wanted: Vec<(NodeId, usize)> = (read.iter())
        .filter(|(old, _, new)| !same_places(old, new))
        .flat_map(|(old, entries, new)| {
            let n = reshape::added(old, new);
            entries.iter().map(move |e| (e.root, n))
        })
        .collect();
    let mut fresh = reshape::fresh_ids(scene, &wanted);
    let (mut ops, mut values) = (Vec::new(), Vec::new());
    for (old, entries, new) in &read {
        if !same_places(old, new) {
            let Some(planned) = reshape::plan(scene, entries, (old, new), &mut fresh) else {
                return Ok(None);
            };
            ops.push(planned.edit);
            values.extend(planned.values);
            continue;
        }
        if (0..old.scene.len()).all(|j| old.scene.data_at(j) == new.scene.data_at(j)) {
            continue;
        }
        ops.push(Op::Instances(Box::new(TableEdit::Follow {
            root: entries[0].root,
            key: old.path.clone(),
            before: Ok(Arc::clone(old)),
            after: Ok(Arc::clone(new)),
        })));
        for entry in entries.iter() {
            instance_ops(scene, entry, old, new, &mut ops)?;
        }
    }
    ops.extend(values);
    Ok(Some(ops))
}

/// The value ops that give the nodes of one instance the new source's values, except those
/// they override: for nodes of their own (overridden) and shared nodes with fields kept.
fn instance_ops(
    scene: &Scene,
    entry: &Entry,
    old: &Source,
    new: &Source,
    ops: &mut Vec<Op>,
) -> Result<()> {
    let i = scene.index(entry.root)?;
    for k in i..i + scene.subtree_len_at(i) {
        let shared = scene.shared_index_at(k);
        if shared.is_some() && entry.sticky.is_empty() {
            continue;
        }
        let id = scene.id_at(k);
        let j = match (k == i, shared) {
            (true, _) => 0,
            (false, Some(j)) => j as usize,
            (false, None) => match scene.origin(id) {
                Some(o) if o.root == entry.root => o.index as usize,
                _ => continue,
            },
        };
        let allowed = if j == 0 { FieldSet::ROOT } else { u16::MAX };
        let chain = &old.chains[j];
        let sticky = entry.sticky.get(chain).copied().unwrap_or_default();
        let (was, will) = (old.scene.data_at(j), new.scene.data_at(j));
        // A shared node shows its source's node (posed or not: a pose is no override).
        let now = if shared.is_some() {
            was
        } else {
            scene.data_at(k)
        };
        let kept = Override::diff(chain.clone(), was, now, sticky, allowed);
        // What the node shows once the source changed, and what it should show.
        let shows = if shared.is_some() { will } else { now };
        let mut wanted = will.clone();
        if let Some(o) = &kept {
            o.apply(&mut wanted);
        }
        let on = Override::diff(chain.clone(), shows, &wanted, FieldSet(0), allowed);
        if let Some(on) = on {
            ops.extend(super::values::value_ops(id, on.fields().0, &wanted, shows));
        }
    }
    Ok(())
}
