//! The Godot scenes an import keeps as instance sources: right after importing a `.tscn` that
//! instances others, the window asks whether to keep them as they are (the instances read the
//! `.tscn` files, read-only in graft, so Godot's later edits follow) or to write each as a graft
//! scene in a folder the person picks (what `graft import --sources DIR` does), the instances
//! then naming those `.ron` files.

use crate::editor::session::interchange::{SourcesAnswer, SourcesQuestion};
use crate::editor::session::{DialogPurpose, Editor, Outcome};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_kind::FileKind;
use std::path::PathBuf;

impl Editor {
    /// The pending question about an import's instanced Godot scenes (the window shows it);
    /// None while its folder is being picked (the dialog, or the typed path, has the keyboard).
    pub fn sources_question(&self) -> Option<&SourcesQuestion> {
        if self.files.asking_for_a_path() {
            return None;
        }
        self.sources_question.as_ref()
    }

    /// After an import: ask about the Godot scenes its instances read, if any.
    pub(super) fn ask_about_sources(&mut self, imported: String) {
        let scene = self.doc.scene();
        let sources: Vec<PathBuf> = (scene.instances().map(|t| t.source_files()))
            .unwrap_or_default()
            .into_iter()
            .filter(|p| FileKind::GodotText.is(p))
            .collect();
        self.sources_question =
            (!sources.is_empty()).then_some(SourcesQuestion { imported, sources });
    }

    /// Carry out the answer.
    pub(super) fn answer_sources(&mut self, answer: SourcesAnswer) -> Result<Outcome> {
        if self.sources_question.is_none() {
            return Ok(Outcome::default());
        }
        match answer {
            SourcesAnswer::Keep => {
                self.sources_question = None;
                self.info("The instances read their Godot scenes (.tscn, read-only here)");
                Ok(Outcome::default())
            }
            SourcesAnswer::Write(None) => Ok(self.start_dialog(DialogPurpose::ImportSources)),
            SourcesAnswer::Write(Some(dir)) => self.write_sources(dir),
        }
    }

    /// Write each instanced Godot scene as a `.ron` in `dir` and make the imported scene's
    /// instances name them. The scene must be as imported (nothing to lose in the swap); a
    /// failure leaves the question open.
    fn write_sources(&mut self, dir: PathBuf) -> Result<Outcome> {
        if !self.doc.history().is_empty() || self.doc.path().is_some() {
            self.sources_question = None;
            return Err(Error::Refused(
                "The scene changed or was saved since the import: import it again to write its parts"
                    .into(),
            ));
        }
        let mut scene = self.doc.scene().clone();
        let written = crate::model::godot::keep::sources_as_ron(&mut scene, &dir)?;
        // Read back as a file naming the parts would be, so each instance's source is the
        // `.ron` it names (what the disk watch follows and Open source opens).
        let text = crate::model::file::to_ron_string(&scene);
        let scene = crate::model::file::parse(&text, &dir.join("untitled.ron"))?;
        // As an import does: the journal starts again from this scene.
        let outcome = self.replace_document(Document::untitled(scene));
        self.sources_question = None;
        if let Some(report) = self.report.as_mut() {
            (report.lines).extend(written.iter().map(|f| {
                format!(
                    "wrote {} (an instanced scene, as a graft scene)",
                    f.display()
                )
            }));
        }
        self.info(format!(
            "Wrote {} instanced scene(s) as graft scenes in {}: the instances read them",
            written.len(),
            dir.display()
        ));
        Ok(outcome)
    }
}
