//! A lesson pointing at the editor, painted over the whole window (as GDQuest's Godot Tours
//! do, in graft's way): the step's `point:` targets one after the other, each highlighted with
//! a bubble and the rest dimmed until the learner acts (the step's state changes, or they press
//! inside the highlight); and on **Show the gesture** a ghost pointer that plays each
//! `gesture: drag FROM -> TO` (about 1.5 s, repeatable) without doing it. Targets resolve to
//! the rects widgets registered this frame (`ui_targets.rs`) or, for a node in the viewport,
//! to its shape on screen. Paints only: nothing here changes the session.

use super::ui_targets::{self, Key, UiTargets};
use super::viewport::ViewportState;
use crate::editor::lesson::ValueSpace;
use crate::editor::lesson::targets::Target;
use crate::editor::session::Editor;
use crate::editor::session::lesson::LessonRun;
use crate::editor::session::settings::ViewOptions;
use crate::model::scene::NodeId;
use egui::{Color32, Context, Id, Pos2, Rect, Stroke, pos2, vec2};
use std::path::PathBuf;

/// How long the ghost pointer takes for one gesture, in seconds.
pub const GESTURE_SECONDS: f64 = 1.5;
/// The part of a gesture spent pressing at its start, and from when it releases at its end.
const PRESS_UNTIL: f32 = 0.2;
const RELEASE_FROM: f32 = 0.85;
/// Frames after an action in which the state may still change because of it.
const SETTLE_FRAMES: u8 = 2;
/// The highlight's colour.
const HIGHLIGHT: Color32 = Color32::from_rgb(255, 190, 60);
/// How dark the rest of the window gets.
const DIM: Color32 = Color32::from_black_alpha(120);

/// What the overlay painted in the last frame (tests read it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Painted {
    /// The highlighted rect of the current point (None: nothing highlighted).
    pub highlight: Option<Rect>,
    /// The bubble's text.
    pub bubble: Option<String>,
    /// Where the bubble was painted.
    pub bubble_rect: Option<Rect>,
    /// The rest of the window was dimmed.
    pub dimmed: bool,
    /// Where the ghost pointer's tip was, while a gesture plays.
    pub ghost: Option<Pos2>,
    /// The gesture's start and end rects, while it plays.
    pub gesture: Option<(Rect, Rect)>,
}

/// What changes when the learner acts: the scene, the selection, the toggles, the view, the
/// clip, the checklist.
#[derive(Clone, Debug, PartialEq)]
struct Fingerprint {
    revision: u64,
    selection: u64,
    keep_world: bool,
    view: ViewOptions,
    clip: (bool, bool),
    checklist: Vec<bool>,
}

impl Fingerprint {
    fn of(editor: &Editor, run: &LessonRun) -> Self {
        Self {
            revision: editor.doc().revision(),
            selection: editor.selection_version(),
            keep_world: editor.keep_world(),
            view: editor.view().clone(),
            clip: (editor.timeline().playing(), editor.timeline().trails()),
            checklist: run.checklist().iter().map(|(_, holds)| *holds).collect(),
        }
    }
}

/// The overlay's memory between frames (in egui's memory: it is the window's, not the
/// session's).
#[derive(Clone, Debug, Default)]
struct OverlayState {
    /// The lesson and step it is pointing for (a new step starts from its first point).
    step: Option<(PathBuf, usize)>,
    /// The point shown (past the last: none).
    point: usize,
    /// The state when the current point was first shown exactly.
    baseline: Option<Fingerprint>,
    /// Frames left in which the baseline is taken again: what the last action changes a frame
    /// late (the checklist is evaluated at the start of the next frame) is not a new action.
    settle: u8,
    /// When Show the gesture was pressed (egui's clock).
    gesture_started: Option<f64>,
    /// The rows the hierarchy is asked to bring into view at the next frame (a gesture's end
    /// folded under a collapsed parent or scrolled away), and whether it was asked already in
    /// this play.
    reveal: Vec<NodeId>,
    revealed: bool,
    painted: Painted,
}

fn state_id() -> Id {
    Id::unique("graft-lesson-overlay")
}

fn load(ctx: &Context) -> OverlayState {
    ctx.data(|d| d.get_temp::<OverlayState>(state_id()))
        .unwrap_or_default()
}

fn store(ctx: &Context, state: OverlayState) {
    ctx.data_mut(|d| d.insert_temp(state_id(), state));
}

/// Play the step's gestures from the start (the lesson panel's **Show the gesture**).
pub fn show_gesture(ctx: &Context) {
    let mut state = load(ctx);
    state.gesture_started = Some(ctx.input(|i| i.time));
    state.revealed = false;
    store(ctx, state);
    ctx.request_repaint();
}

/// Show the step's points again from the first (**Where?**, Reset step).
pub fn point_again(ctx: &Context) {
    let mut state = load(ctx);
    state.point = 0;
    state.baseline = None;
    state.settle = SETTLE_FRAMES;
    store(ctx, state);
    ctx.request_repaint();
}

/// True while a gesture is playing.
pub fn gesture_playing(ctx: &Context) -> bool {
    load(ctx).gesture_started.is_some()
}

/// The rows a gesture needs shown, once: the hierarchy expands their parents and scrolls to
/// them before it draws (the gesture then plays from its start).
pub fn take_rows_to_reveal(ctx: &Context) -> Vec<NodeId> {
    let mut state = load(ctx);
    if state.reveal.is_empty() {
        return Vec::new();
    }
    let rows = std::mem::take(&mut state.reveal);
    store(ctx, state);
    rows
}

/// What the overlay painted in the last frame.
pub fn painted(ctx: &Context) -> Painted {
    load(ctx).painted
}

/// A target resolved to a rect on screen.
enum Resolved {
    /// The target itself.
    Exact(Rect),
    /// A step before it (the node's row while another node is selected, the menu while it is
    /// closed), with what to do there.
    Before(Rect, String),
}

/// What the overlay needs to resolve targets this frame.
struct Resolver<'a> {
    editor: &'a Editor,
    run: &'a LessonRun,
    targets: &'a UiTargets,
    viewport: &'a ViewportState,
}

impl Resolver<'_> {
    fn node(&self, name: &str) -> Option<NodeId> {
        self.run.resolve(self.editor.doc().scene(), name)
    }

    /// Where `target` is on screen this frame, if it is shown.
    fn resolve(&self, target: &Target) -> Option<Resolved> {
        let exact = |key: Key| self.targets.rect(&key).map(Resolved::Exact);
        match target {
            Target::Row(name) => exact(Key::Row(self.node(&name.text)?)),
            Target::Node(name) => {
                node_rect(self.editor, self.viewport, self.node(&name.text)?).map(Resolved::Exact)
            }
            Target::Field { node, frame, row } => {
                let id = self.node(&node.text)?;
                if self.editor.primary() == Some(id) {
                    let column = match frame {
                        ValueSpace::World => "world",
                        ValueSpace::Local => "local",
                    };
                    return exact(Key::Field(column, row.name()));
                }
                let row_rect = self.targets.rect(&Key::Row(id))?;
                Some(Resolved::Before(
                    row_rect,
                    format!("Select {} first", node.text),
                ))
            }
            Target::Control(control) => exact(Key::Control(*control)),
            Target::Menu { menu, item: None } => exact(Key::Menu(menu)),
            Target::Menu {
                menu,
                item: Some(item),
            } => exact(Key::MenuItem(menu, item)).or_else(|| {
                let button = self.targets.rect(&Key::Menu(menu))?;
                Some(Resolved::Before(button, format!("Open the {menu} menu")))
            }),
        }
    }
}

/// A node's shape on screen (at least a small square round its origin), within the viewport.
fn node_rect(editor: &Editor, viewport: &ViewportState, id: NodeId) -> Option<Rect> {
    use crate::editor::view::geometry::node_bounds;
    let scene = editor.doc().scene();
    let (world, data) = (scene.world(id).ok()?, scene.node(id).ok()?);
    let (camera, area) = (viewport.camera, viewport.last_rect);
    let screen = super::viewport::sr(area);
    let origin = camera.to_screen(screen, world.translation);
    let mut rect = Rect::from_center_size(pos2(origin.x, origin.y), vec2(28.0, 28.0));
    if let Some((lo, hi)) = node_bounds(&world, &data.shape) {
        for corner in [lo, hi, glam::dvec2(lo.x, hi.y), glam::dvec2(hi.x, lo.y)] {
            let p = camera.to_screen_f64(screen, corner);
            rect.extend_with(pos2(p.x as f32, p.y as f32));
        }
    }
    let shown = rect.intersect(area);
    (shown.is_positive() && rect.is_finite()).then_some(shown)
}

/// Paint the lesson's pointing over the window (every frame, after every panel and window).
pub fn paint(ctx: &Context, editor: &Editor, viewport: &ViewportState) {
    let targets = ui_targets::finish_frame(ctx);
    let mut state = load(ctx);
    state.painted = Painted::default();
    let run = editor
        .lesson()
        .filter(|run| !run.showing_intro() && run.summary(editor.lesson_progress()).is_none())
        .filter(|_| editor.pending_guard().is_none());
    let Some(run) = run else {
        store(ctx, OverlayState::default());
        return;
    };
    let step = Some((run.lesson().path.clone(), run.step_index()));
    if state.step != step {
        // The step's start changes the state for a frame or two (its checklist is evaluated at
        // the next frame's start): none of that is the learner acting.
        state = OverlayState {
            step,
            settle: SETTLE_FRAMES,
            ..OverlayState::default()
        };
    }
    let scene = Resolver {
        editor,
        run,
        targets: &targets,
        viewport,
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Tooltip,
        Id::unique("graft-lesson-overlay-layer"),
    ));
    let panel = targets.rect(&Key::LessonPanel);
    if !gesture(ctx, &scene, &mut state, &painter, panel) {
        point(ctx, &scene, &mut state, &painter, panel);
    }
    store(ctx, state);
}

/// The current point: advance past it once the learner acted, else highlight it.
fn point(
    ctx: &Context,
    scene: &Resolver,
    state: &mut OverlayState,
    painter: &egui::Painter,
    panel: Option<Rect>,
) {
    let points = &scene.run.step().pointing.points;
    let Some(point) = points.get(state.point).filter(|_| !scene.run.step_done()) else {
        return;
    };
    let now = Fingerprint::of(scene.editor, scene.run);
    let (rect, text) = match scene.resolve(&point.target) {
        Some(Resolved::Exact(rect)) => {
            let pressed = ctx.input(|i| {
                i.pointer.primary_pressed()
                    && i.pointer.press_origin().is_some_and(|p| rect.contains(p))
            });
            let acted = state.settle == 0 && state.baseline.as_ref().is_some_and(|b| *b != now);
            if pressed || acted {
                state.point += 1;
                state.baseline = None;
                state.settle = SETTLE_FRAMES;
                ctx.request_repaint();
                return;
            }
            state.settle = state.settle.saturating_sub(1);
            state.baseline = Some(now);
            (rect, point.text())
        }
        Some(Resolved::Before(rect, what)) => {
            state.baseline = None;
            (rect, what)
        }
        None => {
            state.baseline = None;
            return;
        }
    };
    let holes: Vec<Rect> = std::iter::once(rect.expand(4.0)).chain(panel).collect();
    dim(painter, ctx.content_rect(), &holes);
    outline(painter, rect);
    let others = other_targets(scene.targets, rect);
    let screen = ctx.content_rect();
    state.painted.bubble_rect = Some(bubble(painter, screen, rect, &text, &others));
    state.painted.highlight = Some(rect);
    state.painted.bubble = Some(text);
    state.painted.dimmed = true;
}

/// Every registered target's rect but the highlight's own (and its parts): what a bubble must
/// not hide.
fn other_targets(targets: &UiTargets, highlight: Rect) -> Vec<Rect> {
    let own = highlight.expand(0.5);
    let others = targets.iter().map(|(_, r)| r);
    others.filter(|r| !own.contains_rect(*r)).collect()
}

/// While a gesture plays: its two ends outlined, the rest dimmed, the ghost pointer on its
/// way. False when none plays.
fn gesture(
    ctx: &Context,
    scene: &Resolver,
    state: &mut OverlayState,
    painter: &egui::Painter,
    panel: Option<Rect>,
) -> bool {
    let Some(started) = state.gesture_started else {
        return false;
    };
    let gestures = &scene.run.step().pointing.gestures;
    let elapsed = (ctx.input(|i| i.time) - started).max(0.0);
    let k = (elapsed / GESTURE_SECONDS) as usize;
    let Some(g) = gestures.get(k) else {
        state.gesture_started = None;
        ctx.request_repaint();
        return false;
    };
    ctx.request_repaint();
    let (Some(Resolved::Exact(from)), Some(Resolved::Exact(to))) =
        (scene.resolve(&g.from), scene.resolve(&g.to))
    else {
        let hidden = hidden_rows(scene, [&g.from, &g.to]);
        if !state.revealed && !hidden.is_empty() {
            // Unfold and scroll to the rows, then play from the start.
            (state.reveal, state.revealed) = (hidden, true);
            state.gesture_started = Some(ctx.input(|i| i.time));
            return true;
        }
        let names = [&g.from, &g.to].map(|t| t.node().map(|n| n.text.clone()));
        let note = not_shown_note(names, &hidden.is_empty());
        let at = panel.unwrap_or(ctx.content_rect());
        let others = other_targets(scene.targets, at);
        let bubble_rect = bubble(painter, ctx.content_rect(), at, &note, &others);
        state.painted.bubble_rect = Some(bubble_rect);
        state.painted.bubble = Some(note);
        return true;
    };
    let t = ((elapsed / GESTURE_SECONDS).fract()) as f32;
    let holes: Vec<Rect> = [from.expand(4.0), to.expand(4.0)]
        .into_iter()
        .chain(panel)
        .collect();
    dim(painter, ctx.content_rect(), &holes);
    outline(painter, from);
    outline(painter, to);
    let (a, b) = (grab_point(from), grab_point(to));
    path(painter, a, b);
    let tip = ghost_at(from, to, t);
    let carrying = g.from.node().map(|n| n.text.as_str());
    ghost(painter, tip, t, carrying);
    state.painted.ghost = Some(tip);
    state.painted.gesture = Some((from, to));
    state.painted.dimmed = true;
    true
}

/// The nodes of these row targets whose rows are not drawn this frame (folded or scrolled
/// away).
fn hidden_rows<'t>(scene: &Resolver, targets: [&'t Target; 2]) -> Vec<NodeId> {
    let row = |t: &'t Target| match t {
        Target::Row(name) => scene.node(&name.text),
        _ => None,
    };
    let hidden = targets.into_iter().filter_map(row);
    hidden
        .filter(|id| scene.targets.rect(&Key::Row(*id)).is_none())
        .collect()
}

/// What the panel says when a gesture's ends cannot be shown after the rows were unfolded and
/// scrolled to: what to open.
fn not_shown_note(names: [Option<String>; 2], rows_shown: &bool) -> String {
    let named: Vec<String> = names.into_iter().flatten().collect();
    let what = if named.is_empty() {
        "the gesture's places".to_string()
    } else {
        named.join(" and ")
    };
    if *rows_shown {
        format!("Show the gesture: open {what} first (a menu, or select the node)")
    } else {
        format!(
            "Show the gesture: the rows of {what} are not shown in the hierarchy (clear its filter)"
        )
    }
}

/// Where the ghost pointer grabs a rect: a little into it from the left, at mid-height (a
/// row's name is at its left).
pub fn grab_point(rect: Rect) -> Pos2 {
    pos2(
        rect.left() + (rect.width() * 0.35).min(60.0),
        rect.center().y,
    )
}

/// The ghost pointer's tip at `t` (0 to 1) of a drag from `from` to `to`: it presses at the
/// start, moves (easing in and out), and releases at the end.
pub fn ghost_at(from: Rect, to: Rect, t: f32) -> Pos2 {
    let s = ((t - PRESS_UNTIL) / (RELEASE_FROM - PRESS_UNTIL)).clamp(0.0, 1.0);
    let eased = s * s * (3.0 - 2.0 * s);
    grab_point(from).lerp(grab_point(to), eased)
}

/// Darken `screen` except the `holes`: the screen cut into a grid by the holes' edges, each
/// cell outside every hole filled.
fn dim(painter: &egui::Painter, screen: Rect, holes: &[Rect]) {
    let mut xs = vec![screen.left(), screen.right()];
    let mut ys = vec![screen.top(), screen.bottom()];
    for hole in holes {
        let hole = hole.intersect(screen);
        xs.extend([hole.left(), hole.right()]);
        ys.extend([hole.top(), hole.bottom()]);
    }
    for v in [&mut xs, &mut ys] {
        v.retain(|c| c.is_finite());
        v.sort_by(f32::total_cmp);
        v.dedup();
    }
    for x in xs.windows(2) {
        for y in ys.windows(2) {
            let cell = Rect::from_min_max(pos2(x[0], y[0]), pos2(x[1], y[1]));
            if cell.is_positive() && !holes.iter().any(|h| h.contains(cell.center())) {
                painter.rect_filled(cell, 0.0, DIM);
            }
        }
    }
}

/// The highlight's frame round `rect`.
fn outline(painter: &egui::Painter, rect: Rect) {
    let stroke = Stroke::new(2.5, HIGHLIGHT);
    painter.rect_stroke(rect.expand(3.0), 4.0, stroke, egui::StrokeKind::Outside);
}

/// The bubble: `text` next to the highlight, inside the window, where it hides neither the
/// highlight nor any other registered target (`others`): see [`bubble_place`].
fn bubble(painter: &egui::Painter, screen: Rect, rect: Rect, text: &str, others: &[Rect]) -> Rect {
    let font = egui::FontId::proportional(14.0);
    let galley = painter.layout(text.to_string(), font, Color32::BLACK, 300.0);
    let size = galley.size() + vec2(16.0, 10.0);
    let at = bubble_place(screen, rect, size, others);
    let x = at.x.clamp(
        screen.left() + 4.0,
        (screen.right() - size.x - 4.0).max(4.0),
    );
    let y = at.y.clamp(
        screen.top() + 4.0,
        (screen.bottom() - size.y - 4.0).max(4.0),
    );
    let frame = Rect::from_min_size(pos2(x, y), size);
    painter.rect_filled(frame, 6.0, HIGHLIGHT);
    painter.galley(frame.min + vec2(8.0, 5.0), galley, Color32::BLACK);
    frame
}

/// Where a bubble of `size` goes beside the highlight `rect`: to its right (a row's neighbours
/// stay visible), below, above or to its left (above first near the window's bottom), the
/// first of those that fits the window and hides no other target; else, moved on past the
/// targets it would hide, the one moved least (a field's bubble goes past its row's other
/// column rather than over the next row); else the first that fits.
pub fn bubble_place(screen: Rect, rect: Rect, size: egui::Vec2, others: &[Rect]) -> Pos2 {
    let gap = 10.0;
    let middle = rect.center().y - size.y / 2.0;
    let right = (pos2(rect.right() + gap, middle), vec2(1.0, 0.0));
    let left = (pos2(rect.left() - gap - size.x, middle), vec2(-1.0, 0.0));
    let below = (pos2(rect.left(), rect.bottom() + gap), vec2(0.0, 1.0));
    let above = (
        pos2(rect.left(), rect.top() - gap - size.y),
        vec2(0.0, -1.0),
    );
    let low = rect.center().y > screen.top() + screen.height() * 0.75;
    let order = if low {
        [above, right, left, below]
    } else {
        [right, below, above, left]
    };
    let fits = |p: Pos2| {
        screen
            .shrink(4.0)
            .contains_rect(Rect::from_min_size(p, size))
    };
    let own = rect.expand(3.0);
    let hidden = |p: Pos2| {
        let b = Rect::from_min_size(p, size);
        let mut hides = others.iter().chain(std::iter::once(&own));
        hides.find(|o| b.intersects(**o)).copied()
    };
    if let Some((p, _)) = order.iter().find(|(p, _)| fits(*p) && hidden(*p).is_none()) {
        return *p;
    }
    let moved_on = order.iter().filter_map(|&(start, dir)| {
        let mut p = start;
        for _ in 0..=others.len() {
            let Some(o) = hidden(p) else {
                return fits(p).then_some(((p - start).length(), p));
            };
            p = match (dir.x > 0.0, dir.x < 0.0, dir.y > 0.0) {
                (true, _, _) => pos2(o.right() + gap, p.y),
                (_, true, _) => pos2(o.left() - gap - size.x, p.y),
                (_, _, true) => pos2(p.x, o.bottom() + gap),
                _ => pos2(p.x, o.top() - gap - size.y),
            };
        }
        None
    });
    let nearest = moved_on.min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, p)| p);
    nearest
        .or_else(|| order.iter().map(|(p, _)| *p).find(|p| fits(*p)))
        .unwrap_or(above.0)
}

/// The drag's path: a dashed line with an arrowhead at its end.
fn path(painter: &egui::Painter, a: Pos2, b: Pos2) {
    let color = HIGHLIGHT.gamma_multiply(0.8);
    painter.add(egui::Shape::dashed_line(
        &[a, b],
        Stroke::new(2.0, color),
        8.0,
        5.0,
    ));
    let dir = (b - a).normalized();
    if dir.is_finite() && dir != egui::Vec2::ZERO {
        let side = dir.rot90() * 6.0;
        let head = vec![b, b - dir * 12.0 + side, b - dir * 12.0 - side];
        painter.add(egui::Shape::convex_polygon(head, color, Stroke::NONE));
    }
}

/// The ghost pointer: an arrow with its tip at `tip`, a ring while it holds the button down,
/// and the name of what it carries.
fn ghost(painter: &egui::Painter, tip: Pos2, t: f32, carrying: Option<&str>) {
    let down = t > PRESS_UNTIL * 0.5 && t < RELEASE_FROM + (1.0 - RELEASE_FROM) * 0.5;
    if down {
        painter.circle_stroke(tip, 9.0, Stroke::new(2.0, HIGHLIGHT));
        if let Some(name) = carrying.filter(|_| t > PRESS_UNTIL) {
            let font = egui::FontId::proportional(13.0);
            let at = tip + vec2(18.0, 10.0);
            let galley = painter.layout_no_wrap(name.to_string(), font, Color32::WHITE);
            let chip = Rect::from_min_size(at, galley.size() + vec2(10.0, 4.0));
            painter.rect_filled(chip, 3.0, Color32::from_black_alpha(170));
            painter.galley(at + vec2(5.0, 2.0), galley, Color32::WHITE);
        }
    }
    let arrow = [
        (0.0, 0.0),
        (0.0, 17.0),
        (4.5, 13.0),
        (7.5, 19.5),
        (10.0, 18.5),
        (7.0, 12.2),
        (12.5, 12.2),
    ]
    .map(|(x, y)| tip + vec2(x, y));
    let fill = Color32::from_white_alpha(235);
    let edge = Stroke::new(1.5, Color32::from_black_alpha(220));
    // The arrow is concave: fill it as two convex parts.
    let body = vec![arrow[0], arrow[1], arrow[2], arrow[5], arrow[6]];
    let tail = vec![arrow[2], arrow[3], arrow[4], arrow[5]];
    for part in [body, tail] {
        painter.add(egui::Shape::convex_polygon(part, fill, Stroke::NONE));
    }
    painter.add(egui::Shape::Path(egui::epaint::PathShape::closed_line(
        arrow.to_vec(),
        edge,
    )));
}
