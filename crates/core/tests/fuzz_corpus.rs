//! Replays the committed fuzz corpora and crash inputs (`fuzz/corpus/<target>/`,
//! `fuzz/regressions/<target>/`) through the invariants the fuzz targets check.

use std::path::Path;

use xla_indexing_core::invariants;

fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut count = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            check(&std::fs::read(&path).unwrap());
            count += 1;
        }
    }
    assert!(count > 0, "no corpus for {target}");
}

#[test]
fn map_parser_corpus() {
    replay("map_parser", invariants::map_text_round_trips);
}

#[test]
fn simplifier_corpus() {
    replay("simplifier", invariants::simplification_is_sound);
}
