//! A graft scene as a Godot 4 text scene (`format=3`) or a Godot 3 one (`format=2`): one root
//! Node2D, each graft node a Node2D, Sprite2D / Sprite (its image as an `ext_resource`) or
//! Polygon2D (rects and ellipses become polygons), transforms converted back to Godot's y-down
//! radians, sibling names made valid and unique as Godot requires. Importing the result gives
//! back every world matrix. Godot 3's Node2D has no skew: a skewed node's local matrix is
//! written as a `transform` line with nothing after it (a later setter would drop the skew).

use crate::model::scene::{Scene, Shape, Sprite};
use glam::Vec2;
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
}

/// The text of one Godot version's scene format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// `format=3`: `Vector2(x, y)`, string resource ids, Sprite2D, PackedVector2Array.
    Godot4,
    /// `format=2`: `Vector2( x, y )`, integer ids, Sprite, PoolVector2Array, no skew.
    Godot3,
}

impl Dialect {
    /// `Name(a, b)` as this version writes a constructor.
    fn call(self, name: &str, args: &[String]) -> String {
        match self {
            Dialect::Godot4 => format!("{name}({})", args.join(", ")),
            Dialect::Godot3 if args.is_empty() => format!("{name}(  )"),
            Dialect::Godot3 => format!("{name}( {} )", args.join(", ")),
        }
    }

    fn vec2(self, v: Vec2) -> String {
        self.call("Vector2", &[num(v.x), num(v.y)])
    }

    fn sprite_class(self) -> &'static str {
        match self {
            Dialect::Godot4 => "Sprite2D",
            Dialect::Godot3 => "Sprite",
        }
    }

    fn points_type(self) -> &'static str {
        match self {
            Dialect::Godot4 => "PackedVector2Array",
            Dialect::Godot3 => "PoolVector2Array",
        }
    }

    /// A node's reference to texture `id`.
    fn texture_ref(self, id: usize) -> String {
        match self {
            Dialect::Godot4 => format!("ExtResource(\"{id}_tex\")"),
            Dialect::Godot3 => format!("ExtResource( {id} )"),
        }
    }

    /// The header and the textures' `ext_resource` lines.
    fn header(self, textures: &[String]) -> String {
        let mut out = match self {
            Dialect::Godot4 => String::from("[gd_scene format=3]\n"),
            Dialect::Godot3 if textures.is_empty() => String::from("[gd_scene format=2]\n"),
            Dialect::Godot3 => format!("[gd_scene load_steps={} format=2]\n", textures.len() + 1),
        };
        for (k, path) in textures.iter().enumerate() {
            let _ = match self {
                Dialect::Godot4 => writeln!(
                    out,
                    "\n[ext_resource type=\"Texture2D\" path={} id=\"{}_tex\"]",
                    quoted(path),
                    k + 1
                ),
                Dialect::Godot3 => writeln!(
                    out,
                    "\n[ext_resource path={} type=\"Texture\" id={}]",
                    quoted(path),
                    k + 1
                ),
            };
        }
        out
    }
}

/// What the export changed or could not carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExportReport {
    /// `old -> new` for every node renamed to be valid and unique among its siblings.
    pub renamed: Vec<String>,
    /// Everything else worth knowing (images outside the project, probes left behind).
    pub notes: Vec<String>,
}

/// Segments of an exported ellipse.
const ELLIPSE_SEGMENTS: usize = 24;
/// An ellipse's corners are written to this fraction of its size (they approximate it anyway,
/// and shorter numbers keep big scenes' files small).
const ELLIPSE_PRECISION: f64 = 1e-5;

/// `v` with `decimals` digits after the point, trailing zeros dropped.
fn rounded(v: f32, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" { "0".into() } else { text }
}

/// A float as Godot reads it back to the same f32 (shortest round-trip form, `e` for the huge).
fn num(v: f32) -> String {
    format!("{v:?}")
}

/// A Godot node name: the characters Godot refuses (`. : @ / " %`) replaced, never empty.
fn valid_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if ".:@/\"%".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.is_empty() {
        "Node".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The image path as `res://…` under the project root, or None when it is outside.
fn res_path(file: &Path, root: &Path) -> Option<String> {
    // A file not on disk (yet) is placed by name: absolute, `..` folded.
    let real = |p: &Path| {
        p.canonicalize()
            .unwrap_or_else(|_| crate::model::scene::sprites::absolute_dir(p))
    };
    let (file, root) = (real(file), real(root));
    let rel = file.strip_prefix(&root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(format!("res://{}", parts.join("/")))
}

/// Escape a string for a `.tscn` (quotes and backslashes).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The polygon a rect or ellipse becomes in Godot.
fn outline_points(shape: &Shape) -> Option<Vec<Vec2>> {
    match shape {
        Shape::Rect { size } => {
            let h = *size * 0.5;
            Some(vec![
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ])
        }
        Shape::Ellipse { size } => Some(
            (0..ELLIPSE_SEGMENTS)
                .map(|k| {
                    let a = k as f64 / ELLIPSE_SEGMENTS as f64 * std::f64::consts::TAU;
                    Vec2::new(
                        (a.cos() * size.x as f64 * 0.5) as f32,
                        (a.sin() * size.y as f64 * 0.5) as f32,
                    )
                })
                .collect(),
        ),
        Shape::Polygon { points } => Some(points.to_vec()),
        _ => None,
    }
}

/// The scene as `.tscn` text, and what had to change on the way.
pub fn to_tscn(scene: &Scene, options: &ExportOptions) -> (String, ExportReport) {
    let mut report = ExportReport::default();
    let mut textures: Vec<String> = Vec::new();
    let mut texture_ids: FxHashMap<String, usize> = FxHashMap::default();
    let mut body = String::new();
    let mut names = NodePaths::with_capacity(scene.len());
    let dialect = if options.godot3 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    let mut as_matrix = Vec::new();
    note_probes(scene, &mut report);
    for i in 0..scene.len() {
        let data = scene.data_at(i);
        let (name, parent_path) = names.add(scene.parent_index_at(i), &data.name);
        if name != data.name {
            report.renamed.push(format!("{} -> {name}", data.name));
        }
        let class = match &data.shape {
            Shape::Sprite { .. } => dialect.sprite_class(),
            Shape::None => "Node2D",
            _ => "Polygon2D",
        };
        let _ = writeln!(
            body,
            "\n[node name={} type=\"{class}\" parent={}]",
            quoted(&name),
            quoted(&parent_path)
        );
        if transform_lines(&mut body, &data.local, dialect) {
            as_matrix.push(name.clone());
        }
        let tex = TextureTable {
            options,
            textures: &mut textures,
            ids: &mut texture_ids,
            dialect,
        };
        appearance_lines(&mut body, data, &name, tex, &mut report);
    }
    note_matrices(&as_matrix, dialect, &mut report);
    (scene_text(&textures, options, dialect, &body), report)
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

/// The whole file: the header, the textures' `ext_resource`s, the root node, then `body` (the
/// other nodes).
fn scene_text(
    textures: &[String],
    options: &ExportOptions,
    dialect: Dialect,
    body: &str,
) -> String {
    let mut out = dialect.header(textures);
    let root = valid_name(if options.root_name.is_empty() {
        "Root"
    } else {
        &options.root_name
    });
    let _ = writeln!(out, "\n[node name={} type=\"Node2D\"]", quoted(&root));
    out.push_str(body);
    out
}

/// Each exported node's path below the root, and the names each parent's children already use.
struct NodePaths {
    /// By node index, in scene order.
    paths: Vec<String>,
    /// By parent index (None for the root's children).
    taken: FxHashMap<Option<usize>, FxHashMap<String, ()>>,
}

impl NodePaths {
    /// Room for `n` nodes.
    fn with_capacity(n: usize) -> Self {
        Self {
            paths: Vec::with_capacity(n),
            taken: FxHashMap::default(),
        }
    }

    /// Add the next node (nodes come parents first): its name made valid and unique among its
    /// siblings, and its parent's path (`.` for the root).
    fn add(&mut self, parent: Option<usize>, wanted: &str) -> (String, String) {
        let siblings = self.taken.entry(parent).or_default();
        let base = valid_name(wanted);
        let mut name = base.clone();
        let mut k = 2;
        while siblings.contains_key(&name) {
            name = format!("{base}{k}");
            k += 1;
        }
        siblings.insert(name.clone(), ());
        let parent_path = parent.map_or(".".to_string(), |p| self.paths[p].clone());
        self.paths.push(if parent_path == "." {
            name.clone()
        } else {
            format!("{parent_path}/{name}")
        });
        (name, parent_path)
    }
}

/// Position, rotation, scale and skew in Godot's terms (y down, radians), defaults left out. A
/// scale with a component under 1e-5 (0 included), and in Godot 3 a skew, is written as the
/// whole matrix instead (true then): Godot's `scale` setter would make it 1e-5 and Godot 3 has
/// no skew property; its `transform` keeps both.
fn transform_lines(out: &mut String, local: &crate::model::math::Trs, dialect: Dialect) -> bool {
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
    let p = Vec2::new(local.position.x, -local.position.y);
    if p != Vec2::ZERO {
        let _ = writeln!(out, "position = {}", dialect.vec2(p));
    }
    if local.rotation != 0.0 {
        let _ = writeln!(
            out,
            "rotation = {:?}",
            -(local.rotation as f64).to_radians()
        );
    }
    if local.scale != Vec2::ONE {
        let _ = writeln!(out, "scale = {}", dialect.vec2(local.scale));
    }
    if local.skew != 0.0 {
        let _ = writeln!(out, "skew = {:?}", -(local.skew as f64).to_radians());
    }
    false
}

/// The ext_resource table being filled.
struct TextureTable<'a> {
    options: &'a ExportOptions,
    textures: &'a mut Vec<String>,
    ids: &'a mut FxHashMap<String, usize>,
    dialect: Dialect,
}

impl TextureTable<'_> {
    /// A sprite's image file: its path under the scene's folder when that is known.
    fn image_file(&self, path: &str) -> PathBuf {
        match &self.options.scene_dir {
            Some(dir) => dir.join(path),
            None => PathBuf::from(path),
        }
    }

    /// The id of the image's `ext_resource` (added when new), or None when the image is not
    /// inside the Godot project.
    fn id_of(&mut self, file: &Path) -> Option<usize> {
        let written = res_path(file, self.options.project_root.as_deref()?)?;
        let next = self.ids.len() + 1;
        let id = *self.ids.entry(written.clone()).or_insert(next);
        if id == next {
            self.textures.push(written);
        }
        Some(id)
    }
}

/// A colour as a Godot `Color(r, g, b, a)` of 0..1 floats.
fn color_text(color: [u8; 4], dialect: Dialect) -> String {
    let rgba = color.map(|c| num(c as f32 / 255.0));
    dialect.call("Color", &rgba)
}

/// A Sprite2D's texture and placement, or a Polygon2D's points and colour.
fn appearance_lines(
    out: &mut String,
    data: &crate::model::scene::NodeData,
    name: &str,
    tex: TextureTable,
    report: &mut ExportReport,
) {
    match &data.shape {
        Shape::Sprite(sprite) => sprite_lines(out, data, sprite, name, tex, report),
        shape => polygon_lines(out, shape, data.color, tex.dialect),
    }
}

/// A Sprite2D's texture, offset, tint and region; notes an image outside the project and a
/// size Godot will draw differently.
fn sprite_lines(
    out: &mut String,
    data: &crate::model::scene::NodeData,
    sprite: &Sprite,
    name: &str,
    mut tex: TextureTable,
    report: &mut ExportReport,
) {
    let file = tex.image_file(&sprite.path);
    let Some(id) = tex.id_of(&file) else {
        report.notes.push(format!(
            "{name}: its image {} is not inside the Godot project folder: no texture written",
            file.display()
        ));
        return;
    };
    let dialect = tex.dialect;
    let _ = writeln!(out, "texture = {}", dialect.texture_ref(id));
    let offset = sprite.offset;
    if offset != Vec2::ZERO {
        let _ = writeln!(
            out,
            "offset = {}",
            dialect.vec2(Vec2::new(offset.x, -offset.y))
        );
    }
    if data.color != [255, 255, 255, 255] {
        let _ = writeln!(out, "self_modulate = {}", color_text(data.color, dialect));
    }
    let Ok(image) = crate::model::read_limit::image_size(&file, crate::model::read_limit::IMAGE)
    else {
        return;
    };
    let image = Vec2::new(image.width as f32, image.height as f32);
    if let Some(uv) = sprite.region {
        region_lines(out, uv, image, dialect);
    }
    let shown = match sprite.region {
        Some([u0, v0, u1, v1]) => Vec2::new((u1 - u0).abs(), (v1 - v0).abs()) * image,
        None => image,
    };
    let size = sprite.size;
    if (shown - size.abs()).abs().max_element() > 0.5 {
        report.notes.push(format!(
            "{name}: drawn {}×{} in graft, but Godot draws its image at {}×{} px",
            size.x, size.y, shown.x, shown.y
        ));
    }
}

/// A sprite's uv region as Godot's pixel `region_rect` of an `image`-sized image, with flips
/// for reversed uvs.
fn region_lines(out: &mut String, [u0, v0, u1, v1]: [f32; 4], image: Vec2, dialect: Dialect) {
    let (lo, hi) = (
        Vec2::new(u0.min(u1), v0.min(v1)),
        Vec2::new(u0.max(u1), v0.max(v1)),
    );
    let _ = writeln!(out, "region_enabled = true");
    let (p, s) = (lo * image, (hi - lo) * image);
    let rect = dialect.call("Rect2", &[num(p.x), num(p.y), num(s.x), num(s.y)]);
    let _ = writeln!(out, "region_rect = {rect}");
    if u1 < u0 {
        let _ = writeln!(out, "flip_h = true");
    }
    if v1 < v0 {
        let _ = writeln!(out, "flip_v = true");
    }
}

/// A Polygon2D's colour and points (rects and ellipses as polygons; an ellipse's rounded to
/// its size); nothing for a shape with no outline.
fn polygon_lines(out: &mut String, shape: &Shape, color: [u8; 4], dialect: Dialect) {
    let Some(points) = outline_points(shape) else {
        return;
    };
    let flat: Vec<String> = match shape {
        Shape::Ellipse { size } => {
            let step = size.abs().max_element() as f64 * ELLIPSE_PRECISION;
            let decimals = (-step.log10()).ceil().clamp(0.0, 12.0) as usize;
            points
                .iter()
                .flat_map(|p| [rounded(p.x, decimals), rounded(-p.y, decimals)])
                .collect()
        }
        _ => points.iter().flat_map(|p| [num(p.x), num(-p.y)]).collect(),
    };
    let _ = writeln!(out, "color = {}", color_text(color, dialect));
    let _ = writeln!(
        out,
        "polygon = {}",
        dialect.call(dialect.points_type(), &flat)
    );
}
