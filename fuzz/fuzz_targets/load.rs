//! Fuzz the scene loader: any bytes must give a scene or an error, never a panic; a scene that
//! loads must save and load back to the same scene.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scene) = graft::model::file::parse(text, Path::new("fuzz.ron")) {
        let saved = graft::model::file::to_ron_string(&scene);
        let back = graft::model::file::parse(&saved, Path::new("saved.ron")).expect("a saved scene loads");
        assert!(back == scene, "save → load changed the scene");
        let mut scene = scene;
        scene.update_world();
    }
});
