//! `graft import` and `graft export`: Godot scenes in and out from the command line, with the
//! import report on stderr.

use super::cli::Failure;
use crate::file;
use crate::model::godot::export::{ExportOptions, to_tscn};
use crate::model::godot::import::{import_file, relative_sprites};
use crate::model::godot::tree::find_project_root;
use std::io::Write;
use std::path::Path;

/// Import a `.tscn` into a `.ron` (sprite paths relative to the output's folder); the report
/// goes to `report` (stderr).
pub fn import(
    input: &Path,
    output: &Path,
    out: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<(), Failure> {
    if input.extension().and_then(|e| e.to_str()) == Some("scn") {
        return Err(Failure(format!(
            "{}: a binary Godot scene: open it in Godot and save it as .tscn (text)",
            input.display()
        )));
    }
    let imported = import_file(input)?;
    for line in imported.report.lines() {
        writeln!(report, "{line}")?;
    }
    let dir = output
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let scene = relative_sprites(&imported.scene, &dir)?;
    file::save(&scene, output)?;
    writeln!(
        out,
        "wrote {} ({} nodes from {})",
        output.display(),
        scene.len(),
        input.display()
    )?;
    Ok(())
}

/// Export a `.ron` scene as a Godot 4 `.tscn`; images get `res://` paths under `project` (or
/// the folder holding `project.godot` above the output).
pub fn export(
    input: &Path,
    output: &Path,
    project: Option<&Path>,
    out: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<(), Failure> {
    let scene = file::load(input)?;
    let options = ExportOptions {
        project_root: project
            .map(Path::to_path_buf)
            .or_else(|| find_project_root(&absolute(output))),
        scene_dir: input.parent().map(Path::to_path_buf),
        root_name: input
            .file_stem()
            .map_or("Root".into(), |s| s.to_string_lossy().into_owned()),
    };
    let (text, notes) = to_tscn(&scene, &options);
    for line in notes
        .renamed
        .iter()
        .map(|r| format!("renamed {r}"))
        .chain(notes.notes)
    {
        writeln!(report, "{line}")?;
    }
    file::atomic_write_with(output, |w| w.write_all(text.as_bytes()))?;
    writeln!(
        out,
        "wrote {} ({} nodes under one root Node2D)",
        output.display(),
        scene.len()
    )?;
    Ok(())
}

fn absolute(p: &Path) -> std::path::PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
