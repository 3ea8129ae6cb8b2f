//! Predict steps (`predict:` and `mistake:` lines): before acting, the learner commits to a
//! value a node will have after the step's solution (a world position by a click or typed, an
//! angle typed); once the action happened the prediction is compared with the answer, and a
//! prediction near a classic wrong answer (computed in [`mistakes`]) gets a sentence naming
//! that mistake. [`account`] spells the answer out from the matrix chain.

pub mod account;
pub mod mark;
pub mod mistakes;

use crate::editor::lesson::names::{Name, Pos, ValueSpace};
use crate::model::math::{Trs, normalize_degrees};

/// Which value of the node a prediction is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A position `(x, y)`.
    Position,
    /// A rotation in degrees.
    Rotation,
    /// A scale `(x, y)`.
    Scale,
    /// A skew in degrees.
    Skew,
}

impl Kind {
    /// True for the kinds that are angles.
    pub fn is_angle(self) -> bool {
        matches!(self, Kind::Rotation | Kind::Skew)
    }

    /// The word in a lesson file.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Position => "position",
            Kind::Rotation => "rotation",
            Kind::Scale => "scale",
            Kind::Skew => "skew",
        }
    }
}

/// A predicted, true or wrong value: a number (an angle) or a vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A number.
    Number(f32),
    /// A vector.
    Vector(glam::Vec2),
}

impl Value {
    /// This kind's value of a transform.
    pub fn of(trs: &Trs, kind: Kind) -> Value {
        match kind {
            Kind::Position => Value::Vector(trs.position),
            Kind::Rotation => Value::Number(trs.rotation),
            Kind::Scale => Value::Vector(trs.scale),
            Kind::Skew => Value::Number(trs.skew),
        }
    }

    /// How far apart two values are (angles a whole turn apart are equal); infinite when one
    /// is a number and the other a vector.
    pub fn distance(self, other: Value, kind: Kind) -> f32 {
        match (self, other) {
            (Value::Number(a), Value::Number(b)) if kind.is_angle() => {
                normalize_degrees(f64::from(a) - f64::from(b)).abs() as f32
            }
            (Value::Number(a), Value::Number(b)) => (a - b).abs(),
            (Value::Vector(a), Value::Vector(b)) => a.distance(b),
            _ => f32::INFINITY,
        }
    }

    /// As the inspector shows it: `(2, 3)`, `36.87°`.
    pub fn describe(self, kind: Kind) -> String {
        use crate::editor::view::numbers::{format_angle, format_display};
        match self {
            Value::Number(a) if kind.is_angle() => format!("{}°", format_angle(f64::from(a), 0, 3)),
            Value::Number(a) => format_display(round3(a)),
            Value::Vector(v) => format!(
                "({}, {})",
                format_display(round3(v.x)),
                format_display(round3(v.y))
            ),
        }
    }
}

/// A value rounded to three decimals (what feedback shows).
fn round3(v: f32) -> f64 {
    (f64::from(v) * 1000.0).round() / 1000.0
}

/// The classic wrong answers graft computes (and a teacher's own).
#[derive(Clone, Debug, PartialEq)]
pub enum MistakeKind {
    /// Local positions added without the parents' rotations.
    NoParentRotation,
    /// The chain multiplied the other way round: R·S where the truth is S·R (and the reverse).
    ScaleOrder,
    /// The keep-local landing where keep-world was asked.
    KeepLocal,
    /// The keep-world landing where keep-local was asked.
    KeepWorld,
    /// The node's local value taken as its world value (or the reverse).
    LocalAsWorld,
    /// The parent's matrix used where its inverse belongs.
    NoInverse,
    /// Rotations added and scales multiplied along the chain (the accumulated ghost).
    Accumulated,
    /// A wrong answer the teacher wrote down.
    Named(Value),
}

/// The built-in mistakes by their names in lesson files.
pub const MISTAKE_NAMES: [(&str, MistakeKind); 7] = [
    ("no-parent-rotation", MistakeKind::NoParentRotation),
    ("scale-order", MistakeKind::ScaleOrder),
    ("keep-local", MistakeKind::KeepLocal),
    ("keep-world", MistakeKind::KeepWorld),
    ("local-as-world", MistakeKind::LocalAsWorld),
    ("no-inverse", MistakeKind::NoInverse),
    ("accumulated", MistakeKind::Accumulated),
];

/// An expected wrong answer of a prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    /// Which.
    pub kind: MistakeKind,
    /// The teacher's sentence (None: the built-in one).
    pub text: Option<String>,
    /// Where it was written.
    pub at: Pos,
}

/// A step's prediction: the value of a node after the step's solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Predict {
    /// The node.
    pub node: Name,
    /// Local or world.
    pub frame: ValueSpace,
    /// Which value.
    pub kind: Kind,
    /// A prediction this close counts as right (and this close to a mistake, as that mistake).
    pub tolerance: f32,
    /// The question the panel asks.
    pub question: String,
    /// The expected wrong answers, in order.
    pub mistakes: Vec<Mistake>,
    /// Where `predict:` was written.
    pub at: Pos,
}

impl Predict {
    /// True when the learner may answer by a click in the viewport: a position, world or local
    /// (a point where the node will land).
    pub fn by_click(&self) -> bool {
        self.kind == Kind::Position
    }

    /// What the learner is asked to give: "the world position (x, y)".
    pub fn asks_for(&self) -> String {
        let frame = match self.frame {
            ValueSpace::World => "world",
            ValueSpace::Local => "local",
        };
        let form = if self.kind.is_angle() {
            "in degrees"
        } else {
            "as (x, y)"
        };
        format!("{}'s {frame} {} {form}", self.node.text, self.kind.word())
    }
}

/// Default tolerance of a predicted length (a click lands about this close).
pub const PREDICT_LENGTH_TOLERANCE: f32 = 0.25;
/// Default tolerance of a predicted angle, in degrees.
pub const PREDICT_ANGLE_TOLERANCE: f32 = 2.0;

/// The true answer of a step's prediction and each of its mistakes' values, computed by
/// playing the step's solution (`graft lesson check` and the panel alike).
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The node's value after the solution.
    pub answer: Value,
    /// Each mistake's wrong value, in the order of [`Predict::mistakes`].
    pub wrong: Vec<Value>,
    /// The answer spelled out from the matrix chain, line by line.
    pub account: Vec<String>,
    /// The space a predicted local value is read in: the node's parent's world matrix after
    /// the solution (identity for a world value or a root).
    pub space: glam::Affine2,
}

impl Truth {
    /// The value a click at world point `at` predicts: the point itself, or for a local
    /// position the point in the space the node will hang in.
    pub fn clicked(&self, at: glam::Vec2) -> glam::Vec2 {
        self.space.inverse().transform_point2(at)
    }

    /// Where a predicted position is drawn in the world.
    pub fn to_world(&self, p: glam::Vec2) -> glam::Vec2 {
        self.space.transform_point2(p)
    }
}

/// What a prediction was, as the panel tells it.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Within the tolerance of the answer.
    Right,
    /// Within the tolerance of this mistake (its index).
    Mistake(usize),
    /// Near neither.
    Wrong,
}

/// A prediction compared with the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Feedback {
    /// Right, a named mistake, or plain wrong.
    pub verdict: Verdict,
    /// How far the prediction is from the answer.
    pub distance: f32,
    /// What the panel says.
    pub sentence: String,
}

/// A prediction the learner typed: a number, or `(x, y)` / `x, y` for a vector kind.
pub fn read_typed(text: &str, kind: Kind) -> Option<Value> {
    let clean: String = text
        .replace(['(', ')', '°'], " ")
        .replace('−', "-")
        .trim()
        .to_string();
    let numbers: Vec<f32> = clean
        .split([',', ' ', ';'])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<f32>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()?;
    match (kind.is_angle(), numbers.as_slice()) {
        (true, [a]) => Some(Value::Number(*a)),
        (false, [x, y]) => Some(Value::Vector(glam::vec2(*x, *y))),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
