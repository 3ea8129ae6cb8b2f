//! Several keys at once: select them (a list, a toggle), move them together as one undo step
//! (past each other, onto other keys, never before 0 s), delete them with Del, and the key
//! selection follows the keys and forgets the ones that are gone.

use glam::Vec2;
use graft::editor::session::Editor;
use graft::editor::session::command::{
    Command, EditCommand, HistoryCommand, PanelCommand, SelectionCommand,
};
use graft::editor::session::timeline::{KeyRef, TimelineCommand as T};
use graft::model::anim::{Channel, ClipSettings, LoopMode, Track};
use graft::model::document::Document;
use graft::model::math::Trs;
use graft::model::scene::NodeId;
use graft::model::scene::edit::Op;
use std::path::Path;

const A: NodeId = NodeId(1);
const B: NodeId = NodeId(3);

fn run(e: &mut Editor, c: Command) {
    e.apply(c).expect("applies");
    e.update_world();
}

/// Raw ops no panel sends, through the test hook (as `run` applies a command).
fn perform(e: &mut Editor, label: &str, ops: Vec<Op>, continuous: bool) {
    e.perform_ops(label, ops, continuous).expect("applies");
    e.update_world();
}

/// shear.ron with a 10 s clip and A and B keyed at 0.5, 1.0 and 2.0 s, their x position 1, 2, 3 there.
fn keyed() -> Editor {
    let mut e = Editor::new(Document::open(Path::new("scenes/shear.ron")).unwrap());
    e.update_world();
    let settings = ClipSettings {
        length: 10.0,
        mode: LoopMode::Loop,
    };
    run(&mut e, Command::Panel(PanelCommand::SetClip(settings)));
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![A, B])),
    );
    for (time, x) in [(0.5, 1.0), (1.0, 2.0), (2.0, 3.0)] {
        run(&mut e, Command::Timeline(T::SetTime(time)));
        let ops = [A, B]
            .map(|node| Op::SetLocal {
                node,
                local: Trs::new(Vec2::new(x, 0.0), 0.0, Vec2::ONE, 0.0),
            })
            .to_vec();
        perform(&mut e, "Move", ops, false);
        run(&mut e, Command::Timeline(T::KeySelection));
    }
    e
}

fn tracks(e: &Editor, node: NodeId) -> Vec<Track> {
    e.doc().scene().node(node).unwrap().tracks.to_vec()
}

/// The (time, value) keys of a node's x position.
fn xs(e: &Editor, node: NodeId) -> Vec<(f32, f32)> {
    tracks(e, node)
        .iter()
        .find(|t| t.channel == Channel::PositionX)
        .map(|t| t.keys.iter().map(|k| (k.time, k.value)).collect())
        .unwrap_or_default()
}

fn sorted(mut keys: Vec<KeyRef>) -> Vec<(u32, f32)> {
    keys.sort_by(|a, b| a.node.cmp(&b.node).then(a.time.total_cmp(&b.time)));
    keys.into_iter().map(|k| (k.node.0, k.time)).collect()
}

#[test]
fn a_key_selection_moves_together_as_one_step() {
    let mut e = keyed();
    assert_eq!(xs(&e, A), vec![(0.5, 1.0), (1.0, 2.0), (2.0, 3.0)]);
    let before = (tracks(&e, A), tracks(&e, B));
    let steps = e.doc().history().labels().0.len();
    let pick = vec![
        KeyRef::new(A, 0.5),
        KeyRef::new(A, 2.0),
        KeyRef::new(B, 1.0),
    ];
    run(&mut e, Command::Timeline(T::SelectKeys(pick)));
    assert_eq!(e.selected_keys().len(), 3);

    // A drag of +0.5 s in two moves is one undo step.
    run(&mut e, Command::Timeline(T::MoveSelectedKeys { by: 0.25 }));
    run(&mut e, Command::Timeline(T::MoveSelectedKeys { by: 0.25 }));
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    let labels = e.doc().history().labels().0;
    assert_eq!(labels.len(), steps + 1);
    assert_eq!(labels.last().copied(), Some("Move 3 key(s)"));
    // A's key from 0.5 s lands on its unselected 1.0 s key and replaces it, as keying there
    // would; the 2.0 s key goes to 2.5 s. B's selected 1.0 s key goes to 1.5 s, the others stay.
    assert_eq!(xs(&e, A), vec![(1.0, 1.0), (2.5, 3.0)]);
    assert_eq!(xs(&e, B), vec![(0.5, 1.0), (1.5, 2.0), (2.0, 3.0)]);
    // The selection went with its keys.
    assert_eq!(
        sorted(e.selected_keys()),
        vec![(1, 1.0), (1, 2.5), (3, 1.5)]
    );
    let after = (tracks(&e, A), tracks(&e, B));

    // Undo brings every key back bit for bit; keys that no longer exist leave the selection.
    run(&mut e, Command::History(HistoryCommand::Undo));
    assert_eq!((tracks(&e, A), tracks(&e, B)), before);
    assert_eq!(sorted(e.selected_keys()), vec![(1, 1.0)]);
    run(&mut e, Command::History(HistoryCommand::Redo));
    assert_eq!((tracks(&e, A), tracks(&e, B)), after);
}

#[test]
fn a_selection_stops_at_zero_and_keys_pass_each_other() {
    let mut e = keyed();
    run(
        &mut e,
        Command::Timeline(T::SelectKeys(vec![
            KeyRef::new(B, 0.5),
            KeyRef::new(B, 1.0),
        ])),
    );
    // Far to the left: the earliest selected key stops at 0 s and the spacing is kept.
    run(&mut e, Command::Timeline(T::MoveSelectedKeys { by: -10.0 }));
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    assert_eq!(xs(&e, B), vec![(0.0, 1.0), (0.5, 2.0), (2.0, 3.0)]);
    // Moving past an unselected key reorders the track.
    run(&mut e, Command::Timeline(T::MoveSelectedKeys { by: 2.5 }));
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    assert_eq!(xs(&e, B), vec![(2.0, 3.0), (2.5, 1.0), (3.0, 2.0)]);
    // Toggling takes one out; the other moves alone.
    run(&mut e, Command::Timeline(T::ToggleKey(KeyRef::new(B, 3.0))));
    assert_eq!(sorted(e.selected_keys()), vec![(3, 2.5)]);
    run(&mut e, Command::Timeline(T::MoveSelectedKeys { by: 1.0 }));
    run(&mut e, Command::History(HistoryCommand::EndGesture));
    assert_eq!(xs(&e, B), vec![(2.0, 3.0), (3.0, 2.0), (3.5, 1.0)]);
}

#[test]
fn del_deletes_selected_keys_and_picking_nodes_clears_them() {
    let mut e = keyed();
    let nodes = e.doc().scene().len();
    run(
        &mut e,
        Command::Timeline(T::SelectKeys(vec![
            KeyRef::new(A, 0.5),
            KeyRef::new(B, 2.0),
        ])),
    );
    // The node selection (A and B) is still there, but Del acts on the keys picked last.
    run(&mut e, Command::Edit(EditCommand::Delete));
    assert_eq!(e.doc().scene().len(), nodes, "no node deleted");
    let labels = e.doc().history().labels().0;
    assert_eq!(labels.last().copied(), Some("Delete 2 key(s)"));
    assert_eq!(xs(&e, A), vec![(1.0, 2.0), (2.0, 3.0)]);
    assert_eq!(xs(&e, B), vec![(0.5, 1.0), (1.0, 2.0)]);
    assert!(e.selected_keys().is_empty());
    run(&mut e, Command::History(HistoryCommand::Undo));
    assert_eq!(xs(&e, A).len(), 3);

    // Picking nodes clears the key selection: Del deletes nodes again.
    run(
        &mut e,
        Command::Timeline(T::SelectKeys(vec![KeyRef::new(A, 1.0)])),
    );
    run(
        &mut e,
        Command::Selection(SelectionCommand::Select(vec![B])),
    );
    assert!(e.selected_keys().is_empty());
    run(&mut e, Command::Edit(EditCommand::Delete));
    assert!(e.doc().scene().len() < nodes, "B deleted");
}

#[test]
fn bad_key_commands_are_refused_and_change_nothing() {
    let mut e = keyed();
    let before = (tracks(&e, A), tracks(&e, B));
    let steps = e.doc().history().labels().0.len();
    // No selection to move or delete.
    assert!(
        e.apply(Command::Timeline(T::MoveSelectedKeys { by: 1.0 }))
            .is_err()
    );
    assert!(e.apply(Command::Timeline(T::DeleteSelectedKeys)).is_err());
    // A key that does not exist, and a time that is not a number.
    assert!(
        e.apply(Command::Timeline(T::SelectKeys(vec![KeyRef::new(A, 0.75)])))
            .is_err()
    );
    run(
        &mut e,
        Command::Timeline(T::SelectKeys(vec![KeyRef::new(A, 0.5)])),
    );
    assert!(
        e.apply(Command::Timeline(T::MoveSelectedKeys { by: f32::NAN }))
            .is_err()
    );
    assert_eq!((tracks(&e, A), tracks(&e, B)), before);
    assert_eq!(e.doc().history().labels().0.len(), steps);
    assert_eq!(
        e.selected_keys().len(),
        1,
        "the selection survives a refusal"
    );
}
