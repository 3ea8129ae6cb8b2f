//! A finished plan painted as the node layer's egui shapes: the primitives of
//! `editor::view::node_layer` (as figures draw them), the bodies batched by `body.rs`, the
//! density images under them. Whole layers, composed drags (`nodes.rs`) and progressive plans
//! (`progressive.rs`) all end here.

use super::body::{NodePass, draw_node};
use crate::app::frame::FrameContext;
use crate::app::viewport::density::Density;
use crate::app::viewport::draw::text_width;
use crate::app::viewport::prim_shapes::prim_shapes;
use crate::app::viewport::screen::sr;
use crate::app::viewport::state::ViewportState;
use crate::editor::session::command::ViewOption;
use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{Ask, DrawList, Show};
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::node_layer::{PrimSink, node_layer};
use crate::editor::view::primitives::{Placed, Prim};
use egui::Rect;

/// Draw a finished plan into `out` (through `state.camera`, which must be the camera it was
/// planned for); the plan, the density images and the shear candidates go into `state`.
pub(crate) fn draw_built(
    ctx: &egui::Context,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
    mut density: Density,
    plan: FramePlan,
    out: &mut Vec<egui::Shape>,
) {
    // The density images under the shapes (as in a figure): a sea of sub-pixel nodes averages
    // to grey, which on top hid the shapes bigger than a pixel among them.
    density.plan = plan;
    let images = density.images(ctx, rect);
    let fill_size = state.layer.fill_size;
    let planned = (&density.plan, Some(images), &[][..]);
    state.layer.fill_size = draw_plan(ctx, rect, fx, state, planned, fill_size, out);
    state.shear_candidates.clear();
    state
        .shear_candidates
        .extend(density.plan.shear.iter().map(|&i| i as usize));
    state.density = density;
    state.layer.built += 1;
}

/// A plan's density images, the coarse grid's and the fine one's (None for an empty grid).
type DensityImages = [Option<egui::Shape>; 2];

/// The plan's primitives (`node_layer::node_prims`: the density images, links, kept nodes'
/// bodies and marks, names last) as shapes, painted as the node layer makes them (kept as well
/// when the viewport records them); returns the biggest fill mesh's size. `images` are the
/// plan's density images (None: the plan has none); the names keep clear of `taken`.
pub(super) fn draw_plan(
    ctx: &egui::Context,
    rect: Rect,
    fx: &FrameContext,
    state: &mut ViewportState,
    (plan, images, taken): (&FramePlan, Option<DensityImages>, &[[f64; 4]]),
    (vertices, indices): (usize, usize),
    out: &mut Vec<egui::Shape>,
) -> (usize, usize) {
    let view = (state.camera, sr(rect));
    let mut fill = egui::Mesh::default();
    fill.reserve_triangles(indices / 3);
    fill.reserve_vertices(vertices);
    let mut pass = NodePass {
        ctx,
        fx,
        fill,
        out: std::mem::take(out),
        fill_size: (0, 0),
    };
    let density = images.is_some();
    let images = images.unwrap_or_default();
    let mut recorded = state.layer.recording.then(Vec::new);
    let textures = &mut state.textures;
    let previous = std::mem::take(&mut state.layer.list);
    let mut sink = |prim: Prim| {
        match &prim {
            Prim::Body {
                index,
                placed: Some(Placed { to_screen, shape }),
            } => draw_node(&mut pass, (*index as usize, to_screen, shape), textures),
            Prim::Body { .. } => {}
            Prim::Density { coarse } => {
                pass.flush();
                pass.out.extend(images[usize::from(!coarse)].clone());
            }
            other => {
                pass.flush();
                prim_shapes(ctx, other, &mut pass.out);
            }
        }
        if let Some(recorded) = &mut recorded {
            recorded.push(prim.into_owned());
        }
    };
    let list = layer_of(ctx, (plan, density, taken), view, fx, &previous, &mut sink);
    pass.flush();
    *out = pass.out;
    state.layer.list = list;
    state.layer.prims = recorded.unwrap_or_default();
    pass.fill_size
}

/// The plan's node layer as the viewport shows it (`editor::view::node_layer`, as figures
/// draw it), its primitives handed to `sink`: names measured with egui's font, kept where the
/// `previous` frame had them where they can be and clear of `taken`; the primary selection's
/// axes left to its handles.
fn layer_of(
    ctx: &egui::Context,
    (plan, density, taken): (&FramePlan, bool, &[[f64; 4]]),
    view: (Camera, ScreenRect),
    fx: &FrameContext,
    previous: &DrawList,
    sink: PrimSink,
) -> DrawList {
    let width = text_width(ctx);
    let ask = Ask {
        is_selected: &|id| fx.is_selected(id),
        text_width: &width,
        taken,
    };
    let scene = fx.scene;
    node_layer(
        scene,
        plan,
        view,
        (viewport_show(fx), &ask),
        (previous, density),
        sink,
    )
}

/// What the viewport shows of the nodes, from the view options.
fn viewport_show(fx: &FrameContext) -> Show {
    let options = fx.view;
    Show {
        axes: options.shows(ViewOption::Axes),
        names: options.shows(ViewOption::Names),
        selection: true,
        // The primary selection shows its axes as the handles instead.
        handles_on: fx.selected_ids().last().copied(),
    }
}
