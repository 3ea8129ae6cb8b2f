//! The ops that give a node the values of another, field by field (an override applied, a
//! source's change followed).

use super::overrides::FieldSet;
use crate::model::math::Trs;
use crate::model::scene::edit::Op;
use crate::model::scene::{NodeData, NodeId};

/// The ops that set the fields `on` of `node` from `now` back to `base`.
pub(crate) fn value_ops(node: NodeId, on: u16, base: &NodeData, now: &NodeData) -> Vec<Op> {
    let has = |bit| FieldSet(on).has(bit);
    let mut ops = Vec::new();
    if has(FieldSet::NAME) {
        let name = base.name.to_string();
        ops.push(Op::Rename { node, name });
    }
    let (b, n) = (base.local, now.local);
    let local = Trs::new(
        if has(FieldSet::POSITION) {
            b.position
        } else {
            n.position
        },
        if has(FieldSet::ROTATION) {
            b.rotation
        } else {
            n.rotation
        },
        if has(FieldSet::SCALE) {
            b.scale
        } else {
            n.scale
        },
        if has(FieldSet::SKEW) { b.skew } else { n.skew },
    );
    if on & (FieldSet::POSITION | FieldSet::ROTATION | FieldSet::SCALE | FieldSet::SKEW) != 0 {
        ops.push(Op::SetLocal { node, local });
    }
    if on & (FieldSet::SHAPE | FieldSet::COLOR) != 0 {
        let shape = if has(FieldSet::SHAPE) {
            &base.shape
        } else {
            &now.shape
        };
        let color = if has(FieldSet::COLOR) {
            base.color
        } else {
            now.color
        };
        let shape = shape.clone();
        ops.push(Op::SetAppearance { node, shape, color });
    }
    if has(FieldSet::PROBES) {
        let probes = base.probes.to_vec();
        ops.push(Op::SetProbes { node, probes });
    }
    if has(FieldSet::TRACKS) {
        let tracks = base.tracks.to_vec();
        ops.push(Op::SetTracks { node, tracks });
    }
    ops
}
