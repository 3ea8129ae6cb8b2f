//! The sources a scene's instances use, as the scene holds them, and the ids of their nodes:
//! what a crash journal's base carries beside the scene's text, so that recovery expands
//! every instance from the very nodes the session had (a source changed on disk since, or
//! gone, changes nothing) and gives each expanded node the id the history names.

use super::expand::{Resolver, Reuse};
use super::ids::Chain;
use super::table_edit::source_serde;
use crate::error::Result;
use crate::model::file_load::load_source;
use crate::model::scene::types::Source;
use crate::model::scene::{NodeId, Scene};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// An entry's source, or why it could not be read.
type SourceField = std::result::Result<Arc<Source>, String>;

/// One source, written once however many instances share it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Shared(#[serde(with = "source_serde")] SourceField);

/// One instance: its root, which source it uses and its nodes' ids in runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Instance {
    root: NodeId,
    source: u32,
    /// (first id, first source index, count): ids counting up with source indices (one run
    /// for an instance as loaded).
    runs: Vec<(u32, u32, u32)>,
}

/// The instances of a scene: each distinct source once, and each instance's node ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    sources: Vec<Shared>,
    instances: Vec<Instance>,
}

impl Snapshot {
    /// The snapshot of `scene`'s instances (None: it has none in use).
    pub fn of(scene: &Scene) -> Option<Snapshot> {
        let table = scene.instances().filter(|t| t.in_use(scene))?;
        let mut sources: Vec<Shared> = Vec::new();
        let mut known: FxHashMap<*const Source, u32> = FxHashMap::default();
        let mut instances = Vec::new();
        for entry in table.entries().iter().filter(|e| scene.contains(e.root)) {
            let source = match &entry.source {
                Ok(s) => *known.entry(Arc::as_ptr(s)).or_insert_with(|| {
                    sources.push(Shared(Ok(Arc::clone(s))));
                    sources.len() as u32 - 1
                }),
                Err(why) => {
                    sources.push(Shared(Err(why.clone())));
                    sources.len() as u32 - 1
                }
            };
            let mut origins = super::table_edit::Registration::of(scene, entry.root)
                .map(|r| r.origins)
                .unwrap_or_default();
            origins.sort_by_key(|&(_, index)| index);
            instances.push(Instance {
                root: entry.root,
                source,
                runs: runs(&origins),
            });
        }
        Some(Snapshot { sources, instances })
    }

    /// Parse `text` (a scene's .ron, as saved at `path`) expanding its instances from these
    /// sources, each expanded node getting the id it had; `next_id` is the scene's next id.
    pub fn parse(&self, text: &str, path: &Path, next_id: NodeId) -> Result<Scene> {
        let mut reuse = Reuse {
            ids: FxHashMap::default(),
            next: next_id.0,
        };
        let mut given = FxHashMap::default();
        for instance in &self.instances {
            let Some(Shared(source)) = self.sources.get(instance.source as usize) else {
                continue;
            };
            if let Ok(src) = source {
                for &(id, index, count) in &instance.runs {
                    for k in 0..count {
                        let (Some(id), Some(index)) = (id.checked_add(k), index.checked_add(k))
                        else {
                            break;
                        };
                        let chain: Option<&Chain> = src.chains.get(index as usize);
                        if let Some(chain) = chain {
                            reuse.ids.insert((instance.root, chain.clone()), NodeId(id));
                        }
                    }
                }
            }
            given.insert(instance.root, source.clone());
        }
        let mut resolver = Resolver::new(load_source);
        resolver.reuse = Some(reuse);
        resolver.given = Some(given);
        let mut scene = crate::model::file_load::parse_with_resolver(text, path, &mut resolver)?;
        scene.reserve_ids_below(next_id);
        Ok(scene)
    }
}

/// (id, index) pairs sorted by index as runs in which both count up by one.
fn runs(origins: &[(NodeId, u32)]) -> Vec<(u32, u32, u32)> {
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    for &(id, index) in origins {
        match out.last_mut() {
            Some((first, at, count))
                if first.checked_add(*count) == Some(id.0)
                    && at.checked_add(*count) == Some(index) =>
            {
                *count += 1;
            }
            _ => out.push((id.0, index, 1)),
        }
    }
    out
}
