//! The Godot scenes an import keeps as instance sources: right after importing a `.tscn` that
//! instances others, the window asks whether to keep them as they are (the instances read the
//! `.tscn` files, read-only in graft, so Godot's later edits follow) or to write each as a graft
//! scene in a folder the person picks (what `graft import --sources DIR` does), the instances
//! then naming those `.ron` files.

use crate::editor::session::interchange::{Interchange, SourcesQuestion};
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::SourcesAnswer;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use crate::model::scene::Scene;
use std::path::{Path, PathBuf};

/// What an answer about the instanced Godot scenes leads to, for the router.
pub(super) enum SourcesStep {
    /// Nothing more.
    Done,
    /// Pick the folder (a dialog).
    PickFolder,
    /// Swap in this scene, whose instances name the `.ron` files written in the folder, then
    /// say so ([`Interchange::wrote_sources`]).
    Replace {
        /// The imported scene, its instances naming the written files.
        doc: Box<Document>,
        /// The files written.
        written: Vec<PathBuf>,
        /// The folder.
        dir: PathBuf,
    },
}

impl Interchange {
    /// The pending question about an import's instanced Godot scenes.
    pub(super) fn question(&self) -> Option<&SourcesQuestion> {
        self.question.as_ref()
    }

    /// After an import: ask about the Godot scenes its instances read, if any.
    pub(super) fn ask_about_sources(&mut self, scene: &Scene, imported: String) {
        let sources: Vec<PathBuf> = (scene.instances().map(|t| t.source_files()))
            .unwrap_or_default()
            .into_iter()
            .filter(|p| FileKind::GodotText.is(p))
            .collect();
        self.question = (!sources.is_empty()).then_some(SourcesQuestion { imported, sources });
    }

    /// Carry out the answer as far as this part can: the document (`doc`, as imported) is
    /// read, the router swaps in what is written.
    pub(super) fn answer(
        &mut self,
        answer: SourcesAnswer,
        doc: &Document,
        log: &mut MessageLog,
    ) -> Result<SourcesStep> {
        if self.question.is_none() {
            return Ok(SourcesStep::Done);
        }
        match answer {
            SourcesAnswer::Keep => {
                self.question = None;
                log.info("The instances read their Godot scenes (.tscn, read-only here)");
                Ok(SourcesStep::Done)
            }
            SourcesAnswer::Write(None) => Ok(SourcesStep::PickFolder),
            SourcesAnswer::Write(Some(dir)) => self.write_sources(doc, dir),
        }
    }

    /// Write each instanced Godot scene as a `.ron` in `dir`, and the imported scene whose
    /// instances name them. The scene must be as imported (nothing to lose in the swap); a
    /// failure leaves the question open.
    fn write_sources(&mut self, doc: &Document, dir: PathBuf) -> Result<SourcesStep> {
        if !doc.history().is_empty() || doc.path().is_some() {
            self.question = None;
            return Err(Error::Refused(
                "The scene changed or was saved since the import: import it again to write its parts"
                    .into(),
            ));
        }
        let mut scene = doc.scene().clone();
        let written = crate::model::godot::keep::sources_as_ron(&mut scene, &dir)?;
        // Read back as a file naming the parts would be, so each instance's source is the
        // `.ron` it names (what the disk watch follows and Open source opens).
        let text = crate::model::file::to_ron_string(&scene);
        let scene = crate::model::file::parse(&text, &dir.join("untitled.ron"))?;
        Ok(SourcesStep::Replace {
            doc: Box::new(Document::untitled(scene)),
            written,
            dir,
        })
    }

    /// The written scene is in (as an import's, its journal began again): the question goes,
    /// the report and the status line say what was written.
    pub(super) fn wrote_sources(&mut self, written: &[PathBuf], dir: &Path, log: &mut MessageLog) {
        self.question = None;
        if let Some(report) = self.report_mut() {
            (report.lines).extend(written.iter().map(|f| {
                format!(
                    "wrote {} (an instanced scene, as a graft scene)",
                    f.display()
                )
            }));
        }
        log.info(format!(
            "Wrote {} instanced scene(s) as graft scenes in {}: the instances read them",
            written.len(),
            dir.display()
        ));
    }
}
