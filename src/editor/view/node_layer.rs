//! A frame's node layer, for the viewport and figures alike: from a frame plan, the nodes that
//! show (those wholly under opaque shapes drawn after them left out when the plan keeps many),
//! their draw list (one detail policy, names measured by the caller's font) and the primitives
//! both renderers draw. The viewport paints the result with egui, a figure writes it as SVG.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::draw_list::{Ask, DrawList, Show};
use crate::editor::view::frame_plan::FramePlan;
use crate::editor::view::occlusion::{OCCLUSION_FROM, visible_nodes};
use crate::editor::view::primitives::{Prim, node_prims};
use crate::model::scene::Scene;
use rustc_hash::FxHashSet;

/// The node layer of `plan` seen through `view`: its draw list (names kept where `previous`
/// had them where they can be) and its primitives (the density images first when `density`).
pub fn node_layer(
    scene: &Scene,
    plan: &FramePlan,
    view: (Camera, ScreenRect),
    (show, ask): (Show, &Ask),
    previous: &DrawList,
    density: bool,
) -> (DrawList, Vec<Prim>) {
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
    let mut prims = Vec::with_capacity(list.entries.len() + plan.links.len() + 2);
    node_prims(scene, (&plan.links, density), &list, view, &mut prims);
    (list, prims)
}
