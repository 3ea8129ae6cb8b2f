//! Keyframe animation, the property tests: posing equals sampling and trails agree, undo and
//! redo of random track and clip steps are exact, and save → load with random tracks is
//! bit-exact.

mod common;

use common::*;
use glam::DVec2;
use graft::model::anim::{Channel, ClipSettings, Interp, Key, LoopMode, Track, sample};
use graft::model::file::{parse, to_ron_string};
use graft::model::scene::edit::{History, Op};
use graft::model::scene::{NodeId, Scene};
use graft::tools::generate::{GenShape, generate};
use proptest::prelude::*;
use std::path::Path;

fn load_text(text: &str) -> graft::Result<Scene> {
    parse(text, Path::new("t.ron"))
}

// ---------------------------------------------------------------- playing and trails

/// Random tracks with moderate numbers, on random nodes of a random scene.
fn animated_scene() -> impl Strategy<Value = (Scene, Vec<f32>)> {
    let key = (0.0f32..4.0, -400.0f32..400.0, interp());
    let tracks = prop::collection::vec((channel(), prop::collection::vec(key, 0..5)), 0..3);
    (
        1usize..30,
        any::<u64>(),
        prop::collection::vec((any::<prop::sample::Index>(), tracks), 0..6),
        clip(0.5f32..5.0),
        prop::collection::vec(-3.0f32..12.0, 1..6),
    )
        .prop_map(|(n, seed, picks, clip, times)| {
            let mut scene = generate(GenShape::Random, n, seed);
            for (pick, raw) in picks {
                let id = scene.id_at(pick.index(scene.len()));
                let _ = scene.set_tracks(id, valid_tracks(raw));
            }
            scene.set_clip(clip).unwrap();
            (scene, times)
        })
}

fn interp() -> impl Strategy<Value = Interp> {
    prop::sample::select(Interp::ALL.to_vec())
}

fn channel() -> impl Strategy<Value = Channel> {
    prop::sample::select(Channel::ALL.to_vec())
}

fn clip(length: impl Strategy<Value = f32>) -> impl Strategy<Value = ClipSettings> {
    (length, prop::sample::select(LoopMode::ALL.to_vec()))
        .prop_map(|(length, mode)| ClipSettings { length, mode })
}

/// Tracks as a generator makes them: a channel and (time, value, interp) triples.
type RawTracks = Vec<(Channel, Vec<(f32, f32, Interp)>)>;

/// Sort keys, drop repeated times and channels: a valid list of tracks.
fn valid_tracks(raw: RawTracks) -> Vec<Track> {
    let mut out: Vec<Track> = Vec::new();
    for (channel, mut keys) in raw {
        if out.iter().any(|t| t.channel == channel) {
            continue;
        }
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        keys.dedup_by(|a, b| a.0 == b.0);
        let keys = keys
            .iter()
            .map(|&(t, v, i)| Key::new(t, v).with(i))
            .collect();
        out.push(Track::new(channel, keys).unwrap());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// set_pose_at writes exactly the sampled locals of the animated nodes and nothing else;
    /// world_path gives the world origins that posing and updating give.
    #[test]
    fn posing_equals_sampling_and_trails_agree((scene, times) in animated_scene()) {
        let ids: Vec<NodeId> = scene.ids().to_vec();
        let paths: Vec<Vec<DVec2>> = ids.iter().map(|&id| scene.world_path(id, &times)).collect();
        for (k, &t) in times.iter().enumerate() {
            let mut posed = scene.clone();
            let clip_time = scene.clip().local_time(t);
            let changed = posed.set_pose_at(t);
            let mut expected_changes = 0;
            for i in 0..scene.len() {
                let data = scene.data_at(i);
                let expected = sample(data.local, &data.tracks, clip_time);
                if trs_bits(&expected) != trs_bits(&data.local) {
                    expected_changes += 1;
                }
                prop_assert_eq!(trs_bits(&posed.data_at(i).local), trs_bits(&expected));
            }
            prop_assert_eq!(changed, expected_changes);
            posed.update_world();
            posed.check_invariants().map_err(TestCaseError::fail)?;
            for (i, path) in paths.iter().enumerate() {
                let world = posed.world_at(i).translation.as_dvec2();
                let tol = 1e-5 * world.abs().max_element().max(1.0);
                prop_assert!((path[k] - world).abs().max_element() <= tol,
                    "node {} at {}: trail {:?}, posed {:?}", ids[i], t, path[k], world);
            }
        }
    }

    /// Undo of random track and clip steps (some refused) gives the start back bit for bit, and
    /// redo gives the end.
    #[test]
    fn undo_and_redo_of_track_and_clip_steps_are_exact(
        (mut scene, _) in animated_scene(),
        steps in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::collection::vec(
                (channel(), prop::collection::vec((-1.0f32..3.0, -90.0f32..90.0, interp()), 0..4)),
                0..3), clip(-1.0f32..6.0), 0u8..4),
            1..12),
    ) {
        let mut history = History::new();
        let start = snapshot(&scene);
        for (pick, raw, settings, kind) in steps {
            let node = scene.id_at(pick.index(scene.len()));
            let op = match kind {
                0 => Op::SetClip { settings },
                // Unsorted, repeated or doubled keys and channels are refused as they come.
                1 => Op::SetTracks { node, tracks: raw.into_iter().map(|(channel, keys)| Track {
                    channel,
                    keys: keys.iter().map(|&(t, v, i)| Key::new(t, v).with(i)).collect(),
                }).collect() },
                _ => Op::SetTracks { node, tracks: valid_tracks(raw) },
            };
            let before = snapshot(&scene);
            if history.perform(&mut scene, "step", vec![op]).is_err() {
                prop_assert_eq!(&snapshot(&scene), &before);
            }
        }
        let end = snapshot(&scene);
        while history.undo(&mut scene).unwrap().is_some() {}
        prop_assert_eq!(&snapshot(&scene), &start);
        while history.redo(&mut scene).unwrap().is_some() {}
        prop_assert_eq!(&snapshot(&scene), &end);
        scene.check_invariants().map_err(TestCaseError::fail)?;
    }
}

// ---------------------------------------------------------------- format 3

/// Floats that stress the writer, finite: signed zeros, subnormals, extremes, ordinary values.
fn tricky_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(-0.0f32),
        Just(0.0f32),
        Just(f32::MIN_POSITIVE / 3.0),
        Just(f32::MAX),
        Just(f32::MIN),
        Just(16_777_217.0f32),
        any::<f32>().prop_filter("finite", |v| v.is_finite()),
        -1000.0f32..1000.0,
    ]
}

fn tricky_tracks() -> impl Strategy<Value = Vec<Track>> {
    let key = (tricky_f32(), tricky_f32(), interp());
    prop::collection::vec((channel(), prop::collection::vec(key, 0..5)), 0..4)
        .prop_map(valid_tracks)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// save → load of random scenes with random tracks and clips is bit-exact, fmt idempotent.
    #[test]
    fn save_load_with_tracks_is_bit_exact(
        n in 1usize..20,
        seed in any::<u64>(),
        tracks in prop::collection::vec((any::<prop::sample::Index>(), tricky_tracks()), 0..6),
        clip in prop_oneof![
            Just(ClipSettings::default()),
            clip(prop_oneof![Just(2.0f32), Just(1e-45f32), Just(f32::MAX), 1e-3f32..1e4]),
        ],
    ) {
        let mut scene = generate(GenShape::Random, n, seed);
        for (pick, t) in tracks {
            let id = scene.id_at(pick.index(scene.len()));
            scene.set_tracks(id, t).unwrap();
        }
        scene.set_clip(clip).unwrap();
        let text = to_ron_string(&scene);
        let back = load_text(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(snapshot(&back), snapshot(&scene));
        prop_assert_eq!(back.clip().length.to_bits(), scene.clip().length.to_bits());
        prop_assert_eq!(to_ron_string(&back), text);
    }
}
