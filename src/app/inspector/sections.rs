//! The inspector's sections below the transform grid: name, copy / paste, shear diagnosis,
//! appearance, the matrix chain and the accumulated-TRS comparison.

use super::state::InspectorState;
use crate::app::frame::CommandSender;
use crate::app::number_field::number_field;
use crate::editor::session::clipboard::trs_to_text;
use crate::editor::session::command::{
    Command, FileCommand, HistoryCommand, PanelCommand, SelectionCommand, TransformSpace,
    WindowCommand,
};
use crate::editor::session::look::{ShapeKind, switch_kind};
use crate::editor::view::numbers::{format_angle, format_display, format_fixed};

/// An angle as the shear warning gives it: two decimals, in (−180°, 180°], never -0.
fn angle(degrees: f32) -> String {
    format_angle(degrees as f64, 2, 2)
}
use crate::model::math::{Trs, rows};
use crate::model::scene::diagnose::{ChainFactor, ShearCause};
use crate::model::scene::{NodeData, NodeId, Scene, Shape};
use glam::Affine2;

/// A 2×3 matrix as a monospace grid of its rows, right-aligned to its widest number and
/// spaced one digit apart, so it fits a narrow inspector (at 150 % a 9-wide pad cut the third
/// column off).
pub(super) fn matrix_grid(ui: &mut egui::Ui, salt: &str, m: &Affine2) {
    let cells: Vec<[String; 3]> = rows(m)
        .iter()
        .map(|row| row.map(|v| format_fixed(v as f64, 3)))
        .collect();
    let wide = cells.iter().flatten().map(|c| c.chars().count()).max();
    let wide = wide.unwrap_or(0);
    let digit =
        ui.fonts_mut(|f| f.glyph_width(&egui::TextStyle::Monospace.resolve(ui.style()), '0'));
    egui::Grid::new(salt)
        .num_columns(3)
        .spacing([digit, ui.spacing().item_spacing.y])
        .show(ui, |ui| {
            for row in &cells {
                for cell in row {
                    ui.monospace(format!("{cell:>wide$}"));
                }
                ui.end_row();
            }
        });
}

/// A node as the inspector's field names say it ("unnamed node 7" when it has none).
fn node_label(name: &str, id: NodeId) -> String {
    crate::model::scene::name::node_label(name, id)
}

/// The node's name, editable (committed when the field loses focus).
pub(super) fn name_field(
    ui: &mut egui::Ui,
    id: NodeId,
    name: &str,
    state: &mut InspectorState,
    out: &CommandSender,
) {
    if state.name_for != Some(id) || !state.name_focused {
        state.name_buffer = name.to_string();
        state.name_for = Some(id);
    }
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(&mut state.name_buffer)
                .desired_width(180.0)
                .char_limit(crate::model::scene::name::MAX_NAME_BYTES),
        );
        crate::app::a11y::name(ui, &edit, &format!("{}, name", node_label(name, id)));
        state.name_focused = edit.has_focus();
        if edit.lost_focus()
            && state.name_buffer != name
            && !ui.input(|i| i.key_pressed(egui::Key::Escape))
        {
            out.send(Command::Panel(PanelCommand::Rename {
                node: id,
                name: state.name_buffer.clone(),
            }));
        }
        ui.weak(format!("id {id}"));
    });
}

/// Shape, size and colour; each change is an undoable step (one per drag).
pub(super) fn appearance(ui: &mut egui::Ui, scene: &Scene, id: NodeId, out: &CommandSender) {
    let Ok(data) = scene.node(id) else { return };
    egui::CollapsingHeader::new("Appearance")
        .default_open(false)
        .show(ui, |ui| appearance_body(ui, data, id, out));
}

/// Whether an appearance widget changed the look, and whether its gesture ended.
#[derive(Default)]
struct LookEdit {
    changed: bool,
    ended: bool,
}

/// The appearance section's widgets; a change is one continuous step until its gesture ends.
fn appearance_body(ui: &mut egui::Ui, data: &NodeData, id: NodeId, out: &CommandSender) {
    let mut shape = data.shape.clone();
    let mut color = egui::Color32::from_rgba_unmultiplied(
        data.color[0],
        data.color[1],
        data.color[2],
        data.color[3],
    );
    let mut edit = LookEdit::default();
    shape_kind(ui, &mut shape, &mut edit);
    shape_fields(ui, &mut shape, &mut edit);
    if matches!(data.shape, Shape::Sprite(_))
        && ui
            .button("Choose image…")
            .on_hover_text("Pick the image file (named relative to the scene's folder)")
            .clicked()
    {
        out.send(Command::File(FileCommand::ChooseImage(id)));
    }
    ui.horizontal(|ui| {
        ui.label("colour");
        let r = ui.color_edit_button_srgba(&mut color);
        edit.changed |= r.changed();
        edit.ended |= r.changed();
    });
    if edit.changed {
        let color = color.to_srgba_unmultiplied();
        out.send(Command::Panel(PanelCommand::SetLook {
            node: id,
            shape,
            color,
        }));
    }
    if edit.ended {
        out.send(Command::History(HistoryCommand::EndGesture));
    }
}

/// The none / rect / ellipse / sprite / polygon picker ([`switch_kind`] keeps the size).
fn shape_kind(ui: &mut egui::Ui, shape: &mut Shape, edit: &mut LookEdit) {
    ui.horizontal_wrapped(|ui| {
        let current = ShapeKind::of(shape);
        for kind in ShapeKind::ALL {
            if ui.selectable_label(current == kind, kind.name()).clicked() && current != kind {
                *shape = switch_kind(shape, kind);
                edit.changed = true;
                edit.ended = true;
            }
        }
    });
}

/// The shape's size and, for a sprite, its image path.
fn shape_fields(ui: &mut egui::Ui, shape: &mut Shape, edit: &mut LookEdit) {
    match shape {
        Shape::Rect { size } | Shape::Ellipse { size } => size_fields(ui, size, edit),
        Shape::Sprite(sprite) => {
            size_fields(ui, &mut sprite.size, edit);
            ui.horizontal(|ui| {
                ui.label("image");
                let r = ui
                    .text_edit_singleline(&mut sprite.path)
                    .on_hover_text("A PNG path, relative to the scene file");
                edit.changed |= r.changed();
                edit.ended |= r.lost_focus();
            });
        }
        Shape::Polygon { points } => polygon_points(ui, points, edit),
        Shape::None => {}
    }
}

/// A shape's width and height fields.
fn size_fields(ui: &mut egui::Ui, size: &mut glam::Vec2, edit: &mut LookEdit) {
    ui.horizontal(|ui| {
        ui.label("size");
        for (v, axis) in [(&mut size.x, "shape width"), (&mut size.y, "shape height")] {
            let field = number_field(ui, v, |d| d.speed(0.02).max_decimals(4));
            crate::app::a11y::name(ui, &field.response, axis);
            edit.changed |= field.changed;
            edit.ended |= field.ended;
        }
    });
}

/// A polygon's corners as rows of x / y fields, each removable (three stay), and "+ point",
/// which adds a corner halfway along the closing edge.
fn polygon_points(
    ui: &mut egui::Ui,
    points: &mut thin_vec::ThinVec<glam::Vec2>,
    edit: &mut LookEdit,
) {
    let mut remove = None;
    egui::ScrollArea::vertical()
        .id_salt("polygon points")
        .max_height(160.0)
        .show(ui, |ui| {
            for (k, p) in points.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("{k}"));
                    for v in [&mut p.x, &mut p.y] {
                        let field = number_field(ui, v, |d| d.speed(0.02).max_decimals(4));
                        edit.changed |= field.changed;
                        edit.ended |= field.ended;
                    }
                    let remove_button = ui.small_button("✖");
                    crate::app::a11y::name(ui, &remove_button, "Remove this corner");
                    if remove_button.on_hover_text("Remove this corner").clicked() {
                        remove = Some(k);
                    }
                });
            }
        });
    if let Some(k) = remove
        && points.len() > 3
    {
        points.remove(k);
        edit.changed = true;
        edit.ended = true;
    }
    if ui.small_button("+ point").clicked()
        && let (Some(&first), Some(&last)) = (points.first(), points.last())
    {
        points.push((first + last) * 0.5);
        edit.changed = true;
        edit.ended = true;
    }
}

/// Copy the local or world transform as text, or paste text onto either.
pub(super) fn copy_paste(
    ui: &mut egui::Ui,
    id: NodeId,
    local: &Trs,
    world: &Trs,
    state: &mut InspectorState,
    out: &CommandSender,
) {
    ui.horizontal(|ui| {
        let copy_local = ui.button("📋 Copy local");
        crate::app::a11y::name(ui, &copy_local, "Copy local");
        if copy_local.on_hover_text(trs_to_text(local)).clicked() {
            ui.ctx().copy_text(trs_to_text(local));
        }
        let copy_world = ui.button("📋 Copy world");
        crate::app::a11y::name(ui, &copy_world, "Copy world");
        if copy_world.on_hover_text(trs_to_text(world)).clicked() {
            ui.ctx().copy_text(trs_to_text(world));
        }
    });
    let paste = ui.add(
        egui::TextEdit::singleline(&mut state.paste_text)
            .char_limit(4096)
            .hint_text("position: (1.0, 2.0), rotation: 90.0")
            .desired_width(ui.available_width().min(320.0)),
    );
    crate::app::a11y::name(ui, &paste, "Transform to paste, as text");
    ui.horizontal_wrapped(|ui| {
        for (text, space) in [
            ("Paste to local", TransformSpace::Local),
            ("Paste to world", TransformSpace::World),
        ] {
            if ui.button(text).clicked() {
                out.send(Command::Panel(PanelCommand::PasteTransform {
                    node: id,
                    text: state.paste_text.clone(),
                    space,
                }));
            }
        }
    });
}

/// The shear warning, naming its cause, with a button that selects it.
pub(super) fn shear_diagnosis(
    ui: &mut egui::Ui,
    (scene, targets): (&Scene, &crate::app::ui_targets::Targets),
    id: NodeId,
    axis_angle: f32,
    out: &CommandSender,
) {
    let warn = ui.visuals().warn_fg_color;
    match scene.shear_cause(id) {
        Ok(ShearCause::NotSheared) | Err(_) => {}
        Ok(ShearCause::OwnSkew) => {
            ui.colored_label(warn, format!("⚠ Sheared: the world axes meet at {}°. This node carries skew of its own; no ancestor adds any.", angle(axis_angle)));
        }
        Ok(ShearCause::Ancestor { cause, by_skew }) => {
            let name = scene.label(cause);
            let why = if by_skew {
                format!("{name}'s own skew")
            } else {
                let s = scene
                    .node(cause)
                    .map(|d| d.local.scale)
                    .unwrap_or(glam::Vec2::ONE);
                format!(
                    "{name}'s non-uniform scale ({}, {}) above a rotation",
                    format_display(s.x as f64),
                    format_display(s.y as f64)
                )
            };
            ui.colored_label(
                warn,
                format!(
                    "⚠ Sheared: the world axes meet at {}° instead of 90°. Cause: {why}.",
                    angle(axis_angle)
                ),
            );
            let select = ui.button(format!("Select cause ({name})"));
            let control = crate::editor::lesson::targets::Control::SelectCause;
            targets.control(ui, control, &select);
            if select.clicked() {
                out.send(Command::Selection(SelectionCommand::Select(vec![cause])));
            }
        }
    }
}

/// World = M_root · … · M_local, each factor and the running product; click selects the factor.
pub(super) fn matrix_chain(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    hovered_factor: &mut Option<NodeId>,
    out: &CommandSender,
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
                .map(|f| format!("M_{}", scene.label(f.node)))
                .collect();
            ui.label(format!("World = {}", names.join(" · ")));
            chain_equation(ui, &chain, &names, id, &mut hovered, out);
            running_products(ui, &chain, &names);
        });
    *hovered_factor = hovered;
}

/// The equation typeset: each factor's matrix under its name, wrapping to the panel's width,
/// then = and the product.
fn chain_equation(
    ui: &mut egui::Ui,
    chain: &[ChainFactor],
    names: &[String],
    id: NodeId,
    hovered: &mut Option<NodeId>,
    out: &CommandSender,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label("World =");
        for (k, (factor, name)) in chain.iter().zip(names).enumerate() {
            if k > 0 {
                ui.label("·");
            }
            // Wrap before a block that would not fit whole.
            if remaining(ui) < compact_width(ui, &factor.local) {
                ui.end_row();
            }
            chain_factor(ui, factor, name, id, hovered, out);
        }
        if let Some(last) = chain.last() {
            ui.label("=");
            if remaining(ui) < compact_width(ui, &last.product) {
                ui.end_row();
            }
            ui.vertical(|ui| {
                ui.strong("W");
                compact_matrix(ui, &last.product);
            });
        }
    });
}

/// One factor of the chain: its name, a link that selects it (unless it is the inspected node
/// `id`) and marks it hovered, above its local matrix.
fn chain_factor(
    ui: &mut egui::Ui,
    factor: &ChainFactor,
    name: &str,
    id: NodeId,
    hovered: &mut Option<NodeId>,
    out: &CommandSender,
) {
    ui.vertical(|ui| {
        let link = ui.link(name).on_hover_text("Select this node");
        if link.hovered() {
            *hovered = Some(factor.node);
        }
        if link.clicked() && factor.node != id {
            out.send(Command::Selection(SelectionCommand::Select(vec![
                factor.node,
            ])));
        }
        compact_matrix(ui, &factor.local);
    });
}

/// The running products, each under the factors it multiplies.
fn running_products(ui: &mut egui::Ui, chain: &[ChainFactor], names: &[String]) {
    egui::CollapsingHeader::new("running products")
        .default_open(false)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (k, factor) in chain.iter().enumerate() {
                    ui.vertical(|ui| {
                        let upto: Vec<&str> = names
                            .get(..=k)
                            .unwrap_or_default()
                            .iter()
                            .map(String::as_str)
                            .collect();
                        ui.label(upto.join(" · "));
                        compact_matrix(ui, &factor.product);
                    });
                }
            });
        });
}

/// The two text rows of a compact matrix (the third row is always 0 0 1), columns aligned:
/// the same text a predict step's account writes.
fn compact_rows(m: &glam::Affine2) -> String {
    crate::editor::lesson::predict::account::matrix_rows(m)
}

/// Room left on the current row of a wrapping layout.
fn remaining(ui: &egui::Ui) -> f32 {
    ui.max_rect().right() - ui.cursor().min.x
}

/// How wide a compact matrix is on screen.
fn compact_width(ui: &egui::Ui, m: &glam::Affine2) -> f32 {
    let text = compact_rows(m);
    let galley = ui.painter().layout_no_wrap(
        text,
        egui::FontId::monospace(11.0),
        ui.visuals().text_color(),
    );
    galley.size().x + 8.0
}

/// A matrix's top two rows as a narrow monospace block, never wrapped inside, so a chain of
/// them wraps whole to the panel's width.
fn compact_matrix(ui: &mut egui::Ui, m: &glam::Affine2) {
    let text = egui::RichText::new(compact_rows(m)).monospace().size(11.0);
    ui.add(egui::Label::new(text).extend());
}

/// Seed 001's accumulated TRS next to the true world TRS.
pub(super) fn accumulated(
    ui: &mut egui::Ui,
    scene: &Scene,
    id: NodeId,
    world: &crate::model::math::Trs,
) {
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

/// With nothing selected and no lesson open: the course, offered where a newcomer looks first
/// (the first lesson, or the next one not finished), with the whole list a click away.
pub(super) fn course_offer(
    ui: &mut egui::Ui,
    progress: &crate::editor::lesson::progress::CourseProgress,
    out: &CommandSender,
) {
    use crate::editor::lesson::course::next_lesson;
    use crate::editor::session::command::Window;
    use crate::editor::session::lesson::{LessonCommand, LessonSource};
    ui.add_space(12.0);
    ui.separator();
    let next = next_lesson(progress);
    let (text, button) = match next {
        Some((entry, false)) => (
            "New to transforms? A short course shows local and world space by doing: each step is checked as you work.".to_string(),
            format!("Start lesson 1: {}", entry.title),
        ),
        Some((entry, true)) => (
            "The course goes on where you left it.".to_string(),
            format!("Continue with lesson {}: {}", entry.index + 1, entry.title),
        ),
        None => ("You finished the course.".to_string(), String::new()),
    };
    ui.label(text);
    ui.horizontal_wrapped(|ui| {
        if let Some((entry, _)) = next
            && ui.button(button).clicked()
        {
            out.send(Command::Lesson(LessonCommand::Open(LessonSource::Builtin(
                entry.index,
            ))));
        }
        if ui.button("All lessons…").clicked() {
            out.send(Command::Window(WindowCommand::Show(Window::Lessons)));
        }
    });
}
