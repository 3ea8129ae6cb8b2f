//! The editor state a lesson step starts from: what Reset and Back put back, and (from
//! `graft lesson check`'s walk) the truth of the step's prediction.

use super::lesson::Snapshot;
use crate::editor::session::selection::Selection;
use crate::editor::session::settings::Settings;
use crate::editor::session::timeline::TimelineState;
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

impl Snapshot {
    /// The state a step starts from: handed the document, the selection, the settings and the
    /// timeline it is taken from.
    pub(super) fn of(
        doc: &Document,
        selection: &Selection,
        settings: &Settings,
        timeline: &TimelineState,
    ) -> Snapshot {
        Snapshot {
            scene: doc.scene().clone(),
            selection: selection.ids().to_vec(),
            keep_world: settings.keep_world(),
            view: settings.view().clone(),
            view_space: settings.view_space(),
            time: timeline.time(),
            playing: timeline.playing(),
            trails: timeline.trails(),
            truth: None,
        }
    }

    /// Put the snapshot's selection, settings and playback back (its scene is the files
    /// part's, put back first as a fresh untitled document).
    pub(super) fn put_back(
        &self,
        selection: &mut Selection,
        settings: &mut Settings,
        timeline: &mut TimelineState,
    ) {
        selection.set(self.selection.clone());
        settings.set_keep_world(self.keep_world);
        settings.set_view(self.view.clone());
        settings.set_view_space(self.view_space);
        timeline.set_playback(self.time, self.playing, self.trails);
    }
}
