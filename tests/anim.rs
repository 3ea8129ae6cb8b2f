//! Keyframe animation, the model half: exact interpolation and loop modes, tracks stored with
//! their node through edits and undo, playing without the history, trails, format 3, and the
//! sample scenes that move.

mod common;

use common::*;
use glam::{DVec2, Vec2};
use graft::model::anim::{
    Channel, ClipSettings, Interp, Key, LoopMode, Track, TrackError, check_tracks, sample,
};
use graft::model::file::{self, needed_version, parse, to_ron_string};
use graft::model::math::Trs;
use graft::model::scene::edit::{History, Op};
use graft::model::scene::{NodeData, NodeId, Scene};
use std::path::Path;

fn track(channel: Channel, keys: &[(f32, f32, Interp)]) -> Track {
    let keys = keys
        .iter()
        .map(|&(t, v, i)| Key::new(t, v).with(i))
        .collect();
    Track::new(channel, keys).expect("valid track")
}

fn lin(keys: &[(f32, f32)]) -> Track {
    let keys: Vec<_> = keys.iter().map(|&(t, v)| (t, v, Interp::Linear)).collect();
    track(Channel::Rotation, &keys)
}

fn load_text(text: &str) -> graft::Result<Scene> {
    parse(text, Path::new("t.ron"))
}

fn refused(text: &str, message: &str) {
    let err = load_text(text).expect_err(text).to_string();
    assert!(err.contains(message), "expected {message:?} in {err:?}");
}

// ---------------------------------------------------------------- sampling, exactly

#[test]
fn linear_ease_and_step_are_exact() {
    let l = lin(&[(0.0, 0.0), (2.0, 10.0)]);
    assert_eq!(l.value_at(0.5), Some(2.5));
    assert_eq!(l.value_at(1.0), Some(5.0));
    let e = track(
        Channel::Rotation,
        &[(0.0, 0.0, Interp::EaseInOut), (1.0, 1.0, Interp::Linear)],
    );
    assert_eq!(e.value_at(0.5), Some(0.5));
    assert_eq!(e.value_at(0.25), Some(0.15625)); // 3/16 − 2/64
    assert_eq!(e.value_at(0.75), Some(0.84375));
    let s = track(
        Channel::ScaleX,
        &[(0.0, 1.0, Interp::Step), (1.0, 5.0, Interp::Linear)],
    );
    assert_eq!(s.value_at(0.999), Some(1.0));
    assert_eq!(s.value_at(1.0), Some(5.0));
    // Each segment follows its own earlier key.
    let mixed = track(
        Channel::Skew,
        &[
            (0.0, 0.0, Interp::Step),
            (1.0, 4.0, Interp::EaseInOut),
            (3.0, 8.0, Interp::Step),
        ],
    );
    assert_eq!(mixed.value_at(0.5), Some(0.0));
    assert_eq!(mixed.value_at(2.0), Some(6.0));
    assert_eq!(mixed.value_at(3.0), Some(8.0));
}

#[test]
fn ends_hold_keys_are_exact_and_empty_tracks_say_nothing() {
    let t = lin(&[(1.0, 3.0), (2.0, 7.0), (4.0, -1.0)]);
    assert_eq!(t.value_at(-5.0), Some(3.0));
    assert_eq!(t.value_at(1.0), Some(3.0));
    assert_eq!(t.value_at(2.0), Some(7.0));
    assert_eq!(t.value_at(4.0), Some(-1.0));
    assert_eq!(t.value_at(100.0), Some(-1.0));
    assert_eq!(t.value_at(f32::NAN), Some(3.0));
    assert_eq!(lin(&[(0.5, 9.0)]).value_at(7.0), Some(9.0));
    assert_eq!(
        Track::new(Channel::Rotation, vec![]).unwrap().value_at(1.0),
        None
    );
}

#[test]
fn rotation_is_interpolated_by_value_never_the_short_way() {
    let two_turns = lin(&[(0.0, 0.0), (2.0, 720.0)]);
    assert_eq!(two_turns.value_at(0.5), Some(180.0));
    assert_eq!(two_turns.value_at(1.0), Some(360.0));
    assert_eq!(two_turns.value_at(1.5), Some(540.0));
    // 350° → 10° goes back through 180°, not forwards through 0°.
    assert_eq!(lin(&[(0.0, 350.0), (1.0, 10.0)]).value_at(0.5), Some(180.0));
}

#[test]
fn loop_modes_map_playback_time_onto_the_clip() {
    let clip = |mode| ClipSettings::new(2.0, mode).unwrap();
    let once = clip(LoopMode::Once);
    assert_eq!(
        [-1.0, 0.0, 0.5, 2.0, 3.5].map(|t| once.local_time(t)),
        [0.0, 0.0, 0.5, 2.0, 2.0]
    );
    let looped = clip(LoopMode::Loop);
    assert_eq!(
        [0.0, 0.5, 1.999, 2.0, 2.5, 4.25, -0.5].map(|t| looped.local_time(t)),
        [0.0, 0.5, 1.999, 0.0, 0.5, 0.25, 1.5]
    );
    let ping = clip(LoopMode::PingPong);
    assert_eq!(
        [0.0, 0.5, 2.0, 2.5, 3.5, 4.0, 4.5, -0.5].map(|t| ping.local_time(t)),
        [0.0, 0.5, 2.0, 1.5, 0.5, 0.0, 0.5, 0.5]
    );
    for c in [once, looped, ping] {
        assert_eq!(c.local_time(f32::NAN), 0.0);
        for t in [f32::INFINITY, f32::NEG_INFINITY, -0.0, 1e30] {
            let l = c.local_time(t);
            assert!(
                (0.0..=2.0).contains(&l) && l.to_bits() != (-0.0f32).to_bits(),
                "{t} → {l}"
            );
        }
    }
    assert_eq!(
        ClipSettings::default(),
        ClipSettings::new(2.0, LoopMode::Loop).unwrap()
    );
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(ClipSettings::new(bad, LoopMode::Loop).is_err(), "{bad}");
    }
}

#[test]
fn tracks_refuse_nonsense_and_keys_go_in_order() {
    let k = Key::new;
    let not_finite = Track::new(Channel::Rotation, vec![k(0.0, 1.0), k(f32::NAN, 2.0)]);
    assert!(matches!(
        not_finite,
        Err(TrackError::NotFinite { key: 1, .. })
    ));
    assert!(Track::new(Channel::Rotation, vec![k(0.0, f32::INFINITY)]).is_err());
    let unsorted = Track::new(Channel::Rotation, vec![k(1.0, 1.0), k(0.5, 2.0)]);
    assert!(matches!(unsorted, Err(TrackError::Unsorted { key: 1, .. })));
    let same_time = Track::new(Channel::Rotation, vec![k(1.0, 1.0), k(1.0, 2.0)]);
    let err = same_time.unwrap_err().to_string();
    assert!(err.contains("key times must increase"), "{err}");
    let twice = [lin(&[(0.0, 1.0)]), lin(&[(1.0, 1.0)])];
    assert_eq!(
        check_tracks(&twice),
        Err(TrackError::DuplicateChannel(Channel::Rotation))
    );
    let mut t = lin(&[(0.0, 0.0), (2.0, 2.0)]);
    assert_eq!(t.insert_key(k(1.0, 5.0)), Ok(1));
    assert_eq!(t.insert_key(k(2.0, 9.0).with(Interp::Step)), Ok(2));
    assert_eq!(t.insert_key(k(-1.0, 0.0)), Ok(0));
    assert!(t.insert_key(k(f32::NAN, 0.0)).is_err());
    let times: Vec<f32> = t.keys.iter().map(|k| k.time).collect();
    assert_eq!(times, [-1.0, 0.0, 1.0, 2.0]);
    assert_eq!(t.keys[3], k(2.0, 9.0).with(Interp::Step));
    assert!(t.check().is_ok());
    assert_eq!(t.key_at(1.0), Some(2));
}

#[test]
fn sampling_replaces_only_the_animated_channels() {
    let base = Trs::new(Vec2::new(-0.0, 3.0), 12.0, Vec2::new(-0.0, 2.0), -0.0);
    let tracks = [
        track(
            Channel::PositionY,
            &[(0.0, 1.0, Interp::Linear), (1.0, 2.0, Interp::Linear)],
        ),
        track(Channel::ScaleX, &[(0.0, 4.0, Interp::Linear)]),
        Track::new(Channel::Skew, vec![]).unwrap(),
    ];
    let posed = sample(base, &tracks, 0.5);
    let expected = Trs::new(Vec2::new(-0.0, 1.5), 12.0, Vec2::new(4.0, 2.0), -0.0);
    assert_eq!(trs_bits(&posed), trs_bits(&expected));
    assert_eq!(trs_bits(&sample(base, &[], 0.5)), trs_bits(&base));
}

// ---------------------------------------------------------------- the scene and its edits

fn swinging_sword() -> Scene {
    let mut scene = sword_scene();
    let swing = track(
        Channel::Rotation,
        &[
            (0.0, 90.0, Interp::EaseInOut),
            (1.0, 60.0, Interp::EaseInOut),
            (2.0, 90.0, Interp::Linear),
        ],
    );
    scene.set_tracks(NodeId(2), vec![swing]).unwrap();
    scene
}

#[test]
fn refused_track_and_clip_changes_change_nothing() {
    let mut scene = swinging_sword();
    let before = snapshot(&scene);
    let bad = Track {
        channel: Channel::Rotation,
        keys: vec![Key::new(1.0, 0.0), Key::new(0.0, 1.0)],
    };
    let err = scene
        .set_tracks(NodeId(3), vec![bad])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("node 3: rotation track: key times must increase"),
        "{err}"
    );
    let nan = Track {
        channel: Channel::PositionX,
        keys: vec![Key::new(0.0, f32::NAN)],
    };
    let err = scene
        .set_tracks(NodeId(3), vec![nan])
        .unwrap_err()
        .to_string();
    assert_eq!(err, "node 3: animation key is not a finite number");
    assert!(scene.set_tracks(NodeId(99), vec![]).is_err());
    let bad_clip = ClipSettings {
        length: 0.0,
        mode: LoopMode::Once,
    };
    assert!(scene.set_clip(bad_clip).is_err());
    let mut history = History::new();
    let ops = vec![
        Op::SetClip {
            settings: ClipSettings::new(5.0, LoopMode::PingPong).unwrap(),
        },
        Op::SetClip { settings: bad_clip },
    ];
    assert!(history.perform(&mut scene, "clip", ops).is_err());
    let add = Op::Add {
        parent: None,
        index: None,
        data: NodeData {
            tracks: thin_vec::thin_vec![lin(&[(0.0, 1.0)]), lin(&[(1.0, 1.0)])],
            ..NodeData::default()
        },
    };
    let err = history.perform(&mut scene, "add", vec![add]).unwrap_err();
    assert!(
        err.to_string().contains("two tracks drive rotation"),
        "{err}"
    );
    assert_eq!(snapshot(&scene), before);
    assert!(history.undo_label().is_none());
}

#[test]
fn tracks_live_with_their_node_through_delete_undo_and_copy() {
    let mut scene = swinging_sword();
    let tracks = scene.node(NodeId(2)).unwrap().tracks.clone();
    let mut history = History::new();
    history
        .perform(&mut scene, "delete", vec![Op::Remove { node: NodeId(1) }])
        .unwrap();
    assert!(scene.animated_nodes().is_empty());
    assert_eq!(scene.set_pose_at(1.0), 0);
    history.undo(&mut scene).unwrap();
    assert_eq!(scene.node(NodeId(2)).unwrap().tracks, tracks);
    assert_eq!(scene.animated_nodes(), [NodeId(2)]);
    // A duplicate carries the tracks under its new ids.
    let mut copy = scene.copy_subtree(NodeId(2)).unwrap();
    scene.renumber_fresh(std::slice::from_mut(&mut copy));
    let new_root = copy.root();
    history
        .perform(&mut scene, "duplicate", vec![Op::Insert { subtree: copy }])
        .unwrap();
    assert_eq!(scene.node(new_root).unwrap().tracks, tracks);
    assert_eq!(scene.animated_nodes(), [new_root, NodeId(2)]); // pre-order
    assert_eq!(scene.set_pose_at(1.0), 2);
    scene.check_invariants().unwrap();
}

#[test]
fn a_gesture_of_track_edits_is_one_step() {
    let mut scene = sword_scene();
    let before = snapshot(&scene);
    let mut history = History::new();
    for k in 1..5 {
        let op = Op::SetTracks {
            node: NodeId(3),
            tracks: vec![lin(&[(0.0, 0.0), (1.0, k as f32)])],
        };
        history
            .perform_gesture(&mut scene, "drag key", vec![op], Some(7))
            .unwrap();
        let clip = ClipSettings::new(k as f32, LoopMode::Once).unwrap();
        let op = Op::SetClip { settings: clip };
        history
            .perform_gesture(&mut scene, "clip length", vec![op], Some(8))
            .unwrap();
    }
    assert_eq!(history.labels().0.len(), 8); // the two gestures alternate
    let mut scene2 = sword_scene();
    let mut h2 = History::new();
    for k in 1..5 {
        let op = Op::SetTracks {
            node: NodeId(3),
            tracks: vec![lin(&[(0.0, 0.0), (1.0, k as f32)])],
        };
        h2.perform_gesture(&mut scene2, "drag key", vec![op], Some(7))
            .unwrap();
    }
    assert_eq!(h2.labels().0.len(), 1);
    h2.undo(&mut scene2).unwrap();
    assert_eq!(snapshot(&scene2), before);
    h2.redo(&mut scene2).unwrap();
    assert_eq!(scene2.node(NodeId(3)).unwrap().tracks[0].keys[1].value, 4.0);
}

// ---------------------------------------------------------------- playing and trails

#[test]
fn playing_touches_only_the_animated_nodes_and_their_subtrees() {
    let mut scene = wide_scene(3000);
    let picks = [NodeId(5), NodeId(40), NodeId(2999)];
    for (k, &id) in picks.iter().enumerate() {
        let channel = Channel::ALL[k];
        let t = track(
            channel,
            &[(0.0, 1.0, Interp::Linear), (2.0, 3.0, Interp::Linear)],
        );
        scene.set_tracks(id, vec![t]).unwrap();
    }
    scene.update_world();
    let before = snapshot(&scene);
    assert_eq!(scene.set_pose_at(0.5), 3);
    let subtrees: usize = picks
        .iter()
        .map(|&id| scene.subtree_len_at(scene.index(id).unwrap()))
        .sum();
    assert_eq!(scene.update_world(), subtrees);
    let after = snapshot(&scene);
    for i in 0..scene.len() {
        let id = scene.id_at(i);
        let data = scene.data_at(i);
        if picks.contains(&id) {
            let expected = sample(data.local, &data.tracks, 0.5);
            assert_eq!(after.locals[i], trs_bits(&expected));
            assert_ne!(after.locals[i], before.locals[i]);
        } else {
            assert_eq!(after.locals[i], before.locals[i], "node {id} moved");
        }
    }
    assert_eq!(
        scene.set_pose_at(0.5),
        0,
        "the same pose again changes nothing"
    );
    assert_eq!(scene.update_world(), 0);
    scene.check_invariants().unwrap();
}

/// Playing a big scene poses exactly its three animated nodes each frame. (How fast that is,
/// against a walk over every node, is `graft bench animate`'s business: no timed test here.)
#[test]
fn playing_a_big_scene_poses_only_the_animated_nodes() {
    let mut scene = wide_scene(300_000);
    for id in [7, 1000, 299_999] {
        let t = lin(&[(0.0, 0.0), (2.0, 360.0)]);
        scene.set_tracks(NodeId(id), vec![t]).unwrap();
    }
    scene.update_world();
    scene.set_pose_at(0.0); // the first call reads which nodes are animated
    for frame in 0..300 {
        assert_eq!(scene.set_pose_at(0.01 + frame as f32 / 100.0), 3);
        let recomputed = scene.update_world();
        assert!(
            (3..=3 + 2 * 548).contains(&recomputed),
            "only their subtrees: {recomputed}"
        );
    }
}

// ---------------------------------------------------------------- format 3

#[test]
fn format_3_reads_writes_and_is_written_only_when_needed() {
    let mut scene = swinging_sword();
    let text = to_ron_string(&scene);
    assert!(text.contains("    format: 3,\n    nodes: ["), "{text}");
    assert!(
        text.contains(
            "rotation: 90.0, tracks: [(channel: Rotation, keys: [(time: 0.0, value: 90.0, \
             interp: EaseInOut), (time: 1.0, value: 60.0, interp: EaseInOut), (time: 2.0, \
             value: 90.0)])]),\n"
        ),
        "{text}"
    );
    assert_eq!(load_text(&text).unwrap(), scene);
    scene
        .set_clip(ClipSettings::new(4.0, LoopMode::PingPong).unwrap())
        .unwrap();
    let text = to_ron_string(&scene);
    assert!(text.contains("    format: 3,\n    clip: (length: 4.0, mode: PingPong),\n"));
    let back = load_text(&text).unwrap();
    assert_eq!(back.clip(), scene.clip());
    assert_eq!(to_ron_string(&back), text);
    // A clip alone needs format 3; nothing new stays format 1.
    let mut plain = sword_scene();
    assert_eq!(needed_version(&plain), 1);
    plain
        .set_clip(ClipSettings::new(2.0, LoopMode::Once).unwrap())
        .unwrap();
    assert_eq!(needed_version(&plain), 3);
    plain.set_clip(ClipSettings::default()).unwrap();
    plain
        .set_tracks(NodeId(1), vec![Track::new(Channel::Skew, vec![]).unwrap()])
        .unwrap();
    assert_eq!(needed_version(&plain), 3);
    // Fields may be left out; clip fields take their defaults.
    let short = "(format: 3, clip: (mode: Once), nodes: [(id: 1, tracks: [(channel: ScaleY, \
                 keys: [(time: 1.0, value: 2.0, interp: Step)])])])";
    let s = load_text(short).unwrap();
    assert_eq!(s.clip(), ClipSettings::new(2.0, LoopMode::Once).unwrap());
    assert_eq!(
        s.data_at(0).tracks[0].keys[0],
        Key::new(1.0, 2.0).with(Interp::Step)
    );
}

#[test]
fn format_3_features_are_refused_in_older_files_and_broken_tracks_anywhere() {
    let tracks = "tracks: [(channel: Rotation, keys: [(time: 0.0, value: 1.0)])]";
    refused(
        &format!("(format: 1, nodes: [(id: 3, {tracks})])"),
        "t.ron: node 3: tracks need `format: 3` (this file says `format: 1`)",
    );
    refused(
        &format!("(format: 2, nodes: [(id: 3, {tracks})])"),
        "node 3: tracks need `format: 3` (this file says `format: 2`)",
    );
    refused(
        "(format: 2, clip: (length: 4.0), nodes: [])",
        "the clip needs `format: 3` (this file says `format: 2`)",
    );
    refused(
        "(format: 1, clip: (mode: PingPong))",
        "the clip needs `format: 3`",
    );
    // Written at their defaults they are not features, as with format 2.
    assert!(
        load_text("(format: 1, clip: (length: 2.0, mode: Loop), nodes: [(id: 1, tracks: [])])")
            .is_ok()
    );
    refused(
        "(format: 6, nodes: [])",
        "format 6 is not supported (this graft reads formats 1 to 5",
    );
    let node = |t: &str| format!("(format: 3, nodes: [(id: 5, tracks: [{t}])])");
    refused(
        &node("(channel: Rotation, keys: [(time: 1.0, value: 0.0), (time: 1.0, value: 2.0)])"),
        "node 5: rotation track: key times must increase (key 1 at 1.0 s is not after 1.0 s)",
    );
    refused(
        &node("(channel: Rotation, keys: [(time: NaN, value: 0.0)])"),
        "node 5: animation key is not a finite number",
    );
    refused(
        &node("(channel: Rotation, keys: [(time: 0.0, value: inf)])"),
        "node 5: animation key is not a finite number",
    );
    refused(
        &node("(channel: Skew, keys: []), (channel: Skew, keys: [])"),
        "node 5: two tracks drive skew",
    );
    refused(&node("(channel: Spin, keys: [])"), "t.ron:1:");
    refused(&node("(channel: Skew)"), "t.ron:1:");
    refused(&node("(channel: Skew, keys: [(time: 0.0)])"), "t.ron:1:");
    refused(
        &node("(channel: Skew, keys: [(time: 0.0, value: 1.0, ease: 2)])"),
        "t.ron:1:",
    );
    refused(
        &node("(channel: Skew, keys: [(time: 0.0, value: 1.0, interp: Cubic)])"),
        "t.ron:1:",
    );
    for length in ["0.0", "-1.0", "NaN", "inf"] {
        refused(
            &format!("(format: 3, clip: (length: {length}), nodes: [])"),
            "the clip length must be a number of seconds above zero",
        );
    }
    refused("(format: 3, clip: (length: 1.0, mode: Bounce))", "t.ron:1:");
    refused("(format: 3, clip: (length: 1.0, speed: 2.0))", "t.ron:1:");
}

// ---------------------------------------------------------------- the sample scenes

fn sample_scene(name: &str) -> Scene {
    file::load(&Path::new("scenes").join(name)).unwrap()
}

#[test]
fn the_sample_scenes_rest_at_their_stored_pose_and_move() {
    for (name, animated) in [("sword.ron", 1), ("solar.ron", 3), ("tank.ron", 2)] {
        let mut scene = sample_scene(name);
        assert_eq!(scene.animated_nodes().len(), animated, "{name}");
        let rest = snapshot(&scene);
        assert_eq!(
            scene.set_pose_at(0.0),
            0,
            "{name}: the pose at 0 s is the stored one"
        );
        assert_eq!(snapshot(&scene), rest);
        assert_eq!(scene.set_pose_at(2.8), animated, "{name} moves");
        let end = scene.clip().length;
        assert_eq!(scene.set_pose_at(end), animated, "{name} loops back");
        assert_eq!(snapshot(&scene), rest);
    }
    let mut sword = sample_scene("sword.ron");
    sword.set_pose_at(1.0);
    assert_eq!(sword.node(NodeId(2)).unwrap().local.rotation, 60.0);
    assert_vec_near(
        sword.world(NodeId(1)).unwrap().translation,
        Vec2::new(5.0, 0.0),
    );
    let mut tank = sample_scene("tank.ron");
    tank.set_pose_at(2.6);
    assert_eq!(tank.node(NodeId(4)).unwrap().local.rotation, -20.0);
    assert_eq!(
        tank.node(NodeId(5)).unwrap().local.position,
        Vec2::new(1.3, 0.0)
    );
}

#[test]
fn the_moon_circles_the_earth_not_the_sun() {
    let solar = sample_scene("solar.ron");
    let length = solar.clip().length;
    let times: Vec<f32> = (0..240).map(|k| k as f32 * length / 240.0).collect();
    let sun = solar.world_path(NodeId(1), &times);
    let earth = solar.world_path(NodeId(2), &times);
    let moon = solar.world_path(NodeId(3), &times);
    let from_sun: Vec<f64> = moon
        .iter()
        .zip(&sun)
        .map(|(m, s)| (*m - *s).length())
        .collect();
    let (near, far) = from_sun
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &d| (lo.min(d), hi.max(d)));
    assert!(
        far - near > 10.0,
        "the moon stays {near} … {far} from the sun"
    );
    for (k, (m, e)) in moon.iter().zip(&earth).enumerate() {
        assert!(
            ((*m - *e).length() - 7.5).abs() < 1e-4,
            "at {}: {}",
            times[k],
            (*m - *e).length()
        );
        let earth_from_sun = (*e - sun[k]).length();
        assert!(
            (earth_from_sun - 10.0).abs() < 1e-4,
            "the earth's orbit is a circle"
        );
    }
    // The earth goes round: a quarter of the clip later it is elsewhere.
    assert!((earth[0] - earth[60]).length() > 5.0);
    assert_eq!(solar.world_path(NodeId(77), &times), Vec::<DVec2>::new());
}

#[test]
fn print_poses_the_scene_at_the_given_time() {
    let graft = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = graft(&["print", "scenes/sword.ron", "--time", "1", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let nodes: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(nodes[1]["name"], "arm");
    assert_eq!(nodes[1]["local"]["rotation"], 60.0);
    let rest = graft(&["print", "scenes/sword.ron", "--json"]);
    let nodes: serde_json::Value = serde_json::from_slice(&rest.stdout).unwrap();
    assert_eq!(nodes[1]["local"]["rotation"], 90.0);
    let table = graft(&["print", "scenes/sword.ron", "--time", "-1"]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("(0, 2) 60°"));
    let bad = graft(&["print", "scenes/sword.ron", "--time", "NaN"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a finite number of seconds"));
}
