//! The timeline's rules as plain data, without the window toolkit: the time axis (time <-> x
//! with zoom and pan, the ruler's ticks), which key diamond is under a point, what a click
//! asks for, which keys a box takes, and a drag of the key selection kept inside the clip.
//! The panel turns pointer input into these calls, their asks into commands, and paints.

use crate::model::scene::NodeId;
use glam::Vec2;
use std::ops::Range;

/// The half size of a selected (the biggest) diamond, which is also the pick radius, in points.
pub const DIAMOND: f32 = 6.0;

/// Zoom limits: 1 shows the whole clip across the track.
const ZOOM: (f32, f32) = (1.0, 200.0);

/// Tick steps of the ruler in seconds, the first that puts at most 12 ticks on the track wins.
const STEPS: [f32; 12] = [
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
];

/// No ruler draws more ticks than this (a clip of a million seconds would hang the frame).
const MAX_TICKS: usize = 1000;

/// `x` held between `lo` and `hi` without ever panicking (`lo` wins when the bounds cross).
fn hold(x: f32, lo: f32, hi: f32) -> f32 {
    x.min(hi).max(lo)
}

/// One diamond's identity: a node's keys at one time.
pub trait TimedKey: Copy {
    /// The node whose keys these are.
    fn node(&self) -> NodeId;
    /// Their time in seconds.
    fn time(&self) -> f32;
    /// The same diamond: the same node and the same time, bit for bit.
    fn same(&self, other: &Self) -> bool {
        self.node() == other.node() && self.time().to_bits() == other.time().to_bits()
    }
}

/// Whether `key` is one of `selected`.
pub fn is_selected<K: TimedKey>(key: &K, selected: &[K]) -> bool {
    selected.iter().any(|k| k.same(key))
}

/// A key diamond as drawn this frame: the key and its centre on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diamond<K> {
    /// The keys it stands for.
    pub key: K,
    /// Its centre in screen points.
    pub centre: Vec2,
}

/// The diamond under `at`: within [`DIAMOND`] of its centre, the nearest wins (on a tie the
/// later one, drawn on top).
pub fn pick<K: Copy>(diamonds: &[Diamond<K>], at: Option<Vec2>) -> Option<K> {
    let at = at?;
    let mut best: Option<(f32, K)> = None;
    for d in diamonds {
        let off = at - d.centre;
        let distance = off.x.hypot(off.y);
        if distance <= DIAMOND && best.is_none_or(|(b, _)| distance <= b) {
            best = Some((distance, d.key));
        }
    }
    best.map(|(_, key)| key)
}

/// The keys a box from `a` to `b` (screen points, edges included) selects: `kept` first (the
/// selection when adding, else nothing), then the diamonds inside in drawing order.
pub fn box_select<K: Copy>(diamonds: &[Diamond<K>], (a, b): (Vec2, Vec2), kept: &[K]) -> Vec<K> {
    let (lo, hi) = (a.min(b), a.max(b));
    let inside = diamonds
        .iter()
        .filter(|d| d.centre.cmpge(lo).all() && d.centre.cmple(hi).all());
    kept.iter().copied().chain(inside.map(|d| d.key)).collect()
}

/// The rows of height `row` to draw when the visible band runs from `top` to `bottom` (both
/// measured from the panel's top; the ruler takes the first row).
pub fn rows_in_view(top: f32, bottom: f32, row: f32) -> Range<usize> {
    let first = ((top / row - 1.5).floor().max(0.0)) as usize;
    let last = ((bottom / row).ceil().max(0.0)) as usize;
    first..last.max(first)
}

/// The centre of row `index` below the panel's top (under the ruler's row).
pub fn row_centre(index: usize, row: f32) -> f32 {
    row * (index as f32 + 1.5)
}

/// The track area's left and right edges on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track {
    /// Its left edge (time `start`).
    pub left: f32,
    /// Its right edge (time `start + span`).
    pub right: f32,
}

impl Track {
    /// Its width (negative when the panel is narrower than the names column).
    pub fn width(&self) -> f32 {
        self.right - self.left
    }
}

/// How far the time axis is magnified and where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeView {
    /// How many times the clip is magnified across the track (1 = the whole clip).
    pub zoom: f32,
    /// The time at the track's left edge.
    pub start: f32,
}

/// One frame's wheel input over the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wheel {
    /// The zoom factor asked for (Ctrl + wheel or a pinch); 1 is none.
    pub zoom: f32,
    /// The scroll in points (both axes added).
    pub scroll: f32,
    /// Shift is held: the scroll pans.
    pub shift: bool,
    /// The pointer's x, when it is over the window.
    pub pointer_x: Option<f32>,
}

/// The view after this frame's wheel (none unless the pointer hovers the timeline): a zoom
/// keeps the time under the pointer in place, Shift + scroll pans; the view never leaves the
/// clip of this `length`.
pub fn zoom_and_pan(
    mut view: TimeView,
    wheel: Option<Wheel>,
    track: Track,
    length: f32,
) -> TimeView {
    if let Some(wheel) = wheel {
        let width = track.width().max(1.0);
        let span = length / view.zoom;
        if wheel.zoom != 1.0
            && let Some(x) = wheel.pointer_x
        {
            let at = view.start + (x - track.left) / width * span;
            view.zoom = (view.zoom * wheel.zoom).clamp(ZOOM.0, ZOOM.1);
            let new_span = length / view.zoom;
            view.start = at - (x - track.left) / width * new_span;
        } else if wheel.shift && wheel.scroll != 0.0 {
            view.start -= wheel.scroll / width * span;
        }
    }
    let span = length / view.zoom;
    view.start = view.start.clamp(0.0, (length - span).max(0.0));
    view
}

/// One frame's time axis: the times `start .. start + span` of a clip of `length` seconds
/// across the track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// Where it is drawn.
    pub track: Track,
    /// The time at the left edge.
    pub start: f32,
    /// The seconds across the track.
    pub span: f32,
    /// The clip's length in seconds.
    pub length: f32,
}

impl TimeAxis {
    /// The axis of `view` over a clip of `length` seconds.
    pub fn new(track: Track, view: TimeView, length: f32) -> Self {
        Self {
            track,
            start: view.start,
            span: length / view.zoom,
            length,
        }
    }

    /// The x of time `t`.
    pub fn x_of(&self, t: f32) -> f32 {
        self.track.left + (t - self.start) / self.span * self.track.width()
    }

    /// The time at `x`, held inside the clip.
    pub fn t_of(&self, x: f32) -> f32 {
        let t = self.start + (x - self.track.left) / self.track.width() * self.span;
        hold(t, 0.0, self.length)
    }

    /// Whether a diamond centred at `x` shows (part of it is over the track).
    pub fn shows(&self, x: f32) -> bool {
        x >= self.track.left - DIAMOND && x <= self.track.right + DIAMOND
    }

    /// The playhead's x at time `t`, held on the track.
    pub fn playhead(&self, t: f32) -> f32 {
        hold(self.x_of(t), self.track.left, self.track.right)
    }

    /// The ruler's tick times: every [`tick_step`] from the first at or after `start` to the
    /// track's right edge.
    pub fn ticks(&self) -> Vec<f32> {
        let step = tick_step(self.span);
        let end = self.start + self.span + 1e-4;
        let mut t = (self.start / step).ceil() * step;
        let mut out = Vec::new();
        while t <= end && out.len() < MAX_TICKS {
            out.push(t);
            let next = t + step;
            if next <= t {
                break; // too far out for the step to count
            }
            t = next;
        }
        out
    }
}

/// The ruler's tick step for `span` seconds across the track: at most 12 ticks, 120 s past
/// the table.
pub fn tick_step(span: f32) -> f32 {
    STEPS
        .into_iter()
        .find(|s| span / s <= 12.0)
        .unwrap_or(120.0)
}

/// A tick's label: its time with at most two decimals, trailing zeros dropped ("0.5", "2").
pub fn tick_label(t: f32) -> String {
    format!("{t:.2}")
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// What the pointer does over the timeline this frame, in screen points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pointer {
    /// Where it is while it presses on the timeline.
    pub down: Option<Vec2>,
    /// Where it hovers.
    pub hover: Option<Vec2>,
    /// Where the current press began.
    pub press: Option<Vec2>,
    /// Shift or Ctrl is held: add to the key selection (or toggle) instead of replacing it.
    pub add: bool,
}

/// What the timeline asks the session for; the panel turns each into a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask<K> {
    /// Make these the key selection.
    SelectKeys(Vec<K>),
    /// Add this key to the selection or take it out.
    ToggleKey(K),
    /// Delete these keys (a node's keys at one time).
    DeleteKeys(K),
    /// Delete the whole key selection.
    DeleteSelectedKeys,
    /// Move the playhead to this time.
    SetTime(f32),
    /// Move the key selection by these seconds (part of one undo step).
    MoveSelectedKeys(f32),
    /// End the drag's undo step.
    EndGesture,
}

/// What a drag on the timeline is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    /// Moving the key selection; `at` is the grabbed key's time now, `before` and `after`
    /// how far the selection reaches before and after it (it stays inside the clip).
    Keys {
        /// The grabbed key's time now.
        at: f32,
        /// How far the selection reaches before the grabbed key, in seconds.
        before: f32,
        /// How far it reaches after it.
        after: f32,
    },
    /// Selecting the keys inside a box from `from`; `add` keeps the keys already selected.
    Box {
        /// Where the box began (screen points).
        from: Vec2,
        /// Keep the keys already selected.
        add: bool,
    },
    /// Scrubbing the playhead.
    Scrub,
}

impl Drag {
    /// The box being drawn, from its start to the pointer (pressing, else hovering).
    pub fn band(&self, pointer: &Pointer) -> Option<(Vec2, Vec2)> {
        match *self {
            Drag::Box { from, .. } => Some((from, pointer.down.or(pointer.hover).unwrap_or(from))),
            _ => None,
        }
    }
}

/// One frame of the timeline as its rules see it: the axis, the diamonds drawn and the key
/// selection.
#[derive(Clone, Copy, Debug)]
pub struct TimelineFrame<'a, K> {
    /// The time axis.
    pub axis: TimeAxis,
    /// The diamonds drawn this frame (the rows in view, inside the zoomed span).
    pub diamonds: &'a [Diamond<K>],
    /// The key selection.
    pub selected: &'a [K],
}

impl<K: TimedKey> TimelineFrame<'_, K> {
    /// A drag begins. On a diamond it moves the selection (an unselected diamond is selected
    /// alone first, or added with `add`); on the rows below `rows_top` (none when nothing is
    /// animated) it draws a box; elsewhere it scrubs.
    pub fn begin_drag(&self, pointer: &Pointer, rows_top: Option<f32>) -> (Drag, Vec<Ask<K>>) {
        match (pick(self.diamonds, pointer.press), pointer.press) {
            (Some(key), _) => self.grab(key, pointer.add),
            (None, Some(p)) if rows_top.is_some_and(|top| p.y > top) => (
                Drag::Box {
                    from: p,
                    add: pointer.add,
                },
                Vec::new(),
            ),
            _ => (Drag::Scrub, Vec::new()),
        }
    }

    /// Grabbing `key`: the keys that will move and how far they reach around it.
    fn grab(&self, key: K, add: bool) -> (Drag, Vec<Ask<K>>) {
        let selected = is_selected(&key, self.selected);
        let moving: Vec<K> = if selected {
            self.selected.to_vec()
        } else if add {
            self.selected.iter().copied().chain([key]).collect()
        } else {
            vec![key]
        };
        let at = key.time();
        let earliest = moving.iter().map(|k| k.time()).fold(at, f32::min);
        let latest = moving.iter().map(|k| k.time()).fold(at, f32::max);
        let drag = Drag::Keys {
            at,
            before: at - earliest,
            after: latest - at,
        };
        let asks = if selected {
            Vec::new()
        } else {
            vec![Ask::SelectKeys(moving)]
        };
        (drag, asks)
    }

    /// One frame of `drag`: what it asks for, and the drag that goes on (none once
    /// `released`).
    pub fn follow(
        &self,
        drag: Drag,
        pointer: &Pointer,
        released: bool,
    ) -> (Option<Drag>, Vec<Ask<K>>) {
        let mut asks = Vec::new();
        let mut next = Some(drag);
        match drag {
            Drag::Keys { at, before, after } => {
                if let Some(p) = pointer.down
                    && let Some((by, at)) = self.move_keys(at, (before, after), p.x)
                {
                    asks.push(Ask::MoveSelectedKeys(by));
                    next = Some(Drag::Keys { at, before, after });
                }
                if released {
                    asks.push(Ask::EndGesture);
                }
            }
            Drag::Box { add, .. } => {
                if released && let Some(band) = drag.band(pointer) {
                    let kept = if add { self.selected } else { &[] };
                    asks.push(Ask::SelectKeys(box_select(self.diamonds, band, kept)));
                }
            }
            Drag::Scrub => asks.extend(pointer.down.map(|p| Ask::SetTime(self.axis.t_of(p.x)))),
        }
        (if released { None } else { next }, asks)
    }

    /// The grabbed key at `at` follows the pointer's `x`, held so the selection (reaching
    /// `before` and `after` around it) stays inside the clip: how far it moves and where it
    /// lands, or none when it stays.
    pub fn move_keys(&self, at: f32, (before, after): (f32, f32), x: f32) -> Option<(f32, f32)> {
        let to = hold(
            self.axis.t_of(x),
            before,
            (self.axis.length - after).max(before),
        );
        let by = to - at;
        (by != 0.0).then(|| (by, (at + by).max(0.0)))
    }

    /// A click: on a diamond it selects it alone (with `add`: adds or removes it); a
    /// right-click deletes it, or the whole selection when it is part of it; a click elsewhere
    /// clears the key selection (unless `add`) and, over the track, scrubs.
    pub fn click(&self, pointer: &Pointer, primary: bool, secondary: bool) -> Vec<Ask<K>> {
        let hit = pick(self.diamonds, pointer.hover.or(pointer.down));
        if secondary && let Some(key) = hit {
            return vec![if is_selected(&key, self.selected) {
                Ask::DeleteSelectedKeys
            } else {
                Ask::DeleteKeys(key)
            }];
        }
        if !primary {
            return Vec::new();
        }
        match hit {
            Some(key) if pointer.add => vec![Ask::ToggleKey(key)],
            Some(key) => vec![Ask::SelectKeys(vec![key])],
            None => {
                let mut asks = Vec::new();
                if !pointer.add && !self.selected.is_empty() {
                    asks.push(Ask::SelectKeys(Vec::new()));
                }
                if let Some(p) = pointer.down
                    && p.x >= self.axis.track.left
                {
                    asks.push(Ask::SetTime(self.axis.t_of(p.x)));
                }
                asks
            }
        }
    }
}

#[cfg(test)]
mod tests;
