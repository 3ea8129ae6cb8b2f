//! One draw list for the viewport and figures: for a camera and a size, which of the kept
//! nodes get an outline (plain or selected), their own axes, an origin dot and a name, under
//! one detail policy. The viewport paints the list with egui, a figure writes it as SVG (and
//! PNG); neither decides anything about detail itself, so the two cannot drift apart.
//!
//! The policy: every kept node is drawn (its fill or image); the selected ones always get
//! their details; otherwise details go to nodes big enough to read (or without a shape, whose
//! origin is all they are), at most [`DETAIL_LIMIT`] of them ([`DENSE_DETAIL_LIMIT`] in a dense
//! frame; in a frame of at most [`FEW_NODES`] every node gets them, and its name). Names never
//! overlap: the selection's names are placed first, then those the previous frame placed (each
//! where it was, if it is still free: a name keeps its place from frame to frame), then the
//! others in painting order, each at the first free place around its origin, or left out, at
//! most [`NAME_LIMIT`].

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::editor::view::geometry::{half_size, screen_extent};
use crate::editor::view::occlusion::{DENSE_DETAIL_LIMIT, OCCLUSION_FROM};
use crate::editor::view::primitives::TextWidth;
use crate::model::scene::{NodeId, Scene, Shape};
use glam::{DAffine2, DVec2};

/// Nodes drawn with outlines, axes and origins, at most; past this only fills are drawn.
pub const DETAIL_LIMIT: usize = 1_500;
/// Names written at most (more are unreadable anyway).
pub const NAME_LIMIT: usize = 500;
/// A node's outline and origin show from this screen size (px) up.
pub const DETAIL_FROM_PX: f64 = 8.0;
/// Its own axes show from this size up.
pub const AXES_FROM_PX: f64 = 16.0;
/// Its name shows from this size up (in a frame of more than [`FEW_NODES`]).
pub const NAME_FROM_PX: f64 = 20.0;
/// A frame keeping at most this many nodes details and names every one of them, however small.
pub const FEW_NODES: usize = 64;
/// Origin dots: radius (px) of a plain and of a selected node's.
pub const DOT_RADIUS: [f32; 2] = [2.5, 4.0];
/// Outline widths (px): plain, selected.
pub const OUTLINE_WIDTH: [f32; 2] = [1.0, 2.5];
/// Width (px) of a node's axis arrows.
pub const AXIS_WIDTH: f32 = 1.5;
/// Name text size (px) and where its baseline starts, from the origin.
pub const NAME_SIZE: f32 = 12.0;
/// Where a name's baseline starts, relative to the node's origin on screen.
pub const NAME_OFFSET: DVec2 = DVec2::new(6.0, -6.0);
/// A name that would overlap one already placed moves down a line at a time, this far …
const NAME_SHIFTS: usize = 3;
/// … and a selected one this far (it always shows).
const SELECTED_NAME_SHIFTS: usize = 200;
/// Lines above its place a name may go when everywhere else is taken.
const ABOVE_LINES: usize = 2;
/// The places a name that is not selected may take: right and left, each with its shifts,
/// and above.
pub const NAME_PLACES: usize = 2 * (NAME_SHIFTS + 1) + ABOVE_LINES;
/// One line of names, in pixels (a name box is 1.2 × the font size tall).
const NAME_LINE_PX: f64 = 15.0;
/// Origins this far (px) outside the view still get their dot and name.
const ORIGIN_MARGIN: f64 = 40.0;

/// What the list asks its caller: who is selected, and how wide a text is in the font that
/// draws it (egui's in the viewport, the embedded font's in a figure).
pub struct Ask<'a> {
    /// True for a selected node.
    pub is_selected: &'a dyn Fn(NodeId) -> bool,
    /// A text's width (px) at a font size.
    pub text_width: TextWidth<'a>,
    /// The boxes of names another list drawn in the same frame placed (the kept layer's, under
    /// a drag's moving subtrees): these names do not meet them.
    pub taken: &'a [[f64; 4]],
}

/// What the list is asked to show besides the nodes' bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// Each detailed node's own axes.
    pub axes: bool,
    /// Names.
    pub names: bool,
    /// Highlight the selection (a figure may turn it off; the viewport always does).
    pub selection: bool,
    /// The node whose handles are drawn: its axes are the handles, so the list leaves them out.
    pub handles_on: Option<NodeId>,
}

/// How a node's outline is stroked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outline {
    /// No outline (a sprite that is not selected, or a node past the detail budget).
    None,
    /// A thin dark line.
    Plain,
    /// The selection's highlight.
    Selected,
}

/// The marks of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    /// True when the node got details (outline, axes, dot, name as they apply).
    pub detail: bool,
    /// Its outline.
    pub outline: Outline,
    /// Its own x and y axes.
    pub axes: bool,
    /// Its origin dot, if any: index into [`DOT_RADIUS`] (0 plain, 1 selected).
    pub dot: Option<u8>,
}

/// One node of the list, in painting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its pre-order index in the scene.
    pub index: u32,
    /// What to draw besides its body.
    pub marks: Marks,
}

/// A name placed on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Name {
    /// The node's pre-order index.
    pub index: u32,
    /// Where its baseline starts, on screen.
    pub at: DVec2,
    /// The node's origin on screen (`at` − `origin` is where the name sits beside its node).
    pub origin: DVec2,
    /// Its measured width (px).
    pub width: f64,
}

/// What a frame or a figure draws of its kept nodes, in painting order, and the names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// Every kept node with its marks.
    pub entries: Vec<Entry>,
    /// The names to write, after everything else.
    pub names: Vec<Name>,
}

/// The facts about one node the policy looks at.
struct Facts {
    selected: bool,
    shapeless: bool,
    sprite: bool,
    pixel_size: f64,
    origin_in_view: bool,
    handles: bool,
}

/// The policy's running state over one list.
struct Policy {
    show: Show,
    limit: usize,
    detailed: usize,
    few: bool,
}

impl Policy {
    /// The marks of the next node, or None when it is not drawn at all (a shapeless node past
    /// the detail budget has nothing to show).
    fn marks(&mut self, f: &Facts) -> Option<Marks> {
        let budget = self.detailed < self.limit;
        if f.shapeless && !f.selected && !budget {
            return None;
        }
        let readable = f.pixel_size > DETAIL_FROM_PX || f.shapeless || self.few;
        let detail = f.selected || (budget && readable);
        if !detail {
            return Some(Marks {
                detail,
                outline: Outline::None,
                axes: false,
                dot: None,
            });
        }
        self.detailed += 1;
        let outline = match (f.selected, f.sprite) {
            (true, _) => Outline::Selected,
            (false, false) => Outline::Plain,
            (false, true) => Outline::None,
        };
        let big = f.selected || f.shapeless;
        Some(Marks {
            detail,
            outline,
            axes: self.show.axes && !f.handles && (big || f.pixel_size > AXES_FROM_PX),
            dot: f.origin_in_view.then_some(u8::from(f.selected)),
        })
    }

    /// True when the node's name is wanted (space permitting).
    fn wants_name(&self, f: &Facts, marks: &Marks) -> bool {
        self.show.names
            && marks.dot.is_some()
            && (f.selected || f.shapeless || self.few || f.pixel_size > NAME_FROM_PX)
    }
}

/// The box a name as a figure writes it takes at `at` (its baseline's start), measured with
/// the figure's font.
pub fn name_box(at: DVec2, name: &str) -> [f64; 4] {
    let width = crate::editor::view::figure::font::text_width(name, NAME_SIZE);
    text_box(at, width as f64)
}

/// The box a name `width` px wide at `at` (its baseline's start) takes: [left, top, right,
/// bottom], from the cap height to the descenders (two names on lines 15 px apart do not touch).
pub fn text_box(at: DVec2, width: f64) -> [f64; 4] {
    let size = NAME_SIZE as f64;
    [at.x, at.y - 0.9 * size, at.x + width, at.y + 0.3 * size]
}

/// Whether the box `b` lies inside `view`.
fn within(b: &[f64; 4], view: ScreenRect) -> bool {
    let (min, max) = (view.min.as_dvec2(), view.max.as_dvec2());
    b[0] >= min.x && b[1] >= min.y && b[2] <= max.x && b[3] <= max.y
}

fn overlaps(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

impl DrawList {
    /// The list for the kept nodes `indices` (pre-order, painting order) seen through `camera`
    /// in `rect`. `dense` is the number of nodes the frame keeps (a dense frame gets fewer
    /// details); `ask` answers for the selection and measures names.
    pub fn build(
        scene: &Scene,
        indices: impl Iterator<Item = usize>,
        view: (Camera, ScreenRect),
        show: Show,
        ask: &Ask,
        kept: usize,
    ) -> DrawList {
        let none = DrawList::default();
        Self::build_after(&none, scene, indices, view, show, ask, kept)
    }

    /// The boxes its names take.
    pub fn name_boxes(&self) -> Vec<[f64; 4]> {
        self.names.iter().map(|n| text_box(n.at, n.width)).collect()
    }

    /// [`DrawList::build`] for the frame after `previous`: its names keep their places
    /// beside their nodes where they still can (names coherent in time).
    pub fn build_after(
        previous: &DrawList,
        scene: &Scene,
        indices: impl Iterator<Item = usize>,
        (camera, rect): (Camera, ScreenRect),
        show: Show,
        ask: &Ask,
        kept: usize,
    ) -> DrawList {
        let indices: Vec<usize> = indices.collect();
        let limit = if kept >= OCCLUSION_FROM {
            DENSE_DETAIL_LIMIT
        } else {
            DETAIL_LIMIT
        };
        let mut policy = Policy {
            show,
            limit,
            detailed: 0,
            few: indices.len() <= FEW_NODES,
        };
        let mut list = DrawList::default();
        let mut wanted: Vec<(bool, u32, DVec2)> = Vec::new();
        let (lo, hi) = view_bounds(rect);
        for i in indices {
            let world = scene.world_at(i);
            if !world.is_finite() {
                continue;
            }
            let m = camera.node_to_screen_f64(rect, &world);
            let facts = facts(scene, i, &m, show, ask.is_selected, (lo, hi));
            let Some(marks) = policy.marks(&facts) else {
                continue;
            };
            if policy.wants_name(&facts, &marks) && !scene.data_at(i).name.is_empty() {
                wanted.push((facts.selected, i as u32, m.translation));
            }
            list.entries.push(Entry {
                index: i as u32,
                marks,
            });
        }
        list.names = place_names(scene, wanted, (&previous.names, rect), ask);
        list
    }
}

/// The view with the origin margin, as f64 corners.
fn view_bounds(rect: ScreenRect) -> (DVec2, DVec2) {
    let margin = DVec2::splat(ORIGIN_MARGIN);
    (rect.min.as_dvec2() - margin, rect.max.as_dvec2() + margin)
}

/// What the policy needs to know of node `i`, whose local → screen matrix is `m`.
fn facts(
    scene: &Scene,
    i: usize,
    m: &DAffine2,
    show: Show,
    is_selected: &dyn Fn(NodeId) -> bool,
    (lo, hi): (DVec2, DVec2),
) -> Facts {
    let data = scene.data_at(i);
    let id = scene.id_at(i);
    let origin = m.translation;
    Facts {
        selected: show.selection && is_selected(id),
        shapeless: data.shape == Shape::None,
        sprite: matches!(data.shape, Shape::Sprite(_)),
        pixel_size: screen_extent(m, half_size(&data.shape)).max_element() * 2.0,
        origin_in_view: origin.cmpge(lo).all() && origin.cmple(hi).all(),
        handles: show.handles_on == Some(id),
    }
}

/// Where a name may go beside its node's origin, in the order tried: right of it and a line at
/// a time below that (`tries` lines: names at one origin stack), then left of it likewise,
/// then above.
fn places(origin: DVec2, width: f64, tries: usize) -> impl Iterator<Item = DVec2> {
    let right = origin + NAME_OFFSET;
    let left = origin + DVec2::new(-NAME_OFFSET.x - width, NAME_OFFSET.y);
    let line = |k: usize| DVec2::new(0.0, NAME_LINE_PX * k as f64);
    let below = move |from: DVec2, lines: usize| (0..=lines).map(move |k| from + line(k));
    let above = (1..=ABOVE_LINES).map(move |k| right - line(k));
    below(right, tries)
        .chain(below(left, NAME_SHIFTS))
        .chain(above)
}

/// Place the wanted names (node, selected, origin on screen): the selection's first, then
/// those `previous` placed (tried first where they were beside their node), then the rest in
/// painting order, each left out when no place is free; returned in painting order.
fn place_names(
    scene: &Scene,
    mut wanted: Vec<(bool, u32, DVec2)>,
    (previous, view): (&[Name], ScreenRect),
    ask: &Ask,
) -> Vec<Name> {
    let before: rustc_hash::FxHashMap<u32, DVec2> = previous
        .iter()
        .map(|n| (n.index, n.at - n.origin))
        .collect();
    // A stable sort: selected first, then those shown before, each group in painting order.
    wanted.sort_by_key(|&(selected, index, _)| (!selected, !before.contains_key(&index)));
    let mut placed: Vec<[f64; 4]> = ask.taken.to_vec();
    let mut names = Vec::new();
    for (selected, index, origin) in wanted {
        if names.len() >= NAME_LIMIT && !selected {
            break;
        }
        // A selected name looks much further down, so it always shows.
        let name = &scene.data_at(index as usize).name;
        let tries = if selected {
            SELECTED_NAME_SHIFTS
        } else {
            NAME_SHIFTS
        };
        let width = (ask.text_width)(name, NAME_SIZE) as f64;
        let kept = before.get(&index).map(|offset| origin + *offset);
        // A free place inside the view (a name is not cut at the view's edge); a cut one only
        // for the selection (its name always shows) or a name wider than the view.
        let free = |whole: bool| {
            kept.into_iter()
                .chain(places(origin, width, tries))
                .find(|at| {
                    let b = text_box(*at, width);
                    (!whole || within(&b, view)) && !placed.iter().any(|p| overlaps(p, &b))
                })
        };
        let may_cut = selected || width > f64::from(view.max.x - view.min.x);
        let Some(at) = free(true).or_else(|| may_cut.then(|| free(false)).flatten()) else {
            continue;
        };
        placed.push(text_box(at, width));
        names.push(Name {
            index,
            at,
            origin,
            width,
        });
    }
    names.sort_by_key(|n| n.index);
    names
}

#[cfg(test)]
mod tests;
