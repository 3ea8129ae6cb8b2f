//! Rendered snapshots of the sample scenes through wgpu (software Vulkan, mesa's lavapipe, in
//! CI). Compared against `tests/snapshots/*.png`; `UPDATE_SNAPSHOTS=1 cargo test` rewrites them.
//! Without lavapipe, or without any adapter at all, the tests say so and skip (`.ci/run`
//! installs mesa-vulkan-drivers so that CI compares).

use egui_kittest::Harness;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use std::panic::catch_unwind;
use std::path::PathBuf;

/// The snapshots were made with mesa's lavapipe; another rasterizer draws slightly differently,
/// so without lavapipe the comparison is skipped rather than failed.
fn lavapipe_installed() -> bool {
    std::fs::read_dir("/usr/share/vulkan/icd.d")
        .map(|dir| {
            dir.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("lvp_icd"))
        })
        .unwrap_or(false)
}

fn render(scene: &str) -> Option<Harness<'static, GraftApp>> {
    if !lavapipe_installed() {
        eprintln!("skipped: mesa's lavapipe (mesa-vulkan-drivers) is not installed");
        return None;
    }
    // Only finding a GPU adapter may fail quietly (kittest's renderer panics when there is
    // none); it is probed before the app exists, so a panic in the app fails the test.
    let renderer = catch_unwind(egui_kittest::wgpu::WgpuTestRenderer::new);
    let Ok(renderer) = renderer else {
        eprintln!("skipped: no wgpu adapter here (install mesa-vulkan-drivers)");
        return None;
    };
    let path = PathBuf::from("scenes").join(scene);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 760.0))
        .renderer(renderer)
        .build_eframe(move |cc| GraftApp::new(cc, Some(path), Box::new(FakeDialogs::default())));
    h.run_steps(6);
    Some(h)
}

fn snapshot(scene: &str) {
    if let Some(mut h) = render(scene) {
        h.snapshot(scene.trim_end_matches(".ron"));
    }
}

#[test]
fn sword_renders_as_before() {
    snapshot("sword.ron");
}

#[test]
fn shear_renders_as_before() {
    snapshot("shear.ron");
}

#[test]
fn flip_renders_as_before() {
    snapshot("flip.ron");
}
