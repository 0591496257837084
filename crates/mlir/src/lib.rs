//! The project's IR layer: the one crate that calls the MLIR C API. The passes
//! (`xla-indexing-passes`), the translation between HLO and StableHLO-like ops
//! (`xla-indexing-translate`) and the plugin build on what it offers.
//!
//! * [`dialect`]: the `xla_indexing` dialect and XLA's `xla`, `xtile` and `xla_cpu` (C++ from
//!   `dialect/`, built and linked by `build.rs`), registered and loaded through their C API.
//! * [`indexing_ops`]: the apply and loop ops of both `xla_indexing` and XLA's `xla`, recognized
//!   and read alike; `xla.pure_call` inlined.
//! * [`map_attribute`] / [`attribute_map`]: `#xla_indexing.map<"...">` attributes to and from
//!   [`IndexingMap`](xla_indexing_core::IndexingMap)s.
//! * [`launch_attribute`] / [`attribute_launch`]: `#xla_indexing.launch<block = [..], grid = [..],
//!   map = "...">` attributes to and from [`KernelLaunch`]es (block and grid sizes, thread-id map).
//! * [`index_op`]: the ops of index arithmetic (`arith`, `affine.apply`/`min`/`max`, the apply
//!   ops, the `gpu` ids and sizes) decoded once into an [`IndexOp`](index_op::IndexOp), which the
//!   passes match on instead of op names.
//! * [`ir`]: reading, querying and changing IR (names, constants, attributes, types, uses,
//!   dominance, side effects, ops moved and erased), the one place for lifetime stretching and
//!   identity keys, and diagnostics at a location.
//! * [`handles`]: ops, blocks and values held by identity while the IR around them changes
//!   (inserted, moved, erased); every lifetime stretch of the project is there.
//! * [`rewrite`]: Rust rewrite patterns in MLIR's greedy driver, with a listener for what it
//!   erases.
//! * [`pass_host`]: Rust passes with options, registered in MLIR's registry and reporting
//!   errors at an op (through the generic C++ pass of `dialect/`).
//! * `ffi`: the C API of `dialect/`, declared once.
//! * [`affine`]: MLIR affine expressions to and from the core's expressions.
//! * [`session`]: a context as `mlir-opt` with the plugin has, parsing files and running
//!   pipelines with their diagnostics collected and located.
//! * [`guard`]: Rust panics kept out of MLIR's callbacks; diagnostics emitted at a location.
//! * [`ods`]: typed op builders generated from the dialect's `.td` by `melior::dialect!`.
//! * `xla_indexing_map_canonicalize`: the `extern "C"` entry point through which the C++
//!   attribute parses and verifies map text with the Rust grammar of `xla-indexing-core`, so that
//!   MLIR and the command line share one grammar.

#![warn(missing_docs)]

pub mod affine;
mod attribute;
pub mod dialect;
mod ffi;
pub mod guard;
pub mod handles;
pub mod index_op;
pub mod indexing_ops;
pub mod ir;
mod launch;
mod map_text;
pub mod pass_host;
pub mod rewrite;
// The builders and accessors `melior::dialect!` generates carry the `.td`'s summaries, not
// Rust doc comments.
#[allow(missing_docs)]
pub mod ods;
pub mod session;

pub use attribute::{
    AttributeError, attribute_map, map_attribute, parse_map_attribute, xla_map_attribute,
};
pub use launch::{
    KernelLaunch, LAUNCH_ATTRIBUTE, attribute_launch, is_launch_attribute, launch_attribute,
};
