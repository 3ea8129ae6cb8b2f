//! Loading `.ron` scenes: text parsed straight into the scene's columns (each node checked as
//! it is read, the node count capped, progress reported and cancellable), then the scene built
//! with every rule checked; and files read in chunks.

use crate::error::{Error, Result};
use crate::model::anim::ClipSettings;
use crate::model::file::{CANCELLED, CHUNK, MAX_NODES, NODES_PER_REPORT, RECURSION_LIMIT};
use crate::model::file_parsed::ParsedNodes;
use crate::model::file_version::check_format;
use crate::model::instance::Source;
use crate::model::instance::expand::{self, Expanded, Resolver};
use crate::model::progress::{Progress, Stage};
use crate::model::read_limit;
use crate::model::scene::Scene;
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
struct FileScene {
    #[serde(default, deserialize_with = "present")]
    format: Option<u32>,
    #[serde(default)]
    clip: ClipSettings,
    #[serde(default, deserialize_with = "limited_nodes")]
    nodes: ParsedNodes,
}

/// A plain number in the file that may also be left out (`None` when missing).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    u32::deserialize(deserializer).map(Some)
}

/// Deserialize the node list, refusing more than `MAX_NODES` before reading them all.
fn limited_nodes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ParsedNodes, D::Error> {
    struct Limited;
    impl<'de> Visitor<'de> for Limited {
        type Value = ParsedNodes;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list of at most {MAX_NODES} nodes")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let limit = node_limit();
            let expected = NODE_HINT.with(|h| h.get()).min(limit);
            let mut nodes = ParsedNodes::with_capacity(expected);
            let mut parsed = 0usize;
            while let Some(node) = seq.next_element()? {
                if parsed == limit {
                    return Err(de::Error::custom(format!("more than {limit} nodes")));
                }
                nodes.push(node);
                parsed += 1;
                if parsed.is_multiple_of(NODES_PER_REPORT) && !report_parsed(parsed) {
                    return Err(de::Error::custom(CANCELLED));
                }
            }
            Ok(nodes)
        }
    }
    deserializer.deserialize_seq(Limited)
}

thread_local! {
    static NODE_LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_NODES) };
    /// How many nodes the text being parsed seems to hold (its columns are sized for them).
    static NODE_HINT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The progress of the parse running on this thread, if anyone watches it.
    static PARSE_PROGRESS: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

/// Report `nodes` parsed so far; false when the work was cancelled.
fn report_parsed(nodes: usize) -> bool {
    PARSE_PROGRESS.with(|p| match &*p.borrow() {
        Some(progress) => {
            progress.set_done(nodes as u64);
            !progress.is_cancelled()
        }
        None => true,
    })
}

fn node_limit() -> usize {
    NODE_LIMIT.with(|l| l.get())
}

/// Parse with a lower node limit than [`MAX_NODES`] (tests of the limit use it).
pub fn parse_with_node_limit(text: &str, path: &Path, limit: usize) -> Result<Scene> {
    let old = NODE_LIMIT.with(|l| l.replace(limit));
    let result = parse(text, path);
    NODE_LIMIT.with(|l| l.set(old));
    result
}

/// Parse scene text. Syntax errors carry `path:line:col`; rule violations name the node.
/// On any error nothing is returned.
pub fn parse(text: &str, path: &Path) -> Result<Scene> {
    parse_with_progress(text, path, None)?.ok_or_else(|| Error::Refused(CANCELLED.into()))
}

/// [`parse`], reporting the nodes parsed ([`Stage::Parsing`]), then [`Stage::Building`], to
/// `progress`; `None` when it was cancelled.
pub fn parse_with_progress(
    text: &str,
    path: &Path,
    progress: Option<&Progress>,
) -> Result<Option<Scene>> {
    match parse_text(text, path, progress, Reader::Fast)? {
        Some(file) => build(file, path, &mut Resolver::new(load_source)).map(Some),
        None => Ok(None),
    }
}

/// Parse a source file's text while its instancer loads: its own instances are expanded
/// through the same `resolver` (one read per file, cycles refused).
pub(crate) fn parse_source(text: &str, path: &Path, resolver: &mut Resolver) -> Result<Scene> {
    match parse_text(text, path, None, Reader::Fast)? {
        Some(file) => build(file, path, resolver),
        None => Err(Error::Refused(CANCELLED.into())),
    }
}

/// Read and parse a source file while its instancer loads (a [`Resolver`]'s loader): its own
/// instances are expanded through the same `resolver`.
pub(crate) fn load_source(path: &Path, resolver: &mut Resolver) -> Result<Scene> {
    match read_text(path, &Progress::new())? {
        Some(text) => parse_source(&text, path, resolver),
        None => Err(Error::Refused(CANCELLED.into())),
    }
}

/// Parse scene text with a resolver set up by the caller (a reload giving ids back, or an
/// instancing that must not lead back to the scene itself).
pub(crate) fn parse_with_resolver(
    text: &str,
    path: &Path,
    resolver: &mut Resolver,
) -> Result<Scene> {
    parse_source(text, path, resolver)
}

/// True when the fast reader reads `text` by itself (the canonical form graft writes);
/// false when ron would read it. For tests and `graft bench io`.
#[doc(hidden)]
pub fn reads_fast(text: &str) -> bool {
    crate::model::file_fast::parse_canonical(text, count_nodes(text), node_limit(), None).is_ok()
}

/// Which reader reads the text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// The fast reader for the canonical form, ron for anything else.
    Fast,
    /// ron alone (the reference the fast reader is compared with).
    Ron,
}

/// [`parse`] by ron alone, the reference: the fast reader must give bit-identical scenes and
/// the same errors (tests, `graft bench io` and the fuzz target compare them).
#[doc(hidden)]
pub fn parse_with_ron_only(text: &str, path: &Path) -> Result<Scene> {
    match parse_text(text, path, None, Reader::Ron)? {
        Some(file) => build(file, path, &mut Resolver::new(load_source)),
        None => Err(Error::Refused(CANCELLED.into())),
    }
}

/// The text parsed (every node already checked and in columns), before the scene is built:
/// the caller may drop the text first. `None` when cancelled.
fn parse_text(
    text: &str,
    path: &Path,
    progress: Option<&Progress>,
    reader: Reader,
) -> Result<Option<FileScene>> {
    let options = ron::Options::default().with_recursion_limit(RECURSION_LIMIT);
    // The expected node count sizes the columns and gives the parsing stage a total.
    let expected = count_nodes(text);
    if let Some(p) = progress {
        p.enter(Stage::Parsing, expected as u64);
    }
    // The form graft writes is read by the fast reader; anything else (and every error) by ron.
    let fast = (reader == Reader::Fast)
        .then(|| crate::model::file_fast::parse_canonical(text, expected, node_limit(), progress));
    match fast.unwrap_or(Err(crate::model::file_fast::Stop::GiveUp)) {
        Ok(fast) => {
            if let Some(p) = progress {
                p.enter(Stage::Building, 0);
            }
            return Ok(Some(FileScene {
                format: fast.format,
                clip: fast.clip,
                nodes: fast.nodes,
            }));
        }
        Err(crate::model::file_fast::Stop::Cancelled) => return Ok(None),
        Err(crate::model::file_fast::Stop::GiveUp) => {}
    }
    let watched = PARSE_PROGRESS.with(|p| p.replace(progress.cloned()));
    let hint = NODE_HINT.with(|h| h.replace(expected));
    let parsed: std::result::Result<FileScene, _> = options.from_str(text);
    NODE_HINT.with(|h| h.set(hint));
    PARSE_PROGRESS.with(|p| p.replace(watched));
    if progress.is_some_and(Progress::is_cancelled) {
        return Ok(None);
    }
    let file = parsed.map_err(|e| Error::Syntax {
        path: path.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    if let Some(p) = progress {
        p.enter(Stage::Building, 0);
    }
    Ok(Some(file))
}

/// The scene a parsed file describes, every rule checked, its instances expanded.
fn build(file: FileScene, path: &Path, resolver: &mut Resolver) -> Result<Scene> {
    let invalid = |source: Error| Error::Invalid {
        path: path.to_path_buf(),
        source: Box::new(source),
    };
    let nodes = file.nodes;
    let clip = file.clip;
    check_format(file.format, &clip, &nodes.needs).map_err(invalid)?;
    clip.check().map_err(|e| invalid(Error::Format(e)))?;
    if let Some(e) = nodes.error {
        return Err(invalid(e));
    }
    // The columns filled while parsing become the scene's own arrays.
    let ParsedNodes {
        ids,
        parents,
        data,
        marks,
        ..
    } = nodes;
    if marks.is_empty() {
        let mut scene = Scene::from_columns(ids, &parents, data.into()).map_err(invalid)?;
        scene.set_clip(clip).map_err(invalid)?;
        return Ok(scene);
    }
    let columns = Expanded {
        ids,
        parents,
        data: data.into(),
        table: Default::default(),
    };
    let abs = expand::absolute(path);
    let own = resolver.stack_push(&abs);
    let expanded = expand::expand(path, columns, marks, resolver);
    resolver.stack_pop(own);
    let Expanded {
        ids,
        parents,
        data,
        table,
    } = expanded.map_err(invalid)?;
    let mut scene = Scene::from_columns(ids, &parents, data).map_err(invalid)?;
    scene.set_clip(clip).map_err(invalid)?;
    scene.set_instance_table(Some(Box::new(table)));
    Ok(scene)
}

/// How many nodes `text` seems to hold (how often `id:` occurs; a name that contains it makes
/// this a little high), so the columns are allocated once at the right size instead of
/// doubling (at 1M nodes a doubling briefly holds 1.5× the data).
fn count_nodes(text: &str) -> usize {
    memchr::memmem::find_iter(text.as_bytes(), b"id:")
        .count()
        .min(MAX_NODES)
}

/// Read and parse a scene file.
pub fn load(path: &Path) -> Result<Scene> {
    load_with_progress(path, &Progress::new())?.ok_or_else(|| Error::Refused(CANCELLED.into()))
}

/// [`load`], reporting each stage to `progress` (bytes read, nodes parsed, building); `None`
/// when it was cancelled.
pub fn load_with_progress(path: &Path, progress: &Progress) -> Result<Option<Scene>> {
    let Some(text) = read_text(path, progress)? else {
        return Ok(None);
    };
    let Some(file) = parse_text(&text, path, Some(progress), Reader::Fast)? else {
        return Ok(None);
    };
    // The text is not needed to build the scene: free it first (at 1M nodes it is 223 MB).
    drop(text);
    build(file, path, &mut Resolver::new(load_source)).map(Some)
}

/// Read a scene's text in chunks, reporting bytes read of the file's size ([`Stage::Reading`]);
/// `None` when cancelled. Only a regular file within [`read_limit::SCENE`] is read; text that
/// is not UTF-8 is refused with the offset of the first bad byte.
pub fn read_text(path: &Path, progress: &Progress) -> Result<Option<String>> {
    read_text_limited(path, progress, read_limit::SCENE)
}

/// [`read_text`] with another kind's limit (a Godot scene, an SVG drawing).
pub fn read_text_limited(
    path: &Path,
    progress: &Progress,
    limit: read_limit::Limit,
) -> Result<Option<String>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = read_limit::open_regular(path, limit)?;
    let total = file.metadata().map_err(io)?.len();
    progress.enter(Stage::Reading, total);
    // Read straight into the buffer (no chunk copy); one spare byte lets the last read see the
    // end without growing it. One byte past the limit is read at most: a file growing while
    // it is read is refused, not followed.
    let mut bytes = Vec::with_capacity(usize::try_from(total).unwrap_or(0).saturating_add(1));
    let mut file = file.take(limit.bytes.saturating_add(1));
    loop {
        if progress.is_cancelled() {
            return Ok(None);
        }
        let n = (&mut file)
            .take(CHUNK as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if n == 0 {
            break;
        }
        progress.set_done(bytes.len() as u64);
    }
    if bytes.len() as u64 > limit.bytes {
        return Err(read_limit::too_large(path, limit));
    }
    read_limit::utf8(bytes, path).map(Some)
}

/// The files the instances of the scene file `abs` read, nested ones included, as they are
/// on disk now (empty when it cannot be read).
fn nested_files_on_disk(abs: &Path) -> Vec<PathBuf> {
    match Resolver::new(load_source).source(abs) {
        Ok(Ok(source)) => source.nested_files().to_vec(),
        _ => Vec::new(),
    }
}

impl Source {
    /// The files its own instances read, nested ones included (absolute): what a disk watch
    /// and the paste check see beside its own file. Read from disk the first time when the
    /// source did not come from an expansion (one recovered from a journal); here, in the
    /// loader, so the instance table does not reach the loader.
    pub fn nested_files(&self) -> &[PathBuf] {
        self.nested.get_or_init(|| nested_files_on_disk(&self.path))
    }
}
