//! Sprite paths that travel: a sprite's image path is relative to the folder of the scene
//! file, so a scene written to another folder has its relative paths rebased to name the same
//! images from there. The rebasing is lexical (`..` folded by name); the folders it goes between
//! are the kernel's (`folder_of` resolves links, so a `..` after a link is where the link leads).
//! Absolute paths, URIs and empty paths stay as they are.

use super::node_data::NodeData;
use super::shape::Shape;
use super::types::Scene;
use std::path::{Component, Path, PathBuf};

/// `path` with `.` dropped and each `..` folding the name before it (lexically: symlinks are
/// not followed, the file need not exist; `..` at the root stays at the root).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

/// The folder a scene file's relative sprite paths are relative to, absolute and normalized
/// (a bare file name means the current folder). A file reached through a link is the file
/// it leads to (one that does not exist yet: the path the link names, as a save through it
/// writes it): its folder is where a save through the link writes.
pub fn folder_of(file: &Path) -> PathBuf {
    if std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink()) {
        let target = (std::fs::canonicalize(file).ok())
            .or_else(|| Some(dir_of(file).join(std::fs::read_link(file).ok()?)));
        if let Some(target) = target {
            return dir_of(&target);
        }
    }
    dir_of(file)
}

/// The folder `file` is in, absolute, as the kernel resolves it (not following `file` itself).
fn dir_of(file: &Path) -> PathBuf {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    // As the kernel resolves it (a `..` after a link leads where the link points, not back
    // up the text); lexically only for a folder that does not exist (yet).
    std::fs::canonicalize(dir).unwrap_or_else(|_| absolute_dir(dir))
}

/// `dir` made absolute (against the current folder) and normalized.
pub fn absolute_dir(dir: &Path) -> PathBuf {
    normalize(&std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()))
}

/// True for a path no folder changes: absolute, empty, or a URI (`data:`, `res://`, …).
fn stays(path: &str) -> bool {
    path.is_empty()
        || Path::new(path).is_absolute()
        || path.contains("://")
        || path.starts_with("data:")
}

/// A path as a sprite path: a relative one's parts joined with `/` (on every system), an
/// absolute one as the system writes it.
fn text_of(path: &Path) -> String {
    if path.is_absolute() {
        return path.to_string_lossy().into_owned();
    }
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// The relative sprite path `path` (relative to folder `from`) made to name the same file
/// from folder `to` (both absolute); None when it stays as it is.
pub fn rebase_path(path: &str, from: &Path, to: &Path) -> Option<String> {
    if stays(path) {
        return None;
    }
    let file = normalize(&from.join(path));
    let rebased = match pathdiff::diff_paths(&file, normalize(to)) {
        Some(rel) if !rel.as_os_str().is_empty() => text_of(&rel),
        _ => text_of(&file),
    };
    (rebased != path).then_some(rebased)
}

/// The relative sprite path `path` (relative to folder `from`) made absolute; None when it
/// stays as it is.
pub fn absolute_path(path: &str, from: &Path) -> Option<String> {
    (!stays(path)).then(|| text_of(&normalize(&absolute_dir(from).join(path))))
}

/// The absolute sprite path `path` made relative to folder `to` (absolute); None when it is
/// not absolute or cannot be.
pub fn relative_path(path: &str, to: &Path) -> Option<String> {
    if !Path::new(path).is_absolute() {
        return None;
    }
    let rel = pathdiff::diff_paths(normalize(Path::new(path)), normalize(to))?;
    (!rel.as_os_str().is_empty()).then(|| text_of(&rel))
}

/// Give the sprite path of `shape` to `map`; replace it when `map` returns a new one. True
/// when it changed.
pub fn map_shape(shape: &mut Shape, map: &mut impl FnMut(&str) -> Option<String>) -> bool {
    match shape {
        Shape::Sprite(sprite) => match map(&sprite.path) {
            Some(path) => {
                sprite.path = path;
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// [`map_shape`] over nodes' data; how many paths changed.
pub fn map_data<'a>(
    data: impl IntoIterator<Item = &'a mut NodeData>,
    map: &mut impl FnMut(&str) -> Option<String>,
) -> usize {
    data.into_iter()
        .filter(|d| matches!(d.shape, Shape::Sprite(_)))
        .map(|d| usize::from(map_shape(&mut d.shape, map)))
        .sum()
}

impl Scene {
    /// Replace each sprite path `map` gives a new one for (one pass over the nodes, no copy
    /// of the scene); returns how many changed. Outside the history: callers that own a
    /// history rebase it too
    /// ([`History::rebase_sprites`](crate::model::scene::edit::History::rebase_sprites)).
    pub fn map_sprite_paths(&mut self, mut map: impl FnMut(&str) -> Option<String>) -> usize {
        let mut changed = self
            .data
            .map_all(&mut |d| map_data(std::iter::once(d), &mut map));
        if let Some(table) = self.instances.as_deref_mut() {
            changed += table.map_paths(&mut map);
        }
        if changed > 0 {
            self.appearance_version =
                super::store::NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        changed
    }

    /// Rebase every relative sprite path from folder `from` to folder `to` (both absolute):
    /// each names the same image from `to`. Returns how many changed.
    pub fn rebase_sprites(&mut self, from: &Path, to: &Path) -> usize {
        if normalize(from) == normalize(to) {
            return 0;
        }
        self.map_sprite_paths(|p| rebase_path(p, from, to))
    }

    /// Make every relative sprite path (relative to folder `from`) absolute, for a scene that
    /// will have no folder of its own (a lesson's step, shown untitled).
    pub fn absolute_sprites(&mut self, from: &Path) -> usize {
        self.map_sprite_paths(|p| absolute_path(p, from))
    }

    /// Make every absolute sprite path relative to folder `to` (an imported scene about to be
    /// saved there). Returns how many changed.
    pub fn relative_sprites(&mut self, to: &Path) -> usize {
        let to = absolute_dir(to);
        self.map_sprite_paths(|p| relative_path(p, &to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn normalize_folds_dots_lexically() {
        assert_eq!(normalize(&p("/a/b/../c/./d.png")), p("/a/c/d.png"));
        assert_eq!(normalize(&p("/../x")), p("/x"));
        assert_eq!(normalize(&p("a/../../x")), p("../x"));
        assert_eq!(normalize(&p("./a/")), p("a"));
    }

    #[test]
    fn rebase_deeper_shallower_and_unrelated() {
        let from = p("/w/scenes");
        let path = "../assets/sword.png";
        let deeper = rebase_path(path, &from, &p("/w/scenes/a/b")).unwrap();
        assert_eq!(deeper, "../../../assets/sword.png");
        assert_eq!(
            rebase_path(path, &from, &p("/w")).unwrap(),
            "assets/sword.png"
        );
        let far = rebase_path(path, &from, &p("/elsewhere/x")).unwrap();
        assert_eq!(far, "../../w/assets/sword.png");
        for to in ["/w/scenes/a/b", "/w", "/elsewhere/x"] {
            let back = rebase_path(&rebase_path(path, &from, &p(to)).unwrap(), &p(to), &from);
            assert_eq!(back.as_deref(), Some(path), "there and back from {to}");
        }
    }

    #[test]
    fn what_stays_stays() {
        let (from, to) = (p("/w/scenes"), p("/x"));
        for path in ["", "/abs/a.png", "res://a.png", "data:image/png;base64,AA"] {
            assert_eq!(rebase_path(path, &from, &to), None, "{path}");
        }
        assert_eq!(rebase_path("a.png", &from, &from), None);
        assert_eq!(
            rebase_path("./a.png", &from, &from).as_deref(),
            Some("a.png")
        );
    }

    #[test]
    fn absolute_and_relative() {
        assert_eq!(
            absolute_path("../a/b.png", &p("/w/s")).as_deref(),
            Some("/w/a/b.png")
        );
        assert_eq!(
            relative_path("/w/a/b.png", &p("/w/out")).as_deref(),
            Some("../a/b.png")
        );
        assert_eq!(relative_path("a/b.png", &p("/w")), None);
    }

    #[test]
    fn a_scene_is_rebased_in_place_and_only_its_sprites_change() {
        let mut scene = Scene::from_specs(vec![
            super::super::NodeSpec {
                id: super::super::NodeId(1),
                parent: None,
                data: NodeData {
                    shape: Shape::sprite("img/a.png", Vec2::ONE),
                    ..NodeData::default()
                },
            },
            super::super::NodeSpec {
                id: super::super::NodeId(2),
                parent: Some(super::super::NodeId(1)),
                data: NodeData {
                    shape: Shape::Rect { size: Vec2::ONE },
                    ..NodeData::default()
                },
            },
        ])
        .unwrap();
        let before = scene.appearance_version();
        assert_eq!(scene.rebase_sprites(&p("/w"), &p("/w/deep")), 1);
        assert_ne!(scene.appearance_version(), before);
        let Shape::Sprite(sprite) = &scene.data_at(0).shape else {
            panic!("a sprite")
        };
        assert_eq!(sprite.path, "../img/a.png");
        assert_eq!(scene.rebase_sprites(&p("/w/deep"), &p("/w/deep/")), 0);
    }
}
