//! Test support (a dev-dependency of every crate, and the fuzz targets' library).
//!
//! * [`index_program`]: random functions of index arithmetic (`arith`, `affine`,
//!   `xla_indexing.apply_indexing`, `scf.if`), chains of ops whose values have random numbers of
//!   uses, with the value of every result at every point of their arguments' small domains.
//! * [`corpus`]: replaying the committed fuzz corpora in plain tests.
//! * `invariants` (feature `mlir`, on by default): what the MLIR passes must keep: running
//!   them changes no value where the function's value is defined, never fails on valid input,
//!   and reaches a fixed point.
//! * [`tools`]: tests that need a tool fail without it under `cargo xtask test` and CI.

#![warn(missing_docs)]

pub mod corpus;
pub mod index_program;
#[cfg(feature = "mlir")]
pub mod invariants;
pub mod tools;

/// How many random cases a property test runs: `default`, or `XLA_INDEXING_PROPTEST_CASES` for
/// long runs.
pub fn proptest_cases(default: u64) -> u64 {
    std::env::var("XLA_INDEXING_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
