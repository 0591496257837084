//! The project's MLIR layer and the only crate that calls the MLIR C API.
//!
//! * [`dialect`]: the `xla_indexing` dialect (C++ from `dialect/`, built and linked by
//!   `build.rs`), registered and loaded through its C API.
//! * [`map_attribute`] / [`attribute_map`]: `#xla_indexing.map<"...">` attributes to and from
//!   [`IndexingMap`](xla_indexing_core::IndexingMap)s.
//! * [`launch_attribute`] / [`attribute_launch`]: `#xla_indexing.launch<block = [..], grid = [..],
//!   map = "...">` attributes to and from [`KernelLaunch`]es (launch dimensions and thread-id map).
//! * [`evaluate`]: the integer arithmetic of a function evaluated at a point (the reference
//!   semantics of the index passes' tests and fuzzing).
//! * [`ir`]: reading and querying IR through the C API (names, constants, uses, dominance, side
//!   effects) and the greedy driver with a listener for erased values.
//! * [`affine`]: MLIR affine expressions to and from the core's expressions.
//! * [`passes`]: the passes (`xla-indexing-simplify`, `-lower-apply`, `-annotate`,
//!   `-launch-grid`, `-coalescing`, `-lower-fusion`).
//! * [`stablehlo`]: StableHLO-like ops as HLO text, for the HLO analysis (one op) and for code
//!   generation (the body of an `xla_indexing.fusion`).
//! * [`codegen`]: fusions of an HLO module as GPU kernels (`gpu.func` over the thread-id map),
//!   and their lowering to NVVM, LLVM IR and PTX.
//! * [`import`]: HLO modules as MLIR text (fusions as `xla_indexing.fusion` of StableHLO-like ops).
//! * `op_table`: one entry per op family (HLO opcode, StableHLO name, attribute converters in
//!   both directions), which [`import`] and [`stablehlo`] both translate through.
//! * [`opt`]: pass pipelines run in process, as `mlir-opt` with the plugin runs them.
//! * [`ods`]: typed op builders generated from the dialect's `.td` by `melior::dialect!`.
//! * `xla_indexing_map_canonicalize`: the `extern "C"` entry point through which the C++
//!   attribute parses and verifies map text with the Rust grammar of `xla-indexing-core`, so that
//!   MLIR and the command line share one grammar.

#![warn(missing_docs)]

pub mod affine;
mod attribute;
pub mod codegen;
pub mod dialect;
pub mod evaluate;
mod guard;
pub mod import;
pub mod ir;
mod launch;
mod map_text;
// The builders and accessors `melior::dialect!` generates carry the `.td`'s summaries, not
// Rust doc comments.
#[allow(missing_docs)]
pub mod ods;
mod op_table;
pub mod opt;
pub mod passes;
pub mod stablehlo;

pub use attribute::{AttributeError, attribute_map, map_attribute, parse_map_attribute};
pub use launch::{
    KernelLaunch, LAUNCH_ATTRIBUTE, attribute_launch, is_launch_attribute, launch_attribute,
};
