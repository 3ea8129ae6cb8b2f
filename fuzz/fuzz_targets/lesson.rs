//! Fuzz the lesson reader and player: any bytes as a lesson must parse or be refused, never
//! panic; a lesson that parses is played as `graft lesson check` plays it (every step's start,
//! goals before and after its solution, through the editor's commands): an error or failed
//! goals, never a panic. Its paragraphs and hints are cut into spans as the panel shows them.
#![no_main]

use graft::editor::lesson::{SceneSource, parse, text};
use graft::editor::session::lesson::walk_lesson;
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

/// `GRAFT_FUZZ_DEBUG=1`: print what each input gave (to see what a corpus file reaches).
fn debug() -> bool {
    static DEBUG: OnceLock<bool> = OnceLock::new();
    *DEBUG.get_or_init(|| std::env::var_os("GRAFT_FUZZ_DEBUG").is_some())
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse::is_lesson(source);
    // In a folder that does not exist, `scene: FILE` names nothing (a clean error) …
    let path = Path::new("/nonexistent-graft-fuzz/fuzz.lesson");
    let lesson = match parse::parse(source, path) {
        Ok(lesson) => lesson,
        Err(e) => {
            if debug() {
                eprintln!("parse: {e}");
            }
            return;
        }
    };
    for paragraph in lesson.intro.iter().chain(
        lesson
            .steps
            .iter()
            .flat_map(|s| s.text.iter().chain(&s.hints)),
    ) {
        let _ = text::spans(paragraph);
        let _ = text::linked_names(paragraph);
    }
    // … except an absolute path, which would read whatever the machine has there: not played.
    let absolute = lesson.steps.iter().any(|s| {
        matches!(&s.scene, Some((SceneSource::File(file), _)) if file.has_root() || file.is_absolute())
    });
    if absolute {
        return;
    }
    let walked = walk_lesson(&lesson);
    if debug() {
        match walked {
            Ok((_, failures)) => {
                eprintln!(
                    "played {} steps, {} failures",
                    lesson.steps.len(),
                    failures.len()
                );
                for f in failures {
                    eprintln!("  {}", f.message);
                }
            }
            Err(e) => eprintln!("play: {e}"),
        }
    }
});
