//! Figures and SVG in the session: File > Export as SVG writes the scene's hierarchy as nested
//! groups; File > Export figure keeps the figure's settings (size, scale, layers, caption,
//! which view) and writes it as SVG or PNG, whichever the picked name ends in.

use super::figure::{FigureOptions, embedded_image, figure_svg};
use super::interchange::Exported;
use super::render::render_png;
use super::session::{Editor, Outcome};
use crate::error::{Error, Result};
use crate::model::svg::export::{Images, save_svg_with_progress};
use std::path::{Path, PathBuf};

impl Editor {
    /// The figure's settings (File > Export figure).
    pub fn figure_options(&self) -> &FigureOptions {
        &self.figure
    }

    /// The figure as SVG text, with sprites embedded from the scene's folder.
    pub fn figure_svg(&self) -> String {
        let dir = self
            .doc
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let mut options = self.figure.clone();
        options.selection = self.selection.clone();
        figure_svg(self.doc.scene(), &options, &|path| {
            embedded_image(dir.as_deref(), path)
        })
    }

    /// Write the figure to `path`: `.png` rendered from the SVG, anything else as the SVG.
    pub(super) fn export_figure(&mut self, path: PathBuf) -> Result<Outcome> {
        let svg = self.figure_svg();
        let png = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let bytes = if png {
            render_png(&svg, self.figure.scale)?
        } else {
            svg.into_bytes()
        };
        crate::file::atomic_write_with(&path, |w| w.write_all(&bytes))
            .map_err(|e| Error::Refused(format!("Could not write the figure: {e}")))?;
        self.info(format!("Wrote the figure {}", path.display()));
        Ok(Outcome::default())
    }

    /// Write the scene as SVG groups (images embedded) to `path`.
    pub(super) fn export_svg(&mut self, path: PathBuf) -> Result<Outcome> {
        let dir = self
            .doc
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
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
