//! Instances in a Godot export: a graft instance is written as `instance=ExtResource(…)` of
//! its source, its own transform and look where they differ from the source's root, each
//! node of the source it changes as an override section (`[node name="Hub" parent="W2"]`,
//! addressed by the path the source has now: graft keys overrides by id, Godot by path) and
//! `[editable path=…]` for an instance with overridden or added nodes. A `.tscn` source in
//! the project is named by its `res://` path; any other source (a `.ron`, a `.tscn` outside
//! the project) is written once as its own `.tscn` part beside the output, its root the
//! part's root, and named by that part.

use super::classes::Kind;
use super::dialect::Dialect;
use super::export::{ExportOptions, Exporter, Instancer, write_scene};
use super::export_parts::ExportReport;
use super::tscn_text::{num, res_path};
use crate::model::instance::{Entry, FieldSet, Override};
use crate::model::math::Trs;
use crate::model::scene::sprites::normalize;
use crate::model::scene::{NodeData, NodeId, Scene};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A scene exported with its instances: the file's text, the source parts to write beside
/// it, and what had to change on the way.
#[derive(Clone, Debug, Default)]
pub struct Export {
    /// The `.tscn` text.
    pub text: String,
    /// Source parts: a file name in the output's folder, and its text.
    pub parts: Vec<(String, String)>,
    /// Renames and notes (the parts' included).
    pub report: ExportReport,
}

/// Where sources go: the output's folder, each source's Godot path once known, the parts.
#[derive(Default)]
pub(super) struct Instancing {
    output_dir: PathBuf,
    /// Source file (absolute) → its path in `ext_resource` (None: it cannot be written).
    known: FxHashMap<PathBuf, Option<String>>,
    parts: Vec<(String, String)>,
    notes: Vec<String>,
    /// File names no part may take (the output's own).
    reserved: Vec<String>,
    /// A `.tscn` source named directly: how each of its nodes takes part in Godot's chain
    /// (which properties an override of its transform sets), by its graft id.
    kinds: FxHashMap<PathBuf, Rc<FxHashMap<NodeId, Kind>>>,
}

/// The scene as a Godot `.tscn` whose instances stay instances (see the module doc), to be
/// written as `output` (its parts beside it, never under its name); `options.root_name`
/// names the new root Node2D.
pub fn export_scene(scene: &Scene, options: &ExportOptions, output: &Path) -> Export {
    let output = normalize(&std::path::absolute(output).unwrap_or_default());
    let name = output.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut inst = Instancing {
        output_dir: crate::model::scene::sprites::folder_of(&output),
        reserved: name.into_iter().collect(),
        ..Instancing::default()
    };
    let (text, mut report) = write_scene(scene, options, Some((&mut inst, false)));
    report.notes.append(&mut inst.notes);
    Export {
        text,
        parts: inst.parts,
        report,
    }
}

impl Instancer for Instancing {
    fn node(&mut self, ex: &mut Exporter, scene: &Scene, i: usize) -> bool {
        node(self, ex, scene, i)
    }

    fn sibling_indexes(&self, scene: &Scene) -> FxHashMap<NodeId, u32> {
        (scene.instances())
            .map(|table| crate::model::instance::save::sibling_indexes(scene, table))
            .unwrap_or_default()
    }
}

/// Write node `i` if it is an instance root or a node of a kept instance; false when it is
/// the scene's own node (written by the caller).
fn node(inst: &mut Instancing, ex: &mut Exporter, scene: &Scene, i: usize) -> bool {
    let Some(table) = scene.instances() else {
        return false;
    };
    let id = scene.id_at(i);
    if let Some(entry) = table.entry(id) {
        return match source_ref(inst, ex, entry) {
            Some(path) => {
                instance_root(inst, ex, scene, i, entry, path);
                true
            }
            None => false,
        };
    }
    if let Some(o) = table.origin(id) {
        if !ex.kept.contains(&o.root) {
            return false;
        }
        if let Some(entry) = table.entry(o.root) {
            expanded(inst, ex, scene, i, entry, o.index as usize);
        }
        return true;
    }
    // A node added under a node of a kept instance: that instance is editable.
    let inside = scene
        .parent_index_at(i)
        .and_then(|p| table.origin(scene.id_at(p)))
        .filter(|o| ex.kept.contains(&o.root));
    if let Some(o) = inside {
        editable(ex, scene, o.root);
    }
    false
}

/// Mark the instance rooted at `root` editable (once).
fn editable(ex: &mut Exporter, scene: &Scene, root: NodeId) {
    let Ok(at) = scene.index(root) else { return };
    let path = ex.names.paths[at].clone();
    if !ex.editable.contains(&path) {
        ex.editable.push(path);
    }
}

/// The path an `ext_resource` names an instance's source by, its part written when needed;
/// None (noted) when it cannot be written.
fn source_ref(inst: &mut Instancing, ex: &mut Exporter, entry: &Entry) -> Option<String> {
    let file = match &entry.source {
        Ok(source) => source.path.clone(),
        Err(_) => {
            let dir = ex.options.scene_dir.clone().unwrap_or_default();
            normalize(&std::path::absolute(dir.join(&entry.path)).unwrap_or_default())
        }
    };
    if let Some(known) = inst.known.get(&file) {
        return known.clone();
    }
    let tscn = crate::model::file_kind::FileKind::GodotText.is(&file);
    let project = ex.options.project_root.clone();
    let direct = match (&project, tscn) {
        (Some(root), true) => res_path(&file, root),
        (None, true) => Some(relative(&file, &inst.output_dir)),
        _ => None,
    };
    let found = match (direct, &entry.source) {
        (Some(path), source) => {
            if let Ok(source) = source {
                inst.kinds
                    .insert(file.clone(), Rc::new(kinds_of(&source.path)));
            }
            Some(path)
        }
        (None, Ok(source)) => Some(write_part(inst, ex, &source.scene, &file)),
        (None, Err(why)) => {
            inst.notes.push(format!(
                "{}: a placeholder ({why}) outside the project: written as plain nodes",
                entry.path
            ));
            None
        }
    };
    inst.known.insert(file, found.clone());
    found
}

/// How each node of a `.tscn` takes part in Godot's chain, by graft id (empty when it cannot
/// be read: every node is then written as a Node2D).
fn kinds_of(file: &Path) -> FxHashMap<NodeId, Kind> {
    super::tree::read_scene_text(file)
        .ok()
        .and_then(|text| super::import::import_inner(&text, file, 1.0, true).ok())
        .map(|imported| imported.kinds)
        .unwrap_or_default()
}

/// The kind of node `j` of an instance's source (Node2D when not known).
fn kind(inst: &Instancing, entry: &Entry, j: usize) -> Kind {
    let Ok(source) = &entry.source else {
        return Kind::Node2D;
    };
    inst.kinds
        .get(&source.path)
        .and_then(|kinds| kinds.get(&source.scene.id_at(j)).copied())
        .unwrap_or(Kind::Node2D)
}

/// A transform written over an instanced node's own, in the properties its Godot class has:
/// a Node2D's, a CanvasLayer's `offset`, a Control's `position` (Godot 3: `rect_…`).
fn set_transform(ex: &mut Exporter, kind: Kind, local: &Trs, factor: glam::Vec2, name: &str) {
    let dialect = ex.dialect;
    let p = glam::Vec2::new(local.position.x, -local.position.y) * ex.ppu;
    let r = -(local.rotation as f64).to_radians() + 0.0;
    let s = local.scale * factor;
    let (origin, rotation, scale) = match (kind, dialect) {
        (Kind::Node2D, _) => return ex.transform(local, factor, name, true),
        (Kind::Plain, _) => {
            ex.report.notes.push(format!(
                "{name}: its transform is not written (a node without a 2D transform in Godot)"
            ));
            return;
        }
        (Kind::Layer, _) => ("offset", "rotation".to_string(), "scale"),
        (Kind::Control, Dialect::Godot4) => ("position", "rotation".to_string(), "scale"),
        (Kind::Control, Dialect::Godot3) => ("rect_position", String::new(), "rect_scale"),
    };
    let _ = writeln!(ex.body, "{origin} = {}", dialect.vec2(p + glam::Vec2::ZERO));
    if rotation.is_empty() {
        let _ = writeln!(ex.body, "rect_rotation = {}", num(r.to_degrees() as f32));
    } else {
        let _ = writeln!(ex.body, "{rotation} = {r:?}");
    }
    let _ = writeln!(ex.body, "{scale} = {}", dialect.vec2(s));
    let turned = local.rotation != 0.0 || local.scale != glam::Vec2::ONE;
    if local.skew != 0.0 || (kind == Kind::Control && turned) {
        ex.report.notes.push(format!(
            "{name}: a {} keeps no skew and turns about its pivot: its transform is written \
             as position, rotation and scale alone",
            if kind == Kind::Layer {
                "CanvasLayer"
            } else {
                "Control"
            }
        ));
    }
}

/// `file` from `dir` (the form Godot resolves against the scene's folder).
fn relative(file: &Path, dir: &Path) -> String {
    let dir = normalize(&std::path::absolute(dir).unwrap_or_default());
    pathdiff::diff_paths(file, &dir)
        .unwrap_or_else(|| file.to_path_buf())
        .to_string_lossy()
        .replace('\\', "/")
}

/// Export a source as its own `.tscn` beside the output (its root the file's root); returns
/// the path an `ext_resource` names it by.
fn write_part(inst: &mut Instancing, ex: &mut Exporter, source: &Scene, file: &Path) -> String {
    let stem = file
        .file_stem()
        .map_or("part".into(), |s| s.to_string_lossy().into_owned());
    let mut name = format!("{stem}.tscn");
    let mut k = 2;
    let taken = |inst: &Instancing, name: &str| {
        let parts = inst.parts.iter().map(|(n, _)| n);
        parts
            .chain(&inst.reserved)
            .any(|n| n.eq_ignore_ascii_case(name))
    };
    while taken(inst, &name) {
        name = format!("{stem}_{k}.tscn");
        k += 1;
    }
    // Reserved before its own instances are written, so a name is never given twice.
    inst.parts.push((name.clone(), String::new()));
    let slot = inst.parts.len() - 1;
    let (text, report) = write_scene(source, ex.options, Some((inst as &mut dyn Instancer, true)));
    inst.parts[slot].1 = text;
    let shown = |r: &String| format!("{name}: {r}");
    inst.notes.extend(report.notes.iter().map(shown));
    ex.report
        .renamed
        .extend(report.renamed.iter().map(|r| format!("{r} (in {name})")));
    let target = inst.output_dir.join(&name);
    match &ex.options.project_root {
        Some(root) => res_path(&target, root).unwrap_or_else(|| name.clone()),
        None => name.clone(),
    }
}

/// An instance root: `instance=ExtResource(…)`, its transform where it differs from the
/// source root's (always, for a placeholder), its look where the instance changes it.
fn instance_root(
    inst: &Instancing,
    ex: &mut Exporter,
    scene: &Scene,
    i: usize,
    entry: &Entry,
    path: String,
) {
    let data = scene.data_at(i);
    let (name, parent) = ex.name(scene, i, &data.name);
    let k = match ex.scenes.iter().position(|p| *p == path) {
        Some(k) => k,
        None => {
            ex.scenes.push(path);
            ex.scenes.len() - 1
        }
    };
    let index = ex.sibling_index(scene, i); // an instance added before a source's own nodes
    ex.section_at(
        &name,
        parent.as_deref(),
        &format!("instance=\0{k}\0"),
        index,
    );
    ex.kept.insert(entry.root);
    let factor = ex.factor(scene, i);
    let Ok(source) = &entry.source else {
        ex.transform(&data.local, factor, &name, true);
        return;
    };
    let base = source.scene.data_at(0);
    if base.local != data.local {
        let kind = kind(inst, entry, 0);
        set_transform(ex, kind, &data.local, factor, &name);
    }
    let sticky = entry
        .sticky
        .get(&source.chains[0])
        .copied()
        .unwrap_or_default();
    let look = Override::diff(source.chains[0].clone(), base, data, sticky, FieldSet::ROOT);
    if let Some(o) = look {
        look_lines(ex, data, &name, factor, &o);
    }
    ex.animate(scene, i, factor);
    for o in &entry.dangling {
        ex.report.notes.push(format!(
            "{name}: an override of node {} of {} is not written (the source has no such node)",
            Override::node_text(&o.node),
            entry.path
        ));
    }
}

/// A node of a kept instance (its source's node `j`): addressed by the source's name, and
/// written only when the instance changes it.
fn expanded(
    inst: &Instancing,
    ex: &mut Exporter,
    scene: &Scene,
    i: usize,
    entry: &Entry,
    j: usize,
) {
    let Ok(source) = &entry.source else { return };
    let (data, base) = (scene.data_at(i), source.scene.data_at(j));
    let (name, parent) = ex.name(scene, i, &base.name);
    let factor = ex.factor(scene, i);
    ex.animate(scene, i, factor);
    let chain = &source.chains[j];
    let sticky = entry.sticky.get(chain).copied().unwrap_or_default();
    let Some(o) = Override::diff(chain.clone(), base, data, sticky, u16::MAX) else {
        return;
    };
    if o.name.is_some() {
        ex.report.notes.push(format!(
            "{} is named {name} in Godot: a node of an instanced scene keeps its source's name",
            data.name
        ));
    }
    let moved = o.position.is_some() || o.rotation.is_some() || o.scale.is_some();
    let looks = o.shape.is_some() || o.color.is_some();
    if !(moved || o.skew.is_some() || looks) {
        return;
    }
    ex.section(&name, parent.as_deref(), "");
    if moved || o.skew.is_some() {
        let kind = kind(inst, entry, j);
        set_transform(ex, kind, &data.local, factor, &name);
    }
    if looks {
        look_lines(ex, data, &name, factor, &o);
    }
    editable(ex, scene, entry.root);
}

/// The look lines an override sets: the shape's (texture, points …) and the colour's
/// (`color`, `self_modulate`), each only when the override sets it.
fn look_lines(ex: &mut Exporter, data: &NodeData, name: &str, factor: glam::Vec2, o: &Override) {
    let start = ex.body.len();
    ex.look(data, name, factor);
    let lines: Vec<String> = ex.body[start..]
        .lines()
        .filter(|line| {
            let colour = line.starts_with("color = ") || line.starts_with("self_modulate = ");
            if colour {
                o.color.is_some()
            } else {
                o.shape.is_some()
            }
        })
        .map(|line| format!("{line}\n"))
        .collect();
    ex.body.truncate(start);
    ex.body.extend(lines);
    if let Some(crate::model::scene::Shape::Sprite(_)) = &o.shape {
        sprite_defaults(ex, start);
    }
}

/// A sprite's look written over an instanced sprite's own: what graft's sprite leaves at
/// Godot's defaults is written too (its frames and flips would show through otherwise:
/// graft's region is the whole frame).
fn sprite_defaults(ex: &mut Exporter, start: usize) {
    let zero = ex.dialect.vec2(glam::Vec2::ZERO);
    let defaults = [
        ("centered", "true"),
        ("offset", zero.as_str()),
        ("flip_h", "false"),
        ("flip_v", "false"),
        ("region_enabled", "false"),
        ("hframes", "1"),
        ("vframes", "1"),
        ("frame", "0"),
    ];
    for (key, value) in defaults {
        let written = ex.body[start..]
            .lines()
            .any(|l| l.starts_with(&format!("{key} = ")));
        if !written {
            let _ = writeln!(ex.body, "{key} = {value}");
        }
    }
}
