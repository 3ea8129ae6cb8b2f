//! File > Export figure in the running app: the window's settings change the figure, Save
//! writes a PNG (drawn from the figure's SVG) or an SVG, whichever name is picked.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use graft::app::GraftApp;
use graft::app::dialogs::{DialogOutcome, FakeDialogs};
use graft::editor::command::Window;
use graft::editor::dialogs::DialogKind;
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
