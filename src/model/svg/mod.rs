//! SVG in and out: a scene written as nested groups that keep its hierarchy (each group the
//! node's local matrix, so the composed transforms are graft's world matrices), and SVG
//! drawings read back as scenes whose groups become nodes.

pub mod animate;
pub mod export;
pub mod html;
pub mod import;
pub mod xml;
