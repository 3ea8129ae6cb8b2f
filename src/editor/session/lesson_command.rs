//! What lessons and the recording of one can be asked to do: the words the lesson and record
//! commands carry, with no session state.

use std::path::PathBuf;

/// Where a lesson comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonSource {
    /// The built-in course's lesson at this index.
    Builtin(usize),
    /// A lesson file.
    File(PathBuf),
}

/// What can be done with lessons.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonCommand {
    /// Open a lesson (asks about unsaved changes first); a bad file is refused, nothing changes.
    Open(LessonSource),
    /// Close the lesson panel (the scene stays).
    Close,
    /// The next step (when every goal holds).
    Next,
    /// The previous step, from its start.
    Back,
    /// Go to a step, from its start.
    GoTo(usize),
    /// Show the next hint.
    Hint,
    /// Play the step's solution (one undo step).
    ShowMe,
    /// Put the step back as it started.
    Reset,
    /// Leave the introduction for the step.
    Begin,
    /// Show the lesson's introduction again.
    Introduction,
    /// Pick a lesson file in a dialog titled and filtered for lessons.
    OpenFile,
    /// Help ▸ Export my progress…: pick where to write the progress as JSON.
    ExportProgress,
    /// Commit a prediction (a predict step, before acting).
    Predict(crate::editor::session::lesson_prediction::PredictInput),
    /// Take the next viewport click as the prediction (true) or not.
    PredictByClick(bool),
}

/// What can be done with a recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordCommand {
    /// Start recording: the scene and the view as they are now become the step's start.
    Start,
    /// End the step being recorded and record the next one from here.
    NextStep,
    /// End the recording and ask for the lesson's title.
    Stop,
    /// The stopped recording's title is given: ask where to write the lesson.
    Write {
        /// The lesson's title (`title:` line).
        title: String,
    },
    /// Drop the recording (nothing is written).
    Cancel,
    /// The next edit becomes what the step asks the learner to predict.
    AskPrediction,
}
