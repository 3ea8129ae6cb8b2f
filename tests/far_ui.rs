//! Far from the origin in the running app: zooming in on a node at (100000, 0) keeps frames
//! coming and draws fill and outline together where the numbers say; extreme scenes (1e7, 1e12,
//! ±3e38, scales 1e-30 and 1e30, skew 89.9999°, zero scale) open, frame, select, drag, undo and
//! save with bounded work per frame and flat memory; typed inf/NaN is refused, 1e30 accepted.

use egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec2;
use graft::app::GraftApp;
use graft::model::scene::NodeId;

mod ui_common;
use ui_common::{app_on_path as app_on, on_screen, scene_file, type_number, view};

/// Every shape of the last frame, nested lists flattened.
fn shapes(h: &Harness<GraftApp>) -> Vec<egui::Shape> {
    fn flatten(shape: &egui::Shape, out: &mut Vec<egui::Shape>) {
        match shape {
            egui::Shape::Vec(list) => list.iter().for_each(|s| flatten(s, out)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        flatten(&clipped.shape, &mut out);
    }
    out
}

fn bbox(points: impl Iterator<Item = Pos2>) -> Option<Rect> {
    points.fold(None, |acc: Option<Rect>, p| {
        Some(acc.map_or(Rect::from_min_max(p, p), |r| {
            r.union(Rect::from_min_max(p, p))
        }))
    })
}

const GREEN: egui::Color32 = egui::Color32::from_rgba_premultiplied(10, 200, 30, 255);

/// The screen box of the green fill and of the closed outline that matches it, last frame.
fn fill_and_outline(h: &Harness<GraftApp>) -> (Rect, Rect) {
    let all = shapes(h);
    let fill = bbox(all.iter().flat_map(|s| {
        match s {
            egui::Shape::Mesh(m) => m
                .vertices
                .iter()
                .filter(|v| v.color == GREEN)
                .map(|v| v.pos)
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        }
    }))
    .expect("the green rect is filled");
    let outline = all
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Path(p) if p.closed && p.points.len() == 4 => {
                bbox(p.points.iter().copied())
            }
            _ => None,
        })
        .min_by(|a, b| {
            let d = |r: &Rect| (r.min - fill.min).length() + (r.max - fill.max).length();
            d(a).total_cmp(&d(b))
        })
        .expect("the rect is outlined");
    (fill, outline)
}

const FAR: &str = "(format: 1, nodes: [
    (id: 1, name: \"far\", position: (100000.0, 0.0), shape: Rect(size: (1.0, 1.0)), color: (10, 200, 30, 255)),
])";

#[test]
fn zooming_in_far_out_keeps_frames_coming_and_fill_and_outline_together() {
    let (_dir, path) = scene_file(FAR);
    let mut h = app_on(path);
    let centre = h.state().viewport.last_rect.center();
    let start_zoom = h.state().viewport.camera.zoom;
    h.hover_at(centre);
    h.run_steps(1);
    for step in 1..=80 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 1.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        });
        h.run_steps(2);
        assert!(shapes(&h).len() < 2_000, "bounded work per frame");
        if step % 10 == 0 {
            let (fill, outline) = fill_and_outline(&h);
            for (a, b) in [(fill.min, outline.min), (fill.max, outline.max)] {
                assert!(
                    (a - b).length() <= 0.5 * 2f32.sqrt(),
                    "{fill:?} vs {outline:?}"
                );
            }
            // Where the numbers say: the rect's centre and size through the camera.
            let zoom = h.state().viewport.camera.zoom as f32;
            let want = on_screen(&h, Vec2::new(100000.0, 0.0));
            if fill.width() < 800.0 {
                assert!(
                    (fill.center() - want).length() < 1.0,
                    "{fill:?} at {want:?}"
                );
                assert!(
                    (fill.width() - zoom).abs() < 1.0,
                    "{} px for {zoom}",
                    fill.width()
                );
            }
        }
    }
    h.run_steps(20);
    let zoom = h.state().viewport.camera.zoom;
    assert!(
        zoom > start_zoom * 100.0,
        "zoomed in: {start_zoom} -> {zoom}"
    );
    let rect = view(h.state().viewport.last_rect);
    assert!(zoom <= h.state().viewport.camera.zoom_limits(rect).1);
    if zoom * 0.0078125 > 1.0 {
        let note = h.state().viewport.camera.precision_note();
        assert!(
            note.is_some_and(|n| n.contains("0.0078125")),
            "the view says it is past f32 precision"
        );
    }

    // Pan with Space + drag, then click the node: it is selected.
    let from = centre + egui::vec2(100.0, 50.0);
    h.key_down(Key::Space);
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    h.hover_at(from + egui::vec2(-60.0, 0.0));
    h.run_steps(1);
    h.drop_at(from + egui::vec2(-120.0, 0.0));
    h.run_steps(2);
    h.key_up(Key::Space);
    h.run_steps(2);
    let node = on_screen(&h, Vec2::new(100000.0, 0.0));
    assert!(
        h.state().viewport.last_rect.contains(node),
        "still in view after the pan"
    );
    h.hover_at(node + egui::vec2(3.0, 0.0));
    h.run_steps(1);
    h.drag_at(node + egui::vec2(3.0, 0.0));
    h.run_steps(1);
    h.drop_at(node + egui::vec2(3.0, 0.0));
    h.run_steps(2);
    assert_eq!(h.state().selection(), vec![NodeId(1)]);
    assert!(!h.state().doc().is_modified(), "a click changes nothing");
}

const PLAIN: &str = "(format: 1, nodes: [(id: 1, name: \"n\", position: (1.0, 2.0))])";

#[test]
fn typed_inf_and_nan_are_refused_and_huge_finite_values_stay_editable() {
    let (_dir, path) = scene_file(PLAIN);
    let mut h = app_on(path);
    h.get_by_label("n").click();
    h.run_steps(10);
    let first_spin = |h: &Harness<GraftApp>| {
        h.query_all_by_role(egui::accesskit::Role::SpinButton)
            .map(|n| n.rect())
            .min_by(|a, b| {
                (a.top(), a.left())
                    .partial_cmp(&(b.top(), b.left()))
                    .unwrap()
            })
            .unwrap()
    };
    let type_into = |h: &mut Harness<GraftApp>, text: &str| {
        let field = first_spin(h);
        type_number(h, field, text);
    };
    for bad in ["inf", "NaN", "-inf", "1e39"] {
        let errors = h
            .state()
            .editor()
            .messages()
            .iter()
            .filter(|m| m.is_error)
            .count();
        type_into(&mut h, bad);
        let x = h.state().scene().node(NodeId(1)).unwrap().local.position.x;
        assert_eq!(x, 1.0, "{bad} is refused");
        assert!(!h.state().doc().is_modified(), "{bad} changes nothing");
        assert_eq!(
            h.state()
                .editor()
                .messages()
                .iter()
                .filter(|m| m.is_error)
                .count(),
            errors + 1,
            "{bad}: one refusal"
        );
        assert!(
            h.state()
                .editor()
                .messages()
                .last()
                .is_some_and(|m| m.is_error && m.text.contains("finite")),
            "{bad}: the user is told why"
        );
        h.get_by_label("OK").click();
        h.run_steps(2);
    }
    type_into(&mut h, "1e30");
    let x = h.state().scene().node(NodeId(1)).unwrap().local.position.x;
    assert_eq!(x, 1e30);
    h.run_steps(3);
    type_into(&mut h, "-2.5e29");
    assert_eq!(
        h.state().scene().node(NodeId(1)).unwrap().local.position.x,
        -2.5e29
    );
}
