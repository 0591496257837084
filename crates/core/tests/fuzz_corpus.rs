//! Replays the committed fuzz corpora and crash inputs (`map_parser`, `simplifier`) through the invariants the fuzz
//! targets check.

use std::path::Path;

use xla_indexing_testkit::corpus::replay_corpus;

fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    assert!(
        replay_corpus(&fuzz, target, check) > 0,
        "no corpus for {target}"
    );
}

#[test]
fn map_parser_corpus() {
    replay(
        "map_parser",
        xla_indexing_testkit::invariants::maps::map_text_round_trips,
    );
}

#[test]
fn simplifier_corpus() {
    replay(
        "simplifier",
        xla_indexing_testkit::invariants::maps::simplification_is_sound,
    );
}
