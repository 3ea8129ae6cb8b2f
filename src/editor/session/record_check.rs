//! A recorded lesson checked before it is written: its text as `graft lesson check` passes it
//! (suggestions the check refuses left out) and the scene its solutions replay to, played on a
//! scratch session as a learner would.

use crate::editor::lesson::play::{bind_step, load_scene};
use crate::editor::lesson::record::{self, Draft, RecordedStep};
use crate::editor::lesson::{Lesson, parse};
use crate::editor::session::Editor;
use crate::editor::session::command::{Command, HistoryCommand};
use crate::editor::session::lesson_check::walk_lesson;
use crate::editor::session::lesson_play::action_commands;
use crate::editor::session::record::nothing_changed;
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::scene::Scene;
use std::path::Path;

/// The draft's lesson text for a file at `path`, checked as `graft lesson check` checks it:
/// suggested goals, keeps and mistakes the check refuses (a goal already true at the start, a
/// mistake the answer does not stand apart from) are left out; the lesson must then pass whole and replay to the scene the recording ended with.
pub fn checked_lesson_text(draft: &Draft, path: &Path) -> Result<String> {
    let refused = |e: Error| Error::Refused(format!("The recorded lesson was not written: {e}"));
    if let Some(problem) = recorded_problem(draft) {
        return Err(refused(Error::Refused(problem)));
    }
    let mut text = record::lesson_text(draft);
    for _ in 0..4 {
        let lesson = parse::parse(&text, path).map_err(refused)?;
        let (_, failures) = walk_lesson(&lesson).map_err(refused)?;
        if failures.is_empty() {
            let replayed = replay_scene(&lesson).map_err(refused)?;
            let end = draft.steps.last().map(|s| &s.end);
            let differences =
                end.map_or_else(Vec::new, |end| record::scene_differences(end, &replayed));
            if !differences.is_empty() {
                return Err(refused(Error::Refused(format!(
                    "its solution does not give the recorded scene ({}; was the scene replaced \
                     while recording?)",
                    first_few(&differences)
                ))));
            }
            return Ok(text);
        }
        let lines: Vec<usize> = failures
            .iter()
            .filter_map(|f| failed_line(&f.message, path))
            .collect();
        let before = text.len();
        text = without_suggestions(&text, &lines);
        if text.len() == before {
            let messages: Vec<String> = failures.into_iter().map(|f| f.message).collect();
            return Err(refused(Error::Refused(messages.join("\n"))));
        }
    }
    Err(refused(Error::Refused(
        "its suggested goals kept failing the check".into(),
    )))
}

/// Why the recording cannot be a lesson, before any text is written: a step whose history
/// is not the recording's, or one that changed nothing.
fn recorded_problem(draft: &Draft) -> Option<String> {
    if let Some(k) = draft
        .steps
        .iter()
        .position(|s| !record::edits_lead_to_end(s))
    {
        return Some(format!(
            "the history no longer leads from where step {} started to the scene now (was \
             another scene opened, or the history undone past the start of the recording?): \
             Help > Drop the recording, and record again",
            k + 1
        ));
    }
    let k = draft.steps.iter().position(changed_nothing)?;
    Some(format!(
        "step {} records no change (perform the solution before Stop recording)",
        k + 1
    ))
}

/// True when a step holds no edit and no change of keep-world, view options or view space:
/// no goal can be suggested for it.
fn changed_nothing(step: &RecordedStep) -> bool {
    nothing_changed(step.edits.is_empty(), &step.before, &step.after)
}

/// At most five items, each cut short, then how many more there are.
fn first_few(items: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut shown: Vec<String> = items.iter().take(SHOWN).map(|s| parse::cut(s)).collect();
    if items.len() > SHOWN {
        shown.push(format!("and {} more", items.len() - SHOWN));
    }
    shown.join("; ")
}

/// The line a check failure names (`PATH:LINE:COL: …`).
fn failed_line(message: &str, path: &Path) -> Option<usize> {
    let rest = message.strip_prefix(&format!("{}:", path.display()))?;
    rest.split(':').next()?.parse().ok()
}

/// The text without the `goal:`, `keep:` and `mistake:` lines at these (1-based) line numbers.
fn without_suggestions(text: &str, lines: &[usize]) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.lines().enumerate() {
        let suggestion = ["goal:", "keep:", "mistake:"]
            .iter()
            .any(|key| line.starts_with(key));
        if suggestion && lines.contains(&(k + 1)) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The scene a lesson ends with when every step's solution is played, as Show me plays it.
pub fn replay_scene(lesson: &Lesson) -> Result<Scene> {
    let mut editor = Editor::new(Document::untitled(Scene::new()));
    for step in &lesson.steps {
        if let Some((source, at)) = &step.scene {
            let scene = load_scene(lesson, source, *at)?;
            editor.file_parts().swap_document(Document::untitled(scene));
        }
        editor.apply_setup(step, &lesson.path)?;
        let bindings = bind_step(editor.doc().scene(), step, &lesson.path)?;
        for (action, _) in &step.solution {
            let label = "Replay";
            for command in
                action_commands(&editor.play_from(), action, &bindings, &lesson.path, label)?
            {
                editor.play(command)?;
            }
            editor.update_world();
        }
        editor.dispatch(Command::History(HistoryCommand::EndGesture))?;
    }
    Ok(editor.doc().scene().clone())
}

#[cfg(test)]
mod tests {
    use super::{failed_line, without_suggestions};
    use std::path::Path;

    #[test]
    fn a_failing_suggestion_is_left_out_by_its_line_and_nothing_else() {
        let path = Path::new("/tmp/a: b.lesson");
        let message = "/tmp/a: b.lesson:3:7: step 1 \"Step 1\": goal `x` already holds";
        assert_eq!(failed_line(message, path), Some(3));
        assert_eq!(failed_line("other.lesson:3:7: …", path), None);
        let text = "step: a\ngoal: x exists\ngoal: y exists\ndo: add y under root\n";
        assert_eq!(
            without_suggestions(text, &[3]),
            "step: a\ngoal: x exists\ndo: add y under root\n"
        );
        // Only goal and keep lines go, whatever line a failure names.
        assert_eq!(without_suggestions(text, &[1, 4]), text);
    }
}
