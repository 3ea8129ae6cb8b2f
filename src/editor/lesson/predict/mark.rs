//! Where the viewport draws a prediction next to the result: the predicted and the true world
//! point, or for an angle the two directions from the node's origin.

use super::{Kind, Predict, Truth, Value};
use crate::editor::lesson::names::ValueSpace;
use crate::editor::view::prediction_prims::PredictionMark;
use crate::model::scene::{NodeId, Scene};

/// The mark of a prediction of node `id` (None for a scale, which has no place to draw).
pub fn mark(
    predict: &Predict,
    truth: &Truth,
    prediction: Value,
    scene: &Scene,
    id: NodeId,
) -> Option<PredictionMark> {
    let off = prediction.distance(truth.answer, predict.kind);
    let note = if predict.kind.is_angle() {
        format!("{}° off", round(off))
    } else {
        format!("{} off", round(off))
    };
    let world = scene.world_trs(id).ok()?;
    let parent_world = match scene.parent(id).ok()? {
        Some(p) => scene.world_trs(p).ok()?,
        None => Default::default(),
    };
    match (predict.kind, prediction, truth.answer) {
        (Kind::Position, Value::Vector(p), Value::Vector(t)) => {
            let to_world = |v: glam::Vec2| match predict.frame {
                ValueSpace::World => Some(v),
                ValueSpace::Local => scene
                    .parent(id)
                    .ok()?
                    .map_or(Some(v), |p| Some(scene.world(p).ok()?.transform_point2(v))),
            };
            Some(PredictionMark::Point {
                predicted: to_world(p)?,
                truth: to_world(t)?,
                note,
            })
        }
        (kind, Value::Number(p), Value::Number(t)) if kind.is_angle() => {
            // A local angle is measured from the parent's axes; a skew from the y axis.
            let mut base = match predict.frame {
                ValueSpace::World => 0.0,
                ValueSpace::Local => parent_world.rotation,
            };
            if kind == Kind::Skew {
                base += 90.0
                    + match predict.frame {
                        ValueSpace::World => world.rotation,
                        ValueSpace::Local => scene.node(id).ok()?.local.rotation,
                    };
            }
            Some(PredictionMark::Angle {
                origin: world.position,
                predicted: base + p,
                truth: base + t,
                note,
            })
        }
        _ => None,
    }
}

fn round(v: f32) -> String {
    crate::editor::view::numbers::format_display((f64::from(v) * 100.0).round() / 100.0)
}
