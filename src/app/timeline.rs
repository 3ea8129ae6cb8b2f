//! The timeline panel (bottom): play / pause, stop, the time and the clip's length and loop
//! mode, Key (K), trails; a ruler to scrub; one row per animated node with its keys as
//! diamonds. Click a diamond to select it, Shift- or Ctrl-click to add or remove one, drag a
//! box over empty rows to select many; dragging a selected diamond moves the whole selection
//! in time, right-click or Del deletes it. Everything it does is a command; playback itself
//! is `Editor::advance`, called once per frame by the app.

use crate::editor::session::Editor;
use crate::editor::session::command::Command;
use crate::editor::session::timeline::{KeyRef, TimelineCommand as T};
use crate::model::anim::{ClipSettings, LoopMode};
use crate::model::scene::edit::Op;
use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

/// Rows shown at most (the panel scrolls past them).
const ROW: f32 = 18.0;
/// Width of the names column.
const NAMES: f32 = 150.0;

/// What a drag on the timeline is doing.
#[derive(Clone, Copy, Debug)]
enum Drag {
    /// Moving the key selection; `at` is the grabbed key's time now, `before` and `after`
    /// how far the selection reaches before and after it (it stays inside the clip).
    Keys { at: f32, before: f32, after: f32 },
    /// Selecting the keys inside a box from `from`; `add` keeps the keys already selected.
    Box { from: Pos2, add: bool },
    /// Scrubbing the playhead.
    Scrub,
}

/// The drag in progress, and where the track area was last drawn.
pub struct TimelineState {
    drag: Option<Drag>,
    /// The track area of the last frame.
    pub track: Rect,
    /// How many times the clip is magnified across the track (1 = the whole clip).
    pub zoom: f32,
    /// The time at the track's left edge.
    pub start: f32,
}

impl Default for TimelineState {
    fn default() -> Self {
        Self {
            drag: None,
            track: Rect::NOTHING,
            zoom: 1.0,
            start: 0.0,
        }
    }
}

/// Draw the panel; returns its commands.
pub fn ui(ui: &mut egui::Ui, editor: &Editor, state: &mut TimelineState) -> Vec<Command> {
    let mut out = Vec::new();
    let scene = editor.doc().scene();
    let clip = scene.clip();
    toolbar(ui, editor, clip, &mut out);
    let animated = scene.animated_nodes();
    let rows = animated.len().max(1) as f32;
    let (rect, response) = ui.allocate_exact_size(
        vec2(ui.available_width(), ROW * (rows + 1.0) + 4.0),
        Sense::click_and_drag(),
    );
    let painter = ui.painter_at(rect);
    let track = Rect::from_min_max(rect.min + vec2(NAMES, 0.0), rect.max - vec2(8.0, 0.0));
    state.track = track;
    zoom_and_pan(ui, &response, track, clip, state);
    let (start, span) = (state.start, clip.length / state.zoom);
    let x_of = |t: f32| track.left() + (t - start) / span * track.width();
    let t_of = |x: f32| (start + (x - track.left()) / track.width() * span).clamp(0.0, clip.length);
    ruler(&painter, track, (start, span), x_of);
    if animated.is_empty() {
        painter.text(
            Pos2::new(rect.left() + 4.0, rect.top() + ROW * 1.5),
            egui::Align2::LEFT_CENTER,
            "No animation: select nodes and press K to key them at the current time",
            egui::FontId::proportional(12.0),
            Color32::from_gray(140),
        );
    }
    let pointer = response.interact_pointer_pos();
    let selected_keys = editor.selected_keys();
    let is_selected = |key: &KeyRef| {
        selected_keys
            .iter()
            .any(|k| k.node == key.node && k.time.to_bits() == key.time.to_bits())
    };
    let (press, add) = ui.input(|i| {
        (
            i.pointer.press_origin(),
            i.modifiers.shift || i.modifiers.command,
        )
    });
    let mut hit: Option<KeyRef> = None;
    let mut pressed: Option<KeyRef> = None;
    let mut diamonds: Vec<(KeyRef, Pos2)> = Vec::new();
    // Only the rows in view are drawn: a scene may animate thousands of nodes.
    let visible = ui.clip_rect().expand(ROW);
    let first = (((visible.top() - rect.top()) / ROW - 1.5).floor().max(0.0)) as usize;
    let last = (((visible.bottom() - rect.top()) / ROW).ceil().max(0.0)) as usize;
    for (row, &node) in animated.iter().enumerate().take(last).skip(first) {
        let y = rect.top() + ROW * (row as f32 + 1.5);
        let data = match scene.node(node) {
            Ok(d) => d,
            Err(_) => continue,
        };
        let selected = editor.is_selected(node);
        let color = if selected {
            Color32::from_rgb(255, 210, 60)
        } else {
            Color32::from_gray(200)
        };
        painter.text(
            Pos2::new(rect.left() + 4.0, y),
            egui::Align2::LEFT_CENTER,
            &data.name,
            egui::FontId::proportional(12.0),
            color,
        );
        for t in crate::model::anim::key_times(&data.tracks) {
            let c = Pos2::new(x_of(t), y);
            if c.x < track.left() - 6.0 || c.x > track.right() + 6.0 {
                continue; // outside the zoomed span
            }
            let key = KeyRef::new(node, t);
            diamond(&painter, c, color, is_selected(&key));
            let near = |p: Option<Pos2>| p.is_some_and(|p| (p - c).length() <= 6.0);
            if near(response.hover_pos().or(pointer)) {
                hit = Some(key);
            }
            if near(press) {
                pressed = Some(key);
            }
            diamonds.push((key, c));
        }
    }
    if response.drag_started() {
        state.drag = Some(match (pressed, press) {
            (Some(key), _) => {
                // Grabbing an unselected diamond selects it alone (or adds it) first.
                let moving = if is_selected(&key) {
                    selected_keys.clone()
                } else if add {
                    selected_keys.iter().copied().chain([key]).collect()
                } else {
                    vec![key]
                };
                if !is_selected(&key) {
                    out.push(Command::Timeline(T::SelectKeys(moving.clone())));
                }
                let times = moving.iter().map(|k| k.time);
                let earliest = times.clone().fold(key.time, f32::min);
                let latest = times.fold(key.time, f32::max);
                Drag::Keys {
                    at: key.time,
                    before: key.time - earliest,
                    after: latest - key.time,
                }
            }
            (None, Some(p)) if p.y > track.top() + ROW && !animated.is_empty() => {
                Drag::Box { from: p, add }
            }
            _ => Drag::Scrub,
        });
    }
    let released = response.drag_stopped() || !response.dragged();
    match state.drag {
        Some(Drag::Keys { at, before, after }) => {
            if let Some(p) = pointer {
                let to = t_of(p.x).clamp(before, (clip.length - after).max(before));
                let by = to - at;
                if by != 0.0 {
                    out.push(Command::Timeline(T::MoveSelectedKeys { by }));
                    let at = (at + by).max(0.0);
                    state.drag = Some(Drag::Keys { at, before, after });
                }
            }
            if released {
                state.drag = None;
                out.push(Command::EndGesture);
            }
        }
        Some(Drag::Box { from, add }) => {
            let to = pointer.or(response.hover_pos()).unwrap_or(from);
            let band = Rect::from_two_pos(from, to);
            painter.rect(
                band,
                0.0,
                Color32::from_rgba_unmultiplied(90, 200, 255, 30),
                Stroke::new(1.0, Color32::from_rgb(90, 200, 255)),
                egui::StrokeKind::Inside,
            );
            if released {
                state.drag = None;
                let inside = diamonds.iter().filter(|(_, c)| band.contains(*c));
                let mut keys: Vec<KeyRef> = if add {
                    selected_keys.clone()
                } else {
                    Vec::new()
                };
                keys.extend(inside.map(|(k, _)| *k));
                out.push(Command::Timeline(T::SelectKeys(keys)));
            }
        }
        Some(Drag::Scrub) => {
            if let Some(p) = pointer {
                out.push(Command::Timeline(T::SetTime(t_of(p.x))));
            }
            if released {
                state.drag = None;
            }
        }
        None => {}
    }
    if state.drag.is_none() && !response.drag_stopped() {
        clicks(
            &response,
            (hit, pointer, add),
            &selected_keys,
            &t_of,
            track,
            &mut out,
        );
    }
    let playhead = x_of(editor.timeline().local_time(clip)).clamp(track.left(), track.right());
    painter.line_segment(
        [
            Pos2::new(playhead, rect.top()),
            Pos2::new(playhead, rect.bottom()),
        ],
        Stroke::new(1.5, Color32::from_rgb(90, 200, 255)),
    );
    out
}

/// A click on a diamond selects it (Shift or Ctrl: adds or removes it); a right-click deletes
/// it, or the whole selection when it is part of it; a click elsewhere scrubs and, without
/// Shift, clears the key selection.
fn clicks(
    response: &egui::Response,
    (hit, pointer, add): (Option<KeyRef>, Option<Pos2>, bool),
    selected_keys: &[KeyRef],
    t_of: &impl Fn(f32) -> f32,
    track: Rect,
    out: &mut Vec<Command>,
) {
    let in_selection = |key: &KeyRef| {
        selected_keys
            .iter()
            .any(|k| k.node == key.node && k.time.to_bits() == key.time.to_bits())
    };
    if response.secondary_clicked()
        && let Some(key) = hit
    {
        out.push(Command::Timeline(if in_selection(&key) {
            T::DeleteSelectedKeys
        } else {
            T::DeleteKeys {
                node: key.node,
                at: key.time,
            }
        }));
    } else if response.clicked() {
        match hit {
            Some(key) if add => out.push(Command::Timeline(T::ToggleKey(key))),
            Some(key) => out.push(Command::Timeline(T::SelectKeys(vec![key]))),
            None => {
                if !add && !selected_keys.is_empty() {
                    out.push(Command::Timeline(T::SelectKeys(Vec::new())));
                }
                if let Some(p) = pointer
                    && p.x >= track.left()
                {
                    out.push(Command::Timeline(T::SetTime(t_of(p.x))));
                }
            }
        }
    }
}

/// Play, stop, time, length, loop mode, Key, trails.
fn toolbar(ui: &mut egui::Ui, editor: &Editor, clip: ClipSettings, out: &mut Vec<Command>) {
    let timeline = editor.timeline();
    ui.horizontal(|ui| {
        if ui.button("⏹").on_hover_text("Stop: back to 0 s").clicked() {
            out.push(Command::Timeline(T::Stop));
        }
        let play = if timeline.playing {
            "⏸ Pause"
        } else {
            "▶ Play"
        };
        if ui
            .button(play)
            .on_hover_text("Play or pause (Ctrl+Space)")
            .clicked()
        {
            out.push(Command::Timeline(T::TogglePlay));
        }
        let mut time = timeline.local_time(clip);
        ui.label("time");
        if ui
            .add(
                egui::DragValue::new(&mut time)
                    .speed(0.01)
                    .range(0.0..=clip.length)
                    .suffix(" s"),
            )
            .changed()
        {
            out.push(Command::Timeline(T::SetTime(time)));
        }
        let mut settings = clip;
        ui.label("length");
        let length = ui.add(
            egui::DragValue::new(&mut settings.length)
                .speed(0.05)
                .range(0.05..=3600.0)
                .suffix(" s"),
        );
        egui::ComboBox::from_label("repeat")
            .selected_text(mode_name(settings.mode))
            .show_ui(ui, |ui| {
                for mode in [LoopMode::Once, LoopMode::Loop, LoopMode::PingPong] {
                    ui.selectable_value(&mut settings.mode, mode, mode_name(mode));
                }
            });
        if settings != clip {
            out.push(Command::Perform {
                label: "Change the clip".into(),
                ops: vec![Op::SetClip { settings }],
                continuous: true,
            });
        }
        if length.drag_stopped()
            || (length.changed() && !length.dragged())
            || settings.mode != clip.mode
        {
            out.push(Command::EndGesture);
        }
        ui.separator();
        if ui
            .add_enabled(!editor.selection().is_empty(), egui::Button::new("Key (K)"))
            .on_hover_text("Key the selected nodes' position, rotation and scale at this time")
            .clicked()
        {
            out.push(Command::Timeline(T::KeySelection));
        }
        let mut auto_key = timeline.auto_key;
        if ui
            .checkbox(&mut auto_key, "auto-key")
            .on_hover_text(
                "While on, moving, turning or scaling a node writes keys at the current time",
            )
            .changed()
        {
            out.push(Command::Timeline(T::ToggleAutoKey));
        }
        let keys = editor.selected_keys().len();
        if keys > 0 {
            ui.separator();
            ui.label(format!("{keys} key(s) selected"));
            if ui
                .button("Delete keys")
                .on_hover_text("Delete the selected keys (Del)")
                .clicked()
            {
                out.push(Command::Timeline(T::DeleteSelectedKeys));
            }
        }
        let mut trails = timeline.trails;
        if ui
            .checkbox(&mut trails, "trails (T)")
            .on_hover_text("The path of the selected nodes' world origins over the clip")
            .changed()
        {
            out.push(Command::Timeline(T::ToggleTrails));
        }
    });
}

fn mode_name(mode: LoopMode) -> &'static str {
    match mode {
        LoopMode::Once => "once",
        LoopMode::Loop => "loop",
        LoopMode::PingPong => "ping-pong",
    }
}

/// Ctrl + wheel (or a pinch) over the timeline zooms its time axis around the pointer; Shift +
/// wheel pans it. The view never leaves the clip.
fn zoom_and_pan(
    ui: &egui::Ui,
    response: &egui::Response,
    track: Rect,
    clip: ClipSettings,
    state: &mut TimelineState,
) {
    if response.hovered() {
        let (zoom, scroll, shift, pointer) = ui.input(|i| {
            (
                i.zoom_delta(),
                i.smooth_scroll_delta.x + i.smooth_scroll_delta.y,
                i.modifiers.shift,
                i.pointer.hover_pos(),
            )
        });
        let span = clip.length / state.zoom;
        if zoom != 1.0
            && let Some(p) = pointer
        {
            let at = state.start + (p.x - track.left()) / track.width().max(1.0) * span;
            state.zoom = (state.zoom * zoom).clamp(1.0, 200.0);
            let new_span = clip.length / state.zoom;
            state.start = at - (p.x - track.left()) / track.width().max(1.0) * new_span;
        } else if shift && scroll != 0.0 {
            state.start -= scroll / track.width().max(1.0) * span;
        }
    }
    let span = clip.length / state.zoom;
    state.start = state.start.clamp(0.0, (clip.length - span).max(0.0));
}

/// Ticks and labels along the top of the track area, for the times `start .. start + span`.
fn ruler(
    painter: &egui::Painter,
    track: Rect,
    (start, span): (f32, f32),
    x_of: impl Fn(f32) -> f32,
) {
    let step = [
        0.01f32, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
    ]
    .into_iter()
    .find(|s| span / s <= 12.0)
    .unwrap_or(120.0);
    let mut t = (start / step).ceil() * step;
    while t <= start + span + 1e-4 {
        let x = x_of(t);
        painter.line_segment(
            [
                Pos2::new(x, track.top() + 10.0),
                Pos2::new(x, track.bottom()),
            ],
            Stroke::new(1.0, Color32::from_gray(55)),
        );
        painter.text(
            Pos2::new(x + 2.0, track.top()),
            egui::Align2::LEFT_TOP,
            format!("{t:.2}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string(),
            egui::FontId::proportional(10.0),
            Color32::from_gray(130),
        );
        t += step;
    }
}

fn diamond(painter: &egui::Painter, c: Pos2, color: Color32, selected: bool) {
    let (r, color, outline) = if selected {
        (
            6.0,
            Color32::from_rgb(255, 140, 40),
            Stroke::new(1.5, Color32::WHITE),
        )
    } else {
        (5.0, color, Stroke::new(1.0, Color32::from_gray(30)))
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
