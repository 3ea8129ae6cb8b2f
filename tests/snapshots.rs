//! Rendered snapshots of the sample scenes through wgpu (software Vulkan, mesa's lavapipe, in
//! CI). Compared against `tests/snapshots/*.png`; `UPDATE_SNAPSHOTS=1 cargo test` rewrites them
//! (a missing snapshot fails otherwise: egui_kittest does not record on its own).
//!
//! The snapshots were made with lavapipe; another rasterizer draws slightly differently, so
//! without it the comparisons cannot be made. They are then skipped, visibly, outside CI (the
//! `..._skipped_without_vulkan_...` test says so in its name and on the terminal), and fail
//! in CI (`CI` set, as `.ci/run` and CI services do), where `.ci/run` installs
//! mesa-vulkan-drivers: a CI run without the driver would otherwise pass comparing nothing.
//! With lavapipe installed, a renderer that cannot start fails the test instead of skipping.

use egui_kittest::Harness;
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where Vulkan's loader looks for drivers (mesa's lavapipe installs `lvp_icd.*.json`).
const ICD_DIRS: [&str; 2] = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"];

fn lavapipe_installed() -> bool {
    ICD_DIRS.iter().any(|dir| {
        std::fs::read_dir(Path::new(dir)).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("lvp_icd"))
        })
    })
}

/// True on CI: `CI` is set to anything but "", "0" or "false".
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// What to do about the comparisons.
#[derive(Debug, PartialEq)]
enum Plan {
    Compare,
    Skip,
    /// Fail, saying why.
    Fail(String),
}

fn plan(lavapipe: bool, ci: bool) -> Plan {
    match (lavapipe, ci) {
        (true, _) => Plan::Compare,
        (false, false) => Plan::Skip,
        (false, true) => Plan::Fail(
            "CI has no Vulkan driver: mesa's lavapipe (mesa-vulkan-drivers, which .ci/run \
             installs) is missing, so the snapshots would compare nothing"
                .into(),
        ),
    }
}

/// Say something on the terminal even though the test harness captures output (it captures
/// `print!`, not writes to stderr itself): a skip must not be silent.
fn tell(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn render(scene: &str) -> Option<Harness<'static, GraftApp>> {
    match plan(lavapipe_installed(), in_ci()) {
        Plan::Compare => {}
        Plan::Skip => {
            tell(&format!(
                "skipped: no Vulkan driver (mesa's lavapipe), {scene} not compared; install \
                 mesa-vulkan-drivers to compare"
            ));
            return None;
        }
        Plan::Fail(why) => panic!("{why}"),
    }
    // lavapipe is there: a renderer that cannot start is a failure, not a skip.
    let renderer = egui_kittest::wgpu::WgpuTestRenderer::new();
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

/// The skip is the only way these tests pass without comparing, and it is allowed only outside
/// CI: the rule is checked for every case (so making CI skip fails here), and this test tells
/// on the terminal which case this run is.
#[test]
fn snapshots_are_skipped_without_vulkan_only_outside_ci() {
    assert_eq!(plan(true, true), Plan::Compare);
    assert_eq!(plan(true, false), Plan::Compare);
    assert_eq!(plan(false, false), Plan::Skip);
    assert!(matches!(plan(false, true), Plan::Fail(why) if why.contains("mesa-vulkan-drivers")));
    let (lavapipe, ci) = (lavapipe_installed(), in_ci());
    match plan(lavapipe, ci) {
        Plan::Compare => {}
        Plan::Skip => {
            tell("skipped: no Vulkan driver (mesa's lavapipe): the snapshot tests compare nothing")
        }
        Plan::Fail(why) => panic!("{why}"),
    }
}
