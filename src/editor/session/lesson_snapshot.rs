//! The editor state a lesson step starts from: what Reset and Back put back, and (from
//! `graft lesson check`'s walk) the truth of the step's prediction.

use super::lesson::Snapshot;
use crate::editor::session::{Editor, Outcome};
use crate::model::document::Document;
use crate::model::scene::Scene;

impl Snapshot {
    /// The scene the step starts with.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Whether Keep world transform is on at the start.
    pub fn keep_world(&self) -> bool {
        self.keep_world
    }

    /// The truth of the step's prediction (None: the step predicts nothing).
    pub fn truth(&self) -> Option<&crate::editor::lesson::predict::Truth> {
        self.truth.as_ref()
    }
}

impl Editor {
    /// The state a step starts from.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            scene: self.doc.scene().clone(),
            selection: self.selection.ids().to_vec(),
            keep_world: self.settings.keep_world(),
            view: self.settings.view().clone(),
            view_space: self.settings.view_space(),
            time: self.timeline.time,
            playing: self.timeline.playing,
            trails: self.timeline.trails,
            truth: None,
        }
    }

    /// Put a snapshot back as a fresh untitled document (the lesson is the caller's).
    pub(super) fn restore(&mut self, snapshot: &Snapshot) -> Outcome {
        // A scratch document: moving on to another lesson never asks to save it.
        let outcome = self.replace_document(Document::scratch(snapshot.scene.clone()));
        self.selection.set(snapshot.selection.clone());
        self.settings.set_keep_world(snapshot.keep_world);
        self.settings.set_view(snapshot.view.clone());
        self.settings.set_view_space(snapshot.view_space);
        self.timeline.time = snapshot.time;
        self.timeline.playing = snapshot.playing;
        self.timeline.trails = snapshot.trails;
        self.update_world();
        outcome
    }
}
