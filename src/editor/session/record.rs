//! Help ▸ Record a lesson…: the teacher sets up a scene, starts recording, performs the
//! solution in the editor and stops; graft writes a `.lesson` whose step starts from that scene
//! with that set-up, whose `do:` lines redo what was done and whose goals and keeps are
//! suggested from what changed. The text is written by the egui-free recorder in
//! `editor/lesson/record.rs` from plain data; here the session gathers it and checks the text
//! as `graft lesson check` does (and that it replays to the same scene) before writing it.

use crate::editor::lesson::VIEW_OPTION_NAMES;
use crate::editor::lesson::record::{self, Draft, Look, RecordedStep, SceneRef, ViewState};
use crate::editor::session::command::ViewSpace;
pub use crate::editor::session::lesson_command::RecordCommand;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::DialogPurpose;
use crate::editor::session::settings::Settings;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::{NodeId, Scene};
use std::path::{Path, PathBuf};

/// A recording in progress.
#[derive(Debug)]
pub struct Recording {
    /// The steps already ended.
    steps: Vec<RecordedStep>,
    /// The step being recorded: its scene, view and history position when it started.
    start: Scene,
    before: ViewState,
    from: usize,
    /// The document's file, when the recording started on that file as it is on disk.
    file: Option<PathBuf>,
    /// Its sprites' folder (an inline scene's sprites are made absolute).
    sprites: Option<PathBuf>,
    /// Stopped: waiting for the file to write.
    stopped: bool,
    /// The title given after Stop (None: not asked yet).
    title: Option<String>,
    /// Ask for a prediction of the edit performed after this many edits of the step.
    ask: Option<usize>,
}

impl Recording {
    /// Steps recorded so far, counting the one being recorded.
    pub fn steps(&self) -> usize {
        self.steps.len() + usize::from(!self.stopped)
    }

    /// True once stopped, while the lesson waits to be written.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Stopped and waiting for its title: what the window asks, with this suggestion (what the
    /// first step did, as History named it).
    pub fn asks_for_title(&self) -> Option<String> {
        if !self.stopped || self.title.is_some() {
            return None;
        }
        let first = self.steps.first().and_then(|s| s.labels.first());
        Some(first.map_or_else(
            || "Recorded lesson".into(),
            |l| format!("How to {}", l.to_lowercase()),
        ))
    }
}

/// The recording part: Help > Record a lesson's recording in progress, if any.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    recording: Option<Recording>,
}

/// The view as a lesson's set-up states it: handed the settings (what is shown, "Keep world
/// transform", the space looked from), the node selection and the timeline's time.
pub(super) fn view_state(settings: &Settings, selection: &[NodeId], time: f32) -> ViewState {
    let shown = VIEW_OPTION_NAMES
        .iter()
        .filter(|(_, option)| settings.view().shows(*option))
        .map(|(name, _)| *name)
        .collect();
    ViewState {
        keep_world: settings.keep_world(),
        shown,
        selection: selection.to_vec(),
        look: match settings.view_space() {
            ViewSpace::World => Look::World,
            ViewSpace::ParentOfSelection => Look::Parent,
            ViewSpace::Selection => Look::Selection,
            ViewSpace::Node(id) => Look::Node(id),
        },
        time,
    }
}

impl Recorder {
    /// The recording in progress, if any.
    pub(super) fn recording(&self) -> Option<&Recording> {
        self.recording.as_ref()
    }

    /// Start, step, stop or cancel a recording: handed the document (its scene and history),
    /// the log and the view as it is now. Returns the dialog the files part shows next (where
    /// to write the lesson, once its title is given).
    pub(super) fn handle(
        &mut self,
        command: RecordCommand,
        doc: &Document,
        log: &mut MessageLog,
        view: &ViewState,
    ) -> Result<Option<DialogPurpose>> {
        match (command, self.recording.is_some()) {
            (RecordCommand::Start, false) => {
                self.recording = Some(recording_here(doc, view));
                log.info(
                    "Recording a lesson: perform the solution, then Help > Stop recording \
                     (or Record the next step)",
                );
                Ok(None)
            }
            (RecordCommand::Start, true) => Err(Error::Refused(
                "A lesson is already being recorded: stop it first".into(),
            )),
            (_, false) => Err(Error::Refused("No lesson is being recorded".into())),
            (RecordCommand::NextStep, true) => {
                self.refuse_empty_step(doc, view)?;
                self.end_recorded_step(doc, view);
                let next = recording_here(doc, view);
                if let Some(recording) = self.recording.as_mut() {
                    (recording.start, recording.before) = (next.start, next.before);
                    (recording.from, recording.stopped) = (next.from, false);
                    recording.ask = None;
                }
                let steps = self.recording.as_ref().map_or(0, Recording::steps);
                log.info(format!("Recording step {steps}"));
                Ok(None)
            }
            (RecordCommand::Stop, true) => {
                self.refuse_empty_step(doc, view)?;
                self.end_recorded_step(doc, view);
                if let Some(recording) = self.recording.as_mut() {
                    recording.title = None;
                }
                log.info("Recording stopped: give the lesson a title");
                Ok(None)
            }
            (RecordCommand::Write { title }, true) => self.title_recording(&title),
            (RecordCommand::AskPrediction, true) => self.ask_prediction(doc, log).map(|_| None),
            (RecordCommand::Cancel, true) => {
                self.recording = None;
                log.info("The recording was dropped; nothing was written");
                Ok(None)
            }
        }
    }

    /// The stopped recording's title is given: ask where to write it (a blank title refused).
    fn title_recording(&mut self, title: &str) -> Result<Option<DialogPurpose>> {
        let Some(recording) = self.recording.as_mut().filter(|r| r.stopped) else {
            return Err(Error::Refused("Stop the recording first".into()));
        };
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        if title.is_empty() {
            return Err(Error::Refused("A lesson needs a title".into()));
        }
        recording.title = Some(title);
        Ok(Some(DialogPurpose::SaveLesson))
    }

    /// Help ▸ Ask for a prediction here: the next edit becomes the step's prediction.
    fn ask_prediction(&mut self, doc: &Document, log: &mut MessageLog) -> Result<()> {
        let Some(recording) = self.recording.as_mut().filter(|r| !r.stopped) else {
            return Err(Error::Refused("The recording is stopped".into()));
        };
        recording.ask = Some(record::performed_edits(doc.history(), recording.from).len());
        log.info("The next edit becomes a prediction: the learner predicts where it lands");
        Ok(())
    }

    /// Refuse to end the step being recorded while it records no change (nothing done, or all
    /// of it undone): the step stays open, to be performed.
    fn refuse_empty_step(&self, doc: &Document, view: &ViewState) -> Result<()> {
        let Some(recording) = self.recording.as_ref().filter(|r| !r.stopped) else {
            return Ok(());
        };
        let edits = record::performed_edits(doc.history(), recording.from);
        // Another scene in its place is not an empty step: writing says what happened.
        let same_scene = current(doc.scene()) == recording.start;
        if !same_scene || !nothing_changed(edits.is_empty(), &recording.before, view) {
            return Ok(());
        }
        Err(Error::Refused(format!(
            "Step {} records no change yet (nothing was done, or it was undone): perform its \
             solution first, it is still being recorded (Help > Drop the recording ends \
             without writing)",
            recording.steps.len() + 1
        )))
    }

    /// End the step being recorded (once: a stopped recording has none).
    fn end_recorded_step(&mut self, doc: &Document, view: &ViewState) {
        let after = view.clone();
        let end = current(doc.scene());
        let Some(recording) = self.recording.as_mut() else {
            return;
        };
        if recording.stopped {
            return;
        }
        let edits = record::performed_edits(doc.history(), recording.from);
        let labels = record::performed_labels(doc.history(), recording.from);
        recording.steps.push(RecordedStep {
            labels,
            start: std::mem::take(&mut recording.start),
            end,
            edits,
            before: std::mem::take(&mut recording.before),
            after,
            ask: recording.ask.take(),
        });
        recording.stopped = true;
    }

    /// Write the stopped recording to `path` as a lesson that passes `graft lesson check`
    /// (`check` is handed in: `record_check::checked_lesson_text`). On a refusal the recording
    /// stays (Stop asks again) and nothing is written.
    pub(super) fn write_lesson(
        &mut self,
        log: &mut MessageLog,
        path: PathBuf,
        check: impl FnOnce(&Draft, &Path) -> Result<String>,
    ) -> Result<()> {
        let Some(recording) = self.recording.as_ref().filter(|r| r.stopped) else {
            return Err(Error::Refused("No stopped recording to write".into()));
        };
        let title = recording.title.clone().unwrap_or_else(|| {
            path.file_stem().map_or("Recorded lesson".into(), |s| {
                s.to_string_lossy().into_owned()
            })
        });
        let first = recording.steps.first().map(|s| &s.start);
        let scene = first.map_or(Ok(SceneRef::Inline(String::new())), |scene| {
            scene_ref(
                scene,
                recording.sprites.as_deref(),
                recording.file.as_deref(),
                &path,
            )
        })?;
        let draft = Draft {
            title,
            scene,
            steps: recording.steps.clone(),
        };
        let text = check(&draft, &path)?;
        crate::model::atomic_write::atomic_write_with(&path, |w| w.write_all(text.as_bytes()))?;
        self.recording = None;
        log.info(format!(
            "Wrote the recorded lesson {} ({} steps): it passes graft lesson check",
            path.display(),
            draft.steps.len()
        ));
        Ok(())
    }
}

/// A recording whose step starts here and now.
fn recording_here(doc: &Document, view: &ViewState) -> Recording {
    let on_disk = !doc.is_modified();
    Recording {
        steps: Vec::new(),
        start: current(doc.scene()),
        before: view.clone(),
        from: doc.history().labels().1,
        file: doc.path().filter(|_| on_disk).map(Path::to_path_buf),
        sprites: doc.sprite_folder(),
        stopped: false,
        title: None,
        ask: None,
    }
}

/// A copy of a scene with its world matrices current (comparing scenes reads every node's).
fn current(scene: &Scene) -> Scene {
    let mut scene = scene.clone();
    scene.update_world();
    scene
}

/// How a lesson at `lesson` names a step's first scene: the file the recording started on (as
/// it is on disk), by its path from the lesson's folder; else a sample by name; else inline
/// when small; else a scene file written next to the lesson.
pub fn scene_ref(
    scene: &Scene,
    sprites: Option<&Path>,
    file: Option<&Path>,
    lesson: &Path,
) -> Result<SceneRef> {
    let folder = lesson.parent().unwrap_or(Path::new("."));
    if let Some(file) = file {
        return Ok(SceneRef::File(relative_to(file, folder)));
    }
    if let Some(name) = record::sample_named(scene) {
        return Ok(SceneRef::Sample(name));
    }
    let mut scene = scene.clone();
    if let Some(folder) = sprites {
        scene.absolute_sprites(folder);
    }
    let text = crate::model::file::to_ron_string(&scene);
    if text.len() <= record::INLINE_LIMIT {
        return Ok(SceneRef::Inline(text));
    }
    let stem = lesson
        .file_stem()
        .map_or("recorded".into(), |s| s.to_string_lossy());
    let name = format!("{stem}.scene.ron");
    crate::model::atomic_write::atomic_write_with(&folder.join(&name), |w| {
        w.write_all(text.as_bytes())
    })?;
    Ok(SceneRef::File(name))
}

/// `file` as a path from `folder` (`scenes/sword.ron`, `../shared/a.ron`), `/`-separated;
/// as it is when no relative path leads there.
fn relative_to(file: &Path, folder: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let relative = pathdiff::diff_paths(absolute(file), absolute(folder));
    let path = relative.unwrap_or_else(|| file.to_path_buf());
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.is_absolute() {
        path.display().to_string()
    } else {
        parts.join("/")
    }
}

/// A lesson skeleton from a crash journal: one step from the journal's first scene, whose
/// solution redoes every edit it kept (undone ones left out), with the editor's default view.
/// Returns the draft and how many history changes were read; a journal cut short or damaged
/// gives the changes before the damage, and says so in `damaged`.
pub fn draft_from_journal(bytes: &[u8], title: &str) -> Result<JournalDraft> {
    use crate::model::journal::{self, Stop};
    let recovered = journal::recover(bytes)?;
    let document = recovered.document;
    let start = current(&document.origin_scene()?);
    // The view of a fresh session: default settings, nothing selected, at 0 s.
    let view = view_state(&Settings::default(), &[], 0.0);
    let step = RecordedStep {
        start,
        end: current(document.scene()),
        edits: record::performed_edits(document.history(), 0),
        labels: record::performed_labels(document.history(), 0),
        before: view.clone(),
        after: view,
        ask: None,
    };
    Ok(JournalDraft {
        draft: Draft {
            title: title.to_string(),
            scene: SceneRef::Inline(String::new()),
            steps: vec![step],
        },
        sprites: document.sprite_folder(),
        changes: recovered.changes,
        damaged: recovered.stop != Stop::End,
    })
}

/// What a crash journal gives a lesson.
#[derive(Debug)]
pub struct JournalDraft {
    /// The lesson to write (its scene still to be named: see [`scene_ref`]).
    pub draft: Draft,
    /// The folder the journal's scene took its sprites from.
    pub sprites: Option<PathBuf>,
    /// History changes read.
    pub changes: usize,
    /// The journal was cut short or damaged: only what came before was read.
    pub damaged: bool,
}

/// No edit (`no_edits`) and the same keep-world, view options and view space before and after.
pub(super) fn nothing_changed(no_edits: bool, a: &ViewState, b: &ViewState) -> bool {
    no_edits && a.keep_world == b.keep_world && a.shown == b.shown && a.look == b.look
}
