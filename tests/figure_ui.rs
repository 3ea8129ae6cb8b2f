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

/// Run frames one at a time until `done` holds after one, and return how many it took. Waits
/// for a state, never for a time or a count of frames: the cap (two minutes of wall time) only
/// turns a hang into a failure that names what was awaited.
fn frames_until(
    h: &mut Harness<GraftApp>,
    what: &str,
    done: &dyn Fn(&Harness<GraftApp>) -> bool,
) -> usize {
    let start = std::time::Instant::now();
    let mut frames = 0;
    while !done(h) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "not {what} after {frames} frames"
        );
        h.step();
        frames += 1;
        if !done(h) {
            // Workers (loading, the preview, exports) need the CPU more than the next frame.
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    frames
}

/// True while the figure window is on screen and can be clicked (its first frame is an
/// invisible sizing pass).
fn figure_window_shown(h: &Harness<GraftApp>) -> bool {
    h.query_by_label("Save…").is_some()
}

fn drawing_preview(h: &Harness<GraftApp>) -> bool {
    h.query_by_label("drawing the preview…").is_some()
}

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
    frames_until(&mut h, "showing the figure window", &figure_window_shown);
    assert!(h.state().editor().is_open(Window::Figure));
    assert!(h.state().editor().figure_options().layers.names);
    // Clicks go where a widget was on the last frame: click only once the preview is up, so
    // nothing moves between finding a widget and the click reaching it.
    frames_until(&mut h, "done drawing the preview", &|h| !drawing_preview(h));
    h.get_by_label("names").click();
    frames_until(&mut h, "turning names off", &|h| {
        !h.state().editor().figure_options().layers.names
    });
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
    frames_until(&mut h, "done drawing the preview", &|h| !drawing_preview(h));
    h.get_by_label("Save…").click();
    frames_until(&mut h, "writing fig.png", &|_| png.exists());
    assert!(matches!(
        fake.requests().last(),
        Some(DialogKind::ExportFile { kinds, .. }) if kinds.contains(&graft::model::file_kind::FileKind::Png)
    ));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR holds the size: the figure's 1600 × 1000 at scale 1.
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h_px = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((w, h_px), (1600, 1000));

    let svg = dir.path().join("fig.svg");
    fake.push(DialogOutcome::Picked(svg.clone()));
    frames_until(&mut h, "done drawing the preview", &|h| !drawing_preview(h));
    h.get_by_label("Save…").click();
    frames_until(&mut h, "writing fig.svg", &|_| svg.exists());
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
    frames_until(&mut h, "done loading 40,000 nodes", &|h| {
        h.state().scene().len() == 40_000
    });
    h.state_mut().set_background_save_nodes(0);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::F);
    frames_until(&mut h, "showing the figure window", &figure_window_shown);
    // The first preview may be drawn before the window's first visible frame, so a new one is
    // asked for with the window up: the frame that starts it says "drawing the preview…", and
    // as each frame is looked at, that frame is seen. A preview drawn on the UI thread would
    // be done before its frame ends and the label never seen, so this fails then (asserting
    // the label a fixed number of frames in raced a fast preview instead).
    frames_until(&mut h, "done drawing the first preview", &|h| {
        !drawing_preview(h)
    });
    h.get_by_label("names").click();
    frames_until(
        &mut h,
        "drawing the new preview while frames go on",
        &drawing_preview,
    );
    assert!(!h.state().editor().figure_options().layers.names);
    frames_until(&mut h, "done drawing the new preview", &|h| {
        !drawing_preview(h)
    });

    let png = dir.path().join("fig.png");
    script.push(DialogOutcome::Picked(png.clone()));
    h.get_by_label("Save…").click();
    // The export starts at the end of the frame the dialog answers in and is picked up at the
    // start of a later one, so after some frame it is seen running: that it runs on a worker
    // does not depend on how fast it is.
    frames_until(&mut h, "exporting in the background", &|h| {
        h.state().editor().job().is_some() || png.exists()
    });
    assert_eq!(
        h.state().editor().job().map(|j| j.title),
        Some("Exporting fig.png".to_string()),
        "the export runs on a worker"
    );
    frames_until(&mut h, "done exporting", &|h| {
        h.state().editor().job().is_none()
    });
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
