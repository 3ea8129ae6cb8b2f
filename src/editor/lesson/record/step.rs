//! A recorded lesson as plain data: the view a step started and ended with, its scenes and
//! edits, and the draft a lesson's text is written from.

use crate::model::scene::edit::Edit;
use crate::model::scene::{NodeId, Scene};

/// The space the view looked from, as plain data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Look {
    /// The world.
    #[default]
    World,
    /// The primary selection's parent.
    Parent,
    /// The primary selection.
    Selection,
    /// A node's space.
    Node(NodeId),
}

/// What the editor showed and how it was set, as a lesson's set-up can state it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewState {
    /// The keep-world toggle.
    pub keep_world: bool,
    /// The view options shown, by their names in lesson files.
    pub shown: Vec<&'static str>,
    /// The selection (the last is primary).
    pub selection: Vec<NodeId>,
    /// The space the view looks from.
    pub look: Look,
    /// The clip time in seconds.
    pub time: f32,
}

/// One recorded step: where it started, what was done, where it ended.
#[derive(Clone, Debug)]
pub struct RecordedStep {
    /// The scene when the step started.
    pub start: Scene,
    /// The scene when it was stopped.
    pub end: Scene,
    /// The edits performed in between, in order (undone ones left out).
    pub edits: Vec<Edit>,
    /// The view when it started.
    pub before: ViewState,
    /// The view when it was stopped.
    pub after: ViewState,
    /// What History calls each edit, in order ("Reparent sword to body").
    pub labels: Vec<String>,
    /// "Ask for a prediction here": the index of the edit the learner predicts.
    pub ask: Option<usize>,
}

/// How the lesson names its first scene.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneRef {
    /// One of graft's sample scenes, unchanged.
    Sample(&'static str),
    /// A scene file's text, written inside the lesson.
    Inline(String),
    /// A scene file, as the `scene:` line writes it (relative to the lesson's folder).
    File(String),
}

/// Everything a recorded lesson is written from.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The lesson's title.
    pub title: String,
    /// The first step's scene.
    pub scene: SceneRef,
    /// The steps, in order (each continues from the one before).
    pub steps: Vec<RecordedStep>,
}

/// Consecutive edits of the same node's local transform (a drag's frames) as one.
pub fn coalesced(edits: &[Edit]) -> Vec<Edit> {
    let mut out: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        if let (
            Some(Edit::SetLocal {
                node: last, after, ..
            }),
            Edit::SetLocal {
                node, after: now, ..
            },
        ) = (out.last_mut(), edit)
            && last == node
        {
            *after = *now;
            continue;
        }
        out.push(edit.clone());
    }
    out
}
