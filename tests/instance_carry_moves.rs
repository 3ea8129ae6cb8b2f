//! A follow that carries added nodes the user moved (issue 48, `carry.rs`): a waiting node
//! moved under a source node, into an added node, out of its instance or into another; a
//! replayed follow over an added node moved since; and a property test moving added nodes
//! anywhere before random structural changes of two sources. Each compared with the general
//! path, undo and redo exact (helpers: `carry/mod.rs`).

mod carry;

use carry::*;
use graft::model::document::Document;
use graft::model::file;
use graft::model::instance::TableEdit;
use graft::model::scene::edit::{Change as Step, Edit, Op};
use graft::model::scene::{Keep, NodeId};

/// A pending added node (inside node 10, which the part lacks) that the user moved under the
/// source node 2 before its children: the save writes it inside [2] at index 0 (a source node
/// comes after it), so a load puts it there. The one pass must too, its table entry of
/// waiting for node 10 notwithstanding (that entry is stale once it moved).
#[test]
fn a_pending_node_moved_under_a_source_node_keeps_its_written_index() {
    let added = [
        "(id: 60, name: \"waiting\", parent: Some(2), inside: [10], position: (0.5, 0.5))".into(),
    ];
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    assert!(
        doc.scene()
            .instances()
            .unwrap()
            .pending(NodeId(60))
            .is_some()
    );
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    move_node(&mut doc, NodeId(60), Some(n2), Some(0));
    let text = file::to_ron_string(doc.scene());
    assert!(text.contains("inside: [2], index: 0"), "{text}");
    // The part gains a level above 5 only (node 10 still absent).
    let plus = part_a_plus().replace(&format!("        {},\n", node(10, Some(2), 3.0, 40.0)), "");
    std::fs::write(dir.path().join("part.ron"), plus).expect("part");
    follow_checked(&mut doc, &level, "pending moved");
    let s = doc.scene();
    assert_eq!(s.parent(NodeId(60)).unwrap(), Some(n2));
    assert_eq!(s.sibling_index(NodeId(60)).unwrap(), 0, "still before n3");
}

/// The follow's step replayed (as from a journal) on the scene before it where the user has
/// since moved an added node elsewhere in the instance (node 60 from node 2 to node 5): the
/// recorded placements no longer hold, so the replay is refused and nothing changes.
#[test]
fn a_replayed_follow_whose_added_node_moved_is_refused_with_nothing_changed() {
    let added: Vec<String> = [
        "(id: 60, name: \"cap\", parent: Some(2), inside: [2], index: 0)",
        "(id: 61, name: \"tag\", parent: Some(2), inside: [5])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    std::fs::write(dir.path().join("part.ron"), part_a_plus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "follow"), "the fast path");
    let changes = doc.history().as_changes();
    let step = changes
        .iter()
        .rev()
        .find(|c| matches!(c, Step::Step { .. }))
        .expect("the follow's step")
        .clone();
    doc.undo().expect("undo");
    let n5 = inner(doc.scene(), NodeId(2), &[5]);
    move_node(&mut doc, NodeId(60), Some(n5), Some(0));
    let before = doc.scene().clone();
    let table: Vec<TableEdit> = match &step {
        Step::Step { edits, .. } => (edits.iter())
            .filter_map(|e| match e {
                Edit::Instances(t) => Some((**t).clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    assert!(
        matches!(table.first(), Some(TableEdit::ReshapeCarrying(..))),
        "{table:?}"
    );
    let mut applied = doc.scene().clone();
    let result = table[0].apply(&mut applied);
    assert!(result.is_err(), "the reshape applied over the move");
    assert_same(&applied, &before, "the table edit refused");
    let replayed = doc.replay(&step);
    assert!(replayed.is_err(), "the step replayed over the move");
    assert_same(doc.scene(), &before, "the step refused");
}

/// A pending added node (60, waiting for node 10) the user moved under another added node
/// (61) before a follow: a load of the level, and the general path, have 60 as a plain child
/// of 61 (nothing waits); the one pass must not keep 60 waiting either, or moving it back
/// under the instance root writes `inside: [10]` again where a load's scene would not.
#[test]
fn a_pending_node_moved_into_an_added_node_stops_waiting_after_a_follow() {
    moved_pending_then_followed(NodeId(61), true);
}

/// As above, 60 moved out of the instance (under the level's root), p left without added
/// nodes: the follow drops its waiting entry too (a table edit that carries, not format 5's).
#[test]
fn a_pending_node_moved_out_of_its_instance_stops_waiting_after_a_follow() {
    moved_pending_then_followed(NodeId(1), false);
}

/// Node 60 (waiting in p for node 10) moved under `to` (`holder`: p has node 61 added), the
/// part changed without node 10, followed (equal to the general path, undo/redo exact), then
/// 60 moved back under p's root: the same scene and file as the general path's.
fn moved_pending_then_followed(to: NodeId, holder: bool) {
    let mut added = vec!["(id: 60, name: \"waiting\", parent: Some(2), inside: [10])".to_string()];
    if holder {
        added.push("(id: 61, name: \"holder\", parent: Some(2), inside: [2], index: 0)".into());
    }
    let (dir, level) = folder(&[("part.ron", part_a()), ("level.ron", level_with(&added))]);
    let mut doc = Document::open(&level).expect("open");
    move_node(&mut doc, NodeId(60), Some(to), None);
    let plus = part_a_plus().replace(&format!("        {},\n", node(10, Some(2), 3.0, 40.0)), "");
    std::fs::write(dir.path().join("part.ron"), plus).expect("part");
    let mut want = general(doc.scene(), &level);
    let before = doc.scene().clone();
    assert!(
        follow_checked(&mut doc, &level, "moved, followed"),
        "the fast path"
    );
    // The follow's step through the journal's bytes, replayed on the scene before it.
    let changes = doc.history().as_changes();
    let step = (changes.iter().rev())
        .find(|c| matches!(c, Step::Step { .. }))
        .expect("the follow's step");
    let bytes = postcard::to_stdvec(step).expect("encoded");
    let read: Step = postcard::from_bytes(&bytes).expect("decoded");
    let mut replayed = Document::recovered(before.clone(), Some(level.clone()));
    replayed.replay(&read).expect("replayed");
    assert_same(replayed.scene(), doc.scene(), "replayed from its bytes");
    replayed.undo().expect("undo the replayed follow");
    assert_same(replayed.scene(), &before, "the replayed follow undone");
    let back = Op::Reparent {
        node: NodeId(60),
        parent: Some(NodeId(2)),
        index: None,
        keep: Keep::Local,
    };
    back.clone().perform(&mut want).expect("moved back");
    doc.perform("move 60 back", vec![back]).expect("moved back");
    assert_same(doc.scene(), &want, "moved back after the follow");
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Added nodes (placed, indexed, waiting) moved anywhere by the user (within their
    /// instance, into another, into another added node, out to the level), then the part
    /// changed through random versions: every follow equals the general path, undo and redo
    /// exact, on two threads.
    #[test]
    fn moved_added_nodes_follow_as_the_general_path(
        moves in prop::collection::vec((prop::sample::select(vec![60u32, 61, 62, 63, 64, 65, 66, 67, 81]), 0..64usize, 0..8usize), 0..5),
        versions in prop::collection::vec((0..4usize, 0..2usize), 1..4),
        save_first in any::<bool>(),
    ) {
        graft::model::scene::set_parallel_threshold(0);
        graft::model::scene::set_propagation_threads(2);
        let (dir, level) = folder(&[
            ("part.ron", part_a()),
            ("bolt.ron", bolt()),
            ("level.ron", prop_level()),
        ]);
        let (part, bolt_file) = (dir.path().join("part.ron"), dir.path().join("bolt.ron"));
        let mut doc = Document::open(&level).expect("open");
        for &(node, to, at) in &moves {
            move_anywhere(&mut doc, node, to, at);
        }
        if save_first {
            doc.save_to(&level).expect("save");
        }
        let (all, bolts) = (part_versions(), [bolt(), bolt_deeper()]);
        let mut now = (0, 0);
        for v in versions {
            if v == now {
                continue;
            }
            std::fs::write(&part, &all[v.0]).expect("part");
            std::fs::write(&bolt_file, &bolts[v.1]).expect("bolt");
            follow_checked_with(&mut doc, &level, &format!("version {v:?}"), false);
            if save_first {
                doc.save_to(&level).expect("save");
            }
            now = v;
        }
    }
}

/// Node 63, waiting in p for node 10, moved by the user under q's node 2, which the part then
/// loses: the follow drops p's stale entry for 63 and q makes it wait for node 2; undo must
/// give back p's entry (the two rows name the same node: every row's entries are taken out
/// before any is put in, or q's row takes out what p's just put back).
#[test]
fn a_waiting_node_moved_into_another_instance_undoes_exactly() {
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", prop_level()),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let q2 = inner(doc.scene(), NodeId(3), &[2]);
    move_node(&mut doc, NodeId(63), Some(q2), Some(0));
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    assert!(follow_checked(&mut doc, &level, "minus"), "the fast path");
    let table = doc.scene().instances().expect("table");
    assert_eq!(table.pending(NodeId(63)), Some((NodeId(3), &[2][..])));
}

/// Node 81, waiting in a bolt instance for the bolt's node 9, moved by the user under p's
/// node 2; then both files change in one follow (the part loses node 2, so 81 waits in p;
/// the bolt gains a level): the part's reshape makes 81 wait in p, and the bolt's, after it,
/// must neither refuse (its stale entry for 81 is gone) nor take p's entry out; undo gives
/// back the bolt's entry.
#[test]
fn a_waiting_node_moved_across_two_changing_sources_follows_and_undoes() {
    let lines: Vec<String> = [
        "(id: 1, name: \"level\")",
        "(id: 2, name: \"p\", parent: Some(1), instance: \"part.ron\", rotation: 12.0)",
        "(id: 80, name: \"bolt\", parent: Some(1), instance: \"bolt.ron\")",
        "(id: 81, name: \"w\", parent: Some(80), inside: [9], index: 1)",
        "(id: 82, name: \"on bolt 2\", parent: Some(80), inside: [2])",
    ]
    .map(String::from)
    .to_vec();
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", scene_text(5, &lines)),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    move_node(&mut doc, NodeId(81), Some(n2), Some(0));
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    std::fs::write(dir.path().join("bolt.ron"), bolt_deeper()).expect("bolt");
    assert!(follow_checked(&mut doc, &level, "both"), "the fast path");
    let table = doc.scene().instances().expect("table");
    assert_eq!(table.pending(NodeId(81)), Some((NodeId(2), &[2][..])));
}

/// Node 81, waiting in the level's bolt instance for the bolt's node 9, moved under p's node
/// 2, which the part then loses: the follow makes 81 wait in p (the table holds one entry per
/// node, so the bolt's is replaced); undo must give the bolt's entry back (moved back under
/// the bolt, 81 is written `inside: [9]` again). Fails on main at "minus: undone: pending
/// 81" (left None), on either path: neither the general path's rows of p nor the reshape's
/// carry record an entry naming another instance.
#[test]
#[ignore = "open: a waiting entry naming another instance is lost by the follow's undo (both paths)"]
fn a_waiting_entry_taken_over_by_another_instance_comes_back_on_undo() {
    let (dir, level) = folder(&[
        ("part.ron", part_a()),
        ("bolt.ron", bolt()),
        ("level.ron", prop_level()),
    ]);
    let mut doc = Document::open(&level).expect("open");
    let n2 = inner(doc.scene(), NodeId(2), &[2]);
    move_node(&mut doc, NodeId(81), Some(n2), Some(0));
    std::fs::write(dir.path().join("part.ron"), part_a_minus()).expect("part");
    follow_checked(&mut doc, &level, "minus");
}
