//! Replays the committed fuzz corpora and crash inputs (`hlo_parser`) through the invariants the fuzz
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
fn hlo_parser_corpus() {
    replay(
        "hlo_parser",
        xla_indexing_testkit::invariants::hlo::hlo_text_is_handled,
    );
}
