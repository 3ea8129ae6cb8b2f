//! The animated SVG played by an independent SMIL evaluation (this file's own: the values,
//! keyTimes and keySplines graft wrote, the repeat and freeze rules, composed up the groups)
//! must put every node where `graft print --time` does, at 60 times per scene: the sample
//! scenes and random animated scenes (every channel, every interpolation, every loop mode).

mod common;

use glam::DAffine2;
use graft::model::anim::{Channel, ClipSettings, Interp, Key, LoopMode, Track};
use graft::model::file;
use graft::model::math::Trs;
use graft::model::scene::{Keep, NodeData, NodeId, Scene};
use graft::model::svg::export::{SvgOptions, scene_to_svg};
use proptest::prelude::*;
use std::path::Path;

/// One animateTransform as written.
struct Anim {
    kind: String,
    additive_sum: bool,
    dur: f64,
    repeat: bool,
    values: Vec<Vec<f64>>,
    key_times: Vec<f64>,
    splines: Vec<[f64; 4]>,
    discrete: bool,
}

fn numbers(s: &str) -> Vec<f64> {
    s.split([' ', ','])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect()
}

fn parse_anim(node: roxmltree::Node) -> Anim {
    let attr = |name: &str| node.attribute(name).unwrap_or("");
    let list = |name: &str| -> Vec<Vec<f64>> {
        attr(name)
            .split(';')
            .filter(|s| !s.trim().is_empty())
            .map(numbers)
            .collect()
    };
    Anim {
        kind: attr("type").to_string(),
        additive_sum: attr("additive") == "sum",
        dur: attr("dur").trim_end_matches('s').parse().expect("dur"),
        repeat: attr("repeatCount") == "indefinite",
        values: list("values"),
        key_times: list("keyTimes").into_iter().map(|v| v[0]).collect(),
        splines: list("keySplines")
            .into_iter()
            .map(|v| [v[0], v[1], v[2], v[3]])
            .collect(),
        discrete: attr("calcMode") == "discrete",
    }
}

/// y at x on the cubic timing curve (0,0) (x1,y1) (x2,y2) (1,1), solved by bisection.
fn spline_at([x1, y1, x2, y2]: [f64; 4], x: f64) -> f64 {
    let bez = |a: f64, b: f64, s: f64| {
        3.0 * (1.0 - s) * (1.0 - s) * s * a + 3.0 * (1.0 - s) * s * s * b + s * s * s
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if bez(x1, x2, mid) < x {
            lo = mid
        } else {
            hi = mid
        }
    }
    bez(y1, y2, 0.5 * (lo + hi))
}

impl Anim {
    /// The value at document time `t` (SMIL: simple time within the repeat, frozen at the end).
    fn value(&self, t: f64) -> Vec<f64> {
        let tau = if self.repeat {
            t.rem_euclid(self.dur)
        } else {
            t.min(self.dur)
        };
        let u = tau / self.dur;
        let n = self.values.len();
        if n == 1 || self.key_times.is_empty() {
            return self.values[0].clone();
        }
        if u >= 1.0 {
            return self.values[n - 1].clone();
        }
        // The last segment whose start is at or before u.
        let i = (0..n - 1)
            .rev()
            .find(|&i| self.key_times[i] <= u)
            .unwrap_or(0);
        if self.discrete {
            return self.values[i].clone();
        }
        let (k0, k1) = (self.key_times[i], self.key_times[i + 1]);
        let local = if k1 > k0 { (u - k0) / (k1 - k0) } else { 1.0 };
        // calcMode="linear" has no keySplines.
        let spline = self.splines.get(i).copied().unwrap_or([0.0, 0.0, 1.0, 1.0]);
        let w = spline_at(spline, local.clamp(0.0, 1.0));
        self.values[i]
            .iter()
            .zip(&self.values[i + 1])
            .map(|(a, b)| a + (b - a) * w)
            .collect()
    }

    fn matrix(&self, t: f64) -> DAffine2 {
        let v = self.value(t);
        match self.kind.as_str() {
            "translate" => DAffine2::from_translation(glam::dvec2(v[0], *v.get(1).unwrap_or(&0.0))),
            "rotate" => DAffine2::from_angle(v[0].to_radians()),
            "scale" => DAffine2::from_scale(glam::dvec2(v[0], *v.get(1).unwrap_or(&v[0]))),
            "skewX" => {
                DAffine2::from_cols_array(&[1.0, 0.0, v[0].to_radians().tan(), 1.0, 0.0, 0.0])
            }
            other => panic!("unexpected animateTransform type {other}"),
        }
    }
}

fn static_matrix(s: &str) -> DAffine2 {
    let inner = s
        .trim()
        .strip_prefix("matrix(")
        .and_then(|s| s.strip_suffix(')'))
        .expect("matrix(…)");
    let v = numbers(inner);
    DAffine2::from_cols_array(&[v[0], v[1], v[2], v[3], v[4], v[5]])
}

/// Every node group's matrix relative to the y-flip root at document time `t`, by group id.
fn play(svg: &str, t: f64) -> Vec<(String, DAffine2)> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    let root = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("graft-y-up"))
        .expect("root");
    let mut out = Vec::new();
    walk(root, DAffine2::IDENTITY, t, &mut out);
    out
}

fn walk(node: roxmltree::Node, parent: DAffine2, t: f64, out: &mut Vec<(String, DAffine2)>) {
    // Node groups carry an id; a sprite's wrapper group does not.
    for child in node
        .children()
        .filter(|c| c.has_tag_name("g") && c.attribute("id").is_some())
    {
        let mut local = child
            .attribute("transform")
            .map_or(DAffine2::IDENTITY, static_matrix);
        for anim in child
            .children()
            .filter(|c| c.has_tag_name("animateTransform"))
        {
            let anim = parse_anim(anim);
            local = if anim.additive_sum {
                local * anim.matrix(t)
            } else {
                anim.matrix(t)
            };
        }
        let world = parent * local;
        out.push((child.attribute("id").unwrap_or("").to_string(), world));
        walk(child, world, t, out);
    }
}

fn assert_plays_as_graft(scene: &Scene, name: &str, times: usize) {
    let options = SvgOptions {
        animate: true,
        ..Default::default()
    };
    let (svg, _) = scene_to_svg(scene, &options);
    let clip = scene.clip();
    let span = match clip.mode {
        LoopMode::Once => clip.length as f64 * 1.5,
        _ => clip.length as f64 * 2.5,
    };
    for k in 0..times {
        let t = span * k as f64 / times as f64 + 1e-4;
        let played = play(&svg, t);
        let expected = common::posed_worlds(scene, t as f32);
        assert_eq!(played.len(), expected.len(), "{name}: one group per node");
        for ((id, got), want) in played.iter().zip(&expected) {
            let gap = common::relative_gap(got, want);
            assert!(
                gap <= 1e-3,
                "{name} at t = {t:.4}: group {id} is {got:?}, graft has {want:?} (off by {gap:e} relative)"
            );
        }
    }
}

#[test]
fn the_sample_scenes_play_as_graft_poses_them() {
    for name in ["sword", "solar", "shear", "tank", "flip"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(format!("{name}.ron"));
        let scene = file::load(&path).unwrap();
        assert_plays_as_graft(&scene, name, 60);
    }
}

#[test]
fn ease_in_out_is_the_exact_smoothstep() {
    for k in 0..=100 {
        let u = k as f64 / 100.0;
        let smooth = u * u * (3.0 - 2.0 * u);
        assert!(
            (spline_at([1.0 / 3.0, 0.0, 2.0 / 3.0, 1.0], u) - smooth).abs() < 1e-12,
            "u = {u}"
        );
    }
}

fn channel_strategy() -> impl Strategy<Value = Channel> {
    prop_oneof![
        Just(Channel::PositionX),
        Just(Channel::PositionY),
        Just(Channel::Rotation),
        Just(Channel::ScaleX),
        Just(Channel::ScaleY),
        Just(Channel::Skew),
    ]
}

fn interp_strategy() -> impl Strategy<Value = Interp> {
    prop_oneof![
        Just(Interp::Linear),
        Just(Interp::EaseInOut),
        Just(Interp::Step)
    ]
}

fn track_strategy(length: f32) -> impl Strategy<Value = (Channel, Vec<(f32, f32, Interp)>)> {
    (
        channel_strategy(),
        prop::collection::vec((0.0f32..1.0, -2.0f32..2.0, interp_strategy()), 1..5),
    )
        .prop_map(move |(c, keys)| {
            (
                c,
                keys.into_iter()
                    .map(|(t, v, i)| (t * length * 1.2, v, i))
                    .collect(),
            )
        })
}

fn value_for(channel: Channel, v: f32) -> f32 {
    match channel {
        Channel::Rotation => v * 90.0,
        Channel::Skew => v * 20.0,
        Channel::ScaleX | Channel::ScaleY => 1.0 + v * 0.4,
        _ => v * 3.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_animated_scenes_play_as_graft_poses_them(
        length in 0.5f32..4.0,
        mode in prop_oneof![Just(LoopMode::Once), Just(LoopMode::Loop), Just(LoopMode::PingPong)],
        nodes in prop::collection::vec((0usize..8, -3.0f32..3.0, -3.0f32..3.0, -180.0f32..180.0, 0.5f32..2.0, -20.0f32..20.0), 1..7),
        tracks in prop::collection::vec(prop::collection::vec(track_strategy(3.0), 0..4), 7),
    ) {
        let mut scene = Scene::new();
        let mut ids: Vec<NodeId> = Vec::new();
        for (k, &(parent, x, y, r, s, skew)) in nodes.iter().enumerate() {
            let mut data = NodeData::named(format!("n{k}"), Trs::new(glam::vec2(x, y), r, glam::vec2(s, 2.0 - s * 0.5), skew));
            let mut by_channel: Vec<Track> = Vec::new();
            for (channel, keys) in &tracks[k] {
                if by_channel.iter().any(|t| t.channel == *channel) { continue; }
                let mut keys: Vec<Key> = keys.iter().map(|&(t, v, i)| Key::new((t * length / 3.0 * 1000.0).round() / 1000.0, value_for(*channel, v)).with(i)).collect();
                keys.sort_by(|a, b| a.time.total_cmp(&b.time));
                keys.dedup_by(|a, b| a.time == b.time);
                by_channel.push(Track::new(*channel, keys).unwrap());
            }
            data.tracks = by_channel.into();
            let parent = (k > 0).then(|| ids[parent % k]);
            ids.push(scene.add_node(parent, None, data).unwrap());
        }
        scene.set_clip(ClipSettings::new(length, mode).unwrap()).unwrap();
        scene.update_world();
        assert_plays_as_graft(&scene, "random", 50);
    }
}

/// Far from the origin and at extreme scales the animation still plays as graft poses it: the
/// animated sword chain under a holder at (1e5, −1e5) or (1e7, 5e6), scaled by 1e-6 or 1e6.
#[test]
fn far_and_extreme_scale_animations_play_as_graft_poses_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sword.ron");
    for (offset, scale) in [
        (glam::vec2(1e5, -1e5), 1.0),
        (glam::vec2(1e7, 5e6), 1.0),
        (glam::vec2(3.0, 1.0), 1e-6),
        (glam::vec2(-2.0, 4.0), 1e6),
    ] {
        let mut scene = file::load(&path).unwrap();
        let holder = NodeData::named(
            "holder",
            Trs::new(offset, 20.0, glam::Vec2::splat(scale), 0.0),
        );
        let holder = scene.add_node(None, Some(0), holder).unwrap();
        for root in scene.children(None).unwrap() {
            if root != holder {
                scene
                    .reparent(root, Some(holder), None, Keep::Local)
                    .unwrap();
            }
        }
        scene.update_world();
        assert_plays_as_graft(&scene, &format!("sword at {offset} × {scale}"), 50);
    }
}

/// Issue 40: linear keys are written as linear (`calcMode="linear"`, no keySplines), even where
/// the clip cuts a segment (its cut curve came out as `8.67e-19 … 0.99999999392`), and a mix
/// writes its linear segments as exactly `0 0 1 1`.
#[test]
fn linear_keys_are_written_as_linear() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/solar.ron");
    let mut scene = file::load(&path).unwrap();
    scene
        .set_clip(ClipSettings::new(5.0, LoopMode::Once).unwrap())
        .unwrap();
    let options = SvgOptions {
        animate: true,
        ..Default::default()
    };
    let (svg, _) = scene_to_svg(&scene, &options);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let anims: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("animateTransform"))
        .collect();
    assert!(anims.iter().any(|a| a.attribute("keyTimes").is_some()));
    for a in &anims {
        if a.attribute("keyTimes").is_some() {
            assert_eq!(a.attribute("calcMode"), Some("linear"), "{a:?}");
        }
        assert_eq!(a.attribute("keySplines"), None, "{a:?}");
    }
    assert_plays_as_graft(&scene, "solar cut at 5 s", 30);
    // An eased key after a linear one past the clip's end: the linear segment is exact.
    let sun = scene.id_at(0);
    let keys = vec![
        Key::new(0.0, 0.0),
        Key::new(4.0, 90.0).with(Interp::EaseInOut),
        Key::new(9.0, 180.0),
    ];
    let track = Track::new(Channel::Rotation, keys).unwrap();
    scene.set_tracks(sun, vec![track]).unwrap();
    let (svg, _) = scene_to_svg(&scene, &options);
    let splines = svg
        .split("keySplines=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap();
    assert!(!splines.contains('e'), "no junk digits: {splines}");
    assert!(splines.contains("0 0 1 1"), "{splines}");
}

/// Issue 40: the HTML page of a `Once` clip stops its clock at the end, its readout and
/// scrubber at the clip's end, and shows Play (which plays again from the start); a looping
/// page keeps cycling. The page's own script, run by node against a stand-in for the DOM and
/// the SVG's SMIL clock (skipped where node is not installed).
#[test]
fn the_page_of_a_once_clip_stops_at_its_end() {
    use graft::model::svg::html::player_page;
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: node is not installed");
        return;
    }
    let run = |once: bool| -> String {
        let page = player_page("<svg/>", "t", 2.0, once);
        let script = page.split("<script>").nth(1).unwrap();
        let script = script.split("</script>").next().unwrap();
        let harness = format!(
            r#"
let clock = 0, paused = false, frames = [];
const fakeSvg = {{ getCurrentTime: () => clock, setCurrentTime: t => {{ clock = t; }},
  pauseAnimations: () => {{ paused = true; }}, unpauseAnimations: () => {{ paused = false; }},
  animationsPaused: () => paused }};
const els = {{}};
function el(id) {{ return els[id] ||= {{ textContent: id === "play" ? "Pause" : "", value: 0,
  handlers: {{}}, addEventListener(k, f) {{ this.handlers[k] = f; }} }}; }}
const document = {{ querySelector: () => fakeSvg, getElementById: el }};
function requestAnimationFrame(f) {{ frames.push(f); }}
function step(dt) {{ if (!paused) clock += dt; const fs = frames; frames = []; fs.forEach(f => f()); }}
{script}
for (let k = 0; k < 30; k++) step(0.1);
const end = [paused, el("play").textContent, el("time").textContent, Number(Number(el("scrub").value).toFixed(3))];
el("play").handlers.click();
step(0.5);
console.log(JSON.stringify([...end, paused, el("play").textContent, Number(clock.toFixed(3))]));
"#
        );
        let out = std::process::Command::new("node")
            .args(["-e", &harness])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(
        run(true),
        r#"[true,"Play","2.00 s",2,false,"Pause",0.5]"#,
        "Once: stopped at 2 s showing Play; Play starts again from 0"
    );
    assert_eq!(
        run(false),
        r#"[false,"Pause","1.00 s",1,true,"Play",3]"#,
        "Loop: still playing at 3 s (shown 1 s into the loop); the button pauses"
    );
}
