//! The inspector's instance section: which source a node comes from, each value it overrides
//! (marked •, with the source's value and a Revert button beside it), and Revert all, Make
//! local and Open source.

use crate::app::frame::CommandSender;
use crate::editor::session::command::InstanceCommand;
use crate::editor::session::command::{Command, SelectionCommand};
use crate::model::instance::plan::{overrides_of_node, source_value};
use crate::model::instance::{FieldSet, Override};
use crate::model::scene::{NodeData, NodeId, Scene};

/// The source's value of one field, as text.
fn value_text(data: &NodeData, bit: u16) -> String {
    let l = &data.local;
    match bit {
        FieldSet::NAME => format!("{:?}", data.name.as_str()),
        FieldSet::POSITION => format!("({}, {})", l.position.x, l.position.y),
        FieldSet::ROTATION => format!("{}°", l.rotation),
        FieldSet::SCALE => format!("({}, {})", l.scale.x, l.scale.y),
        FieldSet::SKEW => format!("{}°", l.skew),
        FieldSet::COLOR => format!("{:?}", data.color),
        FieldSet::PROBES => format!("{} probes", data.probes.len()),
        FieldSet::TRACKS => format!("{} tracks", data.tracks.len()),
        _ => "its own".into(),
    }
}

/// The section, for a node that is an instance or comes from one (nothing otherwise).
pub(super) fn section(ui: &mut egui::Ui, scene: &Scene, id: NodeId, out: &CommandSender) {
    let (root, inner) = match scene.origin(id) {
        Some(o) => (o.root, true),
        None => (id, false),
    };
    let Some(entry) = scene.instance_entry(root) else {
        return;
    };
    ui.separator();
    ui.label(if inner {
        format!(
            "From {} (instance {root}): changes are kept as overrides",
            entry.path
        )
    } else {
        format!("Instance of {}", entry.path)
    });
    if let Err(why) = &entry.source {
        ui.colored_label(ui.visuals().warn_fg_color, format!("Source missing: {why}"));
    } else if !inner {
        dangling_rows(ui, root, &entry.path, &entry.dangling, out);
    }
    let fields = overrides_of_node(scene, id).unwrap_or_default();
    if let Some(base) = source_value(scene, id) {
        override_rows(ui, id, fields, base, out);
    }
    ui.horizontal(|ui| {
        let all = ui.add_enabled(fields.0 != 0, egui::Button::new("Revert all"));
        if all
            .on_hover_text("Every overridden value of this node back to the source's")
            .clicked()
        {
            out.send(Command::Instance(InstanceCommand::Revert {
                node: Some(id),
                fields: u16::MAX,
            }));
        }
        if ui.button("Make local").clicked() {
            out.send(Command::Selection(SelectionCommand::Select(vec![root])));
            out.send(Command::Instance(InstanceCommand::MakeLocal));
        }
        if ui.button("Open source").clicked() {
            out.send(Command::Instance(InstanceCommand::OpenSource));
        }
    });
}

/// One row per overridden value: the mark, the source's value, a Revert button.
fn override_rows(
    ui: &mut egui::Ui,
    id: NodeId,
    fields: FieldSet,
    base: &NodeData,
    out: &CommandSender,
) {
    for (bit, name) in [
        (FieldSet::NAME, "name"),
        (FieldSet::POSITION, "position"),
        (FieldSet::ROTATION, "rotation"),
        (FieldSet::SCALE, "scale"),
        (FieldSet::SKEW, "skew"),
        (FieldSet::SHAPE, "shape"),
        (FieldSet::COLOR, "colour"),
        (FieldSet::PROBES, "probes"),
        (FieldSet::TRACKS, "tracks"),
    ] {
        if !fields.has(bit) {
            continue;
        }
        ui.horizontal(|ui| {
            ui.label(format!(
                "• {name} overridden (source: {})",
                value_text(base, bit)
            ));
            let revert = ui.button(format!("Revert {name}"));
            let revert = revert.on_hover_text(format!("Set the {name} back to the source's"));
            if revert.clicked() {
                out.send(Command::Instance(InstanceCommand::Revert {
                    node: Some(id),
                    fields: bit,
                }));
            }
        });
    }
}

/// One row per override kept for a node the source no longer has: what it sets, and a
/// Remove button (kept otherwise, and applied again if the node comes back).
fn dangling_rows(
    ui: &mut egui::Ui,
    root: NodeId,
    path: &str,
    dangling: &[Override],
    out: &CommandSender,
) {
    for o in dangling {
        let node = Override::node_text(&o.node);
        let what = format!(
            "⚠ override of node {node} ({}), no longer in {path}",
            o.fields().names().join(", ")
        );
        let warn = egui::RichText::new(what).color(ui.visuals().warn_fg_color);
        ui.add(egui::Label::new(warn).wrap());
        let remove = ui.button(format!("Remove override of node {node}"));
        let tip = "Kept in the file and applied again if the source gets the node back; \
                   Remove forgets it (Undo brings it back)";
        if remove.on_hover_text(tip).clicked() {
            out.send(Command::Instance(InstanceCommand::RemoveDangling {
                root,
                chain: Some(o.node.to_vec()),
            }));
        }
    }
}
