//! The answer of a prediction spelled out from the matrix chain, as the inspector's Matrix
//! chain section writes it: "hand: (5, 2) + R(90°)·(0, 4) = (1, 2)", line by line.

use super::{Kind, Predict, Value};
use crate::editor::lesson::names::ValueSpace;
use crate::editor::view::numbers::{format_angle, format_display, format_fixed};
use crate::model::math::decompose;
use crate::model::scene::{NodeId, Scene};
use glam::{Affine2, Vec2};

/// A matrix's top two rows as two text lines, columns aligned (the third row is always
/// 0 0 1): the inspector's compact matrix.
pub fn matrix_rows(m: &Affine2) -> String {
    let [a, b, c, d, e, f] = m.to_cols_array().map(|v| format_fixed(v as f64, 3));
    let width = [&a, &b, &c, &d, &e, &f]
        .iter()
        .map(|s| s.len())
        .max()
        .unwrap_or(5);
    let row = |x: &str, y: &str, z: &str| format!("│{x:>width$} {y:>width$} {z:>width$}│");
    format!("{}\n{}", row(&a, &c, &e), row(&b, &d, &f))
}

fn num(v: f32) -> String {
    format_display((f64::from(v) * 1000.0).round() / 1000.0)
}

fn vec(v: Vec2) -> String {
    format!("({}, {})", num(v.x), num(v.y))
}

fn deg(a: f32) -> String {
    format!("{}°", format_angle(f64::from(a), 0, 2))
}

/// A linear part as a person writes it: nothing (identity), `R(90°)`, `R(90°)·S(2, 1)`, or
/// its rows when it shears.
fn linear(m: &Affine2) -> String {
    let t = decompose(&Affine2::from_mat2(m.matrix2));
    let one = (t.scale - Vec2::ONE).abs().max_element() < 1e-4;
    if t.skew.abs() > 0.01 {
        let [a, b, c, d, _, _] = m.to_cols_array();
        return format!("[{} {}; {} {}]", num(a), num(c), num(b), num(d));
    }
    match (t.rotation.abs() < 1e-4, one) {
        (true, true) => String::new(),
        (false, true) => format!("R({})", deg(t.rotation)),
        (true, false) => format!("S{}", vec(t.scale)),
        (false, false) => format!("R({})·S{}", deg(t.rotation), vec(t.scale)),
    }
}

/// The account of the answer: the chain written out, then each factor's step.
pub fn account(scene: &Scene, id: NodeId, predict: &Predict) -> Vec<String> {
    let Ok(chain) = scene.matrix_chain(id) else {
        return Vec::new();
    };
    let name = |n: NodeId| scene.label(n);
    let factors: Vec<String> = chain
        .iter()
        .map(|f| format!("M_{}", name(f.node)))
        .collect();
    let mut lines = vec![format!("World_{} = {}", name(id), factors.join(" · "))];
    if predict.frame == ValueSpace::Local {
        return local_account(scene, id, predict, lines);
    }
    let mut parent = Affine2::IDENTITY;
    for factor in &chain {
        let local = factor.local.translation;
        let line = match predict.kind {
            Kind::Position if parent == Affine2::IDENTITY => {
                format!("{}: {}", name(factor.node), vec(factor.product.translation))
            }
            Kind::Position => {
                let turn = linear(&parent);
                let dot = if turn.is_empty() { "" } else { "·" };
                format!(
                    "{}: {} + {turn}{dot}{} = {}",
                    name(factor.node),
                    vec(parent.translation),
                    vec(local),
                    vec(factor.product.translation)
                )
            }
            _ => {
                let t = decompose(&factor.product);
                format!(
                    "{}: local {} → world rotation {}, scale {}, skew {}",
                    name(factor.node),
                    linear_or_one(&factor.local),
                    deg(t.rotation),
                    vec(t.scale),
                    deg(t.skew)
                )
            }
        };
        lines.push(line);
        parent = factor.product;
    }
    lines
}

fn linear_or_one(m: &Affine2) -> String {
    let l = linear(m);
    if l.is_empty() { "1".into() } else { l }
}

/// A local value: inverse(World_parent) · World_node, both written out.
fn local_account(
    scene: &Scene,
    id: NodeId,
    predict: &Predict,
    mut lines: Vec<String>,
) -> Vec<String> {
    let local = scene.node(id).map(|d| d.local).unwrap_or_default();
    let parent = scene.parent(id).ok().flatten();
    let (Some(parent), Ok(world)) = (parent, scene.world(id)) else {
        lines.push(format!(
            "{} is a root: its local is its world, {}",
            predict.node.text,
            Value::of(&local, predict.kind).describe(predict.kind)
        ));
        return lines;
    };
    let parent_name = scene.label(parent);
    let pw = scene.world(parent).unwrap_or(Affine2::IDENTITY);
    lines.push(format!(
        "local = inverse(World_{parent_name}) · World_{}",
        predict.node.text
    ));
    lines.push(format!("World_{parent_name} ="));
    lines.extend(matrix_rows(&pw).lines().map(str::to_string));
    lines.push(format!("World_{} =", predict.node.text));
    lines.extend(matrix_rows(&world).lines().map(str::to_string));
    lines.push(format!(
        "local {} = {}",
        predict.kind.word(),
        Value::of(&local, predict.kind).describe(predict.kind)
    ));
    lines
}
