//! How wide the side panels may be: with a lesson open the viewport keeps at least half the
//! window (the lesson shares the right column with the inspector).

/// The narrowest the hierarchy gets.
pub const MIN_HIERARCHY: f32 = 180.0;
/// The narrowest the right column (inspector, and a lesson above it) gets.
pub const MIN_RIGHT: f32 = 300.0;
/// Room for the panels' separators and margins.
const SEPARATORS: f32 = 16.0;

/// The widest the hierarchy may be in a window `window` wide (a lesson open or not).
pub fn max_hierarchy(window: f32, lesson: bool) -> f32 {
    if lesson {
        (window / 2.0 - MIN_RIGHT - 80.0 - SEPARATORS).max(MIN_HIERARCHY)
    } else {
        600.0
    }
}

/// The widest the right column may be beside a hierarchy `hierarchy` wide.
pub fn max_right(window: f32, hierarchy: f32, lesson: bool) -> f32 {
    if lesson {
        (window / 2.0 - hierarchy - SEPARATORS).max(MIN_RIGHT)
    } else {
        900.0
    }
}
