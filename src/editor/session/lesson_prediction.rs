//! A predict step's state in the running lesson, as data: how the learner gives a prediction,
//! the prediction, and the click mode. A leaf: the run holds it and `lesson_predict.rs` acts
//! on it.

use crate::editor::lesson::predict::Value;

/// How the learner gives a prediction.
#[derive(Clone, Debug, PartialEq)]
pub enum PredictInput {
    /// Typed: a number, or `(x, y)`.
    Typed(String),
    /// A click in the viewport at this world point, rounded to multiples of `step`.
    Click {
        /// Where, in the world.
        at: glam::DVec2,
        /// The viewport's snapping step (the grid's with Ctrl, a tenth of it without).
        step: f64,
    },
}

/// The learner's prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// What was predicted.
    pub value: Value,
    /// Given by a click in the viewport.
    pub clicked: bool,
    /// Given after every goal already held (the result was on screen).
    pub late: bool,
}

/// A predict step's state in the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PredictState {
    /// The committed prediction.
    pub prediction: Option<Prediction>,
    /// The next click in the viewport is a prediction.
    pub by_click: bool,
    /// Show me (See it) played the solution.
    pub shown: bool,
}
