//! The viewport paints what `editor::view` decides, headless: trails of the selection with
//! their time labels never drawn over one another, and the comparison ghosts drawn at all.

use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::Command;
use graft::editor::session::command::{SelectionCommand, SettingCommand, ViewOption};
use graft::editor::session::timeline::TimelineCommand;
use graft::model::document::Document;
use graft::model::scene::NodeId;
use std::path::Path;

/// One 1400×900 frame of the app; the shapes it painted.
fn run_frame(ctx: &egui::Context, app: &mut GraftApp) -> Vec<egui::Shape> {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1400.0, 900.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    output.textures_delta.clear();
    output.shapes.into_iter().map(|c| c.shape).collect()
}

/// The app on a sample scene with `selected` selected and trails on, after a few frames.
fn app_with_trails(scene: &str, selected: &[NodeId]) -> (GraftApp, egui::Context) {
    let doc = Document::open(Path::new(scene)).expect("a sample scene");
    let mut app = GraftApp::with_document(doc, Box::new(FakeDialogs::default()));
    app.run(Command::Selection(SelectionCommand::Select(
        selected.to_vec(),
    )));
    app.run(Command::Timeline(TimelineCommand::ToggleTrails));
    let ctx = egui::Context::default();
    for _ in 0..3 {
        run_frame(&ctx, &mut app);
    }
    (app, ctx)
}

/// Every text painted that reads as a tick label ("4.50s"), with its rectangle.
fn time_labels(shapes: &[egui::Shape]) -> Vec<(String, egui::Rect)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, egui::Rect)>) {
        match shape {
            egui::Shape::Vec(list) => list.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(text) => {
                let s = text.galley.text().to_string();
                let number = s.strip_suffix('s').is_some_and(|n| {
                    n.split_once('.')
                        .is_some_and(|(_, d)| d.len() == 2 && n.parse::<f32>().is_ok())
                });
                if number {
                    out.push((s, text.visual_bounding_rect()));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|s| walk(s, &mut out));
    out
}

#[test]
fn trail_time_labels_never_overlap() {
    // The moon's epicycle and the earth's orbit, over the solar system's clip.
    let (mut app, ctx) = app_with_trails("scenes/solar.ron", &[NodeId(2), NodeId(3)]);
    let labels = time_labels(&run_frame(&ctx, &mut app));
    assert!(!labels.is_empty(), "trails are labelled");
    for (k, (a, ra)) in labels.iter().enumerate() {
        for (b, rb) in &labels[k + 1..] {
            let overlap = ra.intersect(*rb);
            assert!(
                overlap.width() <= 0.5 || overlap.height() <= 0.5,
                "{a} at {ra:?} over {b} at {rb:?}"
            );
        }
    }
}

#[test]
fn a_still_nodes_trail_has_one_time_label() {
    // Nothing in the shear scene is animated: every tick of a trail is at one point.
    let (mut app, ctx) = app_with_trails("scenes/shear.ron", &[NodeId(1)]);
    let labels = time_labels(&run_frame(&ctx, &mut app));
    let texts: Vec<&str> = labels.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(texts, ["0.00s"]);
}

#[test]
fn the_comparison_ghosts_are_painted() {
    let (mut app, ctx) = app_with_trails("scenes/solar.ron", &[]);
    let plain = run_frame(&ctx, &mut app).len();
    app.run(Command::Setting(SettingCommand::ToggleView(
        ViewOption::AccumulatedGhosts,
    )));
    app.run(Command::Setting(SettingCommand::ToggleView(
        ViewOption::WorldBlendGhosts,
    )));
    app.run(Command::Timeline(TimelineCommand::SetTime(0.7)));
    run_frame(&ctx, &mut app);
    let ghosts = run_frame(&ctx, &mut app).len();
    assert!(ghosts > plain, "ghosts add shapes: {plain} → {ghosts}");
}
