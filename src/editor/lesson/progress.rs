//! Which steps of which lessons a learner has completed, remembered between runs (the window
//! keeps it in its storage as text).

use std::collections::{BTreeMap, BTreeSet};

/// Completed steps by lesson id.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CourseProgress {
    done: BTreeMap<String, BTreeSet<usize>>,
    /// The seed this learner's `vary:` numbers are drawn by (0: not drawn yet).
    #[serde(default)]
    seed: u64,
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

    /// The seed of this learner's numbers, drawn the first time it is asked for and kept
    /// with the progress: the same learner always gets the same numbers.
    pub fn seed(&mut self) -> u64 {
        if self.seed == 0 {
            self.seed = fastrand::u64(1..);
        }
        self.seed
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
