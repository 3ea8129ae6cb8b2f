//! Sprite images in the session and for `graft check`: images that are missing or cannot be
//! read, each named with its node and its place in the `.ron` text (warned once when a file
//! is opened), and Choose image…, which sets a sprite's image as one undoable step. Each is
//! handed the document and the message log (Choose image… the file flow, for its dialog).

use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::{DialogPurpose, Outcome};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::edit::Op;
use crate::model::scene::name::node_label;
use crate::model::scene::sprites::folder_of;
use crate::model::scene::{NodeId, Scene, Shape};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// At most this many missing images are warned about one by one when a file is opened.
pub const MAX_WARNINGS: usize = 20;

/// A sprite whose image cannot be drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct MissingImage {
    /// The node.
    pub node: NodeId,
    /// Its name.
    pub name: String,
    /// The sprite path as the file writes it.
    pub path: String,
    /// Why it cannot be drawn ("missing: /abs/file.png", "not a regular file", …).
    pub why: String,
    /// The 1-based line and column of the path in the file's text, when known.
    pub place: Option<(usize, usize)>,
}

impl MissingImage {
    /// `FILE:LINE:COL: warning: node 4 "sword": image "../a.png" …` (no LINE:COL if unknown).
    pub fn message(&self, file: &Path) -> String {
        let place = self
            .place
            .map_or(String::new(), |(line, col)| format!(":{line}:{col}"));
        format!(
            "{}{place}: warning: node {} {:?}: image {:?} {}",
            file.display(),
            self.node,
            self.name,
            self.path,
            self.why
        )
    }
}

/// Why the image at `file` cannot be drawn, or None when it can (a regular file whose header
/// reads as PNG, JPEG or WebP; only the header is read).
pub fn image_problem(file: &Path) -> Option<String> {
    let meta = match std::fs::metadata(file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(format!("is missing ({})", file.display()));
        }
        Err(e) => return Some(format!("cannot be read ({}: {e})", file.display())),
    };
    if !meta.is_file() {
        return Some(format!("is not a regular file ({})", file.display()));
    }
    let mut head = [0u8; 32];
    // Only a regular file within the image limit is opened (a fifo swapped in would block).
    let read = crate::model::read_limit::open_regular(file, crate::model::read_limit::IMAGE)
        .and_then(|mut f| {
            std::io::Read::read(&mut f, &mut head).map_err(|source| crate::Error::Io {
                path: file.to_path_buf(),
                source,
            })
        });
    let kind = match read {
        Ok(n) => imagesize::image_type(&head[..n]).ok(),
        Err(e) => return Some(format!("cannot be read ({e})")),
    };
    use imagesize::ImageType::{Jpeg, Png, Webp};
    match kind {
        Some(Png | Jpeg | Webp) => None,
        Some(other) => Some(format!(
            "is {other:?}, not PNG, JPEG or WebP ({})",
            file.display()
        )),
        None => Some(format!("is not an image ({})", file.display())),
    }
}

/// The sprites of `scene` whose image cannot be drawn, relative paths read from `folder` (the
/// scene file's); each distinct file is looked at once.
pub fn missing_images(scene: &Scene, folder: &Path) -> Vec<MissingImage> {
    let mut seen: HashMap<PathBuf, Option<String>> = HashMap::new();
    let mut out = Vec::new();
    for i in 0..scene.len() {
        let data = scene.data_at(i);
        let Shape::Sprite(sprite) = &data.shape else {
            continue;
        };
        let file = crate::model::scene::sprites::normalize(&folder.join(&sprite.path));
        let problem = seen
            .entry(file)
            .or_insert_with_key(|file| image_problem(file));
        if let Some(why) = problem {
            out.push(MissingImage {
                node: scene.id_at(i),
                name: data.name.to_string(),
                path: sprite.path.clone(),
                why: why.clone(),
                place: None,
            });
        }
    }
    out
}

/// Give each of `missing` the place of its path in the file's `text`.
pub fn place_missing(missing: &mut [MissingImage], text: &str) {
    let places = sprite_places(text);
    for m in missing {
        m.place = places.get(&m.node.0).copied();
    }
}

/// A token of `.ron` text, as far as finding sprite paths needs.
#[derive(Clone, Copy, PartialEq)]
enum Token<'a> {
    Ident(&'a str),
    Number(&'a str),
    Str,
    Punct(char),
}

/// The `.ron` text as tokens with their 1-based line and column (comments and string
/// contents skipped, so a name that looks like a sprite is not one).
fn tokens(text: &str) -> Vec<(Token<'_>, usize, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let (mut line, mut col) = (1, 1);
    fn step(c: char, line: &mut usize, col: &mut usize) {
        if c == '\n' {
            (*line, *col) = (*line + 1, 1);
        } else {
            *col += 1;
        }
    }
    while let Some((at, c)) = chars.next() {
        let here = (line, col);
        step(c, &mut line, &mut col);
        let rest = &text[at..];
        if c.is_whitespace() {
            continue;
        }
        let skip = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |e| e + 2)
        } else if c == '"' || (c == 'r' && raw_start(rest).is_some()) {
            out.push((Token::Str, here.0, here.1));
            string_len(rest)
        } else if c.is_alphanumeric() || c == '_' || c == '-' || c == '+' {
            let len = rest
                .find(|ch: char| !(ch.is_alphanumeric() || "_.+-".contains(ch)))
                .unwrap_or(rest.len());
            let word = &rest[..len];
            let numeric = c.is_ascii_digit() || c == '-' || c == '+';
            out.push((
                if numeric {
                    Token::Number(word)
                } else {
                    Token::Ident(word)
                },
                here.0,
                here.1,
            ));
            len
        } else {
            out.push((Token::Punct(c), here.0, here.1));
            c.len_utf8()
        };
        // Move past the rest of what was read (its first char already counted).
        let end = at + skip;
        while chars.peek().is_some_and(|&(i, _)| i < end) {
            if let Some((_, ch)) = chars.next() {
                step(ch, &mut line, &mut col);
            }
        }
    }
    out
}

/// The number of `#` of a raw string starting `rest` (`r"`, `r#"`, …).
fn raw_start(rest: &str) -> Option<usize> {
    let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
    (rest[1 + hashes..].starts_with('"')).then_some(hashes)
}

/// The byte length of the string literal starting `rest` (to the end when it is not closed).
fn string_len(rest: &str) -> usize {
    if let Some(hashes) = rest.starts_with('r').then(|| raw_start(rest)).flatten() {
        let close = format!("\"{}", "#".repeat(hashes));
        let body = 2 + hashes;
        return rest[body..]
            .find(&close)
            .map_or(rest.len(), |e| body + e + close.len());
    }
    let mut escaped = false;
    for (i, c) in rest.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return i + 1,
            _ => {}
        }
    }
    rest.len()
}

/// Where each node's sprite path is in a scene file's text: node id → 1-based line and
/// column of the path's string. Lexical and forgiving: what it cannot place is left out.
pub fn sprite_places(text: &str) -> HashMap<u32, (usize, usize)> {
    let tokens = tokens(text);
    let mut places = HashMap::new();
    // Open brackets: (closing char, opened the node list, opened a node, opened a Sprite).
    let mut stack: Vec<(bool, bool, bool)> = Vec::new();
    let (mut id, mut place) = (None, None);
    for (k, &(token, line, col)) in tokens.iter().enumerate() {
        let back = |n: usize| k.checked_sub(n).map(|j| tokens[j].0);
        let after =
            |name: &str| back(1) == Some(Token::Punct(':')) && back(2) == Some(Token::Ident(name));
        match token {
            Token::Punct('(' | '[') => {
                let list = token == Token::Punct('[') && after("nodes");
                let node = token == Token::Punct('(') && stack.last().is_some_and(|f| f.0);
                let sprite = back(1) == Some(Token::Ident("Sprite"));
                if node {
                    (id, place) = (None, None);
                }
                stack.push((list, node, sprite));
            }
            Token::Punct(')' | ']') => {
                if let Some((_, true, _)) = stack.pop()
                    && let (Some(id), Some(place)) = (id, place)
                {
                    places.insert(id, place);
                }
            }
            Token::Number(n) if after("id") && stack.last().is_some_and(|f| f.1) => {
                id = n.parse::<u32>().ok();
            }
            Token::Str if after("path") && stack.last().is_some_and(|f| f.2) => {
                place = Some((line, col));
            }
            _ => {}
        }
    }
    places
}

/// Warn once, in the message log, about the sprites of the file just opened (`doc`) whose image
/// cannot be drawn (`FILE:LINE:COL`, as `graft check` says it).
/// Returns how many cannot be drawn.
pub(super) fn warn_missing_images(doc: &Document, log: &mut MessageLog) -> usize {
    let Some(file) = doc.path().map(Path::to_path_buf) else {
        return 0;
    };
    let mut missing = missing_images(doc.scene(), &folder_of(&file));
    if missing.is_empty() {
        return 0;
    }
    // Read again only now, to place them (rare: the open itself kept no text).
    let limit = crate::model::read_limit::SCENE;
    if let Ok(text) = crate::model::read_limit::read_text_bounded(&file, limit) {
        place_missing(&mut missing, &text);
    }
    for m in missing.iter().take(MAX_WARNINGS) {
        log.info(m.message(&file));
    }
    if missing.len() > MAX_WARNINGS {
        let more = missing.len() - MAX_WARNINGS;
        log.info(format!(
            "{}: warning: {more} more sprites whose image cannot be drawn (graft check lists them all)",
            file.display()
        ));
    }
    missing.len()
}

/// After a save into another folder than `folder_before`: every image must still be found
/// from there, or the failure line and the error window say how many are not (the window
/// still draws them from memory).
pub(super) fn warn_images_after_move(
    doc: &Document,
    log: &mut MessageLog,
    folder_before: Option<PathBuf>,
    saved: &Path,
) {
    if folder_before == doc.sprite_folder() {
        return;
    }
    let missing = warn_missing_images(doc, log);
    if missing > 0 {
        log.fail(format!(
            "Saved {}, but {missing} image(s) of its sprites cannot be read from its folder: \
             the window still draws them from memory (Messages lists them; graft check too)",
            saved.display()
        ));
    }
}

/// Inspector ▸ Choose image…: the dialog that asks for the image of `node`'s sprite.
pub(super) fn choose_image(doc: &Document, node: NodeId) -> Result<DialogPurpose> {
    match doc.scene().node(node)?.shape {
        Shape::Sprite(_) => Ok(DialogPurpose::ChooseImage { node }),
        _ => Err(Error::Refused("Choose image is for a sprite".into())),
    }
}

/// The image was picked: set it as `node`'s sprite path (relative to the scene's folder
/// when the scene has one), one undoable step.
pub(super) fn image_chosen(
    doc: &mut Document,
    log: &mut MessageLog,
    node: NodeId,
    file: PathBuf,
) -> Result<Outcome> {
    let data = doc.scene().node(node)?;
    let Shape::Sprite(sprite) = &data.shape else {
        return Err(Error::Refused("the node is no longer a sprite".into()));
    };
    let path = sprite_path_for(&file, doc.sprite_folder().as_deref());
    let mut sprite = sprite.clone();
    sprite.path = path.clone();
    let (label, color) = (
        format!("Choose the image of {}", node_label(&data.name, node)),
        data.color,
    );
    let op = Op::SetAppearance {
        node,
        shape: Shape::Sprite(sprite),
        color,
    };
    doc.perform(label, vec![op])?;
    match image_problem(&file) {
        Some(why) => log.info(format!("Warning: the image {path:?} {why}")),
        None => log.info(format!("Image {path:?}")),
    }
    Ok(Outcome::default())
}

/// The sprite path naming `file`: relative to `folder` (the scene's) when there is one, else
/// absolute (an untitled scene's paths are).
pub fn sprite_path_for(file: &Path, folder: Option<&Path>) -> String {
    use crate::model::scene::sprites::{absolute_dir, relative_path};
    let file = absolute_dir(file).to_string_lossy().into_owned();
    folder
        .and_then(|folder| relative_path(&file, folder))
        .unwrap_or(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_found_past_names_comments_and_raw_strings() {
        let text = "// Sprite(path: \"no\")\n(\n    format: 2,\n    nodes: [\n        (id: 1, name: \"Sprite(path: \\\"x\\\")\"),\n        (id: 7, name: r#\"a\"#, shape: Sprite(path: \"../a.png\", size: (1.0, 1.0))),\n        (shape: Sprite(size: (1.0, 1.0), path: \"b.png\"), /* id: 9 */ id: 3),\n    ],\n)\n";
        let places = sprite_places(text);
        assert_eq!(places.len(), 2, "{places:?}");
        assert_eq!(places[&7], (6, 51));
        assert_eq!(places[&3], (7, 48));
    }

    #[test]
    fn a_problem_names_why() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone.png");
        assert!(image_problem(&gone).unwrap().starts_with("is missing"));
        assert!(image_problem(dir.path()).unwrap().contains("regular file"));
        let text = dir.path().join("t.png");
        std::fs::write(&text, "hello").unwrap();
        assert!(image_problem(&text).unwrap().contains("not an image"));
        let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sword.png");
        assert_eq!(image_problem(&png), None);
    }

    #[test]
    fn chosen_paths_are_relative_to_the_scene_folder() {
        let folder = Path::new("/w/scenes");
        assert_eq!(
            sprite_path_for(Path::new("/w/assets/a.png"), Some(folder)),
            "../assets/a.png"
        );
        assert_eq!(sprite_path_for(Path::new("/w/a.png"), None), "/w/a.png");
    }
}
