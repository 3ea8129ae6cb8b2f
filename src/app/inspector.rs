//! The inspector: the selected node's local and world transform side by side (both editable),
//! its matrices, and the shear metrics. Reads `&Scene`, returns intents.

use super::Intent;
use crate::math::{rows, shear_metrics, try_inverse};
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene};
use glam::Affine2;

/// What the inspector remembers between frames.
#[derive(Default)]
pub struct InspectorState {
    /// Keep scale uniform while editing.
    pub lock_scale: bool,
}

/// Which column a value belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Space {
    Local,
    World,
}

fn gesture_key(id: NodeId, space: Space) -> u64 {
    (id.0 as u64) << 2 | (space as u64)
}

/// Tracks edits to one column across widgets.
#[derive(Default)]
struct Tracker {
    changed: bool,
    ended: bool,
}

impl Tracker {
    fn drag(&mut self, ui: &mut egui::Ui, value: &mut f32, speed: f64, prefix: &str, suffix: &str) {
        let r = ui.add(
            egui::DragValue::new(value)
                .speed(speed)
                .prefix(prefix)
                .suffix(suffix)
                .max_decimals(5),
        );
        self.changed |= r.changed();
        self.ended |= r.drag_stopped() || (r.changed() && !r.dragged()) || r.lost_focus();
    }
}

/// Keep the x:y ratio of scale when one of them was edited.
fn lock_ratio(before: glam::Vec2, after: &mut glam::Vec2) {
    if after.x != before.x && before.x != 0.0 {
        after.y = before.y * after.x / before.x;
    } else if after.y != before.y && before.y != 0.0 {
        after.x = before.x * after.y / before.y;
    }
}

fn matrix_grid(ui: &mut egui::Ui, salt: &str, m: &Affine2) {
    egui::Grid::new(salt).num_columns(3).show(ui, |ui| {
        for row in rows(m) {
            for v in row {
                ui.monospace(format!("{v:>8.3}"));
            }
            ui.end_row();
        }
    });
}

/// Draw the inspector for the primary selection.
pub fn ui(
    ui: &mut egui::Ui,
    scene: &Scene,
    selection: &[NodeId],
    state: &mut InspectorState,
) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.heading("Inspector");
    let Some(&id) = selection.last() else {
        ui.label("Select a node to see its local and world transform.");
        return out;
    };
    let (Ok(data), Ok(world_m), Ok(world), Ok(parent_world)) = (
        scene.node(id),
        scene.world(id),
        scene.world_trs(id),
        scene.parent_world(id),
    ) else {
        return out;
    };
    let name = data.name.clone();
    let parent = scene.parent(id).ok().flatten();
    ui.label(format!("{name}  (id {id})"));
    ui.label(match parent {
        Some(p) => format!(
            "parent: {} (id {p})",
            scene.node(p).map(|d| d.name.as_str()).unwrap_or("?")
        ),
        None => "a root".to_string(),
    });
    let singular = try_inverse(&parent_world).is_err();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let mut local = data.local;
        let mut w = world;
        let (mut lt, mut wt) = (Tracker::default(), Tracker::default());
        egui::Grid::new("trs").num_columns(3).striped(true).show(ui, |ui| {
            ui.label("");
            ui.strong("Local");
            ui.strong("World");
            ui.end_row();
            ui.label("position");
            ui.horizontal(|ui| {
                lt.drag(ui, &mut local.position.x, 0.05, "x ", "");
                lt.drag(ui, &mut local.position.y, 0.05, "y ", "");
            });
            ui.add_enabled_ui(!singular, |ui| {
                ui.horizontal(|ui| {
                    wt.drag(ui, &mut w.position.x, 0.05, "x ", "");
                    wt.drag(ui, &mut w.position.y, 0.05, "y ", "");
                })
            });
            ui.end_row();
            ui.label("rotation");
            lt.drag(ui, &mut local.rotation, 0.5, "", "°");
            ui.add_enabled_ui(!singular, |ui| wt.drag(ui, &mut w.rotation, 0.5, "", "°"));
            ui.end_row();
            ui.label("scale");
            ui.horizontal(|ui| {
                lt.drag(ui, &mut local.scale.x, 0.01, "x ", "");
                lt.drag(ui, &mut local.scale.y, 0.01, "y ", "");
            });
            ui.add_enabled_ui(!singular, |ui| {
                ui.horizontal(|ui| {
                    wt.drag(ui, &mut w.scale.x, 0.01, "x ", "");
                    wt.drag(ui, &mut w.scale.y, 0.01, "y ", "");
                })
            });
            ui.end_row();
            ui.label("skew");
            lt.drag(ui, &mut local.skew, 0.5, "", "°");
            ui.add_enabled_ui(!singular, |ui| wt.drag(ui, &mut w.skew, 0.5, "", "°"));
            ui.end_row();
        });
        if state.lock_scale {
            lock_ratio(data.local.scale, &mut local.scale);
            lock_ratio(world.scale, &mut w.scale);
        }
        if lt.changed {
            out.push(Intent::Perform { label: format!("Edit {name}"), ops: vec![Op::SetLocal { node: id, local }], gesture: Some(gesture_key(id, Space::Local)) });
        }
        if wt.changed {
            let op = if w.rotation == world.rotation && w.scale == world.scale && w.skew == world.skew {
                Op::SetWorldPosition { node: id, position: w.position }
            } else {
                Op::SetWorld { node: id, world: w }
            };
            out.push(Intent::Perform { label: format!("Move {name} in world space"), ops: vec![op], gesture: Some(gesture_key(id, Space::World)) });
        }
        if lt.ended || wt.ended {
            out.push(Intent::EndGesture);
        }
        ui.checkbox(&mut state.lock_scale, "🔒 Keep scale uniform");
        if singular {
            ui.colored_label(ui.visuals().warn_fg_color, "World values are read-only: the parent's world matrix is singular (a zero scale somewhere above), so no local transform can reach them.");
        }
        ui.separator();
        let metrics = shear_metrics(&world_m);
        if metrics.is_sheared(0.01) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("⚠ Sheared: the world axes meet at {:.2}° instead of 90°.", metrics.axis_angle),
            );
        }
        egui::Grid::new("metrics").num_columns(2).show(ui, |ui| {
            ui.label("shear dot(col0, col1)");
            ui.monospace(format!("{:.5}", metrics.dot));
            ui.end_row();
            ui.label("angle between axes");
            ui.monospace(format!("{:.3}°", metrics.axis_angle));
            ui.end_row();
            ui.label("lossy scale");
            ui.monospace(format!("({:.4}, {:.4})", metrics.lossy_scale.x, metrics.lossy_scale.y));
            ui.end_row();
            ui.label("determinant");
            ui.monospace(format!("{:.5}", metrics.determinant));
            ui.end_row();
        });
        egui::CollapsingHeader::new("Matrices").default_open(true).show(ui, |ui| {
            ui.label("local");
            matrix_grid(ui, "local-matrix", &data.local.to_affine());
            ui.label("world = parentWorld · local");
            matrix_grid(ui, "world-matrix", &world_m);
        });
    });
    out
}
