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
pub struct Frame<'a, K> {
    /// The time axis.
    pub axis: TimeAxis,
    /// The diamonds drawn this frame (the rows in view, inside the zoomed span).
    pub diamonds: &'a [Diamond<K>],
    /// The key selection.
    pub selected: &'a [K],
}

impl<K: TimedKey> Frame<'_, K> {
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
mod tests {
    use super::*;

    type Key = (NodeId, f32);
    const A: NodeId = NodeId(1);
    const B: NodeId = NodeId(2);

    fn view(zoom: f32, start: f32) -> TimeView {
        TimeView { zoom, start }
    }

    fn track(left: f32, right: f32) -> Track {
        Track { left, right }
    }

    /// A 10 s clip across a track from x = 100 to x = 300 (20 points a second), unzoomed.
    fn axis() -> TimeAxis {
        TimeAxis::new(track(100.0, 300.0), view(1.0, 0.0), 10.0)
    }

    fn dia(key: Key, x: f32, y: f32) -> Diamond<Key> {
        let centre = Vec2::new(x, y);
        Diamond { key, centre }
    }

    /// Diamonds for A at 1, 2 and 5 s on row y = 30 and B at 2 s on row y = 50.
    fn diamonds() -> Vec<Diamond<Key>> {
        let d = |node, t, y| dia((node, t), axis().x_of(t), y);
        vec![
            d(A, 1.0, 30.0),
            d(A, 2.0, 30.0),
            d(A, 5.0, 30.0),
            d(B, 2.0, 50.0),
        ]
    }

    fn frame<'a>(diamonds: &'a [Diamond<Key>], selected: &'a [Key]) -> Frame<'a, Key> {
        let axis = axis();
        Frame {
            axis,
            diamonds,
            selected,
        }
    }

    /// The pointer pressing, hovering and first pressed at (x, y).
    fn at(x: f32, y: f32, add: bool) -> Pointer {
        let p = Some(Vec2::new(x, y));
        let (down, hover, press) = (p, p, p);
        Pointer {
            down,
            hover,
            press,
            add,
        }
    }

    impl TimedKey for (NodeId, f32) {
        fn node(&self) -> NodeId {
            self.0
        }
        fn time(&self) -> f32 {
            self.1
        }
    }

    fn keys(at: f32, before: f32, after: f32) -> Drag {
        Drag::Keys { at, before, after }
    }

    #[test]
    fn a_pick_hits_within_the_radius_and_the_nearest_wins() {
        let d = diamonds();
        let p = |x, y| Some(Vec2::new(x, y));
        assert_eq!(pick(&d, p(126.0, 30.0)), Some((A, 1.0)), "6 points off");
        assert_eq!(pick(&d, p(126.5, 30.0)), None);
        assert_eq!(pick(&d, None), None);
        let close = [dia((A, 1.0), 0.0, 0.0), dia((A, 1.1), 4.0, 0.0)];
        assert_eq!(pick(&close, p(1.5, 0.0)), Some((A, 1.0)));
        assert_eq!(pick(&close, p(2.5, 1.0)), Some((A, 1.1)));
        // A tie goes to the later diamond: it is drawn on top.
        assert_eq!(pick(&close, p(2.0, 0.0)), Some((A, 1.1)));
    }

    #[test]
    fn a_box_takes_the_diamonds_inside_it_after_the_kept_keys() {
        let d = diamonds();
        // From 1.5 s to 5 s (edge included), over both rows, drawn right to left.
        let band = (Vec2::new(200.0, 60.0), Vec2::new(130.0, 20.0));
        let inside = vec![(A, 2.0), (A, 5.0), (B, 2.0)];
        assert_eq!(box_select(&d, band, &[]), inside);
        let kept = box_select(&d, band, &[(A, 1.0)]);
        assert_eq!((kept[0], kept.len()), ((A, 1.0), 4), "kept first");
        let empty = (Vec2::new(101.0, 0.0), Vec2::new(110.0, 100.0));
        assert!(box_select(&d, empty, &[]).is_empty());
    }

    #[test]
    fn time_and_x_map_both_ways_and_a_time_stays_in_the_clip() {
        let axis = axis();
        assert_eq!((axis.x_of(0.0), axis.x_of(5.0)), (100.0, 200.0));
        assert_eq!(axis.t_of(160.0), 3.0);
        assert_eq!(axis.t_of(50.0), 0.0, "left of the track is 0 s");
        assert_eq!(axis.t_of(900.0), 10.0, "right of it is the clip's end");
        let zoomed = TimeAxis::new(axis.track, view(4.0, 4.5), 10.0);
        assert_eq!(zoomed.span, 2.5);
        assert_eq!((zoomed.t_of(100.0), zoomed.x_of(7.0)), (4.5, 300.0));
        assert!(zoomed.shows(306.0) && !zoomed.shows(306.5));
        assert!(zoomed.shows(94.0) && !zoomed.shows(93.5));
    }

    #[test]
    fn zooming_keeps_the_time_under_the_pointer_and_panning_stays_in_the_clip() {
        let track = axis().track;
        let go = |v, zoom, scroll, shift| {
            let pointer_x = Some(200.0);
            let wheel = Wheel {
                zoom,
                scroll,
                shift,
                pointer_x,
            };
            zoom_and_pan(v, Some(wheel), track, 12.0)
        };
        // A 12 s clip zoomed 4x at the middle: 6 s stays there, the span is 3 s.
        let v = go(view(1.0, 0.0), 4.0, 0.0, false);
        assert_eq!(v.zoom, 4.0);
        assert!((v.start - 4.5).abs() < 1e-5, "{v:?}");
        assert_eq!(go(v, 1e6, 0.0, false).zoom, 200.0);
        assert_eq!(go(v, 1e-6, 0.0, false), view(1.0, 0.0));
        // Shift + scroll pans by the scrolled share of the span, never past the clip.
        let panned = go(v, 1.0, -20.0, true);
        assert!((panned.start - 4.8).abs() < 1e-5, "{panned:?}");
        assert_eq!(go(v, 1.0, -1e5, true).start, 9.0);
        assert_eq!(go(v, 1.0, -20.0, false), v, "no Shift: no pan");
        // Not hovered: nothing but the clamp into the clip.
        let out = zoom_and_pan(view(4.0, 11.0), None, track, 12.0);
        assert_eq!(out, view(4.0, 9.0));
    }

    #[test]
    fn the_ruler_puts_at_most_twelve_ticks_on_the_span() {
        let steps = [10.0, 0.1, 12.0, 12.5, 3600.0].map(tick_step);
        assert_eq!(steps, [1.0, 0.01, 1.0, 2.0, 120.0]);
        let ticks = axis().ticks();
        assert_eq!((ticks.len(), ticks[0], ticks[10]), (11, 0.0, 10.0));
        let zoomed = TimeAxis::new(axis().track, view(4.0, 4.3), 10.0);
        assert_eq!(zoomed.ticks()[0], 4.5, "the first at or after the start");
    }

    #[test]
    fn a_click_selects_one_key_shift_or_ctrl_toggles_it_a_right_click_deletes() {
        let (d, selected) = (diamonds(), [(A, 5.0)]);
        let f = frame(&d, &selected);
        let on = |add| at(140.0, 30.0, add);
        let one = vec![Ask::SelectKeys(vec![(A, 2.0)])];
        assert_eq!(f.click(&on(false), true, false), one);
        let toggle = vec![Ask::ToggleKey((A, 2.0))];
        assert_eq!(f.click(&on(true), true, false), toggle);
        assert!(f.click(&on(false), false, false).is_empty(), "no click");
        // A right-click deletes the key, or the whole selection when it is part of it.
        let unselected = f.click(&on(false), false, true);
        assert_eq!(unselected, vec![Ask::DeleteKeys((A, 2.0))]);
        let part = f.click(&at(200.0, 30.0, false), false, true);
        assert_eq!(part, vec![Ask::DeleteSelectedKeys]);
        let nothing = f.click(&at(250.0, 30.0, false), false, true);
        assert!(nothing.is_empty(), "on nothing");
    }

    #[test]
    fn a_click_on_nothing_clears_the_keys_unless_adding_and_scrubs_over_the_track() {
        let (d, selected) = (diamonds(), [(A, 5.0)]);
        let f = frame(&d, &selected);
        let (clear, scrub) = (Ask::SelectKeys(Vec::new()), Ask::SetTime(3.0));
        let empty = at(160.0, 40.0, false);
        let both = vec![clear.clone(), scrub.clone()];
        assert_eq!(f.click(&empty, true, false), both);
        let adding = f.click(&at(160.0, 40.0, true), true, false);
        assert_eq!(adding, vec![scrub.clone()], "Shift / Ctrl keeps the keys");
        // Over the names column: no scrub.
        assert_eq!(f.click(&at(60.0, 40.0, false), true, false), vec![clear]);
        // Nothing selected: nothing to clear.
        assert_eq!(frame(&d, &[]).click(&empty, true, false), vec![scrub]);
    }

    #[test]
    fn a_drag_on_a_key_moves_the_selection_on_rows_draws_a_box_elsewhere_scrubs() {
        let (d, selected) = (diamonds(), [(A, 1.0), (A, 5.0)]);
        let f = frame(&d, &selected);
        let begin = |x, y, add| f.begin_drag(&at(x, y, add), Some(20.0));
        // A selected key: the selection moves as it is.
        let (drag, asks) = begin(200.0, 30.0, false);
        assert_eq!((drag, asks), (keys(5.0, 4.0, 0.0), vec![]));
        // An unselected one: selected alone first, or added with Shift / Ctrl.
        let (drag, asks) = begin(140.0, 50.0, false);
        let alone = vec![Ask::SelectKeys(vec![(B, 2.0)])];
        assert_eq!((drag, asks), (keys(2.0, 0.0, 0.0), alone));
        let (drag, asks) = begin(140.0, 50.0, true);
        let added = vec![Ask::SelectKeys(vec![(A, 1.0), (A, 5.0), (B, 2.0)])];
        assert_eq!((drag, asks), (keys(2.0, 1.0, 3.0), added));
        // Empty rows below the ruler: a box; the ruler, or no rows at all: a scrub.
        let from = Vec2::new(250.0, 40.0);
        assert_eq!(begin(250.0, 40.0, true).0, Drag::Box { from, add: true });
        assert_eq!(begin(250.0, 10.0, false).0, Drag::Scrub);
        let no_rows = f.begin_drag(&at(250.0, 40.0, false), None).0;
        assert_eq!(no_rows, Drag::Scrub);
    }

    #[test]
    fn a_key_drag_keeps_the_whole_selection_inside_the_clip() {
        let d = diamonds();
        let f = frame(&d, &[]);
        // The grabbed key at 2 s with the selection reaching 1 s before and 3 s after it.
        let to = |x| f.move_keys(2.0, (1.0, 3.0), x);
        assert_eq!(to(160.0), Some((1.0, 3.0)));
        assert_eq!(to(900.0), Some((5.0, 7.0)), "its end stays at 10 s");
        assert_eq!(to(0.0), Some((-1.0, 1.0)), "its start stays at 0 s");
        assert_eq!(to(140.0), None, "no move, no ask");
        // A selection longer than the clip cannot move right.
        assert_eq!(f.move_keys(2.0, (2.0, 20.0), 300.0), None);
        let moved = f.follow(keys(2.0, 1.0, 3.0), &at(160.0, 30.0, false), false);
        let asks = vec![Ask::MoveSelectedKeys(1.0)];
        assert_eq!(moved, (Some(keys(3.0, 1.0, 3.0)), asks));
        let released = f.follow(keys(2.0, 1.0, 3.0), &at(140.0, 30.0, false), true);
        assert_eq!(released, (None, vec![Ask::EndGesture]), "one step ends");
    }
}
