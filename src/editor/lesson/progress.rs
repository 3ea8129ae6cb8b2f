//! Which steps of which lessons a learner has completed, remembered between runs (the window
//! keeps it in its storage as text), with what a teacher's report reads of each step: the
//! time it took, the hints and Show me used, and the prediction and how far off it was.
//! Local only: Help ▸ Export my progress… writes it as one JSON file for the learner to hand in.

use std::collections::{BTreeMap, BTreeSet};

/// The seed `GRAFT_LESSON_SEED` fixes for this run (0: the lessons' own numbers, as a teacher
/// shows them), when it is set to a number.
pub fn run_seed() -> Option<u64> {
    let text = std::env::var("GRAFT_LESSON_SEED").ok()?;
    text.trim().parse().ok()
}

/// Completed steps by lesson id.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CourseProgress {
    done: BTreeMap<String, BTreeSet<usize>>,
    /// The seed this learner's `vary:` numbers are drawn by (0: not drawn yet, and until then
    /// the lessons' own numbers).
    #[serde(default)]
    seed: u64,
    /// A seed for this run only (`GRAFT_LESSON_SEED`), not kept.
    #[serde(skip)]
    run_seed: Option<u64>,
    /// What happened in each completed step, by lesson id and step index (the first time).
    #[serde(default)]
    records: BTreeMap<String, BTreeMap<usize, StepRecord>>,
}

/// How a learner did a step, the first time it was completed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepRecord {
    /// Seconds from the step's start to its completion.
    pub seconds: f32,
    /// Hints shown.
    pub hints: usize,
    /// Show me (See it) was pressed.
    pub shown: bool,
    /// The prediction, when the step asked for one and it was given.
    pub prediction: Option<PredictionRecord>,
}

/// A prediction as the report reads it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PredictionRecord {
    /// The value predicted (one number, or x and y).
    pub value: Vec<f32>,
    /// `right`, `wrong`, or the name of the mistake it was near.
    pub verdict: String,
    /// How far from the answer.
    pub error: f32,
    /// Given after the result was on screen.
    pub late: bool,
}

impl CourseProgress {
    /// Progress read back from [`CourseProgress::to_text`]; anything unreadable is no progress.
    pub fn from_text(text: &str) -> Self {
        ron::from_str(text).unwrap_or_default()
    }

    /// As text, for the window's storage.
    pub fn to_text(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }

    /// Remember that step `step` of lesson `id` was completed; true when it is new.
    pub fn complete(&mut self, id: &str, step: usize) -> bool {
        self.done.entry(id.to_string()).or_default().insert(step)
    }

    /// True when step `step` of lesson `id` was completed.
    pub fn is_done(&self, id: &str, step: usize) -> bool {
        self.done.get(id).is_some_and(|s| s.contains(&step))
    }

    /// How many steps of lesson `id` were completed.
    pub fn count(&self, id: &str) -> usize {
        self.done.get(id).map_or(0, BTreeSet::len)
    }

    /// Keep how step `step` of lesson `id` went (only the first completion is kept).
    pub fn record(&mut self, id: &str, step: usize, record: StepRecord) {
        let steps = self.records.entry(id.to_string()).or_default();
        steps.entry(step).or_insert(record);
    }

    /// The records of every lesson, by id and step.
    pub fn records(&self) -> &BTreeMap<String, BTreeMap<usize, StepRecord>> {
        &self.records
    }

    /// As one JSON file (Help ▸ Export my progress…, `graft lesson report`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Read back from [`CourseProgress::to_json`]; what is wrong with the text, when it is not.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The seed lessons draw their numbers by: this run's, else this learner's (0, the
    /// lessons' own numbers, until [`CourseProgress::draw_seed`]).
    pub fn seed(&self) -> u64 {
        self.run_seed.unwrap_or(self.seed)
    }

    /// The window's start: a learner without a seed gets one, kept with the progress (the same
    /// learner always gets the same numbers, two learners different ones); `run` (from
    /// `GRAFT_LESSON_SEED`) is used for this run instead, without being kept.
    pub fn draw_seed(&mut self, run: Option<u64>) {
        if self.seed == 0 {
            self.seed = fastrand::u64(1..);
        }
        self.run_seed = run;
    }

    /// The progress with this seed (a report's generated learners, tests).
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The first step of a lesson of `steps` steps not completed yet (0 when all are).
    pub fn resume_at(&self, id: &str, steps: usize) -> usize {
        (0..steps).find(|&k| !self.is_done(id, k)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::CourseProgress;

    #[test]
    fn progress_survives_text_and_bad_text_is_none() {
        let mut p = CourseProgress::default();
        assert!(p.complete("reparent", 0));
        assert!(!p.complete("reparent", 0));
        p.complete("reparent", 2);
        let back = CourseProgress::from_text(&p.to_text());
        assert_eq!(back, p);
        assert_eq!(back.resume_at("reparent", 3), 1);
        assert_eq!(back.count("reparent"), 2);
        assert_eq!(
            CourseProgress::from_text("not ron"),
            CourseProgress::default()
        );
    }
}
