//! The keyboard's way round the window: the ring around the panel that has the keyboard
//! (F6 / Shift+F6), a click giving a panel the keyboard, arrow keys nudging the selection in
//! the viewport, the "Move to…" parent picker, and the look (interface scale, high contrast).
//! The rules (which panel is next, what a nudge or a move does) are in
//! [`crate::editor::session::arrange`].

use super::frame::{FrameContext, OwnRing, PrimaryControls};
use crate::editor::session::arrange::{MoveTarget, Panel, move_targets};
use crate::editor::session::command::{Command, EditCommand, ViewCommand, Window, WindowCommand};
use egui::{Key, Modifiers};

/// Where each panel was drawn this frame.
#[derive(Default)]
pub struct PanelRects {
    rects: Vec<(Panel, egui::Rect)>,
    /// The panel that had the keyboard last frame.
    last: Option<Panel>,
    /// The control on a panel that last had the keyboard.
    kept: Option<egui::Id>,
}

impl PanelRects {
    /// Note where a panel was drawn.
    pub fn set(&mut self, panel: Panel, rect: egui::Rect) {
        self.rects.retain(|(p, _)| *p != panel);
        self.rects.push((panel, rect));
    }

    /// Forget last frame's panels.
    pub fn clear(&mut self) {
        self.rects.clear();
    }

    /// The panel a click landed in (the lesson panel lies inside the inspector's column, so
    /// the smallest rectangle wins).
    fn at(&self, pos: egui::Pos2) -> Option<Panel> {
        self.rects
            .iter()
            .filter(|(_, r)| r.contains(pos))
            .min_by(|a, b| a.1.area().total_cmp(&b.1.area()))
            .map(|(p, _)| *p)
    }

    fn rect(&self, panel: Panel) -> Option<egui::Rect> {
        self.rects
            .iter()
            .find(|(p, _)| *p == panel)
            .map(|(_, r)| *r)
    }
}

/// A press in a panel gives it the keyboard; then the ring around the panel that has it.
/// `primary`: the control each panel named this frame for the keyboard to land on.
pub fn focus(ctx: &egui::Context, fx: &FrameContext, rects: &mut PanelRects) {
    let primary = fx.wiring.primary;
    let pressed = ctx.input(|i| {
        i.pointer
            .primary_pressed()
            .then(|| i.pointer.interact_pos())
    });
    // A press on a window, a menu or a popup is not a press in the panel under it.
    let on_panel = |p: egui::Pos2| {
        ctx.layer_id_at(p)
            .is_none_or(|l| l.order == egui::Order::Background)
    };
    if let Some(panel) = pressed
        .flatten()
        .filter(|p| on_panel(*p))
        .and_then(|p| rects.at(p))
        && panel != fx.focused_panel
    {
        fx.send(Command::View(ViewCommand::SetFocusedPanel(panel)));
        // The click gave the panel the keyboard and maybe one of its fields focus: keep that.
        rects.last = Some(panel);
        return;
    }
    if let Some(panel) = tabbed_into(ctx, fx, rects) {
        // Tab (or a click) put the focus on a control of another panel: that panel has the
        // keyboard now, so graft's keys and the screen reader's focus agree.
        fx.send(Command::View(ViewCommand::SetFocusedPanel(panel)));
        rects.last = Some(panel);
        return;
    }
    if rects.last.replace(fx.focused_panel) != Some(fx.focused_panel) {
        // The keyboard moved: a field of the panel left behind stops taking keys, and the
        // first control of the new one takes them.
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
        if let Some(first) = first_control(ctx, fx.focused_panel, rects, primary) {
            ctx.memory_mut(|m| m.request_focus(first));
        }
    } else if focus_lost(ctx, fx) {
        restore_focus(ctx, fx, rects);
    }
    if let Some(id) = ctx.memory(|m| m.focused()).filter(|id| in_panel(ctx, *id)) {
        rects.kept = Some(id);
    }
    if let Some(rect) = rects.rect(fx.focused_panel) {
        paint_ring(ctx, rect);
    }
}

/// The ring around the panel that has the keyboard.
fn paint_ring(ctx: &egui::Context, rect: egui::Rect) {
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("graft-panel-focus"),
    ));
    let color = ctx.global_style().visuals.selection.stroke.color;
    painter.rect_stroke(
        rect.shrink(1.0),
        2.0,
        egui::Stroke::new(2.0, color),
        egui::StrokeKind::Inside,
    );
}

/// True when no control has the keyboard, none should (no window, menu or prompt is open)
/// and the panel that has the keyboard gives it to a control.
fn focus_lost(ctx: &egui::Context, fx: &FrameContext) -> bool {
    if ctx.memory(|m| m.focused()).is_some_and(|id| drawn(ctx, id)) {
        return false;
    }
    let window_open = ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .iter()
            .any(|l| l.order == egui::Order::Middle)
    });
    let prompt =
        fx.pending_guard.is_some() || fx.recovery_offer().is_some() || fx.path_prompt.is_some();
    !(window_open || prompt || egui::Popup::is_any_open(ctx))
}

/// The focused control went away (a deleted row, a closed window, a lesson step's button):
/// the keyboard goes back to the control of the panel it was on, else to the panel's own.
/// Not in the inspector and the timeline: their controls are mostly text fields, and a field
/// given the keyboard back would take graft's keys (Ctrl+Z, Del) as text.
fn restore_focus(ctx: &egui::Context, fx: &FrameContext, rects: &PanelRects) {
    let primary = fx.wiring.primary;
    let panel = fx.focused_panel;
    if matches!(panel, Panel::Inspector | Panel::Timeline) {
        return;
    }
    let area = rects.rect(panel);
    let back = rects.kept.filter(|id| {
        let at = ctx.viewport(|v| v.this_pass.widgets.get(*id).map(|w| w.rect.center()));
        at.zip(area).is_some_and(|(at, area)| area.contains(at))
    });
    if let Some(id) = back.or_else(|| first_control(ctx, panel, rects, primary)) {
        ctx.memory_mut(|m| m.request_focus(id));
    }
}

/// True when the widget `id` was drawn this pass or the one before (a window's widgets are
/// drawn after the panels).
fn drawn(ctx: &egui::Context, id: egui::Id) -> bool {
    ctx.viewport(|v| {
        v.this_pass
            .widgets
            .get(id)
            .or(v.prev_pass.widgets.get(id))
            .is_some()
    })
}

/// True when the widget `id` lies on the window's panels (not in a window, menu or popup).
fn in_panel(ctx: &egui::Context, id: egui::Id) -> bool {
    ctx.viewport(|v| {
        v.this_pass
            .widgets
            .get(id)
            .is_some_and(|w| w.layer_id == egui::LayerId::background())
    })
}

/// The panel whose control just got the keyboard, when it is not the panel that has it.
fn tabbed_into(ctx: &egui::Context, fx: &FrameContext, rects: &PanelRects) -> Option<Panel> {
    let id = ctx.memory(|m| m.focused())?;
    if Some(id) == rects.kept || !in_panel(ctx, id) {
        return None;
    }
    let rect = ctx.viewport(|v| v.this_pass.widgets.get(id).map(|w| w.rect))?;
    let panel = rects.at(rect.center())?;
    (panel != fx.focused_panel).then_some(panel)
}

/// While the widget `id` has the keyboard, the arrow keys are its own (a hierarchy row walks
/// the rows, the viewport nudges) instead of moving the focus to the next widget.
pub fn keep_arrows(ctx: &egui::Context, id: egui::Id) {
    let arrows = egui::EventFilter {
        horizontal_arrows: true,
        vertical_arrows: true,
        ..Default::default()
    };
    ctx.memory_mut(|m| m.set_focus_lock_filter(id, arrows));
}

/// The viewport's canvas is where the keyboard lands in the viewport (F6), and keeps the
/// arrow keys (they nudge).
pub fn viewport_canvas(
    ctx: &egui::Context,
    (primary, own): (&PrimaryControls, &OwnRing),
    canvas: &egui::Response,
) {
    primary.name(Panel::Viewport, canvas.id);
    if canvas.has_focus() {
        // The ring around the panel with the keyboard shows it.
        own.note(canvas.id);
        keep_arrows(ctx, canvas.id);
    }
}

/// The control the keyboard lands on in `panel`: the one the panel named
/// ([`PrimaryControls::name`]: the selected row, the viewport's canvas, the lesson's Next),
/// else the first in drawing order (the inspector, the timeline).
fn first_control(
    ctx: &egui::Context,
    panel: Panel,
    rects: &PanelRects,
    primary: &PrimaryControls,
) -> Option<egui::Id> {
    if let Some(id) = primary.of(panel) {
        return Some(id);
    }
    if matches!(panel, Panel::Hierarchy | Panel::Viewport) {
        return None;
    }
    let area = rects.rect(panel)?;
    let layer = egui::LayerId::background();
    ctx.viewport(|v| {
        v.this_pass
            .widgets
            .get_layer(layer)
            .find(|w| {
                w.enabled && w.visible && w.sense.is_focusable() && area.contains_rect(w.rect)
            })
            .map(|w| w.id)
    })
}

/// Arrow keys while the viewport has the keyboard: nudge the selection (Shift: a big step),
/// one undo step per press.
pub fn nudge_keys(ctx: &egui::Context, fx: &FrameContext) {
    if fx.focused_panel != Panel::Viewport
        || ctx.text_edit_focused()
        || fx.selected_ids().is_empty()
    {
        return;
    }
    let arrows = [
        (Key::ArrowLeft, (-1, 0)),
        (Key::ArrowRight, (1, 0)),
        (Key::ArrowUp, (0, 1)),
        (Key::ArrowDown, (0, -1)),
    ];
    ctx.input_mut(|i| {
        for (key, direction) in arrows {
            for (modifiers, big) in [(Modifiers::SHIFT, true), (Modifiers::NONE, false)] {
                if i.consume_key(modifiers, key) {
                    fx.send(Command::Edit(EditCommand::Nudge { direction, big }));
                }
            }
        }
    });
}

/// What the "Move to…" window remembers between frames.
#[derive(Default)]
pub struct MoveToState {
    query: String,
    choice: usize,
    opened: bool,
}

/// How many parents the list shows at most (a scene of millions is searched, not listed).
const MOVE_TARGETS_SHOWN: usize = 200;

/// Node ▸ Move to…: type part of a name, Up / Down to pick, Enter moves the selection there
/// (keeping world transforms as the toggle says), Shift+Enter the opposite, Esc closes.
pub fn move_to_window(ctx: &egui::Context, fx: &FrameContext, state: &mut MoveToState) {
    if !fx.is_open(Window::MoveTo) {
        *state = MoveToState::default();
        return;
    }
    let scene = fx.scene;
    let moving = scene.topmost(fx.selected_ids());
    let targets = move_targets(scene, &moving, &state.query, MOVE_TARGETS_SHOWN);
    state.choice = state.choice.min(targets.len().saturating_sub(1));
    let (enter, shift, escape) = move_to_keys(ctx, state, targets.len());
    let mut chosen = enter.then_some(state.choice);
    let keep = fx.keep_world;
    egui::Window::new("Move to…")
        .id(egui::Id::unique("graft-move-to"))
        .collapsible(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .fixed_size([460.0, 320.0])
        .show(ctx, |ui| {
            let field = move_to_query(ui, state);
            ui.label(move_to_hint(keep));
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(240.0)
                .show(ui, |ui| {
                    let options = move_to_list(ui, &targets, state.choice, &mut chosen);
                    let picked = (options.as_slice(), state.choice);
                    super::a11y::pick_list(ui, ui.unique_id(), "New parents", field, picked);
                });
        });
    if let Some(target) = chosen.and_then(|k| targets.get(k)) {
        fx.send(Command::Window(WindowCommand::Close(Window::MoveTo)));
        // The keyboard goes to the moved row, where the screen reader says what happened.
        fx.send(Command::View(ViewCommand::SetFocusedPanel(
            Panel::Hierarchy,
        )));
        fx.send(Command::Edit(EditCommand::MoveTo {
            parent: target.parent,
            keep: crate::editor::session::drop_rules::drop_keep(keep, shift),
        }));
    } else if escape {
        fx.send(Command::Window(WindowCommand::Close(Window::MoveTo)));
    }
}

/// What Enter and Shift+Enter do, as the window says it.
fn move_to_hint(keep_world: bool) -> &'static str {
    if keep_world {
        "Enter: move, keeping world position (stays on screen). Shift+Enter: keep the local numbers."
    } else {
        "Enter: move, keeping the local numbers. Shift+Enter: keep world position (stays on screen)."
    }
}

/// Up / Down move the choice; returns whether Enter, Shift and Esc were pressed.
fn move_to_keys(ctx: &egui::Context, state: &mut MoveToState, count: usize) -> (bool, bool, bool) {
    let (up, down, enter, shift, escape) = ctx.input(|i| {
        (
            i.key_pressed(Key::ArrowUp),
            i.key_pressed(Key::ArrowDown),
            i.key_pressed(Key::Enter),
            i.modifiers.shift,
            i.key_pressed(Key::Escape),
        )
    });
    if down && state.choice + 1 < count {
        state.choice += 1;
    }
    if up {
        state.choice = state.choice.saturating_sub(1);
    }
    (enter, shift, escape)
}

/// The search field, focused when the window opens; typing resets the choice. Returns its id.
fn move_to_query(ui: &mut egui::Ui, state: &mut MoveToState) -> egui::Id {
    let edit = ui.add(
        egui::TextEdit::singleline(&mut state.query)
            .char_limit(256)
            .hint_text("Type part of the new parent's name…")
            .desired_width(f32::INFINITY),
    );
    edit.widget_info(|| {
        egui::WidgetInfo::text_edit(true, "", &state.query, "New parent: type part of its name")
    });
    if !state.opened {
        edit.request_focus();
        state.opened = true;
    }
    if edit.changed() {
        state.choice = 0;
    }
    edit.id
}

/// The matching parents, `choice` highlighted; a click sets `chosen`. Returns the rows' ids.
fn move_to_list(
    ui: &mut egui::Ui,
    targets: &[MoveTarget],
    choice: usize,
    chosen: &mut Option<usize>,
) -> Vec<egui::Id> {
    let mut rows = Vec::with_capacity(targets.len());
    for (k, target) in targets.iter().enumerate() {
        let row = ui.add(egui::Button::selectable(k == choice, &target.label));
        if k == choice && ui.input(|i| i.key_pressed(Key::ArrowDown) || i.key_pressed(Key::ArrowUp))
        {
            row.scroll_to_me(None);
        }
        rows.push(row.id);
        if row.clicked() {
            *chosen = Some(k);
        }
    }
    if targets.is_empty() {
        ui.weak("No node of that name can be the parent");
    }
    rows
}

/// The interface scale and theme the editor asks for, applied to egui when they changed.
pub fn apply_look(ctx: &egui::Context, fx: &FrameContext, shown: &mut Option<(f32, bool)>) {
    let want = (fx.ui_scale, fx.high_contrast);
    if *shown == Some(want) {
        return;
    }
    let high_contrast_changed = shown.is_none_or(|(_, hc)| hc != want.1);
    *shown = Some(want);
    ctx.options_mut(|o| o.zoom_with_keyboard = false);
    if (ctx.zoom_factor() - want.0).abs() > 1e-4 {
        ctx.set_zoom_factor(want.0);
    }
    if high_contrast_changed {
        if want.1 {
            ctx.set_visuals_of(egui::Theme::Dark, super::theme::high_contrast());
            ctx.set_theme(egui::ThemePreference::Dark);
        } else {
            ctx.set_visuals_of(egui::Theme::Dark, egui::Visuals::dark());
            ctx.set_theme(egui::ThemePreference::System);
        }
    }
}
