//! The session's clipboard: copied subtrees (Ctrl+C / Ctrl+V / Ctrl+D work on these), and a
//! transform as text (the inspector's Copy / Paste of a local or world transform).

use crate::model::file;
use crate::model::instance::Registration;
use crate::model::math::Trs;
use crate::model::scene::DetachedSubtree;
use glam::Vec2;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Copied subtrees, each with its world placement kept so a paste lands where the copy was,
/// and the instance rows of the instances among them (a paste makes instances again).
#[derive(Default)]
pub struct Clipboard {
    subtrees: Vec<DetachedSubtree>,
    instances: Vec<Registration>,
    /// The file the copy was made in (its instances' source paths are relative to it).
    host: Option<PathBuf>,
}

impl Clipboard {
    /// What was copied last.
    pub fn subtrees(&self) -> &[DetachedSubtree] {
        &self.subtrees
    }

    /// The rows of the copied instances, and the file they were copied from.
    pub fn instances(&self) -> (&[Registration], Option<&Path>) {
        (&self.instances, self.host.as_deref())
    }

    /// True when nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.subtrees.is_empty()
    }

    /// Replace what was copied: the subtrees, their instances' rows, the file they are from.
    pub fn set(
        &mut self,
        subtrees: Vec<DetachedSubtree>,
        instances: Vec<Registration>,
        host: Option<PathBuf>,
    ) {
        self.subtrees = subtrees;
        self.instances = instances;
        self.host = host;
    }
}

/// A transform's text, as parsed: the transform fields of a scene-file node.
#[derive(Deserialize)]
#[serde(rename = "Transform", deny_unknown_fields)]
struct TrsText {
    #[serde(default)]
    position: (f32, f32),
    #[serde(default)]
    rotation: f32,
    #[serde(default = "unit_scale")]
    scale: (f32, f32),
    #[serde(default)]
    skew: f32,
}

/// Scale (1, 1): the default of a scale left out.
fn unit_scale() -> (f32, f32) {
    (1.0, 1.0)
}

/// A transform as the fields of a scene-file node, for copy and paste:
/// `position: (x, y), rotation: r, scale: (x, y), skew: k` (reads back bit-exact).
pub fn trs_to_text(t: &Trs) -> String {
    format!(
        "position: {}, rotation: {}, scale: {}, skew: {}",
        file::pair(t.position),
        file::float(t.rotation),
        file::pair(t.scale),
        file::float(t.skew)
    )
}

/// Parse text written by [`trs_to_text`]; fields may be left out (they take their defaults),
/// and surrounding parentheses are optional.
pub fn trs_from_text(text: &str) -> std::result::Result<Trs, String> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(trimmed);
    let parsed: TrsText = ron::Options::default()
        .with_recursion_limit(file::RECURSION_LIMIT)
        .from_str(&format!("({inner})"))
        .map_err(|e| {
            format!(
                "not a transform: {} (expected e.g. `position: (1.0, 2.0), rotation: 90.0`)",
                e.code
            )
        })?;
    let t = Trs::new(
        Vec2::new(parsed.position.0, parsed.position.1),
        parsed.rotation,
        Vec2::new(parsed.scale.0, parsed.scale.1),
        parsed.skew,
    );
    match t.first_non_finite() {
        Some(field) => Err(format!("not a transform: {field} is not a finite number")),
        None => Ok(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_text_round_trips_and_refuses_nonsense() {
        let t = Trs::new(Vec2::new(-0.0, 1e-40), 90.0, Vec2::new(-1.0, 0.3), 12.5);
        let text = trs_to_text(&t);
        assert_eq!(
            text,
            "position: (-0.0, 1e-40), rotation: 90.0, scale: (-1.0, 0.3), skew: 12.5"
        );
        let back = trs_from_text(&text).unwrap();
        assert_eq!(back.position.x.to_bits(), t.position.x.to_bits());
        assert_eq!(back, t);
        assert_eq!(trs_from_text(&format!("({text})")).unwrap(), t);
        assert_eq!(
            trs_from_text("rotation: 45").unwrap(),
            Trs::new(Vec2::ZERO, 45.0, Vec2::ONE, 0.0)
        );
        assert!(
            trs_from_text("rotation: NaN")
                .unwrap_err()
                .contains("rotation is not a finite number")
        );
        assert!(
            trs_from_text("rotaton: 4")
                .unwrap_err()
                .contains("not a transform")
        );
        assert!(trs_from_text("banana").is_err());
    }
}
