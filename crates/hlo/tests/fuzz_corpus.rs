//! Replays the committed fuzz corpus and crash inputs of the `hlo_parser` target
//! (`fuzz/corpus/hlo_parser/`, `fuzz/regressions/hlo_parser/`) through the invariant it checks.

use std::path::Path;

#[test]
fn hlo_parser_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut count = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("hlo_parser")) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            xla_indexing_hlo::invariants::hlo_text_is_handled(&std::fs::read(&path).unwrap());
            count += 1;
        }
    }
    assert!(count > 0, "no corpus for hlo_parser");
}
