//! The sample scenes lessons name with `scene: sample NAME`, compiled into the binary (below
//! the parser, which checks the names, and the course, which parses).

/// The sample scenes by name, as `scene: sample NAME` names them.
const SAMPLES: [(&str, &str); 6] = [
    ("sword", include_str!("../../../scenes/sword.ron")),
    ("shear", include_str!("../../../scenes/shear.ron")),
    ("tank", include_str!("../../../scenes/tank.ron")),
    ("solar", include_str!("../../../scenes/solar.ron")),
    ("flip", include_str!("../../../scenes/flip.ron")),
    ("wheel", include_str!("../../../scenes/wheel.ron")),
];

/// The names `scene: sample NAME` accepts.
pub const SAMPLE_NAMES: [&str; 6] = ["sword", "shear", "tank", "solar", "flip", "wheel"];

/// A sample scene's text.
pub fn sample_scene(name: &str) -> Option<&'static str> {
    SAMPLES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
