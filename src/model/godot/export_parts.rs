//! What the parts of the export share: the report, how a node's appearance is scaled, and
//! the table of images written as `ext_resource`s.

use super::dialect::Dialect;
use super::tscn_text::res_path;
use glam::Vec2;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

/// What the export changed or could not carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExportReport {
    /// `old -> new` for every node renamed to be valid and unique among its siblings.
    pub renamed: Vec<String>,
    /// Everything else worth knowing (images outside the project, probes left behind).
    pub notes: Vec<String>,
}

/// How a node's appearance is scaled: pixels per unit, and the factor a sprite's scale took.
#[derive(Clone, Copy)]
pub(super) struct Look {
    /// Pixels per graft unit.
    pub ppu: f32,
    /// The factor the node's scale was multiplied by.
    pub factor: Vec2,
}

/// The ext_resource table being filled.
pub(super) struct TextureTable<'a> {
    /// The Godot project's folder: images outside it get no `ext_resource`.
    pub(super) project_root: Option<&'a Path>,
    /// The folder the scene's relative sprite paths are relative to.
    pub(super) scene_dir: Option<&'a Path>,
    /// The images' `res://` paths, in id order.
    pub(super) textures: &'a mut Vec<String>,
    /// Each path's id.
    pub(super) ids: &'a mut FxHashMap<String, usize>,
    pub(super) dialect: Dialect,
}

impl TextureTable<'_> {
    /// A sprite's image file: its path under the scene's folder when that is known.
    pub(super) fn image_file(&self, path: &str) -> PathBuf {
        match self.scene_dir {
            Some(dir) => dir.join(path),
            None => PathBuf::from(path),
        }
    }

    /// The id of the image's `ext_resource` (added when new), or None when the image is not
    /// inside the Godot project.
    pub(super) fn id_of(&mut self, file: &Path) -> Option<usize> {
        let written = res_path(file, self.project_root?)?;
        let next = self.ids.len() + 1;
        let id = *self.ids.entry(written.clone()).or_insert(next);
        if id == next {
            self.textures.push(written);
        }
        Some(id)
    }
}
