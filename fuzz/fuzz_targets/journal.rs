//! Fuzz the crash journal's reader and its replay, on the bytes as written and on the same
//! bytes with every record's checksum made right (so that mutations reach the postcard
//! decoding and the replay of the changes, not only the CRC check):
//!
//! - summary and recovery never panic (the reader stops at the first cut or damaged record);
//! - whatever is recovered is a scene that saves and loads back unchanged;
//! - the journal compacted from it (as the editor compacts one: Begin, the base record as
//!   written, the history) recovers, to a scene that saves and loads;
//! - the recovered document moves through its whole history (jump to the start, to the end,
//!   undo, redo) without a panic, and still saves and loads.
//!
//! Not checked: that the compaction recovers the same scene as the journal itself. A journal
//! whose checksums hold can still hold edits whose "before" does not match the scene (a
//! Remove whose stored subtree differs from the base, a Move whose stored rotation differs):
//! no graft writes one and a flipped bit fails the checksum, but replay trusts the stored
//! "before" (undoing such an edit puts it in the scene), so the compaction, which replays
//! only the history that is left from the base, can recover another scene or stop early.
//! The fuzzer found three such journals in its first minutes (fuzz/README.md).
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

/// Summary, recovery, save and load, compaction and the whole history: never a panic.
fn check(bytes: &[u8], label: &str) {
    if debug() {
        print_records(label, bytes);
    }
    let _ = journal::summarize(bytes);
    let Ok(recovered) = journal::recover(bytes) else {
        return;
    };
    assert!(recovered.whole_bytes <= bytes.len());
    let mut document = recovered.document;
    round_trip(document.scene());

    // Compacted as the editor compacts it: the compaction recovers (its Begin and base are
    // the journal's), and what it recovers saves and loads.
    if let Ok((_, again)) = compacted(bytes, &document) {
        let again = again.expect("a compacted journal recovers");
        round_trip(again.document.scene());
    }

    // The whole history, back and forth: errors are fine, panics are not.
    let (labels, done) = document.history().labels();
    let steps = labels.len();
    let _ = document.jump_to(0);
    let _ = document.jump_to(steps);
    let _ = document.jump_to(done);
    let _ = document.undo();
    let _ = document.redo();
    document.update_world();
    round_trip(document.scene());
}

/// The journal `bytes` compacted as the editor compacts it (its Begin, its base record as
/// written, `document`'s history), and what it recovers.
fn compacted(
    bytes: &[u8],
    document: &graft::model::document::Document,
) -> graft::Result<(Vec<u8>, graft::Result<journal::Recovered>)> {
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
    let recovered = journal::recover(&compacted);
    Ok((compacted, recovered))
}
