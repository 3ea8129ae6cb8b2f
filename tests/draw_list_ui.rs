//! The viewport and a figure draw one frame: at the same camera and size they keep the same
//! nodes with the same detail decisions (outline, axes, dot), the same names at the same places
//! and the same primitives (grid and labels, density images, links, bodies, outlines, axis
//! arrows, dots, names, the shear overlay with its rings), on the sample scenes in the real
//! window (kittest) and on a generated 50,000-node scene. Names in the viewport never overlap
//! as egui draws them: judged with egui's own text measurement.

mod ui_common;

use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::Command;
use graft::editor::session::clipboard::trs_to_text;
use graft::editor::session::command::{
    PanelCommand, SelectionCommand, SettingCommand, TransformSpace, ViewOption,
};
use graft::editor::view::camera::ScreenRect;
use graft::editor::view::draw_list::{DrawList, NAME_SIZE};
use graft::editor::view::figure::{FigureOptions, Layers, figure_draw_list, figure_frame};
use graft::editor::view::occlusion::OCCLUSION_FROM;
use graft::editor::view::primitives::Prim;
use graft::model::document::Document;
use graft::model::scene::NodeId;
use graft::tools::generate::{GenShape, generate};
use std::path::PathBuf;
use ui_common::{app_on_path, view};

/// The figure options that show what the viewport shows, at its camera and size.
fn figure_options(app: &GraftApp) -> FigureOptions {
    let editor = app.editor();
    let rect = view(app.viewport.last_rect);
    let size = rect.max - rect.min;
    let shows = |o| editor.view().shows(o);
    FigureOptions {
        size: (size.x as u32, size.y as u32),
        layers: Layers {
            grid: true,
            axes: shows(ViewOption::Axes),
            links: shows(ViewOption::Links),
            names: shows(ViewOption::Names),
            shear: shows(ViewOption::Shear),
            ..Layers::default()
        },
        selection: editor.selection().to_vec(),
        caption: false,
        camera: Some(app.viewport.camera),
        ..FigureOptions::default()
    }
}

/// The figure's list at the viewport's camera and size, with the viewport's view options.
fn figure_list(app: &GraftApp) -> (DrawList, ScreenRect) {
    let rect = view(app.viewport.last_rect);
    let options = figure_options(app);
    let figure_rect = ScreenRect {
        min: glam::Vec2::ZERO,
        max: rect.max - rect.min,
    };
    let scene = app.editor().doc().scene();
    let view = (app.viewport.camera, figure_rect);
    let plan = figure_frame(scene, &options, true, &DrawList::default()).plan;
    (figure_draw_list(scene, &options, view, plan.as_ref()), rect)
}

/// Compare the two lists; the primary selection's axes are its handles in the viewport.
fn assert_same_lists(app: &GraftApp, primary: Option<NodeId>) {
    let (figure, rect) = figure_list(app);
    let viewport = app.viewport.draw_list();
    let scene = app.editor().doc().scene();
    assert!(!viewport.entries.is_empty(), "the viewport drew nothing");
    assert_eq!(viewport.entries.len(), figure.entries.len(), "same nodes");
    for (v, f) in viewport.entries.iter().zip(&figure.entries) {
        assert_eq!(v.index, f.index);
        let mut expected = f.marks;
        if primary == Some(scene.id_at(v.index as usize)) {
            expected.axes = false;
        }
        let name = &scene.data_at(v.index as usize).name;
        assert_eq!(v.marks, expected, "node {name}");
    }
    let names = |l: &DrawList| l.names.iter().map(|n| n.index).collect::<Vec<_>>();
    assert_eq!(names(viewport), names(&figure), "same names");
    for (v, f) in viewport.names.iter().zip(&figure.names) {
        let shifted = f.at + rect.min.as_dvec2();
        assert!(
            (v.at - shifted).length() < TEXT_ROUNDING as f64,
            "{:?} vs {shifted:?}",
            v.at
        );
    }
}

/// egui rounds a text's size to 1/32 px (`emath::GUI_ROUNDING`): what a point placed from a
/// measured width may differ by between the viewport and a figure.
const TEXT_ROUNDING: f32 = 1.0 / 32.0 + 1e-4;

/// The viewport's last frame and the figure's, primitive by primitive (the figure's moved to
/// where the viewport is on screen; points within egui's text rounding).
fn assert_same_primitives(app: &GraftApp) -> Vec<Prim<'static>> {
    let rect = view(app.viewport.last_rect);
    let scene = app.editor().doc().scene();
    let figure = figure_frame(scene, &figure_options(app), true, &DrawList::default());
    let viewport = app.viewport.primitives();
    let kinds = |p: &[Prim]| {
        let mut k = [0usize; 8];
        for prim in p {
            k[match prim {
                Prim::Line { .. } => 0,
                Prim::Polygon { .. } => 1,
                Prim::Circle { .. } => 2,
                Prim::Plate { .. } => 3,
                Prim::Text { .. } => 4,
                Prim::Body { .. } => 5,
                Prim::Density { .. } => 6,
                Prim::Path { .. } => 7,
            }] += 1;
        }
        k
    };
    assert_eq!(
        kinds(&viewport),
        kinds(&figure.prims),
        "the same kinds of primitives"
    );
    assert_eq!(viewport.len(), figure.prims.len());
    for (k, (v, f)) in viewport.iter().zip(&figure.prims).enumerate() {
        let f = f.shifted(rect.min);
        assert!(
            v.near(&f, TEXT_ROUNDING),
            "primitive {k}: viewport {v:?}, figure {f:?}"
        );
    }
    viewport
}

fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
}

const SAMPLES: [&str; 5] = [
    "sword.ron",
    "solar.ron",
    "shear.ron",
    "tank.ron",
    "flip.ron",
];

#[test]
fn viewport_and_figure_keep_the_same_nodes_marks_names_and_primitives() {
    for file in SAMPLES {
        let mut h = app_on_path(scene(file));
        h.state_mut().viewport.record_primitives();
        h.run_steps(3);
        assert_same_lists(h.state(), None);
        let prims = assert_same_primitives(h.state());
        let texts = prims
            .iter()
            .filter(|p| matches!(p, Prim::Text { .. }))
            .count();
        assert!(texts > 0, "{file}: grid labels and names");
        // With a selection: the selected node's highlight, dot and name on both.
        let ids = h.state().editor().doc().scene().ids().to_vec();
        let picked = vec![ids[0], ids[ids.len() - 1]];
        h.state_mut()
            .run(Command::Selection(SelectionCommand::Select(picked.clone())));
        h.run_steps(3);
        assert_same_lists(h.state(), picked.last().copied());
    }
}

#[test]
fn the_shear_scene_rings_its_cause_in_the_viewport_and_the_figure_alike() {
    let mut h = app_on_path(scene("shear.ron"));
    h.state_mut().viewport.record_primitives();
    h.run_steps(3);
    let prims = assert_same_primitives(h.state());
    let ring = |p: &Prim| matches!(p, Prim::Circle { radius, width, .. } if *radius == 9.0 && *width > 0.0);
    assert!(prims.iter().any(ring), "the cause's ring");
    // The overlay and the grid are kept between frames: they follow the scene and the camera.
    // The cause stretched further (the child's angle note changes, its nodes stay the same),
    // then scaled uniformly (its ring and the child's marks go).
    let scale = |h: &mut egui_kittest::Harness<'static, GraftApp>, s: glam::Vec2| {
        let scene = h.state().editor().doc().scene();
        let cause = scene.id_at(0);
        let mut local = scene.data_at(0).local;
        local.scale = s;
        h.state_mut()
            .run(Command::Panel(PanelCommand::PasteTransform {
                node: cause,
                text: trs_to_text(&local),
                space: TransformSpace::Local,
            }));
        h.run_steps(3);
        assert_same_primitives(h.state())
    };
    let angle_notes = |prims: &[Prim]| -> Vec<String> {
        (prims.iter())
            .filter_map(|p| match p {
                Prim::Text { text, .. } if text.contains('°') => Some(text.to_string()),
                _ => None,
            })
            .collect()
    };
    let before = angle_notes(&prims);
    let stretched = scale(&mut h, glam::Vec2::new(3.0, 1.0));
    assert!(
        !before.is_empty() && angle_notes(&stretched) != before,
        "{before:?}"
    );
    let uniform = scale(&mut h, glam::Vec2::splat(2.0));
    assert!(!uniform.iter().any(ring), "no cause left to ring");
    // Panned: the grid moves with the camera.
    h.state_mut().viewport.camera.center += glam::DVec2::new(0.37, 0.21);
    h.run_steps(2);
    assert_same_primitives(h.state());
}

/// One 1400×900 frame of the app.
fn run_frame(ctx: &egui::Context, app: &mut GraftApp) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1400.0, 900.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    output.textures_delta.clear();
}

#[test]
fn a_big_scene_is_the_same_frame_in_the_viewport_and_a_figure() {
    let mut scene = generate(GenShape::Random, 50_000, 7);
    scene.update_world();
    let mut app =
        GraftApp::with_document(Document::untitled(scene), Box::new(FakeDialogs::default()));
    app.viewport.record_primitives();
    let ctx = egui::Context::default();
    for _ in 0..6 {
        run_frame(&ctx, &mut app); // the level of detail settles
    }
    let prims = assert_same_primitives(&app);
    let bodies = prims
        .iter()
        .filter(|p| matches!(p, Prim::Body { .. }))
        .count();
    assert!(bodies > 1_000, "{bodies} bodies");
    let plan = |app: &GraftApp| {
        let scene = app.editor().doc().scene();
        let figure = figure_frame(scene, &figure_options(app), true, &DrawList::default());
        figure.plan.expect("planned")
    };
    assert!(
        plan(&app).splatted() > 0,
        "some nodes summed into the density images"
    );
    assert_same_lists(&app, None);
    // Zoomed in on the crowd: dense enough that both leave out shapes hidden under others.
    app.viewport.camera.zoom *= 4.0;
    for _ in 0..20 {
        run_frame(&ctx, &mut app);
    }
    let prims = assert_same_primitives(&app);
    let bodies = prims.iter().filter(|p| matches!(p, Prim::Body { .. }));
    let (bodies, kept) = (bodies.count(), plan(&app).draw.len());
    assert!(
        kept >= OCCLUSION_FROM && bodies < kept,
        "{bodies} of {kept} kept"
    );
    assert_same_lists(&app, None);
}

#[test]
fn a_figures_text_widths_are_egui_s_for_the_same_font() {
    let h = app_on_path(scene("sword.ron"));
    for text in [
        "sword",
        "Guard and blade",
        "node 1234",
        "-1.000000005e7",
        "WWW iii",
    ] {
        for size in [10.0, 12.0] {
            let font = egui::FontId::proportional(size);
            let galley = h
                .ctx
                .fonts_mut(|f| f.layout_no_wrap(text.to_string(), font, egui::Color32::WHITE));
            let figure = graft::editor::view::figure::font::text_width(text, size);
            let egui = galley.size().x;
            assert!(
                (figure - egui).abs() < TEXT_ROUNDING,
                "{text:?} at {size}: {figure} vs {egui}"
            );
        }
    }
}

#[test]
fn names_are_not_drawn_over_each_other_in_the_viewport() {
    for file in SAMPLES {
        names_do_not_overlap_in_the_viewport(file);
    }
}

/// The boxes the viewport's names take as egui draws them (measured by egui's fonts, placed
/// as `draw.rs` places a galley: its middle on the middle of the name's line) must not meet.
fn names_do_not_overlap_in_the_viewport(file: &str) {
    let mut h = app_on_path(scene(file));
    h.run_steps(3);
    let app = h.state();
    let scene = app.editor().doc().scene();
    let list = app.viewport.draw_list();
    let font = egui::FontId::proportional(NAME_SIZE);
    let boxes: Vec<[f64; 4]> = list
        .names
        .iter()
        .map(|n| {
            let name = scene.data_at(n.index as usize).name.to_string();
            let galley = h
                .ctx
                .fonts_mut(|f| f.layout_no_wrap(name, font.clone(), egui::Color32::WHITE));
            let ink = galley.mesh_bounds;
            let middle = n.at.y - 0.3 * NAME_SIZE as f64;
            let top = middle - galley.size().y as f64 / 2.0;
            [
                n.at.x + ink.min.x as f64,
                top + ink.min.y as f64,
                n.at.x + ink.max.x as f64,
                top + ink.max.y as f64,
            ]
        })
        .collect();
    assert!(!boxes.is_empty(), "{file}: some names");
    for (a, x) in boxes.iter().enumerate() {
        for y in &boxes[a + 1..] {
            let overlap = x[0] < y[2] && y[0] < x[2] && x[1] < y[3] && y[1] < x[3];
            assert!(!overlap, "{file}: names overlap: {x:?} {y:?}");
        }
    }
}

/// Far from the origin the grid's labels are long (`10000000.005`): in the viewport the x
/// labels along the bottom still never meet, judged by the boxes egui's fonts give them.
#[test]
fn long_grid_labels_do_not_meet_in_the_viewport() {
    let mut h = app_on_path(scene("sword.ron"));
    h.state_mut().viewport.camera.center = glam::DVec2::new(1.0e7 + 0.005, 0.0);
    h.state_mut().viewport.camera.zoom = 450.0; // lines 45 px apart, labels wider
    h.run_steps(3);
    let app = h.state();
    let bottom = app.viewport.last_rect.max.y - 2.0;
    let labels: Vec<(f32, String)> = app
        .viewport
        .primitives()
        .into_iter()
        .filter_map(|p| match p {
            Prim::Text { at, text, .. } if (at.y - bottom).abs() < 1e-3 => {
                Some((at.x, text.into_owned()))
            }
            _ => None,
        })
        .collect();
    assert!(labels.len() >= 2, "{labels:?}");
    assert!(
        labels.iter().any(|(_, t)| t.len() >= 10),
        "long labels: {labels:?}"
    );
    let font = egui::FontId::proportional(graft::editor::view::primitives::GRID_LABEL_SIZE);
    let spans: Vec<(f32, f32)> = labels
        .iter()
        .map(|(x, text)| {
            let galley = h
                .ctx
                .fonts_mut(|f| f.layout_no_wrap(text.clone(), font.clone(), egui::Color32::WHITE));
            (*x, *x + galley.size().x)
        })
        .collect();
    for pair in spans.windows(2) {
        assert!(pair[0].1 < pair[1].0, "labels meet: {labels:?} {spans:?}");
    }
}

/// Trails, both ghosts, both space grids and probes on (issue 47: one painter for overlays): the
/// viewport paints the primitives a figure writes at the same camera — the moon's parent's and
/// own grids with their labels, its trail with ticks and labels, each node's accumulated-TRS
/// ghost, the blended-world ghosts and two probes' pins — item by item.
#[test]
fn every_overlay_is_the_same_primitives_in_the_viewport_and_the_figure() {
    use graft::editor::session::command::ProbeCommand;
    use graft::editor::session::timeline::TimelineCommand;
    use graft::editor::view::figure::figure_overlay_prims;
    let mut h = app_on_path(scene("solar.ron"));
    h.state_mut().viewport.record_primitives();
    let moon = {
        let scene = h.state().editor().doc().scene();
        (scene.ids().iter().copied())
            .find(|&id| scene.node(id).is_ok_and(|d| d.name == "moon"))
            .expect("a moon")
    };
    let moon_at = {
        let world = h.state().editor().doc().scene().world(moon).expect("moon");
        world.translation.as_dvec2()
    };
    for command in [
        Command::Selection(SelectionCommand::Select(vec![moon])),
        Command::Probe(ProbeCommand::Add { world: moon_at }),
        Command::Probe(ProbeCommand::Add {
            world: moon_at + glam::DVec2::new(0.5, 0.25),
        }),
        Command::Timeline(TimelineCommand::ToggleTrails),
        Command::Setting(SettingCommand::ToggleView(ViewOption::AccumulatedGhosts)),
        Command::Setting(SettingCommand::ToggleView(ViewOption::WorldBlendGhosts)),
        Command::Setting(SettingCommand::ToggleView(ViewOption::ParentGrid)),
        Command::Setting(SettingCommand::ToggleView(ViewOption::LocalGrid)),
        Command::Timeline(TimelineCommand::SetTime(1.3)),
    ] {
        h.state_mut().run(command);
    }
    h.run_steps(3);
    let app = h.state();
    let rect = view(app.viewport.last_rect);
    let mut options = figure_options(app);
    options.layers.trails = true;
    options.layers.ghosts = true;
    options.layers.parent_space = true;
    options.layers.own_space = true;
    options.layers.probes = true;
    options.time = app.editor().timeline().time();
    let figure_rect = ScreenRect {
        min: glam::Vec2::ZERO,
        max: rect.max - rect.min,
    };
    let scene = app.editor().doc().scene();
    let figure = figure_overlay_prims(scene, &options, (app.viewport.camera, figure_rect));
    let viewport = app.viewport.overlay_primitives();
    let count = |p: &[Prim], f: &dyn Fn(&Prim) -> bool| p.iter().filter(|x| f(x)).count();
    assert!(
        count(viewport, &|p| matches!(p, Prim::Path { dash: None, .. })) == 1,
        "one trail"
    );
    assert!(
        count(viewport, &|p| matches!(p, Prim::Path { dash: Some(_), .. })) > 2,
        "ghosts"
    );
    let text =
        |t: &'static str| move |p: &Prim| matches!(p, Prim::Text { text, .. } if text.contains(t));
    assert_eq!(count(viewport, &text("moon's space")), 1, "the moon's grid");
    assert_eq!(
        count(viewport, &text("moon orbit's space")),
        1,
        "its parent's grid"
    );
    assert_eq!(count(viewport, &text("P1")), 1, "the first pin");
    assert_eq!(count(viewport, &text("P2")), 1, "the second pin");
    let filled = |p: &Prim| matches!(p, Prim::Polygon { width, .. } if *width == 0.0);
    assert_eq!(count(viewport, &filled), 2, "two unit squares");
    assert_eq!(viewport.len(), figure.len(), "as many primitives");
    for (k, (v, f)) in viewport.iter().zip(&figure).enumerate() {
        let f = f.shifted(rect.min);
        assert!(
            v.near(&f, TEXT_ROUNDING),
            "primitive {k}: viewport {v:?}, figure {f:?}"
        );
    }
}

/// The marquee of a box selection is primitives too: a faint filled rectangle and its outline
/// between where the drag started and the pointer.
#[test]
fn the_marquee_is_painted_from_primitives() {
    let mut h = app_on_path(scene("solar.ron"));
    h.state_mut().viewport.record_primitives();
    h.run_steps(2);
    let rect = h.state().viewport.last_rect;
    let (from, to) = (
        rect.min + egui::vec2(20.0, 30.0),
        rect.min + egui::vec2(140.0, 90.0),
    );
    h.event(egui::Event::PointerMoved(from));
    h.event(egui::Event::PointerButton {
        pos: from,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(1);
    for k in 1..=8 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (k as f32 / 8.0),
        ));
        h.run_steps(1);
    }
    let bands: Vec<Vec<glam::Vec2>> = (h.state().viewport.overlay_primitives().iter())
        .filter_map(|p| match p {
            Prim::Polygon { points, color, .. }
                if color.rgb_bytes() == graft::editor::view::palette::MARQUEE.rgb_bytes() =>
            {
                Some(points.to_vec())
            }
            _ => None,
        })
        .collect();
    assert_eq!(bands.len(), 2, "filled and outlined: {bands:?}");
    let corners = [glam::Vec2::new(from.x, from.y), glam::Vec2::new(to.x, to.y)];
    for band in &bands {
        for c in corners {
            assert!(
                band.iter().any(|p| (*p - c).length() < 0.5),
                "{band:?} lacks {c:?}"
            );
        }
    }
}
