//! A graft scene as a Godot 4 text scene (`format=3`) or a Godot 3 one (`format=2`): one root
//! Node2D, each graft node a Node2D, Sprite2D / Sprite (its image as an `ext_resource`) or
//! Polygon2D (rects and ellipses become polygons), transforms converted back to Godot's y-down
//! radians, sibling names made valid and unique as Godot requires. Importing the result gives
//! back every world matrix. Godot 3's Node2D has no skew: a skewed node's local matrix is
//! written as a `transform` line with nothing after it (a later setter would drop the skew).

use super::anim_export::{AnimText, NodeAnim, animation};
use super::dialect::Dialect;
use super::export_parts::{ExportReport, Look, TextureTable};
use super::export_sprite::{appearance_lines, sprite_factor};
use super::node_paths::NodePaths;
use super::tscn_text::{num, quoted, valid_name};
use crate::model::math::Trs;
use crate::model::scene::{NodeId, Scene, Shape};
use glam::Vec2;
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Where the exported scene will live, for `res://` paths of its images.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// The Godot project's folder (holding `project.godot`); images outside it are reported.
    pub project_root: Option<PathBuf>,
    /// The folder the graft scene's relative sprite paths are relative to.
    pub scene_dir: Option<PathBuf>,
    /// The root node's name.
    pub root_name: String,
    /// Write a Godot 3 scene (`format=2`) instead of a Godot 4 one.
    pub godot3: bool,
    /// Godot pixels per graft unit (positions and shapes multiplied by it); None is 1.
    pub pixels_per_unit: Option<f32>,
}

impl ExportOptions {
    /// Pixels per graft unit: the option when it is a finite number above zero, else 1.
    pub fn ppu(&self) -> f32 {
        self.pixels_per_unit
            .filter(|n| n.is_finite() && *n > 0.0)
            .unwrap_or(1.0)
    }
}

/// The scene as `.tscn` text, every instance flattened into plain nodes, and what had to
/// change on the way (the export of `export_instance.rs` keeps them).
pub fn to_tscn(scene: &Scene, options: &ExportOptions) -> (String, ExportReport) {
    write_scene(scene, options, None)
}

/// The scene as `.tscn` text: under a new root Node2D, or (`inst` with its root mode) with
/// the scene's one root as the file's root; instances kept when `inst` is given.
pub(super) fn write_scene<'a>(
    scene: &Scene,
    options: &'a ExportOptions,
    inst: Option<(&'a mut dyn Instancer, bool)>,
) -> (String, ExportReport) {
    let mut out = Exporter::new(scene, options, inst);
    let (dialect, root_mode) = (out.dialect, out.root_mode);
    note_probes(scene, &mut out.report);
    for i in 0..scene.len() {
        out.node(scene, i);
    }
    note_matrices(&out.as_matrix, dialect, &mut out.report);
    let anims: Vec<NodeAnim> = out
        .animated
        .iter()
        .map(|&(i, scale_factor)| {
            let data = scene.data_at(i);
            NodeAnim {
                path: &out.names.paths[i],
                tracks: &data.tracks,
                ppu: out.ppu,
                scale_factor,
                loses_skew: dialect == Dialect::Godot3 && data.local.skew != 0.0,
            }
        })
        .collect();
    let anim = animation(scene.clip(), &anims, dialect, &mut out.report.notes);
    let mut body = std::mem::take(&mut out.body);
    for path in &out.editable {
        let _ = writeln!(body, "\n[editable path={}]", quoted(path));
    }
    let files = Files {
        textures: &out.textures,
        scenes: &out.scenes,
    };
    let root = (!root_mode).then_some(options.root_name.as_str());
    let text = scene_text(files, root, dialect, &body, anim.as_ref());
    (text, out.report)
}

/// The files a scene's `ext_resource`s name.
struct Files<'a> {
    textures: &'a [String],
    scenes: &'a [String],
}

/// What an export that keeps instances does at each node (`export_instance.rs`; reached
/// through this trait so this file does not name that one).
pub(super) trait Instancer {
    /// Write node `i` when it is an instance root or a node of a kept instance (true); for
    /// the scene's own node, note what it needs and leave it to the caller (false).
    fn node(&mut self, ex: &mut Exporter, scene: &Scene, i: usize) -> bool;

    /// The sibling index of each of the scene's own nodes added under an instance's node
    /// before the source's own children (Godot's `index="n"`; without it Godot puts added
    /// nodes last), found once for the scene.
    fn sibling_indexes(&self, scene: &Scene) -> FxHashMap<NodeId, u32>;
}

/// The export in progress.
pub(super) struct Exporter<'a> {
    pub(super) options: &'a ExportOptions,
    pub(super) dialect: Dialect,
    /// Pixels per graft unit.
    pub(super) ppu: f32,
    pub(super) report: ExportReport,
    textures: Vec<String>,
    texture_ids: FxHashMap<String, usize>,
    pub(super) body: String,
    pub(super) names: NodePaths,
    /// Names of the nodes written as a matrix.
    as_matrix: Vec<String>,
    /// Animated nodes by index, with the factor their scale was multiplied by.
    animated: Vec<(usize, Vec2)>,
    /// Instances kept: what writes them (None: flattened).
    inst: Option<&'a mut dyn Instancer>,
    /// The scene's one root is the file's root (a source part), not a new Node2D.
    pub(super) root_mode: bool,
    /// The scenes the file instances (their `ext_resource` paths), in order.
    pub(super) scenes: Vec<String>,
    /// The instance roots written as instances.
    pub(super) kept: rustc_hash::FxHashSet<crate::model::scene::NodeId>,
    /// `[editable path=…]`: instances with overridden nodes or nodes added inside.
    pub(super) editable: Vec<String>,
    /// The sibling index of nodes added before a source's own (see [`Instancer`]).
    indexes: FxHashMap<NodeId, u32>,
}

impl<'a> Exporter<'a> {
    /// An export of `scene` about to start (`inst`: what writes instances, and whether the
    /// scene's one root is the file's root).
    fn new(
        scene: &Scene,
        options: &'a ExportOptions,
        inst: Option<(&'a mut dyn Instancer, bool)>,
    ) -> Self {
        let dialect = if options.godot3 {
            Dialect::Godot3
        } else {
            Dialect::Godot4
        };
        let root_mode = inst.as_ref().is_some_and(|(_, r)| *r);
        let inst = inst.map(|(i, _)| i);
        let indexes =
            (inst.as_deref()).map_or_else(FxHashMap::default, |i| i.sibling_indexes(scene));
        Exporter {
            options,
            dialect,
            ppu: options.ppu(),
            report: ExportReport::default(),
            textures: Vec::new(),
            texture_ids: FxHashMap::default(),
            body: String::new(),
            names: NodePaths::with_capacity(scene.len()),
            as_matrix: Vec::new(),
            animated: Vec::new(),
            inst,
            root_mode,
            scenes: Vec::new(),
            kept: Default::default(),
            editable: Vec::new(),
            indexes,
        }
    }

    /// Write node `i` (parents come first).
    fn node(&mut self, scene: &Scene, i: usize) {
        if let Some(inst) = self.inst.take() {
            let done = inst.node(self, scene, i);
            self.inst = Some(inst);
            if done {
                return;
            }
        }
        let data = scene.data_at(i);
        let (name, parent_path) = self.name(scene, i, &data.name);
        let class = match &data.shape {
            Shape::Sprite { .. } => self.dialect.sprite_class(),
            Shape::None => "Node2D",
            _ => "Polygon2D",
        };
        let what = format!("type=\"{class}\"");
        let index = self.sibling_index(scene, i);
        self.section_at(&name, parent_path.as_deref(), &what, index);
        let factor = self.factor(scene, i);
        self.transform(&data.local, factor, &name, false);
        self.look(data, &name, factor);
        if crate::model::anim::is_keyed(&data.tracks) {
            self.animated.push((i, factor));
        }
    }

    /// Node `i`'s name, made valid and unique among its siblings (a rename reported), and
    /// its parent's path (None for the file's root).
    pub(super) fn name(
        &mut self,
        scene: &Scene,
        i: usize,
        wanted: &str,
    ) -> (String, Option<String>) {
        if self.root_mode && i == 0 {
            self.names.paths.push(".".into());
            return (valid_name(wanted), None);
        }
        let (name, parent_path) = self.names.add(scene.parent_index_at(i), wanted);
        if name != wanted {
            self.report.renamed.push(format!("{wanted} -> {name}"));
        }
        (name, Some(parent_path))
    }

    /// A `[node name=… (what) parent=…]` header (`what`: `type="…"`, `instance=…` or "").
    pub(super) fn section(&mut self, name: &str, parent: Option<&str>, what: &str) {
        self.section_at(name, parent, what, None);
    }

    /// Node `i`'s `index="n"`: when it was added before the source's own nodes of a kept
    /// instance (written as `instance=`; a flattened one needs none).
    pub(super) fn sibling_index(&self, scene: &Scene, i: usize) -> Option<u32> {
        let index = *self.indexes.get(&scene.id_at(i))?;
        let table = scene.instances()?;
        let parent = scene.id_at(scene.parent_index_at(i)?);
        let root = match table.origin(parent) {
            Some(origin) => origin.root,
            None => table.entry(parent)?.root,
        };
        self.kept.contains(&root).then_some(index)
    }

    /// [`section`](Self::section) with Godot's `index="n"` after the parent when given.
    pub(super) fn section_at(
        &mut self,
        name: &str,
        parent: Option<&str>,
        what: &str,
        index: Option<u32>,
    ) {
        let mut line = format!("\n[node name={}", quoted(name));
        if !what.is_empty() && !what.starts_with("instance") {
            let _ = write!(line, " {what}");
        }
        if let Some(parent) = parent {
            let _ = write!(line, " parent={}", quoted(parent));
        }
        if what.starts_with("instance") {
            let _ = write!(line, " {what}");
        }
        if let Some(index) = index {
            let _ = write!(line, " index=\"{index}\"");
        }
        let _ = writeln!(self.body, "{line}]");
    }

    /// The factor a childless sprite's scale is multiplied by (1 for anything else).
    pub(super) fn factor(&mut self, scene: &Scene, i: usize) -> Vec2 {
        let ppu = self.ppu;
        match &scene.data_at(i).shape {
            Shape::Sprite(sprite) if scene.subtree_len_at(i) == 1 => {
                sprite_factor(sprite, &mut self.textures(), ppu)
            }
            _ => Vec2::ONE,
        }
    }

    fn textures(&mut self) -> TextureTable<'_> {
        TextureTable {
            project_root: self.options.project_root.as_deref(),
            scene_dir: self.options.scene_dir.as_deref(),
            textures: &mut self.textures,
            ids: &mut self.texture_ids,
            dialect: self.dialect,
        }
    }

    /// A node's transform lines (`explicit`: every part written, defaults too, so nothing
    /// of an instanced scene's own values shows through).
    pub(super) fn transform(&mut self, local: &Trs, factor: Vec2, name: &str, explicit: bool) {
        let local = Trs {
            position: local.position * self.ppu,
            scale: local.scale * factor,
            ..*local
        };
        if transform_lines(&mut self.body, &local, self.dialect, explicit) {
            self.as_matrix.push(name.to_string());
        }
    }

    /// A node's look: a sprite's texture lines, or a polygon's colour and points.
    pub(super) fn look(&mut self, data: &crate::model::scene::NodeData, name: &str, factor: Vec2) {
        let look = Look {
            ppu: self.ppu,
            factor,
        };
        let mut body = std::mem::take(&mut self.body);
        let mut report = std::mem::take(&mut self.report);
        appearance_lines(&mut body, data, name, self.textures(), look, &mut report);
        self.body = body;
        self.report = report;
    }

    /// Note an animated node (its tracks go to the AnimationPlayer by its path).
    pub(super) fn animate(&mut self, scene: &Scene, i: usize, factor: Vec2) {
        if crate::model::anim::is_keyed(&scene.data_at(i).tracks) {
            self.animated.push((i, factor));
        }
    }
}

/// Says which nodes went out as a `transform` line, and why.
fn note_matrices(names: &[String], dialect: Dialect, report: &mut ExportReport) {
    if names.is_empty() {
        return;
    }
    let shown: Vec<&str> = names.iter().take(10).map(String::as_str).collect();
    let more = names.len().saturating_sub(shown.len());
    let why = match dialect {
        Dialect::Godot3 => "skew (Godot 3's Node2D has none) or a scale under 1e-5",
        Dialect::Godot4 => "a scale under 1e-5 (Godot's scale setter would raise it)",
    };
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    report.notes.push(format!(
        "{} nodes written as a transform matrix for {why}: {}{tail}",
        names.len(),
        shown.join(", ")
    ));
}

/// Notes that probes are not exported, when the scene has any.
fn note_probes(scene: &Scene, report: &mut ExportReport) {
    let probes: usize = (0..scene.len())
        .map(|i| scene.data_at(i).probes.len())
        .sum();
    if probes > 0 {
        report.notes.push(format!(
            "{probes} probes are graft's own and are not exported"
        ));
    }
}

/// The whole file: the header, the `ext_resource`s, the root node (`root`: a new Node2D of
/// that name; None: the body starts with the file's root), then `body` (the other nodes).
fn scene_text(
    files: Files,
    root: Option<&str>,
    dialect: Dialect,
    body: &str,
    anim: Option<&AnimText>,
) -> String {
    let subs = anim.map_or(0, |a| a.resource_count);
    let mut out = dialect.header(files.textures, files.scenes, subs);
    if let Some(anim) = anim {
        out.push_str(&anim.resources);
    }
    if let Some(root) = root {
        let root = valid_name(if root.is_empty() { "Root" } else { root });
        let _ = writeln!(out, "\n[node name={} type=\"Node2D\"]", quoted(&root));
    }
    // Scene ids are known once the textures are: `\0k\0` stands for scene k.
    let mut body = body.to_string();
    for k in 0..files.scenes.len() {
        let id = dialect.scene_id(files.textures.len(), k);
        body = body.replace(&format!("\0{k}\0"), &dialect.call("ExtResource", &[id]));
    }
    out.push_str(&body);
    if let Some(anim) = anim {
        out.push_str(&anim.player);
    }
    out
}

/// Position, rotation, scale and skew in Godot's terms (y down, radians), defaults left out. A
/// scale with a component under 1e-5 (0 included), and in Godot 3 a skew, is written as the
/// whole matrix instead (true then): Godot's `scale` setter would make it 1e-5 and Godot 3 has
/// no skew property; its `transform` keeps both.
fn transform_lines(out: &mut String, local: &Trs, dialect: Dialect, explicit: bool) -> bool {
    let skew_needs_matrix = dialect == Dialect::Godot3 && local.skew != 0.0;
    if skew_needs_matrix || local.scale.abs().min_element() < 1e-5 {
        let m = local.to_affine();
        let [a, b] = m.matrix2.x_axis.to_array();
        let [c, d] = m.matrix2.y_axis.to_array();
        let [x, y] = m.translation.to_array();
        let godot = [a, -b, -c, d, x, -y].map(num);
        let _ = writeln!(out, "transform = {}", dialect.call("Transform2D", &godot));
        return true;
    }
    // Written in full, a zero is written +0 (`-0.0 + 0.0`), as Godot writes it.
    let z = if explicit { 0.0 } else { -0.0 };
    let p = Vec2::new(local.position.x, -local.position.y) + z;
    if p != Vec2::ZERO || explicit {
        let _ = writeln!(out, "position = {}", dialect.vec2(p));
    }
    if local.rotation != 0.0 || explicit {
        let _ = writeln!(
            out,
            "rotation = {:?}",
            -(local.rotation as f64).to_radians() + z as f64
        );
    }
    if local.scale != Vec2::ONE || explicit {
        let _ = writeln!(out, "scale = {}", dialect.vec2(local.scale));
    }
    if local.skew != 0.0 || (explicit && dialect == Dialect::Godot4) {
        let _ = writeln!(
            out,
            "skew = {:?}",
            -(local.skew as f64).to_radians() + z as f64
        );
    }
    false
}
