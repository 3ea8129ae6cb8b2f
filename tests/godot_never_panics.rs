//! The Godot importer on damaged input: random truncations and byte edits of a realistic scene
//! give a scene or an error, never a panic; an imported scene always exports and imports again.

use graft::model::godot::export::ExportOptions;
use graft::model::godot::{import_text, to_tscn};
use proptest::prelude::*;
use std::path::Path;

const SCENE: &str = include_str!("../fuzz/seeds-tscn/small.tscn");

fn check(text: &str) -> Result<(), TestCaseError> {
    let path = Path::new("/nonexistent-graft-test/scene.tscn");
    if let Ok(imported) = import_text(text, path) {
        let (exported, _) = to_tscn(&imported.scene, &ExportOptions::default());
        let back = import_text(&exported, path)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{exported}")))?;
        prop_assert_eq!(back.scene.len(), imported.scene.len() + 1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn truncated_scenes_never_panic(cut in 0usize..SCENE.len()) {
        let cut = (0..=cut).rev().find(|&c| SCENE.is_char_boundary(c)).unwrap_or(0);
        check(&SCENE[..cut])?;
    }

    #[test]
    fn edited_scenes_never_panic(edits in prop::collection::vec((0usize..SCENE.len(), any::<u8>()), 1..6)) {
        let mut bytes = SCENE.as_bytes().to_vec();
        for (at, b) in edits {
            const ALPHABET: &[u8] = b"[]()=\",.-0123456789e xyz\n{}:";
            bytes[at] = ALPHABET[b as usize % ALPHABET.len()];
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            check(text)?;
        }
    }
}

#[test]
fn the_seed_scene_imports_with_godot_numbers() {
    let imported = import_text(SCENE, Path::new("/nonexistent-graft-test/scene.tscn")).unwrap();
    let names: Vec<&str> = (0..imported.scene.len())
        .map(|i| imported.scene.data_at(i).name.as_str())
        .collect();
    // The CanvasLayer becomes a root: Root, Body, Poly, then Layer and its HUD.
    assert_eq!(names, ["Root", "Body", "Poly", "Layer", "Hud"]);
    let hud = imported.scene.world_at(4);
    // Layer offset (3, 4) y-down → (3, -4) y-up; the HUD's top-left is at the layer's origin.
    assert!((hud.translation - glam::Vec2::new(3.0, -4.0)).length() < 1e-6);
    assert!(
        imported
            .report
            .notes
            .iter()
            .any(|n| n.message.contains("CanvasLayer"))
    );
}
