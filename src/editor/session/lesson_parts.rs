//! A lesson's parts: the sample scenes a lesson instances (`do: instance sample wheel under
//! car as front`) are files in a folder of the session's own, so the window treats them as
//! any source (the inspector's overrides, Open source, the disk watch). `do: edit sample …`
//! changes one value of a part's file as another window saving it would, and every instance
//! of it follows (the same ops as the disk watch's follow; `lesson_play.rs` makes them).

use crate::editor::lesson::parse::cut;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The session's parts folder (made on first use, under the system's temporary folder;
/// removed with the session).
#[derive(Debug, Default)]
pub struct PartsDir(OnceLock<PathBuf>);

/// Parts folders made by this process (each session has its own).
static MADE: AtomicU32 = AtomicU32::new(0);

impl PartsDir {
    /// The folder, made (empty) on first use.
    fn folder(&self) -> Result<&Path> {
        if self.0.get().is_none() {
            let n = MADE.fetch_add(1, Ordering::Relaxed);
            let name = format!("graft-parts-{}-{n}", std::process::id());
            let dir = std::env::temp_dir().join(name);
            // A folder left by an earlier process with this id holds nothing of ours.
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir)
                .map_err(|e| Error::Refused(format!("{}: {e}", dir.display())))?;
            let _ = self.0.set(dir);
        }
        self.0
            .get()
            .map(PathBuf::as_path)
            .ok_or_else(|| Error::Refused("no parts folder".into()))
    }

    /// The file of the sample part `sample`, written from the sample when not there yet.
    pub fn file(&self, sample: &str) -> Result<PathBuf> {
        let text = crate::editor::lesson::course::sample_scene(sample)
            .ok_or_else(|| Error::Refused(format!("no sample scene is called {}", cut(sample))))?;
        let file = self.folder()?.join(format!("{sample}.ron"));
        if !file.exists() {
            std::fs::write(&file, text)
                .map_err(|e| Error::Refused(format!("{}: {e}", file.display())))?;
        }
        Ok(file)
    }
}

impl Drop for PartsDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
