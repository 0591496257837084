//! Translation between HLO and StableHLO-like MLIR ops, in both directions, through one op table.
//!
//! * [`import`]: HLO modules as MLIR text (fusions as `xla_indexing.fusion` of StableHLO-like
//!   ops, the generic form JAX prints).
//! * [`stablehlo`]: StableHLO-like ops as HLO text, for the HLO analysis (one op, what
//!   `xla-indexing-annotate` attaches maps to) and for code generation (the body of an
//!   `xla_indexing.fusion`).
//! * `op_table`: one entry per op family (HLO opcode, StableHLO name, attribute converters in
//!   both directions), which [`import`] and [`stablehlo`] both translate through.

#![warn(missing_docs)]

pub mod import;
mod op_table;
pub mod stablehlo;
