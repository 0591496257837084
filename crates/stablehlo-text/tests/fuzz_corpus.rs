//! Replays the committed fuzz corpus and crash inputs of `stablehlo_text` through the invariant
//! its fuzz target checks.

use std::path::Path;

use xla_indexing_testkit::corpus::replay_corpus;
use xla_indexing_testkit::invariants::stablehlo_text::pretty_text_is_handled;

#[test]
fn stablehlo_text_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    assert!(replay_corpus(&fuzz, "stablehlo_text", pretty_text_is_handled) > 0);
}
