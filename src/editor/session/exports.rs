//! Figures and SVG in the session: File > Export as SVG writes the scene's hierarchy as nested
//! groups; File > Export figure keeps the figure's settings (size, scale, layers, caption,
//! which view) and writes it as SVG or PNG, whichever the picked name ends in.

use crate::editor::session::Outcome;
use crate::editor::session::interchange::{ExportParts, Exported};
use crate::editor::view::figure::png::{render_png, render_rgba};
use crate::editor::view::figure::{FigureOptions, embedded_image, figure_svg};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::progress::Stage;
use crate::model::scene::{NodeId, Scene};
use crate::model::svg::export::{Images, SvgOptions, save_document, save_svg_with_progress};
use std::path::{Path, PathBuf};

/// A figure apart from the session: its settings (with the selection) and the folder its
/// sprites are read from.
#[derive(Clone, Debug)]
pub struct FigureSpec {
    options: FigureOptions,
    dir: Option<PathBuf>,
}

impl FigureSpec {
    /// The figure of `scene` as SVG text, sprites embedded.
    pub fn svg(&self, scene: &Scene) -> String {
        figure_svg(scene, &self.options, &|path| {
            embedded_image(self.dir.as_deref(), path)
        })
    }
}

impl FigureSpec {
    /// The figure `options` of `doc` with the `selection` and the playback `time`, apart from
    /// the session (to draw on another thread).
    pub(super) fn of(
        options: &FigureOptions,
        doc: &Document,
        selection: &[NodeId],
        time: f32,
    ) -> Self {
        let mut options = options.clone();
        options.selection = selection.to_vec();
        options.time = time;
        FigureSpec {
            options,
            dir: doc.sprite_folder(),
        }
    }
}

/// What the figure depends on, cheap to compare between frames: its settings, the selection,
/// the playback time and the scene's versions (a 1M-node figure takes seconds to write out).
pub(super) fn figure_key(
    options: &FigureOptions,
    doc: &Document,
    selection: &[NodeId],
    time: f32,
) -> u64 {
    use std::hash::{Hash, Hasher};
    let scene = doc.scene();
    let mut h = rustc_hash::FxHasher::default();
    format!("{options:?}").hash(&mut h);
    selection.hash(&mut h);
    // The ghosts layer draws the world-blend ghosts at the playback time.
    time.to_bits().hash(&mut h);
    doc.path().hash(&mut h);
    (scene.structure_version(), scene.appearance_version()).hash(&mut h);
    scene.world_version().hash(&mut h);
    h.finish()
}

/// The preview's work: `scene` (a copy) drawn as `spec` says at `scale` (RGBA, straight
/// alpha) wherever it is run.
pub(super) fn preview_job(
    spec: FigureSpec,
    scene: Scene,
    scale: f32,
) -> impl FnOnce() -> Result<(u32, u32, Vec<u8>)> + Send + 'static {
    move || render_rgba(&spec.svg(&scene), scale)
}

impl ExportParts<'_> {
    /// Write the figure (`spec`) to `path`: `.png` rendered from the SVG, anything else as the
    /// SVG (on a worker for a big scene, like the other exports).
    pub(super) fn export_figure(&mut self, path: PathBuf, spec: FigureSpec) -> Result<Outcome> {
        let scale = spec.options.scale;
        let png = crate::model::file_kind::FileKind::Png.is(&path);
        self.export_job(path, move |scene, path, progress| {
            progress.enter(Stage::Formatting, 0);
            let svg = spec.svg(scene);
            let bytes = if png {
                render_png(&svg, scale)?
            } else {
                svg.into_bytes()
            };
            if progress.is_cancelled() {
                return Ok(None);
            }
            progress.enter(Stage::Writing, bytes.len() as u64);
            crate::model::atomic_write::replace_with(path, |w| w.write_all(&bytes))
                .map_err(|e| Error::Refused(format!("Could not write the figure: {e}")))?;
            Ok(Some(Exported {
                said: format!("Wrote the figure {}", path.display()),
                report: None,
            }))
        })
    }

    /// Write the clip as animated SVG, or (for an `.html` name) the page that plays it, or
    /// (`.gif`, `.png`) the figure drawn frame by frame at 30 fps, on a worker with progress
    /// and Cancel (the frames drawn as the figure, `spec`, says).
    pub(super) fn export_animation(&mut self, path: PathBuf, spec: FigureSpec) -> Result<Outcome> {
        if let Some(format) = crate::editor::view::figure::frames::FrameFormat::for_path(&path) {
            return self.export_frames(path, format, spec);
        }
        let dir = self.doc.sprite_folder();
        let html = crate::model::file_kind::FileKind::Html.is(&path);
        self.export_job(path, move |scene, path, progress| {
            let options = SvgOptions {
                scene_dir: dir,
                svg_dir: path.parent().map(Path::to_path_buf),
                images: Images::Embed,
                animate: true,
            };
            let Some(notes) = save_document(scene, path, &options, html, progress)
                .map_err(|e| Error::Refused(format!("Could not export: {e}")))?
            else {
                return Ok(None);
            };
            let what = if html {
                "an HTML page that plays it"
            } else {
                "animated SVG"
            };
            let extra = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            };
            Ok(Some(Exported {
                said: format!("Exported {} as {what}{extra}", path.display()),
                report: None,
            }))
        })
    }

    /// Write the figure's frames over the clip at 30 fps as a GIF or APNG.
    fn export_frames(
        &mut self,
        path: PathBuf,
        format: crate::editor::view::figure::frames::FrameFormat,
        spec: FigureSpec,
    ) -> Result<Outcome> {
        use crate::editor::view::figure::frames::{FramePlan, encode_clip};
        let plan = FramePlan::for_clip(self.doc.scene(), 30)?;
        self.export_job(path, move |scene, path, progress| {
            let href = |p: &str| embedded_image(spec.dir.as_deref(), p);
            let Some(bytes) = encode_clip(scene, &spec.options, &plan, format, &href, progress)?
            else {
                return Ok(None);
            };
            progress.enter(Stage::Writing, bytes.len() as u64);
            crate::model::atomic_write::replace_with(path, |w| w.write_all(&bytes))
                .map_err(|e| Error::Refused(format!("Could not write the animation: {e}")))?;
            let said = format!(
                "Wrote {} ({} frames at 30 fps)",
                path.display(),
                plan.times.len()
            );
            Ok(Some(Exported { said, report: None }))
        })
    }

    /// Write the scene as SVG groups (images embedded) to `path`.
    pub(super) fn export_svg(&mut self, path: PathBuf) -> Result<Outcome> {
        let dir = self.doc.sprite_folder();
        self.export_job(path, move |scene, path, progress| {
            let Some(notes) =
                save_svg_with_progress(scene, path, Images::Embed, dir.as_deref(), progress)
                    .map_err(|e| Error::Refused(format!("Could not export: {e}")))?
            else {
                return Ok(None);
            };
            let extra = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            };
            Ok(Some(Exported {
                said: format!(
                    "Exported {} as SVG: one group per node{extra}",
                    path.display()
                ),
                report: None,
            }))
        })
    }
}
