//! Property test of `xla-indexing-simplify` (alone, and followed by `xla-indexing-lower-apply`)
//! on random functions of index arithmetic: chains of `arith`, `affine`, `apply_indexing` and
//! `scf.if` ops whose values have random numbers of uses, over small argument domains. At every
//! point of the domain, every result defined before the passes must be the same after; the
//! generator's own values must be what MLIR's semantics give; the pass must succeed, reach a
//! fixed point, and (checked by the pass itself in debug builds) leave no function costlier.
//! `XLA_INDEXING_PROPTEST_CASES` raises the number of programs for long runs.

use xla_indexing_passes::opt::OptOptions;
use xla_indexing_testkit::invariants::passes::generated_program_is_kept;

/// Cases in all; `XLA_INDEXING_PROPTEST_CASES` raises it for long runs.
fn cases() -> u64 {
    xla_indexing_testkit::proptest_cases(400)
}

#[test]
fn random_programs_keep_their_values() {
    let session = xla_indexing_passes::opt::session("generated", OptOptions::default());
    let (mut functions, mut points) = (0, 0);
    for seed in 0..cases() {
        let covered = generated_program_is_kept(&session, seed).unwrap_or_else(|e| panic!("{e}"));
        functions += covered.functions;
        points += covered.points;
    }
    // Both pipelines ran on every program, at many points.
    assert_eq!(
        functions as u64,
        2 * cases(),
        "{functions} functions checked"
    );
    assert!(points as u64 > 20 * cases(), "{points} points");
}
