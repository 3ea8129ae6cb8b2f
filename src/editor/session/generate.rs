//! File ▸ Generate scene…: a wide, chain or random scene of up to ten million nodes, for trying
//! big hierarchies. Like opening a file it first asks about unsaved changes; a big one is made
//! on a worker with progress and Cancel (generating, building, computing world matrices) while
//! the current scene stays usable, and swaps in with one step.

use crate::editor::session::jobs::{Finished, Jobs, Loaded};
use crate::editor::session::messages::MessageLog;
pub use crate::editor::session::purpose::{GenerateRequest, MAX_GENERATED_NODES};
use crate::error::{Error, Result};
use crate::model::document::Document;
pub use crate::model::generate::GenShape;
use crate::model::progress::{Progress, Stage};

/// The worker's part: generate, build, propagate; None once cancelled.
fn make(request: GenerateRequest, progress: &Progress) -> Option<Loaded> {
    let mut scene = crate::model::generate::generate_with(
        request.shape,
        request.nodes,
        request.seed,
        progress,
    )?;
    if progress.is_cancelled() {
        return None;
    }
    progress.enter(Stage::Propagating, 0);
    scene.update_world();
    Some(Loaded {
        path: None,
        doc: Document::untitled(scene),
        report: None,
        said: format!("Generated {}", request.describe()),
    })
}

impl Jobs {
    /// Make the scene: at once when small (handed back, for the router to swap in), on a worker
    /// from the background threshold on (`doc` is the current document, kept meanwhile).
    pub(super) fn generate(
        &mut self,
        doc: &Document,
        log: &mut MessageLog,
        request: GenerateRequest,
    ) -> Result<Option<Loaded>> {
        request.check()?;
        if request.nodes < self.save_nodes() {
            let loaded = make(request, &Progress::new())
                .ok_or_else(|| Error::Refused("generating was cancelled".into()))?;
            return Ok(Some(loaded));
        }
        self.start_job(
            doc,
            format!("Generating {}", request.describe()),
            "graft-generate",
            (Stage::Generating, request.nodes as u64),
            move |progress| {
                make(request, progress).map(|loaded| Ok(Finished::Loaded(Box::new(loaded))))
            },
        )?;
        log.info(format!(
            "Generating {} in the background (Esc or Cancel stops it)",
            request.describe()
        ));
        Ok(None)
    }
}
