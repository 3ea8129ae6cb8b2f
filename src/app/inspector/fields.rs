//! The transform grid's number fields: a tracker per column (local / world) that notices edits
//! and gesture ends. The rules for editing a multi-selection are in
//! [`crate::editor::session::multi_edit`].

use crate::app::number_field::number_field;
use crate::editor::view::numbers::{format_angle, format_angle_as_stored, format_shown};

/// Tracks edits to one column across widgets.
pub(super) struct Tracker<'a> {
    /// A value in this column changed this frame.
    pub(super) changed: bool,
    /// An edit in this column ended this frame (drag released, typed value committed).
    pub(super) ended: bool,
    /// The column's name, part of every widget id.
    column: &'static str,
    count: usize,
    /// Components whose values differ across a multi-selection (shown with a `~`).
    mixed: [bool; 6],
    /// What screen readers call the column's fields before the row: "sword, world".
    subject: String,
    /// The row being drawn ("position").
    row: &'static str,
    /// Where the fields register as lesson targets.
    targets: &'a crate::app::ui_targets::Targets,
}

impl<'a> Tracker<'a> {
    /// A tracker for the column `column`, with the components that differ across the selection.
    pub(super) fn new(
        column: &'static str,
        mixed: [bool; 6],
        node: &str,
        targets: &'a crate::app::ui_targets::Targets,
    ) -> Self {
        Self {
            changed: false,
            ended: false,
            column,
            count: 0,
            mixed,
            subject: format!("{node}, {column}"),
            row: "",
            targets,
        }
    }

    /// One number field of this column (`~` before the prefix when the selection differs).
    fn drag(&mut self, ui: &mut egui::Ui, value: &mut f32, speed: f64, prefix: &str, suffix: &str) {
        // Explicit ids: the local and world columns must never share a widget id, or typing
        // into one field would edit another.
        self.count += 1;
        let axis = prefix.trim().to_string();
        let mixed = self.mixed.get(self.count - 1).copied().unwrap_or(false);
        let prefix = if mixed {
            format!("~{prefix}")
        } else {
            prefix.to_string()
        };
        // Scientific notation for the very large and very small (1e30 stays readable and
        // editable); everyday numbers to five decimals, never -0, world angles in (−180, 180].
        // Typed inf/NaN reach the model, which refuses them with a message.
        let (angle, world) = (suffix == "°", self.column == "world");
        let edit = ui
            .push_id((self.column, self.count), |ui| {
                number_field(ui, value, |drag| {
                    drag.speed(speed)
                        .prefix(prefix)
                        .suffix(suffix)
                        .max_decimals(5)
                        .custom_formatter(move |v, decimals| {
                            let (min, max) = (*decimals.start(), *decimals.end());
                            match (angle, world) {
                                (true, true) => format_angle(v, min, max),
                                (true, false) => format_angle_as_stored(v, min, max),
                                _ => format_shown(v, min, max),
                            }
                        })
                })
            })
            .inner;
        let mut r = edit.response;
        self.targets.field(ui, self.column, self.row, &r);
        if mixed {
            r = r.on_hover_text(
                "The selected nodes differ here; editing sets this value on all of them.",
            );
        }
        // "sword, world position x": what the field is, for a screen reader (its value is the
        // field's own).
        let name = format!("{} {} {axis}", self.subject, self.row);
        super::super::a11y::name(ui, &r, name.trim_end());
        self.changed |= edit.changed;
        self.ended |= edit.ended || r.lost_focus();
    }
}

/// One grid row of an (x, y) pair in both columns; the world one only when `world_enabled`.
pub(super) fn vec_row(
    ui: &mut egui::Ui,
    (label, columns): (&'static str, Columns),
    speed: f64,
    (lt, l): (&mut Tracker, &mut glam::Vec2),
    (wt, w): (&mut Tracker, &mut glam::Vec2),
    world_enabled: bool,
) {
    ui.label(label);
    (lt.row, wt.row) = (label, label);
    let pair = |t: &mut Tracker, v: &mut glam::Vec2, ui: &mut egui::Ui| {
        t.drag(ui, &mut v.x, speed, "x ", "");
        t.drag(ui, &mut v.y, speed, "y ", "");
    };
    cells(
        ui,
        columns,
        world_enabled,
        |ui| pair(lt, l, ui),
        |ui| pair(wt, w, ui),
    );
}

/// One grid row of an angle in both columns.
pub(super) fn angle_row(
    ui: &mut egui::Ui,
    (label, columns): (&'static str, Columns),
    (lt, l): (&mut Tracker, &mut f32),
    (wt, w): (&mut Tracker, &mut f32),
    world_enabled: bool,
) {
    ui.label(label);
    (lt.row, wt.row) = (label, label);
    let local = |ui: &mut egui::Ui| lt.drag(ui, l, 0.5, "", "°");
    cells(ui, columns, world_enabled, local, |ui| {
        wt.drag(ui, w, 0.5, "", "°")
    });
}

/// The grid's shape: local beside world, or (in a narrow panel) world under local.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Columns {
    /// `position | local x y | world x y`: needs about 330 points.
    SideBySide,
    /// `position | local | x y` then `| world | x y`: fits 240 points.
    Stacked,
}

/// A row's cells after its label: one for local and one for world side by side, or a line each
/// (the second with an empty label cell) when stacked.
fn cells(
    ui: &mut egui::Ui,
    columns: Columns,
    world_enabled: bool,
    mut local: impl FnMut(&mut egui::Ui),
    mut world: impl FnMut(&mut egui::Ui),
) {
    if columns == Columns::Stacked {
        ui.weak("local");
    }
    ui.horizontal(|ui| local(ui));
    if columns == Columns::Stacked {
        ui.end_row();
        ui.label("");
        ui.weak("world");
    }
    ui.add_enabled_ui(world_enabled, |ui| ui.horizontal(|ui| world(ui)));
    ui.end_row();
}
