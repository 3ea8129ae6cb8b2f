//! `graft bench io`: save and load times of a generated random scene as `.ron`, and the same
//! scene exported to a Godot `.tscn` and imported back, measured in one run (medians of
//! interleaved rounds), so the two formats are compared on the same machine state.

use crate::error::Result;
use crate::file;
use crate::generate::{GenShape, generate};
use crate::model::godot::export::{ExportOptions, to_tscn};
use crate::model::godot::import::import_file;
use serde::Serialize;
use std::time::Instant;

/// Figures of one `graft bench io` run (milliseconds, medians).
#[derive(Clone, Debug, Serialize)]
pub struct IoReport {
    /// Node count.
    pub nodes: usize,
    /// Size of the `.ron` file.
    pub ron_bytes: u64,
    /// Loading it (read, parse, build).
    pub ron_load_ms: f64,
    /// Saving it (canonical text, atomic write).
    pub ron_save_ms: f64,
    /// Size of the same scene as `.tscn` (rects and ellipses become polygons).
    pub tscn_bytes: u64,
    /// Writing the `.tscn` text.
    pub tscn_export_ms: f64,
    /// Importing it (read, parse, expand, convert, build).
    pub tscn_import_ms: f64,
    /// `tscn_import_ms / ron_load_ms`.
    pub tscn_vs_ron: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Save and load `.ron`, export and import `.tscn`, `rounds` times interleaved.
pub fn io(nodes: usize, rounds: usize) -> Result<IoReport> {
    let scene = generate(GenShape::Random, nodes, 1);
    let dir = std::env::temp_dir().join(format!("graft-bench-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|source| crate::Error::Io {
        path: dir.clone(),
        source,
    })?;
    let (ron, tscn) = (dir.join("bench.ron"), dir.join("bench.tscn"));
    let (mut save, mut load, mut export, mut import) = (vec![], vec![], vec![], vec![]);
    let result = (|| -> Result<()> {
        for _ in 0..rounds.max(1) {
            let t = Instant::now();
            file::save(&scene, &ron)?;
            save.push(ms_since(t));
            let t = Instant::now();
            let loaded = file::load(&ron)?;
            load.push(ms_since(t));
            if loaded != scene {
                return Err(crate::Error::Format("the reloaded scene differs".into()));
            }
            drop(loaded);
            let t = Instant::now();
            let (text, _) = to_tscn(&scene, &ExportOptions::default());
            file::atomic_write_with(&tscn, |w| w.write_all(text.as_bytes()))?;
            export.push(ms_since(t));
            drop(text);
            let t = Instant::now();
            let imported = import_file(&tscn)?;
            import.push(ms_since(t));
            if imported.scene.len() != scene.len() + 1 {
                return Err(crate::Error::Format("the imported scene lost nodes".into()));
            }
        }
        Ok(())
    })();
    let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let (ron_bytes, tscn_bytes) = (size(&ron), size(&tscn));
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    let (ron_load_ms, tscn_import_ms) = (median(load), median(import));
    Ok(IoReport {
        nodes,
        ron_bytes,
        ron_load_ms,
        ron_save_ms: median(save),
        tscn_bytes,
        tscn_export_ms: median(export),
        tscn_import_ms,
        tscn_vs_ron: tscn_import_ms / ron_load_ms,
    })
}
