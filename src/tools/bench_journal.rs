//! `graft bench journal`: what the crash journal costs a drag. A generated scene is dragged
//! (one continuous gesture, one step per frame, as the viewport sends it) through
//! `Editor::apply` and `Editor::tick`, with the journal off and on, interleaved; reported per
//! frame (median), with the bytes the journal wrote, the journal's start (its base scene) and
//! what one `fdatasync` of this disk costs.

use crate::editor::session::Editor;
use crate::editor::session::command::{Command, HistoryCommand, PanelCommand};
use crate::editor::view::pointer::MoveDrag;
use crate::model::document::Document;
use crate::model::generate::{GenShape, generate};
use crate::model::scene::NodeId;
use glam::DVec2;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Figures of one `graft bench journal` run.
#[derive(Clone, Debug, Serialize)]
pub struct JournalReport {
    /// Nodes in the scene.
    pub nodes: usize,
    /// Nodes dragged each frame (the selection).
    pub dragged: usize,
    /// Frames of the drag.
    pub frames: usize,
    /// One drag frame without the journal (µs, median).
    pub frame_off_us: f64,
    /// One drag frame with the journal (µs, median).
    pub frame_on_us: f64,
    /// Journal bytes written per drag frame.
    pub bytes_per_frame: f64,
    /// Journal bytes per second at 60 frames a second.
    pub bytes_per_second_at_60fps: f64,
    /// Starting the journal, as the window waits for it (ms): the base scene written and synced
    /// for a small scene; for a big one, the scene copied for the thread that writes it.
    pub start_ms: f64,
    /// One append of a drag frame's record plus `fdatasync` on this disk (µs, median).
    pub fdatasync_us: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// One drag of `nodes` over `frames` frames, as the viewport sends it (the dragged nodes
/// follow the pointer, one continuous step); per-frame times in µs.
fn drag(editor: &mut Editor, nodes: &[NodeId], frames: usize) -> Vec<f64> {
    let scene = editor.doc().scene();
    let starts = (nodes.iter())
        .filter_map(|&id| scene.world(id).ok().map(|w| (id, w.translation)))
        .collect();
    let drag = Arc::new(MoveDrag {
        start_pointer: DVec2::ZERO,
        starts,
    });
    let mut times = Vec::with_capacity(frames);
    for frame in 1..=frames {
        let command = PanelCommand::MoveSelection {
            drag: Arc::clone(&drag),
            pointer: DVec2::new(frame as f64 * 0.25, 0.0),
            snap: None,
        };
        let start = Instant::now();
        let _ = editor.apply(Command::Panel(command));
        editor.tick(1.0 / 60.0);
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    let _ = editor.apply(Command::History(HistoryCommand::EndGesture));
    times
}

/// The cost of `fdatasync` after a small append, median of 50.
fn fdatasync_cost(dir: &std::path::Path) -> f64 {
    let path = dir.join("sync-probe");
    let Ok(mut file) = std::fs::File::create(&path) else {
        return f64::NAN;
    };
    let times = (0..50)
        .map(|_| {
            let start = Instant::now();
            let _ = file.write_all(&[0u8; 64]).and_then(|()| file.sync_data());
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let _ = std::fs::remove_file(&path);
    median(times)
}

/// Run the benchmark: a wide scene of `nodes`, its first `dragged` roots dragged.
pub fn run(nodes: usize, dragged: usize, frames: usize) -> JournalReport {
    let dir = std::env::temp_dir().join(format!("graft-bench-journal-{}", std::process::id()));
    let scene = generate(GenShape::Wide, nodes, 5);
    // One node: the root, so the whole scene moves; more: the root's children.
    let root = scene.id_at(0);
    let roots: Vec<NodeId> = if dragged <= 1 {
        vec![root]
    } else {
        let children = scene.children(Some(root)).unwrap_or_default();
        children.into_iter().take(dragged).collect()
    };
    let mut off = Editor::new(Document::untitled(scene.clone()));
    let mut on = Editor::new(Document::untitled(scene));
    off.tick(0.0);
    on.tick(0.0);
    let start = Instant::now();
    on.start_journal(dir.clone());
    let start_ms = start.elapsed().as_secs_f64() * 1e3;
    let begin_bytes = on.journal_bytes();
    let (mut t_off, mut t_on) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        t_off.extend(drag(&mut off, &roots, frames / 3));
        t_on.extend(drag(&mut on, &roots, frames / 3));
    }
    let written = on.journal_bytes().saturating_sub(begin_bytes) as f64;
    let per_frame = written / (frames / 3 * 3).max(1) as f64;
    on.end_journal();
    let report = JournalReport {
        nodes,
        dragged: roots.len(),
        frames,
        frame_off_us: median(t_off),
        frame_on_us: median(t_on),
        bytes_per_frame: per_frame,
        bytes_per_second_at_60fps: per_frame * 60.0,
        start_ms,
        fdatasync_us: fdatasync_cost(&dir),
    };
    let _ = std::fs::remove_dir_all(&dir);
    report
}
