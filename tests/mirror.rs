//! Node ▸ Mirror horizontally / vertically and Node ▸ Reset local transform (issue 47's two
//! demonstration commands): a mirror flips a node about its own origin with its subtree, as a
//! character flips; a flip stays a flip in the inspector's decomposition; each is one undo step;
//! `graft mirror` and `graft reset-local` do the same headless.

mod common;

use glam::{Affine2, Mat2, Vec2};
use graft::editor::session::command::{
    EditCommand, HistoryCommand, PanelCommand, SelectionCommand,
};
use graft::editor::{Command, Editor};
use graft::model::document::Document;
use graft::model::math::{MirrorAxis, Trs};
use graft::model::scene::NodeId;

const ARM: NodeId = NodeId(2);
const HAND: NodeId = NodeId(3);
const SWORD: NodeId = NodeId(4);

fn sword_editor() -> Editor {
    let mut editor = Editor::new(Document::sample());
    editor.update_world();
    editor
}

fn world(editor: &Editor, id: NodeId) -> Affine2 {
    editor.doc().scene().world(id).expect("a node")
}

fn close(a: Affine2, b: Affine2) -> bool {
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .all(|(x, y)| (x - y).abs() < 1e-5)
}

#[test]
fn mirroring_the_arm_flips_its_subtree_about_the_arms_own_origin() {
    let mut editor = sword_editor();
    let before: Vec<Affine2> = [ARM, HAND, SWORD].map(|id| world(&editor, id)).to_vec();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![ARM])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Mirror(MirrorAxis::Horizontal)))
        .unwrap();
    editor.update_world();
    // The flip about the arm's origin along its own x axis: arm · diag(-1, 1) · arm⁻¹.
    let flip = before[0]
        * Affine2::from_mat2(Mat2::from_diagonal(Vec2::new(-1.0, 1.0)))
        * before[0].inverse();
    for (k, id) in [ARM, HAND, SWORD].into_iter().enumerate() {
        let expected = flip * before[k];
        assert!(
            close(world(&editor, id), expected),
            "{id:?}: {:?} vs {expected:?}",
            world(&editor, id)
        );
    }
    // The arm's origin does not move.
    assert_eq!(world(&editor, ARM).translation, before[0].translation);
    // A flip stays a flip: the arm's local and world x scale are negative, not a 180° turn.
    let local = editor.doc().scene().node(ARM).unwrap().local;
    assert!(local.scale.x < 0.0 && local.scale.y > 0.0, "{local:?}");
    let world_trs = editor.doc().scene().world_trs(ARM).unwrap();
    assert!(
        world_trs.scale.x < 0.0,
        "world decomposition keeps the flip: {world_trs:?}"
    );
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Mirror horizontally arm")
    );
}

#[test]
fn mirror_twice_undo_and_redo_are_exact() {
    let mut editor = sword_editor();
    let start = editor.doc().scene().node(HAND).unwrap().local;
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            HAND, SWORD,
        ])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Mirror(MirrorAxis::Vertical)))
        .unwrap();
    let once = editor.doc().scene().node(HAND).unwrap().local;
    assert_eq!(once.scale.y, -start.scale.y);
    // The sword is selected with its parent: it flips once, with the hand.
    let sword = editor.doc().scene().node(SWORD).unwrap().local;
    assert!(
        sword.scale.y > 0.0,
        "the sword itself is not flipped again: {sword:?}"
    );
    let steps = editor.doc().history().labels().0.len();
    editor
        .apply(Command::Edit(EditCommand::Mirror(MirrorAxis::Vertical)))
        .unwrap();
    assert_eq!(editor.doc().scene().node(HAND).unwrap().local, start);
    assert_eq!(
        editor.doc().history().labels().0.len(),
        steps + 1,
        "one step each"
    );
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(editor.doc().scene().node(HAND).unwrap().local, once);
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .unwrap();
    assert_eq!(editor.doc().scene().node(HAND).unwrap().local, start);
    editor
        .apply(Command::History(HistoryCommand::Redo))
        .unwrap();
    assert_eq!(editor.doc().scene().node(HAND).unwrap().local, once);
}

#[test]
fn reset_local_sets_the_identity_in_one_step_and_nothing_selected_does_nothing() {
    let mut editor = sword_editor();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::ResetLocal))
        .unwrap();
    assert!(
        editor.doc().history().labels().0.is_empty(),
        "nothing selected: no step"
    );
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            ARM, HAND,
        ])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::ResetLocal))
        .unwrap();
    for id in [ARM, HAND] {
        assert_eq!(editor.doc().scene().node(id).unwrap().local, Trs::IDENTITY);
    }
    assert_eq!(editor.doc().history().labels().0.len(), 1);
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Reset local transform of 2 nodes")
    );
}

#[test]
fn graft_mirror_and_reset_local_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flipped.ron");
    let (code, stdout, stderr) = common::run_graft(&[
        "mirror",
        "scenes/sword.ron",
        "--node",
        "2",
        "--axis",
        "x",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let scene = graft::model::file::load(&out).unwrap();
    assert!(scene.node(ARM).unwrap().local.scale.x < 0.0);
    assert!(
        stdout.contains("node 2: scale (1, 1) → (-1, 1)"),
        "{stdout}"
    );
    // An unknown node is refused and the file untouched.
    let (code, _, stderr) =
        common::run_graft(&["reset-local", out.to_str().unwrap(), "--node", "99"]);
    assert_eq!(code, 1, "{stderr}");
    let again = graft::model::file::load(&out).unwrap();
    assert!(again.node(ARM).unwrap().local.scale.x < 0.0, "untouched");
    let (code, _, stderr) =
        common::run_graft(&["reset-local", out.to_str().unwrap(), "--node", "2,3"]);
    assert_eq!(code, 0, "{stderr}");
    let scene = graft::model::file::load(&out).unwrap();
    assert_eq!(scene.node(HAND).unwrap().local, Trs::IDENTITY);
}

#[test]
fn an_unnamed_node_is_named_by_the_one_label_in_undo_steps() {
    let mut editor = sword_editor();
    editor
        .apply(Command::Panel(PanelCommand::Rename {
            node: HAND,
            name: String::new(),
        }))
        .unwrap();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![HAND])))
        .unwrap();
    editor
        .apply(Command::Edit(EditCommand::Mirror(MirrorAxis::Vertical)))
        .unwrap();
    assert_eq!(
        editor.doc().history().undo_label(),
        Some("Mirror vertically unnamed node 3")
    );
}
