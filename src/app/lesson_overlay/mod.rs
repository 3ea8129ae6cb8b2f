//! A lesson pointing at the editor, painted over the whole window (as GDQuest's Godot Tours
//! do, in graft's way): the step's `point:` targets one after the other, each highlighted with
//! a bubble and the rest dimmed until the learner acts (the step's state changes, or they press
//! inside the highlight); and on **Show the gesture** a ghost pointer that plays each
//! `gesture: drag FROM -> TO` (about 1.5 s, repeatable) without doing it. Targets resolve to
//! the rects widgets registered this frame (`ui_targets.rs`) or, for a node in the viewport,
//! to its shape on screen. Paints only: nothing here changes the session.

mod drawing;
mod state;

use crate::app::frame::FrameContext;
use crate::app::ui_targets::{Key, Targets, UiTargets};
use crate::app::viewport::ViewportState;
use crate::editor::lesson::ValueSpace;
use crate::editor::lesson::targets::{Control, Target};
use crate::editor::session::lesson::LessonRun;
use crate::model::scene::NodeId;
use drawing::{bubble, dim, ghost, outline, path};
pub use drawing::{bubble_place, ghost_at, grab_point};
use egui::{Context, Id, Rect, pos2, vec2};
use state::{Fingerprint, OverlayState, SETTLE_FRAMES};
pub use state::{LessonOverlay, Painted};

/// How long the ghost pointer takes for one gesture, in seconds.
pub const GESTURE_SECONDS: f64 = 1.5;

impl Fingerprint {
    fn of(fx: &FrameContext, run: &LessonRun) -> Self {
        Self {
            revision: fx.doc.revision(),
            selection: fx.selection_version,
            keep_world: fx.keep_world,
            view: fx.view.clone(),
            clip: (fx.timeline.playing(), fx.timeline.trails()),
            checklist: run.checklist().iter().map(|(_, holds)| *holds).collect(),
        }
    }
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
    fx: &'a FrameContext<'a>,
    run: &'a LessonRun,
    targets: &'a UiTargets,
    /// Where to ask a field or control to scroll into view.
    register: &'a Targets,
    viewport: &'a ViewportState,
}

impl Resolver<'_> {
    fn node(&self, name: &str) -> Option<NodeId> {
        self.run.resolve(self.fx.scene, name)
    }

    /// Where `target` is on screen this frame, if it is shown.
    fn resolve(&self, target: &Target) -> Option<Resolved> {
        let exact = |key: Key| self.targets.rect(&key).map(Resolved::Exact);
        match target {
            Target::Row(name) => exact(Key::Row(self.node(&name.text)?)),
            Target::Node(name) => {
                node_rect(self.fx, self.viewport, self.node(&name.text)?).map(Resolved::Exact)
            }
            Target::Field { node, frame, row } => {
                let id = self.node(&node.text)?;
                if self.fx.primary == Some(id) {
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
            } => exact(Key::MenuItem(menu, item)).or_else(|| self.menu_before(menu, item)),
        }
    }
}

impl Resolver<'_> {
    /// Where to go first for a menu item not shown: its submenu's button while the menu is
    /// open, else the menu's.
    fn menu_before(&self, menu: &'static str, item: &str) -> Option<Resolved> {
        let submenu = crate::editor::vocabulary::submenu_of(menu, item);
        if let Some(submenu) = submenu
            && let Some(button) = self.targets.rect(&Key::Submenu(menu, submenu))
        {
            return Some(Resolved::Before(button, format!("Open {submenu}")));
        }
        let button = self.targets.rect(&Key::Menu(menu))?;
        Some(Resolved::Before(button, format!("Open the {menu} menu")))
    }
}

/// A node's shape on screen (at least a small square round its origin), within the viewport.
fn node_rect(fx: &FrameContext, viewport: &ViewportState, id: NodeId) -> Option<Rect> {
    use crate::editor::view::geometry::node_bounds;
    let scene = fx.scene;
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

/// Paint the lesson's pointing over the window (every frame, after every panel and window,
/// the targets' register already turned to this frame's: [`Targets::finish_frame`]).
pub fn paint(ctx: &Context, fx: &FrameContext, viewport: &ViewportState) {
    let (overlay, targets) = (fx.wiring.overlay, fx.wiring.targets);
    let mut state = overlay.state.borrow_mut();
    let state = &mut *state;
    state.painted = Painted::default();
    let run = fx
        .lesson
        .filter(|run| !run.showing_intro() && run.summary(fx.lesson_progress).is_none())
        .filter(|_| fx.pending_guard.is_none());
    let Some(run) = run else {
        *state = OverlayState::default();
        return;
    };
    let step = Some((run.lesson().path.clone(), run.step_index()));
    if state.step != step {
        // The step's start changes the state for a frame or two (its checklist is evaluated at
        // the next frame's start): none of that is the learner acting.
        *state = OverlayState {
            step,
            settle: SETTLE_FRAMES,
            ..OverlayState::default()
        };
    }
    let scene = Resolver {
        fx,
        run,
        targets: targets.last_frame(),
        register: targets,
        viewport,
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Tooltip,
        Id::unique("graft-lesson-overlay-layer"),
    ));
    let panel = scene.targets.rect(&Key::LessonPanel);
    if !gesture(ctx, &scene, state, &painter, panel) {
        point(ctx, &scene, state, &painter, panel);
    }
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
    reveal_once(ctx, scene, state, &point.target);
    let now = Fingerprint::of(scene.fx, scene.run);
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

/// Bring the point's target into view once: its row folded under a collapsed parent or scrolled
/// away when the point is first shown (or Where? is pressed) makes the hierarchy unfold and
/// scroll to it; its inspector field scrolled away when its node is first inspected for the
/// point makes the inspector scroll to it. What the learner hides later is left hidden.
fn reveal_once(ctx: &Context, scene: &Resolver, state: &mut OverlayState, target: &Target) {
    if state.point_checked != Some(state.point) {
        state.point_checked = Some(state.point);
        if let Some(id) = hidden_row(scene, target) {
            state.reveal = vec![id];
            ctx.request_repaint();
        }
    }
    if state.field_checked != Some(state.point)
        && let Some((key, shown)) = field_of_selected(scene, target)
    {
        state.field_checked = Some(state.point);
        if !shown {
            scene.register.bring_into_view(ctx, key);
        }
    }
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

/// The node whose row a point needs and that is not drawn this frame: a row target's, or a
/// field target's while its node is not selected (the point is on its row then).
fn hidden_row(scene: &Resolver, target: &Target) -> Option<NodeId> {
    let id = match target {
        Target::Row(name) => scene.node(&name.text)?,
        Target::Field { node, .. } => scene.node(&node.text)?,
        _ => return None,
    };
    let selected = matches!(target, Target::Field { .. }) && scene.fx.primary == Some(id);
    (!selected && scene.targets.rect(&Key::Row(id)).is_none()).then_some(id)
}

/// A field target's inspector field while its node is the one inspected, and whether it was
/// drawn in view this frame.
fn field_of_selected(scene: &Resolver, target: &Target) -> Option<(Key, bool)> {
    if let Target::Control(control @ Control::SelectCause) = target {
        // Drawn only under a shear warning: asked for while it may be scrolled away.
        let key = Key::Control(*control);
        return Some((key.clone(), scene.targets.rect(&key).is_some()));
    }
    let Target::Field { node, frame, row } = target else {
        return None;
    };
    let id = scene.node(&node.text)?;
    if scene.fx.primary != Some(id) {
        return None;
    }
    let column = match frame {
        ValueSpace::World => "world",
        ValueSpace::Local => "local",
    };
    let key = Key::Field(column, row.name());
    let shown = scene.targets.rect(&key).is_some();
    Some((key, shown))
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
