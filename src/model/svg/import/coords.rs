//! Coordinates from attributes: an element's `transform`, the viewBox → viewport map, and
//! lengths in user units (with units and percentages of the viewport).

use super::importer::Importer;
use super::path;
use crate::model::math::try_inverse;
use glam::{DAffine2, DVec2};
use roxmltree::Node;

impl<'a, 'i> Importer<'a, 'i> {
    /// The element's `transform` (identity, with a note, when unreadable or singular).
    pub(super) fn transform(&mut self, node: Node) -> DAffine2 {
        let Some(text) = node.attribute("transform") else {
            return DAffine2::IDENTITY;
        };
        match path::transform_list(text) {
            Ok(m) if try_inverse(&m.as_affine2()).is_ok() => m,
            Ok(_) => {
                self.note(
                    node,
                    "a singular transform (it flattens what it holds) is identity",
                );
                DAffine2::IDENTITY
            }
            Err(e) => {
                self.note(
                    node,
                    format!("transform `{text}` is unreadable ({e}): identity"),
                );
                DAffine2::IDENTITY
            }
        }
    }

    /// The viewBox → viewport map of an `<svg>` or `<symbol>` of size (w, h), and the
    /// viewport its percentages refer to.
    pub(super) fn viewport(
        &mut self,
        node: Node,
        size: (Option<f64>, Option<f64>),
        or: DVec2,
    ) -> (DAffine2, DVec2) {
        let own = DVec2::new(size.0.unwrap_or(or.x), size.1.unwrap_or(or.y));
        let Some(text) = node.attribute("viewBox") else {
            return (DAffine2::IDENTITY, own);
        };
        let par = node.attribute("preserveAspectRatio");
        match path::view_box(text, par, size) {
            Some((m, b)) if try_inverse(&m.as_affine2()).is_ok() => (m, b),
            _ => {
                self.note(node, format!("viewBox `{text}` cannot be used: ignored"));
                (DAffine2::IDENTITY, own)
            }
        }
    }

    /// A length attribute in user units; None when absent or `auto` (a bad one is noted).
    /// `axis`: 0 = x, 1 = y, 2 = a radius (percentages of the viewport's diagonal / √2).
    pub(super) fn length(&mut self, node: Node, name: &str, axis: usize, vp: DVec2) -> Option<f64> {
        let text = node.attribute(name)?.trim();
        let reference = [vp.x, vp.y, (vp.length_squared() / 2.0).sqrt()][axis.min(2)];
        let value = path::length(text, reference);
        if value.is_none() && text != "auto" {
            self.note(node, format!("{name}=\"{text}\" is not a length: ignored"));
        }
        value
    }

    /// Two lengths (x and y), 0 when absent.
    pub(super) fn xy(&mut self, node: Node, [x, y]: [&str; 2], vp: DVec2) -> DVec2 {
        let x = self.length(node, x, 0, vp).unwrap_or(0.0);
        DVec2::new(x, self.length(node, y, 1, vp).unwrap_or(0.0))
    }
}
