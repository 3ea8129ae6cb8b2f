//! `graft import` and `graft export`: Godot scenes in and out from the command line, with the
//! import report on stderr.

use super::cli_args::FigureArgs;
use super::failure::Failure;
use super::progress::in_stage;
use crate::editor::view::figure::png::render_png;
use crate::editor::view::figure::{
    FigureOptions, Layers, check_sprite_files, embedded_image, figure_svg,
};
use crate::model::atomic_write;
use crate::model::file_kind::{self, FileKind};
use crate::model::godot::export::{ExportOptions, to_tscn};
use crate::model::godot::export_instance::{Export, export_scene};
use crate::model::godot::import::{import_file, import_file_keeping, import_file_with};
use crate::model::godot::tree::find_project_root;
use crate::model::progress::Stage;
use crate::model::spaces::resolve_space;
use crate::model::svg::export::{Images, SvgOptions, save_document};
use std::io::Write;
use std::path::Path;

/// What `graft import` was asked for besides the files.
#[derive(Default)]
pub struct ImportFlags<'a> {
    /// .tscn: Godot pixels per graft unit.
    pub pixels_per_unit: Option<f32>,
    /// .tscn: write the instanced scenes as `.ron` files in this folder.
    pub sources: Option<&'a Path>,
}

/// Import a `.tscn` into a `.ron` (sprite and source paths relative to the output's folder;
/// instances keep their `.tscn` sources, or `.ron` ones written in `flags.sources`); the
/// report goes to `report` (stderr).
pub fn import(
    input: &Path,
    output: &Path,
    flags: &ImportFlags,
    out: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<(), Failure> {
    if FileKind::GodotBinary.is(input) {
        return Err(Failure(format!(
            "{}: a binary Godot scene: open it in Godot and save it as .tscn (text)",
            input.display()
        )));
    }
    let (scene, lines) = if FileKind::Svg.is(input) {
        let imported = in_stage(input, Stage::Parsing, || {
            crate::model::svg::import::import_svg_file(input)
        })?;
        (imported.scene, imported.notes)
    } else {
        let ppu = flags.pixels_per_unit.unwrap_or(1.0);
        let imported = in_stage(input, Stage::Parsing, || match flags.sources {
            Some(_) => import_file_keeping(input, ppu),
            None => import_file_with(input, ppu),
        })?;
        (imported.scene, imported.report.lines())
    };
    for line in lines {
        writeln!(report, "{line}")?;
    }
    let mut scene = scene;
    if let Some(dir) = flags.sources {
        let written = crate::model::godot::keep::sources_as_ron(&mut scene, dir)?;
        for file in &written {
            writeln!(out, "wrote {} (an instanced scene)", file.display())?;
        }
    }
    scene.relative_sprites(&crate::model::scene::sprites::folder_of(output));
    super::progress::save(&scene, output)?;
    writeln!(
        out,
        "wrote {} ({} nodes from {})",
        output.display(),
        scene.len(),
        input.display()
    )?;
    Ok(())
}

/// What `graft export` was asked for besides the files.
pub struct ExportFlags<'a> {
    /// The Godot project folder (res:// paths).
    pub project: Option<&'a Path>,
    /// SVG: link images instead of embedding them.
    pub link_images: bool,
    /// .tscn: write for Godot 3.
    pub godot3: bool,
    /// SVG: SMIL animation of the clip.
    pub animate: bool,
    /// The animated SVG inside an HTML player page.
    pub html: bool,
    /// .tscn: Godot pixels per graft unit.
    pub pixels_per_unit: Option<f32>,
    /// .tscn: instances as plain nodes.
    pub flatten: bool,
}

/// `graft export` to `.svg` or `.html`: the hierarchy as groups, animated when asked.
fn export_svg(
    scene: &crate::model::scene::Scene,
    (input, output): (&Path, &Path),
    flags: &ExportFlags,
    html: bool,
    (out, report): (&mut dyn Write, &mut dyn Write),
) -> Result<(), Failure> {
    let options = SvgOptions {
        scene_dir: input.parent().map(Path::to_path_buf),
        svg_dir: output.parent().map(Path::to_path_buf),
        images: if flags.link_images {
            Images::Link
        } else {
            Images::Embed
        },
        animate: flags.animate || html,
    };
    let progress = crate::model::progress::Progress::new();
    let notes = save_document(scene, output, &options, html, &progress)?.unwrap_or_default();
    for note in notes {
        writeln!(report, "{note}")?;
    }
    let animated = scene.animated_nodes().len();
    let what = match (html, options.animate) {
        (true, _) => format!("an HTML page playing the SVG; {animated} animated nodes"),
        (false, true) => format!("one group each; {animated} animated with SMIL"),
        _ => "one group each".to_string(),
    };
    writeln!(
        out,
        "wrote {} ({} nodes, {what})",
        output.display(),
        scene.len()
    )?;
    Ok(())
}

/// Export a `.ron` scene as a Godot `.tscn` (images get `res://` paths under the project, or
/// the folder holding `project.godot` above the output), as an `.svg` (images embedded or
/// linked; animated with SMIL when asked), or as an `.html` page that plays the animated SVG.
pub fn export(
    input: &Path,
    output: &Path,
    flags: &ExportFlags,
    out: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<(), Failure> {
    check_output(output)?;
    let html = flags.html || FileKind::Html.is(output);
    let known = [FileKind::Svg, FileKind::Html, FileKind::GodotText];
    if !file_kind::accepts(&known, output) && !flags.html {
        return Err(Failure(format!(
            "{}: export writes .tscn (Godot), .svg, or .html (a page playing the animation)",
            output.display()
        )));
    }
    let scene = super::progress::load(input)?;
    if FileKind::Svg.is(output) || html {
        if flags.animate || html {
            check_animated(&scene, input)?;
        }
        return export_svg(&scene, (input, output), flags, html, (out, report));
    }
    export_tscn(&scene, (input, output), flags, (out, report))
}

/// `graft export` to `.tscn`: instances kept (their parts written beside the output) unless
/// `--flatten`.
fn export_tscn(
    scene: &crate::model::scene::Scene,
    (input, output): (&Path, &Path),
    flags: &ExportFlags,
    (out, report): (&mut dyn Write, &mut dyn Write),
) -> Result<(), Failure> {
    let (project, godot3) = (flags.project, flags.godot3);
    let options = ExportOptions {
        project_root: project
            .map(Path::to_path_buf)
            .or_else(|| find_project_root(&absolute(output))),
        scene_dir: input.parent().map(Path::to_path_buf),
        root_name: input
            .file_stem()
            .map_or("Root".into(), |s| s.to_string_lossy().into_owned()),
        godot3,
        pixels_per_unit: flags.pixels_per_unit,
    };
    let dir = crate::model::scene::sprites::folder_of(&absolute(output));
    let kept = !flags.flatten && scene.instances().is_some_and(|t| t.in_use(scene));
    let export = if kept {
        export_scene(scene, &options, output)
    } else {
        let (text, report) = to_tscn(scene, &options);
        Export {
            text,
            report,
            ..Export::default()
        }
    };
    let notes = export.report;
    for line in notes
        .renamed
        .iter()
        .map(|r| format!("renamed {r}"))
        .chain(notes.notes)
    {
        writeln!(report, "{line}")?;
    }
    for (name, text) in &export.parts {
        let part = dir.join(name);
        // A file of that name that graft did not write is kept as NAME.bak.
        super::progress::write(&part, text.as_bytes(), atomic_write::Backup::Keep)?;
        writeln!(out, "wrote {} (an instanced scene)", part.display())?;
    }
    super::progress::write(output, export.text.as_bytes(), atomic_write::Backup::None)?;
    let how = if kept {
        "under one root Node2D, instances kept"
    } else {
        "under one root Node2D"
    };
    writeln!(
        out,
        "wrote {} ({} nodes {how})",
        output.display(),
        scene.len()
    )?;
    Ok(())
}

/// A scene from a `.ron` or, imported, a `.tscn` (its report on stderr).
fn load_any(path: &Path) -> Result<crate::model::scene::Scene, Failure> {
    if FileKind::GodotText.is(path) {
        let imported = in_stage(path, Stage::Parsing, || import_file(path))?;
        for line in imported.report.lines() {
            eprintln!("{line}");
        }
        Ok(imported.scene)
    } else {
        Ok(super::progress::load(path)?)
    }
}

/// `graft figure`: the scene framed, with the chosen layers, as SVG or PNG.
pub fn figure(args: &FigureArgs, out: &mut dyn Write) -> Result<(), Failure> {
    check_output(&args.output)?;
    let size = figure_size(&args.size)?;
    let mut scene = load_any(&args.file)?;
    scene.update_world();
    let mut layers = Layers::parse(&args.layers).map_err(Failure)?;
    // An animation of a selected node shows where it goes over the clip.
    layers.trails |= args.animate && args.select.is_some();
    let selection = match &args.select {
        Some(spec) => resolve_space(&scene, spec)?.into_iter().collect(),
        None => Vec::new(),
    };
    let options = FigureOptions {
        size,
        scale: args.scale,
        layers,
        selection,
        caption: !args.no_caption,
        camera: None,
        time: args.time.unwrap_or(0.0),
    };
    let dir = args.file.parent().map(Path::to_path_buf);
    check_sprite_files(&scene, dir.as_deref())?;
    let href = |path: &str| embedded_image(dir.as_deref(), path);
    if args.animate {
        return animated_figure(&scene, &options, args, &href, out);
    }
    let (scene, options) = match args.time {
        // A still of the clip: posed, and framed as the animation's frames are.
        Some(t) => {
            use crate::editor::view::figure::frames::{clip_camera, posed};
            let camera = Some(clip_camera(&scene, &options));
            (posed(&scene, t), FigureOptions { camera, ..options })
        }
        None => (scene, options),
    };
    let svg = figure_svg(&scene, &options, &href);
    let bytes = match FileKind::of(&args.output) {
        Some(FileKind::Svg) => svg.into_bytes(),
        Some(FileKind::Png) => render_png(&svg, args.scale)?,
        _ => {
            return Err(Failure(format!(
                "{}: a figure is .svg or .png",
                args.output.display()
            )));
        }
    };
    atomic_write::replace_with(&args.output, |w| w.write_all(&bytes))?;
    writeln!(
        out,
        "wrote {} ({}x{} px at scale {})",
        args.output.display(),
        size.0,
        size.1,
        args.scale
    )?;
    Ok(())
}

fn absolute(p: &Path) -> std::path::PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `--size WIDTHxHEIGHT`.
fn figure_size(text: &str) -> Result<(u32, u32), Failure> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .ok_or_else(|| {
            Failure(format!(
                "--size {text}: expected WIDTHxHEIGHT, e.g. 1600x1000"
            ))
        })?;
    if w == 0 || h == 0 {
        return Err(Failure(format!(
            "--size {text}: width and height must be at least 1"
        )));
    }
    Ok((w, h))
}

/// Refuse an output that is a folder before any work ("out/d.gif is a folder").
fn check_output(output: &Path) -> Result<(), Failure> {
    if output.is_dir() {
        return Err(Failure(format!(
            "{} is a folder: give a file name to write",
            output.display()
        )));
    }
    Ok(())
}

/// Refuse `--animate` (or an HTML player page) for a scene with nothing animated: its file
/// would be the still, 60 identical frames, or a page playing nothing.
fn check_animated(scene: &crate::model::scene::Scene, input: &Path) -> Result<(), Failure> {
    if scene.animated_nodes().is_empty() {
        return Err(Failure(format!(
            "{}: nothing in this scene is animated (no keys), so there is no clip to play; \
             leave out --animate for a still",
            input.display()
        )));
    }
    Ok(())
}

/// `graft figure --animate`: the clip drawn frame by frame into a GIF or an APNG, with a
/// progress bar on a terminal.
fn animated_figure(
    scene: &crate::model::scene::Scene,
    options: &FigureOptions,
    args: &FigureArgs,
    href: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    use crate::editor::view::figure::frames::{FrameFormat, FramePlan, encode_clip};
    check_animated(scene, &args.file)?;
    let format = FrameFormat::for_path(&args.output).ok_or_else(|| {
        Failure(format!(
            "{}: an animated figure is .gif or .png (APNG)",
            args.output.display()
        ))
    })?;
    let plan = FramePlan::for_clip(scene, args.fps)?;
    let label = args.output.display().to_string();
    let bytes = super::progress::with_progress(&label, |progress| {
        encode_clip(scene, options, &plan, format, href, progress)
    })?
    .ok_or_else(|| Failure("cancelled".into()))?;
    atomic_write::replace_with(&args.output, |w| w.write_all(&bytes))?;
    let clip = scene.clip();
    writeln!(
        out,
        "wrote {} ({} frames at {} fps, {}x{} px, {} s clip, {})",
        args.output.display(),
        plan.times.len(),
        plan.fps,
        options.size.0,
        options.size.1,
        clip.length,
        if plan.repeat {
            "looping"
        } else {
            "playing once"
        }
    )?;
    Ok(())
}
