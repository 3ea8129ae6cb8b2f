//! A frame's node layer, for the viewport and figures alike: from a frame plan, the nodes that
//! show (those wholly under opaque shapes drawn after them left out when the plan keeps many),
//! their draw list (one detail policy, names measured by the caller's font) and the primitives
//! both renderers draw. The primitives go to a sink as they are made: the viewport paints each
//! at once with egui (a node's shape on screen computed once, for its body and its outline, and
//! no outline or name copied), a figure keeps them and writes them as SVG.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{AXIS_WIDTH, DOT_RADIUS, NAME_SIZE, OUTLINE_WIDTH};
use crate::editor::view::draw_list::{Ask, DrawList, Entry, Outline, Show};
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::geometry::ScreenShape;
use crate::editor::view::occlusion::{OCCLUSION_FROM, visible_nodes};
use crate::editor::view::palette;
use crate::editor::view::primitives::{Placed, Prim, arrow_lines};
use crate::model::scene::Scene;
use glam::{DVec2, Vec2};
use rustc_hash::FxHashSet;
use std::borrow::Cow;

/// Where the node layer's primitives go, in painting order.
pub type PrimSink<'s> = &'s mut dyn FnMut(Prim<'_>);

/// The node layer of `plan` seen through `view`: its draw list (names kept where `previous`
/// had them where they can), its primitives handed to `sink` (the density images first when
/// `density`).
pub fn node_layer(
    scene: &Scene,
    plan: &FramePlan,
    view: (Camera, ScreenRect),
    (show, ask): (Show, &Ask),
    (previous, density): (&DrawList, bool),
    sink: PrimSink,
) -> DrawList {
    let shown = (plan.draw.len() >= OCCLUSION_FROM).then(|| {
        // The selection is never hidden.
        let selected: FxHashSet<u32> = (plan.draw.iter().copied())
            .filter(|&i| show.selection && (ask.is_selected)(scene.id_at(i as usize)))
            .collect();
        visible_nodes(view.1, &plan.draw, &plan.screen, &selected)
    });
    let kept = (plan.draw.iter().enumerate())
        .filter(|(k, _)| shown.as_ref().is_none_or(|shown| shown[*k]))
        .map(|(_, &i)| i as usize);
    let planned = plan.draw.len();
    let list = DrawList::build_after(previous, scene, kept, view, show, ask, planned);
    node_prims(scene, (&plan.links, density), &list, view, sink);
    list
}

/// The node layer's primitives: the density images, the parent links, then each entry of the
/// draw list (its body, then its outline, axes and origin dot as marked), and the names last.
pub fn node_prims(
    scene: &Scene,
    (links, density): (&[(Vec2, Vec2)], bool),
    list: &DrawList,
    (camera, rect): (Camera, ScreenRect),
    sink: PrimSink,
) {
    if density {
        sink(Prim::Density { coarse: true });
        sink(Prim::Density { coarse: false });
    }
    for &(a, b) in links {
        let (width, color) = (1.0, palette::LINK);
        sink(Prim::Line { a, b, width, color });
    }
    let mut shape = ScreenShape::new();
    for entry in &list.entries {
        let i = entry.index as usize;
        let m = camera.node_to_screen_f64(rect, &scene.world_at(i));
        shape.compute(&scene.data_at(i).shape, &m, rect);
        let placed = Some(Placed {
            to_screen: &m,
            shape: &shape,
        });
        sink(Prim::Body {
            index: entry.index,
            placed,
        });
        if entry.marks.detail {
            marks_prims(*entry, (&m, &shape), rect, sink);
        }
    }
    for name in &list.names {
        sink(Prim::Text {
            at: name.at.as_vec2(),
            size: NAME_SIZE,
            color: palette::NAME,
            text: Cow::Borrowed(&scene.data_at(name.index as usize).name),
            halo: Some(palette::NAME_HALO),
        });
    }
}

/// A detailed node's outline, axes (arrows) and origin dot, as the draw list marked them.
fn marks_prims(
    entry: Entry,
    (m, shape): (&glam::DAffine2, &ScreenShape),
    rect: ScreenRect,
    sink: PrimSink,
) {
    let stroke = match entry.marks.outline {
        Outline::None => None,
        Outline::Plain => Some((OUTLINE_WIDTH[0], palette::OUTLINE)),
        Outline::Selected => Some((OUTLINE_WIDTH[1], palette::SELECTED)),
    };
    if let Some((width, color)) = stroke
        && shape.outline.len() > 2
    {
        let points = Cow::Borrowed(&shape.outline[..]);
        sink(Prim::Polygon {
            points,
            width,
            color,
        });
    }
    if entry.marks.axes {
        let origin = m.translation;
        for (tip, color) in [(DVec2::X, palette::LOCAL_X), (DVec2::Y, palette::LOCAL_Y)] {
            let to = m.transform_point2(tip);
            for (a, b) in arrow_lines(rect, (origin, to)) {
                let width = AXIS_WIDTH;
                sink(Prim::Line { a, b, width, color });
            }
        }
    }
    if let Some(kind) = entry.marks.dot {
        sink(Prim::Circle {
            center: m.translation.as_vec2(),
            radius: DOT_RADIUS[kind as usize],
            width: 0.0,
            color: palette::DOT,
        });
    }
}
