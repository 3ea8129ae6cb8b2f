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

/// A channel's timeline over one pass of the clip `0 … length`: exact for keys inside the
/// clip; None when a key lies outside it (the caller samples the track instead).
fn exact_points(track: &Track, length: f64) -> Option<Vec<Point>> {
    let keys = &track.keys;
    let (first, last) = (keys.first()?, keys.last()?);
    if (first.time as f64) < 0.0 || last.time as f64 > length {
        return None;
    }
    let mut points = Vec::with_capacity(keys.len() * 2 + 2);
    if first.time > 0.0 {
        points.push(Point {
            time: 0.0,
            value: first.value as f64,
            spline: Some(LINEAR_SPLINE),
        });
    }
    for (i, key) in keys.iter().enumerate() {
        let (t, v) = (key.time as f64, key.value as f64);
        match (key.interp, keys.get(i + 1)) {
            (Interp::Step, Some(next)) => {
                points.push(Point {
                    time: t,
                    value: v,
                    spline: Some(LINEAR_SPLINE),
                });
                // Hold, then jump at the next key's time.
                points.push(Point {
                    time: next.time as f64,
                    value: v,
                    spline: None,
                });
            }
            (Interp::EaseInOut, Some(_)) => points.push(Point {
                time: t,
                value: v,
                spline: Some(EASE_SPLINE),
            }),
            (_, Some(_)) => points.push(Point {
                time: t,
                value: v,
                spline: Some(LINEAR_SPLINE),
            }),
            (_, None) => points.push(Point {
                time: t,
                value: v,
                spline: Some(LINEAR_SPLINE),
            }),
        }
    }
    if (last.time as f64) < length {
        points.push(Point {
            time: length,
            value: last.value as f64,
            spline: None,
        });
    }
    if let Some(end) = points.last_mut() {
        end.spline = None;
    }
    Some(points)
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
        let splines: Vec<String> = points[..points.len() - 1]
            .iter()
            .map(|p| {
                let [a, b, c, d] = p.spline.unwrap_or(LINEAR_SPLINE);
                format!("{} {} {} {}", n(a), n(b), n(c), n(d))
            })
            .collect();
        let _ = write!(
            out,
            " calcMode=\"spline\" keySplines=\"{}\"",
            splines.join(";")
        );
    }
    out.push_str("/>\n");
}

/// The factors of a node's local matrix over the clip, and a note if a channel was sampled.
fn factors(base: Trs, tracks: &[Track], clip: ClipSettings) -> (Vec<Factor>, Option<String>) {
    let length = clip.length as f64;
    let track = |c: Channel| tracks.iter().find(|t| t.channel == c && !t.keys.is_empty());
    let mut sampled = Vec::new();
    let mut channel = |c: Channel, sign: f64| -> Vec<Point> {
        let constant = || {
            vec![Point {
                time: 0.0,
                value: sign * c.get(&base) as f64,
                spline: None,
            }]
        };
        let Some(t) = track(c) else { return constant() };
        match exact_points(t, length) {
            Some(mut points) => {
                points.iter_mut().for_each(|p| p.value *= sign);
                points
            }
            None => {
                sampled.push(c.label());
                sampled_points(Some(t), length, |time| {
                    sign * t.value_at(time as f32).unwrap_or(0.0) as f64
                })
            }
        }
    };
    let mut out = vec![
        Factor {
            kind: "translate",
            write: |v| format!("{} 0", n(v)),
            points: channel(Channel::PositionX, 1.0),
        },
        Factor {
            kind: "translate",
            write: |v| format!("0 {}", n(v)),
            points: channel(Channel::PositionY, 1.0),
        },
        Factor {
            kind: "rotate",
            write: n,
            points: channel(Channel::Rotation, 1.0),
        },
    ];
    let skew_track = track(Channel::Skew);
    let mut skew_sampled = false;
    if skew_track.is_some() || base.skew != 0.0 {
        let skew_at = |time: f64| match skew_track {
            Some(t) => t.value_at(time as f32).unwrap_or(base.skew) as f64,
            None => base.skew as f64,
        };
        let (skew, squash) = match skew_track {
            None => (
                vec![Point {
                    time: 0.0,
                    value: -skew_at(0.0),
                    spline: None,
                }],
                vec![Point {
                    time: 0.0,
                    value: skew_at(0.0).to_radians().cos(),
                    spline: None,
                }],
            ),
            Some(t) => {
                skew_sampled = true;
                (
                    exact_points(t, length).map_or_else(
                        || sampled_points(Some(t), length, |x| -skew_at(x)),
                        |mut p| {
                            p.iter_mut().for_each(|p| p.value = -p.value);
                            p
                        },
                    ),
                    sampled_points(Some(t), length, |x| skew_at(x).to_radians().cos()),
                )
            }
        };
        out.push(Factor {
            kind: "skewX",
            write: n,
            points: skew,
        });
        out.push(Factor {
            kind: "scale",
            write: |v| format!("1 {}", n(v)),
            points: squash,
        });
    }
    out.push(Factor {
        kind: "scale",
        write: |v| format!("{} 1", n(v)),
        points: channel(Channel::ScaleX, 1.0),
    });
    out.push(Factor {
        kind: "scale",
        write: |v| format!("1 {}", n(v)),
        points: channel(Channel::ScaleY, 1.0),
    });
    if skew_sampled {
        sampled.push("skew");
    }
    sampled.sort_unstable();
    sampled.dedup();
    let note = (!sampled.is_empty()).then(|| sampled.join(", ").to_string());
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
