//! The timeline panel (bottom): play / pause, stop, the time and the clip's length and loop
//! mode, Key (K), trails; a ruler to scrub; one row per animated node with its keys as
//! diamonds. Click a diamond to select it, Shift- or Ctrl-click to add or remove one, drag a
//! box over empty rows to select many; dragging a selected diamond moves the whole selection
//! in time, right-click or Del deletes it. Everything it does is a command; playback itself
//! is part of `Editor::tick`, which the app calls once per frame. What clicks, drags and the wheel
//! mean is `editor::view::keys`; this panel reads input, asks it, and paints.

use super::frame::FrameContext;
use super::ui_targets::Targeted as _;
use crate::app::frame::CommandSender;
use crate::app::number_field::number_field;
use crate::app::viewport::c32;
use crate::editor::session::command::{Command, HistoryCommand, PanelCommand};
use crate::editor::session::timeline::{KeyRef, TimelineCommand as T};
use crate::editor::view::keys::{
    self, Ask, DIAMOND, Diamond, Drag, Pointer, TimeAxis, TimeView, TimedKey, TimelineFrame, Track,
    Wheel,
};
use crate::editor::view::palette;
use crate::model::anim::{ClipSettings, LoopMode};
use crate::model::scene::NodeId;
use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

/// The height of a row (the ruler takes the first).
const ROW: f32 = 18.0;
/// Width of the names column.
const NAMES: f32 = 150.0;

impl TimedKey for KeyRef {
    fn node(&self) -> NodeId {
        self.node
    }
    fn time(&self) -> f32 {
        self.time
    }
}

/// The drag in progress, and where the track area was last drawn.
pub struct TimelinePanel {
    drag: Option<Drag>,
    /// The track area of the last frame.
    pub track: Rect,
    /// How many times the clip is magnified across the track (1 = the whole clip).
    pub zoom: f32,
    /// The time at the track's left edge.
    pub start: f32,
}

impl Default for TimelinePanel {
    fn default() -> Self {
        Self {
            drag: None,
            track: Rect::NOTHING,
            zoom: 1.0,
            start: 0.0,
        }
    }
}

/// A screen point for the rules (glam) from egui's.
fn point(p: Pos2) -> glam::Vec2 {
    glam::Vec2::new(p.x, p.y)
}

/// egui's screen point from the rules'.
fn pos(p: glam::Vec2) -> Pos2 {
    Pos2::new(p.x, p.y)
}

impl TimelinePanel {
    /// Draw the panel; what it asks for is sent.
    pub fn ui(&mut self, ui: &mut egui::Ui, fx: &FrameContext) {
        let state = self;
        let out = fx.wiring.sender;
        let scene = fx.scene;
        let clip = scene.clip();
        toolbar(ui, fx, clip, out);
        let animated = scene.animated_nodes();
        let rows = animated.len().max(1) as f32;
        let (rect, response) = ui.allocate_exact_size(
            vec2(ui.available_width(), ROW * (rows + 1.0) + 4.0),
            Sense::click_and_drag(),
        );
        let tracks = format!("Keyframe tracks, animated nodes: {}", animated.len());
        super::a11y::canvas(ui, &response, &tracks);
        let painter = ui.painter_at(rect);
        let track = Rect::from_min_max(rect.min + vec2(NAMES, 0.0), rect.max - vec2(8.0, 0.0));
        state.track = track;
        let axis = view_axis(ui, &response, track, clip, state);
        ruler(&painter, track, &axis);
        if animated.is_empty() {
            empty_hint(&painter, rect);
        }
        let selected = &fx.selected_keys;
        let diamonds = paint_rows(ui, &painter, (rect, &axis), (fx, &animated), selected);
        let frame = TimelineFrame {
            axis,
            diamonds: &diamonds,
            selected,
        };
        let pointer = pointer(ui, &response);
        let rows_top = (!animated.is_empty()).then_some(track.top() + ROW);
        if response.drag_started() {
            let (drag, asks) = frame.begin_drag(&pointer, rows_top);
            state.drag = Some(drag);
            out.send_all(asks.into_iter().map(command));
        }
        if let Some(drag) = state.drag {
            paint_band(&painter, &drag, &pointer);
            let released = response.drag_stopped() || !response.dragged();
            let (next, asks) = frame.follow(drag, &pointer, released);
            state.drag = next;
            out.send_all(asks.into_iter().map(command));
        }
        if state.drag.is_none() && !response.drag_stopped() {
            let asks = frame.click(&pointer, response.clicked(), response.secondary_clicked());
            out.send_all(asks.into_iter().map(command));
        }
        playhead(&painter, rect, axis.playhead(fx.timeline.local_time(clip)));
    }
}

/// The session's command for what the timeline asks.
fn command(ask: Ask<KeyRef>) -> Command {
    Command::Timeline(match ask {
        Ask::SelectKeys(keys) => T::SelectKeys(keys),
        Ask::ToggleKey(key) => T::ToggleKey(key),
        Ask::DeleteKeys(key) => T::DeleteKeys {
            node: key.node,
            at: key.time,
        },
        Ask::DeleteSelectedKeys => T::DeleteSelectedKeys,
        Ask::SetTime(t) => T::SetTime(t),
        Ask::MoveSelectedKeys(by) => T::MoveSelectedKeys { by },
        Ask::EndGesture => return Command::History(HistoryCommand::EndGesture),
    })
}

/// The pointer over the timeline this frame, for the rules.
fn pointer(ui: &egui::Ui, response: &egui::Response) -> Pointer {
    let (press, add) = ui.input(|i| {
        (
            i.pointer.press_origin(),
            i.modifiers.shift || i.modifiers.command,
        )
    });
    Pointer {
        down: response.interact_pointer_pos().map(point),
        hover: response.hover_pos().map(point),
        press: press.map(point),
        add,
    }
}

/// Ctrl + wheel (or a pinch) over the timeline zooms its time axis around the pointer; Shift +
/// wheel pans it (`keys::zoom_and_pan`). Returns this frame's time axis.
fn view_axis(
    ui: &egui::Ui,
    response: &egui::Response,
    track: Rect,
    clip: ClipSettings,
    state: &mut TimelinePanel,
) -> TimeAxis {
    let wheel = response.hovered().then(|| {
        ui.input(|i| Wheel {
            zoom: i.zoom_delta(),
            scroll: i.smooth_scroll_delta.x + i.smooth_scroll_delta.y,
            shift: i.modifiers.shift,
            pointer_x: i.pointer.hover_pos().map(|p| p.x),
        })
    });
    let track = Track {
        left: track.left(),
        right: track.right(),
    };
    let view = TimeView {
        zoom: state.zoom,
        start: state.start,
    };
    let view = keys::zoom_and_pan(view, wheel, track, clip.length);
    (state.zoom, state.start) = (view.zoom, view.start);
    TimeAxis::new(track, view, clip.length)
}

/// Node names and their key diamonds, for the rows in view only (a scene may animate
/// thousands of nodes); returns the diamonds drawn, in drawing order.
fn paint_rows(
    ui: &egui::Ui,
    painter: &egui::Painter,
    (rect, axis): (Rect, &TimeAxis),
    (fx, animated): (&FrameContext, &[NodeId]),
    selected: &[KeyRef],
) -> Vec<Diamond<KeyRef>> {
    let scene = fx.scene;
    let visible = ui.clip_rect().expand(ROW);
    let rows = keys::rows_in_view(
        visible.top() - rect.top(),
        visible.bottom() - rect.top(),
        ROW,
    );
    let mut diamonds = Vec::new();
    for (row, &node) in animated.iter().enumerate().take(rows.end).skip(rows.start) {
        let Ok(data) = scene.node(node) else {
            continue;
        };
        let y = rect.top() + keys::row_centre(row, ROW);
        let color = if fx.selection.contains(node) {
            c32(palette::TIMELINE_SELECTED)
        } else {
            c32(palette::TIMELINE_ROW)
        };
        painter.text(
            Pos2::new(rect.left() + 4.0, y),
            egui::Align2::LEFT_CENTER,
            crate::model::scene::name::node_label(&data.name, node),
            egui::FontId::proportional(12.0),
            color,
        );
        for t in crate::model::anim::key_times(&data.tracks) {
            let centre = glam::Vec2::new(axis.x_of(t), y);
            if !axis.shows(centre.x) {
                continue; // outside the zoomed span
            }
            let key = KeyRef::new(node, t);
            diamond(
                painter,
                pos(centre),
                color,
                keys::is_selected(&key, selected),
            );
            diamonds.push(Diamond { key, centre });
        }
    }
    diamonds
}

/// The hint shown while nothing is animated.
fn empty_hint(painter: &egui::Painter, rect: Rect) {
    painter.text(
        Pos2::new(rect.left() + 4.0, rect.top() + ROW * 1.5),
        egui::Align2::LEFT_CENTER,
        "No animation: select nodes and press K to key them at the current time",
        egui::FontId::proportional(12.0),
        c32(palette::TIMELINE_HINT),
    );
}

/// The box of a box selection in progress.
fn paint_band(painter: &egui::Painter, drag: &Drag, pointer: &Pointer) {
    if let Some((from, to)) = drag.band(pointer) {
        painter.rect(
            Rect::from_two_pos(pos(from), pos(to)),
            0.0,
            c32(palette::PLAYHEAD.alpha(30)),
            Stroke::new(1.0, c32(palette::PLAYHEAD)),
            egui::StrokeKind::Inside,
        );
    }
}

/// The playhead: a line across the panel at `x`.
fn playhead(painter: &egui::Painter, rect: Rect, x: f32) {
    painter.line_segment(
        [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
        Stroke::new(1.5, c32(palette::PLAYHEAD)),
    );
}

/// Ticks and labels along the top of the track area (`keys::TimeAxis::ticks`).
fn ruler(painter: &egui::Painter, track: Rect, axis: &TimeAxis) {
    for t in axis.ticks() {
        let x = axis.x_of(t);
        painter.line_segment(
            [
                Pos2::new(x, track.top() + 10.0),
                Pos2::new(x, track.bottom()),
            ],
            Stroke::new(1.0, c32(palette::RULER_LINE)),
        );
        painter.text(
            Pos2::new(x + 2.0, track.top()),
            egui::Align2::LEFT_TOP,
            keys::tick_label(t),
            egui::FontId::proportional(10.0),
            c32(palette::RULER_TEXT),
        );
    }
}

/// One key diamond centred at `c`: bigger and orange when selected.
fn diamond(painter: &egui::Painter, c: Pos2, color: Color32, selected: bool) {
    let (r, color, outline) = if selected {
        (
            DIAMOND,
            c32(palette::KEY_SELECTED),
            Stroke::new(1.5, c32(palette::KEY_SELECTED_OUTLINE)),
        )
    } else {
        (5.0, color, Stroke::new(1.0, c32(palette::KEY_OUTLINE)))
    };
    painter.add(egui::Shape::convex_polygon(
        vec![
            c + vec2(0.0, -r),
            c + vec2(r, 0.0),
            c + vec2(0.0, r),
            c + vec2(-r, 0.0),
        ],
        color,
        outline,
    ));
}

/// Play, stop, time, length, loop mode, Key, trails.
fn toolbar(ui: &mut egui::Ui, fx: &FrameContext, clip: ClipSettings, out: &CommandSender) {
    ui.horizontal(|ui| {
        transport(ui, fx, clip, out);
        clip_settings(ui, clip, out);
        ui.separator();
        keying(ui, fx, out);
        let mut trails = fx.timeline.trails();
        if ui
            .checkbox(&mut trails, "trails (T)")
            .lesson_target(
                ui,
                fx.wiring.targets,
                crate::editor::lesson::targets::Control::Trails,
            )
            .on_hover_text("The path of the selected nodes' world origins over the clip")
            .changed()
        {
            out.send(Command::Timeline(T::ToggleTrails));
        }
    });
}

/// Stop, play / pause and the current time.
fn transport(ui: &mut egui::Ui, fx: &FrameContext, clip: ClipSettings, out: &CommandSender) {
    let timeline = fx.timeline;
    let stop = ui.button("⏹");
    super::a11y::name(ui, &stop, "Stop");
    if stop.on_hover_text("Stop: back to 0 s").clicked() {
        out.send(Command::Timeline(T::Stop));
    }
    let play = if timeline.playing() {
        "⏸ Pause"
    } else {
        "▶ Play"
    };
    let play_button = ui.button(play);
    // Read as "Play" / "Pause", without the glyph.
    super::a11y::name(ui, &play_button, play.trim_start_matches(['▶', '⏸', ' ']));
    if play_button
        .lesson_target(
            ui,
            fx.wiring.targets,
            crate::editor::lesson::targets::Control::Play,
        )
        .on_hover_text("Play or pause (Ctrl+Space)")
        .clicked()
    {
        out.send(Command::Timeline(T::TogglePlay));
    }
    let mut time = timeline.local_time(clip);
    ui.label("time");
    let edit = number_field(ui, &mut time, |d| {
        d.speed(0.01).range(0.0..=clip.length).suffix(" s")
    });
    let field = edit.response;
    super::a11y::name(ui, &field, "current time, seconds");
    (fx.wiring.targets).control(ui, crate::editor::lesson::targets::Control::Time, &field);
    if edit.changed {
        out.send(Command::Timeline(T::SetTime(time)));
    }
}

/// The clip's length and loop mode: one continuous step per drag of the length, one per
/// typed length or mode change.
fn clip_settings(ui: &mut egui::Ui, clip: ClipSettings, out: &CommandSender) {
    let mut settings = clip;
    ui.label("length");
    let length = number_field(ui, &mut settings.length, |d| {
        d.speed(0.05).range(0.05..=3600.0).suffix(" s")
    });
    super::a11y::name(ui, &length.response, "clip length, seconds");
    egui::ComboBox::from_label("repeat")
        .selected_text(mode_name(settings.mode))
        .show_ui(ui, |ui| {
            for mode in [LoopMode::Once, LoopMode::Loop, LoopMode::PingPong] {
                ui.selectable_value(&mut settings.mode, mode, mode_name(mode));
            }
        });
    if settings != clip {
        out.send(Command::Panel(PanelCommand::SetClip(settings)));
    }
    if length.ended || settings.mode != clip.mode {
        out.send(Command::History(HistoryCommand::EndGesture));
    }
}

/// Key (K), auto-key, and the key selection's count and Delete button.
fn keying(ui: &mut egui::Ui, fx: &FrameContext, out: &CommandSender) {
    if ui
        .add_enabled(!fx.selection.ids().is_empty(), egui::Button::new("Key (K)"))
        .on_hover_text("Key the selected nodes' position, rotation and scale at this time")
        .clicked()
    {
        out.send(Command::Timeline(T::KeySelection));
    }
    let mut auto_key = fx.timeline.auto_key();
    if ui
        .checkbox(&mut auto_key, "auto-key")
        .on_hover_text(
            "While on, moving, turning or scaling a node writes keys at the current time",
        )
        .changed()
    {
        out.send(Command::Timeline(T::ToggleAutoKey));
    }
    let keys = fx.selected_keys.len();
    if keys > 0 {
        ui.separator();
        ui.label(format!("{keys} key(s) selected"));
        if ui
            .button("Delete keys")
            .on_hover_text("Delete the selected keys (Del)")
            .clicked()
        {
            out.send(Command::Timeline(T::DeleteSelectedKeys));
        }
    }
}

/// The loop mode's name in the menu.
fn mode_name(mode: LoopMode) -> &'static str {
    match mode {
        LoopMode::Once => "once",
        LoopMode::Loop => "loop",
        LoopMode::PingPong => "ping-pong",
    }
}
