//! `graft lesson report FILE…`: a class summary from learners' exported progress (Help ▸
//! Export my progress…): per lesson step, how many finished it, the median time, how many
//! predictions were right, and the most common mistake; as a table or `--csv`. A file that is
//! not a progress file is named on stderr and skipped.

use crate::editor::lesson::progress::{CourseProgress, StepRecord};
use crate::model::read_limit::{LESSON, read_text_bounded};
use crate::tools::failure::Failure;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// One row of the report: a step of a lesson over the class.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The lesson's id.
    pub lesson: String,
    /// The step, 1-based.
    pub step: usize,
    /// Learners who finished it.
    pub finished: usize,
    /// The median of their times, in seconds.
    pub median_seconds: f32,
    /// Predictions given.
    pub predicted: usize,
    /// Predictions right.
    pub right: usize,
    /// The mistake most often named, and how many times (None: no mistake was named).
    pub mistake: Option<(String, usize)>,
}

/// The rows of the report over these learners' progress, by lesson id then step.
pub fn rows(learners: &[CourseProgress]) -> Vec<Row> {
    let mut steps: BTreeMap<(String, usize), Vec<&StepRecord>> = BTreeMap::new();
    for learner in learners {
        for (lesson, records) in learner.records() {
            for (step, record) in records {
                steps
                    .entry((lesson.clone(), *step))
                    .or_default()
                    .push(record);
            }
        }
    }
    steps
        .into_iter()
        .map(|((lesson, step), records)| row(lesson, step, &records))
        .collect()
}

fn row(lesson: String, step: usize, records: &[&StepRecord]) -> Row {
    let mut times: Vec<f32> = records.iter().map(|r| r.seconds).collect();
    times.sort_by(f32::total_cmp);
    let median_seconds = match times.len() {
        0 => 0.0,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    let predictions: Vec<&str> = (records.iter())
        .filter_map(|r| r.prediction.as_ref().map(|p| p.verdict.as_str()))
        .collect();
    let mut mistakes: BTreeMap<&str, usize> = BTreeMap::new();
    for verdict in predictions
        .iter()
        .filter(|v| !matches!(**v, "right" | "wrong"))
    {
        *mistakes.entry(verdict).or_default() += 1;
    }
    // The most common; on a tie, the first by name.
    let mistake = (mistakes.into_iter())
        .fold(None, |best: Option<(&str, usize)>, (name, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((name, n)),
        })
        .map(|(name, n)| (name.to_string(), n));
    Row {
        lesson,
        step: step + 1,
        finished: records.len(),
        median_seconds,
        predicted: predictions.len(),
        right: predictions.iter().filter(|v| **v == "right").count(),
        mistake,
    }
}

/// Read the files (skipping, with a line on `err`, those that are not progress), then print
/// the report. Fails when no file could be read.
pub fn report(
    files: &[PathBuf],
    csv: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let mut learners = Vec::new();
    let mut names = Vec::new();
    for file in files {
        let read = read_text_bounded(file, LESSON)
            .map_err(|e| e.to_string())
            .and_then(|text| CourseProgress::from_json(&text));
        match read {
            Ok(progress) => {
                learners.push(progress);
                names.push(file.display().to_string());
            }
            Err(e) => writeln!(
                err,
                "skipped {}: not a graft progress file ({e})",
                file.display()
            )?,
        }
    }
    if learners.is_empty() {
        return Err(Failure("no progress file could be read".into()));
    }
    let rows = rows(&learners);
    if csv {
        write_csv(&rows, out)?;
    } else {
        write_table(&rows, learners.len(), out)?;
        write_seeds(&names, &learners, out)?;
    }
    Ok(())
}

/// Each learner's seed (the numbers their `vary:` lines drew): `GRAFT_LESSON_SEED=N graft`
/// shows a teacher the lesson as that learner saw it. Seed 0: the lessons' own numbers.
fn write_seeds(
    names: &[String],
    learners: &[CourseProgress],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "seeds (GRAFT_LESSON_SEED=N graft shows a learner's numbers; 0: the lessons' own):"
    )?;
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (name, learner) in names.iter().zip(learners) {
        writeln!(out, "  {name:<width$}  {}", learner.seed())?;
    }
    Ok(())
}

fn write_csv(rows: &[Row], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "lesson,step,finished,median_seconds,predicted,right,most_common_mistake,times"
    )?;
    for r in rows {
        let (name, n) = r.mistake.clone().unwrap_or_default();
        let name = name.replace('"', "\"\"");
        writeln!(
            out,
            "{},{},{},{:.1},{},{},\"{name}\",{n}",
            r.lesson, r.step, r.finished, r.median_seconds, r.predicted, r.right
        )?;
    }
    Ok(())
}

fn write_table(rows: &[Row], learners: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let header = [
        "lesson",
        "step",
        "finished",
        "median time",
        "predictions right",
        "most common mistake",
    ];
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.lesson.clone(),
                r.step.to_string(),
                format!("{}/{learners}", r.finished),
                format!("{:.0} s", r.median_seconds),
                if r.predicted == 0 {
                    "-".into()
                } else {
                    format!("{}/{}", r.right, r.predicted)
                },
                r.mistake
                    .as_ref()
                    .map_or_else(|| "-".into(), |(name, n)| format!("{name} ({n})")),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |row: &[String]| {
        let padded: Vec<String> = (row.iter().zip(widths))
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    writeln!(out, "{learners} learners")?;
    writeln!(out, "{}", line(&header.map(String::from)))?;
    for row in &cells {
        writeln!(out, "{}", line(row))?;
    }
    Ok(())
}
