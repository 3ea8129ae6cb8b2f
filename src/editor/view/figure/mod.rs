//! Figures: what the viewport teaches, as an SVG (and, through `png.rs`, a PNG drawn from that
//! same SVG, so the two never disagree). The scene framed in a chosen size, with optional
//! layers (grid, axes, parent links, names, the shear overlay, the selection highlighted) and
//! a caption with the selection's matrix chain `World = M_a · M_b · … = W`. Everything is placed
//! with the editor's own camera, grid, outline and overlay code, so a figure shows what the
//! viewport shows. No window needed.

pub mod big;
pub mod frames;
mod grid;
mod layers;
mod overlays;
pub mod palette;
pub mod png;

use grid::grid_layer;
pub use layers::Layers;
use overlays::{blend_ghosts_layer, ghosts_layer, trails_layer};

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{
    AXIS_WIDTH, DOT_RADIUS, DrawList, Marks, NAME_SIZE, OUTLINE_WIDTH, Outline, Show,
};
use crate::editor::view::figure::big::{FIGURE_PLAN_FROM, density_images, plan_figure};
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::geometry::{ScreenShape, world_bounds};
use crate::editor::view::numbers::format_fixed;
use crate::editor::view::overlay::{shear_overlay_among, shear_overlay_on_screen};
use crate::model::scene::{NodeId, Scene, Shape};
use crate::model::svg::export::{coord, shape_element, xml};
use glam::{DVec2, Vec2};
use std::fmt::Write as _;
use std::path::Path;

/// Everything a figure needs besides the scene.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureOptions {
    /// Width and height in CSS pixels (the SVG's size; a PNG multiplies it by `scale`).
    pub size: (u32, u32),
    /// Device pixels per CSS pixel for the PNG.
    pub scale: f32,
    /// What to show.
    pub layers: Layers,
    /// The selected nodes (highlighted; the last one's matrix chain is the caption).
    pub selection: Vec<NodeId>,
    /// Add the caption with the selection's matrix chain.
    pub caption: bool,
    /// The camera to use (the viewport's, scaled to the figure); None fits the whole scene.
    pub camera: Option<Camera>,
    /// The playback time the scene is posed at (the world-blend ghosts need it).
    pub time: f32,
}

impl Default for FigureOptions {
    fn default() -> Self {
        Self {
            size: (1600, 1000),
            scale: 1.0,
            layers: Layers::default(),
            selection: Vec::new(),
            caption: true,
            camera: None,
            time: 0.0,
        }
    }
}

/// How much of the figure the content fills beyond the viewport's framing, which leaves 10 % a
/// side: the same margin. The framing used to be 0.8 × 0.85 = 68 %, which made a figure of a
/// wide scene look about twice its content's size.
pub const FIGURE_FIT: f64 = 1.0;

/// The figure's colours: the viewport's dark theme.
mod colors {
    pub const GHOST: &str = "#e678ff"; // the viewport's ghost colour
    pub const BLEND: &str = "#5adcff"; // the viewport's world-blend ghost colour
    pub const TRAIL: &str = "#78e6ff"; // the viewport's trail colour
    pub const BACKGROUND: &str = "#1c1c1c";
    pub const GRID: &str = "#2d2d2d";
    pub const GRID_TEXT: &str = "#6e6e6e";
    pub const X_AXIS: &str = "#783c3c";
    pub const Y_AXIS: &str = "#3c783c";
    pub const LINK: &str = "#c8c8c8";
    pub const OUTLINE: &str = "#141414";
    pub const SELECTED: &str = "#ffd23c";
    pub const NAME: &str = "#e6e6e6";
    pub const SHEAR: &str = "#ff9f1a";
    pub const LOCAL_X: &str = "#e85050";
    pub const LOCAL_Y: &str = "#50d050";
    /// Every colour above (a GIF's palette holds them exactly).
    pub const ALL: [&str; 15] = [
        GHOST, BLEND, TRAIL, BACKGROUND, GRID, GRID_TEXT, X_AXIS, Y_AXIS, LINK, OUTLINE, SELECTED,
        NAME, SHEAR, LOCAL_X, LOCAL_Y,
    ];
}

/// The font stack a figure's text asks for (the fonts the app ships; `png.rs` loads them).
pub const FONTS: &str = "Ubuntu, Noto Emoji, sans-serif";
/// Width of one character of a 10 px grid label, a little generous.
const LABEL_CHAR_PX: f64 = 5.5;
/// Width (px) of the halo stroke under names (half of it shows around each letter).
pub const HALO_PX: f64 = 3.0;
/// Height of the caption band per line of text.
const CAPTION_LINE: f64 = 18.0;

fn points(outline: &[Vec2]) -> String {
    let pts: Vec<String> = outline
        .iter()
        .map(|p| format!("{},{}", coord(p.x as f64), coord(p.y as f64)))
        .collect();
    pts.join(" ")
}

fn line(out: &mut String, a: DVec2, b: DVec2, color: &str, width: f64) {
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{color}\" stroke-width=\"{}\"/>",
        coord(a.x),
        coord(a.y),
        coord(b.x),
        coord(b.y),
        coord(width)
    );
}

fn text(out: &mut String, at: DVec2, size: f64, color: &str, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-family=\"{FONTS}\" font-size=\"{}\" fill=\"{color}\">{}</text>",
        coord(at.x),
        coord(at.y),
        coord(size),
        xml(content)
    );
}

/// Text readable over any fill: a halo of the background's colour (a stroke painted under the
/// letters: `paint-order="stroke"`, which resvg honours, so PNGs and GIFs have it too).
fn halo_text(out: &mut String, at: DVec2, size: f64, color: &str, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-family=\"{FONTS}\" font-size=\"{}\" fill=\"{color}\" stroke=\"{}\" stroke-width=\"{HALO_PX}\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>",
        coord(at.x),
        coord(at.y),
        coord(size),
        colors::BACKGROUND,
        xml(content)
    );
}

/// The camera a figure uses: the given one, or one framing the whole scene.
pub fn camera_for(scene: &Scene, options: &FigureOptions, rect: ScreenRect) -> Camera {
    if let Some(camera) = options.camera {
        return camera;
    }
    let mut camera = Camera::default();
    if let Some((lo, hi)) = world_bounds(scene, scene.ids()) {
        camera.fit(rect, lo, hi);
        camera.zoom *= FIGURE_FIT;
    }
    camera
}

/// The caption's lines, the caption band's height and the rectangle the scene is drawn in.
fn layout(scene: &Scene, options: &FigureOptions) -> (Vec<String>, f64, ScreenRect) {
    let (w, h) = (options.size.0.max(1) as f64, options.size.1.max(1) as f64);
    let caption = if options.caption {
        caption_lines(scene, options.selection.last().copied())
    } else {
        Vec::new()
    };
    let band = if caption.is_empty() {
        0.0
    } else {
        CAPTION_LINE * caption.len() as f64 + 12.0
    };
    let rect = ScreenRect {
        min: Vec2::ZERO,
        max: Vec2::new(w as f32, (h - band).max(1.0) as f32),
    };
    (caption, band, rect)
}

/// The rectangle of the figure the scene is drawn in (the figure less its caption band).
pub fn scene_rect(scene: &Scene, options: &FigureOptions) -> ScreenRect {
    layout(scene, options).2
}

/// The figure as a standalone SVG document. `image_href` gives a sprite's image as an `href`
/// (a data URI or a path), or None to leave it out.
pub fn figure_svg(
    scene: &Scene,
    options: &FigureOptions,
    image_href: &dyn Fn(&str) -> Option<String>,
) -> String {
    let planned = scene.len() >= FIGURE_PLAN_FROM;
    figure_svg_with(scene, options, image_href, planned)
}

/// [`figure_svg`], planned like a viewport frame (`big.rs`) or one element per node,
/// whatever the size (tests compare the two).
#[doc(hidden)]
pub fn figure_svg_with(
    scene: &Scene,
    options: &FigureOptions,
    image_href: &dyn Fn(&str) -> Option<String>,
    planned: bool,
) -> String {
    figure_svg_after(scene, options, image_href, planned, &DrawList::default()).0
}

/// The figure of the frame after one whose draw list was `previous` (names keep their places,
/// `DrawList::build_after`), and this frame's draw list.
pub fn figure_svg_after(
    scene: &Scene,
    options: &FigureOptions,
    image_href: &dyn Fn(&str) -> Option<String>,
    planned: bool,
    previous: &DrawList,
) -> (String, DrawList) {
    let (w, h) = (options.size.0.max(1) as f64, options.size.1.max(1) as f64);
    let (caption, band, rect) = layout(scene, options);
    let camera = camera_for(scene, options, rect);
    let planned = planned.then(|| plan_figure(scene, options, camera, rect));
    let drawn = planned.as_ref().map_or(scene.len(), |p| p.draw.len());
    let mut out = String::with_capacity(4096 + drawn * 200);
    svg_open(&mut out, w, h, band);
    if options.layers.grid {
        grid_layer(&mut out, camera, rect);
    }
    if let Some(plan) = &planned {
        density_images(&mut out, plan, rect);
    }
    let view = (camera, rect);
    let drawn = (planned.as_ref(), previous);
    let list = nodes_layer(&mut out, scene, options, view, drawn, image_href);
    if options.layers.shear {
        let candidates = planned.as_ref().map(|p| p.shear.as_slice());
        shear_layer(&mut out, scene, view, candidates);
    }
    if options.layers.trails {
        trails_layer(&mut out, scene, &options.selection, view);
    }
    if options.layers.ghosts {
        ghosts_layer(&mut out, scene, view);
        blend_ghosts_layer(&mut out, scene, options.time, view);
    }
    out.push_str("</svg>\n");
    for (k, l) in caption.iter().enumerate() {
        let at = DVec2::new(10.0, h - band + 6.0 + CAPTION_LINE * (k as f64 + 0.8));
        text(&mut out, at, 13.0, colors::NAME, l);
    }
    out.push_str("</svg>\n");
    (out, list)
}

/// The SVG's opening: its size, the background, and the clipped drawing area above the
/// caption band (`band` pixels high; closed by the caller).
fn svg_open(out: &mut String, w: f64, h: f64, band: f64) {
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">",
        coord(w),
        coord(h),
        coord(w),
        coord(h)
    );
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        coord(w),
        coord(h),
        colors::BACKGROUND
    );
    let _ = writeln!(
        out,
        "<svg x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" overflow=\"hidden\">",
        coord(w),
        coord(h - band)
    );
}

/// Every node as the draw list has it: links first, then each kept node's fill (through its
/// local → screen matrix), outline, axes and origin, and the names last.
fn nodes_layer(
    out: &mut String,
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
    (planned, previous): (Option<&FramePlan>, &DrawList),
    image_href: &dyn Fn(&str) -> Option<String>,
) -> DrawList {
    links_layer(out, scene, options.layers.links, view, planned);
    let list = figure_draw_list_after(previous, scene, options, view, planned);
    let (camera, rect) = view;
    let mut shape = ScreenShape::new();
    for entry in &list.entries {
        let i = entry.index as usize;
        let m = camera.node_to_screen_f64(rect, &scene.world_at(i));
        let data = scene.data_at(i);
        let href = match &data.shape {
            Shape::Sprite(sprite) => image_href(&sprite.path),
            _ => None,
        };
        if let Some(element) = shape_element(&data.shape, data.color, href.as_deref()) {
            let [a, b, c, d] = m.matrix2.to_cols_array();
            let (e, f) = (m.translation.x, m.translation.y);
            let _ = writeln!(
                out,
                "<g transform=\"matrix({} {} {} {} {} {})\">{element}</g>",
                coord(a),
                coord(b),
                coord(c),
                coord(d),
                coord(e),
                coord(f)
            );
        }
        if entry.marks.detail {
            shape.compute(&data.shape, &m, rect);
            marks(out, &shape.outline, &m, entry.marks);
        }
    }
    // Names last, so no shape covers them.
    for name in &list.names {
        let data = scene.data_at(name.index as usize);
        halo_text(out, name.at, NAME_SIZE as f64, colors::NAME, &data.name);
    }
    list
}

/// The figure's draw list: the same list the viewport draws at this camera and size.
pub fn figure_draw_list(
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
    planned: Option<&FramePlan>,
) -> DrawList {
    figure_draw_list_after(&DrawList::default(), scene, options, view, planned)
}

/// [`figure_draw_list`] for the frame after `previous`.
fn figure_draw_list_after(
    previous: &DrawList,
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
    planned: Option<&FramePlan>,
) -> DrawList {
    let layers = options.layers;
    let show = Show {
        axes: layers.axes,
        names: layers.names,
        selection: layers.selection,
        handles_on: None,
    };
    // Asked per node: a set (everything may be selected in a big scene).
    let selection: rustc_hash::FxHashSet<NodeId> = options.selection.iter().copied().collect();
    let is_selected = |id| selection.contains(&id);
    match planned {
        Some(plan) => {
            let indices = plan.draw.iter().map(|&i| i as usize);
            let kept = plan.draw.len();
            DrawList::build_after(previous, scene, indices, view, show, &is_selected, kept)
        }
        None => {
            let all = 0..scene.len();
            DrawList::build_after(previous, scene, all, view, show, &is_selected, 0)
        }
    }
}

/// Parent → child lines: the plan's (clipped) links, or one per node of a small scene.
fn links_layer(
    out: &mut String,
    scene: &Scene,
    shown: bool,
    (camera, rect): (Camera, ScreenRect),
    planned: Option<&FramePlan>,
) {
    if let Some(plan) = planned {
        for (a, b) in &plan.links {
            line(out, a.as_dvec2(), b.as_dvec2(), colors::LINK, 1.0);
        }
        return;
    }
    if !shown {
        return;
    }
    for i in 0..scene.len() {
        let Some(p) = scene.parent_index_at(i) else {
            continue;
        };
        let (from, to) = (scene.world_at(p).translation, scene.world_at(i).translation);
        if from.is_finite() && to.is_finite() {
            let a = camera.to_screen_f64(rect, from.as_dvec2());
            let b = camera.to_screen_f64(rect, to.as_dvec2());
            line(out, a, b, colors::LINK, 1.0);
        }
    }
}

/// A detailed node's outline, axes and origin dot, as the draw list marked them.
fn marks(out: &mut String, outline: &[Vec2], m: &glam::DAffine2, marks: Marks) {
    let stroke = match marks.outline {
        Outline::None => None,
        Outline::Plain => Some((colors::OUTLINE, OUTLINE_WIDTH[0])),
        Outline::Selected => Some((colors::SELECTED, OUTLINE_WIDTH[1])),
    };
    if let Some((color, width)) = stroke.filter(|_| outline.len() > 2) {
        let _ = writeln!(
            out,
            "<polygon points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{width}\"/>",
            points(outline)
        );
    }
    let origin = m.translation;
    if marks.axes {
        let width = AXIS_WIDTH as f64;
        line(
            out,
            origin,
            m.transform_point2(DVec2::X),
            colors::LOCAL_X,
            width,
        );
        line(
            out,
            origin,
            m.transform_point2(DVec2::Y),
            colors::LOCAL_Y,
            width,
        );
    }
    if let Some(kind) = marks.dot {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\"/>",
            coord(origin.x),
            coord(origin.y),
            DOT_RADIUS[kind as usize]
        );
    }
}

/// Sheared nodes outlined in orange with their unit parallelogram and angle.
/// With `candidates` (a big scene's plan), only those nodes are looked at.
fn shear_layer(
    out: &mut String,
    scene: &Scene,
    (camera, rect): (Camera, ScreenRect),
    candidates: Option<&[u32]>,
) {
    let overlay = match candidates {
        Some(list) => shear_overlay_among(scene, camera, rect, list.iter().map(|&i| i as usize)),
        None => shear_overlay_on_screen(scene, camera, rect),
    };
    for mark in &overlay.marks {
        if mark.outline.len() > 2 {
            let _ = writeln!(
                out,
                "<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>",
                points(&mark.outline),
                colors::SHEAR
            );
        }
        let _ = writeln!(
            out,
            "<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"{}\" stroke-width=\"1\"/>",
            points(&mark.axes),
            colors::SHEAR,
            colors::SHEAR
        );
        if let Some(label) = &mark.label {
            let at = mark.axes[0].as_dvec2() + DVec2::new(8.0, 16.0);
            // The warning sign is an emoji glyph resvg's fallback does not find: plain text.
            halo_text(out, at, 12.0, colors::SHEAR, label.trim_start_matches("⚠ "));
        }
    }
}

/// `[a c e; b d f]` with three decimals.
fn matrix_text(m: &glam::Affine2) -> String {
    let [a, b, c, d, e, f] = m.to_cols_array().map(|v| format_fixed(v as f64, 3));
    format!("[{a} {c} {e}; {b} {d} {f}]")
}

/// `World(node) = M_a · M_b · …` and the numbers of each factor and of the product.
pub fn caption_lines(scene: &Scene, node: Option<NodeId>) -> Vec<String> {
    let Some(node) = node else {
        return Vec::new();
    };
    let Ok(chain) = scene.matrix_chain(node) else {
        return Vec::new();
    };
    let name = |id: NodeId| scene.node(id).map_or("?".into(), |d| d.name.clone());
    let symbols: Vec<String> = chain
        .iter()
        .map(|f| format!("M_{}", name(f.node)))
        .collect();
    let mut lines = vec![format!("World({}) = {}", name(node), symbols.join(" · "))];
    lines.extend(
        chain
            .iter()
            .zip(&symbols)
            .map(|(f, symbol)| format!("{symbol} = {}", matrix_text(&f.local))),
    );
    if let Some(last) = chain.last() {
        lines.push(format!(
            "World({}) = {}",
            name(node),
            matrix_text(&last.product)
        ));
    }
    lines
}

/// A sprite's image as a `data:` URI, read from the scene's folder; None when unreadable.
pub fn embedded_image(scene_dir: Option<&Path>, path: &str) -> Option<String> {
    let file = scene_dir.map_or_else(|| Path::new(path).to_path_buf(), |d| d.join(path));
    crate::model::svg::export::data_uri(&file).ok()
}

/// Refuse a figure whose sprite images are fifos, devices, sockets, folders or past
/// [`read_limit::IMAGE`] (a missing image is drawn without its sprite, as before). Only looks
/// (stat), once per distinct path.
pub fn check_sprite_files(scene: &Scene, scene_dir: Option<&Path>) -> crate::Result<()> {
    use crate::model::read_limit;
    let mut seen = rustc_hash::FxHashSet::default();
    for i in 0..scene.len() {
        let Shape::Sprite(sprite) = &scene.data_at(i).shape else {
            continue;
        };
        if !seen.insert(sprite.path.as_str()) {
            continue;
        }
        let file = scene_dir.map_or_else(
            || Path::new(&sprite.path).to_path_buf(),
            |d| d.join(&sprite.path),
        );
        match read_limit::check_regular(&file, read_limit::IMAGE) {
            Ok(_) | Err(crate::Error::Io { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
