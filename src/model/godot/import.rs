//! From an expanded Godot tree to a graft scene, exact to Godot's transforms: the y flip
//! (Godot is y-down, graft y-up: position (x, −y), rotation −r, scale kept, skew −k, the same
//! world matrices conjugated by diag(1, −1)), and Godot's chain rules: a 2D node composes only
//! with a canvas-item parent; under a node without a transform the chain starts again;
//! `top_level` nodes ignore their ancestors; a CanvasLayer is a root carrying its own transform.

use super::classes::{Kind, is_known, kind_of};
use super::report::{ImportReport, Note, NoteKind};
use super::shapes::{appearance, flip, vec2_of, vec2_prop};
use super::tree::{GNode, Loader, Tree};
use super::tscn::Value;
use crate::error::{Error, Result};
use crate::model::math::{Trs, decompose};
use crate::model::scene::{NodeData, NodeId, NodeSpec, Scene};
use glam::{Affine2, DVec2, Mat2, Vec2};
use std::path::Path;

/// A scene read from a `.tscn`, and what the import had to say about it.
#[derive(Debug)]
pub struct Imported {
    /// The graft scene.
    pub scene: Scene,
    /// Nodes by type, and what was approximated, skipped, re-rooted or missing.
    pub report: ImportReport,
    /// The graft id of each node of the expanded Godot tree (None: not imported).
    pub(crate) ids: Vec<Option<NodeId>>,
    /// How each imported node takes part in Godot's transform chain (which properties an
    /// override of its transform sets), by graft id.
    pub(crate) kinds: rustc_hash::FxHashMap<NodeId, Kind>,
}

/// Import a `.tscn` file (instances resolved from the folder holding `project.godot`). Sprite
/// paths are absolute; see [`Scene::relative_sprites`] for a scene saved somewhere.
pub fn import_file(path: &Path) -> Result<Imported> {
    // The reason names the file already.
    let text = super::tree::read_scene_text(path).map_err(Error::Format)?;
    import_text(&text, path)
}

/// Import `.tscn` text as if it were the file at `path` (instances and textures are looked up
/// from there).
pub fn import_text(text: &str, path: &Path) -> Result<Imported> {
    import_text_with(text, path, 1.0)
}

/// Import a `.tscn` file at `ppu` Godot pixels per graft unit (positions and shapes divided).
pub fn import_file_with(path: &Path, ppu: f32) -> Result<Imported> {
    let text = super::tree::read_scene_text(path).map_err(Error::Format)?;
    import_text_with(&text, path, ppu)
}

/// [`import_text`] at `ppu` Godot pixels per graft unit (a finite number above zero, else 1):
/// positions, shapes and position keys divided by it; sprites that carry their graft size
/// (`graft_size`, written by graft's export) get it back.
/// Instances are kept at 1 pixel per unit (their sources are the `.tscn` files, read at 1);
/// at any other `ppu` they are plain nodes (see [`import_file_keeping`]).
pub fn import_text_with(text: &str, path: &Path, ppu: f32) -> Result<Imported> {
    let ppu = if ppu.is_finite() && ppu > 0.0 {
        ppu
    } else {
        1.0
    };
    import_inner(text, path, ppu, ppu == 1.0)
}

/// [`import_file_with`] keeping instances at any `ppu`: their sources are the `.tscn` files
/// imported at that `ppu` (for sources written as `.ron` files, `graft import --sources`).
pub fn import_file_keeping(path: &Path, ppu: f32) -> Result<Imported> {
    let text = super::tree::read_scene_text(path).map_err(Error::Format)?;
    let ppu = if ppu.is_finite() && ppu > 0.0 {
        ppu
    } else {
        1.0
    };
    import_inner(&text, path, ppu, true)
}

/// The import, instances kept (`keep`) as graft instances or expanded into plain nodes.
pub(crate) fn import_inner(text: &str, path: &Path, ppu: f32, keep: bool) -> Result<Imported> {
    let mut loader = Loader::new(path, crate::model::file::MAX_NODES);
    if loader.project_root.is_none() {
        loader.notes.push(Note {
            kind: NoteKind::Approximated,
            place: path.display().to_string(),
            message: "no project.godot above this file: res:// paths are read from its folder"
                .into(),
        });
    }
    let tree = loader.load_text(text, path)?;
    let mut convert = Converter {
        tree: &tree,
        loader: &mut loader,
        specs: Vec::with_capacity(tree.nodes.len()),
        report: ImportReport::default(),
        ids: vec![None; tree.nodes.len()],
        kinds: Default::default(),
    };
    convert.run();
    let Converter {
        mut specs,
        mut report,
        ids,
        kinds,
        ..
    } = convert;
    let clip = super::anim_import::read_clip(&tree, &ids, &mut specs, &mut report.notes);
    super::anim_import::sprite_sizes(&tree, &ids, &mut specs, ppu);
    super::anim_import::scale_units(&mut specs, 1.0 / ppu);
    report.notes.splice(0..0, loader.notes);
    report.notes = collapse_repeats(std::mem::take(&mut report.notes));
    let mut scene = Scene::from_specs(specs)?;
    if let Some(read) = clip {
        scene.set_clip(read.clip)?;
    }
    if keep {
        let instances = instances_of(&tree);
        let mut import =
            |text: &str, file: &Path| import_inner(text, file, ppu, true).map(|i| (i.scene, i.ids));
        let kept = super::keep::keep_instances(&mut scene, &instances, &ids, &mut import);
        report
            .notes
            .extend(kept.into_iter().map(|(place, message)| Note {
                kind: NoteKind::Approximated,
                place,
                message,
            }));
    }
    Ok(Imported {
        scene,
        report,
        ids,
        kinds,
    })
}

/// The instances of the tree, in tree order, as `keep.rs` needs them.
fn instances_of(tree: &Tree) -> Vec<super::keep::Instance<'_>> {
    let nodes = &tree.nodes;
    (0..nodes.len())
        .filter_map(|k| {
            let inst = nodes[k].instance.as_ref()?;
            Some(super::keep::Instance {
                k,
                name: &nodes[k].name,
                place: nodes[k].place(),
                written: &inst.written,
                path: inst.path.as_deref(),
                copy: inst
                    .tree
                    .as_ref()
                    .map(|t| t.nodes.iter().map(|n| n.name.as_str()).collect()),
                set: inst.tree.as_ref().map_or(Vec::new(), |t| {
                    // What the copy's nodes hold beyond their source's properties.
                    let own = |j: usize| nodes.get(k + j).map_or(&[][..], |n| &n.props[..]);
                    let layer = |j: usize| {
                        let class = t.nodes[j].class.as_deref().unwrap_or("Node");
                        is_known(class) && kind_of(class) == Kind::Layer
                    };
                    (0..t.nodes.len())
                        .map(|j| {
                            let extra = own(j).get(t.nodes[j].props.len()..).unwrap_or(&[]);
                            fields_set(extra, layer(j))
                        })
                        .collect()
                }),
            })
        })
        .collect()
}

/// The graft fields (`FieldSet` bits) that Godot override properties set.
fn fields_set(props: &[(std::borrow::Cow<'static, str>, super::tree::Prop)], layer: bool) -> u16 {
    use crate::model::instance::FieldSet as F;
    props
        .iter()
        .map(|(key, _)| match key.as_ref() {
            "transform" => F::POSITION | F::ROTATION | F::SCALE | F::SKEW,
            "position" | "rect_position" | "offset_left" | "offset_top" | "margin_left"
            | "margin_top" => F::POSITION,
            "rotation" | "rotation_degrees" | "rect_rotation" => F::ROTATION,
            "scale" | "rect_scale" => F::SCALE,
            "skew" | "skew_degrees" => F::SKEW,
            // A layer's origin, a sprite's offset.
            "offset" if layer => F::POSITION,
            "offset" => F::SHAPE,
            "texture" | "region_rect" | "region_enabled" | "polygon" | "flip_h" | "flip_v"
            | "centered" | "hframes" | "vframes" | "frame" => F::SHAPE,
            "color" | "self_modulate" => F::COLOR,
            _ => 0,
        })
        .fold(0, |a, b| a | b)
}

/// Where a node's graft parent is looked for, as the walk passes it down.
#[derive(Clone, Copy)]
struct Context {
    /// The Godot parent's kind and graft id (None: the parent was not imported, or none).
    parent: Option<(Kind, Option<NodeId>)>,
    /// The nearest enclosing CanvasLayer's graft id: where re-rooted nodes go.
    layer: Option<NodeId>,
}

struct Converter<'a> {
    tree: &'a Tree,
    loader: &'a mut Loader,
    specs: Vec<NodeSpec>,
    report: ImportReport,
    /// The graft id of each tree node (None: not imported).
    ids: Vec<Option<NodeId>>,
    kinds: rustc_hash::FxHashMap<NodeId, Kind>,
}

impl Converter<'_> {
    /// True for a Godot 3 scene (`format=2`): its properties mean what Godot 3 makes of them.
    fn godot3(&self) -> bool {
        self.tree
            .nodes
            .first()
            .is_some_and(|n| n.origin.0.format <= 2)
    }

    fn note(&mut self, kind: NoteKind, node: &GNode, message: String) {
        self.report.notes.push(Note {
            kind,
            place: node.place(),
            message,
        });
    }

    /// How a node chains, guessing for classes graft does not know (a transform property makes
    /// it a Node2D).
    fn kind(&mut self, node: &GNode) -> Kind {
        let Some(class) = node.class.as_deref() else {
            return Kind::Plain;
        };
        if is_known(class) {
            return kind_of(class);
        }
        let has_transform = ["position", "rotation", "scale", "transform"]
            .iter()
            .any(|k| node.prop(k).is_some());
        let (kind, read_as) = if has_transform {
            (Kind::Node2D, "a Node2D (it has transform properties)")
        } else {
            (Kind::Plain, "a node without a 2D transform")
        };
        self.note(
            NoteKind::Approximated,
            node,
            format!("unknown class {class}: read as {read_as}"),
        );
        kind
    }

    /// Walk the tree in pre-order (with an explicit stack: deep scenes do not overflow).
    fn run(&mut self) {
        let tree = self.tree;
        let kinds: Vec<Kind> = tree.nodes.iter().map(|n| self.kind(n)).collect();
        let needed = needed_plain(tree, &kinds);
        let root = Context {
            parent: None,
            layer: None,
        };
        let mut stack = vec![(0usize, root)];
        while let Some((i, ctx)) = stack.pop() {
            let node = &tree.nodes[i];
            let kind = kinds[i];
            let class = node.class.clone().unwrap_or_else(|| "Node".into());
            if kind == Kind::Plain && !needed[i] {
                // Nothing 2D below: the whole subtree is left out, every node counted.
                let mut below = vec![i];
                while let Some(k) = below.pop() {
                    let n = &tree.nodes[k];
                    let class = n.class.clone().unwrap_or_else(|| "Node".into());
                    *self.report.skipped.entry(class).or_default() += 1;
                    below.extend(&n.children);
                }
                continue;
            }
            let parent = self.graft_parent(node, kind, ctx);
            let id = NodeId(self.specs.len() as u32 + 1);
            self.ids[i] = Some(id);
            self.kinds.insert(id, kind);
            let local = self.local(node, kind);
            let (shape, color) = appearance(node, kind, self.loader, &mut self.report.notes);
            self.specs.push(NodeSpec {
                id,
                parent,
                data: NodeData {
                    name: crate::model::scene::name::cut_name(node.name.as_str()).into(),
                    local,
                    shape,
                    color,
                    ..NodeData::default()
                },
            });
            *self.report.imported.entry(class).or_default() += 1;
            let child_ctx = Context {
                parent: Some((kind, Some(id))),
                layer: if kind == Kind::Layer {
                    Some(id)
                } else {
                    ctx.layer
                },
            };
            for &c in node.children.iter().rev() {
                stack.push((c, child_ctx));
            }
        }
    }

    /// The graft parent by Godot's chain rules, noting each re-rooting.
    fn graft_parent(&mut self, node: &GNode, kind: Kind, ctx: Context) -> Option<NodeId> {
        let (parent_kind, parent_id) = ctx.parent?;
        // Godot 3 has no `top_level` property: a `format=2` file's line is ignored, as Godot 3
        // ignores it.
        let top_level = node
            .prop("top_level")
            .is_some_and(|p| p.file.format > 2 && p.value.as_bool() == Some(true));
        let (reroot, why) = match kind {
            Kind::Layer => (
                true,
                "a CanvasLayer draws its children through its own transform and ignores every ancestor",
            ),
            Kind::Node2D | Kind::Control if top_level => {
                (true, "top_level: it ignores every ancestor's transform")
            }
            Kind::Plain if matches!(parent_kind, Kind::Node2D | Kind::Control) => (
                true,
                "it has no 2D transform, so the 2D nodes under it start again from the canvas",
            ),
            _ => (false, ""),
        };
        if !reroot {
            return parent_id;
        }
        let to = if kind == Kind::Layer { None } else { ctx.layer };
        let target = if to.is_some() {
            "under its CanvasLayer"
        } else {
            "as a root"
        };
        let class = node.class.as_deref().unwrap_or("Node");
        self.note(
            NoteKind::Rerooted,
            node,
            format!("{class} \"{}\" imported {target}: {why}", node.name),
        );
        to
    }

    /// The node's local transform in graft's y-up space.
    fn local(&mut self, node: &GNode, kind: Kind) -> Trs {
        let godot = match kind {
            Kind::Plain => return Trs::IDENTITY,
            Kind::Node2D => parts_in_order(node, "position", self.godot3()),
            Kind::Layer => parts_in_order(node, "offset", self.godot3()),
            Kind::Control => self.control_matrix(node),
        };
        let trs = match godot {
            GodotXform::Parts {
                position,
                rotation,
                scale,
                skew,
            } => Trs::new(
                Vec2::new(position.x as f32, flip(position.y as f32)),
                flip(rotation.to_degrees() as f32),
                scale.as_vec2(),
                flip(skew.to_degrees() as f32),
            ),
        };
        match trs.first_non_finite() {
            None => trs,
            Some(field) => {
                self.note(
                    NoteKind::Approximated,
                    node,
                    format!("{field} is not a finite number: read as identity"),
                );
                Trs::IDENTITY
            }
        }
    }

    /// A Control: position from its offsets (anchors need the parent's size, which needs a
    /// layout: read as if the anchors were 0, and said so), rotation and scale about its pivot.
    fn control_matrix(&mut self, node: &GNode) -> GodotXform {
        let num = |k: &str| node.prop(k).and_then(|p| p.value.as_f64());
        let position = vec2_prop(node, "position")
            .or_else(|| vec2_prop(node, "rect_position"))
            .unwrap_or_else(|| {
                let left = num("offset_left").or(num("margin_left")).unwrap_or(0.0);
                let top = num("offset_top").or(num("margin_top")).unwrap_or(0.0);
                DVec2::new(left, top)
            });
        let anchored = ["anchor_left", "anchor_top", "anchor_right", "anchor_bottom"]
            .iter()
            .any(|k| num(k).is_some_and(|a| a != 0.0));
        let in_container = num("layout_mode") == Some(2.0);
        if anchored || in_container {
            let why = if in_container {
                "its container places it"
            } else {
                "its anchors need the parent's size"
            };
            self.note(
                NoteKind::Approximated,
                node,
                format!("Control \"{}\": {why}; its position is read from its offsets alone (a layout graft does not run)", node.name),
            );
        }
        let rotation = num("rotation")
            .or(num("rect_rotation").map(f64::to_radians))
            .unwrap_or(0.0);
        // Control's setter replaces an exact 0 by 1e-5, in Godot 3 and 4.
        let scale = vec2_prop(node, "scale")
            .or_else(|| vec2_prop(node, "rect_scale"))
            .map_or(DVec2::ONE, |s| no_zero_scale(s, true));
        let pivot = vec2_prop(node, "pivot_offset")
            .or_else(|| vec2_prop(node, "rect_pivot_offset"))
            .unwrap_or(DVec2::ZERO);
        // Godot: Transform2D(rotation, scale, 0, position + pivot) · translate(-pivot).
        let (s, c) = rotation.sin_cos();
        let rs_pivot = DVec2::new(
            c * scale.x * pivot.x - s * scale.y * pivot.y,
            s * scale.x * pivot.x + c * scale.y * pivot.y,
        );
        GodotXform::Parts {
            position: position + pivot - rs_pivot,
            rotation,
            scale,
            skew: 0.0,
        }
    }
}

/// A Godot transform, as the file gives it (y-down, radians).
enum GodotXform {
    /// TRS + skew.
    Parts {
        position: DVec2,
        rotation: f64,
        scale: DVec2,
        skew: f64,
    },
}

/// A `Transform2D(xx, xy, yx, yy, ox, oy)` value as a matrix.
fn transform_of(value: &Value) -> Option<Affine2> {
    let v = value.numbers("Transform2D")?;
    match v.as_slice() {
        [xx, xy, yx, yy, ox, oy] => Some(Affine2::from_mat2_translation(
            Mat2::from_cols(
                Vec2::new(*xx as f32, *xy as f32),
                Vec2::new(*yx as f32, *yy as f32),
            ),
            Vec2::new(*ox as f32, *oy as f32),
        )),
        _ => None,
    }
}

/// Node2D (`position`, `rotation`, `scale`, `skew`, `transform`) or CanvasLayer (`offset`
/// instead of `position`): the properties applied in file order, as Godot's setters do, so an
/// instance's later `position` replaces only the origin of an earlier `transform`. Godot 3 may
/// store `rotation_degrees` / `skew_degrees`.
///
/// Godot's rules, checked against real Godot 3.2.3 (`tests/godot3_rules.rs`): a setter after a
/// `transform` first reads the matrix back as origin, angle of its x axis (0 when that axis is
/// zero) and scale; a CanvasLayer (3.x and 4.x) and a Godot 3 Node2D (`godot3`: no skew in 3.x)
/// read no skew, so the skew is dropped; Godot 4's Node2D keeps it. A Godot 3 Node2D has no
/// `skew` property at all (3.2.2's was reverted). A Node2D's `scale` of exactly 0 becomes
/// 1e-5 (Godot 3.2; Godot 4: any |s| < 1e-5), so its children do not collapse; a layer's does not.
fn parts_in_order(node: &GNode, origin_key: &str, godot3: bool) -> GodotXform {
    let layer = origin_key == "offset";
    let (mut position, mut rotation, mut scale, mut skew) = (DVec2::ZERO, 0.0, DVec2::ONE, 0.0);
    // After a `transform`, until the next setter: whether its x axis was zero.
    let mut from_matrix: Option<bool> = None;
    for (key, prop) in &node.props {
        let value = &prop.value;
        let key = key.as_ref();
        let setter = key == origin_key || matches!(key, "rotation" | "rotation_degrees" | "scale");
        if setter
            && (layer || godot3)
            && let Some(x_axis_zero) = from_matrix.take()
        {
            skew = 0.0;
            if x_axis_zero {
                rotation = 0.0;
            }
        }
        match key {
            k if k == origin_key => position = vec2_of(value).unwrap_or(position),
            "rotation" => rotation = value.as_f64().unwrap_or(rotation),
            "rotation_degrees" => rotation = value.as_f64().map_or(rotation, f64::to_radians),
            "scale" if layer => scale = vec2_of(value).unwrap_or(scale),
            "scale" => scale = vec2_of(value).map_or(scale, |s| no_zero_scale(s, godot3)),
            "skew" if !layer && !godot3 => skew = value.as_f64().unwrap_or(skew),
            "skew_degrees" if !layer && !godot3 => {
                skew = value.as_f64().map_or(skew, f64::to_radians)
            }
            "transform" => {
                if let Some(m) = transform_of(value) {
                    // Godot's set_transform: the matrix's own TRS + skew, in y-down terms.
                    let t = decompose(&flip_y(&m));
                    position = DVec2::new(t.position.x as f64, -(t.position.y as f64));
                    rotation = -(t.rotation as f64).to_radians();
                    scale = t.scale.as_dvec2();
                    skew = -(t.skew as f64).to_radians();
                    from_matrix = Some(m.matrix2.x_axis == Vec2::ZERO);
                }
            }
            _ => {}
        }
    }
    GodotXform::Parts {
        position,
        rotation,
        scale,
        skew,
    }
}

/// Godot's CMP_EPSILON, the smallest scale a Node2D or Control setter keeps.
const MIN_SCALE: f64 = 1e-5;

/// A Node2D's `scale` as Godot's setter stores it: an exact 0 (either sign) becomes 1e-5 in
/// Godot 3.2; Godot 4 replaces any component with |s| < 1e-5.
fn no_zero_scale(s: DVec2, godot3: bool) -> DVec2 {
    let fix = |v: f64| {
        let tiny = if godot3 {
            v == 0.0
        } else {
            v.abs() < MIN_SCALE
        };
        if tiny { MIN_SCALE } else { v }
    };
    DVec2::new(fix(s.x), fix(s.y))
}

/// Godot's y-down matrix in graft's y-up space: F · M · F with F = diag(1, −1).
pub fn flip_y(m: &Affine2) -> Affine2 {
    let [a, b] = m.matrix2.x_axis.to_array();
    let [c, d] = m.matrix2.y_axis.to_array();
    Affine2::from_mat2_translation(
        Mat2::from_cols(Vec2::new(a, -b), Vec2::new(-c, d)),
        Vec2::new(m.translation.x, -m.translation.y),
    )
}

/// One note for each repeated message (a missing image used by 300 sprites): the first place,
/// and how many more there were.
fn collapse_repeats(notes: Vec<Note>) -> Vec<Note> {
    let mut seen: rustc_hash::FxHashMap<(NoteKind, String), (usize, usize)> = Default::default();
    let mut out: Vec<Note> = Vec::with_capacity(notes.len());
    for note in notes {
        let key = (note.kind, note.message.clone());
        match seen.get_mut(&key) {
            Some((_, more)) => *more += 1,
            None => {
                seen.insert(key, (out.len(), 0));
                out.push(note);
            }
        }
    }
    for (at, more) in seen.into_values() {
        if more > 0 {
            out[at]
                .message
                .push_str(&format!(" ({more} more places like it)"));
        }
    }
    out
}

/// Which Plain nodes are imported: those with a 2D node (or layer) somewhere below them.
fn needed_plain(tree: &Tree, kinds: &[Kind]) -> Vec<bool> {
    let n = tree.nodes.len();
    // Parents are always added before their children, so a reverse sweep sees children first.
    let mut parent = vec![usize::MAX; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        for &c in &node.children {
            parent[c] = i;
        }
    }
    let mut needed: Vec<bool> = kinds.iter().map(|k| *k != Kind::Plain).collect();
    for i in (1..n).rev() {
        if needed[i] && parent[i] != usize::MAX {
            needed[parent[i]] = true;
        }
    }
    // The root is always imported: the scene itself.
    if let Some(first) = needed.first_mut() {
        *first = true;
    }
    needed
}
