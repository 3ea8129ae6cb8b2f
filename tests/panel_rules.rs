//! The rules the panels used to hold, without egui: drop zones and drop verdicts (planned once,
//! drawn, and carried to the drop, where the applier builds the ops), Shift inverting "Keep world transform", Ctrl / Shift clicks and the
//! arrow keys in the hierarchy, what a row drag carries, clicks and drag starts in the viewport,
//! the camera following the space it looks from and framing; and the intents panels send
//! instead of edits, whose edits and undo labels the session chooses.

mod common;

use common::spec;
use glam::{DAffine2, DVec2, Vec2};
use graft::editor::session::command::{
    EditCommand, FileCommand, HistoryCommand, JournalCommand, PanelCommand, SelectionCommand,
    SettingCommand, TransformSpace, ViewCommand, WindowCommand,
};
use graft::editor::session::drop_rules::{
    DropBadge, DropPreview, DropVerdict, DropZone, drop_keep, drop_verdict, zone_for,
};
use graft::editor::session::picking::{
    Arrow, Mods, RowKey, row_click, row_drag, row_key, viewport_click, viewport_drag,
};
use graft::editor::view::camera::{Camera, ScreenRect};
use graft::editor::view::framing::Framing;
use graft::editor::view::pointer::MoveDrag;
use graft::editor::view::rows::{Row, visible_rows};
use graft::editor::{Command, Editor};
use graft::model::document::Document;
use graft::model::math::Trs;
use graft::model::scene::Keep;
use graft::model::scene::{NodeId, Scene};

/// body(1) -> arm(2) -> hand(3), body -> leg(4), and a second root prop(5).
fn rig() -> Scene {
    let at = |x: f32| Trs::new(Vec2::new(x, 0.0), 0.0, Vec2::ONE, 0.0);
    let mut scene = Scene::from_specs(vec![
        spec(1, None, "body", at(0.0)),
        spec(2, Some(1), "arm", at(1.0)),
        spec(3, Some(2), "hand", at(1.0)),
        spec(4, Some(1), "leg", at(-1.0)),
        spec(5, None, "prop", at(5.0)),
    ])
    .expect("a valid rig");
    scene.update_world();
    scene
}

fn all_rows(scene: &Scene) -> Vec<Row> {
    visible_rows(scene, &Default::default(), "")
}

fn row_of(scene: &Scene, rows: &[Row], id: u32) -> Row {
    let index = scene.index(NodeId(id)).expect("in the scene");
    *rows.iter().find(|r| r.index == index).expect("shown")
}

fn editor() -> Editor {
    let mut editor = Editor::new(Document::untitled(rig()));
    editor.update_world();
    editor
}

fn undo_label(editor: &Editor) -> Option<String> {
    editor.doc().history().undo_label().map(str::to_string)
}

const PLAIN: Mods = Mods {
    ctrl: false,
    shift: false,
};
const SHIFT: Mods = Mods {
    ctrl: false,
    shift: true,
};
const CTRL: Mods = Mods {
    ctrl: true,
    shift: false,
};

#[test]
fn a_rows_quarters_are_before_and_after_and_its_middle_is_into() {
    let id = NodeId(7);
    // A row 20 high at y = 100.
    assert_eq!(zone_for(100.0, 20.0, 100.0, id), DropZone::Before(id));
    assert_eq!(zone_for(100.0, 20.0, 104.9, id), DropZone::Before(id));
    assert_eq!(zone_for(100.0, 20.0, 105.0, id), DropZone::Into(id));
    assert_eq!(zone_for(100.0, 20.0, 115.0, id), DropZone::Into(id));
    assert_eq!(zone_for(100.0, 20.0, 115.1, id), DropZone::After(id));
    assert_eq!(zone_for(100.0, 20.0, 120.0, id), DropZone::After(id));
    // A row of no height does not divide by zero: above is before, below is after.
    assert_eq!(zone_for(100.0, 0.0, 99.0, id), DropZone::Before(id));
    assert_eq!(zone_for(100.0, 0.0, 101.0, id), DropZone::After(id));
}

#[test]
fn drop_verdicts_refuse_a_node_onto_itself_or_below_itself() {
    let scene = rig();
    let (body, hand) = (NodeId(1), NodeId(3));
    assert_eq!(
        drop_verdict(&scene, &[body], DropZone::Into(body)),
        DropVerdict::RefusedQuietly,
        "onto itself: refused quietly"
    );
    assert_eq!(
        drop_verdict(&scene, &[body], DropZone::Before(hand)),
        DropVerdict::Refused("Cannot drop body onto itself or its own descendant".to_string())
    );
}

#[test]
fn drop_verdicts_place_dragged_nodes_in_order_among_the_siblings_left() {
    let scene = rig();
    let (body, arm, leg, prop) = (NodeId(1), NodeId(2), NodeId(4), NodeId(5));
    let allowed = |parent, index| DropVerdict::Allowed { parent, index };
    // After leg under body: arm and leg are the siblings; arm is dragged, so leg is first.
    let after_leg = drop_verdict(&scene, &[arm, prop], DropZone::After(leg));
    assert_eq!(after_leg, allowed(Some(body), Some(1)));
    assert_eq!(
        drop_verdict(&scene, &[prop], DropZone::Before(arm)),
        allowed(Some(body), Some(0))
    );
    assert_eq!(
        drop_verdict(&scene, &[arm], DropZone::Root),
        allowed(None, None)
    );
    assert_eq!(
        drop_verdict(&scene, &[prop], DropZone::Into(arm)),
        allowed(Some(arm), None)
    );
    // The applier builds the ops from the verdict: arm then prop, after leg, in order.
    let mut editor = editor();
    editor
        .apply(drop_rows(
            &editor,
            &[arm, prop],
            DropZone::After(leg),
            Keep::World,
        ))
        .expect("the drop applies");
    let children = editor.doc().scene().children(Some(body)).expect("body");
    assert_eq!(children, vec![leg, arm, prop]);
}

#[test]
fn shift_inverts_keep_world_either_way() {
    assert_eq!(drop_keep(true, false), Keep::World);
    assert_eq!(drop_keep(true, true), Keep::Local);
    assert_eq!(drop_keep(false, false), Keep::Local);
    assert_eq!(drop_keep(false, true), Keep::World);
}

/// The hierarchy's drop of `dragged` in `zone`, planned as the row plans it.
fn drop_rows(editor: &Editor, dragged: &[NodeId], zone: DropZone, keep: Keep) -> Command {
    let preview = DropPreview::plan(editor.doc().scene(), dragged, zone, keep);
    Command::Panel(PanelCommand::DropRows(Box::new(preview)))
}

#[test]
fn a_drop_goes_where_the_verdict_planned_while_hovering_said_without_planning_again() {
    let mut editor = editor();
    let scene = editor.doc().scene();
    let (arm, leg, prop) = (NodeId(2), NodeId(4), NodeId(5));
    let mut preview = DropPreview::plan(scene, &[prop], DropZone::Into(arm), Keep::World);
    assert!(preview.allowed());
    // Swap the planned verdict for another: if the drop planned again it would put prop under arm.
    preview.verdict = DropVerdict::Allowed {
        parent: Some(leg),
        index: None,
    };
    editor
        .apply(Command::Panel(PanelCommand::DropRows(Box::new(preview))))
        .expect("the drop applies");
    editor.update_world();
    let parent = editor.doc().scene().parent(prop).expect("prop exists");
    assert_eq!(parent, Some(leg), "the carried verdict was followed");
    assert_eq!(undo_label(&editor).as_deref(), Some("Reparent prop"));
}

#[test]
fn a_drop_planned_before_the_tree_changed_is_planned_again() {
    let mut editor = editor();
    let (arm, prop) = (NodeId(2), NodeId(5));
    let scene = editor.doc().scene();
    let mut preview = DropPreview::plan(scene, &[prop], DropZone::Into(arm), Keep::Local);
    preview.verdict = DropVerdict::RefusedQuietly; // stale: would do nothing
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
            4,
        )])))
        .expect("select");
    editor
        .apply(Command::Edit(EditCommand::Delete))
        .expect("delete leg"); // the tree changes
    editor
        .apply(Command::Panel(PanelCommand::DropRows(Box::new(preview))))
        .expect("the drop applies");
    assert_eq!(editor.doc().scene().parent(prop).expect("prop"), Some(arm));
    assert_eq!(
        undo_label(&editor).as_deref(),
        Some("Reparent prop (keep local)")
    );
    // A refused plan is refused when dropped, and changes nothing.
    let refused = drop_rows(&editor, &[NodeId(1)], DropZone::Into(arm), Keep::World);
    let steps = editor.doc().history().labels().0.len();
    assert!(editor.apply(refused).is_err());
    assert_eq!(editor.doc().history().labels().0.len(), steps);
}

#[test]
fn an_allowed_drop_that_the_tree_made_a_cycle_since_is_refused_with_why() {
    let mut editor = editor();
    let (arm, hand, prop) = (NodeId(2), NodeId(3), NodeId(5));
    // Planned while hovering: prop into hand is allowed.
    let stale = drop_rows(&editor, &[prop], DropZone::Into(hand), Keep::World);
    // Before the release the tree changes: arm (and hand with it) goes under prop.
    let select = SelectionCommand::Select(vec![arm]);
    editor.apply(Command::Selection(select)).expect("select");
    let move_to = EditCommand::MoveTo {
        parent: Some(prop),
        keep: Keep::World,
    };
    editor
        .apply(Command::Edit(move_to))
        .expect("arm under prop");
    let steps = editor.doc().history().labels().0.len();
    let error = editor.apply(stale).expect_err("planned again: a cycle");
    assert_eq!(
        error.to_string(),
        "Cannot drop prop onto itself or its own descendant"
    );
    assert_eq!(editor.doc().history().labels().0.len(), steps);
    assert_eq!(editor.doc().scene().parent(prop).expect("prop"), None);
}

#[test]
fn a_refused_drop_draws_its_reason_and_an_allowed_one_its_keep_world_warning() {
    let scene = rig();
    let (body, arm, hand, prop) = (NodeId(1), NodeId(2), NodeId(3), NodeId(5));
    let badge = |dragged: NodeId, zone, keep| {
        DropPreview::plan(&scene, &[dragged], zone, keep)
            .badge(&scene)
            .map(|b| b.text())
    };
    assert_eq!(
        badge(body, DropZone::Into(hand), Keep::World).as_deref(),
        Some("⛔ Cannot drop body onto itself or its own descendant")
    );
    assert_eq!(
        badge(body, DropZone::Into(body), Keep::World).as_deref(),
        Some("⛔"),
        "refused quietly: the mark, no words"
    );
    assert_eq!(badge(prop, DropZone::Into(arm), Keep::World), None);
    let refused = DropPreview::plan(&scene, &[body], DropZone::Into(hand), Keep::Local);
    assert_eq!(
        refused.badge(&scene),
        Some(DropBadge::Refused(
            "Cannot drop body onto itself or its own descendant".to_string()
        ))
    );
}

#[test]
fn row_clicks_select_toggle_and_extend_from_the_anchor() {
    let scene = rig();
    let rows = all_rows(&scene);
    let (arm, leg) = (row_of(&scene, &rows, 2), row_of(&scene, &rows, 4));
    let (command, anchor) = row_click(&scene, &rows, None, arm, PLAIN);
    assert_eq!(
        command,
        Some(Command::Selection(SelectionCommand::Select(vec![NodeId(
            2
        )])))
    );
    assert_eq!(anchor, Some(NodeId(2)), "a plain click sets the anchor");
    // Shift: every shown row from the anchor, in row order, whichever way.
    let (command, kept) = row_click(&scene, &rows, anchor, leg, SHIFT);
    let range = vec![NodeId(2), NodeId(3), NodeId(4)];
    assert_eq!(
        command,
        Some(Command::Selection(SelectionCommand::Select(range.clone())))
    );
    assert_eq!(kept, anchor, "Shift keeps the anchor");
    let (back, _) = row_click(&scene, &rows, Some(NodeId(4)), arm, SHIFT);
    assert_eq!(
        back,
        Some(Command::Selection(SelectionCommand::Select(range)))
    );
    // Ctrl toggles and keeps the anchor.
    let (command, kept) = row_click(&scene, &rows, anchor, leg, CTRL);
    assert_eq!(
        command,
        Some(Command::Selection(SelectionCommand::ToggleSelect(NodeId(
            4
        ))))
    );
    assert_eq!(kept, anchor);
    // Shift without an anchor is a plain click.
    let (command, anchor) = row_click(&scene, &rows, None, leg, SHIFT);
    assert_eq!(
        command,
        Some(Command::Selection(SelectionCommand::Select(vec![NodeId(
            4
        )])))
    );
    assert_eq!(anchor, Some(NodeId(4)));
}

#[test]
fn a_shift_range_spans_only_the_rows_shown() {
    let scene = rig();
    let collapsed = [NodeId(2)].into_iter().collect(); // arm collapsed: hand hidden
    let rows = visible_rows(&scene, &collapsed, "");
    let (body, leg) = (row_of(&scene, &rows, 1), row_of(&scene, &rows, 4));
    let (command, _) = row_click(&scene, &rows, Some(NodeId(1)), leg, SHIFT);
    let shown = vec![NodeId(1), NodeId(2), NodeId(4)];
    assert_eq!(
        command,
        Some(Command::Selection(SelectionCommand::Select(shown)))
    );
    // An anchor no longer shown: nothing.
    let (command, _) = row_click(&scene, &rows, Some(NodeId(3)), body, SHIFT);
    assert_eq!(command, None);
}

#[test]
fn arrow_keys_walk_the_rows_and_open_and_close_them() {
    let scene = rig();
    let rows = all_rows(&scene);
    let open = |_: NodeId| false;
    let key = |selection: &[NodeId], arrow| row_key(&scene, &rows, selection, open, arrow);
    let select = |id| {
        Some(RowKey::Command(Command::Selection(
            SelectionCommand::Select(vec![NodeId(id)]),
        )))
    }; // pre-order
    assert_eq!(key(&[NodeId(2)], Arrow::Up), select(1));
    assert_eq!(key(&[NodeId(2)], Arrow::Down), select(3));
    assert_eq!(key(&[NodeId(1)], Arrow::Up), None, "the first row");
    assert_eq!(key(&[NodeId(5)], Arrow::Down), None, "the last row");
    assert_eq!(
        key(&[NodeId(2)], Arrow::Right),
        Some(RowKey::SetCollapsed(NodeId(2), false))
    );
    assert_eq!(key(&[NodeId(3)], Arrow::Right), None, "a leaf");
    assert_eq!(
        key(&[NodeId(2)], Arrow::Left),
        Some(RowKey::SetCollapsed(NodeId(2), true)),
        "an open row closes"
    );
    assert_eq!(
        key(&[NodeId(3)], Arrow::Left),
        select(2),
        "a leaf: its parent"
    );
    let closed = |id: NodeId| id == NodeId(2);
    let left = row_key(&scene, &rows, &[NodeId(2)], closed, Arrow::Left);
    assert_eq!(left, select(1), "a closed row: its parent");
    // Nothing selected: Down starts at the first row, Up at the last, Left does nothing.
    assert_eq!(key(&[], Arrow::Down), select(1), "nothing selected");
    assert_eq!(key(&[], Arrow::Up), select(5), "nothing selected");
    assert_eq!(key(&[], Arrow::Left), None, "nothing selected");
    // The primary is the last selected.
    assert_eq!(key(&[NodeId(5), NodeId(2)], Arrow::Up), select(1));
}

#[test]
fn a_row_drag_carries_the_topmost_selection_or_the_row_alone() {
    let scene = rig();
    let selection = [NodeId(3), NodeId(2), NodeId(5)];
    let (dragged, select) = row_drag(&scene, &selection, true, NodeId(3));
    assert_eq!(dragged, vec![NodeId(2), NodeId(5)], "hand follows arm");
    assert_eq!(select, None);
    let (dragged, select) = row_drag(&scene, &selection, false, NodeId(4));
    assert_eq!(dragged, vec![NodeId(4)]);
    assert_eq!(
        select,
        Some(Command::Selection(SelectionCommand::Select(vec![NodeId(
            4
        )])))
    );
}

#[test]
fn viewport_clicks_select_toggle_or_clear() {
    let id = NodeId(3);
    assert_eq!(
        viewport_click(Some(id), false),
        Some(Command::Selection(SelectionCommand::Select(vec![id])))
    );
    assert_eq!(
        viewport_click(Some(id), true),
        Some(Command::Selection(SelectionCommand::ToggleSelect(id)))
    );
    assert_eq!(
        viewport_click(None, false),
        Some(Command::Selection(SelectionCommand::Select(Vec::new())))
    );
    assert_eq!(viewport_click(None, true), None);
}

#[test]
fn a_viewport_drag_moves_the_selection_a_new_node_or_draws_a_band() {
    let scene = rig();
    let selection = [NodeId(3), NodeId(2)];
    let selected = |id| selection.contains(&id);
    let at = DVec2::new(0.5, 0.5);
    let start = viewport_drag(&scene, &selection, selected, Some(NodeId(3)), at);
    assert_eq!(start.select, None);
    assert!(!start.band);
    let drag = start.drag.expect("moves");
    assert_eq!(drag.start_pointer, at);
    assert_eq!(
        drag.starts,
        vec![(NodeId(2), Vec2::new(1.0, 0.0))],
        "topmost"
    );
    let start = viewport_drag(&scene, &selection, selected, Some(NodeId(5)), at);
    assert_eq!(
        start.select,
        Some(Command::Selection(SelectionCommand::Select(vec![NodeId(
            5
        )])))
    );
    let starts = start.drag.expect("moves").starts;
    assert_eq!(starts, vec![(NodeId(5), Vec2::new(5.0, 0.0))]);
    let start = viewport_drag(&scene, &selection, selected, None, at);
    assert!(start.band && start.drag.is_none() && start.select.is_none());
}

fn view_rect() -> ScreenRect {
    ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(400.0, 300.0))
}

#[test]
fn switching_the_space_keeps_the_anchor_where_it_was_on_screen() {
    let rect = view_rect();
    let mut camera = Camera::new(DVec2::new(1.0, 2.0), 40.0);
    let anchor = DVec2::new(2.0, 1.0);
    let before = camera.to_screen_f64(rect, anchor);
    let turned = DAffine2::from_angle_translation(0.7, DVec2::new(-3.0, 4.0));
    camera.look_from(turned, true, Some(anchor), rect);
    let after = camera.to_screen_f64(rect, anchor);
    assert!((after - before).length() < 1e-6, "{before} -> {after}");
    assert_eq!(camera.view, turned);
    // Without an anchor (or a NaN one) the world point at the centre stays at the centre.
    let centre = camera.world_center();
    camera.look_from(DAffine2::IDENTITY, true, Some(DVec2::NAN), rect);
    assert!((camera.world_center() - centre).length() < 1e-6);
}

#[test]
fn following_the_same_space_keeps_the_centre_in_that_space() {
    let rect = view_rect();
    let mut camera = Camera::new(DVec2::new(1.0, 2.0), 40.0);
    let view = DAffine2::from_translation(DVec2::new(5.0, 0.0));
    camera.look_from(view, false, Some(DVec2::new(100.0, 100.0)), rect);
    assert_eq!(
        camera.center,
        DVec2::new(1.0, 2.0),
        "the node's view follows it"
    );
    assert_eq!(camera.view, view);
}

#[test]
fn framing_fits_the_scene_first_then_refits_on_resize_until_moved() {
    let scene = rig();
    let mut framing = Framing::default();
    let mut camera = Camera::default();
    let rect = view_rect();
    assert!(framing.waiting());
    assert!(
        framing.fit(&mut camera, &scene, rect),
        "the first frame fits everything"
    );
    let (lo, hi) = (DVec2::new(0.0, 0.0), DVec2::new(5.0, 0.0));
    for p in [lo, hi] {
        assert!(
            rect.contains(camera.to_screen_f64(rect, p).as_vec2()),
            "{p}"
        );
    }
    assert!(
        !framing.fit(&mut camera, &scene, rect),
        "nothing more to fit"
    );
    let wider = ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(800.0, 300.0));
    assert!(
        framing.fit(&mut camera, &scene, wider),
        "a resize fits again"
    );
    framing.moved();
    let narrow = ScreenRect::from_min_size(Vec2::ZERO, Vec2::new(200.0, 300.0));
    assert!(
        !framing.fit(&mut camera, &scene, narrow),
        "moved by hand: left alone"
    );
    framing.frame(&[NodeId(5)]);
    assert!(framing.fit(&mut camera, &scene, narrow));
    assert!((camera.world_center() - DVec2::new(5.0, 0.0)).length() < 1e-9);
    framing.frame(&[NodeId(99)]);
    assert!(
        !framing.fit(&mut camera, &scene, narrow),
        "a gone node: no fit"
    );
}

#[test]
fn renames_are_labelled_by_the_session_and_a_same_name_is_no_step() {
    let mut editor = editor();
    let rename = |name: &str| {
        Command::Panel(PanelCommand::Rename {
            node: NodeId(2),
            name: name.to_string(),
        })
    };
    editor.apply(rename("arm")).expect("same name");
    assert_eq!(undo_label(&editor), None);
    editor.apply(rename("wing")).expect("renames");
    assert_eq!(undo_label(&editor).as_deref(), Some("Rename arm to wing"));
    assert!(
        editor
            .apply(Command::Panel(PanelCommand::Rename {
                node: NodeId(99),
                name: "x".into()
            }))
            .is_err()
    );
}

#[test]
fn a_pasted_transform_is_read_by_the_session_and_nonsense_is_refused() {
    let mut editor = editor();
    let paste = |text: &str, space| {
        Command::Panel(PanelCommand::PasteTransform {
            node: NodeId(3),
            text: text.to_string(),
            space,
        })
    };
    assert!(
        editor
            .apply(paste("not a transform", TransformSpace::Local))
            .is_err()
    );
    assert_eq!(undo_label(&editor), None, "refused: nothing done");
    let text = "position: (4.0, 0.0)";
    editor
        .apply(paste(text, TransformSpace::World))
        .expect("pastes");
    editor.update_world();
    assert_eq!(
        undo_label(&editor).as_deref(),
        Some("Paste transform onto hand")
    );
    let world = editor.doc().scene().world(NodeId(3)).expect("hand");
    assert!((world.translation - Vec2::new(4.0, 0.0)).length() < 1e-5);
}

#[test]
fn a_selection_drag_is_one_step_named_by_the_session() {
    let mut editor = editor();
    let drag = MoveDrag {
        start_pointer: DVec2::ZERO,
        starts: vec![(NodeId(5), Vec2::new(5.0, 0.0))],
    };
    let to = |x: f64| {
        Command::Panel(PanelCommand::MoveSelection {
            drag: std::sync::Arc::new(drag.clone()),
            pointer: DVec2::new(x, 0.0),
            snap: None,
        })
    };
    editor.apply(to(0.0)).expect("no motion");
    assert_eq!(undo_label(&editor), None, "no motion: no step");
    editor.apply(to(1.0)).expect("moves");
    editor.apply(to(2.5)).expect("moves");
    editor
        .apply(Command::History(HistoryCommand::EndGesture))
        .expect("ends");
    let (labels, _) = editor.doc().history().labels();
    assert_eq!(labels, vec!["Move prop"], "one step per drag");
    editor.update_world();
    let world = editor.doc().scene().world(NodeId(5)).expect("prop");
    assert_eq!(world.translation, Vec2::new(7.5, 0.0));
}

#[test]
fn an_inspector_edit_applies_to_the_selection_with_the_sessions_label_and_lock() {
    let mut editor = editor();
    editor
        .apply(Command::Selection(SelectionCommand::Select(vec![
            NodeId(4),
            NodeId(2),
        ])))
        .expect("select");
    let before = editor.doc().scene().node(NodeId(2)).expect("arm").local;
    let mut value = before;
    value.scale.x = 2.0;
    let edit = |lock_scale| {
        Command::Panel(PanelCommand::SetTransform {
            space: TransformSpace::Local,
            before,
            value,
            lock_scale,
        })
    };
    editor.apply(edit(true)).expect("edits");
    editor
        .apply(Command::History(HistoryCommand::EndGesture))
        .expect("ends");
    assert_eq!(undo_label(&editor).as_deref(), Some("Edit 2 nodes"));
    let scale = |id| {
        editor
            .doc()
            .scene()
            .node(NodeId(id))
            .expect("node")
            .local
            .scale
    };
    assert_eq!(scale(2), Vec2::new(2.0, 2.0), "locked: y follows x");
    assert_eq!(
        scale(4),
        Vec2::new(2.0, 2.0),
        "the other node gets both edited numbers"
    );
    editor
        .apply(Command::History(HistoryCommand::Undo))
        .expect("undo");
    editor.apply(edit(false)).expect("edits");
    let scale = |id| {
        editor
            .doc()
            .scene()
            .node(NodeId(id))
            .expect("node")
            .local
            .scale
    };
    assert_eq!(scale(2), Vec2::new(2.0, 1.0), "unlocked: as typed");
    assert_eq!(scale(4), Vec2::new(2.0, 1.0));
}

/// One command of every kind (add new kinds here: the test below runs each in its part).
fn one_of_each() -> Vec<Command> {
    use graft::editor::session::arrange::{Panel, Step};
    use graft::editor::session::command::{
        GuardAnswer, NewNodePlace, ProbeCommand, ViewOption, ViewSpace, Window,
    };
    use graft::editor::session::dialogs::DialogOutcome;
    use graft::editor::session::disk_watch::ConflictAnswer;
    use graft::editor::session::journal::RecoveryAnswer;
    use graft::editor::session::lesson::LessonCommand;
    use graft::editor::session::record::RecordCommand;
    use graft::editor::session::timeline::TimelineCommand;
    use graft::editor::view::handles::{Orientation, Tool};
    let (arm, prop) = (NodeId(2), NodeId(5));
    let drop = DropPreview::plan(&rig(), &[prop], DropZone::Into(arm), Keep::World);
    let none = Trs::IDENTITY;
    vec![
        Command::Selection(SelectionCommand::Select(vec![arm])),
        Command::Selection(SelectionCommand::ToggleSelect(prop)),
        Command::Selection(SelectionCommand::SelectAll),
        Command::Panel(PanelCommand::Rename {
            node: arm,
            name: "wing".into(),
        }),
        Command::Panel(PanelCommand::SetLook {
            node: arm,
            shape: graft::model::scene::Shape::None,
            color: [1, 2, 3, 4],
        }),
        Command::Panel(PanelCommand::PasteTransform {
            node: arm,
            text: "position: (1.0, 2.0)".into(),
            space: TransformSpace::Local,
        }),
        Command::Panel(PanelCommand::SetTransform {
            space: TransformSpace::World,
            before: none,
            value: none,
            lock_scale: false,
        }),
        Command::Panel(PanelCommand::MoveSelection {
            drag: std::sync::Arc::new(MoveDrag {
                start_pointer: DVec2::ZERO,
                starts: vec![(prop, Vec2::ZERO)],
            }),
            pointer: DVec2::ONE,
            snap: None,
        }),
        Command::Panel(PanelCommand::SetClip(Default::default())),
        Command::Panel(PanelCommand::DropRows(Box::new(drop))),
        Command::History(HistoryCommand::EndGesture),
        Command::History(HistoryCommand::Undo),
        Command::History(HistoryCommand::Redo),
        Command::History(HistoryCommand::JumpHistory(0)),
        Command::File(FileCommand::New),
        Command::File(FileCommand::Open),
        Command::File(FileCommand::OpenPath(
            "/nonexistent/graft-panel-rules.ron".into(),
        )),
        Command::File(FileCommand::Import),
        Command::File(FileCommand::ExportGodot),
        Command::File(FileCommand::ExportGodot3),
        Command::Setting(SettingCommand::SetGodotFlatten(true)),
        Command::Setting(SettingCommand::SetGodot3Export(true)),
        Command::Setting(SettingCommand::SetGodotPixelsPerUnit(2)),
        Command::File(FileCommand::ExportSvg),
        Command::File(FileCommand::ExportAnimation),
        Command::File(FileCommand::SaveFigure),
        Command::View(ViewCommand::SetFigure(Box::default())),
        Command::File(FileCommand::Save),
        Command::File(FileCommand::SaveAs),
        Command::File(FileCommand::ChooseImage(arm)),
        Command::File(FileCommand::Revert),
        Command::File(FileCommand::Quit),
        Command::File(FileCommand::CloseRequested),
        Command::File(FileCommand::AnswerGuard(GuardAnswer::Cancel)),
        Command::File(FileCommand::DialogClosed(DialogOutcome::Cancelled)),
        Command::Edit(EditCommand::Copy),
        Command::Edit(EditCommand::Paste),
        Command::Edit(EditCommand::Duplicate),
        Command::Edit(EditCommand::Delete),
        Command::Edit(EditCommand::AddNode(NewNodePlace::Root)),
        Command::Edit(EditCommand::Mirror(
            graft::model::math::MirrorAxis::Horizontal,
        )),
        Command::Edit(EditCommand::ResetLocal),
        Command::Edit(EditCommand::CreateParent),
        Command::Edit(EditCommand::Unparent),
        Command::View(ViewCommand::StartRename),
        Command::View(ViewCommand::FrameSelection),
        Command::View(ViewCommand::FrameAll),
        Command::Setting(SettingCommand::SetTool(Tool::Rotate)),
        Command::Setting(SettingCommand::ToggleOrientation),
        Command::Setting(SettingCommand::SetOrientation(Orientation::World)),
        Command::Setting(SettingCommand::ToggleKeepWorld),
        Command::Setting(SettingCommand::ToggleView(ViewOption::Axes)),
        Command::View(ViewCommand::SetViewSpace(ViewSpace::Selection)),
        Command::Window(WindowCommand::Show(Window::History)),
        Command::Window(WindowCommand::Close(Window::History)),
        Command::Window(WindowCommand::DismissError),
        Command::File(FileCommand::CancelJob),
        Command::Timeline(TimelineCommand::TogglePlay),
        Command::Probe(ProbeCommand::ToggleMode),
        Command::Journal(JournalCommand::ToggleJournal),
        Command::Journal(JournalCommand::RetryJournal),
        Command::Lifecycle(graft::editor::session::command::Lifecycle::BackgroundBytes(
            0,
        )),
        Command::File(FileCommand::AnswerConflict(ConflictAnswer::SaveAs)),
        Command::Journal(JournalCommand::AnswerRecovery(RecoveryAnswer::Discard)),
        Command::Lesson(LessonCommand::Close),
        Command::Record(RecordCommand::Cancel),
        Command::View(ViewCommand::FocusPanel(Step::Forward)),
        Command::View(ViewCommand::SetFocusedPanel(Panel::Viewport)),
        Command::Edit(EditCommand::Reorder(Step::Back)),
        Command::Edit(EditCommand::MoveTo {
            parent: None,
            keep: Keep::World,
        }),
        Command::Edit(EditCommand::Nudge {
            direction: (1, 0),
            big: false,
        }),
        Command::View(ViewCommand::StepUiScale(Step::Forward)),
        Command::View(ViewCommand::SetUiScale(1.25)),
        Command::View(ViewCommand::SetHighContrast(true)),
        Command::Instance(graft::editor::session::command::InstanceCommand::MakeLocal),
    ]
}

/// That every kind has a part is the compiler's to check (`Editor::dispatch` and each part
/// match exhaustively); here each kind runs once in a real session, refused or carried out,
/// without a panic.
#[test]
fn every_kind_of_command_runs_in_its_part() {
    for command in one_of_each() {
        let mut editor = editor();
        editor
            .apply(Command::Selection(SelectionCommand::Select(vec![NodeId(
                3,
            )])))
            .expect("select");
        let _refused_or_done = editor.apply(command);
    }
    // Refused is carried out as its reason.
    let refused = editor().apply(Command::Window(WindowCommand::Refused("because".into())));
    assert_eq!(
        refused.map_err(|e| e.to_string()),
        Err("because".to_string())
    );
}

#[test]
fn a_lessons_subject_is_framed_again_only_after_a_change_it_left_the_view_by() {
    let scene = rig();
    let rect = view_rect();
    let mut framing = Framing::default();
    let mut camera = Camera::new(DVec2::ZERO, 40.0);
    framing.fit(&mut camera, &scene, rect);
    let prop = || vec![NodeId(5)];
    // In view: nothing to fit.
    framing.keep_in_view((camera, rect), &scene, (1, None, false), prop);
    assert!(!framing.waiting());
    // Panned away by hand: the revision is the same, so it is left alone.
    camera.center = DVec2::new(500.0, 0.0);
    framing.keep_in_view((camera, rect), &scene, (1, None, false), prop);
    assert!(!framing.waiting());
    // The document changed, but the pointer is down (mid-drag): not yet.
    framing.keep_in_view((camera, rect), &scene, (2, None, true), prop);
    assert!(!framing.waiting());
    // Released: prop is out of view, so it is framed.
    framing.keep_in_view((camera, rect), &scene, (2, None, false), prop);
    assert!(framing.waiting());
    assert!(framing.fit(&mut camera, &scene, rect));
    // Panned away again, then the view looks from another node (the same revision): the
    // subject is checked again and framed.
    camera.center = DVec2::new(500.0, 0.0);
    framing.keep_in_view((camera, rect), &scene, (2, None, false), prop);
    assert!(!framing.waiting(), "the same revision and view: left alone");
    framing.keep_in_view((camera, rect), &scene, (2, Some(NodeId(1)), false), prop);
    assert!(
        framing.waiting(),
        "a new view space checks the subject again"
    );
    assert!(framing.fit(&mut camera, &scene, rect));
    assert!((camera.world_center() - DVec2::new(5.0, 0.0)).length() < 1e-9);
}

#[test]
fn switching_a_shapes_kind_keeps_its_size() {
    use graft::editor::session::look::{ShapeKind, switch_kind};
    use graft::model::scene::Shape;
    let rect = Shape::Rect {
        size: Vec2::new(4.0, 2.0),
    };
    assert_eq!(
        switch_kind(&rect, ShapeKind::Ellipse),
        Shape::Ellipse {
            size: Vec2::new(4.0, 2.0)
        }
    );
    let polygon = switch_kind(&rect, ShapeKind::Polygon);
    let Shape::Polygon { points } = &polygon else {
        panic!("a polygon: {polygon:?}");
    };
    let corners =
        [(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
    assert_eq!(points.as_slice(), corners.as_slice(), "the box's corners");
    // Back from the polygon: the size it spans.
    assert_eq!(switch_kind(&polygon, ShapeKind::Rect), rect);
    assert_eq!(
        switch_kind(&rect, ShapeKind::Rect),
        rect,
        "the same kind: as it is"
    );
    assert_eq!(
        switch_kind(&Shape::None, ShapeKind::Rect),
        Shape::Rect { size: Vec2::ONE },
        "nothing becomes a unit square"
    );
    assert_eq!(
        ShapeKind::of(&switch_kind(&rect, ShapeKind::Sprite)),
        ShapeKind::Sprite
    );
    let names: Vec<_> = ShapeKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["none", "rect", "ellipse", "sprite", "polygon"]);
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn no_panel_builds_a_model_edit_or_an_undo_label() {
    let app = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let files = rust_files(&app);
    assert!(files.len() > 20, "the panels were found: {}", files.len());
    // The test hooks (raw ops for tests, the `test-hooks` feature) are not a panel.
    let hooks = app.join("test_hooks.rs");
    for file in files.into_iter().filter(|f| *f != hooks) {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let builds = ["perform_ops", "edit::Op", "Op::"]
                .iter()
                .any(|what| line.contains(what));
            assert!(
                !builds,
                "{}:{}: panels send intents, the session chooses edits: {line}",
                file.display(),
                n + 1
            );
        }
    }
}

#[test]
fn a_rubber_band_selects_the_origins_in_it_or_adds_them_when_extending() {
    use graft::editor::session::picking::band_selection;
    let scene = rig();
    let rect = view_rect();
    let camera = Camera::new(DVec2::new(2.5, 0.0), 40.0);
    let screen = |x: f32| camera.to_screen(rect, Vec2::new(x, 0.0));
    // A band around the origins at x = 0 (body) and x = 1 (arm), not 2 (hand) nor 5 (prop).
    let band = (
        screen(-0.5) - Vec2::splat(5.0),
        screen(1.5) + Vec2::splat(5.0),
    );
    let (body, arm, prop) = (NodeId(1), NodeId(2), NodeId(5));
    // Leg is at x = -1: outside.
    assert_eq!(
        band_selection(&scene, (camera, rect), band, &[prop], false),
        Command::Selection(SelectionCommand::Select(vec![body, arm])),
        "a plain band replaces the selection"
    );
    assert_eq!(
        band_selection(&scene, (camera, rect), band, &[prop, arm], true),
        Command::Selection(SelectionCommand::Select(vec![prop, arm, body])),
        "extending keeps it and adds each node once"
    );
}

#[test]
fn the_wheel_and_a_pinch_zoom_by_their_product() {
    use graft::editor::view::camera::wheel_zoom;
    assert_eq!(wheel_zoom(1.0, 0.0), 1.0, "nothing: no zoom");
    assert!((wheel_zoom(1.0, 100.0) - 0.2f64.exp()).abs() < 1e-12);
    assert!((wheel_zoom(1.0, -100.0) * wheel_zoom(1.0, 100.0) - 1.0).abs() < 1e-12);
    assert!((wheel_zoom(2.0, 100.0) - 2.0 * 0.2f64.exp()).abs() < 1e-12);
}
