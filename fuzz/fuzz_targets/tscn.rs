//! Fuzz the Godot importer: any bytes as a `.tscn` must give a scene (with a report) or an
//! error, never a panic; an imported scene exports to a `.tscn` that imports again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A path with no project.godot and no instanced files beside it: everything stays in memory.
    let path = Path::new("/nonexistent-graft-fuzz/scene.tscn");
    let _ = graft::model::godot::tscn::parse(text);
    if let Ok(imported) = graft::model::godot::import_text(text, path) {
        let options = graft::model::godot::export::ExportOptions::default();
        let (exported, _) = graft::model::godot::to_tscn(&imported.scene, &options);
        let back = graft::model::godot::import_text(&exported, path).expect("an exported scene imports");
        assert_eq!(back.scene.len(), imported.scene.len() + 1, "export adds exactly one root");
        let mut scene = imported.scene;
        scene.update_world();
    }
});
