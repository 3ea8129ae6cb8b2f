//! The probes section: every point probe with its coordinates in its own node's space
//! (editable), in the world, in the selection's space and in the selection's parent's space.

use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::app::number_field::number_field;
use crate::editor::session::command::{Command, HistoryCommand, ProbeCommand};
use crate::editor::session::probes::ProbeReading;
use crate::editor::view::numbers::format_number;
use crate::model::scene::name::node_label;
use glam::DVec2;

/// "(x, y)" with as many digits as the numbers need, or why there is no value.
fn coords(v: Option<DVec2>, missing: &str) -> String {
    match v {
        Some(p) => format!("({}, {})", format_number(p.x), format_number(p.y)),
        None => missing.to_string(),
    }
}

/// The probes, one block each; commands to move or remove them.
pub(super) fn probes_section(ui: &mut egui::Ui, fx: &FrameContext, out: &CommandSender) {
    let readings = &fx.probe_readings;
    if readings.is_empty() {
        ui.weak("📍 No probes: press P (View > Place probes) and click in the viewport to pin one in the selected node's space.");
        return;
    }
    let title = format!("Probes ({})", readings.len());
    egui::CollapsingHeader::new(title)
        .id_salt("probes")
        .default_open(true)
        .show(ui, |ui| {
            let scene = fx.scene;
            let name = |id| {
                scene
                    .node(id)
                    .map_or("?".to_string(), |d| node_label(&d.name, id))
            };
            let selection = fx.primary;
            let parent = selection.and_then(|s| scene.parent(s).ok().flatten());
            let sel_label = selection.map_or("selection".into(), |s| format!("in {}", name(s)));
            let parent_label = match (selection, parent) {
                (None, _) => "selection's parent".to_string(),
                (Some(_), None) => "in world (the selection is a root)".to_string(),
                (Some(_), Some(p)) => format!("in {} (parent)", name(p)),
            };
            for reading in readings {
                probe_block(
                    ui,
                    reading,
                    (&sel_label, &parent_label),
                    selection.is_some(),
                    out,
                );
            }
        });
}

/// One probe: its label and remove button, then a grid of its coordinates.
fn probe_block(
    ui: &mut egui::Ui,
    r: &ProbeReading,
    (sel_label, parent_label): (&str, &str),
    has_selection: bool,
    out: &CommandSender,
) {
    ui.horizontal(|ui| {
        ui.strong(format!("📍 {}", r.label));
        ui.label(format!("lives in {}", r.owner));
        let delete = ui.small_button("✖");
        crate::app::a11y::name(ui, &delete, &format!("Delete probe {}", r.label));
        if delete.on_hover_text("Delete this probe").clicked() {
            out.send(Command::Probe(ProbeCommand::Remove(r.probe)));
        }
    });
    let missing_sel = if has_selection {
        "singular space"
    } else {
        "nothing selected"
    };
    egui::Grid::new(("probe", r.probe.node, r.probe.index))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            ui.label(format!("in {} (own)", r.owner));
            ui.horizontal(|ui| {
                let mut local = r.local;
                let (mut changed, mut ended) = (false, false);
                for (v, axis) in [(&mut local.x, "x"), (&mut local.y, "y")] {
                    let field = number_field(ui, v, |d| d.speed(0.02).max_decimals(6));
                    let name = format!("probe {} {axis} in {}", r.probe.index + 1, r.owner);
                    crate::app::a11y::name(ui, &field.response, &name);
                    changed |= field.changed;
                    ended |= field.ended;
                }
                if changed {
                    out.send(Command::Probe(ProbeCommand::SetLocal {
                        probe: r.probe,
                        local,
                        continuous: true,
                    }));
                }
                if ended {
                    out.send(Command::History(HistoryCommand::EndGesture));
                }
            });
            ui.end_row();
            ui.label("in world");
            ui.label(coords(r.world, "not finite"));
            ui.end_row();
            ui.label(sel_label);
            ui.label(coords(r.in_selection, missing_sel));
            ui.end_row();
            ui.label(parent_label);
            ui.label(coords(r.in_parent, missing_sel));
            ui.end_row();
        });
}
