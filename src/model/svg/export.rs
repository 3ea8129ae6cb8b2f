//! A scene as SVG that keeps the hierarchy: one `<g>` per node carrying its *local* matrix as
//! `transform="matrix(a b c d e f)"`, nested exactly as the tree, so the SVG's composed
//! transforms are graft's world matrices (under one root group that flips y, since graft is
//! y-up and SVG y-down). Node names become valid, unique `id`s and `inkscape:label`s, so the
//! file opens in Inkscape with every node a named group. Shapes are drawn in their node's local
//! space: `rect`, `ellipse`, `polygon`, and sprites as `image` (embedded as data URIs or linked).

use super::xml::xml;
use crate::model::read_limit;
use crate::model::scene::{Scene, Shape, Sprite};
use glam::{Affine2, DVec2, Vec2};
use rustc_hash::FxHashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How sprites' images are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Images {
    /// As `data:` URIs inside the SVG (the file stands alone).
    #[default]
    Embed,
    /// As paths relative to the SVG's folder (small files; the images must travel along).
    Link,
}

/// Where the SVG goes and how images are written.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// The folder the scene's relative sprite paths are relative to.
    pub scene_dir: Option<PathBuf>,
    /// The folder the SVG will be written to (for linked images).
    pub svg_dir: Option<PathBuf>,
    /// Embed or link images.
    pub images: Images,
    /// Write each animated node's tracks as SMIL animation (`animate.rs`).
    pub animate: bool,
}

/// Margin around the drawing in the viewBox, as a fraction of its larger side.
const MARGIN: f64 = 0.05;
/// A drawing smaller than this many units is shown larger …
const MIN_DOCUMENT_PX: f64 = 200.0;
/// … with its larger side this many pixels.
const DOCUMENT_PX: f64 = 800.0;

/// A number as SVG reads it back to the same f32 (shortest round-trip form).
pub fn num(v: f32) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        let text = format!("{v:?}");
        text.strip_suffix(".0").map_or(text.clone(), str::to_string)
    }
}

/// An f64 coordinate, to 6 decimals with trailing zeros dropped.
pub fn coord(v: f64) -> String {
    let text = format!("{v:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".into()
    } else {
        text.into()
    }
}

/// `matrix(a b c d e f)` of an affine (column vectors: a b = x axis, c d = y axis, e f = origin).
pub fn matrix(m: &Affine2) -> String {
    let [a, b, c, d, e, f] = m.to_cols_array();
    format!(
        "matrix({} {} {} {} {} {})",
        num(a),
        num(b),
        num(c),
        num(d),
        num(e),
        num(f)
    )
}

/// A valid XML id from a node name: letters, digits, `-`, `_`, `.`, starting with a letter or
/// `_`; never one already taken (`name-2`, `name-3`, …).
pub fn unique_id(name: &str, taken: &mut FxHashSet<String>) -> String {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !base.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        base.insert(0, '_');
    }
    let mut id = base.clone();
    let mut k = 2;
    while !taken.insert(id.clone()) {
        id = format!("{base}-{k}");
        k += 1;
    }
    id
}

/// `fill="#rrggbb"` and, when not opaque, `fill-opacity`.
pub fn fill(color: [u8; 4]) -> String {
    let [r, g, b, a] = color;
    let mut out = format!("fill=\"#{r:02x}{g:02x}{b:02x}\"");
    if a != 255 {
        let _ = write!(out, " fill-opacity=\"{}\"", coord(a as f64 / 255.0));
    }
    out
}

/// The SVG element of a shape in its node's local space (y-up; images counter-flipped so they
/// stand upright). None for an origin-only node.
pub fn shape_element(shape: &Shape, color: [u8; 4], href: Option<&str>) -> Option<String> {
    let paint = fill(color);
    match shape {
        Shape::None => None,
        Shape::Rect { size } => {
            let h = size.abs() * 0.5;
            Some(format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {paint}/>",
                num(-h.x),
                num(-h.y),
                num(2.0 * h.x),
                num(2.0 * h.y)
            ))
        }
        Shape::Ellipse { size } => Some(format!(
            "<ellipse rx=\"{}\" ry=\"{}\" {paint}/>",
            num(size.x.abs() * 0.5),
            num(size.y.abs() * 0.5)
        )),
        Shape::Polygon { points } => {
            let pts: Vec<String> = points
                .iter()
                .map(|p| format!("{},{}", num(p.x), num(p.y)))
                .collect();
            Some(format!("<polygon points=\"{}\" {paint}/>", pts.join(" ")))
        }
        Shape::Sprite(sprite) => {
            let Sprite {
                size,
                region,
                offset,
                ..
            } = &**sprite;
            let href = href?;
            let h = size.abs() * 0.5;
            // Flip the image back upright about its own centre.
            let place = format!("matrix(1 0 0 -1 {} {})", num(offset.x), num(offset.y));
            let opacity = if color[3] == 255 {
                String::new()
            } else {
                format!(" opacity=\"{}\"", coord(color[3] as f64 / 255.0))
            };
            let image = format!(
                "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" href=\"{}\"{opacity}/>",
                num(-h.x),
                num(-h.y),
                num(2.0 * h.x),
                num(2.0 * h.y),
                xml(href)
            );
            Some(match region {
                // The region: a nested viewport that shows only that part of the image.
                Some([u0, v0, u1, v1]) if (u1 - u0) != 0.0 && (v1 - v0) != 0.0 => {
                    let (w, hh) = (2.0 * h.x / (u1 - u0), 2.0 * h.y / (v1 - v0));
                    let (u, v) = (u0.min(*u1), v0.min(*v1));
                    // Reversed ranges mirror the image about the shown region's centre.
                    let (sx, sy) = (
                        if u1 < u0 { -1.0 } else { 1.0 },
                        if v1 < v0 { -1.0 } else { 1.0 },
                    );
                    let (cx, cy) = (u * w.abs() + h.x, v * hh.abs() + h.y);
                    let flip = format!(
                        "matrix({} 0 0 {} {} {})",
                        num(sx),
                        num(sy),
                        num(cx * (1.0 - sx)),
                        num(cy * (1.0 - sy))
                    );
                    format!(
                        "<g transform=\"{place}\"><svg x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\" preserveAspectRatio=\"none\" overflow=\"hidden\"><g transform=\"{flip}\"><image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" href=\"{}\"{opacity}/></g></svg></g>",
                        num(-h.x),
                        num(-h.y),
                        num(2.0 * h.x),
                        num(2.0 * h.y),
                        num(u * w.abs()),
                        num(v * hh.abs()),
                        num(2.0 * h.x),
                        num(2.0 * h.y),
                        0,
                        0,
                        num(w.abs()),
                        num(hh.abs()),
                        xml(href)
                    )
                }
                _ => format!("<g transform=\"{place}\">{image}</g>"),
            })
        }
    }
}

/// The image a sprite shows, as an `href`: a data URI or a relative path; None (with a note)
/// when the file cannot be read.
fn image_href(path: &str, options: &SvgOptions, notes: &mut Vec<String>) -> Option<String> {
    let file = match &options.scene_dir {
        Some(dir) => dir.join(path),
        None => PathBuf::from(path),
    };
    match options.images {
        Images::Link => {
            let base = options
                .svg_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("."));
            let abs = std::path::absolute(&file).unwrap_or(file.clone());
            let base = std::path::absolute(&base).unwrap_or(base);
            let rel = pathdiff::diff_paths(&abs, &base).unwrap_or(abs);
            Some(rel.to_string_lossy().replace('\\', "/"))
        }
        Images::Embed => match data_uri(&file) {
            Ok(uri) => Some(uri),
            Err(crate::Error::Io { source, .. }) => {
                notes.push(format!(
                    "{}: cannot read the image ({source}): its sprite is left out",
                    file.display()
                ));
                None
            }
            Err(e) => {
                notes.push(format!("{e}: its sprite is left out"));
                None
            }
        },
    }
}

/// An image file as a `data:` URI (its type from its extension); only a regular file within
/// [`read_limit::IMAGE`] is read.
pub fn data_uri(file: &Path) -> crate::Result<String> {
    let bytes = read_limit::read_bounded(file, read_limit::IMAGE)?;
    let kind = crate::model::file_kind::FileKind::of(file);
    let mime = kind.and_then(|k| k.row().mime).unwrap_or("image/png");
    Ok(format!("data:{mime};base64,{}", base64(&bytes)))
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The world-space box around every node's origin and shape (corners; an ellipse's own
/// extent) (f64), y-up.
pub fn scene_bounds(scene: &Scene) -> Option<(DVec2, DVec2)> {
    let mut lo = DVec2::splat(f64::INFINITY);
    let mut hi = DVec2::splat(f64::NEG_INFINITY);
    for i in 0..scene.len() {
        let m = scene.world_at(i).as_daffine2();
        let mut add = |p: Vec2| {
            let w = m.transform_point2(p.as_dvec2());
            if w.is_finite() {
                lo = lo.min(w);
                hi = hi.max(w);
            }
        };
        add(Vec2::ZERO);
        match &scene.data_at(i).shape {
            Shape::None => {}
            Shape::Polygon { points } => points.iter().for_each(|p| add(*p)),
            Shape::Ellipse { size } => {
                // The ellipse's own extent (its box's corners, rotated, stick out: a figure
                // framed on them was off-centre, 10 % / 15 % margins).
                let h = size.abs().as_dvec2() * 0.5;
                let (ax, ay) = (m.matrix2.x_axis * h.x, m.matrix2.y_axis * h.y);
                let extent = DVec2::new(ax.x.hypot(ay.x), ax.y.hypot(ay.y));
                for w in [m.translation - extent, m.translation + extent] {
                    if w.is_finite() {
                        lo = lo.min(w);
                        hi = hi.max(w);
                    }
                }
            }
            Shape::Rect { size } => {
                let h = size.abs() * 0.5;
                for s in [
                    Vec2::new(-1.0, -1.0),
                    Vec2::new(1.0, -1.0),
                    Vec2::ONE,
                    Vec2::new(-1.0, 1.0),
                ] {
                    add(s * h);
                }
            }
            Shape::Sprite(sprite) => {
                let Sprite { size, offset, .. } = &**sprite;
                let h = size.abs() * 0.5;
                for s in [
                    Vec2::new(-1.0, -1.0),
                    Vec2::new(1.0, -1.0),
                    Vec2::ONE,
                    Vec2::new(-1.0, 1.0),
                ] {
                    add(*offset + s * h);
                }
            }
        }
    }
    (lo.x <= hi.x).then_some((lo, hi))
}

/// The world box of [`scene_bounds`] over the whole clip (the pose at 65 times).
pub fn animated_bounds(scene: &Scene) -> Option<(DVec2, DVec2)> {
    if scene.animated_nodes().is_empty() {
        return scene_bounds(scene);
    }
    let mut posed = scene.clone();
    let clip = scene.clip();
    let samples = if scene.len() > 100_000 { 8 } else { 64 };
    let mut bounds: Option<(DVec2, DVec2)> = None;
    for k in 0..=samples {
        let t = clip.length * k as f32 / samples as f32;
        posed.set_pose_at(t.min(clip.length));
        posed.update_world();
        if let Some((lo, hi)) = scene_bounds(&posed) {
            bounds = Some(bounds.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
    }
    bounds
}

/// The scene as a standalone SVG document, and notes about what could not be written.
pub fn scene_to_svg(scene: &Scene, options: &SvgOptions) -> (String, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = String::with_capacity(256 + scene.len() * 160);
    write_svg_header(&mut out, scene, options.animate);
    let probes: usize = (0..scene.len())
        .map(|i| scene.data_at(i).probes.len())
        .sum();
    write_node_groups(&mut out, scene, options, &mut notes);
    out.push_str("</g>\n</svg>\n");
    if probes > 0 {
        notes.push(format!(
            "{probes} probes are graft's own and are not exported"
        ));
    }
    (out, notes)
}

/// The `<svg>` element (viewBox around the scene with a margin, size zoomed for small
/// scenes), a comment, and the opening of the y-flip group.
fn write_svg_header(out: &mut String, scene: &Scene, animate: bool) {
    let bounds = if animate {
        animated_bounds(scene)
    } else {
        scene_bounds(scene)
    };
    let (lo, hi) = bounds.unwrap_or((DVec2::splat(-1.0), DVec2::splat(1.0)));
    let side = (hi - lo).max_element().max(1e-6);
    let (lo, hi) = (lo - side * MARGIN, hi + side * MARGIN);
    let size = hi - lo;
    // Scenes in small units (the samples are a few units across) open at a readable size;
    // scenes in pixels (imported from Godot) keep one unit per pixel.
    let zoom = if size.max_element() < MIN_DOCUMENT_PX {
        DOCUMENT_PX / size.max_element()
    } else {
        1.0
    };
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\" viewBox=\"{} {} {} {}\" width=\"{}\" height=\"{}\">",
        coord(lo.x),
        coord(-hi.y),
        coord(size.x),
        coord(size.y),
        coord(size.x * zoom),
        coord(size.y * zoom)
    );
    out.push_str("<!-- graft scene: one group per node, transform = the node's local matrix; the root group flips y (graft is y-up) -->\n");
    if animate {
        let clip = scene.clip();
        let _ = writeln!(
            out,
            "<!-- animated: each group's animateTransform elements play its local transform over the {} s clip ({}); its transform attribute is the pose at 0 s -->",
            clip.length,
            clip.mode.name()
        );
    }
    out.push_str("<g id=\"graft-y-up\" inkscape:label=\"graft (y up)\" transform=\"matrix(1 0 0 -1 0 0)\">\n");
}

/// One `<g>` per node in pre-order (unique id, name as label, local matrix), holding its
/// shape element, nested as the scene is; image notes go to `notes`.
fn write_node_groups(
    out: &mut String,
    scene: &Scene,
    options: &SvgOptions,
    notes: &mut Vec<String>,
) {
    let mut taken = FxHashSet::default();
    taken.insert("graft-y-up".to_string());
    // Close groups as the pre-order walk leaves subtrees.
    let mut open_until: Vec<usize> = Vec::new();
    for i in 0..scene.len() {
        while open_until.last().is_some_and(|&end| end <= i) {
            open_until.pop();
            out.push_str(&"  ".repeat(open_until.len() + 1));
            out.push_str("</g>\n");
        }
        let data = scene.data_at(i);
        let id = unique_id(&data.name, &mut taken);
        let indent = "  ".repeat(open_until.len() + 1);
        let animated = options.animate && crate::model::anim::is_keyed(&data.tracks);
        let local = if animated {
            crate::model::anim::sample(data.local, &data.tracks, 0.0).to_affine()
        } else {
            scene.local_matrix_at(i)
        };
        let _ = writeln!(
            out,
            "{indent}<g id=\"{id}\" inkscape:label=\"{}\" transform=\"{}\">",
            xml(&data.name),
            matrix(&local)
        );
        if animated {
            let inner = format!("{indent}  ");
            let (smil, sampled) =
                super::animate::node_animation(data.local, &data.tracks, scene.clip(), &inner);
            out.push_str(&smil);
            if let Some(channels) = sampled {
                notes.push(format!(
                    "{}: {channels} sampled at {} points per key segment (SMIL cannot write it exactly; off by under 1e-3 of the node's size)",
                    data.name,
                    super::animate::SKEW_SAMPLES_PER_SEGMENT
                ));
            }
        }
        let href = match &data.shape {
            Shape::Sprite(sprite) => image_href(&sprite.path, options, notes),
            _ => None,
        };
        if let Some(element) = shape_element(&data.shape, data.color, href.as_deref()) {
            let _ = writeln!(out, "{indent}  {element}");
        }
        open_until.push(i + scene.subtree_len_at(i));
    }
    while open_until.pop().is_some() {
        out.push_str(&"  ".repeat(open_until.len() + 1));
        out.push_str("</g>\n");
    }
}

/// Write the scene as SVG to `path` (atomically), returning the notes.
pub fn save_svg(
    scene: &Scene,
    path: &Path,
    images: Images,
    scene_dir: Option<&Path>,
) -> crate::Result<Vec<String>> {
    let progress = crate::model::progress::Progress::new();
    Ok(save_svg_with_progress(scene, path, images, scene_dir, &progress)?.unwrap_or_default())
}

/// [`save_svg`] reporting formatting and writing to `progress`; None (nothing written) when
/// it was cancelled before the write.
pub fn save_svg_with_progress(
    scene: &Scene,
    path: &Path,
    images: Images,
    scene_dir: Option<&Path>,
    progress: &crate::model::progress::Progress,
) -> crate::Result<Option<Vec<String>>> {
    let options = SvgOptions {
        scene_dir: scene_dir.map(Path::to_path_buf),
        svg_dir: path.parent().map(Path::to_path_buf),
        images,
        animate: false,
    };
    save_document(scene, path, &options, false, progress)
}

/// Write the scene as SVG (animated if the options say so), or as the HTML page that plays
/// it (`html`), to `path` atomically; the notes, or None when cancelled before the write.
pub fn save_document(
    scene: &Scene,
    path: &Path,
    options: &SvgOptions,
    html: bool,
    progress: &crate::model::progress::Progress,
) -> crate::Result<Option<Vec<String>>> {
    use crate::model::progress::Stage;
    progress.enter(Stage::Formatting, 0);
    let (mut text, notes) = scene_to_svg(scene, options);
    if html {
        let clip = scene.clip();
        let period = match clip.mode {
            crate::model::anim::LoopMode::PingPong => 2.0 * clip.length as f64,
            _ => clip.length as f64,
        };
        let title = path
            .file_stem()
            .map_or("graft".into(), |s| s.to_string_lossy().into_owned());
        let once = clip.mode == crate::model::anim::LoopMode::Once;
        text = super::html::player_page(&text, &title, period, once);
    }
    if progress.is_cancelled() {
        return Ok(None);
    }
    progress.enter(Stage::Writing, text.len() as u64);
    crate::model::atomic_write::replace_with(path, |w| w.write_all(text.as_bytes()))?;
    progress.set_done(text.len() as u64);
    Ok(Some(notes))
}
