//! Figures as pictures: the PNGs of two sample figures (`shear.ron` with every layer and the
//! caption, `sword.ron` with the hand selected) compared pixel by pixel with the ones in
//! `tests/snapshots/`. resvg renders on the CPU with the fonts graft ships, so the pictures are
//! the same on every machine; `UPDATE_SNAPSHOTS=1` rewrites them after an intended change.
//!
//! A missing snapshot fails (with the command that records it) unless recording was asked
//! for: otherwise a deleted or never-committed picture would be written on the spot and then
//! compared with itself, and the test could not fail.

use graft::editor::view::figure::png::render_png;
use graft::editor::view::figure::{FigureOptions, embedded_image, figure_svg};
use graft::model::scene::NodeId;
use resvg::tiny_skia::Pixmap;
use std::path::Path;

/// Whether `UPDATE_SNAPSHOTS` asks for the pictures to be recorded, read as egui_kittest reads
/// it for the viewport snapshots: unset, "0", "false", "no" or "off" compare.
fn recording() -> bool {
    match std::env::var("UPDATE_SNAPSHOTS") {
        Err(_) => false,
        Ok(v) => match v.as_str() {
            "" | "0" | "false" | "no" | "off" => false,
            "1" | "true" | "yes" | "on" | "force" => true,
            other => panic!("Unsupported value for UPDATE_SNAPSHOTS: {other:?}"),
        },
    }
}

/// The figure `name` of `scene` as a PNG.
fn figure_png(scene: &str, selection: Vec<NodeId>) -> Vec<u8> {
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
    render_png(&svg, 1.0).unwrap()
}

/// Compare `png` with `dir/name.png` (or record it there when `record`).
fn compare(dir: &Path, name: &str, png: &[u8], record: bool) {
    let snapshot = dir.join(format!("{name}.png"));
    let new = dir.join(format!("{name}.new.png"));
    if record {
        std::fs::write(&snapshot, png).unwrap();
    }
    if !snapshot.exists() {
        std::fs::write(&new, png).unwrap();
        panic!(
            "{name}: no snapshot {} to compare with (the new picture is {}); record it with \
             `UPDATE_SNAPSHOTS=1 cargo test --test figure_snapshots` and commit it",
            snapshot.display(),
            new.display()
        );
    }
    let want = Pixmap::load_png(&snapshot).unwrap();
    let got = Pixmap::decode_png(png).unwrap();
    assert_eq!((got.width(), got.height()), (want.width(), want.height()));
    let differing = got
        .data()
        .chunks_exact(4)
        .zip(want.data().chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    if differing > 0 {
        std::fs::write(&new, png).unwrap();
        panic!(
            "{name}: {differing} pixels differ; the new picture is {} (`UPDATE_SNAPSHOTS=1 \
             cargo test --test figure_snapshots` records it if the change is intended)",
            new.display()
        );
    }
}

fn check(name: &str, scene: &str, selection: Vec<NodeId>) {
    let png = figure_png(scene, selection);
    compare(Path::new("tests/snapshots"), name, &png, recording());
}

#[test]
fn the_shear_figure_is_as_before() {
    check("figure-shear", "shear.ron", vec![NodeId(2)]);
}

#[test]
fn the_sword_figure_is_as_before() {
    check("figure-sword", "sword.ron", vec![NodeId(3)]);
}

/// The comparison can fail: without a snapshot it panics, says how to record one and records
/// nothing in its place; a different picture fails too. Recording writes the snapshot.
#[test]
fn a_missing_or_different_snapshot_fails_unless_recording() {
    let dir = tempfile::tempdir().unwrap();
    let png = figure_png("sword.ron", vec![NodeId(3)]);
    let missing = std::panic::catch_unwind(|| compare(dir.path(), "absent", &png, false))
        .expect_err("a missing snapshot fails");
    let message = missing
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("UPDATE_SNAPSHOTS=1"), "{message}");
    assert!(!dir.path().join("absent.png").exists(), "nothing recorded");
    assert!(
        dir.path().join("absent.new.png").exists(),
        "the new picture is kept"
    );

    let other = figure_png("shear.ron", vec![NodeId(2)]);
    std::fs::write(dir.path().join("different.png"), &other).unwrap();
    std::panic::catch_unwind(|| compare(dir.path(), "different", &png, false))
        .expect_err("a different picture fails");

    compare(dir.path(), "recorded", &png, true);
    assert_eq!(std::fs::read(dir.path().join("recorded.png")).unwrap(), png);
}
