//! Any text as a scene file: the loader (the fast reader for the form graft writes, ron for
//! anything else) and ron alone give bit-identical scenes or the same error (issue 37).
#![no_main]

use graft::model::file::{parse, parse_with_ron_only, to_ron_string};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let path = Path::new("fuzz.ron");
    let loaded = parse(text, path);
    let reference = parse_with_ron_only(text, path);
    match (&loaded, &reference) {
        (Ok(a), Ok(b)) => {
            assert!(a == b, "the readers give different scenes");
            assert_eq!(a.next_id(), b.next_id());
            assert_eq!(to_ron_string(a), to_ron_string(b), "different bits");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!(
            "the readers disagree: loader ok {}, ron ok {}",
            loaded.is_ok(),
            reference.is_ok()
        ),
    }
});
