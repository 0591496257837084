//! Test oracles and test support: a dev-dependency of every crate whose tests need them, and the
//! fuzz targets' library. Product crates hold no oracles; each layer's are here, behind a
//! feature named after the layer, so that a crate's tests depend on the layers they check and
//! no further.
//!
//! * [`rng`] (feature `core`): a seeded generator, and random quasi-affine expressions.
//! * [`index_program`] (feature `core`): random functions of index arithmetic (`arith`,
//!   `affine`, `xla_indexing.apply_indexing`, `scf.if`), chains of ops whose values have random
//!   numbers of uses, with the value of every result at every point of their arguments' small
//!   domains.
//! * [`evaluate`] (feature `mlir`): the reference semantics of index arithmetic, a function of
//!   `arith`, `affine`, `apply_indexing` and `scf.if` ops evaluated at a point, and a GPU
//!   kernel's stores at a point of its ids and loops (`examples/kernel_soundness.rs` checks
//!   `cargo xtask bench mlir`'s outputs with it).
//! * [`invariants`]: what each layer keeps on any input (see there for the features).
//! * [`grid`]: the points of small boxes.
//! * [`corpus`]: replaying the committed fuzz corpora in plain tests.
//! * [`tools`]: tests that need a tool fail without it under `cargo xtask test` and CI.

#![warn(missing_docs)]

pub mod corpus;
#[cfg(feature = "mlir")]
pub mod evaluate;
pub mod grid;
#[cfg(feature = "core")]
pub mod index_program;
pub mod invariants;
#[cfg(feature = "core")]
pub mod rng;
pub mod tools;

/// How many random cases a property test runs: `default`, or `XLA_INDEXING_PROPTEST_CASES` for
/// long runs.
pub fn proptest_cases(default: u64) -> u64 {
    std::env::var("XLA_INDEXING_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
