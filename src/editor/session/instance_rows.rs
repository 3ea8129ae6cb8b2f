//! Copies of instances: the instance rows a copied subtree carries, and the ops that make
//! pasted or duplicated copies instances again (refused when a scene would contain itself).

use crate::error::{Error, Result};
use crate::model::instance::{Entry, Registration, plan};
use crate::model::scene::edit::Op;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::{DetachedSubtree, NodeId};
use rustc_hash::FxHashMap;
use std::path::Path;

/// The instance rows of the instances whose roots are in `subtrees` (copies of `scene`'s).
pub(super) fn rows_in(
    scene: &crate::model::scene::Scene,
    subtrees: &[DetachedSubtree],
) -> Vec<crate::model::instance::Registration> {
    let ids: Vec<NodeId> = subtrees
        .iter()
        .flat_map(|s| s.ids.iter().copied())
        .collect();
    crate::model::instance::plan::rows_of(scene, &ids)
}

/// The ops that make pasted or duplicated copies instances again (after their inserts):
/// `here` the scene's file, `rows` the copied instances' rows, `from` the file they were copied in, `before` the
/// subtrees as copied and `after` as renumbered. Pasted into a scene in another folder,
/// each source is named from there; refused when a source would contain the scene.
pub(super) fn instance_copies(
    here: Option<&Path>,
    rows: &[Registration],
    from: Option<&Path>,
    before: &[DetachedSubtree],
    after: &[DetachedSubtree],
) -> Result<Vec<Op>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let moved = from.map(folder_of) != here.map(folder_of);
    if let Some(host) = here.filter(|_| from != here) {
        refuse_cycles(rows, host)?;
    }
    let map: FxHashMap<NodeId, NodeId> = (before.iter().zip(after))
        .flat_map(|(b, a)| b.ids.iter().copied().zip(a.ids.iter().copied()))
        .collect();
    let path = |e: &Entry| {
        let source = e.source.as_ref().ok().filter(|_| moved)?;
        Some(plan::source_text(here, &source.path))
    };
    Ok(plan::register_copies(rows, &map, &path))
}

/// Refuse copied instances whose source is `host` or instances it (pasting them into `host`
/// would make a scene that contains itself).
fn refuse_cycles(rows: &[Registration], host: &Path) -> Result<()> {
    let host = crate::model::instance::expand::absolute(host);
    for reg in rows {
        let Ok(source) = &reg.entry.source else {
            continue;
        };
        if source.path == host || source.nested_files().contains(&host) {
            return Err(Error::Refused(format!(
                "cannot paste an instance of {} here: {} would then contain itself",
                reg.entry.path,
                host.display()
            )));
        }
    }
    Ok(())
}
