//! The layers stay apart: egui, eframe and rfd are named only under `src/app/` (the model, the
//! editor and the tools build without the `editor` feature — `.ci/run` also checks that with
//! `cargo check --lib --no-default-features`).

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn egui_eframe_and_rfd_appear_only_in_the_app_folder() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    assert!(files.len() > 20, "found the sources");
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with("src/app")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if [
                "egui::",
                "eframe::",
                "rfd::",
                "use egui",
                "use eframe",
                "use rfd",
            ]
            .iter()
            .any(|p| code.contains(p))
            {
                offenders.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    // main.rs starts the window through `graft::app::run` behind the feature; nothing else may.
    offenders.retain(|o| !o.starts_with("src/main.rs"));
    assert!(
        offenders.is_empty(),
        "egui outside src/app:\n{}",
        offenders.join("\n")
    );
}
