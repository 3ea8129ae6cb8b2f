//! Lesson files as text → [`Lesson`]: line by line, every error at `FILE:LINE:COL`. The
//! grammar of directive values (goals, actions, set-ups) is in `parse/values.rs`.

mod located;
mod pointing;
mod predicting;
pub mod varying;

pub use tokens::substitute;
mod tokens;
mod values;

pub use located::{error_at, reworded};
pub use pointing::menu_entry;
pub use tokens::{QUOTED_CHARS, cut};

use super::{Goal, Lesson, Pos, SceneSource, Setup, Step};
use crate::error::Result;
use std::path::Path;
use values::Cursor;

/// The first line of every lesson file.
pub const MAGIC: &str = "graft lesson 1";

/// The keys a directive line may have.
const KEYS: [&str; 22] = [
    "title",
    "about",
    "id",
    "step",
    "scene",
    "select",
    "keep-world",
    "show",
    "look-from",
    "time",
    "play",
    "trails",
    "frame",
    "goal",
    "keep",
    "hint",
    "do",
    "point",
    "gesture",
    "predict",
    "mistake",
    "vary",
];

/// The keys of a step's task lines: read again once a learner's numbers are known.
const TASK_KEYS: [&str; 7] = ["goal", "keep", "do", "hint", "point", "predict", "mistake"];

/// True when this text starts like a lesson file (its first line is [`MAGIC`]).
pub fn is_lesson(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .lines()
        .next()
        .map(str::trim)
        == Some(MAGIC)
}

thread_local! {
    /// Lessons parsed on this thread (`parse_count`).
    static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many lessons this thread has parsed: tests prove a frame parses none.
pub fn parse_count() -> usize {
    PARSES.with(|n| n.get())
}

/// Read a lesson file's text (`path` names it in errors and is where relative scene paths
/// start). Any error refuses the whole file.
pub fn parse(text: &str, path: &Path) -> Result<Lesson> {
    PARSES.with(|n| n.set(n.get() + 1));
    let mut reader = Reader {
        path,
        lesson: Lesson {
            id: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            title: String::new(),
            about: String::new(),
            intro: Vec::new(),
            steps: Vec::new(),
            path: path.to_path_buf(),
        },
        paragraph: String::new(),
        paragraph_at: Vec::new(),
        fence: None,
        replaying: false,
    };
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim() == MAGIC => {}
        _ => {
            return Err(error_at(
                path,
                Pos { line: 1, col: 1 },
                format!("a lesson file starts with the line `{MAGIC}`"),
            ));
        }
    }
    for (index, line) in lines {
        reader.line(index + 1, line)?;
    }
    reader.finish(text.lines().count())
}

/// The parser's state between lines.
struct Reader<'a> {
    path: &'a Path,
    lesson: Lesson,
    /// The text paragraph being gathered.
    paragraph: String,
    /// Where its lines start: (byte offset in it, place in the file).
    paragraph_at: Vec<(usize, Pos)>,
    /// An inline scene: where `scene:` was, and once its ``` opened, the text so far and the
    /// line it starts on.
    fence: Option<(Pos, Option<(String, usize)>)>,
    /// A task line is being read again (not recorded as a template).
    replaying: bool,
}

impl Reader<'_> {
    fn line(&mut self, number: usize, raw: &str) -> Result<()> {
        if self.fence.is_some() {
            return self.fenced(number, raw);
        }
        let indent = raw.len() - raw.trim_start().len();
        let line = raw.trim();
        let col = raw[..indent].chars().count() + 1;
        let at = Pos { line: number, col };
        if line.starts_with("//") {
            return Ok(());
        }
        if line.is_empty() {
            self.end_paragraph();
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix('\\') {
            let after = Pos {
                line: number,
                col: col + 1,
            };
            self.text(rest, after);
            return Ok(());
        }
        match directive(line) {
            Some((key, _)) if !known_key(key) => Err(error_at(
                self.path,
                at,
                format!(
                    "unknown key `{key}:`; the keys are {}. To start a text line with `{key}:`, write `\\` before it",
                    KEYS.join(", "),
                    key = cut(key)
                ),
            )),
            Some((key, value_offset)) => {
                self.end_paragraph();
                let value = &line[value_offset..];
                let value_col = col + line[..value_offset].chars().count();
                let trimmed = value.trim_start();
                let value_col = value_col + (value.len() - trimmed.len());
                self.directive(
                    key,
                    trimmed.trim_end(),
                    at,
                    Pos {
                        line: number,
                        col: value_col,
                    },
                )
            }
            None => {
                self.text(line, at);
                Ok(())
            }
        }
    }

    /// A line after `scene:` with no value: the opening ```, the scene's text, or the closing ```.
    fn fenced(&mut self, number: usize, raw: &str) -> Result<()> {
        let Some((at, body)) = self.fence.as_mut() else {
            return Ok(());
        };
        let at = *at;
        let is_fence = raw.trim().starts_with("```");
        match body {
            None if raw.trim().is_empty() => {}
            None if is_fence => *body = Some((String::new(), number + 1)),
            None => {
                return Err(error_at(
                    self.path,
                    Pos {
                        line: number,
                        col: 1,
                    },
                    "`scene:` with no value is followed by the scene's text between two ``` lines",
                ));
            }
            Some((text, first)) if raw.trim() == "```" => {
                let source = SceneSource::Inline(std::mem::take(text), *first);
                self.fence = None;
                self.current_step(at)?.scene = Some((source, at));
            }
            Some((text, _)) => {
                text.push_str(raw);
                text.push('\n');
            }
        }
        Ok(())
    }

    fn text(&mut self, line: &str, at: Pos) {
        if !self.paragraph.is_empty() {
            self.paragraph.push(' ');
        }
        self.paragraph_at.push((self.paragraph.len(), at));
        self.paragraph.push_str(line);
    }

    fn end_paragraph(&mut self) {
        if self.paragraph.is_empty() {
            return;
        }
        let paragraph = std::mem::take(&mut self.paragraph);
        let at = std::mem::take(&mut self.paragraph_at);
        match self.lesson.steps.last_mut() {
            Some(step) => {
                step.text.push(paragraph);
                step.text_at.push(at);
            }
            None => self.lesson.intro.push(paragraph),
        }
    }

    fn current_step(&mut self, at: Pos) -> Result<&mut Step> {
        let path = self.path;
        self.lesson.steps.last_mut().ok_or_else(|| {
            error_at(
                path,
                at,
                "this line belongs to a step: write `step: TITLE` first",
            )
        })
    }

    fn directive(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        let needs_value = |what: &str| -> Result<()> {
            if value.is_empty() {
                Err(error_at(path, value_at, format!("`{key}:` needs {what}")))
            } else {
                Ok(())
            }
        };
        if TASK_KEYS.contains(&key) && !self.replaying {
            return self.task_line(key, value, at, value_at);
        }
        match key {
            "vary" | "predict" | "mistake" => {
                needs_value(match key {
                    "vary" => "`NAME from LOW to HIGH` or `NODE local rotation from LOW to HIGH`",
                    "predict" => "a node's value (`sword world position | Where will it be?`)",
                    _ => "a mistake's name or a wrong value",
                })?;
                self.predict(key, value, at, value_at)
            }
            "title" | "about" | "id" => self.header(key, value, at, value_at),
            "step" => {
                needs_value("a title")?;
                self.lesson.steps.push(new_step(value, at));
                Ok(())
            }
            "scene" => self.scene(value, at, value_at),
            "hint" => {
                needs_value("the hint's text")?;
                self.current_step(at)?.hints.push(value.to_string());
                Ok(())
            }
            "point" | "gesture" => {
                needs_value("a target (docs/lesson-format.md, Pointing at the editor)")?;
                self.pointing(key, value, at, value_at)
            }
            "goal" | "keep" | "do" => {
                needs_value(if key == "do" {
                    "an action"
                } else {
                    "a predicate"
                })?;
                self.task(key, value, at, value_at)
            }
            _ => {
                needs_value("a value")?;
                let mut cursor = Cursor::new(path, value, value_at)?;
                let step = self.current_step(at)?;
                cursor.setup(key, &mut step.setup)?;
                cursor.end()
            }
        }
    }

    /// A `title:`, `about:` or `id:` line, before the first step.
    fn header(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        if !self.lesson.steps.is_empty() {
            return Err(error_at(
                path,
                at,
                format!("`{key}:` belongs to the lesson's header, before the first `step:`"),
            ));
        }
        match key {
            "title" if value.is_empty() => Err(error_at(
                path,
                value_at,
                "`title:` needs the lesson's title",
            )),
            "title" => {
                self.lesson.title = value.to_string();
                Ok(())
            }
            "about" => {
                self.lesson.about = value.to_string();
                Ok(())
            }
            _ => self.id(value, value_at),
        }
    }

    /// A task line as written: kept (to be read again once a learner's numbers are known),
    /// then read now, its placeholders as 1.
    fn task_line(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let line = crate::editor::lesson::vary::Line {
            key: key.to_string(),
            value: value.to_string(),
            at,
            value_at,
        };
        self.current_step(at)?.templated.push(line);
        let read = tokens::substitute(value, self.path, value_at, &|_| Some(1.0))?;
        self.replaying = true;
        let result = self.directive(key, &read, at, value_at);
        self.replaying = false;
        result
    }

    /// A `goal:`, `keep:` or `do:` line of the current step.
    fn task(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        if key == "do" {
            let mut cursor = Cursor::new(path, value, value_at)?;
            let action = cursor.action()?;
            cursor.end()?;
            self.current_step(at)?.solution.push((action, value_at));
            return Ok(());
        }
        let goal = goal(path, value, value_at)?;
        let step = self.current_step(at)?;
        if key == "goal" {
            &mut step.goals
        } else {
            &mut step.keeps
        }
        .push(goal);
        Ok(())
    }

    /// A `point:` or `gesture:` line of the current step.
    fn pointing(&mut self, key: &str, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        if key == "point" {
            let point = pointing::point(path, value, value_at)?;
            self.current_step(at)?.pointing.points.push(point);
        } else {
            let gesture = pointing::gesture(path, value, value_at)?;
            self.current_step(at)?.pointing.gestures.push(gesture);
        }
        Ok(())
    }

    fn id(&mut self, value: &str, at: Pos) -> Result<()> {
        let valid = !value.is_empty()
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(error_at(
                self.path,
                at,
                "an id is letters, digits, `-` and `_` (progress is remembered under it)",
            ));
        }
        self.lesson.id = value.to_string();
        Ok(())
    }

    fn scene(&mut self, value: &str, at: Pos, value_at: Pos) -> Result<()> {
        let path = self.path;
        let step = self.current_step(at)?;
        if step.scene.is_some() {
            return Err(error_at(path, at, "this step already has a scene"));
        }
        if value.is_empty() {
            self.fence = Some((at, None));
            return Ok(());
        }
        let source = match value.strip_prefix("sample ") {
            Some(name) => {
                let name = name.trim();
                if super::course::sample_scene(name).is_none() {
                    return Err(error_at(
                        path,
                        Pos {
                            col: value_at.col + 7,
                            ..value_at
                        },
                        format!(
                            "no sample scene is called `{}`; the samples are {}",
                            cut(name),
                            super::course::SAMPLE_NAMES.join(", ")
                        ),
                    ));
                }
                SceneSource::Sample(name.to_string())
            }
            None => SceneSource::File(value.into()),
        };
        step.scene = Some((source, value_at));
        Ok(())
    }

    fn finish(mut self, line_count: usize) -> Result<Lesson> {
        let end = Pos {
            line: line_count.max(1),
            col: 1,
        };
        if let Some((at, _)) = &self.fence {
            return Err(error_at(
                self.path,
                *at,
                "the inline scene's ``` block is never closed",
            ));
        }
        self.end_paragraph();
        let lesson = self.lesson;
        if lesson.title.is_empty() {
            return Err(error_at(self.path, end, "the lesson has no `title:` line"));
        }
        let Some(first) = lesson.steps.first() else {
            return Err(error_at(self.path, end, "the lesson has no `step:`"));
        };
        if first.scene.is_none() {
            return Err(error_at(
                self.path,
                first.at,
                "the first step needs a `scene:`",
            ));
        }
        let mut lesson = lesson;
        for step in &mut lesson.steps {
            let placeholders = step.text.iter().any(|p| p.contains('{'))
                || step.templated.iter().any(|l| l.value.contains('{'));
            if !placeholders {
                step.templated.clear();
            }
        }
        for step in &lesson.steps {
            if step.goals.is_empty() {
                return Err(error_at(
                    self.path,
                    step.at,
                    format!("step \"{}\" has no `goal:`", cut(&step.title)),
                ));
            }
            if step.solution.is_empty() {
                return Err(error_at(
                    self.path,
                    step.at,
                    format!("step \"{}\" has no `do:` solution", cut(&step.title)),
                ));
            }
        }
        Ok(lesson)
    }
}

/// An empty step titled `title`.
fn new_step(title: &str, at: Pos) -> Step {
    Step {
        title: title.to_string(),
        at,
        scene: None,
        setup: Setup::default(),
        text: Vec::new(),
        text_at: Vec::new(),
        goals: Vec::new(),
        keeps: Vec::new(),
        hints: Vec::new(),
        solution: Vec::new(),
        pointing: Default::default(),
        predict: None,
        vary: Vec::new(),
        templated: Vec::new(),
    }
}

/// `key:` at the start of a line: the key and where its value starts. A line that looks like
/// one (lowercase letters and `-`, then `:`) with an unknown key is refused by the caller.
fn directive(line: &str) -> Option<(&str, usize)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    let looks_like_key = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && key.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    looks_like_key.then_some((key, colon + 1))
}

/// A goal line's value: `PREDICATE` or `PREDICATE | LABEL`.
fn goal(path: &Path, value: &str, at: Pos) -> Result<Goal> {
    let (predicate_text, label) = match tokens::split_label(value) {
        Some((p, l)) => (p, Some(l.trim().to_string())),
        None => (value, None),
    };
    let mut cursor = Cursor::new(path, predicate_text, at)?;
    let predicate = cursor.predicate()?;
    cursor.end()?;
    Ok(Goal {
        predicate,
        label: label
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| predicate_text.trim().to_string()),
        check: predicate_text.trim().to_string(),
        at,
    })
}

/// True for the keys a directive may have.
fn known_key(key: &str) -> bool {
    KEYS.contains(&key)
}
