//! `graft lesson check FILE…`, `graft lesson list` (and `report`, in `lesson_report.rs`): lessons validated and their solutions
//! played headless through `Editor::apply`, as CI checks the built-in course.

use crate::editor::lesson::course;
use crate::editor::session::lesson::{LessonSource, read_lesson};
use crate::editor::session::lesson_check::{VARY_SEEDS, check_lesson};
use crate::tools::failure::Failure;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `graft lesson` does.
#[derive(clap::Subcommand, Debug)]
pub enum LessonCommand {
    /// Validate lessons and play each step's solution: a goal true before it, or false after
    /// it, fails (exit 1) with the step and the goal named.
    #[command(
        after_help = "Examples:\n  graft lesson check my-lesson.lesson\n  graft lesson check --builtin"
    )]
    Check {
        /// Lesson files.
        #[arg(required_unless_present = "builtin")]
        files: Vec<PathBuf>,
        /// Check the built-in course too.
        #[arg(long)]
        builtin: bool,
    },
    /// Print the built-in course: each lesson's title, steps and what it is about.
    List,
    /// A class summary from learners' exported progress files (Help > Export my progress…):
    /// per lesson step, how many finished it, the median time, predictions right, and the most
    /// common mistake. A file that is not a progress file is named and skipped.
    #[command(
        after_help = "Examples:\n  graft lesson report class/*.json\n  graft lesson report class/*.json --csv > class.csv"
    )]
    Report {
        /// Progress files (JSON).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Comma-separated values instead of a table.
        #[arg(long)]
        csv: bool,
    },
    /// Turn a crash journal (every edit of a session) into a lesson skeleton: one step from
    /// the journal's first scene whose `do:` lines redo its edits, with suggested goals and
    /// keeps. The lesson written passes `graft lesson check`; the journal is only read.
    #[command(
        after_help = "Example:\n  graft lesson record-from-journal ~/.local/state/graft/journals/1234.journal -o reparent.lesson"
    )]
    RecordFromJournal {
        /// The crash journal (`.journal`).
        journal: PathBuf,
        /// The lesson file to write.
        #[arg(short, long)]
        out: PathBuf,
        /// The lesson's title (default: the output file's name).
        #[arg(long)]
        title: Option<String>,
    },
}

/// Run `graft lesson …`.
pub fn run(command: LessonCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match command {
        LessonCommand::List => list(out),
        LessonCommand::Report { files, csv } => {
            super::lesson_report::report(&files, csv, out, &mut std::io::stderr())
        }
        LessonCommand::RecordFromJournal {
            journal,
            out: lesson,
            title,
        } => record_from_journal(&journal, &lesson, title, out),
        LessonCommand::Check { files, builtin } => {
            let mut sources: Vec<LessonSource> = Vec::new();
            if builtin {
                sources.extend((0..course::COURSE.len()).map(LessonSource::Builtin));
            }
            sources.extend(files.into_iter().map(LessonSource::File));
            check(&sources, out)
        }
    }
}

fn list(out: &mut dyn Write) -> Result<(), Failure> {
    for (k, (file, _)) in course::COURSE.iter().enumerate() {
        let lesson = read_lesson(&LessonSource::Builtin(k))?;
        writeln!(
            out,
            "{}. {} ({file}, {} steps)",
            k + 1,
            lesson.title,
            lesson.steps.len()
        )?;
        if !lesson.about.is_empty() {
            writeln!(out, "   {}", lesson.about)?;
        }
        for (s, step) in lesson.steps.iter().enumerate() {
            writeln!(out, "   {}.{} {}", k + 1, s + 1, step.title)?;
        }
    }
    Ok(())
}

fn check(sources: &[LessonSource], out: &mut dyn Write) -> Result<(), Failure> {
    let mut problems = Vec::new();
    for source in sources {
        let checked = read_lesson(source).and_then(|lesson| {
            let failures = check_lesson(&lesson)?;
            Ok((lesson, failures))
        });
        match checked {
            Ok((lesson, failures)) if failures.is_empty() => {
                let goals: usize = lesson
                    .steps
                    .iter()
                    .map(|s| s.goals.len() + s.keeps.len())
                    .sum();
                let steps = lesson.steps.len();
                let plural = if steps == 1 { "" } else { "s" };
                let varies = lesson.steps.iter().any(|s| !s.vary.is_empty());
                let seeds = if varies {
                    format!(", with the numbers of {VARY_SEEDS} learners")
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "ok   {} ({}): {steps} step{plural}, {goals} goals and keeps{seeds}",
                    lesson.path.display(),
                    lesson.title,
                )?;
            }
            Ok((lesson, failures)) => {
                writeln!(out, "FAIL {} ({})", lesson.path.display(), lesson.title)?;
                problems.extend(failures.into_iter().map(|f| f.message));
            }
            Err(e) => {
                writeln!(out, "FAIL {}", source_name(source))?;
                problems.push(e.to_string());
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Failure(problems.join("\n")))
    }
}

fn source_name(source: &LessonSource) -> String {
    match source {
        LessonSource::Builtin(k) => course::COURSE.get(*k).map_or_else(String::new, |(f, _)| {
            course::builtin_path(f).display().to_string()
        }),
        LessonSource::File(path) => path.display().to_string(),
    }
}

/// `graft lesson record-from-journal`: read the journal (never written), check the lesson
/// text, and only then write it.
fn record_from_journal(
    journal: &Path,
    lesson: &Path,
    title: Option<String>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    use crate::editor::session::record::{draft_from_journal, scene_ref};
    use crate::editor::session::record_check::checked_lesson_text;
    use crate::model::read_limit;
    let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok());
    if same(journal, lesson).is_some_and(|(a, b)| a == b) {
        return Err(Failure(format!(
            "{}: the lesson would overwrite the journal it is read from",
            lesson.display()
        )));
    }
    // The error names the file already.
    let bytes = read_limit::read_bounded(journal, read_limit::JOURNAL)
        .map_err(|e| Failure(format!("cannot read the journal: {e}")))?;
    let title = title.unwrap_or_else(|| {
        lesson.file_stem().map_or("Recorded lesson".into(), |s| {
            s.to_string_lossy().into_owned()
        })
    });
    let mut found = draft_from_journal(&bytes, &title)
        .map_err(|e| Failure(format!("{}: {e}", journal.display())))?;
    if found.draft.steps.iter().all(|s| s.edits.is_empty()) {
        return Err(Failure(format!(
            "{}: the journal holds no edit to make a lesson of",
            journal.display()
        )));
    }
    let start = &found.draft.steps[0].start;
    found.draft.scene = scene_ref(start, found.sprites.as_deref(), None, lesson)?;
    let text = checked_lesson_text(&found.draft, lesson)?;
    crate::model::atomic_write::atomic_write_with(lesson, |w| w.write_all(text.as_bytes()))?;
    let goals = text
        .lines()
        .filter(|l| l.starts_with("goal:") || l.starts_with("keep:"))
        .count();
    writeln!(
        out,
        "wrote {} ({title}): 1 step, {goals} goals and keeps, from {} changes of {}",
        lesson.display(),
        found.changes,
        journal.display()
    )?;
    if found.damaged {
        writeln!(
            out,
            "note: the journal was cut short or damaged; the lesson covers the changes before it"
        )?;
    }
    Ok(())
}
