//! What a screen reader is told after each change (issue 39.2): what an action changed
//! ("sword reparented to body, keeping world position (2, 3)", "Undo: Nudge sword"), else the
//! selection ("sword selected, world position (2, 3)"). Worked out here, without egui, by
//! comparing the session with how it was at the last look; the app reads the text out as a
//! polite live region.

use super::Editor;
use crate::editor::lesson::text::keyboard_way;
use crate::model::scene::NodeId;

/// The announcement and what the session looked like when it was made.
#[derive(Clone, Debug, Default)]
pub struct Announcer {
    seen: Option<Seen>,
    text: String,
    /// How many announcements were made (the same words said again count again).
    count: u64,
}

/// The counters an announcement is worked out from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    /// Which document (opening a lesson or a file replaces it: its history is not undone).
    document: u64,
    /// The document's revision (every step, undo, redo or jump changes it).
    revision: u64,
    /// Applied steps.
    done: usize,
    selection: u64,
    /// Nodes in the scene (a step that removed some moved the selection off them).
    nodes: usize,
    messages: u64,
    /// The lesson's step, whether its introduction shows and whether every goal holds.
    lesson: Option<(usize, bool, bool)>,
    /// The step's goals that hold, a bit each (the first 64).
    goals: u64,
}

impl Seen {
    /// The counters now; the history's are counted again only when its revision moved (the
    /// labels are a list as long as the history, and this runs every frame).
    fn of(editor: &Editor, before: Option<&Seen>) -> Self {
        let revision = editor.doc.revision();
        let document = editor.doc.serial();
        let done = match before.filter(|b| b.revision == revision && b.document == document) {
            Some(b) => b.done,
            None => editor.doc.history().labels().1,
        };
        Self {
            document,
            revision,
            done,
            selection: editor.selection.version(),
            nodes: editor.doc.scene().len(),
            messages: editor.log.pushed(),
            lesson: editor
                .lesson()
                .map(|run| (run.step_index(), run.showing_intro(), run.step_done())),
            goals: editor.lesson().map_or(0, |run| {
                let goals = run.checklist().into_iter().take(run.step().goals.len());
                (goals.enumerate().take(64))
                    .filter(|(_, (_, holds))| *holds)
                    .fold(0, |bits, (k, _)| bits | 1 << k)
            }),
        }
    }
}

impl Announcer {
    /// Look at the session again: the announcement for what changed since the last look, or
    /// the previous one when nothing did. The first look only takes note (nothing changed yet);
    /// a drag is announced once it ends.
    pub fn observe(&mut self, editor: &Editor) -> &str {
        if editor.gesture_open() {
            return &self.text;
        }
        let now = Seen::of(editor, self.seen.as_ref());
        if let Some(before) = self.seen.replace(now)
            && before != now
            && let Some(text) =
                with_lesson(editor, &before, &now, announcement(editor, &before, &now))
        {
            self.text = text;
            self.count += 1;
        }
        &self.text
    }

    /// How many announcements were made so far: a new one, even in the same words, counts.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The latest announcement ("" before the first change).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// What to say for the change from `before` to `now`: an undo or redo, else what the session
/// said, else the new step, else the selection.
fn announcement(editor: &Editor, before: &Seen, now: &Seen) -> Option<String> {
    // Another document (a file or a lesson opened): its history was not undone or redone.
    let same_document = now.document == before.document;
    let history_moved = same_document && now.revision != before.revision;
    if history_moved && let Some(said) = undone_or_redone(editor, before.done, now.done) {
        return Some(said);
    }
    if now.messages != before.messages {
        return editor.log.last().map(|m| m.text.clone());
    }
    let history = editor.doc.history();
    if history_moved && now.done > before.done {
        let label = history.undo_label()?;
        return Some(match editor.primary() {
            // A delete selected the next row: say it is that row's, not the deleted one's.
            Some(_) if now.nodes < before.nodes => {
                format!("{label}. {}", selection_sentence(editor))
            }
            Some(id) => format!("{label}, {}", where_is(editor, id)),
            None => label.to_string(),
        });
    }
    (now.selection != before.selection).then(|| selection_sentence(editor))
}

/// "Undo: Nudge sword", "Redo: 3 steps": what an undo, a redo or a history jump from `was`
/// applied steps to `done` did, by what the history did last (a new step after an undo also
/// adds one applied step, and is not a redo).
fn undone_or_redone(editor: &Editor, was: usize, done: usize) -> Option<String> {
    use crate::model::document::HistoryMove;
    let history = editor.doc.history();
    let (verb, label, steps) = match editor.doc.last_move() {
        HistoryMove::Undo | HistoryMove::Jump if done < was => {
            ("Undo", history.redo_label(), was - done)
        }
        HistoryMove::Redo | HistoryMove::Jump if done > was => {
            ("Redo", history.undo_label(), done - was)
        }
        _ => return None,
    };
    Some(match (steps, label) {
        (1, Some(label)) => format!("{verb}: {label}"),
        _ => format!("{verb}: {steps} steps"),
    })
}

/// What changed in the lesson, said after what changed in the scene: the step shown with its
/// whole text and the keyboard way of its gestures ("Step 1 of 4: Two columns. Select the
/// hand…"), the introduction with its text, the goals that now hold ("Goal done: Select the hand") and
/// that every goal of the step holds.
fn with_lesson(editor: &Editor, before: &Seen, now: &Seen, said: Option<String>) -> Option<String> {
    let (Some(run), Some((step, intro, done))) = (editor.lesson(), now.lesson) else {
        return said;
    };
    let steps = run.lesson().steps.len();
    let lesson_said = if before.lesson.map(|(s, i, _)| (s, i)) != Some((step, intro)) {
        Some(if intro {
            let lesson = run.lesson();
            let text = read_whole(std::iter::once(&lesson.about).chain(&lesson.intro));
            format!("Lesson {}: introduction. {text}", lesson.title)
        } else {
            let step_text = run.step().text.iter();
            let ways = run.step().pointing.gestures.iter().filter_map(keyboard_way);
            let text = read_whole(step_text.cloned().chain(ways).collect::<Vec<_>>().iter());
            format!("Step {} of {steps}: {}. {text}", step + 1, run.step().title)
        })
    } else {
        let ticked = now.goals & !before.goals;
        let mut parts: Vec<String> = (run.step().goals.iter().enumerate().take(64))
            .filter(|(k, _)| ticked & 1 << k != 0)
            .map(|(_, goal)| format!("Goal done: {}", goal.label))
            .collect();
        if done && before.lesson.is_some_and(|(_, _, was)| !was) {
            let next = if step + 1 == steps { "Finish" } else { "Next" };
            parts.push(format!("Every goal holds: go on with {next}"));
        }
        (!parts.is_empty()).then(|| parts.join(". "))
    };
    match (said, lesson_said) {
        (Some(scene), Some(lesson)) => Some(format!("{scene}. {lesson}")),
        (scene, lesson) => scene.or(lesson),
    }
}

/// Paragraphs as one text to be read out: without their marks, one after the other.
fn read_whole<'a>(paragraphs: impl Iterator<Item = &'a String>) -> String {
    let plain: Vec<String> = paragraphs
        .map(|p| crate::editor::lesson::text::plain(p))
        .collect();
    plain.join(" ")
}

/// "sword selected, world position (2, 3)", "3 nodes selected: arm, hand, sword",
/// "Nothing selected".
pub fn selection_sentence(editor: &Editor) -> String {
    let ids = editor.selection();
    let scene = editor.doc.scene();
    match ids {
        [] => "Nothing selected".to_string(),
        [one] => format!(
            "{} selected, {}",
            name(editor, *one),
            where_is(editor, *one)
        ),
        many => {
            const LISTED: usize = 5;
            let names: Vec<String> = many
                .iter()
                .take(LISTED)
                .filter(|id| scene.contains(**id))
                .map(|id| name(editor, *id))
                .collect();
            let more = many.len().saturating_sub(LISTED);
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!("{} nodes selected: {}{tail}", many.len(), names.join(", "))
        }
    }
}

/// A node's name as lists say it ("unnamed node 7" when it has none).
fn name(editor: &Editor, id: NodeId) -> String {
    let scene = editor.doc.scene();
    scene.index(id).map_or_else(
        |_| format!("node {id}"),
        |index| super::arrange::display_name(scene, index),
    )
}

/// "world position (2, 3)": rounded to 4 decimals, so float dust does not read as "1.49e-8".
fn where_is(editor: &Editor, id: NodeId) -> String {
    let Ok(trs) = editor.doc.scene().world_trs(id) else {
        return "no world position".to_string();
    };
    let number = |v: f32| {
        let rounded = (f64::from(v) * 1e4).round() / 1e4;
        crate::editor::view::numbers::format_significant(rounded + 0.0, 6)
    };
    format!(
        "world position ({}, {})",
        number(trs.position.x),
        number(trs.position.y)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::session::command::{
        Command, EditCommand, FileCommand, HistoryCommand, SelectionCommand,
    };
    use crate::model::document::Document;

    fn sword() -> Editor {
        let mut editor = Editor::new(Document::sample());
        editor.update_world();
        editor
    }

    /// Apply `command` and run a frame's tick, then what the announcer says.
    fn said(editor: &mut Editor, announcer: &mut Announcer, command: Command) -> String {
        let _ = editor.apply(command);
        editor.update_world();
        // As a frame does: a lesson's goals are checked on the tick.
        let _ = editor.tick(1.0 / 60.0);
        announcer.observe(editor).to_string()
    }

    const SWORD: NodeId = NodeId(4);
    const BODY: NodeId = NodeId(1);

    #[test]
    fn selecting_reparenting_and_undoing_are_announced() {
        let mut editor = sword();
        let mut announcer = Announcer::default();
        assert_eq!(
            announcer.observe(&editor),
            "",
            "the first look says nothing"
        );
        let select = Command::Selection(SelectionCommand::Select(vec![SWORD]));
        let text = said(&mut editor, &mut announcer, select);
        assert_eq!(text, "sword selected, world position (2, 3)");
        let move_to = Command::Edit(EditCommand::MoveTo {
            parent: Some(BODY),
            keep: crate::model::scene::Keep::World,
        });
        let text = said(&mut editor, &mut announcer, move_to);
        assert_eq!(
            text,
            "sword reparented to body, keeping world position (2, 3)"
        );
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Undo),
        );
        assert_eq!(text, "Undo: Reparent sword to body");
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Redo),
        );
        assert_eq!(text, "Redo: Reparent sword to body");
        let nudge = Command::Edit(EditCommand::Nudge {
            direction: (1, 0),
            big: true,
        });
        let text = said(&mut editor, &mut announcer, nudge);
        assert_eq!(text, "Nudge sword, world position (3, 3)");
    }

    #[test]
    fn a_new_edit_after_an_undo_is_announced_as_itself_not_as_a_redo() {
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(vec![SWORD])),
        );
        let nudge = Command::Edit(EditCommand::Nudge {
            direction: (1, 0),
            big: true,
        });
        said(&mut editor, &mut announcer, nudge.clone());
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Undo),
        );
        assert_eq!(text, "Undo: Nudge sword");
        // The undone step is dropped and a new one recorded: as many steps, one more applied.
        let nudge_down = Command::Edit(EditCommand::Nudge {
            direction: (0, -1),
            big: true,
        });
        let text = said(&mut editor, &mut announcer, nudge_down);
        assert_eq!(text, "Nudge sword, world position (2, 2)");
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Undo),
        );
        assert_eq!(text, "Undo: Nudge sword");
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Redo),
        );
        assert_eq!(text, "Redo: Nudge sword");
        // Two undos in one look, then two redos.
        said(&mut editor, &mut announcer, nudge);
        let _ = editor.apply(Command::History(HistoryCommand::Undo));
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Undo),
        );
        assert_eq!(text, "Undo: 2 steps");
        let _ = editor.apply(Command::History(HistoryCommand::Redo));
        let text = said(
            &mut editor,
            &mut announcer,
            Command::History(HistoryCommand::Redo),
        );
        assert_eq!(text, "Redo: 2 steps");
    }

    #[test]
    fn a_delete_selects_the_next_row_or_the_one_above_and_says_so() {
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        // Pre-order: body, arm, hand, sword, scabbard. The hand's subtree goes: the scabbard
        // is the next row.
        said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(vec![NodeId(3)])),
        );
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Edit(EditCommand::Delete),
        );
        assert_eq!(editor.selection(), [NodeId(5)]);
        assert_eq!(
            text,
            "Delete hand. scabbard selected, world position (4.1, -0.3)"
        );
        // The scabbard is the last row: the row above it (the arm) is selected.
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Edit(EditCommand::Delete),
        );
        assert_eq!(editor.selection(), [NodeId(2)]);
        assert!(text.starts_with("Delete scabbard. arm selected"), "{text}");
        // Everything goes: nothing is left to select.
        said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(vec![BODY])),
        );
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Edit(EditCommand::Delete),
        );
        assert!(editor.selection().is_empty());
        assert_eq!(text, "Delete body");
    }

    #[test]
    fn opening_a_lesson_over_a_modified_scene_is_not_announced_as_an_undo() {
        use crate::editor::session::command::GuardAnswer;
        use crate::editor::session::lesson::{LessonCommand, LessonSource};
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(vec![SWORD])),
        );
        for _ in 0..7 {
            let nudge = Command::Edit(EditCommand::Nudge {
                direction: (1, 0),
                big: false,
            });
            said(&mut editor, &mut announcer, nudge);
        }
        assert!(editor.doc.is_modified());
        let open = Command::Lesson(LessonCommand::Open(LessonSource::Builtin(0)));
        let _ = editor.apply(open);
        let text = said(
            &mut editor,
            &mut announcer,
            Command::File(FileCommand::AnswerGuard(GuardAnswer::Discard)),
        );
        let title = editor
            .lesson()
            .expect("the lesson opened")
            .lesson()
            .title
            .clone();
        assert!(!text.contains("Undo"), "{text}");
        assert!(
            text.contains(&format!("Lesson {title}: introduction. ")),
            "{text}"
        );
    }

    #[test]
    fn a_lesson_step_and_its_goals_holding_are_announced() {
        use crate::editor::session::lesson::{LessonCommand, LessonSource};
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        let open = Command::Lesson(LessonCommand::Open(LessonSource::Builtin(0)));
        let text = said(&mut editor, &mut announcer, open);
        let run = editor.lesson().expect("the first lesson opens");
        let title = run.lesson().title.clone();
        let first = run.lesson().steps[0].title.clone();
        let steps = run.lesson().steps.len();
        let about = run.lesson().about.clone();
        assert!(
            text.ends_with(&format!("Lesson {title}: introduction. {about}"))
                || text.contains(&format!("Lesson {title}: introduction. {about} ")),
            "{text}"
        );
        let begin = Command::Lesson(LessonCommand::Begin);
        let text = said(&mut editor, &mut announcer, begin);
        // The step's title, then its whole text, read out.
        let run = editor.lesson().expect("still open");
        let paragraph = crate::editor::lesson::text::plain(&run.step().text[0]);
        assert!(
            text.contains(&format!("Step 1 of {steps}: {first}. {paragraph}")),
            "{text}"
        );
        // Step 1 of the first lesson asks for the hand to be selected.
        let hand = NodeId(3);
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(vec![hand])),
        );
        let goal = &editor.lesson().expect("still open").step().goals[0].label;
        assert!(
            text.starts_with("hand selected")
                && text.contains(&format!("Goal done: {goal}"))
                && text.ends_with("Every goal holds: go on with Next"),
            "{text}"
        );
    }

    #[test]
    fn several_or_no_selected_nodes_are_counted_and_listed() {
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::SelectAll),
        );
        assert_eq!(text, "5 nodes selected: body, arm, hand, sword, scabbard");
        let text = said(
            &mut editor,
            &mut announcer,
            Command::Selection(SelectionCommand::Select(Vec::new())),
        );
        assert_eq!(text, "Nothing selected");
        // Nothing changed: the announcement stays as it was.
        assert_eq!(announcer.observe(&editor), "Nothing selected");
    }
}
