//! Explaining a node's world matrix: the chain of factors that make it, and where its shear
//! comes from. Pure model code for the inspector and the viewport's overlay.

use super::node_id::NodeId;
use super::types::Scene;
use crate::error::Result;
use crate::model::math::shear_metrics;
use glam::{Affine2, Mat2};

/// Axes further than this from 90° count as sheared (degrees).
pub const SHEAR_TOLERANCE_DEGREES: f32 = 0.01;

/// One factor of `World = M_root · … · M_parent · M_local`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainFactor {
    /// The node whose local matrix this is.
    pub node: NodeId,
    /// Its local matrix.
    pub local: Affine2,
    /// The product of all factors up to and including this one (its world matrix).
    pub product: Affine2,
}

/// Why a node's world matrix is sheared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShearCause {
    /// The world axes are at 90°: no shear.
    NotSheared,
    /// The node's own skew (or its own local) shears it; no ancestor adds any.
    OwnSkew,
    /// The nearest ancestor whose local matrix turns an unsheared chain below it into a
    /// sheared one: a non-uniform scale above a rotation, or a skew of its own.
    Ancestor {
        /// The ancestor to blame.
        cause: NodeId,
        /// True when the ancestor's own skew (not its scale) does it.
        by_skew: bool,
    },
}

fn is_sheared(m: &Mat2) -> bool {
    shear_metrics(&Affine2::from_mat2(*m)).is_sheared(SHEAR_TOLERANCE_DEGREES)
}

impl Scene {
    /// The factors of the node's world matrix from the root down, each with its running product.
    /// The last product is the node's world matrix.
    pub fn matrix_chain(&self, id: NodeId) -> Result<Vec<ChainFactor>> {
        let i = self.index(id)?;
        let mut product = Affine2::IDENTITY;
        Ok(self
            .path_indices(i)
            .into_iter()
            .map(|k| {
                let local = self.data.local(k);
                product *= local;
                ChainFactor {
                    node: self.ids[k],
                    local,
                    product,
                }
            })
            .collect())
    }

    /// Why the node's world matrix is sheared (if it is): walks up from the node, multiplying
    /// local linear parts, and blames the nearest ancestor that turns an unsheared product into a
    /// sheared one.
    pub fn shear_cause(&self, id: NodeId) -> Result<ShearCause> {
        let i = self.index(id)?;
        if !is_sheared(&self.world_at(i).matrix2) {
            return Ok(ShearCause::NotSheared);
        }
        let mut below = self.data.local(i).matrix2;
        let mut at = i;
        while let Some(p) = self.parent_index_at(at) {
            let with_parent = self.data.local(p).matrix2 * below;
            if !is_sheared(&below) && is_sheared(&with_parent) {
                let by_skew = self.data.get(p).local.skew.abs() > SHEAR_TOLERANCE_DEGREES;
                return Ok(ShearCause::Ancestor {
                    cause: self.ids[p],
                    by_skew,
                });
            }
            below = with_parent;
            at = p;
        }
        Ok(ShearCause::OwnSkew)
    }
}
