//! What a screen reader is told after each change (issue 39.2): what an action changed
//! ("sword reparented to body, keeping world position (2, 3)", "Undo: Nudge sword"), else the
//! selection ("sword selected, world position (2, 3)"). Worked out here, without egui, by
//! comparing the session with how it was at the last look; the app reads the text out as a
//! polite live region.

use super::Editor;
use crate::model::scene::NodeId;

/// The announcement and what the session looked like when it was made.
#[derive(Clone, Debug, Default)]
pub struct Announcer {
    seen: Option<Seen>,
    text: String,
}

/// The counters an announcement is worked out from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    /// The document's revision (every step, undo, redo or jump changes it).
    revision: u64,
    /// Applied steps.
    done: usize,
    /// Recorded steps, applied or undone (a redo keeps it; a new step drops the undone ones).
    steps: usize,
    selection: u64,
    messages: u64,
    /// The lesson's step, whether its introduction shows and whether every goal holds.
    lesson: Option<(usize, bool, bool)>,
}

impl Seen {
    /// The counters now; the history's are counted again only when its revision moved (the
    /// labels are a list as long as the history, and this runs every frame).
    fn of(editor: &Editor, before: Option<&Seen>) -> Self {
        let revision = editor.doc.revision();
        let (done, steps) = match before.filter(|b| b.revision == revision) {
            Some(b) => (b.done, b.steps),
            None => {
                let (labels, done) = editor.doc.history().labels();
                (done, labels.len())
            }
        };
        Self {
            revision,
            done,
            steps,
            selection: editor.selection.version(),
            messages: editor.log.pushed(),
            lesson: editor
                .lesson()
                .map(|run| (run.step_index(), run.showing_intro(), run.step_done())),
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
        }
        &self.text
    }

    /// The latest announcement ("" before the first change).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// What to say for the change from `before` to `now`: an undo or redo, else what the session
/// said, else the new step, else the selection.
fn announcement(editor: &Editor, before: &Seen, now: &Seen) -> Option<String> {
    let history = editor.doc.history();
    if now.revision != before.revision {
        if now.done + 1 == before.done {
            return history.redo_label().map(|l| format!("Undo: {l}"));
        }
        if now.done < before.done {
            return Some(format!("Undo: {} steps", before.done - now.done));
        }
        if now.done > before.done && now.steps == before.steps {
            return history.undo_label().map(|l| format!("Redo: {l}"));
        }
    }
    if now.messages != before.messages {
        return editor.log.last().map(|m| m.text.clone());
    }
    if now.revision != before.revision && now.done > before.done {
        let label = history.undo_label()?;
        return Some(match editor.primary() {
            Some(id) => format!("{label}, {}", where_is(editor, id)),
            None => label.to_string(),
        });
    }
    (now.selection != before.selection).then(|| selection_sentence(editor))
}

/// What changed in the lesson, said after what changed in the scene: the step shown
/// ("Step 1 of 4: Two columns") or that every goal of the step now holds.
fn with_lesson(editor: &Editor, before: &Seen, now: &Seen, said: Option<String>) -> Option<String> {
    let (Some(run), Some((step, intro, done))) = (editor.lesson(), now.lesson) else {
        return said;
    };
    let steps = run.lesson().steps.len();
    let lesson_said = if before.lesson.map(|(s, i, _)| (s, i)) != Some((step, intro)) {
        Some(if intro {
            format!("Lesson {}: introduction", run.lesson().title)
        } else {
            format!("Step {} of {steps}: {}", step + 1, run.step().title)
        })
    } else if done && before.lesson.is_some_and(|(_, _, was)| !was) {
        let next = if step + 1 == steps { "Finish" } else { "Next" };
        Some(format!("Every goal holds: go on with {next}"))
    } else {
        None
    };
    match (said, lesson_said) {
        (Some(scene), Some(lesson)) => Some(format!("{scene}. {lesson}")),
        (scene, lesson) => scene.or(lesson),
    }
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
    use crate::editor::session::command::Command;
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
        let select = Command::Select(vec![SWORD]);
        let text = said(&mut editor, &mut announcer, select);
        assert_eq!(text, "sword selected, world position (2, 3)");
        let move_to = Command::MoveTo {
            parent: Some(BODY),
            keep_world: true,
        };
        let text = said(&mut editor, &mut announcer, move_to);
        assert_eq!(
            text,
            "sword reparented to body, keeping world position (2, 3)"
        );
        let text = said(&mut editor, &mut announcer, Command::Undo);
        assert_eq!(text, "Undo: Reparent sword to body");
        let text = said(&mut editor, &mut announcer, Command::Redo);
        assert_eq!(text, "Redo: Reparent sword to body");
        let nudge = Command::Nudge {
            direction: (1, 0),
            big: true,
        };
        let text = said(&mut editor, &mut announcer, nudge);
        assert_eq!(text, "Nudge sword, world position (3, 3)");
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
        assert!(
            text.ends_with(&format!("Lesson {title}: introduction")),
            "{text}"
        );
        let begin = Command::Lesson(LessonCommand::Begin);
        let text = said(&mut editor, &mut announcer, begin);
        assert!(
            text.ends_with(&format!("Step 1 of {steps}: {first}")),
            "{text}"
        );
        // Step 1 of the first lesson asks for the hand to be selected.
        let hand = NodeId(3);
        let text = said(&mut editor, &mut announcer, Command::Select(vec![hand]));
        assert!(
            text.starts_with("hand selected")
                && text.ends_with("Every goal holds: go on with Next"),
            "{text}"
        );
    }

    #[test]
    fn several_or_no_selected_nodes_are_counted_and_listed() {
        let mut editor = sword();
        let mut announcer = Announcer::default();
        announcer.observe(&editor);
        let text = said(&mut editor, &mut announcer, Command::SelectAll);
        assert_eq!(text, "5 nodes selected: body, arm, hand, sword, scabbard");
        let text = said(&mut editor, &mut announcer, Command::Select(Vec::new()));
        assert_eq!(text, "Nothing selected");
        // Nothing changed: the announcement stays as it was.
        assert_eq!(announcer.observe(&editor), "Nothing selected");
    }
}
