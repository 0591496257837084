//! Replays the committed fuzz corpora and crash inputs (`tc_parser`, `sched_parser`) through the invariants the fuzz
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
fn tc_parser_corpus() {
    replay(
        "tc_parser",
        xla_indexing_testkit::invariants::loops::tc_text_is_handled,
    );
}

#[test]
fn sched_parser_corpus() {
    replay(
        "sched_parser",
        xla_indexing_testkit::invariants::loops::sched_text_is_handled,
    );
}
