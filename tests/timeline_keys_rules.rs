//! The timeline's rules (`editor::view::keys`) from outside, without a window: a key's
//! identity, the rows and the playhead a frame draws, the ruler's labels, and whole gestures
//! (a box, a scrub, a key drag over several frames) as the panel plays them frame by frame.

use glam::Vec2;
use graft::editor::view::keys::{
    Ask, Diamond, Drag, Pointer, TimeAxis, TimeView, TimedKey, TimelineFrame, Track, is_selected,
    row_centre, rows_in_view, tick_label,
};
use graft::model::scene::NodeId;

/// A key as a caller might hold it: a node and a time.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key(NodeId, f32);

impl TimedKey for Key {
    fn node(&self) -> NodeId {
        self.0
    }
    fn time(&self) -> f32 {
        self.1
    }
}

const A: NodeId = NodeId(1);
const B: NodeId = NodeId(2);

/// A 10 s clip across a track from x = 100 to x = 300 (20 points a second), unzoomed.
fn axis() -> TimeAxis {
    let track = Track {
        left: 100.0,
        right: 300.0,
    };
    let view = TimeView {
        zoom: 1.0,
        start: 0.0,
    };
    TimeAxis::new(track, view, 10.0)
}

/// Diamonds for A at 1, 2 and 5 s on row y = 30 and B at 2 s on row y = 50.
fn diamonds() -> Vec<Diamond<Key>> {
    [
        (A, 1.0, 30.0),
        (A, 2.0, 30.0),
        (A, 5.0, 30.0),
        (B, 2.0, 50.0),
    ]
    .map(|(node, t, y)| Diamond {
        key: Key(node, t),
        centre: Vec2::new(axis().x_of(t), y),
    })
    .to_vec()
}

/// The pointer pressing at (x, y), the press having begun there too.
fn at(x: f32, y: f32) -> Pointer {
    let p = Some(Vec2::new(x, y));
    Pointer {
        down: p,
        hover: p,
        press: p,
        add: false,
    }
}

#[test]
fn a_key_is_the_same_only_on_the_same_node_at_the_same_time_bit_for_bit() {
    assert!(Key(A, 1.0).same(&Key(A, 1.0)));
    assert!(!Key(A, 0.0).same(&Key(A, -0.0)), "-0 s is another time");
    assert!(!Key(A, 1.0).same(&Key(B, 1.0)));
    let selected = [Key(A, 2.0), Key(B, 2.0)];
    assert!(is_selected(&Key(B, 2.0), &selected));
    assert!(!is_selected(&Key(B, 3.0), &selected));
}

#[test]
fn the_rows_in_view_are_the_visible_band_and_a_row_more_above() {
    assert_eq!(rows_in_view(0.0, 90.0, 18.0), 0..5);
    assert_eq!(rows_in_view(180.0, 270.0, 18.0), 8..15);
    assert_eq!(rows_in_view(-50.0, -10.0, 18.0), 0..0, "scrolled past");
    assert_eq!(rows_in_view(500.0, 100.0, 18.0), 26..26, "never backwards");
    assert_eq!((row_centre(0, 18.0), row_centre(2, 18.0)), (27.0, 63.0));
}

#[test]
fn the_playhead_stays_on_the_track_even_when_the_panel_is_too_narrow() {
    assert_eq!(axis().playhead(20.0), 300.0);
    assert_eq!(axis().playhead(-1.0), 100.0);
    // Narrower than the names column, the track's edges cross: no panic, the left edge.
    let crossed = Track {
        left: 150.0,
        right: 120.0,
    };
    let axis = TimeAxis::new(
        crossed,
        TimeView {
            zoom: 1.0,
            start: 0.0,
        },
        10.0,
    );
    assert_eq!(axis.playhead(3.0), 150.0);
    let times = [0.0, 130.0, 1000.0].map(|x| axis.t_of(x));
    assert!(times.iter().all(|t| (0.0..=10.0).contains(t)), "{times:?}");
}

#[test]
fn the_ruler_labels_drop_trailing_zeros_and_a_huge_clip_does_not_hang() {
    let labels = [0.0, 0.5, 0.25, 10.0, 120.0].map(tick_label);
    assert_eq!(labels, ["0", "0.5", "0.25", "10", "120"]);
    let view = TimeView {
        zoom: 1.0,
        start: 0.0,
    };
    let huge = TimeAxis::new(axis().track, view, 1e30);
    assert!(huge.ticks().len() <= 1000, "{}", huge.ticks().len());
    let hour = TimeAxis::new(axis().track, view, 3600.0).ticks();
    assert_eq!((hour.len(), hour[1]), (31, 120.0), "every 2 minutes");
}

#[test]
fn a_box_selects_on_release_and_only_then() {
    let d = diamonds();
    let selected = [Key(A, 1.0)];
    let frame = TimelineFrame {
        axis: axis(),
        diamonds: &d,
        selected: &selected,
    };
    let from = Vec2::new(130.0, 20.0);
    let to = at(200.0, 60.0);
    let adding = Drag::Box { from, add: true };
    assert_eq!(adding.band(&to), Some((from, Vec2::new(200.0, 60.0))));
    assert_eq!(frame.follow(adding, &to, false), (Some(adding), vec![]));
    let all = vec![Key(A, 1.0), Key(A, 2.0), Key(A, 5.0), Key(B, 2.0)];
    let released = frame.follow(adding, &to, true);
    assert_eq!(released, (None, vec![Ask::SelectKeys(all)]));
    let fresh = Drag::Box { from, add: false };
    let picked = vec![Key(A, 2.0), Key(A, 5.0), Key(B, 2.0)];
    assert_eq!(
        frame.follow(fresh, &to, true).1,
        vec![Ask::SelectKeys(picked)]
    );
    // Released with the pointer gone: the box is its start point, with no key in it.
    let gone = Pointer::default();
    assert_eq!(
        frame.follow(fresh, &gone, true).1,
        vec![Ask::SelectKeys(vec![])]
    );
    assert_eq!(Drag::Scrub.band(&to), None, "only a box has a band");
}

#[test]
fn a_scrub_sets_the_time_each_frame_until_released() {
    let frame = TimelineFrame::<Key> {
        axis: axis(),
        diamonds: &[],
        selected: &[],
    };
    let scrub = frame.follow(Drag::Scrub, &at(160.0, 10.0), false);
    assert_eq!(scrub, (Some(Drag::Scrub), vec![Ask::SetTime(3.0)]));
    let past = frame.follow(Drag::Scrub, &at(400.0, 10.0), true);
    assert_eq!(
        past,
        (None, vec![Ask::SetTime(10.0)]),
        "held at the clip's end"
    );
    assert_eq!(
        frame.follow(Drag::Scrub, &Pointer::default(), true),
        (None, vec![])
    );
}

/// Grab A's key at 2 s with A's 1 s and 5 s keys selected too, and drag right over several
/// frames past the end: the moves add up to 5 s (the 5 s key lands on 10 s), then stop; the
/// release ends the one undo step.
#[test]
fn a_key_drag_over_several_frames_stops_where_the_selection_meets_the_clip_end() {
    let d = diamonds();
    let selected = [Key(A, 1.0), Key(A, 2.0), Key(A, 5.0)];
    let frame = TimelineFrame {
        axis: axis(),
        diamonds: &d,
        selected: &selected,
    };
    let (mut drag, asks) = frame.begin_drag(&at(140.0, 30.0), Some(20.0));
    assert!(asks.is_empty(), "grabbed inside the selection");
    let mut moved = 0.0;
    for x in [180.0, 220.0, 260.0, 300.0, 340.0] {
        let (next, asks) = frame.follow(drag, &at(x, 30.0), false);
        drag = next.expect("still dragging");
        for ask in asks {
            match ask {
                Ask::MoveSelectedKeys(by) => moved += by,
                other => panic!("only moves while dragging: {other:?}"),
            }
        }
    }
    assert_eq!(moved, 5.0);
    let expected = Drag::Keys {
        at: 7.0,
        before: 1.0,
        after: 3.0,
    };
    assert_eq!(drag, expected);
    let (next, asks) = frame.follow(drag, &at(340.0, 30.0), true);
    assert_eq!((next, asks), (None, vec![Ask::EndGesture]));
}
