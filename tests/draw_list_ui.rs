//! The viewport and a figure draw from one draw list: at the same camera and size they keep
//! the same nodes with the same detail decisions (outline, axes, dot) and the same names at
//! the same places. Each scene is drawn by the real window (kittest), then as a figure through
//! the viewport's camera; any drift between the two renderers' policies fails here.

mod ui_common;

use graft::editor::Command;
use graft::editor::view::camera::ScreenRect;
use graft::editor::view::draw_list::DrawList;
use graft::editor::view::figure::{FigureOptions, Layers, figure_draw_list};
use graft::model::scene::NodeId;
use std::path::PathBuf;
use ui_common::{app_on_path, view};

/// The figure's list at the viewport's camera and size, with the viewport's view options.
fn figure_list(h: &egui_kittest::Harness<graft::app::GraftApp>) -> (DrawList, ScreenRect) {
    let app = h.state();
    let editor = app.editor();
    let rect = view(app.viewport.last_rect);
    let size = rect.max - rect.min;
    let options = FigureOptions {
        size: (size.x as u32, size.y as u32),
        layers: Layers {
            grid: false,
            ..Layers::default()
        },
        selection: editor.selection().to_vec(),
        caption: false,
        camera: Some(app.viewport.camera),
        ..FigureOptions::default()
    };
    let figure_rect = ScreenRect {
        min: glam::Vec2::ZERO,
        max: size,
    };
    let scene = editor.doc().scene();
    let list = figure_draw_list(scene, &options, (app.viewport.camera, figure_rect), None);
    (list, rect)
}

/// Compare the two lists; the primary selection's axes are its handles in the viewport.
fn assert_same(h: &egui_kittest::Harness<graft::app::GraftApp>, primary: Option<NodeId>) {
    let (figure, rect) = figure_list(h);
    let viewport = &h.state().viewport.draw_list();
    let scene = h.state().editor().doc().scene();
    assert!(!viewport.entries.is_empty(), "the viewport drew nothing");
    assert_eq!(viewport.entries.len(), figure.entries.len(), "same nodes");
    for (v, f) in viewport.entries.iter().zip(&figure.entries) {
        assert_eq!(v.index, f.index);
        let mut expected = f.marks;
        if primary == Some(scene.id_at(v.index as usize)) {
            expected.axes = false;
        }
        assert_eq!(
            v.marks,
            expected,
            "node {}",
            scene.data_at(v.index as usize).name
        );
    }
    let names = |l: &DrawList| l.names.iter().map(|n| n.index).collect::<Vec<_>>();
    assert_eq!(names(viewport), names(&figure), "same names");
    for (v, f) in viewport.names.iter().zip(&figure.names) {
        let shifted = f.at + rect.min.as_dvec2();
        assert!(
            (v.at - shifted).length() < 1e-6,
            "{:?} vs {:?}",
            v.at,
            shifted
        );
    }
}

fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
}

#[test]
fn viewport_and_figure_keep_the_same_nodes_marks_and_names() {
    for file in [
        "sword.ron",
        "solar.ron",
        "shear.ron",
        "tank.ron",
        "flip.ron",
    ] {
        let mut h = app_on_path(scene(file));
        h.run_steps(3);
        assert_same(&h, None);
        // With a selection: the selected node's highlight, dot and name on both.
        let ids = h.state().editor().doc().scene().ids().to_vec();
        let picked = vec![ids[0], ids[ids.len() - 1]];
        h.state_mut().run(Command::Select(picked.clone()));
        h.run_steps(3);
        assert_same(&h, picked.last().copied());
    }
}

#[test]
fn names_at_one_origin_are_not_drawn_over_each_other_in_the_viewport() {
    for file in [
        "solar.ron",
        "sword.ron",
        "shear.ron",
        "tank.ron",
        "flip.ron",
    ] {
        names_do_not_overlap_in_the_viewport(file);
    }
}

fn names_do_not_overlap_in_the_viewport(file: &str) {
    let mut h = app_on_path(scene(file));
    h.run_steps(3);
    let app = h.state();
    let scene = app.editor().doc().scene();
    let list = app.viewport.draw_list();
    let boxes: Vec<[f64; 4]> = list
        .names
        .iter()
        .map(|n| {
            let name = &scene.data_at(n.index as usize).name;
            graft::editor::view::draw_list::name_box(n.at, name)
        })
        .collect();
    for (a, x) in boxes.iter().enumerate() {
        for y in &boxes[a + 1..] {
            let overlap = x[0] < y[2] && y[0] < x[2] && x[1] < y[3] && y[1] < x[3];
            assert!(!overlap, "names overlap: {x:?} {y:?}");
        }
    }
    assert!(!list.names.is_empty());
}
