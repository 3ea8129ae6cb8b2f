//! Scenes inside scenes in the editor: Node ▸ Instance scene… (and a scene file dropped on a
//! hierarchy row), Save branch as scene…, Make local, Revert to source and Open source. Each
//! change is one undo step made of the model's ops (`model/instance/plan.rs`), so the journal
//! and recovery cover it.

use crate::editor::session::command::{Effect, InstanceCommand};
use crate::editor::session::edits::EditParts;
use crate::editor::session::messages::MessageLog;
use crate::editor::session::purpose::{DialogPurpose, Outcome};
use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::instance::plan;
use crate::model::scene::NodeId;
use std::path::{Path, PathBuf};

/// The file instances are read relative to: `doc`'s, or `untitled.ron` here.
pub(super) fn host_file(doc: &Document) -> PathBuf {
    doc.path()
        .map_or_else(|| PathBuf::from("untitled.ron"), Path::to_path_buf)
}

/// What an instance command comes to: done, or a file to ask for (the file flow's dialog).
pub(super) enum InstanceDone {
    /// Carried out.
    Done(Outcome),
    /// Ask for a path for this purpose first.
    AskPath(DialogPurpose),
}

impl EditParts<'_> {
    /// Carry out an instance command (the edits are one undo step each).
    pub(super) fn instance_command(&mut self, command: InstanceCommand) -> Result<InstanceDone> {
        let ask = |purpose| Ok(InstanceDone::AskPath(purpose));
        let done = match command {
            InstanceCommand::InstanceHere => {
                let under = self.primary();
                return ask(DialogPurpose::InstanceScene { under });
            }
            InstanceCommand::Instance { under, path: None } => {
                return ask(DialogPurpose::InstanceScene { under });
            }
            InstanceCommand::Instance {
                under,
                path: Some(path),
            } => self.instance_scene(under, &path),
            InstanceCommand::SaveBranch(None) => {
                let node = self.primary_or_refuse("Save branch as scene")?;
                return ask(DialogPurpose::SaveBranch { node });
            }
            InstanceCommand::SaveBranch(Some(path)) => {
                let node = self.primary_or_refuse("Save branch as scene")?;
                self.save_branch(node, &path)
            }
            InstanceCommand::MakeLocal => self.make_local(),
            InstanceCommand::Revert { node, fields } => self.revert(node, fields),
            InstanceCommand::OpenSource => self.open_source(),
            InstanceCommand::RemoveDangling { root, chain } => {
                self.remove_dangling(root, chain.as_deref())
            }
        };
        done.map(InstanceDone::Done)
    }

    /// Instance `path` under `under`, one undo step, and select the new instance.
    pub(super) fn instance_scene(&mut self, under: Option<NodeId>, path: &Path) -> Result<Outcome> {
        let host = host_file(self.doc);
        let text = plan::source_text(self.doc.path(), path);
        let (ops, root) = plan::instance_ops(self.doc.scene(), &host, &text, under)?;
        let name = path
            .file_name()
            .map_or(text.clone(), |n| n.to_string_lossy().into_owned());
        let label = match under {
            Some(p) => format!("Instance {name} under {}", self.name_of(p)),
            None => format!("Instance {name}"),
        };
        self.perform(label, ops, false)?;
        self.selection.set(vec![root]);
        Ok(Outcome::default())
    }

    /// Save the branch of `node` as `path` and replace it by an instance of that file.
    fn save_branch(&mut self, node: NodeId, path: &Path) -> Result<Outcome> {
        let host = host_file(self.doc);
        let label = format!("Save branch {} as scene", self.name_of(node));
        let (ops, root) = plan::save_branch(self.doc.scene(), &host, node, path)?;
        self.perform(label, ops, false)?;
        self.selection.set(vec![root]);
        self.info(format!(
            "Wrote {}; the branch is now an instance of it (Undo puts the branch back, the file stays)",
            path.display()
        ));
        Ok(Outcome::default())
    }

    /// The instance roots the selection names: each selected root, or the instance a
    /// selected inner node belongs to; each once.
    fn selected_instances(&self) -> Vec<NodeId> {
        let scene = self.doc.scene();
        let mut roots: Vec<NodeId> = Vec::new();
        for &id in self.selection.ids() {
            let root = match scene.origin(id) {
                Some(o) => Some(o.root),
                None => scene.instance_entry(id).map(|_| id),
            };
            if let Some(root) = root.filter(|r| !roots.contains(r)) {
                roots.push(root);
            }
        }
        roots
    }

    /// Make the selected instances local, one undo step; the overrides of nodes their source
    /// no longer has are said to be dropped.
    fn make_local(&mut self) -> Result<Outcome> {
        let roots = self.selected_instances();
        if roots.is_empty() {
            return Err(Error::Refused(
                "Make local: select an instance (or a node inside one)".into(),
            ));
        }
        let mut ops = Vec::new();
        let mut dropped = 0;
        for &root in &roots {
            let (more, dangling) = plan::make_local_ops(self.doc.scene(), root)?;
            ops.extend(more);
            dropped += dangling;
        }
        let label = self.label_for("Make local", &roots);
        self.perform(label, ops, false)?;
        if dropped > 0 {
            self.info(format!(
                "{dropped} override(s) of nodes the source no longer has were dropped (Undo keeps them)"
            ));
        }
        Ok(Outcome::default())
    }

    /// Revert `fields` of `node` (or every field of each selected node) to the source.
    fn revert(&mut self, node: Option<NodeId>, fields: u16) -> Result<Outcome> {
        let nodes = match node {
            Some(n) => vec![n],
            None => self.selection.ids().to_vec(),
        };
        let mut ops = Vec::new();
        for &n in &nodes {
            ops.extend(plan::revert_ops(self.doc.scene(), n, fields)?);
        }
        if ops.is_empty() {
            self.info("Nothing to revert: the values are the source's");
            return Ok(Outcome::default());
        }
        let label = self.label_for("Revert to source", &nodes);
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }

    /// Remove overrides kept for nodes the source no longer has, one undo step.
    fn remove_dangling(&mut self, root: NodeId, chain: Option<&[u32]>) -> Result<Outcome> {
        let ops = plan::remove_dangling_ops(self.doc.scene(), root, chain)?;
        let what = match chain {
            Some(c) => format!(
                "override of node {}",
                crate::model::instance::Override::node_text(c)
            ),
            None => "overrides of missing nodes".to_string(),
        };
        let label = format!("Remove {what} from {}", self.name_of(root));
        self.perform(label, ops, false)?;
        Ok(Outcome::default())
    }

    /// Open the source of the primary selection's instance in a new graft window.
    fn open_source(&mut self) -> Result<Outcome> {
        let root = self
            .selected_instances()
            .into_iter()
            .next()
            .ok_or_else(|| {
                Error::Refused("Open source: select an instance (or a node inside one)".into())
            })?;
        let entry = self.doc.scene().instance_entry(root);
        let file = match entry.map(|e| &e.source) {
            Some(Ok(source)) => source.path.clone(),
            Some(Err(why)) => return Err(Error::Refused(format!("Open source: {why}"))),
            None => return Err(Error::Refused("Open source: not an instance".into())),
        };
        self.info(format!("Opening {} in a new window", file.display()));
        Ok(Outcome::with(Effect::OpenWindow(file)))
    }
}

/// Warn once, in the message log, about what does not resolve in the instances of the
/// file just opened (`doc`) (a missing source, an override of a node the source lost, a node
/// added under one), at `FILE:LINE:COL` as `graft check` says it.
pub(super) fn warn_instance_problems(doc: &Document, log: &mut MessageLog) {
    let Some(file) = doc.path().map(Path::to_path_buf) else {
        return;
    };
    if crate::model::instance::check::problems(doc.scene()).is_empty() {
        return;
    }
    // Read again only now, to place them (the open itself kept no text).
    let limit = crate::model::read_limit::SCENE;
    let text = crate::model::read_limit::read_text_bounded(&file, limit).unwrap_or_default();
    let lines = crate::model::instance::check::report(doc.scene(), &text, &file);
    for line in lines
        .into_iter()
        .take(crate::editor::session::sprites::MAX_WARNINGS)
    {
        log.info(line);
    }
}
