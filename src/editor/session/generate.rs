//! File ▸ Generate scene…: a wide, chain or random scene of up to ten million nodes, for trying
//! big hierarchies. Like opening a file it first asks about unsaved changes; a big one is made
//! on a worker with progress and Cancel (generating, building, computing world matrices) while
//! the current scene stays usable, and swaps in with one step.

use crate::editor::session::jobs::{Finished, Jobs, Loaded};
use crate::editor::session::messages::MessageLog;
use crate::error::{Error, Result};
use crate::model::document::Document;
pub use crate::model::generate::GenShape;
use crate::model::progress::{Progress, Stage, grouped};

/// The most nodes a generated scene may have (about 2.5 GB held in the editor).
pub const MAX_GENERATED_NODES: usize = 10_000_000;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateRequest {
    /// Wide, chain or random.
    pub shape: GenShape,
    /// How many nodes.
    pub nodes: usize,
    /// The random seed (the same seed makes the same scene).
    pub seed: u64,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        Self {
            shape: GenShape::Random,
            nodes: 100_000,
            seed: 1,
        }
    }
}

impl GenerateRequest {
    /// "a 1,000,000-node random scene (seed 1)".
    pub fn describe(&self) -> String {
        format!(
            "a {}-node {} scene (seed {})",
            grouped(self.nodes as u64),
            self.shape,
            self.seed
        )
    }

    /// Refused when the node count is out of range.
    pub fn check(&self) -> Result<()> {
        if (1..=MAX_GENERATED_NODES).contains(&self.nodes) {
            Ok(())
        } else {
            Err(Error::Refused(format!(
                "A generated scene has 1 to {} nodes, not {}",
                grouped(MAX_GENERATED_NODES as u64),
                grouped(self.nodes as u64)
            )))
        }
    }
}

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
