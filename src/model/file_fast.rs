//! The fast reader for the form graft writes (issue 37): the canonical layout `graft fmt`
//! produces — a header, one node a line, fields in their fixed order — read straight into the
//! same [`FileNode`]s ron would give, so everything after (the checks, the format rules, the
//! build) is the same code. ron stays the format and the reference:
//!
//! - a node line with anything the fast path does not read itself (a sprite, a polygon,
//!   probes, tracks, a name with an escape, an instance) is handed to ron, that line alone;
//! - anything else the fast path does not expect — comments between nodes, other spacing, a
//!   node over two lines, a field out of order, a syntax error, a node that breaks a rule —
//!   makes it give up, and ron reads the whole file, so hand-written files and every error
//!   (with its `FILE:LINE:COL`) are exactly ron's.
//!
//! Floats go through `f32::from_str` on the same characters ron hands to it, so the scenes are
//! bit-identical (a differential test and a fuzz target compare the two readers).

use crate::model::anim::ClipSettings;
use crate::model::file::{NODES_PER_REPORT, RECURSION_LIMIT};
use crate::model::file_node::{FileNode, FileShape};
use crate::model::file_parsed::ParsedNodes;
use crate::model::progress::Progress;

/// What the fast path read: the format, the clip and the node columns.
pub(crate) struct FastScene {
    /// `format: N`.
    pub(crate) format: Option<u32>,
    /// The clip settings (default when the file has none).
    pub(crate) clip: ClipSettings,
    /// The nodes, checked and in columns.
    pub(crate) nodes: ParsedNodes,
}

/// Why the fast path stopped: ron must read the file (`GiveUp`), or the user cancelled.
pub(crate) enum Stop {
    /// Not the canonical form (or an error ron must report): read it with ron.
    GiveUp,
    /// Cancelled through the progress.
    Cancelled,
}

/// Read canonical text, or say why not. `expected` sizes the columns.
pub(crate) fn parse_canonical(
    text: &str,
    expected: usize,
    limit: usize,
    progress: Option<&Progress>,
) -> Result<FastScene, Stop> {
    let mut lines = text
        .split_inclusive('\n')
        .skip_while(|l| l.starts_with("//"));
    let (format, clip) = header(&mut lines).ok_or(Stop::GiveUp)?;
    let nodes = node_lines(&mut lines, expected.min(limit), limit, progress)?;
    if lines.next() != Some(")\n") || lines.next().is_some() {
        return Err(Stop::GiveUp);
    }
    Ok(FastScene {
        format: Some(format),
        clip,
        nodes,
    })
}

/// `(`, `format: N,`, an optional `clip: …,` and `nodes: [`: the format and the clip.
fn header<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Option<(u32, ClipSettings)> {
    if lines.next() != Some("(\n") {
        return None;
    }
    let format = lines
        .next()
        .and_then(|l| l.strip_prefix("    format: ")?.strip_suffix(",\n"))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u32>().ok())?;
    let mut line = lines.next()?;
    let mut clip = ClipSettings::default();
    if let Some(text) = line
        .strip_prefix("    clip: ")
        .and_then(|l| l.strip_suffix(",\n"))
    {
        clip = ron_on_one_line(text)?;
        line = lines.next()?;
    }
    (line == "    nodes: [\n").then_some((format, clip))
}

/// The node lines up to `    ],`, each read and checked into the columns.
fn node_lines<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    capacity: usize,
    limit: usize,
    progress: Option<&Progress>,
) -> Result<ParsedNodes, Stop> {
    let mut nodes = ParsedNodes::with_capacity(capacity);
    let mut count = 0usize;
    for line in lines.by_ref() {
        if line == "    ],\n" {
            return Ok(nodes);
        }
        let body = line
            .strip_prefix("        ")
            .and_then(|l| l.strip_suffix(",\n"))
            .ok_or(Stop::GiveUp)?;
        if count == limit {
            return Err(Stop::GiveUp);
        }
        nodes.push(node_of(body).ok_or(Stop::GiveUp)?);
        if nodes.has_error() {
            return Err(Stop::GiveUp);
        }
        count += 1;
        if count.is_multiple_of(NODES_PER_REPORT)
            && let Some(p) = progress
        {
            if p.is_cancelled() {
                return Err(Stop::Cancelled);
            }
            p.set_done(count as u64);
        }
    }
    Err(Stop::GiveUp)
}

/// ron as the loader configures it.
fn ron_options() -> ron::Options {
    ron::Options::default().with_recursion_limit(RECURSION_LIMIT)
}

/// ron's reading of `text`, one line of the file, when it means the same inside the whole file:
/// a comment (`//` or `/*` outside a string) could swallow the line's comma, which ron alone
/// would not see, so a line with one is left to ron's reading of the whole file.
fn ron_on_one_line<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    if has_comment_or_raw_string(text) {
        return None;
    }
    ron_options().from_str(text).ok()
}

/// Whether `text` has a `/` outside its `"…"` strings, or a raw string (`r"`, `r#`), which
/// this scan does not follow.
fn has_comment_or_raw_string(text: &str) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    let mut previous = 0u8;
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'/' => return true,
                b'"' | b'#' if previous == b'r' => return true,
                b'"' => in_string = true,
                _ => {}
            }
        }
        previous = b;
    }
    false
}

/// One node line (`(id: …)`, without its indentation and trailing comma): read here when it
/// holds only the simple fields, else by ron; None when neither reads it.
fn node_of(body: &str) -> Option<FileNode> {
    match Cursor::new(body).node() {
        Some(Parsed::Node(node)) => Some(node),
        Some(Parsed::AskRon) => ron_on_one_line(body),
        None => None,
    }
}

/// The fast path's verdict on a line (one at a time, never stored: a box per node would
/// cost an allocation per line).
#[allow(clippy::large_enum_variant)]
enum Parsed {
    /// Read whole.
    Node(FileNode),
    /// Holds a field for ron (well-formed so far).
    AskRon,
}

/// The fields in the order graft writes them.
const KEYS: [&str; 14] = [
    "name",
    "parent",
    "inside",
    "index",
    "instance",
    "position",
    "rotation",
    "scale",
    "skew",
    "shape",
    "color",
    "probes",
    "tracks",
    "overrides",
];

/// A reader over one node line's bytes.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Take `prefix` if the text goes on with it.
    fn eat(&mut self, prefix: &str) -> Option<()> {
        self.rest()
            .starts_with(prefix)
            .then(|| self.at += prefix.len())
    }

    /// The bytes up to the first one `keep` refuses.
    fn token(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let len = self.rest().bytes().take_while(|&b| keep(b)).count();
        let token = &self.rest()[..len];
        self.at += len;
        token
    }

    fn unsigned<T: std::str::FromStr>(&mut self) -> Option<T> {
        let digits = self.token(|b| b.is_ascii_digit());
        (!digits.is_empty()).then(|| digits.parse().ok()).flatten()
    }

    /// A float as graft writes it (`{:?}`: digits, `.`, `e`, a sign); `f32::from_str` on it, as
    /// ron does.
    fn float(&mut self) -> Option<f32> {
        let token =
            self.token(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'));
        if token.is_empty() || !token.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        token.parse().ok()
    }

    fn pair(&mut self) -> Option<(f32, f32)> {
        self.eat("(")?;
        let x = self.float()?;
        self.eat(", ")?;
        let y = self.float()?;
        self.eat(")")?;
        Some((x, y))
    }

    /// A name with no escape in it (ron reads the others).
    fn name(&mut self) -> Option<Result<compact_str::CompactString, ()>> {
        self.eat("\"")?;
        let inner = self.token(|b| b != b'"' && b != b'\\');
        if self.rest().starts_with('\\') {
            return Some(Err(()));
        }
        self.eat("\"")?;
        Some(Ok(inner.into()))
    }

    fn color(&mut self) -> Option<(u8, u8, u8, u8)> {
        self.eat("(")?;
        let r = self.unsigned()?;
        self.eat(", ")?;
        let g = self.unsigned()?;
        self.eat(", ")?;
        let b = self.unsigned()?;
        self.eat(", ")?;
        let a = self.unsigned()?;
        self.eat(")")?;
        Some((r, g, b, a))
    }

    /// A rectangle or an ellipse; `Err` for the shapes ron reads.
    fn shape(&mut self) -> Option<Result<FileShape, ()>> {
        let rect = self.eat("Rect(size: ").is_some();
        if !rect && self.eat("Ellipse(size: ").is_none() {
            return Some(Err(()));
        }
        let size = self.pair()?;
        self.eat(")")?;
        Some(Ok(if rect {
            FileShape::Rect { size }
        } else {
            FileShape::Ellipse { size }
        }))
    }

    /// The whole line.
    fn node(&mut self) -> Option<Parsed> {
        self.eat("(id: ")?;
        let mut node = FileNode::with_id(self.unsigned()?);
        let mut next_key = 0;
        while self.eat(")").is_none() {
            self.eat(", ")?;
            let key = self.token(|b| b.is_ascii_lowercase());
            let k = KEYS.iter().position(|&k| k == key)?;
            if k < next_key {
                return None; // out of order or twice: ron says what is wrong
            }
            next_key = k + 1;
            self.eat(": ")?;
            if self.field(key, &mut node)?.is_err() {
                return Some(Parsed::AskRon);
            }
        }
        self.rest().is_empty().then_some(Parsed::Node(node))
    }

    /// One field's value into `node`; `Err` when ron must read the line.
    fn field(&mut self, key: &str, node: &mut FileNode) -> Option<Result<(), ()>> {
        match key {
            "name" => match self.name()? {
                Ok(name) => node.name = name,
                Err(()) => return Some(Err(())),
            },
            "parent" => {
                self.eat("Some(")?;
                node.parent = Some(self.unsigned()?);
                self.eat(")")?;
            }
            "position" => node.position = self.pair()?,
            "rotation" => node.rotation = self.float()?,
            "scale" => node.scale = self.pair()?,
            "skew" => node.skew = self.float()?,
            "shape" => match self.shape()? {
                Ok(shape) => node.shape = shape,
                Err(()) => return Some(Err(())),
            },
            "color" => node.color = self.color()?,
            _ => return Some(Err(())),
        }
        Some(Ok(()))
    }
}
