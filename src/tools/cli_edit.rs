//! `graft mirror` and `graft reset-local`: the Node menu's one-step transform edits, headless.

use super::cli_print::short;
use super::failure::Failure;
use crate::model::math::{MirrorAxis, Trs};
use crate::model::scene::NodeId;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// The axis `graft mirror` flips.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AxisArg {
    /// Left and right swap (the node's x scale negated): Node ▸ Mirror horizontally.
    X,
    /// Up and down swap (the node's y scale negated): Node ▸ Mirror vertically.
    Y,
}

/// Arguments of `graft mirror` and `graft reset-local`.
#[derive(Args, Debug)]
pub struct NodeEditArgs {
    /// The scene file.
    pub file: PathBuf,
    /// The ids of the nodes to change (repeat or separate with commas).
    #[arg(long, value_delimiter = ',', required = true)]
    pub node: Vec<u32>,
    /// Write the result here instead of in place.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Mirror each node about its own origin (its subtree flips with it), or reset its local
/// transform when `axis` is None; save; say what changed.
pub fn edit_nodes(
    args: &NodeEditArgs,
    axis: Option<AxisArg>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut scene = super::progress::load(&args.file)?;
    let change = |local: Trs| match axis {
        Some(AxisArg::X) => local.mirrored(MirrorAxis::Horizontal),
        Some(AxisArg::Y) => local.mirrored(MirrorAxis::Vertical),
        None => Trs::IDENTITY,
    };
    let mut lines = Vec::new();
    for &id in &args.node {
        let node = NodeId(id);
        let before = scene.node(node)?.local;
        let after = change(before);
        scene.set_local(node, after)?;
        lines.push(format!(
            "node {node}: scale ({}, {}) → ({}, {}), position ({}, {}) → ({}, {})",
            short(before.scale.x),
            short(before.scale.y),
            short(after.scale.x),
            short(after.scale.y),
            short(before.position.x),
            short(before.position.y),
            short(after.position.x),
            short(after.position.y),
        ));
    }
    let target = args.output.as_deref().unwrap_or(&args.file);
    super::progress::save(&scene, target)?;
    for line in lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "wrote {}", target.display())?;
    Ok(())
}
