//! The timeline without a window: playing poses the scene outside the history, K keys the
//! selection as one undo step, keys move (one step per drag) and delete, and Stop goes back to
//! the stored pose.

mod common;

use common::paste_local;
use glam::Vec2;
use graft::editor::session::Editor;
use graft::editor::session::command::{Command, HistoryCommand, SelectionCommand};
use graft::editor::session::timeline::TimelineCommand as T;
use graft::model::anim::Channel;
use graft::model::document::Document;
use graft::model::scene::NodeId;
use std::path::Path;

fn editor(scene: &str) -> Editor {
    let mut e = Editor::new(Document::open(Path::new(scene)).unwrap());
    e.update_world();
    e
}

fn run(e: &mut Editor, c: Command) {
    e.apply(c).expect("applies");
    e.update_world();
}

const ARM: NodeId = NodeId(2);

#[test]
fn playing_poses_locals_outside_the_history() {
    let mut e = editor("scenes/sword.ron");
    let rest = e.doc().scene().node(ARM).unwrap().local;
    run(&mut e, Command::Timeline(T::Play));
    let changed = e.advance(0.5);
    e.update_world();
    assert_eq!(changed, 1, "only the arm is animated");
    let posed = e.doc().scene().node(ARM).unwrap().local;
    assert!(
        posed.rotation < rest.rotation,
        "the arm swings: {}",
        posed.rotation
    );
    assert!(
        e.doc().history().labels().0.is_empty(),
        "playback is not an edit"
    );
    assert!((e.timeline().time() - 0.5).abs() < 1e-6);
    run(&mut e, Command::Timeline(T::Stop));
    assert!(!e.timeline().playing());
    assert_eq!(
        e.doc().scene().node(ARM).unwrap().local,
        rest,
        "t = 0 is the stored pose"
    );
}

#[test]
fn key_selection_is_one_step_and_keys_move_and_delete() {
    let mut e = editor("scenes/shear.ron");
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![NodeId(1), NodeId(3)])),
    );
    run(&mut e, Command::Timeline(T::SetTime(0.5)));
    run(&mut e, Command::Timeline(T::KeySelection));
    assert_eq!(
        e.doc().history().labels().0,
        vec!["Key 2 node(s) at 0.50 s"]
    );
    let tracks = &e.doc().scene().node(NodeId(1)).unwrap().tracks;
    assert_eq!(tracks.len(), 5, "position, rotation and scale");
    let sx = tracks
        .iter()
        .find(|t| t.channel == Channel::ScaleX)
        .unwrap();
    assert_eq!((sx.keys[0].time, sx.keys[0].value), (0.5, 2.0));

    // Drag the keys from 0.5 s to 1.5 s in three moves: one undo step.
    for (from, to) in [(0.5, 0.8), (0.8, 1.2), (1.2, 1.5)] {
        run(
            &mut e,
            Command::Timeline(T::MoveKeys {
                node: NodeId(1),
                from,
                to,
            }),
        );
    }
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    let labels = e.doc().history().labels().0;
    assert_eq!(labels, vec!["Key 2 node(s) at 0.50 s", "Move keys"]);
    let tracks = &e.doc().scene().node(NodeId(1)).unwrap().tracks;
    assert!(
        tracks
            .iter()
            .all(|t| t.keys.len() == 1 && t.keys[0].time == 1.5)
    );
    run(&mut e, Command::History(HistoryCommand::Undo));
    let tracks = &e.doc().scene().node(NodeId(1)).unwrap().tracks;
    assert!(tracks.iter().all(|t| t.keys[0].time == 0.5));

    run(
        &mut e,
        Command::Timeline(T::DeleteKeys {
            node: NodeId(1),
            at: 0.5,
        }),
    );
    assert!(
        e.doc().scene().node(NodeId(1)).unwrap().tracks.is_empty(),
        "the last keys take their tracks"
    );
    assert!(
        e.apply(Command::Timeline(T::DeleteKeys {
            node: NodeId(1),
            at: 0.5
        }))
        .is_err()
    );
    assert!(e.apply(Command::Timeline(T::SetTime(f32::NAN))).is_err());
}

#[test]
fn keyed_values_play_back() {
    let mut e = editor("scenes/shear.ron");
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![NodeId(3)])),
    );
    run(&mut e, Command::Timeline(T::KeySelection)); // at 0 s: position (5, 0)
    run(&mut e, Command::Timeline(T::SetTime(1.0)));
    let moved = graft::model::math::Trs::new(Vec2::new(9.0, 0.0), 45.0, Vec2::ONE, 0.0);
    run(&mut e, paste_local(NodeId(3), moved));
    run(&mut e, Command::Timeline(T::KeySelection)); // at 1 s: (9, 0)
    run(&mut e, Command::Timeline(T::SetTime(0.5)));
    let at = e.doc().scene().node(NodeId(3)).unwrap().local.position;
    assert!((at - Vec2::new(7.0, 0.0)).length() < 1e-5, "halfway: {at}");
}

#[test]
fn trails_toggle_and_follow_the_world_path() {
    let mut e = editor("scenes/solar.ron");
    run(&mut e, Command::Timeline(T::ToggleTrails));
    assert!(e.timeline().trails());
    let times: Vec<f32> = (0..=48).map(|k| 12.0 * k as f32 / 48.0).collect();
    let path = e.doc().scene().world_path(NodeId(3), &times);
    let sun = e
        .doc()
        .scene()
        .world(NodeId(1))
        .unwrap()
        .translation
        .as_dvec2();
    let distances: Vec<f64> = path.iter().map(|p| (*p - sun).length()).collect();
    let (lo, hi) = distances
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, h), d| (l.min(*d), h.max(*d)));
    assert!(
        hi - lo > 5.0,
        "an epicycle, not a circle about the sun: {lo}..{hi}"
    );
}

#[test]
fn auto_key_writes_keys_with_the_edit_as_one_step() {
    let mut e = editor("scenes/shear.ron");
    run(&mut e, Command::Timeline(T::ToggleAutoKey));
    assert!(e.timeline().auto_key());
    run(&mut e, Command::Timeline(T::SetTime(1.0)));
    let moved = graft::model::math::Trs::new(Vec2::new(6.0, 1.0), 30.0, Vec2::ONE, 0.0);
    run(&mut e, paste_local(NodeId(3), moved));
    let one = vec!["Paste transform onto fixed"];
    assert_eq!(e.doc().history().labels().0, one, "one step");
    let tracks = &e.doc().scene().node(NodeId(3)).unwrap().tracks;
    let x = tracks
        .iter()
        .find(|t| t.channel == Channel::PositionX)
        .unwrap();
    assert_eq!((x.keys[0].time, x.keys[0].value), (1.0, 6.0));
    // A drag with auto-key on stays one step, keys included.
    let drag = common::drag_of(&e, NodeId(3));
    for k in 1..=3 {
        let pointer = glam::DVec2::new(f64::from(k), 0.0);
        run(&mut e, common::drag_to(&drag, pointer));
    }
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    assert_eq!(e.doc().history().labels().0.len(), 2);
    let x = e.doc().scene().node(NodeId(3)).unwrap().tracks[0].clone();
    assert_eq!(
        x.keys.len(),
        1,
        "the key at 1 s was updated, not duplicated"
    );
    assert_eq!(x.keys[0].value, 9.0);
    run(&mut e, Command::History(HistoryCommand::Undo));
    run(&mut e, Command::History(HistoryCommand::Undo));
    assert!(e.doc().scene().node(NodeId(3)).unwrap().tracks.is_empty());
    assert_eq!(
        e.doc().scene().node(NodeId(3)).unwrap().local.position,
        Vec2::new(5.0, 0.0)
    );
}

/// Blending keyed world matrices instead of interpolating locals: half-way through a half turn
/// the blended matrix has shrunk (its x axis is shorter than 1), while the true pose has not;
/// at a key time there is no ghost.
#[test]
fn blended_world_matrices_shrink_mid_way() {
    use graft::editor::view::overlay::world_blend_ghosts;
    let mut e = editor("scenes/shear.ron");
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![NodeId(3)])),
    );
    run(&mut e, Command::Timeline(T::KeySelection)); // 45° at 0 s
    run(&mut e, Command::Timeline(T::SetTime(1.0)));
    let turned = graft::model::math::Trs::new(Vec2::new(5.0, 0.0), 225.0, Vec2::ONE, 0.0);
    run(&mut e, paste_local(NodeId(3), turned));
    run(&mut e, Command::Timeline(T::KeySelection)); // 225° at 1 s: a half turn
    assert!(
        world_blend_ghosts(e.doc().scene(), 1.0).is_empty(),
        "at a key they agree"
    );
    let ghosts = world_blend_ghosts(e.doc().scene(), 0.5);
    let (_, blended) = ghosts.iter().find(|(id, _)| *id == NodeId(3)).unwrap();
    assert!(
        blended.matrix2.x_axis.length() < 1e-4,
        "half a half turn blends to nothing: {blended:?}"
    );
    let child = ghosts
        .iter()
        .find(|(id, _)| *id == NodeId(4))
        .expect("its child too");
    let true_child = e.doc().scene().sampled_worlds(NodeId(4), &[0.5])[0];
    assert!((child.1.matrix2.x_axis - true_child.matrix2.x_axis).length() > 0.5);
}
