//! The desktop files agree with the program: the icon is what `graft figure` draws from its
//! scene today, the application id is one everywhere, the MIME magic is the saver's first line
//! (and every sample scene carries it), the thumbnailer's Exec line parses and draws at the
//! asked size, a broken or oversized scene gives no thumbnail, and the man pages and
//! completions come from the real command line.

use clap::Parser;
use graft::tools::cli::Cli;
use graft::tools::desktop::APP_ID;
use std::path::Path;
use std::process::Command;

const GRAFT: &str = env!("CARGO_BIN_EXE_graft");

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_committed_icon_is_what_graft_draws_today() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("icon.svg");
    let status = Command::new(GRAFT)
        .args([
            "figure",
            "packaging/icon/graft-icon.ron",
            "--layers",
            "links",
            "--no-caption",
        ])
        .args(["--size", "128x128", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let committed = read(&format!(
        "packaging/icons/hicolor/scalable/apps/{APP_ID}.svg"
    ));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        committed,
        "rerun packaging/make-icons.sh"
    );
    for n in [16, 24, 32, 48, 64, 128, 256, 512] {
        let png = format!("packaging/icons/hicolor/{n}x{n}/apps/{APP_ID}.png");
        let size = imagesize::size(&png).unwrap_or_else(|e| panic!("{png}: {e}"));
        assert_eq!((size.width, size.height), (n, n), "{png}");
    }
}

#[test]
fn one_application_id_everywhere() {
    let desktop = read(&format!("packaging/{APP_ID}.desktop"));
    assert!(desktop.contains(&format!("Icon={APP_ID}\n")));
    assert!(desktop.contains(&format!("StartupWMClass={APP_ID}\n")));
    let metainfo = read(&format!("packaging/{APP_ID}.metainfo.xml"));
    assert!(metainfo.contains(&format!("<id>{APP_ID}</id>")));
    assert!(metainfo.contains(&format!("{APP_ID}.desktop</launchable>")));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        metainfo.contains(&format!("version=\"{version}\"")),
        "a release entry for {version}"
    );
}

#[test]
fn the_mime_magic_is_the_first_line_graft_writes() {
    let mime = read(&format!("packaging/{APP_ID}.mime.xml"));
    let magic = "// graft scene";
    assert!(
        mime.contains(&format!("value=\"{magic}\" offset=\"0\"")),
        "{mime}"
    );
    let mut outside_comments = String::new();
    for (k, part) in mime.split("<!--").enumerate() {
        outside_comments += if k == 0 {
            part
        } else {
            part.split_once("-->").map_or("", |p| p.1)
        };
    }
    assert!(
        !outside_comments.contains("*.ron"),
        "graft does not claim every .ron file"
    );
    let saved =
        graft::model::file::to_ron_string(graft::model::document::Document::sample().scene());
    assert!(
        saved.starts_with(magic),
        "the saver's first line: {saved:.60}"
    );
    for entry in std::fs::read_dir("scenes").unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(
            text.starts_with(magic),
            "{} lacks the magic first line",
            entry.path().display()
        );
    }
}

/// The thumbnailer's Exec line with %s, %i and %o substituted, as a file manager runs it.
fn thumbnailer_args(size: u32, input: &Path, output: &Path) -> Vec<String> {
    let entry = read(&format!("packaging/{APP_ID}.thumbnailer"));
    let exec = entry
        .lines()
        .find_map(|l| l.strip_prefix("Exec="))
        .expect("an Exec line");
    exec.split_whitespace()
        .map(|word| match word {
            "%s" => size.to_string(),
            "%i" => input.display().to_string(),
            "%o" => output.display().to_string(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn the_thumbnailer_draws_every_sample_at_the_asked_size() {
    let dir = tempfile::tempdir().unwrap();
    let tscn = dir.path().join("small.tscn");
    std::fs::write(
        &tscn,
        "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"A\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(40, 20)\nrotation = 0.5\n",
    )
    .unwrap();
    let mut inputs: Vec<_> = std::fs::read_dir("scenes")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    inputs.push(tscn);
    for (k, input) in inputs.iter().enumerate() {
        let size = [64, 128, 256][k % 3];
        let output = dir.path().join(format!("thumb-{k}.png"));
        let args = thumbnailer_args(size, input, &output);
        assert_eq!(args[0], "graft");
        Cli::try_parse_from(&args).expect("the Exec line parses");
        let run = Command::new(GRAFT).args(&args[1..]).output().unwrap();
        assert!(
            run.status.success(),
            "{}: {}",
            input.display(),
            String::from_utf8_lossy(&run.stderr)
        );
        let got = imagesize::size(&output).unwrap();
        assert_eq!(
            (got.width, got.height),
            (size as usize, size as usize),
            "{}",
            input.display()
        );
    }
}

#[test]
fn a_broken_or_oversized_scene_gives_no_thumbnail() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ron");
    std::fs::write(
        &broken,
        "// graft scene, format 3\n(format: 3, nodes: [(id: 1,",
    )
    .unwrap();
    let big = dir.path().join("big.ron");
    std::fs::write(&big, vec![b' '; 2 << 20]).unwrap();
    for (input, extra) in [(&broken, vec![]), (&big, vec!["--max-file-size", "1"])] {
        let output = dir.path().join("none.png");
        let mut args = thumbnailer_args(128, input, &output);
        let at = args.iter().position(|a| a == "--").unwrap();
        args.splice(at..at, extra.iter().map(|s| s.to_string()));
        let run = Command::new(GRAFT).args(&args[1..]).output().unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", input.display());
        assert!(!output.exists(), "no file for {}", input.display());
        let leftovers = std::fs::read_dir(dir.path()).unwrap().flatten().count();
        assert_eq!(leftovers, 2, "no temporary file left behind");
    }
}

#[test]
fn man_pages_and_completions_come_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new(GRAFT)
        .args(["man", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(run.status.success());
    for page in [
        "graft.1",
        "graft-print.1",
        "graft-recover.1",
        "graft-bench-journal.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(".TH"), "{page} is a man page");
    }
    for shell in ["bash", "zsh", "fish"] {
        let out = Command::new(GRAFT)
            .args(["completions", shell])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("reparent"),
            "{shell}: {text:.200}"
        );
    }
}
