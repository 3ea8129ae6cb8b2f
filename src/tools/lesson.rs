//! `graft lesson check FILE…` and `graft lesson list`: lessons validated and their solutions
//! played headless through `Editor::apply`, as CI checks the built-in course.

use crate::editor::lesson::course;
use crate::editor::session::lesson::{LessonSource, read_lesson, walk_lesson};
use crate::tools::cli::Failure;
use std::io::Write;
use std::path::PathBuf;

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
}

/// Run `graft lesson …`.
pub fn run(command: LessonCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match command {
        LessonCommand::List => list(out),
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
            let (_, failures) = walk_lesson(&lesson)?;
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
                writeln!(
                    out,
                    "ok   {} ({}): {steps} step{plural}, {goals} goals and keeps",
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
