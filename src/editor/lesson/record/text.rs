//! How a recorded lesson writes a name, a number, a point, a switch and the space the view looks
//! from (the words `parse/` reads back).

use super::step::Look;
use crate::model::scene::{NodeId, Scene};
use glam::Vec2;

pub fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// A node's name as a lesson writes it, when no other node of `scene` has it.
pub fn unique_name(scene: &Scene, id: NodeId) -> Option<String> {
    let name = scene.node(id).ok()?.name.as_str();
    let count = (0..scene.len())
        .filter(|&i| scene.data_at(i).name == name)
        .count();
    (count == 1).then(|| quoted(name))
}

/// A name as a lesson writes it: bare when it is a plain word, quoted otherwise.
pub fn quoted(name: &str) -> String {
    const KEYWORDS: [&str; 14] = [
        "to",
        "root",
        "none",
        "under",
        "at",
        "in",
        "is",
        "not",
        "world",
        "local",
        "parent",
        "selection",
        "keep-world",
        "keep-local",
    ];
    let mut chars = name.chars();
    let bare = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !KEYWORDS.contains(&name);
    if bare {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

pub fn look_text(scene: &Scene, look: Look) -> Option<String> {
    match look {
        Look::World => Some("world".into()),
        Look::Parent => Some("parent".into()),
        Look::Selection => Some("selection".into()),
        Look::Node(id) => unique_name(scene, id),
    }
}

/// A number as a lesson writes it: four decimals at most, exact when tiny or huge.
pub fn num(value: f32) -> String {
    if value == 0.0 {
        return "0".into();
    }
    if value.abs() < 1e-3 || value.abs() >= 1e6 {
        return format!("{value}");
    }
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

pub fn vec(v: Vec2) -> String {
    format!("({}, {})", num(v.x), num(v.y))
}

/// The name of a node of `scene` (quoted as needed), or a placeholder no node has.
pub fn name_in(scene: &Scene, id: NodeId) -> String {
    scene
        .node(id)
        .map_or_else(|_| format!("\"#{}\"", id.0), |d| quoted(&d.name))
}
