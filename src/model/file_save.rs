//! Saving `.ron` scenes: the canonical text (a comment header, pre-order, defaults omitted,
//! stable key order, floats that read back bit-exact) in the lowest format version that holds
//! the scene, written atomically.

use crate::error::Result;
use crate::model::anim::Track;
use crate::model::atomic_write::{Backup, atomic_write_with, write_atomically};
use crate::model::file::CANCELLED;
use crate::model::file::NODES_PER_REPORT;
use crate::model::file_version::{is_bits, is_vec_bits, needed_version};
use crate::model::instance::Override;
use crate::model::instance::save::{self, Fields, Line};
use crate::model::progress::{Progress, Stage};
use crate::model::scene::{Color, DEFAULT_COLOR, NodeData, NodeId, Scene, Shape};
use glam::Vec2;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// A float written so that it reads back bit-exact (shortest round-trip form, `-0.0` kept).
pub(crate) fn float(v: f32) -> String {
    format!("{v:?}")
}

/// A pair written as `(x, y)`, each number bit-exact ([`float`]).
pub(crate) fn pair(v: Vec2) -> String {
    format!("({}, {})", float(v.x), float(v.y))
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

fn node_line(out: &mut String, id: NodeId, parent: Option<NodeId>, data: &NodeData) {
    node_line_with(out, id, parent, data, &Fields::default());
}

/// A node's line with its instance fields: `inside` after the parent, `instance` before the
/// transform, `overrides` last; an instance's look is in its overrides, not on its line.
fn node_line_with(
    out: &mut String,
    id: NodeId,
    parent: Option<NodeId>,
    data: &NodeData,
    fields: &Fields,
) {
    let _ = write!(out, "        (id: {id}");
    if !data.name.is_empty() {
        let _ = write!(out, ", name: {}", quoted(&data.name));
    }
    match (fields.inside, parent) {
        (Some((root, chain)), _) => {
            let _ = write!(out, ", parent: Some({root}), inside: {}", id_list(chain));
        }
        (None, Some(p)) => {
            let _ = write!(out, ", parent: Some({p})");
        }
        (None, None) => {}
    }
    if let Some(index) = fields.index {
        let _ = write!(out, ", index: {index}");
    }
    if let Some((path, _)) = &fields.instance {
        let _ = write!(out, ", instance: {}", quoted(path));
    }
    transform_fields(out, &data.local);
    if fields.instance.is_none() {
        look_fields(out, data);
    }
    if let Some((_, overrides)) = &fields.instance
        && !overrides.is_empty()
    {
        let items: Vec<String> = overrides.iter().map(override_text).collect();
        let _ = write!(out, ", overrides: [{}]", items.join(", "));
    }
    out.push_str("),\n");
}

/// `[7]`, `[12, 7]`: a chain of source ids.
fn id_list(chain: &[u32]) -> String {
    let items: Vec<String> = chain.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// One override as the file writes it: `(node: [7], rotation: 30.0)`, fields in the node
/// line's order, only those it sets.
pub(crate) fn override_text(o: &Override) -> String {
    let mut out = format!("(node: {}", id_list(&o.node));
    if let Some(name) = &o.name {
        let _ = write!(out, ", name: {}", quoted(name));
    }
    if let Some(v) = o.position {
        let _ = write!(out, ", position: {}", pair(v));
    }
    if let Some(v) = o.rotation {
        let _ = write!(out, ", rotation: {}", float(v));
    }
    if let Some(v) = o.scale {
        let _ = write!(out, ", scale: {}", pair(v));
    }
    if let Some(v) = o.skew {
        let _ = write!(out, ", skew: {}", float(v));
    }
    if let Some(shape) = &o.shape {
        let text = shape_text(shape).unwrap_or_else(|| "None".into());
        let _ = write!(out, ", shape: {text}");
    }
    if let Some([r, g, b, a]) = o.color {
        let _ = write!(out, ", color: ({r}, {g}, {b}, {a})");
    }
    if let Some(probes) = &o.probes {
        let _ = write!(out, ", probes: {}", pair_list(probes));
    }
    if let Some(tracks) = &o.tracks {
        let tracks: Vec<String> = tracks.iter().map(Track::to_string).collect();
        let _ = write!(out, ", tracks: [{}]", tracks.join(", "));
    }
    out.push(')');
    out
}

/// The transform's fields that are not at their defaults.
fn transform_fields(out: &mut String, local: &crate::model::math::Trs) {
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
}

/// The look's fields (shape, colour, probes, tracks) that are not at their defaults.
fn look_fields(out: &mut String, data: &NodeData) {
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
    let mut out = Vec::with_capacity(64 + scene.len() * 96);
    // Writing into memory fails only when cancelled, which leaves the text cut: callers that
    // can cancel check the progress after.
    let _ = write_ron(scene, &mut out, progress);
    String::from_utf8(out).unwrap_or_default()
}

/// Write the canonical text to `sink` as it is made, a few thousand nodes at a time (a big
/// scene never exists as one string); stops with `Interrupted` when `progress` is cancelled.
pub fn write_ron(
    scene: &Scene,
    sink: &mut dyn io::Write,
    progress: Option<&Progress>,
) -> io::Result<()> {
    let mut out = String::with_capacity(1 << 20);
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
    let table = scene.instances().filter(|t| t.in_use(scene));
    let indexes = table
        .map(|t| save::sibling_indexes(scene, t))
        .unwrap_or_default();
    for i in 0..scene.len() {
        let parent = scene.parent_index_at(i).map(|p| scene.id_at(p));
        match table.map(|t| save::line(scene, t, &indexes, i)) {
            None => node_line(&mut out, scene.id_at(i), parent, scene.data_at(i)),
            Some(Line::Skip) => {}
            Some(Line::Write(fields)) => {
                node_line_with(&mut out, scene.id_at(i), parent, scene.data_at(i), &fields);
            }
        }
        if (i + 1).is_multiple_of(NODES_PER_REPORT) {
            sink.write_all(out.as_bytes())?;
            out.clear();
            if let Some(p) = progress {
                if p.is_cancelled() {
                    return Err(io::Error::new(io::ErrorKind::Interrupted, CANCELLED));
                }
                p.set_done((i + 1) as u64);
            }
        }
    }
    out.push_str("    ],\n)\n");
    sink.write_all(out.as_bytes())
}

/// Save a scene atomically in canonical form, keeping the previous file as `NAME.bak`.
pub fn save(scene: &Scene, path: &Path) -> Result<()> {
    atomic_write_with(path, |file| write_ron(scene, file, None))
}

/// [`save`], reporting [`Stage::Formatting`] (nodes written; the text streams to the file as
/// it is made, so a big scene's save holds no copy of it) to `progress`. Cancelled, the file
/// is untouched.
pub fn save_with_progress(scene: &Scene, path: &Path, progress: &Progress) -> Result<()> {
    progress.enter(Stage::Formatting, scene.len() as u64);
    write_atomically(path, Backup::Keep, |file| {
        let mut counted = Counted {
            sink: file,
            bytes: 0,
        };
        write_ron(scene, &mut counted, Some(progress))?;
        // What is left is the flush, the sync and the rename of this many bytes.
        progress.enter(Stage::Writing, counted.bytes);
        progress.set_done(counted.bytes);
        Ok(())
    })
}

/// A writer that counts the bytes passed through.
struct Counted<'a> {
    sink: &'a mut dyn io::Write,
    bytes: u64,
}

impl io::Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.sink.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink.flush()
    }
}
