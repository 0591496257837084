//! Replays the committed fuzz corpora and crash inputs of the `tc_parser` and `sched_parser`
//! targets (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) through the invariants they
//! check.

use std::path::Path;

use xla_indexing_loops::invariants;

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
fn tc_parser_corpus() {
    replay("tc_parser", invariants::tc_text_is_handled);
}

#[test]
fn sched_parser_corpus() {
    replay("sched_parser", invariants::sched_text_is_handled);
}
