//! Fuzz the SVG importer: any bytes as an SVG drawing must give a scene (with notes) or an
//! error, never a panic; an imported scene saves as .ron and loads back unchanged, and exports
//! to an SVG that imports again.
#![no_main]

use graft::model::svg::export::{Images, SvgOptions, scene_to_svg};
use graft::model::svg::import::import_svg_text;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};

/// A folder that does not exist: linked images resolve to nothing, nothing is read or written.
const DIR: &str = "/nonexistent-graft-fuzz";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new(DIR).join("drawing.svg");
    let Ok(imported) = import_svg_text(text, &path) else {
        return;
    };
    let scene = imported.scene;
    let saved = graft::model::file::to_ron_string(&scene);
    let back = graft::model::file::parse(&saved, Path::new("saved.ron"))
        .expect("an imported scene saves and loads");
    assert_eq!(
        graft::model::file::to_ron_string(&back),
        saved,
        "save → load changed the scene"
    );
    // Linked (not embedded) images: the export reads no file.
    let options = SvgOptions {
        scene_dir: Some(PathBuf::from(DIR)),
        svg_dir: Some(PathBuf::from(DIR)),
        images: Images::Link,
        animate: false,
    };
    let (svg, _) = scene_to_svg(&scene, &options);
    import_svg_text(&svg, &path).expect("an exported scene imports again");
    let mut scene = scene;
    scene.update_world();
});
