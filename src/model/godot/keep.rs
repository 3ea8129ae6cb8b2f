//! Instances kept on import: each `instance=ExtResource(…)` the file makes becomes a graft
//! instance whose source is the instanced `.tscn`, read through this importer (its own
//! instances kept too), so the file's overrides are what its nodes differ from that source
//! (found again at save, `model/instance/save.rs`). The expanded tree keeps an instance's
//! nodes right after its root in the source's order, so the source's node `j` is the host's
//! node `root + j`. An instance whose nodes the chain rules place differently in the host and
//! in its source (a node re-rooted, a plain node kept in one and left out in the other) stays
//! plain nodes, said in the report; one whose file cannot be read is a placeholder.

use super::tscn::read_scene_text;
use crate::model::instance::{Entry, FieldSet, Origin, Source};
use crate::model::scene::sprites::normalize;
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

// Kept apart from the importer's files (it is handed the tree's instances and a way to read
// a source), so the importer's circle of files does not grow.

/// One instance the imported tree makes, as keeping it needs it.
pub(super) struct Instance<'a> {
    /// Its root's index in the expanded tree.
    pub k: usize,
    /// Its root's name.
    pub name: &'a str,
    /// `file:line` of its section.
    pub place: String,
    /// The path as written.
    pub written: &'a str,
    /// The file, when located.
    pub path: Option<&'a Path>,
    /// The names of its source's tree nodes, in the tree's order (None: not readable).
    pub copy: Option<Vec<&'a str>>,
    /// For each of them, the fields the file's override properties set ([`FieldSet`] bits):
    /// kept at save even when equal to the source, as Godot keeps them.
    pub set: Vec<u16>,
}

/// Reads a source: its scene imported (its own instances kept) and the graft id of each of
/// its tree nodes.
pub(super) type ReadSource<'r> =
    dyn FnMut(&str, &Path) -> crate::error::Result<(Scene, Vec<Option<NodeId>>)> + 'r;

/// A source as read for one import: the scene, and the graft id of each of its tree nodes.
struct Read {
    source: Arc<Source>,
    ids: Vec<Option<NodeId>>,
}

/// Each instanced file read once per import.
struct Sources<'r, 'f> {
    read: FxHashMap<PathBuf, Result<Arc<Read>, String>>,
    import: &'f mut ReadSource<'r>,
}

impl Sources<'_, '_> {
    /// The source at `abs`, imported with its own instances kept.
    fn get(&mut self, abs: &Path) -> Result<Arc<Read>, String> {
        if let Some(known) = self.read.get(abs) {
            return known.clone();
        }
        let read = read_scene_text(abs)
            .and_then(|text| (self.import)(&text, abs).map_err(|e| e.to_string()))
            .map(|(scene, ids)| {
                Arc::new(Read {
                    source: Arc::new(Source::from_scene(scene, abs)),
                    ids,
                })
            });
        self.read.insert(abs.to_path_buf(), read.clone());
        read
    }
}

/// Make `instances` (of a tree imported as `scene`, `ids` by tree node) graft instances;
/// returns `(place, message)` for each kept as plain nodes.
pub(super) fn keep_instances(
    scene: &mut Scene,
    instances: &[Instance],
    ids: &[Option<NodeId>],
    import: &mut ReadSource,
) -> Vec<(String, String)> {
    let mut sources = Sources {
        read: FxHashMap::default(),
        import,
    };
    let mut notes = Vec::new();
    // The instances a kept one's source makes are its own; those of one kept as plain nodes
    // are tried in their turn.
    let mut inside_kept = 0;
    for inst in instances {
        let k = inst.k;
        let (Some(root), Some(path)) = (ids[k], inst.path) else {
            continue;
        };
        if k < inside_kept {
            continue;
        }
        let abs = absolute(path);
        let kept = match &inst.copy {
            None => Ok(placeholder(root, &abs)),
            Some(copy) => sources
                .get(&abs)
                .and_then(|read| matched(scene, copy, ids, k, &read).map(|o| (read, o)))
                .map(|(read, origins)| {
                    let mut entry = entry(root, &abs, Ok(read.source.clone()));
                    entry.sticky = sticky(&read, &inst.set);
                    Kept { entry, origins }
                }),
        };
        match kept {
            Ok(kept) => {
                inside_kept = k + inst.copy.as_ref().map_or(1, Vec::len);
                let table = scene.instance_table_mut();
                table.origins.extend(kept.origins);
                table.push(kept.entry);
            }
            Err(why) => notes.push((
                inst.place.clone(),
                format!(
                    "\"{}\": its instance of {} is kept as plain nodes: {why}",
                    inst.name, inst.written
                ),
            )),
        }
    }
    notes
}

/// The fields each source node's override properties set, by the node's chain (the root's
/// limited to what an instance root's override may set).
fn sticky(read: &Read, set: &[u16]) -> FxHashMap<crate::model::instance::Chain, FieldSet> {
    let src = &read.source;
    let mut out = FxHashMap::default();
    for (j, bits) in set.iter().enumerate() {
        let Some(si) = read
            .ids
            .get(j)
            .copied()
            .flatten()
            .and_then(|id| src.scene.index(id).ok())
        else {
            continue;
        };
        let bits = if si == 0 {
            bits & FieldSet::ROOT
        } else {
            *bits
        };
        if bits != 0 {
            out.insert(src.chains[si].clone(), FieldSet(bits));
        }
    }
    out
}

/// A file's path absolute and normalized (as the loader keys sources).
fn absolute(path: &Path) -> PathBuf {
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// What one kept instance adds to the table.
struct Kept {
    entry: Entry,
    origins: Vec<(NodeId, Origin)>,
}

fn entry(root: NodeId, abs: &Path, source: Result<Arc<Source>, String>) -> Entry {
    Entry {
        root,
        path: abs.display().to_string(),
        source,
        sticky: FxHashMap::default(),
        dangling: Vec::new(),
    }
}

/// An instance of a file that cannot be read: the node keeps its own fields.
fn placeholder(root: NodeId, abs: &Path) -> Kept {
    let why = read_scene_text(abs)
        .err()
        .unwrap_or_else(|| "it cannot be read".into());
    Kept {
        entry: entry(root, abs, Err(why)),
        origins: Vec::new(),
    }
}

/// The origins of the host's copy of a source (tree nodes `k..k + n`), when every node the
/// source imports is imported in the host under the matching parent, and only those.
fn matched(
    scene: &Scene,
    copy: &[&str],
    ids: &[Option<NodeId>],
    k: usize,
    read: &Read,
) -> Result<Vec<(NodeId, Origin)>, String> {
    let src = &read.source.scene;
    let n = read.ids.len();
    if n != copy.len() || k + n > ids.len() {
        return Err("its file changed while it was read".into());
    }
    let roots = src.child_indices(None).count();
    if roots != 1 || read.ids[0] != Some(src.id_at(0)) {
        return Err(format!(
            "imported, it has {roots} roots (nodes re-rooted by Godot's chain rules)"
        ));
    }
    let by_src: FxHashMap<NodeId, usize> = (0..n)
        .filter_map(|j| read.ids[j].map(|id| (id, j)))
        .collect();
    let root = ids[k].ok_or("its root is not imported")?;
    let mut origins = Vec::with_capacity(n);
    for j in 1..n {
        let (s, h) = match (read.ids[j], ids[k + j]) {
            (None, None) => continue,
            (Some(s), Some(h)) => (s, h),
            _ => {
                return Err(format!(
                    "its node \"{}\" is kept in one and left out in the other (nodes added \
                     under it)",
                    copy[j]
                ));
            }
        };
        let si = src.index(s).map_err(|e| e.to_string())?;
        let want = src
            .parent_index_at(si)
            .and_then(|p| by_src.get(&src.id_at(p)))
            .and_then(|&jp| ids[k + jp]);
        if want.is_none() || parent_of(scene, h) != want {
            return Err(format!(
                "its node \"{}\" is placed under another parent here (re-rooted)",
                copy[j]
            ));
        }
        origins.push((
            h,
            Origin {
                root,
                index: si as u32,
            },
        ));
    }
    Ok(origins)
}

/// The parent of node `id` in `scene`.
fn parent_of(scene: &Scene, id: NodeId) -> Option<NodeId> {
    let i = scene.index(id).ok()?;
    scene.parent_index_at(i).map(|p| scene.id_at(p))
}

/// Write each `.tscn` source the scene's instances read (nested ones included) as a `.ron`
/// in `dir` (`player.tscn` → `player.ron`; a second `player.tscn` elsewhere → `player_2.ron`),
/// and make the instances name those files: `graft import --sources DIR`. Returns the files
/// written.
pub fn sources_as_ron(scene: &mut Scene, dir: &Path) -> crate::error::Result<Vec<PathBuf>> {
    let dir = absolute(dir);
    // Every source once, the scene's own first, then the ones they instance.
    let mut order: Vec<Arc<Source>> = Vec::new();
    let add = |from: &Scene, order: &mut Vec<Arc<Source>>| {
        for entry in from.instances().map_or(&[][..], |t| t.entries()) {
            if let Ok(source) = &entry.source
                && !order.iter().any(|o| o.path == source.path)
            {
                order.push(Arc::clone(source));
            }
        }
    };
    add(scene, &mut order);
    let mut k = 0;
    while k < order.len() {
        let next = Arc::clone(&order[k]);
        add(&next.scene, &mut order);
        k += 1;
    }
    let mut target: FxHashMap<PathBuf, PathBuf> = FxHashMap::default();
    for source in &order {
        let stem = source
            .path
            .file_stem()
            .map_or("part".into(), |s| s.to_string_lossy().into_owned());
        let mut name = dir.join(format!("{stem}.ron"));
        let mut n = 2;
        while target.values().any(|t| *t == name) {
            name = dir.join(format!("{stem}_{n}.ron"));
            n += 1;
        }
        target.insert(source.path.clone(), name);
    }
    std::fs::create_dir_all(&dir).map_err(|e| crate::error::Error::Io {
        path: dir.clone(),
        source: e,
    })?;
    let mut written = Vec::new();
    for source in &order {
        let mut part = source.scene.clone();
        renamed(&mut part, &target);
        part.relative_sprites(&dir);
        let file = &target[&source.path];
        crate::model::file::save(&part, file)?;
        written.push(file.clone());
    }
    renamed(scene, &target);
    Ok(written)
}

/// Point each instance whose source is in `target` at its `.ron` (absolute: a save makes it
/// relative to where the scene goes).
fn renamed(scene: &mut Scene, target: &FxHashMap<PathBuf, PathBuf>) {
    if scene.instances().is_none() {
        return;
    }
    for entry in &mut scene.instance_table_mut().entries {
        if let Ok(source) = &entry.source
            && let Some(file) = target.get(&source.path)
        {
            entry.path = file.display().to_string();
        }
    }
}
