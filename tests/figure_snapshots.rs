//! Figures as pictures: the PNGs of two sample figures (`shear.ron` with every layer and the
//! caption, `sword.ron` with the hand selected) compared pixel by pixel with the ones in
//! `tests/snapshots/`. resvg renders on the CPU with the fonts graft ships, so the pictures are
//! the same on every machine; `UPDATE_SNAPSHOTS=1` rewrites them after an intended change.

use graft::editor::view::figure::png::render_png;
use graft::editor::view::figure::{FigureOptions, embedded_image, figure_svg};
use graft::model::scene::NodeId;
use resvg::tiny_skia::Pixmap;
use std::path::Path;

fn check(name: &str, scene: &str, selection: Vec<NodeId>) {
    let path = Path::new("scenes").join(scene);
    let mut s = graft::model::file::load(&path).unwrap();
    s.update_world();
    let options = FigureOptions {
        size: (640, 400),
        selection,
        ..FigureOptions::default()
    };
    let svg = figure_svg(&s, &options, &|p| {
        embedded_image(Some(Path::new("scenes")), p)
    });
    let png = render_png(&svg, 1.0).unwrap();
    let snapshot = Path::new("tests/snapshots").join(format!("{name}.png"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() || !snapshot.exists() {
        std::fs::write(&snapshot, &png).unwrap();
    }
    let want = Pixmap::load_png(&snapshot).unwrap();
    let got = Pixmap::decode_png(&png).unwrap();
    assert_eq!((got.width(), got.height()), (want.width(), want.height()));
    let differing = got
        .data()
        .chunks_exact(4)
        .zip(want.data().chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    if differing > 0 {
        let new = Path::new("tests/snapshots").join(format!("{name}.new.png"));
        std::fs::write(&new, &png).unwrap();
        panic!(
            "{name}: {differing} pixels differ; the new picture is {}",
            new.display()
        );
    }
}

#[test]
fn the_shear_figure_is_as_before() {
    check("figure-shear", "shear.ron", vec![NodeId(2)]);
}

#[test]
fn the_sword_figure_is_as_before() {
    check("figure-sword", "sword.ron", vec![NodeId(3)]);
}
