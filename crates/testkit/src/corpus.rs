//! Replaying the committed fuzz corpora: every input of `fuzz/corpus/<target>/` and
//! `fuzz/regressions/<target>/` goes through the target's invariant in a plain test.

use std::path::Path;

/// Replays every input of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` under
/// `fuzz_dir` through `check`; returns how many there were. Tests of each crate call this with
/// their target's invariant.
pub fn replay_corpus(fuzz_dir: &Path, target: &str, mut check: impl FnMut(&[u8])) -> usize {
    let mut count = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir.join(dir).join(target)) else {
            continue;
        };
        for entry in entries.flatten() {
            let data = std::fs::read(entry.path())
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", entry.path().display()));
            check(&data);
            count += 1;
        }
    }
    count
}
