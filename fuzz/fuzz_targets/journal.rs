//! Fuzz the crash journal's reader and its replay.
//!
//! 1. Any bytes as a journal: the reader stops at the first cut or damaged record, never
//!    panics, and whatever it recovers is a scene that saves and loads back unchanged; the
//!    journal compacted from it (as the editor compacts one) recovers the same scene.
//!    (Mutations rarely get past the checksums, so:)
//! 2. The same bytes with every record's checksum made right, so the mutations reach the
//!    postcard decoding and the replay of the changes, not only the CRC check: summary and
//!    recovery never panic; the recovered document saves and loads back unchanged and moves
//!    through its whole history (jump to the start, to the end, undo, redo) without a panic;
//!    its compacted journal recovers without a panic. Such a journal can hold edits whose
//!    "before" does not match the scene (a Remove whose stored subtree differs from the base:
//!    no writer makes one, and a flipped bit fails the checksum); then undoing to the start
//!    does not give the base scene back, and the compaction (which replays the history from
//!    the base) need not recover the same scene. When undoing to the start does give the base
//!    back, it must (checked for both the bytes as written and with checksums fixed).
#![no_main]

use graft::model::journal::{self, Frames, HEADER_LEN, MAX_RECORD, Record};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

/// `GRAFT_FUZZ_DEBUG=1`: print the records each input holds (to see what a corpus file reaches).
fn debug() -> bool {
    static DEBUG: OnceLock<bool> = OnceLock::new();
    *DEBUG.get_or_init(|| std::env::var_os("GRAFT_FUZZ_DEBUG").is_some())
}

fn print_records(what: &str, bytes: &[u8]) {
    let Ok(mut frames) = Frames::new(bytes) else {
        eprintln!("{what}: not a journal");
        return;
    };
    loop {
        match frames.next_payload() {
            Ok(payload) => eprintln!("{what}: {:?}", journal::decode(payload)),
            Err(stop) => {
                eprintln!("{what}: {stop:?} at {}", frames.offset());
                return;
            }
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    check(bytes, "as written");
    let fixed = with_checksums_fixed(bytes);
    if fixed != bytes {
        check(&fixed, "checksums fixed");
    }
});

/// The scene saves as .ron and loads back to the same text.
fn round_trip(scene: &graft::model::scene::Scene) -> String {
    let saved = graft::model::file::to_ron_string(scene);
    let back = graft::model::file::parse(&saved, Path::new("saved.ron"))
        .expect("a recovered scene saves and loads");
    assert_eq!(graft::model::file::to_ron_string(&back), saved);
    saved
}

/// `bytes` with each record's CRC-32 rewritten to match its payload (lengths as written; a
/// cut last record stays cut).
fn with_checksums_fixed(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = HEADER_LEN;
    while at + 8 <= out.len() {
        let len = u32::from_le_bytes(out[at..at + 4].try_into().unwrap()) as usize;
        if len > MAX_RECORD || at + 8 + len > out.len() {
            break;
        }
        let crc = crc32fast::hash(&out[at + 8..at + 8 + len]);
        out[at + 4..at + 8].copy_from_slice(&crc.to_le_bytes());
        at += 8 + len;
    }
    out
}

/// Summary, recovery, save and load, compaction and the whole history: never a panic. When
/// the history leads back to the base scene exactly (every edit's "before" matched), the
/// compacted journal recovers the same scene.
fn check(bytes: &[u8], label: &str) {
    if debug() {
        print_records(label, bytes);
    }
    let _ = journal::summarize(bytes);
    let Ok(recovered) = journal::recover(bytes) else { return };
    assert!(recovered.whole_bytes <= bytes.len());
    let mut document = recovered.document;
    let saved = round_trip(document.scene());
    let again = compacted(bytes, &document);

    // The whole history, back and forth: errors are fine, panics are not.
    let (labels, done) = document.history().labels();
    let steps = labels.len();
    let back_to_base = document.jump_to(0).is_ok()
        && graft::model::file::to_ron_string(document.scene()) == base_text(bytes);
    let _ = document.jump_to(steps);
    let _ = document.jump_to(done);
    let _ = document.undo();
    let _ = document.redo();
    document.update_world();
    round_trip(document.scene());

    if back_to_base {
        let again = again
            .expect("a recovered journal compacts")
            .expect("a compacted journal recovers");
        assert_eq!(
            graft::model::file::to_ron_string(again.document.scene()),
            saved,
            "the compacted journal recovers another scene"
        );
    } else if let Ok(Ok(again)) = again {
        round_trip(again.document.scene());
    }
}

/// The journal's base scene (recover parsed it) as graft writes it.
fn base_text(bytes: &[u8]) -> String {
    let mut frames = Frames::new(bytes).expect("recover read its header");
    frames.next_payload().expect("recover read a Begin");
    let payload = frames.next_payload().expect("recover read a Base");
    let Some(Record::Base { ron, .. }) = journal::decode(payload) else {
        unreachable!("recover decoded a Base")
    };
    let scene = graft::model::file::parse(&ron, Path::new("base.ron")).expect("recover parsed it");
    graft::model::file::to_ron_string(&scene)
}

/// The journal `bytes` compacted as the editor compacts it (its Begin, its base record as
/// written, `document`'s history), recovered. Outer error: it could not be compacted.
fn compacted(
    bytes: &[u8],
    document: &graft::model::document::Document,
) -> graft::Result<graft::Result<journal::Recovered>> {
    let mut frames = Frames::new(bytes).expect("recover read its header");
    let begin = match frames.next_payload().ok().and_then(journal::decode) {
        Some(Record::Begin(begin)) => begin,
        _ => unreachable!("recover read a Begin"),
    };
    let base_start = frames.offset();
    frames.next_payload().expect("recover read a Base");
    let base = &bytes[base_start..frames.offset()];
    let compacted = journal::compacted(&begin, base, document)?;
    if debug() {
        print_records("compacted", &compacted);
    }
    Ok(journal::recover(&compacted))
}
