//! The `.ron` scene format, versions 1 to 3 (docs/scene-format.md): strict loading, canonical
//! bit-exact saving, and atomic writes that keep the previous version as `NAME.ron.bak`.

use crate::error::{Error, Result};
use crate::model::anim::{ClipSettings, Track};
use crate::model::atomic_write::{atomic_write_with, write_with_progress};
use crate::model::math::Trs;
use crate::model::progress::{Progress, Stage};
use crate::model::scene::{Color, DEFAULT_COLOR, NodeData, NodeId, Scene, Shape};
use glam::Vec2;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::Path;

/// The newest format version this graft reads and writes (2: polygons, sprite regions, probes;
/// 3: keyframe tracks and the clip).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this graft reads (version 1 files read exactly as before).
pub const OLDEST_FORMAT_VERSION: u32 = 1;
/// The most corners a polygon may have.
pub const MAX_POLYGON_POINTS: usize = 65_536;
/// The most probes one node may carry.
pub const MAX_PROBES_PER_NODE: usize = 1024;
/// The most nodes a file may hold.
pub const MAX_NODES: usize = 10_000_000;
/// How deeply brackets may nest before the parser gives up (cleanly, without overflowing).
const RECURSION_LIMIT: usize = 64;
/// Bytes read or written between progress reports and cancel checks.
const CHUNK: usize = 1 << 20;
/// Nodes parsed between progress reports and cancel checks.
const NODES_PER_REPORT: usize = 4096;

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

/// The node list as it is parsed: each node is checked and split into the scene's columns as
/// soon as it is read, so the list of parsed nodes is never held (at 1M nodes that list was
/// 176 B per node on top of the text and the columns).
#[derive(Default)]
struct ParsedNodes {
    ids: Vec<NodeId>,
    parents: Vec<Option<NodeId>>,
    data: Vec<NodeData>,
    /// The first node that needs format 3 (tracks).
    first_v3: Option<u32>,
    /// The first node that format 1 cannot hold: its id, the version it needs, and why.
    first_above_1: Option<(u32, u32, &'static str)>,
    /// The first rule a node broke (reported after the format checks, as before).
    error: Option<Error>,
}

impl ParsedNodes {
    fn with_capacity(n: usize) -> Self {
        Self {
            ids: Vec::with_capacity(n),
            parents: Vec::with_capacity(n),
            data: Vec::with_capacity(n),
            ..Self::default()
        }
    }

    /// Take one parsed node: note what format it needs, check it and keep its parts.
    fn push(&mut self, node: FileNode) {
        if self.first_v3.is_none() && node.feature_above(2).is_some() {
            self.first_v3 = Some(node.id);
        }
        if self.first_above_1.is_none()
            && let Some((version, feature)) = node.feature_above(1)
        {
            self.first_above_1 = Some((node.id, version, feature));
        }
        if self.error.is_some() {
            return; // the rest is still parsed (a syntax error further on wins), not kept
        }
        match node.into_parts() {
            Ok((id, parent, data)) => {
                self.ids.push(id);
                self.parents.push(parent);
                self.data.push(data);
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// The first node that format `format` cannot hold: its id, the version and the feature.
    fn needs_above(&self, format: u32) -> Option<(u32, u32, &'static str)> {
        match format {
            0 | 1 => self.first_above_1,
            2 => self.first_v3.map(|id| (id, 3, "tracks")),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename = "Node", deny_unknown_fields)]
struct FileNode {
    id: u32,
    #[serde(default)]
    name: compact_str::CompactString,
    #[serde(default)]
    parent: Option<u32>,
    #[serde(default)]
    position: (f32, f32),
    #[serde(default)]
    rotation: f32,
    #[serde(default = "unit_scale")]
    scale: (f32, f32),
    #[serde(default)]
    skew: f32,
    #[serde(default)]
    shape: FileShape,
    #[serde(default = "default_color")]
    color: (u8, u8, u8, u8),
    #[serde(default)]
    probes: Vec<(f32, f32)>,
    #[serde(default)]
    tracks: Vec<Track>,
}

fn unit_scale() -> (f32, f32) {
    (1.0, 1.0)
}

fn default_color() -> (u8, u8, u8, u8) {
    let [r, g, b, a] = DEFAULT_COLOR;
    (r, g, b, a)
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
enum FileShape {
    #[default]
    None,
    Rect {
        size: (f32, f32),
    },
    Ellipse {
        size: (f32, f32),
    },
    Sprite {
        path: String,
        #[serde(default = "unit_scale")]
        size: (f32, f32),
        #[serde(default = "full_region")]
        region: (f32, f32, f32, f32),
        #[serde(default)]
        offset: (f32, f32),
    },
    Polygon {
        points: Vec<(f32, f32)>,
    },
}

/// The whole image: a sprite region that is left out of the file.
const FULL_REGION: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

fn full_region() -> (f32, f32, f32, f32) {
    let [a, b, c, d] = FULL_REGION;
    (a, b, c, d)
}

impl FileNode {
    /// The first thing in this node that format `format` cannot hold, with the version it needs.
    fn feature_above(&self, format: u32) -> Option<(u32, &'static str)> {
        if format < 3 && !self.tracks.is_empty() {
            return Some((3, "tracks"));
        }
        if format >= 2 {
            return None;
        }
        self.version_2_feature().map(|f| (2, f))
    }

    /// The first thing in this node that format 1 cannot hold.
    fn version_2_feature(&self) -> Option<&'static str> {
        if !self.probes.is_empty() {
            return Some("probes");
        }
        match &self.shape {
            FileShape::Polygon { .. } => Some("Polygon shapes"),
            FileShape::Sprite { region, .. } if *region != full_region() => Some("sprite regions"),
            FileShape::Sprite { offset, .. } if *offset != (0.0, 0.0) => Some("sprite offsets"),
            _ => None,
        }
    }
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

/// The message of the error that stops a cancelled parse (never shown: the load says None).
pub(crate) const CANCELLED: &str = "cancelled";

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

fn size_of(size: (f32, f32), id: u32) -> Result<Vec2> {
    let v = Vec2::new(size.0, size.1);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::NotFinite {
            node: NodeId(id),
            field: "shape size",
        })
    }
}

/// Points from the file, refused when any is not finite.
fn points_of(points: &[(f32, f32)], id: u32, field: &'static str) -> Result<Vec<Vec2>> {
    let out: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    if out.iter().all(|p| p.is_finite()) {
        Ok(out)
    } else {
        Err(Error::NotFinite {
            node: NodeId(id),
            field,
        })
    }
}

impl FileNode {
    /// The node's id, parent and data, every number checked.
    fn into_parts(self) -> Result<(NodeId, Option<NodeId>, NodeData)> {
        let shape = self.shape.into_shape(self.id)?;
        if self.probes.len() > MAX_PROBES_PER_NODE {
            return Err(Error::Format(format!(
                "node {}: {} probes (at most {MAX_PROBES_PER_NODE})",
                self.id,
                self.probes.len()
            )));
        }
        let probes = points_of(&self.probes, self.id, "probe")?;
        Scene::check_tracks(NodeId(self.id), &self.tracks)?;
        let (r, g, b, a) = self.color;
        Ok((
            NodeId(self.id),
            self.parent.map(NodeId),
            NodeData {
                name: self.name,
                local: Trs::new(
                    Vec2::new(self.position.0, self.position.1),
                    self.rotation,
                    Vec2::new(self.scale.0, self.scale.1),
                    self.skew,
                ),
                shape,
                color: [r, g, b, a],
                probes: probes.into(),
                tracks: self.tracks.into(),
            },
        ))
    }
}

impl FileShape {
    /// The shape of node `id`, every number checked.
    fn into_shape(self, id: u32) -> Result<Shape> {
        Ok(match self {
            FileShape::None => Shape::None,
            FileShape::Rect { size } => Shape::Rect {
                size: size_of(size, id)?,
            },
            FileShape::Ellipse { size } => Shape::Ellipse {
                size: size_of(size, id)?,
            },
            FileShape::Sprite {
                path,
                size,
                region,
                offset,
            } => sprite_of(path, size, region, offset, id)?,
            FileShape::Polygon { points } => {
                if points.len() > MAX_POLYGON_POINTS {
                    return Err(Error::Format(format!(
                        "node {id}: a polygon has {} points (at most {MAX_POLYGON_POINTS})",
                        points.len()
                    )));
                }
                Shape::Polygon {
                    points: points_of(&points, id, "polygon point")?.into(),
                }
            }
        })
    }
}

/// A sprite from the file, refused when its region, size or offset is not finite (a full
/// region is stored as none).
fn sprite_of(
    path: String,
    size: (f32, f32),
    region: (f32, f32, f32, f32),
    offset: (f32, f32),
    id: u32,
) -> Result<Shape> {
    let r = [region.0, region.1, region.2, region.3];
    if !r.iter().all(|v| v.is_finite()) {
        return Err(Error::NotFinite {
            node: NodeId(id),
            field: "sprite region",
        });
    }
    Ok(Shape::Sprite(Box::new(crate::model::scene::Sprite {
        path,
        size: size_of(size, id)?,
        region: (r != FULL_REGION).then_some(r),
        offset: size_of(offset, id)?,
    })))
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
    match parse_text(text, path, progress)? {
        Some(file) => build(file, path).map(Some),
        None => Ok(None),
    }
}

/// The text parsed (every node already checked and in columns), before the scene is built:
/// the caller may drop the text first. `None` when cancelled.
fn parse_text(text: &str, path: &Path, progress: Option<&Progress>) -> Result<Option<FileScene>> {
    let options = ron::Options::default().with_recursion_limit(RECURSION_LIMIT);
    // The expected node count sizes the columns and gives the parsing stage a total.
    let expected = count_nodes(text);
    if let Some(p) = progress {
        p.enter(Stage::Parsing, expected as u64);
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

/// The scene a parsed file describes, every rule checked.
fn build(file: FileScene, path: &Path) -> Result<Scene> {
    let invalid = |source: Error| Error::Invalid {
        path: path.to_path_buf(),
        source: Box::new(source),
    };
    match file.format {
        None => {
            return Err(invalid(Error::Format(format!(
                "`format` is missing (this graft reads `format: {FORMAT_VERSION}`)"
            ))));
        }
        Some(OLDEST_FORMAT_VERSION..=FORMAT_VERSION) => {}
        Some(other) => {
            return Err(invalid(Error::Format(format!(
                "format {other} is not supported (this graft reads formats \
                 {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION}; a newer graft wrote this file?)"
            ))));
        }
    }
    let format = file.format.unwrap_or(FORMAT_VERSION);
    let clip = file.clip;
    if format < 3 && !clip.is_default() {
        return Err(invalid(Error::Format(format!(
            "the clip needs `format: 3` (this file says `format: {format}`)"
        ))));
    }
    let nodes = file.nodes;
    if let Some((node, version, feature)) = nodes.needs_above(format) {
        return Err(invalid(Error::Format(format!(
            "node {node}: {feature} need `format: {version}` (this file says `format: {format}`)"
        ))));
    }
    clip.check().map_err(|e| invalid(Error::Format(e)))?;
    if let Some(e) = nodes.error {
        return Err(invalid(e));
    }
    // The columns filled while parsing become the scene's own arrays.
    let ParsedNodes {
        ids, parents, data, ..
    } = nodes;
    let mut scene = Scene::from_columns(ids, &parents, data).map_err(invalid)?;
    scene.set_clip(clip).map_err(invalid)?;
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

/// Bytes of one node of the parse tree (`FileNode`, the list serde builds before the scene's
/// arrays), for `graft bench memory`.
#[doc(hidden)]
pub fn parse_tree_node_bytes() -> usize {
    std::mem::size_of::<FileNode>()
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
    let Some(file) = parse_text(&text, path, Some(progress))? else {
        return Ok(None);
    };
    // The text is not needed to build the scene: free it first (at 1M nodes it is 223 MB).
    drop(text);
    build(file, path).map(Some)
}

/// Read a text file in chunks, reporting bytes read of the file's size ([`Stage::Reading`]);
/// `None` when cancelled. Text that is not UTF-8 is refused with the offset of the first bad
/// byte.
pub fn read_text(path: &Path, progress: &Progress) -> Result<Option<String>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = fs::File::open(path).map_err(io)?;
    let total = file.metadata().map_err(io)?.len();
    progress.enter(Stage::Reading, total);
    // Read straight into the buffer (no chunk copy); one spare byte lets the last read see the
    // end without growing it.
    let mut bytes = Vec::with_capacity(usize::try_from(total).unwrap_or(0).saturating_add(1));
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
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| Error::Invalid {
            path: path.to_path_buf(),
            source: Box::new(Error::Format(format!(
                "not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ))),
        })
}

/// A float written so that it reads back bit-exact (shortest round-trip form, `-0.0` kept).
fn float(v: f32) -> String {
    format!("{v:?}")
}

fn pair(v: Vec2) -> String {
    format!("({}, {})", float(v.x), float(v.y))
}

fn is_bits(v: f32, default: f32) -> bool {
    v.to_bits() == default.to_bits()
}

fn is_vec_bits(v: Vec2, default: Vec2) -> bool {
    is_bits(v.x, default.x) && is_bits(v.y, default.y)
}

fn quoted(s: &str) -> String {
    // ron's own string escaping, so any name reads back as written.
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn shape_text(shape: &Shape) -> Option<String> {
    match shape {
        Shape::None => None,
        Shape::Rect { size } => Some(format!("Rect(size: {})", pair(*size))),
        Shape::Ellipse { size } => Some(format!("Ellipse(size: {})", pair(*size))),
        Shape::Sprite(sprite) => {
            let crate::model::scene::Sprite {
                path,
                size,
                region,
                offset,
            } = &**sprite;
            let mut text = format!("Sprite(path: {}, size: {}", quoted(path), pair(*size));
            if let Some([a, b, c, d]) = region {
                let _ = write!(
                    text,
                    ", region: ({}, {}, {}, {})",
                    float(*a),
                    float(*b),
                    float(*c),
                    float(*d)
                );
            }
            if !is_vec_bits(*offset, Vec2::ZERO) {
                let _ = write!(text, ", offset: {}", pair(*offset));
            }
            text.push(')');
            Some(text)
        }
        Shape::Polygon { points } => Some(format!("Polygon(points: {})", pair_list(points))),
    }
}

fn pair_list(points: &[Vec2]) -> String {
    let items: Vec<String> = points.iter().map(|p| pair(*p)).collect();
    format!("[{}]", items.join(", "))
}

/// The lowest format version that holds everything in the scene (3 with tracks or a clip that
/// is not the default; else 1 unless it uses polygons, sprite regions or offsets, or probes), so
/// files that need nothing new stay readable by older grafts.
pub fn needed_version(scene: &Scene) -> u32 {
    if !scene.clip().is_default() || (0..scene.len()).any(|i| !scene.data_at(i).tracks.is_empty()) {
        return 3;
    }
    let needs_2 = (0..scene.len()).any(|i| {
        let data = scene.data_at(i);
        !data.probes.is_empty()
            || match &data.shape {
                Shape::Polygon { .. } => true,
                Shape::Sprite(sprite) => {
                    sprite.region.is_some() || !is_vec_bits(sprite.offset, Vec2::ZERO)
                }
                _ => false,
            }
    });
    if needs_2 { 2 } else { 1 }
}

fn node_line(out: &mut String, id: NodeId, parent: Option<NodeId>, data: &NodeData) {
    let local = &data.local;
    let _ = write!(out, "        (id: {id}");
    if !data.name.is_empty() {
        let _ = write!(out, ", name: {}", quoted(&data.name));
    }
    if let Some(p) = parent {
        let _ = write!(out, ", parent: Some({p})");
    }
    if !is_vec_bits(local.position, Vec2::ZERO) {
        let _ = write!(out, ", position: {}", pair(local.position));
    }
    if !is_bits(local.rotation, 0.0) {
        let _ = write!(out, ", rotation: {}", float(local.rotation));
    }
    if !is_vec_bits(local.scale, Vec2::ONE) {
        let _ = write!(out, ", scale: {}", pair(local.scale));
    }
    if !is_bits(local.skew, 0.0) {
        let _ = write!(out, ", skew: {}", float(local.skew));
    }
    if let Some(shape) = shape_text(&data.shape) {
        let _ = write!(out, ", shape: {shape}");
    }
    if data.color != DEFAULT_COLOR {
        let [r, g, b, a]: Color = data.color;
        let _ = write!(out, ", color: ({r}, {g}, {b}, {a})");
    }
    if !data.probes.is_empty() {
        let _ = write!(out, ", probes: {}", pair_list(&data.probes));
    }
    if !data.tracks.is_empty() {
        let tracks: Vec<String> = data.tracks.iter().map(Track::to_string).collect();
        let _ = write!(out, ", tracks: [{}]", tracks.join(", "));
    }
    out.push_str("),\n");
}

/// The canonical text of a scene: a comment header, pre-order, defaults omitted, stable key
/// order, floats that read back bit-exact.
pub fn to_ron_string(scene: &Scene) -> String {
    ron_text(scene, None)
}

/// [`to_ron_string`], reporting [`Stage::Formatting`] (nodes written) to `progress`.
pub fn to_ron_string_with_progress(scene: &Scene, progress: &Progress) -> String {
    progress.enter(Stage::Formatting, scene.len() as u64);
    ron_text(scene, Some(progress))
}

/// The canonical text, reporting nodes written to `progress` every 4096.
fn ron_text(scene: &Scene, progress: Option<&Progress>) -> String {
    let mut out = String::with_capacity(64 + scene.len() * 96);
    let version = needed_version(scene);
    let _ = writeln!(
        out,
        "// graft scene, format {version}: nodes in pre-order, a parent before its children."
    );
    out.push_str("// Fields equal to their default are omitted; rotation and skew are degrees.\n");
    let _ = writeln!(out, "(\n    format: {version},");
    let clip = scene.clip();
    if !clip.is_default() {
        let _ = writeln!(out, "    clip: {clip},");
    }
    out.push_str("    nodes: [\n");
    for i in 0..scene.len() {
        let parent = scene.parent_index_at(i).map(|p| scene.id_at(p));
        node_line(&mut out, scene.id_at(i), parent, scene.data_at(i));
        if let Some(p) = progress.filter(|_| (i + 1).is_multiple_of(NODES_PER_REPORT)) {
            p.set_done((i + 1) as u64);
        }
    }
    out.push_str("    ],\n)\n");
    out
}

/// Save a scene atomically in canonical form, keeping the previous file as `NAME.bak`.
pub fn save(scene: &Scene, path: &Path) -> Result<()> {
    let text = to_ron_string(scene);
    atomic_write_with(path, |file| file.write_all(text.as_bytes()))
}

/// [`save`], reporting [`Stage::Formatting`] (nodes) then [`Stage::Writing`] (bytes) to
/// `progress`.
pub fn save_with_progress(scene: &Scene, path: &Path, progress: &Progress) -> Result<()> {
    let text = to_ron_string_with_progress(scene, progress);
    write_with_progress(path, text.as_bytes(), progress)
}

#[derive(Deserialize)]
#[serde(rename = "Transform", deny_unknown_fields)]
struct TrsText {
    #[serde(default)]
    position: (f32, f32),
    #[serde(default)]
    rotation: f32,
    #[serde(default = "unit_scale")]
    scale: (f32, f32),
    #[serde(default)]
    skew: f32,
}

/// A transform as the fields of a scene-file node, for copy and paste:
/// `position: (x, y), rotation: r, scale: (x, y), skew: k` (reads back bit-exact).
pub fn trs_to_text(t: &Trs) -> String {
    format!(
        "position: {}, rotation: {}, scale: {}, skew: {}",
        pair(t.position),
        float(t.rotation),
        pair(t.scale),
        float(t.skew)
    )
}

/// Parse text written by [`trs_to_text`]; fields may be left out (they take their defaults),
/// and surrounding parentheses are optional.
pub fn trs_from_text(text: &str) -> std::result::Result<Trs, String> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(trimmed);
    let parsed: TrsText = ron::Options::default()
        .with_recursion_limit(RECURSION_LIMIT)
        .from_str(&format!("({inner})"))
        .map_err(|e| {
            format!(
                "not a transform: {} (expected e.g. `position: (1.0, 2.0), rotation: 90.0`)",
                e.code
            )
        })?;
    let t = Trs::new(
        Vec2::new(parsed.position.0, parsed.position.1),
        parsed.rotation,
        Vec2::new(parsed.scale.0, parsed.scale.1),
        parsed.skew,
    );
    match t.first_non_finite() {
        Some(field) => Err(format!("not a transform: {field} is not a finite number")),
        None => Ok(t),
    }
}
