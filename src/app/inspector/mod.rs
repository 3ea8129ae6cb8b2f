//! The inspector: the selected node's local and world transform side by side (both editable),
//! its matrices, and the shear metrics. Reads the FrameContext, sends commands.

mod fields;
mod instance;
mod probes;
mod sections;
mod state;

use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::app::ui_targets::Targets;
use crate::editor::session::command::{Command, HistoryCommand, PanelCommand, TransformSpace};
use crate::editor::session::multi_edit;
use crate::editor::view::numbers::{format_angle, format_fixed};
use crate::model::math::{Trs, shear_metrics, try_inverse};
use crate::model::scene::name::node_label;
use crate::model::scene::{NodeId, Scene};
use fields::{Columns, Tracker, angle_row, vec_row};
use glam::Affine2;
use sections::{
    accumulated, appearance, copy_paste, matrix_chain, matrix_grid, name_field, shear_diagnosis,
};
pub use state::InspectorState;
use state::MixedKey;

/// Selections bigger than this recompute the "differs" marks only once the world matrices
/// stopped changing (a drag of everything in a 1M scene decomposed a million world matrices a
/// frame: 137 ms frames, 41 ms without it).
const MIXED_EVERY_FRAME_MAX: usize = 10_000;

/// The primary selection as the inspector reads it this frame.
struct Inspected<'a> {
    scene: &'a Scene,
    selection: &'a [NodeId],
    /// The frame context's selection version (it changes whenever the selection does).
    selection_version: u64,
    /// Where the transform fields and Select cause register as lesson targets.
    targets: &'a Targets,
    id: NodeId,
    name: &'a str,
    local: Trs,
    world: Trs,
    world_m: Affine2,
    /// The parent's world matrix has no inverse: world values are read-only.
    singular: bool,
}

impl<'a> Inspected<'a> {
    /// Read node `id` of the frame's scene; None when any of its transforms is unavailable.
    fn read(fx: &'a FrameContext, id: NodeId) -> Option<Self> {
        let scene = fx.scene;
        let (Ok(data), Ok(world_m), Ok(world), Ok(parent_world)) = (
            scene.node(id),
            scene.world(id),
            scene.world_trs(id),
            scene.parent_world(id),
        ) else {
            return None;
        };
        Some(Self {
            scene,
            selection: fx.selection.ids(),
            selection_version: fx.selection_version,
            targets: fx.wiring.targets,
            id,
            name: &data.name,
            local: data.local,
            world,
            world_m,
            singular: try_inverse(&parent_world).is_err(),
        })
    }
}

impl InspectorState {
    /// Draw the inspector for the primary selection; its fields register as lesson targets in
    /// `fx.wiring`.
    pub fn ui(&mut self, ui: &mut egui::Ui, fx: &FrameContext) {
        let state = self;
        let out = fx.wiring.sender;
        // Fill the panel's width whatever is selected, so the panel (and the viewport beside it)
        // keeps its size; rows wider than the panel scroll instead of widening it.
        ui.set_min_width(ui.available_width());
        ui.heading("Inspector");
        let Some(id) = fx.selection.last() else {
            ui.label("Select a node to see its local and world transform.");
            probes::probes_section(ui, fx, out);
            if fx.lesson.is_none() && !fx.lessons_open {
                sections::course_offer(ui, fx.lesson_progress, out);
            }
            return;
        };
        let Some(node) = Inspected::read(fx, id) else {
            return;
        };
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                header(ui, &node, state, out);
                instance::section(ui, fx.scene, id, out);
                probes::probes_section(ui, fx, out);
                body(ui, &node, state, out);
                crate::app::a11y::scroll_focus_into_view(ui);
            });
    }
}

/// The name field, the multi-selection note and the parent.
fn header(ui: &mut egui::Ui, node: &Inspected, state: &mut InspectorState, out: &CommandSender) {
    let scene = node.scene;
    name_field(ui, node.id, node.name, state, out);
    if node.selection.len() > 1 {
        ui.label(format!("{} nodes selected: shared values shown, differing ones marked ~; an edit applies to all.", node.selection.len()));
    }
    ui.label(match scene.parent(node.id).ok().flatten() {
        Some(p) => format!(
            "parent: {} (id {p})",
            scene.node(p).map_or("?".into(), |d| node_label(&d.name, p))
        ),
        None => "a root".to_string(),
    });
}

/// Everything below the header, in the scroll area.
fn body(ui: &mut egui::Ui, node: &Inspected, state: &mut InspectorState, out: &CommandSender) {
    let (scene, id) = (node.scene, node.id);
    transform(ui, node, state, out);
    let lock = ui.checkbox(&mut state.lock_scale, "🔒 Keep scale uniform");
    crate::app::a11y::name(ui, &lock, "Keep scale uniform");
    copy_paste(ui, id, &node.local, &node.world, state, out);
    if node.singular {
        ui.colored_label(ui.visuals().warn_fg_color, "World values are read-only: the parent's world matrix is singular (a zero scale somewhere above), so no local transform can reach them.");
    }
    ui.separator();
    metrics(ui, node, out);
    egui::CollapsingHeader::new("Matrices")
        .default_open(true)
        .show(ui, |ui| {
            ui.label("local");
            matrix_grid(ui, "local-matrix", &node.local.to_affine());
            ui.label("world = parentWorld · local");
            matrix_grid(ui, "world-matrix", &node.world_m);
        });
    appearance(ui, scene, id, out);
    matrix_chain(ui, scene, id, &mut state.hovered_factor, out);
    accumulated(ui, scene, id, &node.world);
}

/// The local and world transform grid, and the edits typed or dragged into it (applied to every
/// selected node; one continuous step per gesture).
fn transform(ui: &mut egui::Ui, node: &Inspected, state: &mut InspectorState, out: &CommandSender) {
    let (scene, selection) = (node.scene, node.selection);
    let key = (
        node.selection_version,
        scene.structure_version(),
        scene.appearance_version(),
        scene.world_version(),
    );
    let only_world_moved = |k: &MixedKey| k.0 == key.0 && k.1 == key.1 && k.2 == key.2;
    let still_moving = std::mem::replace(&mut state.world_seen, key.3) != key.3;
    let (mixed_local, mixed_world) = match state.mixed {
        Some((k, l, w)) if k == key => (l, w),
        Some((k, l, w))
            if selection.len() > MIXED_EVERY_FRAME_MAX && only_world_moved(&k) && still_moving =>
        {
            (l, w)
        }
        _ => {
            let l = multi_edit::mixed_local(scene, selection);
            let w = multi_edit::mixed_world(scene, selection);
            state.mixed = Some((key, l, w));
            (l, w)
        }
    };
    let lock_scale = state.lock_scale;
    let index = scene.index(node.id).unwrap_or_default();
    let name = crate::editor::session::arrange::display_name(scene, index);
    let mut lt = Tracker::new("local", mixed_local, &name, node.targets);
    let mut wt = Tracker::new("world", mixed_world, &name, node.targets);
    let (mut local, mut w) = (node.local, node.world);
    let fit = (!node.singular, &mut state.side_by_side_width);
    transform_grid(ui, (&mut lt, &mut local), (&mut wt, &mut w), fit);
    if lt.changed {
        out.send(Command::Panel(PanelCommand::SetTransform {
            space: TransformSpace::Local,
            before: node.local,
            value: local,
            lock_scale,
        }));
    }
    if wt.changed {
        out.send(Command::Panel(PanelCommand::SetTransform {
            space: TransformSpace::World,
            before: node.world,
            value: w,
            lock_scale,
        }));
    }
    if lt.ended || wt.ended {
        out.send(Command::History(HistoryCommand::EndGesture));
    }
}

/// The grid of position, rotation, scale and skew, local beside world, or world under local
/// when the side-by-side grid (as wide as it was last drawn) would not fit the panel.
fn transform_grid(
    ui: &mut egui::Ui,
    (lt, local): (&mut Tracker, &mut Trs),
    (wt, w): (&mut Tracker, &mut Trs),
    (world_enabled, side_by_side_width): (bool, &mut f32),
) {
    let columns = if *side_by_side_width > ui.available_width() {
        Columns::Stacked
    } else {
        Columns::SideBySide
    };
    let grid = egui::Grid::new("trs")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            if columns == Columns::SideBySide {
                ui.label("");
                ui.strong("Local");
                ui.strong("World");
                ui.end_row();
            }
            let on = world_enabled;
            let (l, r) = (&mut local.position, &mut w.position);
            vec_row(
                ui,
                ("position", columns),
                0.05,
                (&mut *lt, l),
                (&mut *wt, r),
                on,
            );
            let (l, r) = (&mut local.rotation, &mut w.rotation);
            angle_row(ui, ("rotation", columns), (&mut *lt, l), (&mut *wt, r), on);
            let (l, r) = (&mut local.scale, &mut w.scale);
            vec_row(
                ui,
                ("scale", columns),
                0.01,
                (&mut *lt, l),
                (&mut *wt, r),
                on,
            );
            let (l, r) = (&mut local.skew, &mut w.skew);
            angle_row(ui, ("skew", columns), (lt, l), (wt, r), on);
        });
    if columns == Columns::SideBySide {
        let width = grid.response.rect.width();
        if width != *side_by_side_width {
            // Wider values than last frame (another node, a bigger number): lay out again.
            *side_by_side_width = width;
            ui.ctx().request_repaint();
        }
    }
}

/// The shear diagnosis and the world matrix's metrics (axis dot and angle, lossy scale,
/// determinant).
fn metrics(ui: &mut egui::Ui, node: &Inspected, out: &CommandSender) {
    let metrics = shear_metrics(&node.world_m);
    shear_diagnosis(
        ui,
        (node.scene, node.targets),
        node.id,
        metrics.axis_angle,
        out,
    );
    egui::Grid::new("metrics").num_columns(2).show(ui, |ui| {
        ui.label("shear dot(col0, col1)");
        ui.monospace(format_fixed(metrics.dot as f64, 5));
        ui.end_row();
        ui.label("angle between axes");
        ui.monospace(format!(
            "{}°",
            format_angle(metrics.axis_angle as f64, 3, 3)
        ));
        ui.end_row();
        // x and y on their own lines: "(1.0000, 1.0000)" ran past a narrow panel at 150 %.
        ui.label("lossy scale");
        ui.vertical(|ui| {
            ui.monospace(format!(
                "x {}",
                format_fixed(metrics.lossy_scale.x as f64, 4)
            ));
            ui.monospace(format!(
                "y {}",
                format_fixed(metrics.lossy_scale.y as f64, 4)
            ));
        });
        ui.end_row();
        ui.label("determinant");
        ui.monospace(format_fixed(metrics.determinant as f64, 5));
        ui.end_row();
    });
}
