//! The built-in course (`assets/lessons/`), compiled into the binary, and parsed. The sample
//! scenes lessons name with `scene: sample NAME` are in `samples.rs` (the parser checks the
//! names; re-exported here).

pub use super::samples::{SAMPLE_NAMES, sample_scene};

/// The built-in lessons in course order: file name and text.
pub const COURSE: [(&str, &str); 10] = [
    (
        "01-local-world.lesson",
        include_str!("../../../assets/lessons/01-local-world.lesson"),
    ),
    (
        "02-chain.lesson",
        include_str!("../../../assets/lessons/02-chain.lesson"),
    ),
    (
        "03-dirty.lesson",
        include_str!("../../../assets/lessons/03-dirty.lesson"),
    ),
    (
        "04-reparent.lesson",
        include_str!("../../../assets/lessons/04-reparent.lesson"),
    ),
    (
        "05-shear.lesson",
        include_str!("../../../assets/lessons/05-shear.lesson"),
    ),
    (
        "06-accumulated.lesson",
        include_str!("../../../assets/lessons/06-accumulated.lesson"),
    ),
    (
        "07-solar.lesson",
        include_str!("../../../assets/lessons/07-solar.lesson"),
    ),
    (
        "08-spaces.lesson",
        include_str!("../../../assets/lessons/08-spaces.lesson"),
    ),
    (
        "09-bounds.lesson",
        include_str!("../../../assets/lessons/09-bounds.lesson"),
    ),
    (
        "10-instances.lesson",
        include_str!("../../../assets/lessons/10-instances.lesson"),
    ),
];

/// The path a built-in lesson's errors name (`assets/lessons/FILE` in the source tree).
pub fn builtin_path(file: &str) -> std::path::PathBuf {
    std::path::Path::new("assets/lessons").join(file)
}

/// Every built-in lesson, parsed.
pub fn lessons() -> crate::error::Result<Vec<super::Lesson>> {
    COURSE
        .iter()
        .map(|(file, text)| super::parse::parse(text, &builtin_path(file)))
        .collect()
}

/// The built-in lesson at `k`, parsed on first use (not every frame); None past the course's end.
pub fn builtin(k: usize) -> Option<&'static super::Lesson> {
    static PARSED: std::sync::OnceLock<Vec<Option<super::Lesson>>> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        let parse = |(file, text): &(&str, &str)| super::parse::parse(text, &builtin_path(file));
        COURSE.iter().map(|entry| parse(entry).ok()).collect()
    });
    parsed.get(k)?.as_ref()
}

/// The course index of a built-in lesson, by the path its errors name.
pub fn index_of(path: &std::path::Path) -> Option<usize> {
    COURSE
        .iter()
        .position(|(file, _)| builtin_path(file) == path)
}

/// A built-in lesson as a list of the course shows it: parsed once per run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseEntry {
    /// Its place in the course (0: the first).
    pub index: usize,
    /// Its id, as progress keys it.
    pub id: String,
    /// Its title.
    pub title: String,
    /// How many steps it has.
    pub steps: usize,
}

/// The built-in lessons' ids, titles and step counts, parsed on first use (not every frame).
pub fn outline() -> &'static [CourseEntry] {
    static OUTLINE: std::sync::OnceLock<Vec<CourseEntry>> = std::sync::OnceLock::new();
    OUTLINE.get_or_init(|| {
        (0..COURSE.len())
            .filter_map(|index| {
                let lesson = builtin(index)?;
                Some(CourseEntry {
                    index,
                    id: lesson.id.clone(),
                    title: lesson.title.clone(),
                    steps: lesson.steps.len(),
                })
            })
            .collect()
    })
}

/// Where a learner with `progress` goes on: the first built-in lesson not finished, and
/// whether anything was done yet (None: the whole course is done).
pub fn next_lesson(
    progress: &super::progress::CourseProgress,
) -> Option<(&'static CourseEntry, bool)> {
    let started = outline().iter().any(|e| progress.count(&e.id) > 0);
    let next = outline().iter().find(|e| progress.count(&e.id) < e.steps)?;
    Some((next, started))
}
