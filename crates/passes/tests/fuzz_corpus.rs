//! Replays the committed corpus and crash inputs of the `index_passes` fuzz target through the
//! invariant it checks (`xla_indexing_testkit::invariants::passes::fuzz_index_passes`).

use std::path::Path;

use xla_indexing_passes::opt::OptOptions;
use xla_indexing_testkit::corpus::replay_corpus;
use xla_indexing_testkit::invariants::passes::fuzz_index_passes;

#[test]
fn index_passes_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let session = xla_indexing_passes::opt::session("fuzz", OptOptions::default());
    let replayed = replay_corpus(&fuzz, "index_passes", |data| {
        fuzz_index_passes(&session, data)
    });
    assert!(replayed > 0, "no corpus for index_passes");
}
