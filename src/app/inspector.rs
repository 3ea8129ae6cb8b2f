//! The inspector: the selected node's local and world transform side by side (both editable),
//! its matrices, and the shear metrics. Reads `&Scene`, returns intents.

use crate::editor::command::Command;
use crate::editor::numbers::{format_f32, format_fixed};
use crate::editor::session::Editor;
use crate::file;
use crate::math::{Trs, rows, shear_metrics, try_inverse};
use crate::scene::diagnose::ShearCause;
use crate::scene::edit::Op;
use crate::scene::{NodeId, Scene, Shape};
use glam::Affine2;

/// What the inspector remembers between frames.
#[derive(Default)]
pub struct InspectorState {
    /// Keep scale uniform while editing.
    pub lock_scale: bool,
    /// Text pasted in to apply as a transform.
    pub paste_text: String,
    /// The chain factor under the pointer (the viewport highlights it).
    pub hovered_factor: Option<NodeId>,
    /// The name being typed, for which node, and whether the field had focus last frame.
    name_buffer: String,
    name_for: Option<NodeId>,
    name_focused: bool,
}

/// Tracks edits to one column across widgets.
#[derive(Default)]
struct Tracker {
    changed: bool,
    ended: bool,
    column: &'static str,
    count: usize,
    /// Components whose values differ across a multi-selection (shown with a `~`).
    mixed: [bool; 6],
}

impl Tracker {
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
fn vec_row(
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
fn angle_row(
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

/// The six numbers of a transform: position x, y, rotation, scale x, y, skew.
fn components(t: &Trs) -> [f32; 6] {
    [
        t.position.x,
        t.position.y,
        t.rotation,
        t.scale.x,
        t.scale.y,
        t.skew,
    ]
}

/// Which of the six numbers differ (bit for bit) between two transforms.
fn changed_components(before: &Trs, after: &Trs) -> [bool; 6] {
    let (a, b) = (components(before), components(after));
    std::array::from_fn(|k| a[k].to_bits() != b[k].to_bits())
}

/// `base` with the numbers marked in `mask` taken from `from`.
fn replace_components(base: &Trs, from: &Trs, mask: [bool; 6]) -> Trs {
    let (mut v, f) = (components(base), components(from));
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
fn mixed_components(
    scene: &Scene,
    selection: &[NodeId],
    of: impl Fn(NodeId) -> Option<Trs>,
) -> [bool; 6] {
    let values: Vec<[f32; 6]> = selection
        .iter()
        .filter(|n| scene.contains(**n))
        .filter_map(|&n| of(n))
        .map(|t| components(&t))
        .collect();
    std::array::from_fn(|k| {
        values
            .windows(2)
            .any(|w| w[0][k].to_bits() != w[1][k].to_bits())
    })
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
                ui.monospace(format!("{:>9}", format_fixed(v as f64, 3)));
            }
            ui.end_row();
        }
    });
}

/// Draw the inspector for the primary selection.
pub fn ui(ui: &mut egui::Ui, editor: &Editor, state: &mut InspectorState) -> Vec<Command> {
    let mut out = Vec::new();
    let scene = editor.doc().scene();
    let selection = editor.selection();
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
    name_field(ui, id, &name, state, &mut out);
    if selection.len() > 1 {
        ui.label(format!("{} nodes selected: shared values shown, differing ones marked ~; an edit applies to all.", selection.len()));
    }
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
        let mut lt = Tracker {
            column: "local",
            mixed: mixed_components(scene, selection, |n| scene.node(n).ok().map(|d| d.local)),
            ..Tracker::default()
        };
        let mut wt = Tracker {
            column: "world",
            mixed: mixed_components(scene, selection, |n| scene.world_trs(n).ok()),
            ..Tracker::default()
        };
        egui::Grid::new("trs").num_columns(3).striped(true).show(ui, |ui| {
            ui.label("");
            ui.strong("Local");
            ui.strong("World");
            ui.end_row();
            vec_row(ui, "position", 0.05, (&mut lt, &mut local.position), (&mut wt, &mut w.position), !singular);
            angle_row(ui, "rotation", (&mut lt, &mut local.rotation), (&mut wt, &mut w.rotation), !singular);
            vec_row(ui, "scale", 0.01, (&mut lt, &mut local.scale), (&mut wt, &mut w.scale), !singular);
            angle_row(ui, "skew", (&mut lt, &mut local.skew), (&mut wt, &mut w.skew), !singular);
        });
        if state.lock_scale {
            lock_ratio(data.local.scale, &mut local.scale);
            lock_ratio(world.scale, &mut w.scale);
        }
        let targets: Vec<NodeId> = selection.iter().copied().filter(|n| scene.contains(*n)).collect();
        let many = targets.len() > 1;
        if lt.changed {
            let mask = changed_components(&data.local, &local);
            let ops = targets
                .iter()
                .filter_map(|&n| {
                    let own = scene.node(n).ok()?.local;
                    let local = if n == id { local } else { replace_components(&own, &local, mask) };
                    Some(Op::SetLocal { node: n, local })
                })
                .collect();
            let label = if many { format!("Edit {} nodes", targets.len()) } else { format!("Edit {name}") };
            out.push(Command::Perform { label, ops, continuous: true });
        }
        if wt.changed {
            let mask = changed_components(&world, &w);
            let only_position = mask[2..].iter().all(|m| !m);
            let ops = targets
                .iter()
                .filter_map(|&n| {
                    let own = scene.world_trs(n).ok()?;
                    let wanted = if n == id { w } else { replace_components(&own, &w, mask) };
                    Some(if only_position {
                        Op::SetWorldPosition { node: n, position: wanted.position }
                    } else {
                        Op::SetWorld { node: n, world: wanted }
                    })
                })
                .collect();
            let label = if many { format!("Move {} nodes in world space", targets.len()) } else { format!("Move {name} in world space") };
            out.push(Command::Perform { label, ops, continuous: true });
        }
        if lt.ended || wt.ended {
            out.push(Command::EndGesture);
        }
        ui.checkbox(&mut state.lock_scale, "🔒 Keep scale uniform");
        copy_paste(ui, scene, id, &data.local, &world, state, &mut out);
        if singular {
            ui.colored_label(ui.visuals().warn_fg_color, "World values are read-only: the parent's world matrix is singular (a zero scale somewhere above), so no local transform can reach them.");
        }
        ui.separator();
        let metrics = shear_metrics(&world_m);
        shear_diagnosis(ui, scene, id, metrics.axis_angle, &mut out);
        egui::Grid::new("metrics").num_columns(2).show(ui, |ui| {
            ui.label("shear dot(col0, col1)");
            ui.monospace(format_fixed(metrics.dot as f64, 5));
            ui.end_row();
            ui.label("angle between axes");
            ui.monospace(format!("{:.3}°", metrics.axis_angle));
            ui.end_row();
            ui.label("lossy scale");
            ui.monospace(format!("({}, {})", format_fixed(metrics.lossy_scale.x as f64, 4), format_fixed(metrics.lossy_scale.y as f64, 4)));
            ui.end_row();
            ui.label("determinant");
            ui.monospace(format_fixed(metrics.determinant as f64, 5));
            ui.end_row();
        });
        egui::CollapsingHeader::new("Matrices").default_open(true).show(ui, |ui| {
            ui.label("local");
            matrix_grid(ui, "local-matrix", &data.local.to_affine());
            ui.label("world = parentWorld · local");
            matrix_grid(ui, "world-matrix", &world_m);
        });
        appearance(ui, scene, id, &mut out);
        matrix_chain(ui, scene, id, &mut state.hovered_factor, &mut out);
        accumulated(ui, scene, id, &world);
    });
    out
}

fn node_name(scene: &Scene, id: NodeId) -> String {
    scene.node(id).map(|d| d.name.clone()).unwrap_or_default()
}

/// The node's name, editable (committed when the field loses focus).
fn name_field(
    ui: &mut egui::Ui,
    id: NodeId,
    name: &str,
    state: &mut InspectorState,
    out: &mut Vec<Command>,
) {
    if state.name_for != Some(id) || !state.name_focused {
        state.name_buffer = name.to_string();
        state.name_for = Some(id);
    }
    ui.horizontal(|ui| {
        let edit = ui.add(egui::TextEdit::singleline(&mut state.name_buffer).desired_width(180.0));
        state.name_focused = edit.has_focus();
        if edit.lost_focus()
            && state.name_buffer != name
            && !ui.input(|i| i.key_pressed(egui::Key::Escape))
        {
            let new_name = state.name_buffer.clone();
            out.push(Command::Perform {
                label: format!("Rename {name} to {new_name}"),
                ops: vec![Op::Rename {
                    node: id,
                    name: new_name,
                }],
                continuous: false,
            });
        }
        ui.weak(format!("id {id}"));
    });
}

/// Shape, size and colour; each change is an undoable step (one per drag).
fn appearance(ui: &mut egui::Ui, scene: &Scene, id: NodeId, out: &mut Vec<Command>) {
    let Ok(data) = scene.node(id) else { return };
    egui::CollapsingHeader::new("Appearance")
        .default_open(false)
        .show(ui, |ui| {
            let mut shape = data.shape.clone();
            let mut color = egui::Color32::from_rgba_unmultiplied(
                data.color[0],
                data.color[1],
                data.color[2],
                data.color[3],
            );
            let size = match &shape {
                Shape::Rect { size } | Shape::Ellipse { size } | Shape::Sprite { size, .. } => {
                    *size
                }
                Shape::None => glam::Vec2::ONE,
            };
            let mut changed = false;
            let mut ended = false;
            ui.horizontal(|ui| {
                for (label, kind) in [("none", 0), ("rect", 1), ("ellipse", 2), ("sprite", 3)] {
                    let current = match &shape {
                        Shape::None => 0,
                        Shape::Rect { .. } => 1,
                        Shape::Ellipse { .. } => 2,
                        Shape::Sprite { .. } => 3,
                    };
                    if ui.selectable_label(current == kind, label).clicked() && current != kind {
                        shape = match kind {
                            0 => Shape::None,
                            1 => Shape::Rect { size },
                            2 => Shape::Ellipse { size },
                            _ => Shape::Sprite {
                                path: "../assets/fish.png".into(),
                                size,
                            },
                        };
                        changed = true;
                        ended = true;
                    }
                }
            });
            match &mut shape {
                Shape::Rect { size } | Shape::Ellipse { size } | Shape::Sprite { size, .. } => {
                    ui.horizontal(|ui| {
                        ui.label("size");
                        for v in [&mut size.x, &mut size.y] {
                            let r = ui.add(egui::DragValue::new(v).speed(0.02).max_decimals(4));
                            changed |= r.changed();
                            ended |= r.drag_stopped() || (r.changed() && !r.dragged());
                        }
                    });
                }
                Shape::None => {}
            }
            if let Shape::Sprite { path, .. } = &mut shape {
                ui.horizontal(|ui| {
                    ui.label("image");
                    let r = ui
                        .text_edit_singleline(path)
                        .on_hover_text("A PNG path, relative to the scene file");
                    changed |= r.changed();
                    ended |= r.lost_focus();
                });
            }
            ui.horizontal(|ui| {
                ui.label("colour");
                let r = ui.color_edit_button_srgba(&mut color);
                changed |= r.changed();
                ended |= r.changed();
            });
            if changed {
                let color = color.to_srgba_unmultiplied();
                out.push(Command::Perform {
                    label: format!("Change the look of {}", data.name),
                    ops: vec![Op::SetAppearance {
                        node: id,
                        shape,
                        color,
                    }],
                    continuous: true,
                });
            }
            if ended {
                out.push(Command::EndGesture);
            }
        });
}

/// Copy the local or world transform as text, or paste text onto either.
fn copy_paste(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    local: &Trs,
    world: &Trs,
    state: &mut InspectorState,
    out: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        if ui
            .button("📋 Copy local")
            .on_hover_text(file::trs_to_text(local))
            .clicked()
        {
            ui.ctx().copy_text(file::trs_to_text(local));
        }
        if ui
            .button("📋 Copy world")
            .on_hover_text(file::trs_to_text(world))
            .clicked()
        {
            ui.ctx().copy_text(file::trs_to_text(world));
        }
    });
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut state.paste_text)
                .hint_text("position: (1.0, 2.0), rotation: 90.0")
                .desired_width(190.0),
        );
        let name = scene.node(id).map(|d| d.name.clone()).unwrap_or_default();
        for (text, world_space) in [("Paste to local", false), ("Paste to world", true)] {
            if ui.button(text).clicked() {
                match file::trs_from_text(&state.paste_text) {
                    Ok(t) => {
                        let op = if world_space {
                            Op::SetWorld { node: id, world: t }
                        } else {
                            Op::SetLocal { node: id, local: t }
                        };
                        out.push(Command::Perform {
                            label: format!("Paste transform onto {name}"),
                            ops: vec![op],
                            continuous: false,
                        });
                    }
                    Err(message) => out.push(Command::Refused(message)),
                }
            }
        }
    });
}

/// The shear warning, naming its cause, with a button that selects it.
fn shear_diagnosis(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    axis_angle: f32,
    out: &mut Vec<Command>,
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
                out.push(Command::Select(vec![cause]));
            }
        }
    }
}

/// World = M_root · … · M_local, each factor and the running product; click selects the factor.
fn matrix_chain(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    hovered_factor: &mut Option<NodeId>,
    out: &mut Vec<Command>,
) {
    let mut hovered = None;
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
                let link = ui.link(text).on_hover_text("Select this node");
                if link.hovered() {
                    hovered = Some(factor.node);
                }
                if link.clicked() && factor.node != id {
                    out.push(Command::Select(vec![factor.node]));
                }
                ui.horizontal(|ui| {
                    matrix_grid(ui, &format!("chain-local-{k}"), &factor.local);
                    ui.label("product:");
                    matrix_grid(ui, &format!("chain-product-{k}"), &factor.product);
                });
            }
        });
    *hovered_factor = hovered;
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
                let diff = (a - w) as f64;
                ui.monospace(format_fixed(a as f64, 4));
                ui.monospace(format_fixed(w as f64, 4));
                ui.monospace(format!("{}{}", if diff >= 0.0 { "+" } else { "" }, format_fixed(diff, 4)));
                ui.end_row();
            }
        });
    });
}
