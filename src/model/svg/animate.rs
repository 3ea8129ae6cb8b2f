//! Animated SVG: each animated node's group carries SMIL `animateTransform` elements that play
//! its *local* transform over the clip, so the browser composes the groups exactly as graft
//! composes the scene. A node's local matrix is written as the product
//! `translate(x,0)·translate(0,y)·rotate(r)·skewX(−k)·scale(1,cos k)·scale(sx,1)·scale(1,sy)`
//! (Godot's TRS+skew: col0 = sx(cos r, sin r), col1 = sy(−sin(r+k), cos(r+k))), one element per
//! factor, the first replacing the group's static `transform` (the pose at 0 s, what a viewer
//! without SMIL and Inkscape show) and the rest added (`additive="sum"` post-multiplies).
//! Every factor but the skew is a function of one channel, so each keyed channel is exact:
//! linear segments as linear, EaseInOut as the cubic timing curve (1/3, 0, 2/3, 1) whose
//! y(x) is exactly smoothstep 3u² − 2u³, Step as discrete (or a zero-length jump inside a mixed
//! track). An animated skew changes two factors, so it is sampled densely instead (reported).

use crate::model::anim::{Channel, ClipSettings, Interp, LoopMode, Track};
use crate::model::math::Trs;
use std::fmt::Write as _;

/// Samples per key segment of an animated skew (linear between them): the scale factor
/// cos k is then off by at most (Δk)²/8 ≈ 2·10⁻⁴ of the node's size for a 45° segment.
pub const SKEW_SAMPLES_PER_SEGMENT: usize = 48;

/// The cubic timing curve whose progress is exactly smoothstep of the time fraction.
const EASE_SPLINE: [f64; 4] = [1.0 / 3.0, 0.0, 2.0 / 3.0, 1.0];
/// The straight timing curve.
const LINEAR_SPLINE: [f64; 4] = [0.0, 0.0, 1.0, 1.0];

/// One value of a factor's animation at a clip time, and the timing of the segment that starts
/// there (None: the segment jumps at once to the next value, or it is the last point).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    time: f64,
    value: f64,
    spline: Option<[f64; 4]>,
}

impl Point {
    fn new(time: f64, value: f64, spline: Option<[f64; 4]>) -> Self {
        Self {
            time,
            value,
            spline,
        }
    }
}

/// A channel's timeline over one pass of the clip `0 … length`, exact: the keys as points
/// (a Step key holds, then jumps at the next key's time), held before the first key and after
/// the last, and cut at 0 and at the clip's end where a segment crosses them (the cut keeps
/// the exact part of its timing curve).
fn exact_points(track: &Track, length: f64) -> Option<Vec<Point>> {
    let keys = &track.keys;
    let mut points = Vec::with_capacity(keys.len() * 2);
    for (i, key) in keys.iter().enumerate() {
        let (time, value) = (key.time as f64, key.value as f64);
        let spline = match key.interp {
            Interp::EaseInOut => EASE_SPLINE,
            _ => LINEAR_SPLINE,
        };
        points.push(Point {
            time,
            value,
            spline: Some(spline),
        });
        if let (Interp::Step, Some(next)) = (key.interp, keys.get(i + 1)) {
            // Hold, then jump at the next key's time.
            points.push(Point {
                time: next.time as f64,
                value,
                spline: None,
            });
        }
    }
    if let Some(end) = points.last_mut() {
        end.spline = None;
    }
    (!points.is_empty()).then(|| clip_to(&points, length))
}

/// The point list cut to `0 … length`, with holds before the first point and after the last.
fn clip_to(points: &[Point], length: f64) -> Vec<Point> {
    let (first, last) = (points[0], points[points.len() - 1]);
    let hold = |value: f64| {
        vec![
            Point::new(0.0, value, Some(LINEAR_SPLINE)),
            Point::new(length, value, None),
        ]
    };
    if last.time <= 0.0 {
        return hold(last.value);
    }
    if first.time >= length {
        return hold(first.value);
    }
    let mut out = Vec::with_capacity(points.len() + 2);
    if first.time > 0.0 {
        out.push(Point::new(0.0, first.value, Some(LINEAR_SPLINE)));
    }
    let mut end = (last.time, last.value);
    for pair in points.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        let (a, b) = (p.time.max(0.0), q.time.min(length));
        let jump = p.time == q.time;
        if b < a || (b == a && !(jump && (0.0..=length).contains(&a))) {
            continue;
        }
        match p.spline {
            Some(spline) if !jump => {
                let (start_value, spline, end_value) = sub_segment(p, q, spline, a, b);
                out.push(Point::new(a, start_value, Some(spline)));
                if q.time > length {
                    end = (length, end_value);
                }
            }
            _ => out.push(p),
        }
    }
    out.push(Point::new(end.0, end.1, None));
    if end.0 < length {
        if let Some(last) = out.last_mut() {
            last.spline = Some(LINEAR_SPLINE);
        }
        out.push(Point::new(length, end.1, None));
    }
    out
}

/// A cubic Bézier's four control points (x, y).
type Curve = [(f64, f64); 4];

/// The part of the segment p → q (timing curve `spline`) between times a and b: its start
/// value, its own timing curve (normalised to the unit square) and its end value.
fn sub_segment(p: Point, q: Point, spline: [f64; 4], a: f64, b: f64) -> (f64, [f64; 4], f64) {
    let curve = [
        (0.0, 0.0),
        (spline[0], spline[1]),
        (spline[2], spline[3]),
        (1.0, 1.0),
    ];
    let span = q.time - p.time;
    let s_at = |t: f64| solve_x(&curve, ((t - p.time) / span).clamp(0.0, 1.0));
    let (sa, sb) = (s_at(a), s_at(b));
    let value = |s: f64| p.value + (q.value - p.value) * bezier(&curve, s).1;
    if sa == 0.0 && sb == 1.0 {
        return (p.value, spline, q.value);
    }
    // De Casteljau: the curve on [0, sb], then its part from sa / sb on.
    let left = split(&curve, sb).0;
    let part = if sb > 0.0 {
        split(&left, sa / sb).1
    } else {
        left
    };
    let (x0, y0) = part[0];
    let (x3, y3) = part[3];
    let norm = |(x, y): (f64, f64)| {
        let nx = if x3 > x0 { (x - x0) / (x3 - x0) } else { 0.0 };
        let ny = if y3 != y0 { (y - y0) / (y3 - y0) } else { nx };
        (nx.clamp(0.0, 1.0), ny)
    };
    let (c1, c2) = (norm(part[1]), norm(part[2]));
    (value(sa), [c1.0, c1.1, c2.0, c2.1], value(sb))
}

fn bezier(c: &Curve, s: f64) -> (f64, f64) {
    let u = 1.0 - s;
    let w = [u * u * u, 3.0 * u * u * s, 3.0 * u * s * s, s * s * s];
    (0..4).fold((0.0, 0.0), |(x, y), i| {
        (x + w[i] * c[i].0, y + w[i] * c[i].1)
    })
}

/// The curve parameter where x(s) = x (x(s) increases on a timing curve), by bisection.
fn solve_x(c: &Curve, x: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if bezier(c, mid).0 < x {
            lo = mid
        } else {
            hi = mid
        }
    }
    0.5 * (lo + hi)
}

/// The curve split at parameter s into its two halves.
fn split(c: &Curve, s: f64) -> (Curve, Curve) {
    let lerp = |a: (f64, f64), b: (f64, f64)| (a.0 + (b.0 - a.0) * s, a.1 + (b.1 - a.1) * s);
    let (p01, p12, p23) = (lerp(c[0], c[1]), lerp(c[1], c[2]), lerp(c[2], c[3]));
    let (p012, p123) = (lerp(p01, p12), lerp(p12, p23));
    let mid = lerp(p012, p123);
    ([c[0], p01, p012, mid], [mid, p123, p23, c[3]])
}

/// A function of clip time sampled densely on `0 … length` (with every key time), linear
/// between samples; where it jumps at a key (a Step key before it), the jump is kept: the
/// value just before the key, then the value at it, at the same time.
fn sampled_points(track: Option<&Track>, length: f64, f: impl Fn(f64) -> f64) -> Vec<Point> {
    let mut times: Vec<f64> = vec![0.0, length];
    if let Some(track) = track {
        times.extend(
            track
                .keys
                .iter()
                .map(|k| k.time as f64)
                .filter(|t| *t > 0.0 && *t < length),
        );
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut points = Vec::new();
    for pair in times.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        for s in 0..SKEW_SAMPLES_PER_SEGMENT {
            let t = a + (b - a) * s as f64 / SKEW_SAMPLES_PER_SEGMENT as f64;
            points.push(Point {
                time: t,
                value: f(t),
                spline: Some(LINEAR_SPLINE),
            });
        }
        let before = f(b - 1e-6 * b.max(1.0));
        let at = f(b);
        if (before - at).abs() > 1e-6 * at.abs().max(1.0) {
            points.push(Point {
                time: b,
                value: before,
                spline: None,
            });
        }
    }
    points.push(Point {
        time: length,
        value: f(length),
        spline: None,
    });
    points
}

/// Forward then backward (PingPong): the points over `0 … 2·length`. Going back, the segment
/// from point j+1 down to point j runs segment j's timing curve backwards.
fn ping_pong(points: &[Point], length: f64) -> Vec<Point> {
    let n = points.len();
    let mut out: Vec<Point> = points.to_vec();
    if n < 2 {
        return out;
    }
    if let Some(turn) = out.last_mut() {
        turn.spline = points[n - 2].spline.map(reverse_spline);
    }
    for j in (0..n - 1).rev() {
        let spline = j
            .checked_sub(1)
            .and_then(|i| points[i].spline)
            .map(reverse_spline);
        out.push(Point {
            time: 2.0 * length - points[j].time,
            value: points[j].value,
            spline,
        });
    }
    out
}

/// The timing curve of a segment played backwards.
fn reverse_spline([x1, y1, x2, y2]: [f64; 4]) -> [f64; 4] {
    [1.0 - x2, 1.0 - y2, 1.0 - x1, 1.0 - y1]
}

/// A number for an SVG attribute, to ten significant digits (f32 values keep every digit).
fn n(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    let s = format!("{v:.10e}");
    match s.parse::<f64>() {
        Ok(x) => {
            let plain = format!("{x}");
            if plain.len() <= s.len() { plain } else { s }
        }
        Err(_) => "0".into(),
    }
}

/// A timing curve as written: one whose control points lie on the diagonal is linear, written
/// exactly `0 0 1 1` (a linear segment cut at the clip's end came out as `8.67e-19 … 0.99999`),
/// and coordinates within 1e-9 of 0 or 1 are 0 or 1.
fn tidy_spline(spline: [f64; 4]) -> [f64; 4] {
    let [x1, y1, x2, y2] = spline;
    if (x1 - y1).abs() <= 1e-6 && (x2 - y2).abs() <= 1e-6 {
        return LINEAR_SPLINE;
    }
    spline.map(|v| {
        if v.abs() <= 1e-9 {
            0.0
        } else if (v - 1.0).abs() <= 1e-9 {
            1.0
        } else {
            v
        }
    })
}

/// One factor of the local matrix as it animates.
struct Factor {
    /// The SVG transform type.
    kind: &'static str,
    /// The value list's entry for one value.
    write: fn(f64) -> String,
    points: Vec<Point>,
}

/// The animateTransform element of one factor.
fn element(out: &mut String, factor: &Factor, first: bool, clip: ClipSettings, indent: &str) {
    let length = clip.length as f64;
    let (points, dur) = match clip.mode {
        LoopMode::PingPong => (ping_pong(&factor.points, length), 2.0 * length),
        _ => (factor.points.clone(), length),
    };
    let repeat = match clip.mode {
        LoopMode::Once => "fill=\"freeze\"",
        _ => "repeatCount=\"indefinite\"",
    };
    let additive = if first { "replace" } else { "sum" };
    let values: Vec<String> = points.iter().map(|p| (factor.write)(p.value)).collect();
    let _ = write!(
        out,
        "{indent}<animateTransform attributeName=\"transform\" type=\"{}\" additive=\"{additive}\" begin=\"0s\" dur=\"{}s\" {repeat} values=\"{}\"",
        factor.kind,
        n(dur),
        values.join(";")
    );
    if points.len() > 1 {
        let times: Vec<String> = points
            .iter()
            .map(|p| n((p.time / dur).clamp(0.0, 1.0)))
            .collect();
        let _ = write!(out, " keyTimes=\"{}\"", times.join(";"));
        let splines: Vec<[f64; 4]> = points[..points.len() - 1]
            .iter()
            .map(|p| tidy_spline(p.spline.unwrap_or(LINEAR_SPLINE)))
            .collect();
        if splines.iter().all(|s| *s == LINEAR_SPLINE) {
            out.push_str(" calcMode=\"linear\"");
        } else {
            let text: Vec<String> = splines
                .iter()
                .map(|[a, b, c, d]| format!("{} {} {} {}", n(*a), n(*b), n(*c), n(*d)))
                .collect();
            let _ = write!(
                out,
                " calcMode=\"spline\" keySplines=\"{}\"",
                text.join(";")
            );
        }
    }
    out.push_str("/>\n");
}

/// One constant point.
fn constant(value: f64) -> Vec<Point> {
    vec![Point {
        time: 0.0,
        value,
        spline: None,
    }]
}

/// The points of one channel's factor (`sign` flips it): exact, or sampled when a key lies
/// outside the clip (then its label goes into `sampled`).
fn channel_points(
    base: Trs,
    track: Option<&Track>,
    c: Channel,
    length: f64,
    sampled: &mut Vec<&'static str>,
) -> Vec<Point> {
    let Some(t) = track else {
        return constant(c.get(&base) as f64);
    };
    exact_points(t, length).unwrap_or_else(|| {
        sampled.push(c.label());
        sampled_points(Some(t), length, |time| {
            t.value_at(time as f32).unwrap_or(0.0) as f64
        })
    })
}

/// The skew's two factors, skewX(−k) and scale(1, cos k); an animated skew is sampled (the
/// second factor is not a linear function of k). None when there is no skew at all.
fn skew_factors(base: Trs, track: Option<&Track>, length: f64) -> Option<[Factor; 2]> {
    if track.is_none() && base.skew == 0.0 {
        return None;
    }
    let skew_at = |time: f64| {
        track.map_or(base.skew, |t| t.value_at(time as f32).unwrap_or(base.skew)) as f64
    };
    let (skew, squash) = match track {
        None => (
            constant(-skew_at(0.0)),
            constant(skew_at(0.0).to_radians().cos()),
        ),
        Some(t) => {
            let mut skew =
                exact_points(t, length).unwrap_or_else(|| sampled_points(Some(t), length, skew_at));
            skew.iter_mut().for_each(|p| p.value = -p.value);
            (
                skew,
                sampled_points(Some(t), length, |x| skew_at(x).to_radians().cos()),
            )
        }
    };
    Some([
        Factor {
            kind: "skewX",
            write: n,
            points: skew,
        },
        Factor {
            kind: "scale",
            write: |v| format!("1 {}", n(v)),
            points: squash,
        },
    ])
}

/// The factors of a node's local matrix over the clip, and a note if a channel was sampled.
fn factors(base: Trs, tracks: &[Track], clip: ClipSettings) -> (Vec<Factor>, Option<String>) {
    let length = clip.length as f64;
    let track = |c: Channel| tracks.iter().find(|t| t.channel == c && !t.keys.is_empty());
    let mut sampled = Vec::new();
    let mut points = |c: Channel| channel_points(base, track(c), c, length, &mut sampled);
    let mut out = vec![
        Factor {
            kind: "translate",
            write: |v| format!("{} 0", n(v)),
            points: points(Channel::PositionX),
        },
        Factor {
            kind: "translate",
            write: |v| format!("0 {}", n(v)),
            points: points(Channel::PositionY),
        },
        Factor {
            kind: "rotate",
            write: n,
            points: points(Channel::Rotation),
        },
    ];
    let skew = skew_factors(base, track(Channel::Skew), length);
    let skew_animated = skew.is_some() && track(Channel::Skew).is_some();
    out.extend(skew.into_iter().flatten());
    out.push(Factor {
        kind: "scale",
        write: |v| format!("{} 1", n(v)),
        points: points(Channel::ScaleX),
    });
    out.push(Factor {
        kind: "scale",
        write: |v| format!("1 {}", n(v)),
        points: points(Channel::ScaleY),
    });
    if skew_animated {
        sampled.push("skew");
    }
    sampled.sort_unstable();
    sampled.dedup();
    let note = (!sampled.is_empty()).then(|| sampled.join(", "));
    (out, note)
}

/// The SMIL elements that play a node's local transform over the clip (empty without tracks),
/// and what had to be sampled rather than written exactly.
pub fn node_animation(
    base: Trs,
    tracks: &[Track],
    clip: ClipSettings,
    indent: &str,
) -> (String, Option<String>) {
    if !tracks.iter().any(|t| !t.keys.is_empty()) {
        return (String::new(), None);
    }
    let (factors, note) = factors(base, tracks, clip);
    let mut out = String::new();
    for (k, factor) in factors.iter().enumerate() {
        element(&mut out, factor, k == 0, clip, indent);
    }
    (out, note)
}
