//! Instances in the window (issue 48): a scene file dropped from the file manager on a
//! hierarchy row is instanced under that row (not opened); Node ▸ Instance scene… asks for a
//! file; the inspector marks an overridden value and reverts it with the button beside it.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::clipboard::trs_to_text;
use graft::editor::session::command::{Command, PanelCommand, SelectionCommand, TransformSpace};
use graft::editor::session::dialogs::{DialogKind, DialogOutcome};
use graft::model::scene::{NodeId, Scene};
use std::path::{Path, PathBuf};

/// The part every instance test instances: a wheel, its hub and a spoke (ids 1, 2, 3).
const WHEEL: &str = include_str!("fixtures/wheel-part.ron");

const CAR: &str = r#"(
    format: 1,
    nodes: [
        (id: 1, name: "body", position: (5.0, 0.0), shape: Rect(size: (4.0, 1.0))),
        (id: 2, name: "mount", parent: Some(1), position: (0.0, 3.0)),
    ],
)
"#;

fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("parts")).unwrap();
    std::fs::write(dir.path().join("parts/wheel.ron"), WHEEL).unwrap();
    let car = dir.path().join("car.ron");
    std::fs::write(&car, CAR).unwrap();
    (dir, car)
}

fn app(car: &Path, fake: &FakeDialogs) -> Harness<'static, GraftApp> {
    let (car, fake) = (car.to_path_buf(), fake.clone());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(car), Box::new(fake)));
    h.run_steps(5);
    h
}

/// A file dropped on the window, as the windowing integration hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn row(h: &Harness<GraftApp>, name: &str) -> egui::Rect {
    h.query_all(By::new().label_contains(name).role(Role::TreeItem))
        .map(|n| n.rect())
        .next()
        .unwrap_or_else(|| panic!("no row {name}"))
}

fn button(h: &Harness<GraftApp>, label: &str) -> egui::Pos2 {
    h.query_all_by_label_contains(label)
        .filter(|n| n.accesskit_node().role() == Role::Button)
        .min_by_key(|n| n.accesskit_node().label().map_or(usize::MAX, |l| l.len()))
        .map(|n| n.rect().center())
        .unwrap_or_else(|| {
            let all: Vec<String> = (h.query_all(By::new().role(Role::Button)))
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("no button {label} among {all:?}")
        })
}

/// Move there, press, release.
fn click(h: &mut Harness<GraftApp>, label: &str) {
    let p = button(h, label);
    click_at(h, p);
}

fn click_at(h: &mut Harness<GraftApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.run_steps(1);
    h.drag_at(p);
    h.run_steps(1);
    h.drop_at(p);
    h.run_steps(3);
}

fn named(scene: &Scene, name: &str) -> NodeId {
    let i = (0..scene.len())
        .find(|&i| scene.data_at(i).name == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    scene.id_at(i)
}

#[test]
fn a_scene_file_dropped_on_a_row_is_instanced_under_it() {
    let (dir, car) = folder();
    let fake = FakeDialogs::default();
    let mut h = app(&car, &fake);
    let mount = row(&h, "mount");
    h.hover_at(mount.center());
    h.run_steps(1);
    let wheel = dir.path().join("parts/wheel.ron");
    h.input_mut().hovered_files.push(egui::HoveredFile {
        path: Some(wheel.clone()),
        ..Default::default()
    });
    h.run_steps(1);
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(wheel)));
    h.run_steps(3);
    let scene = h.state().scene();
    assert_eq!(scene.len(), 5, "{:?}", h.state().editor().last_message());
    let root = named(scene, "wheel");
    assert_eq!(
        scene.parent(root).unwrap(),
        Some(NodeId(2)),
        "under the row dropped on"
    );
    assert_eq!(scene.instance_entry(root).unwrap().path, "parts/wheel.ron");
    assert_eq!(
        h.state().doc().path(),
        Some(car.as_path()),
        "not opened instead"
    );
    assert!(
        h.query_all(By::new().label_contains("[wheel.ron]").role(Role::TreeItem))
            .next()
            .is_some(),
        "the row shows its source"
    );
    // One undo step.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().len(), 2);
}

#[test]
fn instance_scene_from_the_node_menu_asks_for_a_file() {
    let (dir, car) = folder();
    let fake = FakeDialogs::default();
    let mut h = app(&car, &fake);
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![NodeId(
            1,
        )])));
    fake.push(DialogOutcome::Picked(dir.path().join("parts/wheel.ron")));
    click(&mut h, "Node");
    click(&mut h, "Instance scene…");
    assert_eq!(fake.requests().last(), Some(&DialogKind::InstanceSource));
    let scene = h.state().scene();
    let root = named(scene, "wheel");
    assert_eq!(scene.parent(root).unwrap(), Some(NodeId(1)));
}

#[test]
fn the_inspector_marks_an_override_and_reverts_it_with_the_button_beside_it() {
    let (dir, car) = folder();
    let fake = FakeDialogs::default();
    let mut h = app(&car, &fake);
    h.state_mut().run(Command::Instance(
        graft::editor::session::command::InstanceCommand::Instance {
            under: Some(NodeId(1)),
            path: Some(dir.path().join("parts/wheel.ron")),
        },
    ));
    let spoke = named(h.state().scene(), "spoke");
    let mut local = h.state().scene().node(spoke).unwrap().local;
    local.rotation = 30.0;
    h.state_mut()
        .run(Command::Panel(PanelCommand::PasteTransform {
            node: spoke,
            text: trs_to_text(&local),
            space: TransformSpace::Local,
        }));
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![spoke])));
    h.run_steps(3);
    h.get_by_label_contains("• rotation overridden (source: 0°)");
    click(&mut h, "Revert rotation");
    assert_eq!(h.state().scene().node(spoke).unwrap().local.rotation, 0.0);
    assert!(
        h.query_by_label_contains("• rotation").is_none(),
        "no longer marked"
    );
    assert_eq!(
        h.state().doc().history().undo_label(),
        Some("Revert to source spoke")
    );
}

#[test]
fn an_override_of_a_node_the_source_lost_is_shown_and_removed_with_its_button() {
    let (dir, car) = folder();
    std::fs::write(
        &car,
        r#"(
    format: 4,
    nodes: [
        (id: 1, name: "body"),
        (id: 10, name: "front", parent: Some(1), instance: "parts/wheel.ron", overrides: [(node: [9], rotation: 15.0), (node: [3], scale: (2.0, 2.0))]),
    ],
)
"#,
    )
    .unwrap();
    let fake = FakeDialogs::default();
    let mut h = app(&car, &fake);
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![NodeId(
            10,
        )])));
    h.run_steps(3);
    h.get_by_label_contains("override of node 9 (rotation), no longer in parts/wheel.ron");
    click(&mut h, "Remove override of node 9");
    let entry = h.state().scene().instance_entry(NodeId(10)).unwrap();
    let said = h.state().editor().last_message();
    assert!(entry.dangling.is_empty(), "removed: {said:?}");
    assert!(
        h.query_by_label_contains("override of node 9 (rotation)")
            .is_none(),
        "no longer in the inspector"
    );
    // The live override stays; one undo step brings the removed one back.
    let spoke = named(h.state().scene(), "spoke");
    assert_eq!(h.state().scene().node(spoke).unwrap().local.scale.x, 2.0);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    let entry = h.state().scene().instance_entry(NodeId(10)).unwrap();
    assert_eq!(entry.dangling.len(), 1);
    drop(dir);
}
