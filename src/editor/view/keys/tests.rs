//! Unit tests of the timeline key rules.
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

fn frame<'a>(diamonds: &'a [Diamond<Key>], selected: &'a [Key]) -> TimelineFrame<'a, Key> {
    let axis = axis();
    TimelineFrame {
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
