//! The clip as frames: GIF and APNG drawn frame by frame through the figure renderer (one
//! source: frame k is the still figure at time k / fps), with one camera for the whole clip
//! (fitted to where the scene goes over it, so nothing jumps), delays that add up to the
//! clip, and a loop that matches its mode (Loop and PingPong repeat; Once plays once and holds
//! the last frame). Frames are encoded as they are drawn, so memory stays at one frame; a GIF
//! has one palette for all of them (`palette.rs`), so a colour is the same in every frame.

use crate::editor::view::camera::Camera;
use crate::editor::view::draw_list::{DrawList, Name};
use crate::editor::view::figure::palette::{Palette, exact_colors};
use crate::editor::view::figure::png::render_rgba;
use crate::editor::view::figure::{FigureOptions, figure_svg_after, scene_rect};
use crate::error::{Error, Result};
use crate::model::anim::LoopMode;
use crate::model::progress::Progress;
use crate::model::scene::Scene;

/// The most frames an export draws (a 10-minute clip at 60 fps would be 36,000).
pub const MAX_FRAMES: usize = 3_000;

/// Which file the frames go into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameFormat {
    /// An animated GIF (256 colours a frame, delays in hundredths of a second).
    Gif,
    /// An animated PNG (exact colours, delays as fractions of a second).
    Apng,
}

impl FrameFormat {
    /// The format a file name asks for (`.gif`, `.png` / `.apng`).
    pub fn for_path(path: &std::path::Path) -> Option<Self> {
        use crate::model::file_kind::FileKind;
        match FileKind::of(path)? {
            FileKind::Gif => Some(Self::Gif),
            FileKind::Png => Some(Self::Apng),
            _ => None,
        }
    }
}

/// The frames of a clip: the playback time of each, and whether the file loops forever.
#[derive(Clone, Debug, PartialEq)]
pub struct FramePlan {
    /// Playback times, k / fps.
    pub times: Vec<f32>,
    /// Frames per second.
    pub fps: u32,
    /// Repeat forever (Loop, PingPong) or play once (Once).
    pub repeat: bool,
}

impl FramePlan {
    /// The frames of a clip at `fps`: Loop's one pass without its end (the end is the start
    /// again), Once's pass with its end (held), PingPong's forward and back pass.
    pub fn for_clip(scene: &Scene, fps: u32) -> Result<Self> {
        if !(1..=120).contains(&fps) {
            return Err(Error::Refused(format!(
                "frames per second must be 1 to 120 (not {fps})"
            )));
        }
        let clip = scene.clip();
        let pass = (clip.length as f64 * fps as f64).round().max(1.0) as usize;
        let count = match clip.mode {
            LoopMode::Loop => pass,
            LoopMode::Once => pass + 1,
            LoopMode::PingPong => 2 * pass,
        };
        if count > MAX_FRAMES {
            return Err(Error::Refused(format!(
                "{count} frames is too many (at most {MAX_FRAMES}): lower --fps or shorten the clip"
            )));
        }
        Ok(Self {
            times: (0..count).map(|k| (k as f64 / fps as f64) as f32).collect(),
            fps,
            repeat: clip.mode != LoopMode::Once,
        })
    }

    /// Frame k's delay in hundredths of a second (GIF), rounded so the delays add up to the
    /// clip: round(100·(k+1)/fps) − round(100·k/fps).
    pub fn gif_delay(&self, k: usize) -> u16 {
        let at = |k: usize| (100.0 * k as f64 / self.fps as f64).round() as i64;
        (at(k + 1) - at(k)).clamp(1, u16::MAX as i64) as u16
    }
}

/// The camera for every frame: the figure's, or one fitted to the scene over the whole clip.
pub fn clip_camera(scene: &Scene, options: &FigureOptions) -> Camera {
    if let Some(camera) = options.camera {
        return camera;
    }
    let mut camera = Camera::default();
    if let Some((lo, hi)) = crate::model::svg::export::animated_bounds(scene) {
        camera.fit(scene_rect(scene, options), lo, hi);
        camera.zoom *= super::FIGURE_FIT;
    }
    camera
}

/// The scene posed at playback time `t`, world matrices current.
pub fn posed(scene: &Scene, t: f32) -> Scene {
    let mut posed = scene.clone();
    posed.set_pose_at(t);
    posed.update_world();
    posed
}

/// The still figure at playback time `t` as RGBA pixels (what frame k is at `t` = k / fps).
pub fn frame_rgba(
    scene: &Scene,
    options: &FigureOptions,
    t: f32,
    href: &dyn Fn(&str) -> Option<String>,
) -> Result<(u32, u32, Vec<u8>)> {
    frame_rgba_after(scene, options, t, href, &DrawList::default())
}

/// [`frame_rgba`] drawn after the frame whose draw list was `previous`: frame k of a GIF or
/// APNG is this, after frame k − 1 (its names keep their places; a still places them afresh).
pub fn frame_rgba_after(
    scene: &Scene,
    options: &FigureOptions,
    t: f32,
    href: &dyn Fn(&str) -> Option<String>,
    previous: &DrawList,
) -> Result<(u32, u32, Vec<u8>)> {
    let (svg, _) = frame_svg(&posed(scene, t), options, t, href, previous);
    render_rgba(&svg, options.scale)
}

/// The figure of a scene already posed at playback time `t`, drawn after the frame whose
/// draw list was `previous` (names keep their places), and its draw list.
fn frame_svg(
    posed: &Scene,
    options: &FigureOptions,
    t: f32,
    href: &dyn Fn(&str) -> Option<String>,
    previous: &DrawList,
) -> (String, DrawList) {
    let options = FigureOptions {
        time: t,
        ..options.clone()
    };
    figure_svg_after(posed, &options, href, true, previous)
}

/// The names each frame of `plan` writes, where the GIF and APNG write them (one list a frame,
/// each placed after the one before, as [`encode_clip`] places them).
pub fn frame_names(scene: &Scene, options: &FigureOptions, plan: &FramePlan) -> Vec<Vec<Name>> {
    let mut options = options.clone();
    options.camera = Some(clip_camera(scene, &options));
    let mut working = scene.clone();
    let mut previous = DrawList::default();
    let mut out = Vec::with_capacity(plan.times.len());
    for &t in &plan.times {
        working.set_pose_at(t);
        working.update_world();
        previous = frame_svg(&working, &options, t, &|_| None, &previous).1;
        out.push(previous.names.clone());
    }
    out
}

/// Draw and encode every frame; `progress` counts frames and can cancel (None: cancelled).
pub fn encode_clip(
    scene: &Scene,
    options: &FigureOptions,
    plan: &FramePlan,
    format: FrameFormat,
    href: &dyn Fn(&str) -> Option<String>,
    progress: &Progress,
) -> Result<Option<Vec<u8>>> {
    let mut options = options.clone();
    options.camera = Some(clip_camera(scene, &options));
    progress.enter(
        crate::model::progress::Stage::Drawing,
        plan.times.len() as u64,
    );
    let mut encoder: Option<Encoder> = None;
    let mut palette = match format {
        FrameFormat::Gif => Some(gif_palette(scene, &options, plan, href)?),
        FrameFormat::Apng => None,
    };
    // One copy posed frame after frame: only the animated nodes' subtrees are recomputed.
    let mut working = scene.clone();
    let mut previous = DrawList::default();
    for (k, &t) in plan.times.iter().enumerate() {
        if progress.is_cancelled() {
            return Ok(None);
        }
        working.set_pose_at(t);
        working.update_world();
        let svg;
        (svg, previous) = frame_svg(&working, &options, t, href, &previous);
        let (w, h, mut rgba) = render_rgba(&svg, options.scale)?;
        let encoder = match encoder.as_mut() {
            Some(e) => e,
            None => encoder.insert(Encoder::new(format, w, h, plan, palette.as_ref())?),
        };
        encoder.frame(&mut rgba, plan, k, palette.as_mut())?;
        progress.set_done(k as u64 + 1);
    }
    encoder.map_or(Ok(Some(Vec::new())), |e| e.finish().map(Some))
}

/// Frames sampled to build a GIF's palette, at most.
const PALETTE_SAMPLES: usize = 8;

/// The GIF's one palette: the scene's and the figure's colours exactly, the rest from a few
/// frames spread over the clip.
fn gif_palette(
    scene: &Scene,
    options: &FigureOptions,
    plan: &FramePlan,
    href: &dyn Fn(&str) -> Option<String>,
) -> Result<Palette> {
    let n = plan.times.len();
    let picks = n.min(PALETTE_SAMPLES);
    let mut samples = Vec::with_capacity(picks);
    for s in 0..picks {
        let t = plan.times[s * n / picks];
        samples.push(frame_rgba(scene, options, t, href)?.2);
    }
    Ok(Palette::build(&exact_colors(scene), &samples))
}

/// A GIF or APNG being written frame by frame.
enum Encoder {
    Gif(gif::Encoder<Vec<u8>>, u16, u16),
    Apng(png::Writer<Sink>, Sink),
}

/// A byte buffer the PNG writer writes into and the caller keeps (png's writer only ever
/// finishes, it does not hand its output back).
#[derive(Clone, Default)]
struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn encoding(e: impl std::fmt::Display) -> Error {
    Error::Refused(format!("Could not encode the animation: {e}"))
}

impl Encoder {
    fn new(
        format: FrameFormat,
        w: u32,
        h: u32,
        plan: &FramePlan,
        palette: Option<&Palette>,
    ) -> Result<Self> {
        match format {
            FrameFormat::Gif => {
                let (gw, gh) = (
                    u16::try_from(w).map_err(encoding)?,
                    u16::try_from(h).map_err(encoding)?,
                );
                let global = palette.map(Palette::bytes).unwrap_or_default();
                let mut e = gif::Encoder::new(Vec::new(), gw, gh, &global).map_err(encoding)?;
                if plan.repeat {
                    e.set_repeat(gif::Repeat::Infinite).map_err(encoding)?;
                }
                Ok(Self::Gif(e, gw, gh))
            }
            FrameFormat::Apng => {
                let sink = Sink::default();
                let mut e = png::Encoder::new(sink.clone(), w, h);
                e.set_color(png::ColorType::Rgba);
                e.set_depth(png::BitDepth::Eight);
                let plays = if plan.repeat { 0 } else { 1 };
                e.set_animated(plan.times.len() as u32, plays)
                    .map_err(encoding)?;
                e.set_frame_delay(1, u16::try_from(plan.fps).map_err(encoding)?)
                    .map_err(encoding)?;
                Ok(Self::Apng(e.write_header().map_err(encoding)?, sink))
            }
        }
    }

    fn frame(
        &mut self,
        rgba: &mut [u8],
        plan: &FramePlan,
        k: usize,
        palette: Option<&mut Palette>,
    ) -> Result<()> {
        match self {
            Self::Gif(e, w, h) => {
                let mut frame = match palette {
                    Some(p) => gif::Frame::from_indexed_pixels(*w, *h, p.map(rgba), None),
                    None => gif::Frame::from_rgba_speed(*w, *h, rgba, 10),
                };
                frame.delay = plan.gif_delay(k);
                e.write_frame(&frame).map_err(encoding)
            }
            Self::Apng(w, _) => w.write_image_data(rgba).map_err(encoding),
        }
    }

    fn finish(self) -> Result<Vec<u8>> {
        match self {
            Self::Gif(e, ..) => e.into_inner().map_err(encoding),
            Self::Apng(w, sink) => {
                w.finish().map_err(encoding)?;
                Ok(sink.0.take())
            }
        }
    }
}
