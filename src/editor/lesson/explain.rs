//! What the checklist says about a goal or keep: what it checks (the predicate as written,
//! and the shape a world-position keep holds too) and, for a broken keep, what changed
//! ("the sword moved in the world: (2, 3) -> (2.5, 3)").

use super::eval::{Context, held_shape};
use super::parse::cut;
use super::{Goal, Predicate, Property, ValueSpace};
use crate::editor::view::numbers::format_significant;
use crate::model::math::Trs;

/// What a goal or keep checks, in the lesson's own words (shown under its label); `goals`
/// are the step's goals when `goal` is a keep.
pub fn what_it_checks(goal: &Goal, goals: Option<&[Goal]>) -> String {
    let mut text = cut(&goal.check);
    let held = goals.and_then(|g| held_shape(&goal.predicate, g));
    if let Some(held) = held {
        let names = ["rotation", "scale", "skew"];
        let kept: Vec<&str> = (0..3).filter(|&i| held[i]).map(|i| names[i]).collect();
        let list = match kept.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        if !list.is_empty() {
            text.push_str(&format!(", and its world {list} as at the start"));
        }
    }
    text
}

/// A number as the checklist shows it (four significant digits).
fn num(v: f32) -> String {
    format_significant(f64::from(v), 4)
}

/// A vector as the checklist shows it: `(2, 3)`.
fn vec(v: glam::Vec2) -> String {
    format!("({}, {})", num(v.x), num(v.y))
}

/// What changed, for a keep that no longer holds (None: it holds).
pub fn what_changed(context: &Context, predicate: &Predicate, goals: &[Goal]) -> Option<String> {
    if context.keep_holds(predicate, goals) {
        return None;
    }
    let change = describe_change(context, predicate, goals);
    Some(change.unwrap_or_else(|| "it no longer holds".into()))
}

fn describe_change(context: &Context, predicate: &Predicate, goals: &[Goal]) -> Option<String> {
    let scene = context.session.scene();
    let gone = |name: &str| format!("the {} is gone", cut(name));
    match predicate {
        Predicate::Transform {
            node, frame, value, ..
        } => {
            let Some(id) = context.node(node) else {
                return Some(gone(&node.text));
            };
            let trs = match frame {
                ValueSpace::Local => scene.node(id).ok()?.local,
                ValueSpace::World => scene.world_trs(id).ok()?,
            };
            if !context.holds(predicate) {
                return Some(value_change(&node.text, *frame, *value, &trs));
            }
            let (_, start) = context.shape_kept(predicate, goals)?;
            Some(shape_change(&node.text, &start, &trs))
        }
        Predicate::Parent { node, .. } => {
            let id = context.node(node)?;
            let parent = scene.parent(id).ok().flatten();
            let now = parent
                .filter(|p| scene.contains(*p))
                .map(|p| cut(&scene.label(p)));
            Some(match now {
                Some(p) => format!("the {} now hangs from the {p}", cut(&node.text)),
                None => format!("the {} is now a root", cut(&node.text)),
            })
        }
        Predicate::Shear { node, zero } => Some(format!(
            "the {} is {}sheared now",
            cut(&node.text),
            if *zero { "" } else { "no longer " }
        )),
        Predicate::Selected(node) => Some(format!("the {} is no longer selected", cut(&node.text))),
        Predicate::Deleted(node) | Predicate::Exists(node) => Some(gone(&node.text)),
        _ => None,
    }
}

/// "the sword moved in the world: (2, 3) -> (2.5, 3)".
fn value_change(name: &str, frame: ValueSpace, wanted: Property, now: &Trs) -> String {
    let name = cut(name);
    let (verb, space) = match frame {
        ValueSpace::World => ("", "in the world"),
        ValueSpace::Local => ("local ", "in its parent"),
    };
    match wanted {
        Property::Position(p) => format!(
            "the {name} moved {space}: {} -> {}",
            vec(p),
            vec(now.position)
        ),
        Property::Rotation(r) => format!(
            "the {name}'s {verb}rotation changed: {}° -> {}°",
            num(r),
            num(now.rotation)
        ),
        Property::Scale(s) => format!(
            "the {name}'s {verb}scale changed: {} -> {}",
            vec(s),
            vec(now.scale)
        ),
        Property::Skew(k) => format!(
            "the {name}'s {verb}skew changed: {}° -> {}°",
            num(k),
            num(now.skew)
        ),
    }
}

/// "the sword kept its place but turned in the world: 90° -> 45°".
fn shape_change(name: &str, start: &Trs, now: &Trs) -> String {
    let mut parts = Vec::new();
    if (start.rotation - now.rotation).abs() > 1e-3 {
        parts.push(format!(
            "rotation {}° -> {}°",
            num(start.rotation),
            num(now.rotation)
        ));
    }
    if (start.scale - now.scale).abs().max_element() > 1e-4 {
        parts.push(format!("scale {} -> {}", vec(start.scale), vec(now.scale)));
    }
    if (start.skew - now.skew).abs() > 1e-3 {
        parts.push(format!("skew {}° -> {}°", num(start.skew), num(now.skew)));
    }
    format!(
        "the {} kept its place but changed shape in the world: {}",
        cut(name),
        parts.join(", ")
    )
}
