//! Numbers that vary per learner (`vary:` lines): each is drawn from its range by a seed kept
//! in the learner's progress, so a learner always gets the same numbers and two learners
//! different ones. A step's placeholders (`{angle}`, `{arm.rotation}`, `{world(sword).x}`)
//! are replaced once the step's start is known, and its task lines read again.

use super::names::{Name, Pos};
use crate::model::math::Trs;
use crate::model::scene::Scene;
use std::collections::BTreeMap;

/// A task line as written (read again once its placeholders have numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its key (`goal`, `do`…).
    pub key: String,
    /// Its value as written.
    pub value: String,
    /// Where the line starts.
    pub at: Pos,
    /// Where its value starts.
    pub value_at: Pos,
}

/// Which local value a `vary:` line sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// The rotation.
    Rotation,
    /// The skew.
    Skew,
    /// The position's x.
    PositionX,
    /// The position's y.
    PositionY,
    /// The scale's x.
    ScaleX,
    /// The scale's y.
    ScaleY,
}

/// What a `vary:` line draws a number for.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A variable, `{NAME}`.
    Var(String),
    /// A node's local value, set when the step starts.
    Local {
        /// The node.
        node: Name,
        /// Which value.
        channel: Channel,
    },
}

/// A `vary:` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// What it draws for.
    pub target: Target,
    /// The range's low end.
    pub low: f32,
    /// Its high end.
    pub high: f32,
    /// The step between the values drawn.
    pub by: f32,
    /// The lesson's own number (`default V`), drawn by seed 0.
    pub default: Option<f32>,
    /// Where it was written.
    pub at: Pos,
    /// The number drawn (None until drawn).
    pub value: Option<f32>,
}

/// The variables drawn so far in a lesson (a later step sees an earlier step's).
pub type Variables = BTreeMap<String, f64>;

/// A number from `low` to `high` by `by`, chosen by the seed, the lesson, the step and the
/// line: the same inputs always give the same number. Seed 0 is the lesson as written: its
/// `default`, else `low`.
pub fn draw(vary: &Vary, seed: u64, lesson_id: &str, step: usize, index: usize) -> f32 {
    if seed == 0 {
        return vary.default.unwrap_or(vary.low);
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for byte in lesson_id
        .bytes()
        .chain(step.to_le_bytes())
        .chain(index.to_le_bytes())
    {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let count = ((vary.high - vary.low) / vary.by + 1e-4).floor() as u32;
    let k = fastrand::Rng::with_seed(hash).u32(0..=count);
    let v = f64::from(vary.low) + f64::from(k) * f64::from(vary.by);
    ((v * 1e6).round() / 1e6) as f32
}

/// A local transform with a drawn value set.
pub fn set_channel(mut local: Trs, channel: Channel, v: f32) -> Trs {
    match channel {
        Channel::Rotation => local.rotation = v,
        Channel::Skew => local.skew = v,
        Channel::PositionX => local.position.x = v,
        Channel::PositionY => local.position.y = v,
        Channel::ScaleX => local.scale.x = v,
        Channel::ScaleY => local.scale.y = v,
    }
    local
}

/// A placeholder's number: terms added and subtracted, factors multiplied, each operator
/// between spaces (`{turn + arm.rotation}`, `{2 * world(sword).x}`; a name may hold `-`),
/// each atom a number or what [`lookup`] finds.
pub fn evaluate(expr: &str, atom: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
    let value = |a: &str| a.trim().parse::<f64>().ok().or_else(|| atom(a.trim()));
    let product =
        |term: &str| -> Option<f64> { term.split(" * ").try_fold(1.0, |p, f| Some(p * value(f)?)) };
    let mut total = 0.0;
    let mut sign = 1.0;
    let mut rest = expr;
    loop {
        let plus = rest.find(" + ");
        let minus = rest.find(" - ");
        let (end, next) = match (plus, minus) {
            (Some(p), Some(m)) if m < p => (m, -1.0),
            (Some(p), _) => (p, 1.0),
            (None, Some(m)) => (m, -1.0),
            (None, None) => return Some(total + sign * product(rest)?),
        };
        total += sign * product(&rest[..end])?;
        sign = next;
        rest = &rest[end + 3..];
    }
}

/// The number a placeholder names: a variable, `NODE.rotation` (`.skew`, `.x`, `.y`,
/// `.scale.x`, `.scale.y`) of the node's local values, or the same of `world(NODE)`, read
/// from `scene` (the step's start).
pub fn lookup(expr: &str, variables: &Variables, scene: &Scene) -> Option<f64> {
    if let Some(v) = variables.get(expr) {
        return Some(*v);
    }
    let (node, world, field) = match expr.strip_prefix("world(") {
        Some(rest) => {
            let (node, field) = rest.split_once(")")?;
            (node, true, field.strip_prefix('.')?)
        }
        None => {
            let (node, field) = expr.split_once('.')?;
            (node, false, field)
        }
    };
    let node = node.trim().trim_matches('"');
    let mut named = (0..scene.len()).filter(|&i| scene.data_at(i).name == node);
    let (Some(i), None) = (named.next(), named.next()) else {
        return None;
    };
    let id = scene.id_at(i);
    let trs = if world {
        scene.world_trs(id).ok()?
    } else {
        scene.node(id).ok()?.local
    };
    let v = match field {
        "rotation" => trs.rotation,
        "skew" => trs.skew,
        "x" | "position.x" => trs.position.x,
        "y" | "position.y" => trs.position.y,
        "scale.x" => trs.scale.x,
        "scale.y" => trs.scale.y,
        _ => return None,
    };
    Some(f64::from(v))
}
