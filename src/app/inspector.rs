//! The inspector: the selected node's local and world transform side by side (both editable),
//! its matrices, and the shear metrics. Reads `&Scene`, returns intents.

use super::Intent;
use crate::math::{rows, shear_metrics, try_inverse};
use crate::scene::diagnose::ShearCause;
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
    column: &'static str,
    count: usize,
}

impl Tracker {
    fn drag(&mut self, ui: &mut egui::Ui, value: &mut f32, speed: f64, prefix: &str, suffix: &str) {
        // Explicit ids: the local and world columns must never share a widget id, or typing
        // into one field would edit another.
        self.count += 1;
        let drag = egui::DragValue::new(value)
            .speed(speed)
            .prefix(prefix)
            .suffix(suffix)
            .max_decimals(5);
        let r = ui
            .push_id((self.column, self.count), |ui| ui.add(drag))
            .inner;
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
        let mut lt = Tracker { column: "local", ..Tracker::default() };
        let mut wt = Tracker { column: "world", ..Tracker::default() };
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
        shear_diagnosis(ui, scene, id, metrics.axis_angle, &mut out);
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
        matrix_chain(ui, scene, id, &mut out);
        accumulated(ui, scene, id, &world);
    });
    out
}

fn node_name(scene: &Scene, id: NodeId) -> String {
    scene.node(id).map(|d| d.name.clone()).unwrap_or_default()
}

/// The shear warning, naming its cause, with a button that selects it.
fn shear_diagnosis(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    axis_angle: f32,
    out: &mut Vec<Intent>,
) {
    let warn = ui.visuals().warn_fg_color;
    match scene.shear_cause(id) {
        Ok(ShearCause::NotSheared) | Err(_) => {}
        Ok(ShearCause::OwnSkew) => {
            ui.colored_label(warn, format!("⚠ Sheared: the world axes meet at {axis_angle:.2}°. This node carries skew of its own; no ancestor adds any."));
        }
        Ok(ShearCause::Ancestor { cause, by_skew }) => {
            let name = node_name(scene, cause);
            let why = if by_skew {
                format!("{name}'s own skew")
            } else {
                let s = scene
                    .node(cause)
                    .map(|d| d.local.scale)
                    .unwrap_or(glam::Vec2::ONE);
                format!(
                    "{name}'s non-uniform scale ({}, {}) above a rotation",
                    s.x, s.y
                )
            };
            ui.colored_label(warn, format!("⚠ Sheared: the world axes meet at {axis_angle:.2}° instead of 90°. Cause: {why}."));
            if ui.button(format!("Select cause ({name})")).clicked() {
                out.push(Intent::Select(vec![cause]));
            }
        }
    }
}

/// World = M_root · … · M_local, each factor and the running product; click selects the factor.
fn matrix_chain(ui: &mut egui::Ui, scene: &Scene, id: NodeId, out: &mut Vec<Intent>) {
    let Ok(chain) = scene.matrix_chain(id) else {
        return;
    };
    egui::CollapsingHeader::new("Matrix chain")
        .default_open(false)
        .show(ui, |ui| {
            let names: Vec<String> = chain
                .iter()
                .map(|f| format!("M_{}", node_name(scene, f.node)))
                .collect();
            ui.label(format!("World = {}", names.join(" · ")));
            for (k, factor) in chain.iter().enumerate() {
                ui.separator();
                let text = format!("{}. {} (local)", k + 1, names[k]);
                if ui.link(text).on_hover_text("Select this node").clicked() && factor.node != id {
                    out.push(Intent::Select(vec![factor.node]));
                }
                ui.horizontal(|ui| {
                    matrix_grid(ui, &format!("chain-local-{k}"), &factor.local);
                    ui.label("product:");
                    matrix_grid(ui, &format!("chain-product-{k}"), &factor.product);
                });
            }
        });
}

/// Seed 001's accumulated TRS next to the true world TRS.
fn accumulated(ui: &mut egui::Ui, scene: &Scene, id: NodeId, world: &crate::math::Trs) {
    let Ok(acc) = scene.accumulated_world_trs(id) else {
        return;
    };
    egui::CollapsingHeader::new("Accumulated TRS (component-wise)").default_open(false).show(ui, |ui| {
        ui.label("Adding rotations and multiplying scales component by component never shears, so it differs from the matrix product as soon as a non-uniform scale sits above a rotation.");
        egui::Grid::new("accumulated").num_columns(4).striped(true).show(ui, |ui| {
            ui.label("");
            ui.strong("accumulated");
            ui.strong("true world");
            ui.strong("difference");
            ui.end_row();
            let rows = [
                ("position x", acc.position.x, world.position.x),
                ("position y", acc.position.y, world.position.y),
                ("rotation", acc.rotation, world.rotation),
                ("scale x", acc.scale.x, world.scale.x),
                ("scale y", acc.scale.y, world.scale.y),
                ("skew", acc.skew, world.skew),
            ];
            for (label, a, w) in rows {
                ui.label(label);
                ui.monospace(format!("{a:.4}"));
                ui.monospace(format!("{w:.4}"));
                ui.monospace(format!("{:+.4}", a - w));
                ui.end_row();
            }
        });
    });
}
