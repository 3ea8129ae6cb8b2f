//! The classic wrong answers, computed from the scene after the solution: what a learner who
//! makes that mistake predicts, and the sentence that names it.

use super::{Feedback, Kind, MistakeKind, Predict, Truth, Value, Verdict};
use crate::editor::lesson::names::ValueSpace;
use crate::model::math::{Trs, decompose};
use crate::model::scene::{NodeId, Scene};
use glam::{Affine2, Mat2, Vec2};

/// The scenes a mistake is computed from.
pub struct Scenes<'a> {
    /// The scene after the step's solution.
    pub after: &'a Scene,
    /// After the solution played with keep-world flipped on every reparent (None: the
    /// solution reparents nothing).
    pub flipped: Option<&'a Scene>,
}

/// The value a learner who makes this mistake predicts for `id`, or why the mistake does not
/// apply to this prediction.
pub fn wrong_value(
    predict: &Predict,
    kind: &MistakeKind,
    id: NodeId,
    scenes: &Scenes,
) -> Result<Value, String> {
    let after = scenes.after;
    let world_only = |what: &str| {
        if predict.frame == ValueSpace::World {
            Ok(())
        } else {
            Err(format!("`{what}` is a mistake about a world value"))
        }
    };
    let trs = match kind {
        MistakeKind::Named(v) => return Ok(*v),
        MistakeKind::NoParentRotation => {
            world_only("no-parent-rotation")?;
            decompose(&chain(after, id, unturned)?)
        }
        MistakeKind::ScaleOrder => match predict.frame {
            ValueSpace::World => decompose(&reversed(after, id)?),
            ValueSpace::Local => decompose(&scale_first(&local(after, id)?)),
        },
        MistakeKind::Accumulated => {
            world_only("accumulated")?;
            after.accumulated_world_trs(id).map_err(|e| e.to_string())?
        }
        MistakeKind::LocalAsWorld => match predict.frame {
            ValueSpace::World => local(after, id)?,
            ValueSpace::Local => after.world_trs(id).map_err(|e| e.to_string())?,
        },
        MistakeKind::NoInverse => {
            if predict.frame != ValueSpace::Local {
                return Err("`no-inverse` is a mistake about a local value".into());
            }
            let parent = (after.parent(id).ok().flatten())
                .ok_or("`no-inverse` needs a node that has a parent after the solution")?;
            let (p, w) = (after.world(parent), after.world(id));
            decompose(&(p.map_err(|e| e.to_string())? * w.map_err(|e| e.to_string())?))
        }
        MistakeKind::KeepLocal | MistakeKind::KeepWorld => {
            let flipped = scenes
                .flipped
                .ok_or("`keep-local` and `keep-world` need a solution that reparents a node")?;
            match predict.frame {
                ValueSpace::World => flipped.world_trs(id),
                ValueSpace::Local => flipped.node(id).map(|d| d.local),
            }
            .map_err(|e| e.to_string())?
        }
    };
    Ok(Value::of(&trs, predict.kind))
}

/// The node's local transform.
fn local(scene: &Scene, id: NodeId) -> Result<Trs, String> {
    scene.node(id).map(|d| d.local).map_err(|e| e.to_string())
}

/// The product of the local matrices from the root down to `id`, each made by `matrix` from
/// the node's local transform (`own`: it is `id` itself).
fn chain(
    scene: &Scene,
    id: NodeId,
    matrix: impl Fn(&Trs, bool) -> Affine2,
) -> Result<Affine2, String> {
    let i = scene.index(id).map_err(|e| e.to_string())?;
    let path = scene.path_indices(i);
    Ok(path.iter().fold(Affine2::IDENTITY, |product, &k| {
        product * matrix(&scene.data_at(k).local, k == i)
    }))
}

/// The world matrix with the chain's linear parts multiplied the other way round (the
/// node's own first, the root's last): R·S where the truth is S·R. Its translation is the
/// true one.
fn reversed(scene: &Scene, id: NodeId) -> Result<Affine2, String> {
    let i = scene.index(id).map_err(|e| e.to_string())?;
    let linear = (scene.path_indices(i).iter().rev()).fold(Mat2::IDENTITY, |m, &k| {
        m * scene.data_at(k).local.to_affine().matrix2
    });
    let world = scene.world(id).map_err(|e| e.to_string())?;
    Ok(Affine2::from_mat2_translation(linear, world.translation))
}

/// An ancestor's matrix with its rotation and skew left out (the node keeps its own).
fn unturned(local: &Trs, own: bool) -> Affine2 {
    if own {
        return local.to_affine();
    }
    Trs::new(local.position, 0.0, local.scale, 0.0).to_affine()
}

/// A local matrix composed in the other order: T · S · R (skew kept with the rotation).
fn scale_first(local: &Trs) -> Affine2 {
    let turn = Trs::new(Vec2::ZERO, local.rotation, Vec2::ONE, local.skew).to_affine();
    let scale = Affine2::from_mat2(Mat2::from_diagonal(local.scale));
    Affine2::from_translation(local.position) * scale * turn
}

/// The sentence that names mistake `k` of a prediction (the teacher's, or the built-in one).
pub fn sentence(predict: &Predict, k: usize) -> String {
    let Some(mistake) = predict.mistakes.get(k) else {
        return String::new();
    };
    if let Some(text) = &mistake.text {
        return text.clone();
    }
    let node = &predict.node.text;
    match &mistake.kind {
        MistakeKind::NoParentRotation => format!(
            "That is the local positions added up as they are written: each offset is first turned (and scaled) by every parent above it, so {node}'s lands elsewhere."
        ),
        MistakeKind::ScaleOrder => "That is the other order: scale then rotate (S·R) instead of rotate then scale (R·S). The product's order decides which axes the stretch follows.".into(),
        MistakeKind::KeepLocal => format!(
            "That is where {node} would land keeping its local numbers; Keep world transform was on, so it keeps its place in the world."
        ),
        MistakeKind::KeepWorld => format!(
            "That is where {node} would stay with Keep world transform on; it is off, so the local numbers stay and are read in the new parent's space."
        ),
        MistakeKind::LocalAsWorld if predict.frame == ValueSpace::World => format!(
            "That is {node}'s local value: the parents above it turn and move it on top of that in the world."
        ),
        MistakeKind::LocalAsWorld => format!(
            "That is {node}'s world value: its local value is measured in its parent's space."
        ),
        MistakeKind::NoInverse => "That multiplies by the parent's matrix where its inverse belongs: the new local is inverse(World_parent) · World_node.".into(),
        MistakeKind::Accumulated => "That is where the shortcut puts it, rotations added and scales multiplied: the ghost. The matrix product shears it, because a non-uniform scale sits above a rotation.".into(),
        MistakeKind::Named(_) => "That is a wrong answer this lesson expected.".into(),
    }
}

/// A kind's values as vectors and numbers agree: a named wrong value of the right shape.
pub fn fits(value: Value, kind: Kind) -> bool {
    matches!(
        (value, kind.is_angle()),
        (Value::Number(_), true) | (Value::Vector(_), false)
    )
}

/// Mistake `k`'s name in a report: its name in the lesson file, or the teacher's wrong value.
pub fn name(predict: &Predict, k: usize) -> String {
    match predict.mistakes.get(k).map(|m| &m.kind) {
        Some(MistakeKind::Named(v)) => v.describe(predict.kind),
        Some(kind) => super::MISTAKE_NAMES
            .iter()
            .find(|(_, k)| k == kind)
            .map_or_else(String::new, |(n, _)| n.to_string()),
        None => String::new(),
    }
}

/// Compare a prediction with the truth: right, the nearest mistake within the tolerance, or
/// wrong.
pub fn judge(predict: &Predict, truth: &Truth, prediction: Value) -> Feedback {
    let kind = predict.kind;
    let distance = prediction.distance(truth.answer, kind);
    let answer = truth.answer.describe(kind);
    let off = Value::Number(distance).describe(if kind.is_angle() {
        Kind::Rotation
    } else {
        Kind::Scale
    });
    if distance <= predict.tolerance {
        return Feedback {
            verdict: Verdict::Right,
            distance,
            sentence: format!("Right: {answer} (off by {off})."),
        };
    }
    let nearest = (truth.wrong.iter().enumerate())
        .map(|(k, w)| (k, prediction.distance(*w, kind)))
        .filter(|(_, d)| *d <= predict.tolerance)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match nearest {
        Some((k, _)) => Feedback {
            verdict: Verdict::Mistake(k),
            distance,
            sentence: format!(
                "Not quite: the answer is {answer} ({off} away). {}",
                sentence(predict, k)
            ),
        },
        None => Feedback {
            verdict: Verdict::Wrong,
            distance,
            sentence: format!(
                "Wrong: the answer is {answer}, {off} away. Follow the account below."
            ),
        },
    }
}
