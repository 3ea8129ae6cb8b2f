//! The argument types and value parsers the command line shares with the modules that run its
//! subcommands (`interchange.rs` takes [`FigureArgs`]), below both.

use clap::Args;
use std::path::PathBuf;

/// Arguments of `graft figure`.
#[derive(Args, Debug)]
pub struct FigureArgs {
    /// The scene file (.ron or .tscn).
    pub file: PathBuf,
    /// The figure to write: .svg or .png.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Width x height in CSS pixels.
    #[arg(long, default_value = "1600x1000")]
    pub size: String,
    /// Device pixels per CSS pixel (PNG).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
    /// Highlight this node (a name or an id) and caption its matrix chain.
    #[arg(long, value_name = "NAME|ID")]
    pub select: Option<String>,
    /// Comma list of grid, axes, links, names, shear, selection, trails, ghosts, parent-space,
    /// own-space, probes (or all, none; trails are on by default for --animate with --select).
    #[arg(long, default_value = "all")]
    pub layers: String,
    /// Leave out the matrix-chain caption.
    #[arg(long)]
    pub no_caption: bool,
    /// Draw the clip frame by frame into an animated GIF (.gif) or APNG (.png), looping as
    /// the clip does.
    #[arg(long)]
    pub animate: bool,
    /// Frames per second of --animate.
    #[arg(long, default_value_t = 30)]
    pub fps: u32,
    /// A still of the clip at this playback time (framed like the animation's frames).
    #[arg(long, value_name = "SECONDS", conflicts_with = "animate", allow_negative_numbers = true, value_parser = finite_seconds)]
    pub time: Option<f32>,
}

/// A `--time` value: a finite number of seconds.
pub fn finite_seconds(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(t) if t.is_finite() => Ok(t),
        _ => Err(format!("`{text}` is not a finite number of seconds")),
    }
}

/// A `--pixels-per-unit` value: a finite number above zero.
pub fn pixels_per_unit(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err(format!(
            "expected a number of pixels per unit above zero (like 64), not {text:?}"
        )),
    }
}
