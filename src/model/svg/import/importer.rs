//! The importer's state (the file, its ids and style sheets, the nodes made so far, the notes)
//! and the small helpers every part of the import uses: a leaf the walk (`mod.rs`), the
//! shapes, the coordinates and the styles all build on.

use super::path::Css;
use crate::model::scene::NodeSpec;
use roxmltree::Node;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

/// Distinct notes at most; the rest are only counted.
const MAX_NOTES: usize = 200;

pub(super) const SVG_NS: &str = "http://www.w3.org/2000/svg";
pub(super) const XLINK_NS: &str = "http://www.w3.org/1999/xlink";

/// Whether `node` is an element in the SVG namespace (or none).
pub(super) fn is_svg(node: Node) -> bool {
    node.is_element() && matches!(node.tag_name().namespace(), None | Some(SVG_NS))
}

/// The element `node` refers to by `href` or `xlink:href`.
pub(super) fn href<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    node.attribute("href")
        .or(node.attribute((XLINK_NS, "href")))
}

/// One import under way.
pub(super) struct Importer<'a, 'i> {
    pub(super) text: &'i str,
    pub(super) path: &'a Path,
    pub(super) dir: PathBuf,
    pub(super) css: &'a Css,
    pub(super) ids: FxHashMap<&'a str, Node<'a, 'i>>,
    pub(super) specs: Vec<NodeSpec>,
    /// (first place, message, count), in order of first appearance.
    pub(super) notes: Vec<(String, String, usize)>,
    pub(super) note_index: FxHashMap<String, usize>,
    pub(super) more_notes: usize,
    /// (byte offset, line, col) of the last place computed: places mostly come in order.
    pub(super) cursor: (usize, usize, usize),
    pub(super) use_nodes: usize,
    pub(super) points: usize,
    /// Expanded `<use>` elements: (the use, the one it was itself reached through).
    pub(super) chains: Vec<(Node<'a, 'i>, Option<usize>)>,
}

impl<'a, 'i> Importer<'a, 'i> {
    /// A fresh importer for `text` read as the file at `path`, with its style sheets and ids.
    pub(super) fn new(
        text: &'i str,
        path: &'a Path,
        css: &'a Css,
        ids: FxHashMap<&'a str, Node<'a, 'i>>,
    ) -> Self {
        Importer {
            text,
            path,
            // Absolute: an untitled imported scene names its images from any folder.
            dir: crate::model::scene::sprites::folder_of(path),
            css,
            ids,
            specs: Vec::new(),
            notes: Vec::new(),
            note_index: FxHashMap::default(),
            more_notes: 0,
            cursor: (0, 1, 1),
            use_nodes: 0,
            points: 0,
            chains: Vec::new(),
        }
    }

    /// The notes as lines (`place: message`, with a count of repeats), then how many more
    /// there were; leaves the importer's notes empty.
    pub(super) fn note_lines(&mut self) -> Vec<String> {
        let mut notes: Vec<String> = (std::mem::take(&mut self.notes).into_iter())
            .map(|(place, message, n)| match n {
                1 => format!("{place}: {message}"),
                _ => format!("{place}: {message} (and {} more like it)", n - 1),
            })
            .collect();
        if self.more_notes > 0 {
            notes.push(format!(
                "{}: {} more notes",
                self.path.display(),
                self.more_notes
            ));
        }
        notes
    }

    pub(super) fn note(&mut self, node: Node, message: impl Into<String>) {
        let message = message.into();
        if let Some(&k) = self.note_index.get(&message) {
            self.notes[k].2 += 1;
        } else if self.notes.len() >= MAX_NOTES {
            self.more_notes += 1;
        } else {
            let place = self.place(node);
            self.note_index.insert(message.clone(), self.notes.len());
            self.notes.push((place, message, 1));
        }
    }

    /// `file:line:col` of an element.
    pub(super) fn place(&mut self, node: Node) -> String {
        let pos = node.range().start;
        let (mut at, mut line, mut col) = self.cursor;
        if pos < at {
            (at, line, col) = (0, 1, 1);
        }
        for c in self.text.get(at..pos).unwrap_or("").chars() {
            (line, col) = if c == '\n' {
                (line + 1, 1)
            } else {
                (line, col + 1)
            };
        }
        self.cursor = (pos, line, col);
        format!("{}:{line}:{col}", self.path.display())
    }
}
