//! Figures: what the viewport teaches, as an SVG (and, through `png.rs`, a PNG drawn from that
//! same SVG, so the two never disagree). The scene framed in a chosen size, with optional
//! layers (grid, axes, parent links, names, the shear overlay, the selection highlighted) and
//! a caption with the selection's matrix chain `World = M_a · M_b · … = W`. A figure is drawn
//! from the same frame the viewport paints: the same plan and level of detail (`detail.rs`),
//! draw list and primitives (`primitives.rs`, written as SVG by `write.rs`), palette
//! (`palette.rs` one folder up) and text widths (`font.rs`: the font that draws the text), so
//! it shows what the viewport shows, primitive for primitive. No window needed.

pub mod big;
pub mod font;
pub mod frames;
mod layers;
mod options;
mod overlays;
pub mod palette;
pub mod png;
mod write;

use font::text_width;
pub use layers::Layers;
pub use options::FigureOptions;
pub use overlays::figure_overlay_prims;
use write::{FONTS, paint};

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{Ask, DrawList, Show};
use crate::editor::view::figure::big::plan_figure;
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::geometry::{clip_segment, world_bounds};
use crate::editor::view::node_layer::{PrimSink, node_layer, node_prims};
use crate::editor::view::numbers::format_fixed;
use crate::editor::view::overlay::{shear_overlay_among, shear_overlay_on_screen};
use crate::editor::view::primitives::{Prim, grid_prims, shear_prims};
use crate::model::scene::name::node_label;
use crate::model::scene::{NodeId, Scene, Shape};
use crate::model::svg::export::coord;
use crate::model::svg::xml::xml;
use glam::{DVec2, Vec2};
use std::fmt::Write as _;
use std::path::Path;

/// How much of the figure the content fills beyond the viewport's framing, which leaves 10 % a
/// side: the same margin. The framing used to be 0.8 × 0.85 = 68 %, which made a figure of a
/// wide scene look about twice its content's size.
pub const FIGURE_FIT: f64 = 1.0;

/// The figure's colours: the view's one palette.
use crate::editor::view::palette::{self as colors, Rgba};

/// Height of the caption band per line of text.
const CAPTION_LINE: f64 = 18.0;

fn text(out: &mut String, at: DVec2, size: f64, color: Rgba, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-family=\"{FONTS}\" font-size=\"{}\" {}>{}</text>",
        coord(at.x),
        coord(at.y),
        coord(size),
        paint("fill", color),
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
/// (a data URI or a path), or None to leave it out. Planned as a viewport frame is.
pub fn figure_svg(
    scene: &Scene,
    options: &FigureOptions,
    image_href: &dyn Fn(&str) -> Option<String>,
) -> String {
    figure_svg_with(scene, options, image_href, true)
}

/// [`figure_svg`], planned like a viewport frame or one element per node, whatever the size
/// (tests compare the two).
#[doc(hidden)]
pub fn figure_svg_with(
    scene: &Scene,
    options: &FigureOptions,
    image_href: &dyn Fn(&str) -> Option<String>,
    planned: bool,
) -> String {
    figure_svg_after(scene, options, image_href, planned, &DrawList::default()).0
}

/// One frame of a figure, as data: where it is drawn, the plan, the draw list and the
/// primitives written (the same the viewport paints at this camera and size).
#[derive(Clone, Debug)]
pub struct FigureFrame {
    /// The camera.
    pub camera: Camera,
    /// The rectangle the scene is drawn in.
    pub rect: ScreenRect,
    /// The frame plan (None: one element per node, unplanned).
    pub plan: Option<FramePlan>,
    /// The draw list.
    pub list: DrawList,
    /// Everything drawn, in order: the grid, the node layer, the shear overlay.
    pub prims: Vec<Prim<'static>>,
}

/// The figure's frame for `scene` (the one call a figure is drawn from): planned under the one
/// level-of-detail rule when `planned`, its names placed after `previous`'s.
pub fn figure_frame(
    scene: &Scene,
    options: &FigureOptions,
    planned: bool,
    previous: &DrawList,
) -> FigureFrame {
    let rect = scene_rect(scene, options);
    let camera = camera_for(scene, options, rect);
    let plan = planned.then(|| plan_figure(scene, options, camera, rect));
    let view = (camera, rect);
    let mut prims = Vec::new();
    if options.layers.grid {
        grid_prims(camera, rect, &text_width, &mut prims);
    }
    let list = match &plan {
        Some(plan) => planned_layer(
            scene,
            options,
            view,
            plan,
            (previous, &mut |p| prims.push(p.into_owned())),
        ),
        None => {
            let list = figure_draw_list_after(previous, scene, options, view);
            let links = if options.layers.links {
                all_links(scene, view)
            } else {
                Vec::new()
            };
            node_prims(scene, (&links, false), &list, view, &mut |p| {
                prims.push(p.into_owned())
            });
            list
        }
    };
    if options.layers.shear {
        let overlay = match &plan {
            Some(p) => {
                shear_overlay_among(scene, camera, rect, p.shear.iter().map(|&i| i as usize))
            }
            None => shear_overlay_on_screen(scene, camera, rect),
        };
        shear_prims(&overlay, rect, &text_width, &mut prims);
    }
    FigureFrame {
        camera,
        rect,
        plan,
        list,
        prims,
    }
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
    let (caption, band, _) = layout(scene, options);
    let frame = figure_frame(scene, options, planned, previous);
    let mut out = String::with_capacity(4096 + frame.prims.len() * 120);
    svg_open(&mut out, w, h, band);
    let view = (frame.camera, frame.rect);
    let writer = write::Writer {
        scene,
        view,
        plan: frame.plan.as_ref(),
        image_href,
    };
    writer.write(&mut out, &frame.prims);
    writer.write(&mut out, &figure_overlay_prims(scene, options, view));
    out.push_str("</svg>\n");
    for (k, l) in caption.iter().enumerate() {
        let at = DVec2::new(10.0, h - band + 6.0 + CAPTION_LINE * (k as f64 + 0.8));
        text(&mut out, at, 13.0, colors::NAME, l);
    }
    out.push_str("</svg>\n");
    (out, frame.list)
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
        "<rect width=\"{}\" height=\"{}\" {}/>",
        coord(w),
        coord(h),
        paint("fill", colors::BACKGROUND)
    );
    let _ = writeln!(
        out,
        "<svg x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" overflow=\"hidden\">",
        coord(w),
        coord(h - band)
    );
}

/// The figure's draw list: the same list the viewport draws at this camera and size.
pub fn figure_draw_list(
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
    planned: Option<&FramePlan>,
) -> DrawList {
    match planned {
        Some(plan) => planned_layer(
            scene,
            options,
            view,
            plan,
            (&DrawList::default(), &mut |_| {}),
        ),
        None => figure_draw_list_after(&DrawList::default(), scene, options, view),
    }
}

/// What a figure shows of the nodes: asked of `layers` (the selection, axes, names).
fn figure_show(options: &FigureOptions) -> Show {
    let layers = options.layers;
    Show {
        axes: layers.axes,
        names: layers.names,
        selection: layers.selection,
        handles_on: None,
    }
}

/// A planned figure's node layer (`node_layer`, as the viewport draws it): its draw list, its
/// primitives handed to `sink`.
fn planned_layer(
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
    plan: &FramePlan,
    (previous, sink): (&DrawList, PrimSink),
) -> DrawList {
    with_ask(options, |ask| {
        node_layer(
            scene,
            plan,
            view,
            (figure_show(options), ask),
            (previous, true),
            sink,
        )
    })
}

/// `f` given what a figure's draw list asks of its nodes: whether each is selected (a set:
/// everything may be selected in a big scene) and names measured with the figure's font.
fn with_ask<R>(options: &FigureOptions, f: impl FnOnce(&Ask) -> R) -> R {
    let selection: rustc_hash::FxHashSet<NodeId> = options.selection.iter().copied().collect();
    let is_selected = |id| selection.contains(&id);
    f(&Ask {
        is_selected: &is_selected,
        text_width: &text_width,
        taken: &[],
    })
}

/// An unplanned figure's draw list (every node), for the frame after `previous`.
fn figure_draw_list_after(
    previous: &DrawList,
    scene: &Scene,
    options: &FigureOptions,
    view: (Camera, ScreenRect),
) -> DrawList {
    let show = figure_show(options);
    with_ask(options, |ask| {
        DrawList::build_after(previous, scene, 0..scene.len(), view, show, ask, 0)
    })
}

/// Parent → child lines of an unplanned figure: one per node, clipped to the view.
fn all_links(scene: &Scene, (camera, rect): (Camera, ScreenRect)) -> Vec<(Vec2, Vec2)> {
    let clip = rect.expand(4.0);
    (0..scene.len())
        .filter_map(|i| {
            let p = scene.parent_index_at(i)?;
            let (from, to) = (scene.world_at(p).translation, scene.world_at(i).translation);
            let a = camera.to_screen_f64(rect, from.as_dvec2());
            let b = camera.to_screen_f64(rect, to.as_dvec2());
            clip_segment(a, b, clip)
        })
        .collect()
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
    let name = |id: NodeId| {
        scene
            .node(id)
            .map_or("?".into(), |d| node_label(&d.name, id))
    };
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
