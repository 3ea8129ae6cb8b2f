//! The transform grid's number fields: a tracker per column (local / world) that notices edits
//! and gesture ends, and the six-number helpers for editing a multi-selection.

use crate::editor::view::numbers::format_f32;
use crate::model::math::Trs;
use crate::model::scene::{NodeId, Scene};

/// Tracks edits to one column across widgets.
#[derive(Default)]
pub(super) struct Tracker {
    /// A value in this column changed this frame.
    pub(super) changed: bool,
    /// An edit in this column ended this frame (drag released, typed value committed).
    pub(super) ended: bool,
    /// The column's name, part of every widget id.
    column: &'static str,
    count: usize,
    /// Components whose values differ across a multi-selection (shown with a `~`).
    mixed: [bool; 6],
}

impl Tracker {
    /// A tracker for the column `column`, with the components that differ across the selection.
    pub(super) fn new(column: &'static str, mixed: [bool; 6]) -> Self {
        Self {
            column,
            mixed,
            ..Self::default()
        }
    }

    /// One number field of this column (`~` before the prefix when the selection differs).
    fn drag(&mut self, ui: &mut egui::Ui, value: &mut f32, speed: f64, prefix: &str, suffix: &str) {
        // Explicit ids: the local and world columns must never share a widget id, or typing
        // into one field would edit another.
        self.count += 1;
        let mixed = self.mixed.get(self.count - 1).copied().unwrap_or(false);
        let prefix = if mixed {
            format!("~{prefix}")
        } else {
            prefix.to_string()
        };
        // Scientific notation for the very large and very small (1e30 stays readable and
        // editable); everyday numbers as egui shows them. Typed inf/NaN reach the model, which
        // refuses them with a message.
        let drag = egui::DragValue::new(value)
            .speed(speed)
            .prefix(prefix)
            .suffix(suffix)
            .max_decimals(5)
            .custom_formatter(|v, decimals| {
                let a = v.abs();
                if v != 0.0 && v.is_finite() && !(1e-4..1e7).contains(&a) {
                    format_f32(v as f32)
                } else {
                    egui::emath::format_with_decimals_in_range(v, decimals)
                }
            });
        let mut r = ui
            .push_id((self.column, self.count), |ui| ui.add(drag))
            .inner;
        if mixed {
            r = r.on_hover_text(
                "The selected nodes differ here; editing sets this value on all of them.",
            );
        }
        self.changed |= r.changed();
        self.ended |= r.drag_stopped() || (r.changed() && !r.dragged()) || r.lost_focus();
    }
}

/// One grid row of an (x, y) pair in both columns; the world one only when `world_enabled`.
pub(super) fn vec_row(
    ui: &mut egui::Ui,
    label: &str,
    speed: f64,
    local: (&mut Tracker, &mut glam::Vec2),
    world: (&mut Tracker, &mut glam::Vec2),
    world_enabled: bool,
) {
    ui.label(label);
    for ((tracker, v), enabled) in [(local, true), (world, world_enabled)] {
        ui.add_enabled_ui(enabled, |ui| {
            ui.horizontal(|ui| {
                tracker.drag(ui, &mut v.x, speed, "x ", "");
                tracker.drag(ui, &mut v.y, speed, "y ", "");
            })
        });
    }
    ui.end_row();
}

/// One grid row of an angle in both columns.
pub(super) fn angle_row(
    ui: &mut egui::Ui,
    label: &str,
    local: (&mut Tracker, &mut f32),
    world: (&mut Tracker, &mut f32),
    world_enabled: bool,
) {
    ui.label(label);
    local.0.drag(ui, local.1, 0.5, "", "°");
    ui.add_enabled_ui(world_enabled, |ui| world.0.drag(ui, world.1, 0.5, "", "°"));
    ui.end_row();
}

/// Which of the six numbers differ (bit for bit) between two transforms.
pub(super) fn changed_components(before: &Trs, after: &Trs) -> [bool; 6] {
    let (a, b) = (before.components(), after.components());
    std::array::from_fn(|k| a[k].to_bits() != b[k].to_bits())
}

/// `base` with the numbers marked in `mask` taken from `from`.
pub(super) fn replace_components(base: &Trs, from: &Trs, mask: [bool; 6]) -> Trs {
    let (mut v, f) = (base.components(), from.components());
    for k in 0..6 {
        if mask[k] {
            v[k] = f[k];
        }
    }
    Trs::new(
        glam::Vec2::new(v[0], v[1]),
        v[2],
        glam::Vec2::new(v[3], v[4]),
        v[5],
    )
}

/// Which of the six numbers are not the same across the selection.
pub(super) fn mixed_components(
    scene: &Scene,
    selection: &[NodeId],
    of: impl Fn(NodeId) -> Option<Trs>,
) -> [bool; 6] {
    let values: Vec<[f32; 6]> = selection
        .iter()
        .filter(|n| scene.contains(**n))
        .filter_map(|&n| of(n))
        .map(|t| t.components())
        .collect();
    std::array::from_fn(|k| {
        values
            .windows(2)
            .any(|w| w[0][k].to_bits() != w[1][k].to_bits())
    })
}

/// Keep the x:y ratio of scale when one of them was edited.
pub(super) fn lock_ratio(before: glam::Vec2, after: &mut glam::Vec2) {
    if after.x != before.x && before.x != 0.0 {
        after.y = before.y * after.x / before.x;
    } else if after.y != before.y && before.y != 0.0 {
        after.x = before.x * after.y / before.y;
    }
}
