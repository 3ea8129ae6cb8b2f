//! Hierarchy drag and drop with real pointer events (press, move over several frames, release).

use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use glam::Vec2;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::command::SelectionCommand;
use graft::model::scene::NodeId;

const BODY: NodeId = NodeId(1);
const ARM: NodeId = NodeId(2);
const SWORD: NodeId = NodeId(4);
const SCABBARD: NodeId = NodeId(5);

fn app() -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

fn row(h: &Harness<GraftApp>, name: &str) -> egui::Rect {
    h.get_by_label(name).rect()
}

/// Press on `from`, move to `to` in a few frames, release there.
fn drag(h: &mut Harness<GraftApp>, from: Pos2, to: Pos2, shift: bool) {
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(2);
    for k in 1..=5 {
        h.hover_at(from + (to - from) * (k as f32 / 5.0));
        h.run_steps(1);
    }
    if shift {
        h.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(3);
    if shift {
        h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
        h.run_steps(1);
    }
}

fn world_pos(h: &Harness<GraftApp>, id: NodeId) -> Vec2 {
    h.state().scene().world(id).unwrap().translation
}

fn local_pos(h: &Harness<GraftApp>, id: NodeId) -> Vec2 {
    h.state().scene().node(id).unwrap().local.position
}

fn near(a: Vec2, b: Vec2) -> bool {
    (a - b).abs().max_element() < 1e-4
}

#[test]
fn dropping_on_a_row_reparents_keeping_the_world_transform() {
    let mut h = app();
    let (from, to) = (row(&h, "sword").center(), row(&h, "body").center());
    drag(&mut h, from, to, false);
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(BODY));
    assert!(
        near(world_pos(&h, SWORD), Vec2::new(2.0, 3.0)),
        "nothing moves on screen"
    );
    assert!(near(local_pos(&h, SWORD), Vec2::new(-3.0, 3.0)));
    assert_eq!(
        h.state().doc().history().undo_label(),
        Some("Reparent sword")
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(NodeId(3)));
    assert_eq!(local_pos(&h, SWORD), Vec2::new(1.0, 0.0));
}

#[test]
fn with_the_toggle_off_the_local_numbers_stay_and_shift_inverts() {
    let mut h = app();
    h.get_by_label("Keep world transform").click();
    h.run_steps(2);
    let (from, to) = (row(&h, "sword").center(), row(&h, "body").center());
    drag(&mut h, from, to, false);
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(BODY));
    assert_eq!(local_pos(&h, SWORD), Vec2::new(1.0, 0.0));
    assert!(
        near(world_pos(&h, SWORD), Vec2::new(6.0, 0.0)),
        "the sword jumps"
    );

    // Shift while dropping does the opposite of the toggle (keep world) for that one drop.
    let (from, to) = (row(&h, "sword").center(), row(&h, "scabbard").center());
    let before = world_pos(&h, SWORD);
    drag(&mut h, from, to, true);
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), Some(SCABBARD));
    assert!(near(world_pos(&h, SWORD), before));
}

#[test]
fn dropping_onto_a_descendant_changes_nothing() {
    let mut h = app();
    let before = h.state().scene().clone();
    let (from, to) = (row(&h, "arm").center(), row(&h, "sword").center());
    drag(&mut h, from, to, false);
    assert!(*h.state().scene() == before);
    assert!(!h.state().doc().is_modified());
    assert!(
        h.state()
            .editor()
            .last_message()
            .is_some_and(|m| m.is_error && m.text.contains("descendant"))
    );
}

#[test]
fn upper_and_lower_edges_reorder() {
    let mut h = app();
    assert_eq!(
        h.state().scene().children(Some(BODY)).unwrap(),
        vec![ARM, SCABBARD]
    );
    let arm = row(&h, "arm");
    let from = row(&h, "scabbard").center();
    drag(
        &mut h,
        from,
        Pos2::new(arm.center().x, arm.top() + 2.0),
        false,
    );
    assert_eq!(
        h.state().scene().children(Some(BODY)).unwrap(),
        vec![SCABBARD, ARM]
    );
    // The lower edge of the body row puts the arm after the body, as a root.
    let body = row(&h, "body");
    let from = row(&h, "arm").center();
    drag(
        &mut h,
        from,
        Pos2::new(body.center().x, body.bottom() - 2.0),
        false,
    );
    assert_eq!(h.state().scene().children(None).unwrap(), vec![BODY, ARM]);
    assert!(
        near(world_pos(&h, NodeId(3)), Vec2::new(2.0, 2.0)),
        "keep-world: the hand stays put"
    );
}

#[test]
fn a_multi_selection_moves_together_in_order_as_one_undo_step() {
    let mut h = app();
    let start = h.state().scene().clone();
    h.get_by_label("sword").click();
    h.run_steps(1);
    h.get_by_label("scabbard")
        .click_modifiers(Modifiers::COMMAND);
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![SWORD, SCABBARD]);
    // Drop both on the empty space below the rows: they become roots, in tree order.
    let from = row(&h, "sword").center();
    let empty = Pos2::new(from.x, row(&h, "scabbard").bottom() + 200.0);
    drag(&mut h, from, empty, false);
    assert_eq!(
        h.state().scene().children(None).unwrap(),
        vec![BODY, SWORD, SCABBARD]
    );
    assert!(near(world_pos(&h, SWORD), Vec2::new(2.0, 3.0)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(*h.state().scene() == start, "one undo step takes back both");
}

#[test]
fn context_menu_add_child_is_undoable() {
    let mut h = app();
    let n = h.state().scene().len();
    h.get_by_label("hand").click_secondary();
    h.run_steps(2);
    h.get_by_label_contains("Add child").click();
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), n + 1);
    let added = *h.state().selection().last().unwrap();
    assert_eq!(h.state().scene().parent(added).unwrap(), Some(NodeId(3)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), n);
}

#[test]
fn ghosts_show_both_outcomes_and_badges_warn_about_skew_and_mirrors() {
    use graft::editor::session::drop_rules::keep_world_warning;
    use graft::editor::view::overlay::ghost_worlds;
    use graft::model::scene::Keep;
    let sword = graft::model::file::load(std::path::Path::new("scenes/sword.ron")).unwrap();
    let keep = ghost_worlds(&sword, &[SWORD], Some(BODY), Keep::World);
    assert_eq!(keep.len(), 1);
    assert!(
        near(keep[0].1.translation, Vec2::new(2.0, 3.0)),
        "keep world: the ghost stays"
    );
    let jump = ghost_worlds(&sword, &[ARM], Some(SCABBARD), Keep::Local);
    assert_eq!(jump.len(), 3, "the arm's subtree comes along");
    let scabbard = sword.world(SCABBARD).unwrap();
    let expected = scabbard * sword.node(ARM).unwrap().local.to_affine();
    assert!(
        near(jump[0].1.translation, expected.translation),
        "keep local: parentWorld · local"
    );
    assert_eq!(keep_world_warning(&sword, &[SWORD], Some(BODY)), None);

    let shear = graft::model::file::load(std::path::Path::new("scenes/shear.ron")).unwrap();
    // "fixed" is rotated 45°: under the (2, 1)-scaled parent its local needs skew.
    assert_eq!(
        keep_world_warning(&shear, &[NodeId(3)], Some(NodeId(1))),
        Some("needs skew")
    );
    let flip = graft::model::file::load(std::path::Path::new("scenes/flip.ron")).unwrap();
    // The unmirrored fish under the mirrored one must become mirrored itself.
    assert_eq!(
        keep_world_warning(&flip, &[NodeId(4)], Some(NodeId(2))),
        Some("flips mirror")
    );
    assert_eq!(
        keep_world_warning(&flip, &[NodeId(2)], None),
        None,
        "a flipped sprite stays flipped at the root"
    );
}

/// Right-click a row and pick a context-menu entry.
fn context(h: &mut Harness<GraftApp>, row_name: &str, entry: &str) {
    h.get_by_label(row_name).click_secondary();
    h.run_steps(2);
    // A menu button's label is its text followed by its shortcut ("Copy Ctrl+C"; not the
    // inspector's "Copy local").
    let wanted = entry.to_string();
    let is_entry = move |label: &str| {
        label.strip_prefix(wanted.as_str()).is_some_and(|rest| {
            let rest = rest.trim();
            rest.is_empty() || rest.starts_with(|c: char| c.is_uppercase())
        })
    };
    h.get(
        egui_kittest::kittest::By::new()
            .role(egui::accesskit::Role::Button)
            .predicate(move |n| n.label().is_some_and(|l| is_entry(&l))),
    )
    .click();
    h.run_steps(3);
}

fn undo(h: &mut Harness<GraftApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
}

#[test]
fn every_context_menu_action_works_and_undoes() {
    let mut h = app();
    let start = h.state().scene().clone();
    let n = start.len();

    context(&mut h, "arm", "Add sibling");
    let added = *h.state().selection().last().unwrap();
    assert_eq!(h.state().scene().parent(added).unwrap(), Some(BODY));
    assert_eq!(
        h.state().scene().sibling_index(added).unwrap(),
        1,
        "right after the arm"
    );
    undo(&mut h);
    assert!(*h.state().scene() == start);

    context(&mut h, "hand", "Duplicate");
    assert_eq!(h.state().scene().len(), n + 2, "hand and sword copied");
    undo(&mut h);
    assert!(*h.state().scene() == start);

    context(&mut h, "hand", "Delete");
    assert_eq!(h.state().scene().len(), n - 2);
    undo(&mut h);
    assert!(*h.state().scene() == start);

    context(&mut h, "sword", "Unparent (to root)");
    assert_eq!(h.state().scene().parent(SWORD).unwrap(), None);
    assert!(
        near(world_pos(&h, SWORD), Vec2::new(2.0, 3.0)),
        "keep world by default"
    );
    undo(&mut h);
    assert!(*h.state().scene() == start);

    context(&mut h, "scabbard", "Create parent for selection");
    let group = h.state().scene().parent(SCABBARD).unwrap().unwrap();
    assert_eq!(h.state().scene().node(group).unwrap().name, "group");
    assert_eq!(h.state().scene().parent(group).unwrap(), Some(BODY));
    assert!(near(
        world_pos(&h, SCABBARD),
        start.world(SCABBARD).unwrap().translation
    ));
    undo(&mut h);
    assert!(
        *h.state().scene() == start,
        "one step for the new parent and the move"
    );

    context(&mut h, "sword", "Copy");
    context(&mut h, "scabbard", "Paste as child");
    let pasted = *h.state().selection().last().unwrap();
    assert_eq!(h.state().scene().parent(pasted).unwrap(), Some(SCABBARD));
    assert_eq!(h.state().scene().node(pasted).unwrap().name, "sword");
    undo(&mut h);
    assert!(*h.state().scene() == start);

    context(&mut h, "body", "Rename");
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("torso".into()));
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert_eq!(
        h.state().scene().node(BODY).unwrap().name,
        "body",
        "Esc cancels the rename"
    );
}

#[test]
fn arrow_keys_navigate_collapse_and_filter_keeps_ancestors() {
    let mut h = app();
    h.get_by_label("arm").click();
    h.run_steps(2);
    h.key_press(Key::ArrowDown);
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![NodeId(3)]);
    h.key_press(Key::ArrowLeft); // hand has children: collapse
    h.run_steps(2);
    assert!(h.query_by_label("sword").is_none(), "collapsed");
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert!(h.query_by_label("sword").is_some(), "expanded");
    h.key_press(Key::ArrowUp);
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![ARM]);

    let rows = |filter: &str| {
        let scene = graft::model::file::load(std::path::Path::new("scenes/sword.ron")).unwrap();
        graft::app::hierarchy::visible_rows(&scene, &Default::default(), filter)
            .iter()
            .map(|r| scene.data_at(r.index).name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rows("SWO"),
        vec!["body", "arm", "hand", "sword"],
        "matches and their ancestors"
    );
    assert_eq!(rows("scab"), vec!["body", "scabbard"]);
    assert_eq!(rows(""), vec!["body", "arm", "hand", "sword", "scabbard"]);
}

// Deep trees: rows at any depth keep their names inside the panel.

/// The app on a generated chain of `n` nodes (node1 → node2 → … → node`n`).
fn chain_app(n: usize, height: f32) -> Harness<'static, GraftApp> {
    use graft::model::document::Document;
    use graft::tools::generate::{GenShape, generate};
    let scene = generate(GenShape::Chain, n, 1);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, height))
        .build_eframe(move |_| {
            GraftApp::with_document(Document::untitled(scene), Box::new(FakeDialogs::default()))
        });
    h.run_steps(3);
    h
}

/// The hierarchy panel's right edge and bottom: its resize handle (the leftmost upright
/// splitter) and the timeline's (the only lying one) above which it ends.
fn hierarchy_panel(h: &Harness<GraftApp>) -> (f32, f32) {
    let splitters: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::Splitter)
        .map(|n| n.rect())
        .collect();
    let right = splitters
        .iter()
        .filter(|r| r.height() > r.width())
        .map(|r| r.center().x)
        .min_by(f32::total_cmp)
        .expect("the hierarchy's resize handle");
    let bottom = splitters
        .iter()
        .filter(|r| r.width() > r.height())
        .map(|r| r.center().y)
        .min_by(f32::total_cmp)
        .expect("the timeline's resize handle");
    (right, bottom)
}

/// The row's name (its accessibility bounds are where the name is painted) lies in the panel.
fn assert_inside_panel(h: &Harness<GraftApp>, name: &str) -> egui::Rect {
    let (right, bottom) = hierarchy_panel(h);
    let r = row(h, name);
    assert!(
        r.left() >= 0.0 && r.right() <= right && r.top() >= 0.0 && r.bottom() <= bottom,
        "{name} at {r:?}, the panel ends at x {right}, y {bottom}"
    );
    assert!(r.width() > 30.0, "{name} keeps room for its name: {r:?}");
    r
}

fn select(h: &mut Harness<GraftApp>, id: u32) {
    h.state_mut()
        .run(graft::editor::Command::Selection(SelectionCommand::Select(
            vec![NodeId(id)],
        )));
    h.run_steps(4);
}

#[test]
fn the_deepest_row_of_a_200_deep_chain_is_in_the_panel_and_clicks_select_it() {
    let mut h = chain_app(200, 900.0);
    // Selected elsewhere (the viewport, a command): the list scrolls to it.
    select(&mut h, 200);
    let deepest = assert_inside_panel(&h, "node200");
    let above = assert_inside_panel(&h, "node199");
    assert!(above.top() < deepest.top());
    assert!(
        deepest.left() >= above.left(),
        "deeper is never left of shallower"
    );

    h.get_by_label("node199").click();
    h.run_steps(2);

    assert_eq!(h.state().selection(), vec![NodeId(199)]);
    h.get_by_label("node200").click();
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![NodeId(200)]);

    // The breadcrumb: the root, "…" for the nearest left-out ancestor, the nearest ancestors.
    for ancestor in ["node1", "node199"] {
        let crumb = h.get_by_label(&format!("Ancestor {ancestor}")).rect();
        assert!(
            crumb.right() <= hierarchy_panel(&h).0,
            "{ancestor} crumb at {crumb:?}"
        );
    }
    assert!(h.query_by_label("Ancestor node100").is_none(), "left out");
    h.get_by_label("Ancestor node1").click();
    h.run_steps(4);
    assert_eq!(h.state().selection(), vec![NodeId(1)]);
    assert_inside_panel(&h, "node1");
    assert!(
        h.query_by_label("node200").is_none(),
        "scrolled back to the top"
    );

    // Arrow keys walk down; the list keeps following.
    select(&mut h, 150);
    assert_inside_panel(&h, "node150");
    h.key_press(Key::ArrowDown);
    h.run_steps(3);
    assert_eq!(h.state().selection(), vec![NodeId(151)]);
    assert_inside_panel(&h, "node151");

    // A name longer than the panel is elided at its right edge, never drawn past it.
    let long = "upper_arm_twist_correction_helper_bone.L.001_with_a_long_suffix";
    h.state_mut().run(graft::editor::Command::Panel(
        graft::editor::session::command::PanelCommand::Rename {
            node: NodeId(151),
            name: long.into(),
        },
    ));
    h.run_steps(3);
    assert_inside_panel(&h, long);
}

#[test]
fn every_row_of_a_40_deep_rig_keeps_its_name_in_the_default_panel() {
    // Tall enough for all 40 rows: before, node17 and deeper were drawn past the right edge.
    let h = chain_app(40, 1400.0);
    let lefts: Vec<f32> = (1..=40)
        .map(|k| assert_inside_panel(&h, &format!("node{k}")).left())
        .collect();
    assert!(lefts.windows(2).all(|w| w[1] >= w[0]), "{lefts:?}");
    assert_eq!(lefts[1] - lefts[0], 14.0, "shallow levels indent as before");
    assert!(lefts[39] > lefts[10], "deep levels still step right");
}

#[test]
fn typing_in_the_filter_shows_the_matches_and_their_ancestors() {
    let mut h = app();
    let field = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .map(|n| n.rect())
        .find(|r| r.left() < 300.0)
        .expect("the filter field");
    h.drag_at(field.center());
    h.drop_at(field.center());
    h.run_steps(2);
    h.event(egui::Event::Text("  SWO".into()));
    h.run_steps(3);
    for shown in ["body", "arm", "hand", "sword"] {
        assert!(h.query_by_label(shown).is_some(), "{shown}");
    }
    assert!(h.query_by_label("scabbard").is_none());
}

/// Each row as a screen reader gets it from AccessKit: (name, level, expanded, selected).
fn tree_items(h: &Harness<GraftApp>) -> Vec<(String, usize, Option<bool>, Option<bool>)> {
    h.get_all_by_role(egui::accesskit::Role::TreeItem)
        .map(|n| {
            let node = n.accesskit_node();
            let data = node.data();
            let name = node.label().unwrap_or_default();
            (
                name,
                data.level().unwrap_or(0),
                data.is_expanded(),
                data.is_selected(),
            )
        })
        .collect()
}

#[test]
fn rows_are_tree_items_with_level_expanded_and_selected() {
    let mut h = app();
    select(&mut h, 4);
    let row =
        |name: &str, level, expanded, selected| (name.to_string(), level, expanded, Some(selected));
    assert_eq!(
        tree_items(&h),
        [
            row("body", 1, Some(true), false),
            row("arm", 2, Some(true), false),
            row("hand", 3, Some(true), false),
            row("sword", 4, None, true),
            row("scabbard", 2, None, false),
        ]
    );
    h.get_by_role_and_label(egui::accesskit::Role::Tree, "Scene hierarchy");
    h.get_by_label("Collapse arm").click();
    h.run_steps(3);
    let names: Vec<_> = tree_items(&h)
        .into_iter()
        .map(|(n, _, e, _)| (n, e))
        .collect();
    assert_eq!(
        names[1],
        ("arm".to_string(), Some(false)),
        "arm is collapsed"
    );
    assert_eq!(names.len(), 3, "hand and sword are hidden: {names:?}");
    h.get_by_label("Expand arm");
}

/// Typing in the filter: the field says how many nodes match, for a screen reader ("ar":
/// the arm and the scabbard; the body is shown only as their parent).
#[test]
fn the_filter_says_how_many_nodes_match() {
    let mut h = app();
    let field = h.get_by_label("Filter rows by name");
    field.focus();
    field.type_text("ar");
    h.run_steps(3);
    let field = h.get_by_label("Filter rows by name");
    assert_eq!(
        field.accesskit_node().description().as_deref(),
        Some("2 of 5 nodes match")
    );
}
