//! The one level-of-detail rule of the scene view, for the viewport and figures alike: a node
//! whose half-extent on screen is under `tiny` pixels is summed into the density images instead
//! of drawn as itself. `tiny` starts at [`TINY_MIN`]; a plan that keeps more than the shape
//! budget is made again with `tiny` [`TINY_STEP`] times bigger, up to [`TINY_MAX`] (a node 16 px
//! across is always drawn as itself). The viewport keeps its `tiny` from frame to frame and
//! lowers it again only when the view changed and the frame drew well under the budget.

use crate::editor::view::draw_list::FEW_NODES;
use crate::editor::view::frame_plan::{self, FramePlan, PlanInput};

/// The smallest splat threshold: half-extent in pixels (a node 4 px across).
pub const TINY_MIN: f64 = 2.0;
/// The largest splat threshold (px).
pub const TINY_MAX: f64 = 8.0;
/// How much bigger the threshold gets per step over the budget (and smaller per step under).
pub const TINY_STEP: f64 = 1.5;
/// Shapes a frame keeps at most before it is planned coarser (a million-node frame stays
/// bounded; a figure stays a few megabytes).
pub const SHAPE_BUDGET: usize = 30_000;

/// The threshold for the next plan after one that kept `drawn` shapes at `tiny`: bigger when
/// over `budget` (None when it cannot grow: the plan stands).
pub fn coarser(tiny: f64, drawn: usize, budget: usize) -> Option<f64> {
    (drawn > budget && tiny < TINY_MAX).then(|| (tiny * TINY_STEP).min(TINY_MAX))
}

/// The threshold the next frame starts from, after one that drew `drawn` shapes at `tiny`:
/// bigger over the budget; smaller well under it, but only once the view changed (an unchanged
/// view settles on one threshold instead of flipping between two).
pub fn adapted(tiny: f64, drawn: usize, view_changed: bool, budget: usize) -> f64 {
    if let Some(bigger) = coarser(tiny, drawn, budget) {
        bigger
    } else if drawn < budget / 3 && view_changed {
        (tiny / TINY_STEP).max(TINY_MIN)
    } else {
        tiny
    }
}

/// Plan `input` (starting from its `tiny`) and plan again coarser while over `budget`; `input`
/// keeps the threshold the plan was made at. Both the viewport and figures plan through this.
/// A scene of at most [`FEW_NODES`] nodes splats nothing (each of its nodes is named and
/// detailed, however small: the solar system's moon and probe).
pub fn plan_within(
    input: &mut PlanInput,
    budget: usize,
    threads: usize,
    reuse: FramePlan,
) -> FramePlan {
    if input.scene.len() <= FEW_NODES {
        let whole = PlanInput {
            tiny: 0.0,
            ..*input
        };
        return frame_plan::plan(&whole, threads, reuse);
    }
    let mut plan = frame_plan::plan(input, threads, reuse);
    while let Some(tiny) = coarser(input.tiny, plan.draw.len(), budget) {
        input.tiny = tiny;
        plan = frame_plan::plan(input, threads, plan);
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_grows_over_the_budget_and_shrinks_only_when_the_view_changed() {
        assert_eq!(coarser(TINY_MIN, SHAPE_BUDGET + 1, SHAPE_BUDGET), Some(3.0));
        assert_eq!(coarser(TINY_MAX, SHAPE_BUDGET + 1, SHAPE_BUDGET), None);
        assert_eq!(coarser(6.0, SHAPE_BUDGET + 1, SHAPE_BUDGET), Some(TINY_MAX));
        assert_eq!(coarser(TINY_MIN, SHAPE_BUDGET, SHAPE_BUDGET), None);
        assert_eq!(adapted(4.5, 10, false, SHAPE_BUDGET), 4.5);
        assert_eq!(adapted(4.5, 10, true, SHAPE_BUDGET), 3.0);
        assert_eq!(adapted(TINY_MIN, 10, true, SHAPE_BUDGET), TINY_MIN);
        assert_eq!(adapted(3.0, SHAPE_BUDGET / 2, true, SHAPE_BUDGET), 3.0);
    }
}
