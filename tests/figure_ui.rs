//! File > Export figure in the running app: the window's settings change the figure, Save
//! writes a PNG (drawn from the figure's SVG) or an SVG, whichever name is picked.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::{DialogOutcome, FakeDialogs};
use graft::editor::session::command::Window;
use graft::editor::session::dialogs::DialogKind;
use std::path::PathBuf;

fn app(fake: &FakeDialogs) -> Harness<'static, GraftApp> {
    let fake = fake.clone();
    let path = PathBuf::from("scenes/shear.ron");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(fake)));
    h.run_steps(3);
    h
}

#[test]
fn the_figure_window_sets_layers_and_saves_png_and_svg() {
    let fake = FakeDialogs::default();
    let mut h = app(&fake);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::F);
    h.run_steps(3);
    assert!(h.state().editor().is_open(Window::Figure));
    assert!(h.state().editor().figure_options().layers.names);
    h.get_by_label("names").click();
    h.run_steps(2);
    assert!(
        !h.state().editor().figure_options().layers.names,
        "the checkbox turns names off"
    );
    assert!(
        !h.state()
            .editor()
            .figure_svg()
            .contains(">stretched</text>")
    );

    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("fig.png");
    fake.push(DialogOutcome::Picked(png.clone()));
    h.get_by_label("Save…").click();
    h.run_steps(3);
    assert!(matches!(
        fake.requests().last(),
        Some(DialogKind::ExportImage { extensions, .. }) if extensions.contains(&"png")
    ));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR holds the size: the figure's 1600 × 1000 at scale 1.
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h_px = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((w, h_px), (1600, 1000));

    let svg = dir.path().join("fig.svg");
    fake.push(DialogOutcome::Picked(svg.clone()));
    h.get_by_label("Save…").click();
    h.run_steps(3);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(!text.contains(">stretched</text>"));
}

/// A big scene: the preview is drawn on a worker (frames keep coming, the window says it is
/// drawing, then shows it) and Save writes the PNG on a worker too.
#[test]
fn a_big_figure_is_previewed_and_saved_off_the_ui_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    let scene =
        graft::tools::generate::generate(graft::tools::generate::GenShape::Random, 40_000, 3);
    graft::model::file::save(&scene, &path).unwrap();
    let fake = FakeDialogs::default();
    let script = fake.clone();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(fake)));
    let wait = |h: &mut Harness<GraftApp>, done: &dyn Fn(&Harness<GraftApp>) -> bool| {
        let mut frames = 0;
        while !done(h) && frames < 2_000 {
            h.step();
            std::thread::sleep(std::time::Duration::from_millis(5));
            frames += 1;
        }
        assert!(done(h), "done within {frames} frames");
        frames
    };
    wait(&mut h, &|h| h.state().scene().len() == 40_000);
    h.state_mut().set_background_save_nodes(0);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::F);
    h.run_steps(2);
    assert!(
        h.query_by_label("drawing the preview…").is_some(),
        "the preview is being drawn while frames go on"
    );
    let frames = wait(&mut h, &|h| {
        h.query_by_label("drawing the preview…").is_none()
    });
    assert!(frames > 1, "{frames} frames while it was drawn");

    let png = dir.path().join("fig.png");
    script.push(DialogOutcome::Picked(png.clone()));
    h.get_by_label("Save…").click();
    h.run_steps(2);
    assert_eq!(
        h.state().editor().job().map(|j| j.title),
        Some("Exporting fig.png".to_string())
    );
    wait(&mut h, &|h| h.state().editor().job().is_none());
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
