//! Any bytes as a crash journal: the reader stops at the first cut or damaged record, never
//! panics, and whatever it recovers is a scene that saves and loads back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|bytes: &[u8]| {
    let _ = graft::model::journal::summarize(bytes);
    if let Ok(recovered) = graft::model::journal::recover(bytes) {
        assert!(recovered.whole_bytes <= bytes.len());
        let scene = recovered.document.scene();
        let saved = graft::model::file::to_ron_string(scene);
        let back = graft::model::file::parse(&saved, Path::new("saved.ron"))
            .expect("a recovered scene saves and loads");
        assert_eq!(graft::model::file::to_ron_string(&back), saved);
    }
});
