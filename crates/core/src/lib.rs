//! Indexing maps for tensor programs: the pure mathematics of xla-indexing.
//!
//! An [`IndexingMap`] maps the multi-index of one tensor to the indices of another (for example an
//! op's output to one of its operands). Its results are quasi-affine [`Expr`]essions (`+`, `-`,
//! multiplication by constants, `floordiv`, `ceildiv`, `mod` by constants) over dimension
//! variables, range variables and runtime variables, each with an [`Interval`] of values, plus
//! constraints `expr in [lo, hi]` that restrict the domain.
//!
//! ```
//! use xla_indexing_core::IndexingMap;
//!
//! // Collapsing f32[4, 8] to f32[32] reads element (d0 floordiv 8, d0 mod 8) of the input.
//! let collapse = IndexingMap::parse("(d0) -> (d0 floordiv 8, d0 mod 8), domain: d0 in [0, 31]").unwrap();
//! // Expanding back to f32[4, 8] reads element d0 * 8 + d1.
//! let expand = IndexingMap::parse("(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]").unwrap();
//! let mut round_trip = expand.compose(&collapse).unwrap();
//! round_trip.simplify();
//! assert_eq!(round_trip.to_string(), "(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 7]");
//! ```
//!
//! This crate has no I/O and no dependency on MLIR or HLO.

#![warn(missing_docs)]

pub mod expr;
pub mod interval;
pub mod map;
pub mod names;
pub mod print;
pub mod range;
pub mod simplify;
pub mod stack;
pub mod text;

pub use expr::{ArithError, Atom, Cost, Division, Expr, Extremum, VarRef};
pub use interval::Interval;
pub use map::{ComposeError, IndexingMap, Var, VarKind, VerifyError};
pub use print::Syntax;
pub use range::RangeEvaluator;
pub use text::{DimNames, DisplayMap, ParseError, parse_expr, parse_expr_in};
