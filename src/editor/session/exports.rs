//! Figures and SVG in the session: File > Export as SVG writes the scene's hierarchy as nested
//! groups; File > Export figure keeps the figure's settings (size, scale, layers, caption,
//! which view) and writes it as SVG or PNG, whichever the picked name ends in.

use crate::editor::session::command::Window;
use crate::editor::session::interchange::{Exported, Interchange, InterchangeReport};
use crate::editor::session::jobs::Jobs;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::Outcome;
use crate::editor::session::settings::Settings;
use crate::editor::view::figure::png::{render_png, render_rgba};
use crate::editor::view::figure::{FigureOptions, embedded_image, figure_svg};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::godot::export::{ExportOptions, to_tscn};
use crate::model::godot::export_instance::{Export, export_scene};
use crate::model::godot::tree::find_project_root;
use crate::model::progress::Progress;
use crate::model::progress::Stage;
use crate::model::scene::{NodeId, Scene};
use crate::model::svg::export::{Images, SvgOptions, save_document, save_svg_with_progress};
use rustc_hash::FxHashSet;
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

/// What an export is handed (split borrows built in `routes.rs`): the document it copies, the
/// jobs (a big scene is written on a worker), the message log, and the report with the
/// windows that show it.
pub(super) struct ExportParts<'a> {
    pub(super) doc: &'a Document,
    pub(super) jobs: &'a mut Jobs,
    pub(super) log: &'a mut MessageLog,
    pub(super) interchange: &'a mut Interchange,
    pub(super) windows: &'a mut FxHashSet<Window>,
}

impl ExportParts<'_> {
    /// Write the scene as a Godot 4 (or, with `godot3`, Godot 3) `.tscn` (images as `res://`
    /// paths under the project that holds the target), as `settings` remember it.
    pub(super) fn export_godot(
        &mut self,
        target: PathBuf,
        godot3: bool,
        settings: &Settings,
    ) -> Result<Outcome> {
        let absolute = std::path::absolute(&target).unwrap_or_else(|_| target.clone());
        let options = ExportOptions {
            project_root: find_project_root(&absolute),
            scene_dir: self.doc.sprite_folder(),
            root_name: self
                .doc
                .path()
                .and_then(Path::file_stem)
                .map_or("Root".into(), |s| s.to_string_lossy().into_owned()),
            godot3,
            pixels_per_unit: Some(settings.godot_pixels_per_unit())
                .filter(|&p| p > 1)
                .map(|p| p as f32),
        };
        let keep = !settings.godot_flatten()
            && (self.doc.scene().instances()).is_some_and(|t| t.in_use(self.doc.scene()));
        self.export_job(target, move |scene, target, progress| {
            write_godot(scene, &options, target, progress, keep)
        })
    }

    /// Run an export: at once for a small scene, on a worker (with progress and Cancel) for a
    /// big one, on a copy of the scene as it is now.
    pub(super) fn export_job(
        &mut self,
        target: PathBuf,
        write: impl FnOnce(&Scene, &Path, &Progress) -> Result<Option<Exported>> + Send + 'static,
    ) -> Result<Outcome> {
        if self.doc.scene().len() < self.jobs.save_nodes() {
            let done = write(self.doc.scene(), &target, &Progress::new())?;
            return Ok(done.map_or_else(Outcome::default, |e| {
                (self.interchange).exported(e, self.windows, self.log)
            }));
        }
        let scene = self.doc.scene().clone();
        let name = crate::editor::session::jobs::file_name(&target);
        self.jobs.start_job(
            self.doc,
            format!("Exporting {name}"),
            "graft-export",
            (Stage::Formatting, 0),
            move |progress| {
                let result = write(&scene, &target, progress);
                drop(scene);
                match result {
                    Ok(Some(done)) if !progress.is_cancelled() => Some(Ok(
                        crate::editor::session::jobs::Finished::Exported(Box::new(done)),
                    )),
                    Ok(_) => None,
                    Err(e) => Some(Err(e)),
                }
            },
        )?;
        self.log.info(format!("Exporting {name} in the background"));
        Ok(Outcome::default())
    }
}

/// Write `scene` as a Godot scene to `target` (formatting, then writing); None when the
/// progress was cancelled before the file was written.
fn write_godot(
    scene: &Scene,
    options: &ExportOptions,
    target: &Path,
    progress: &Progress,
    keep_instances: bool,
) -> Result<Option<Exported>> {
    progress.enter(Stage::Formatting, 0);
    let Export {
        text,
        parts,
        report,
    } = if keep_instances {
        export_scene(scene, options, target)
    } else {
        let (text, report) = to_tscn(scene, options);
        Export {
            text,
            report,
            ..Export::default()
        }
    };
    if progress.is_cancelled() {
        return Ok(None);
    }
    progress.enter(Stage::Writing, text.len() as u64);
    let parts = write_parts(&parts, target)?;
    crate::model::atomic_write::replace_with(target, |w| w.write_all(text.as_bytes()))
        .map_err(|e| Error::Refused(format!("Could not export: {e}")))?;
    progress.set_done(text.len() as u64);
    let how = if keep_instances {
        ", instances kept"
    } else {
        ""
    };
    let mut lines = vec![format!(
        "exported {} nodes under one root Node2D{how} to {}",
        scene.len(),
        target.display()
    )];
    lines.extend(parts);
    if options.project_root.is_none() {
        lines.push("no project.godot above the target: images are not written".into());
    }
    lines.extend(
        report
            .renamed
            .iter()
            .map(|r| format!("renamed {r} (Godot needs unique, valid sibling names)")),
    );
    lines.extend(report.notes);
    let notes = lines.len() - 1;
    Ok(Some(Exported {
        said: format!("Exported {} ({notes} notes)", target.display()),
        report: Some(InterchangeReport {
            title: format!("Exported {}", target.display()),
            lines,
        }),
    }))
}

/// Write an export's parts (instanced scenes) beside `target`, a file of that name that graft
/// did not write kept as NAME.bak; a line for each.
fn write_parts(parts: &[(String, String)], target: &Path) -> Result<Vec<String>> {
    use crate::model::atomic_write::{Backup, write_atomically};
    let absolute = std::path::absolute(target).unwrap_or_else(|_| target.to_path_buf());
    let dir = crate::model::scene::sprites::folder_of(&absolute);
    let mut lines = Vec::new();
    for (name, text) in parts {
        let part = dir.join(name);
        write_atomically(&part, Backup::Keep, |w| w.write_all(text.as_bytes()))
            .map_err(|e| Error::Refused(format!("Could not write the part {name}: {e}")))?;
        lines.push(format!("wrote {} (an instanced scene)", part.display()));
    }
    Ok(lines)
}
